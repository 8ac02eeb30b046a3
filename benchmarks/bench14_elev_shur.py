"""Whole-process throughput of ``validate``, ``stats`` and ``analyze`` on one record file, as a
user runs them (issue #14), for the Elevation and Shuriken 2D engines.

Plies are counted once through the library (every record replayed); each command is then run
``--repeat`` times as a subprocess and the best wall time is kept (the machine is shared, so
the best run is the least disturbed one). Not a test: it prints.

    notation-tools generate --game elevation --count 500 --seed 1 > /tmp/elev500.pgn
    python benchmarks/bench14_elev_shur.py /tmp/elev500.pgn [--repeat 5] [--commands validate,stats]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

from notation_tools.analysis.replay import replay
from notation_tools.records.pgn import read_records

COMMANDS = {
    "validate": ["validate", "-q"],
    "stats": ["stats", "-q", "-f", "csv"],
    "analyze": ["analyze", "-j", "1", "-f", "csv"],
}


def count_plies(path: str) -> tuple[int, int]:
    """Records and main-line plies replayed in ``path``."""
    records = plies = 0
    with open(path, encoding="utf-8") as handle:
        for record in read_records(handle, path):
            records += 1
            plies += replay(record).plies
    return records, plies


def best_time(arguments: list[str], path: str, repeat: int) -> tuple[float, float]:
    """The shortest wall time and the shortest CPU time (user + system) of ``repeat`` runs of
    ``notation-tools ARGUMENTS PATH``: on a loaded machine the CPU time shows the work done
    when the wall time mostly shows the wait for a core."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "notation_tools", *arguments, path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    return best_wall, best_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--commands", default="validate,stats,analyze")
    args = parser.parse_args()
    records, plies = count_plies(args.path)
    print(f"{args.path}: {records} records, {plies} plies")
    times = {}
    for name in args.commands.split(","):
        wall, cpu = times[name] = best_time(COMMANDS[name], args.path, args.repeat)
        print(f"{name:9s} best of {args.repeat}: wall {wall:7.3f} s {plies / wall:10,.0f} plies/s"
              f"   cpu {cpu:7.3f} s {plies / cpu:10,.0f} plies/s")
    if "validate" in times:
        for name in ("stats", "analyze"):
            if name in times:
                print(f"{name}/validate: wall {times[name][0] / times['validate'][0]:.2f}x"
                      f"   cpu {times[name][1] / times['validate'][1]:.2f}x")


if __name__ == "__main__":
    main()
