"""Whole-process throughput of Game of War and Shih validation, as a user runs it (issue #14).

For each game: generates (once, cached in --work) ``--count`` random games with
``notation-tools generate --seed``, then runs ``notation-tools validate FILE``, ``stats`` and
``analyze --jobs 1`` on that file ``--repeat`` times each, alternating the commands so that load
from other processes falls on all of them alike. Reports the best wall time and the best CPU
time (user + system of the child) of each command, plies/s of ``validate`` (total plies counted
from the ``stats --format csv`` output), and the stats/validate and analyze/validate ratios.

Run: python benchmarks/bench14_gow_shih.py [--games gow shih] [--count 500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path


def _command() -> list[str]:
    found = shutil.which("notation-tools")
    return [found] if found else [sys.executable, "-m", "notation_tools"]


def _timed(args: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system) and standard output of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} exited {done.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["gow", "shih"])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")))
    args = parser.parse_args()
    tool = _command()
    print(f"{'game':6} {'command':9} {'best wall s':>11} {'best cpu s':>10} "
          f"{'plies/s wall':>12} {'plies/s cpu':>11} {'x validate':>10}")
    for game in args.games:
        path = args.work / f"bench14-{game}-{args.count}-{args.seed}.pgn"
        if not path.exists():
            with path.open("w") as out:
                subprocess.run([*tool, "generate", "--game", game, "--count", str(args.count),
                                "--seed", str(args.seed)], stdout=out, check=True)
        commands = {"validate": ["validate", str(path)],
                    "stats": ["stats", "--format", "csv", str(path)],
                    "analyze": ["analyze", "--jobs", "1", str(path)]}
        best = {name: (float("inf"), float("inf")) for name in commands}
        plies = 0
        for _ in range(args.repeat):
            for name, rest in commands.items():
                wall, cpu, stdout = _timed([*tool, *rest])
                best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
                if name == "stats":
                    plies = sum(int(row["plies"]) for row in csv.DictReader(io.StringIO(stdout)))
        base_wall, base_cpu = best["validate"]
        for name, (wall, cpu) in best.items():
            print(f"{game:6} {name:9} {wall:11.2f} {cpu:10.2f} {plies / wall:12,.0f} "
                  f"{plies / cpu:11,.0f} {cpu / base_cpu:10.2f}")
        print(f"{game:6} {plies} plies in {args.count} records")


if __name__ == "__main__":
    main()
