"""Throughput of ``select`` against ``validate`` on one archive (issue #11).

Prints, whole process (``notation-tools ...`` as a user runs it), records/s of:
  * ``validate`` (replays every record);
  * ``select --tag`` (tags only: the container is parsed, nothing is replayed);
  * ``select --tag --dedupe`` (replays every record that passes the tags, keeps digests);
and each one's rate as a ratio to validate's.

Run:  python benchmarks/bench_select.py [--game elevation] [--games 1000] [--plies 60]
      [--copies 10]
The archive holds ``copies`` members of the same ``games`` generated games (so --dedupe
drops all but the first copy of each), made once into benchmarks/out/. Not a test.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from bench_foundation import make_archive


def run(args: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "notation_tools", *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="elevation")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--copies", type=int, default=10)
    options = parser.parse_args()
    archive, _ = make_archive(options.game, options.games, options.plies, options.copies)
    records = options.games * options.copies
    print(f"archive: {archive.name} ({records} records: {options.copies} copies of "
          f"{options.games} games, up to {options.plies} plies each)")
    tag = "White=random"  # every generated record has it: the selection keeps them all
    runs = {
        "validate": ["validate", "-q", str(archive)],
        f"select --tag {tag}": ["select", "-q", str(archive), "--tag", tag, "-o", "/dev/null"],
        f"select --tag {tag} --dedupe": ["select", "-q", str(archive), "--tag", tag,
                                         "--dedupe", "-o", "/dev/null"],
    }
    base = None
    for label, args in runs.items():
        seconds = run(args)
        rate = records / seconds
        base = base or rate
        print(f"{label:<40} {seconds:7.2f} s  {rate:9,.0f} records/s  {rate / base:5.2f}x "
              "validate's rate")


if __name__ == "__main__":
    main()
