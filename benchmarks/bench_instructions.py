"""What ``analyze`` and ``stats`` cost against ``validate``, counted in machine instructions
(issue #14). Not a test.

The seconds that ``bench_validate.py`` measures move with whatever else the machine runs; the
number of instructions a process executes does not. This script runs ``validate``,
``analyze --jobs 1`` and ``stats -f csv`` once each under valgrind's cachegrind (without its
cache simulation), on the same generated games as ``bench_validate.py`` (made on first use,
``--count`` of them; 100 by default, as valgrind runs a process some 30 times slower), and
prints the instructions of each and the ratios. Python's hash seed is fixed, so two runs of
one tree give the same counts within a few in a million: a change's effect can be read from
one run before and one after, on a busy machine too.

A process's fixed cost (starting Python, importing the game, building its tables) is the same
for the three commands and large beside 100 games' work (for Maka-Dai-Dai Shogi about 1.25 G
instructions, a third of ``validate`` on 100 games), so the ratios of whole runs on 100 games
understate those on ``bench_validate.py``'s 500. The script therefore also counts the three
commands on the file's first record alone and prints the ratios per record (each command's
count less its one-record count), which a larger input approaches, and the ratios of whole
runs that 500 games would give (the one-record counts plus five times the 100 games' work).

Instructions are not seconds: an instruction of the statistics can take longer than one of
the replay. The issue's limits are judged on ``bench_validate.py``'s times; this script says
whether a change moved the work, steadily. Needs ``valgrind`` (Debian:
``apt-get install valgrind``). Usage:

    python benchmarks/bench_instructions.py [--count 100] [--seed 14] [--games maka gow ...]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_validate import (  # noqa: E402 - the benchmark's own helpers, beside this file
    ANALYZE_LIMIT, ENVIRONMENT, GAMES, STATS_LIMIT, command, generated)

COMMANDS = (("validate", ["validate"]), ("analyze", ["analyze", "--jobs", "1"]),
            ("stats", ["stats", "-f", "csv"]))
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(argv: list[str]) -> int:
    """The instructions one run of ``argv`` executes, counted by cachegrind."""
    process = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**ENVIRONMENT, "PYTHONHASHSEED": "0"}, check=False)
    found = _REFS.search(process.stderr)
    if process.returncode not in (0, 1) or found is None:
        raise SystemExit(f"{' '.join(argv)} under valgrind failed:\n{process.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def first_record(path: Path) -> Path:
    """A file beside ``path`` holding its first record alone (a generated file's records each
    begin with an ``[Event`` tag)."""
    text = path.read_text(encoding="utf-8")
    second = text.find("\n[Event ", text.find("[Event ") + 1)
    first = path.with_name(f"{path.stem}-first.pgn")
    first.write_text(text if second < 0 else text[:second + 1], encoding="utf-8")
    return first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100, help="games per game")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    program = command()
    print(f"notation-tools, whole process, instructions (valgrind cachegrind); "
          f"{args.count} generated games each (seed {args.seed})\n")
    print(f"{'':10} {'':>14} {'':>14} {'':>14} {'whole runs':>17} {'':>9} "
          f"{'per record':>14} {'':>6} {'500 games':>13}")
    print(f"{'game':10} {'validate':>14} {'analyze':>14} {'stats':>14} "
          f"{'analyze/validate':>17} {'stats/v.':>9} {'analyze/v.':>14} {'stats/v.':>9} "
          f"{'analyze/v.':>12} {'stats/v.':>9}")
    scale = 500 / args.count
    for game in args.games:
        path = generated(game, args.count, args.seed)
        first = first_record(path)
        # An uncounted run first, as a user's second run: Python compiles the modules it
        # imports and caches them, which the first run after a change would count.
        subprocess.run([*program, "validate", str(path)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=ENVIRONMENT, check=False)
        counts = {name: instructions([*program, *words, str(path)])
                  for name, words in COMMANDS}
        fixed = {name: instructions([*program, *words, str(first)])
                 for name, words in COMMANDS}
        work = {name: counts[name] - fixed[name] for name in counts}
        at_500 = {name: fixed[name] + scale * work[name] for name in counts}
        ratios = [counts[name] / counts["validate"] for name in ("analyze", "stats")]
        ratios += [work[name] / work["validate"] for name in ("analyze", "stats")]
        ratios += [at_500[name] / at_500["validate"] for name in ("analyze", "stats")]
        print(f"{game:10} {counts['validate']:14,} {counts['analyze']:14,} "
              f"{counts['stats']:14,} {ratios[0]:17.3f} {ratios[1]:9.3f} {ratios[2]:14.3f} "
              f"{ratios[3]:9.3f} {ratios[4]:12.3f} {ratios[5]:9.3f}", flush=True)
    print(f"\n(the issue's limits, judged on times: analyze {ANALYZE_LIMIT}, stats {STATS_LIMIT};"
          f" PYTHONHASHSEED=0; {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
