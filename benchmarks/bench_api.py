"""The Python API's cost against ``validate``: iterating every position of every record.

Writes ``--games`` random legal Maka-Dai-Dai Shogi games (``notation-tools generate``'s
generator, default 200 plies each) to one PGN file, then times, on that file:

- ``validate``: ``notation-tools validate FILE --quiet``;
- ``positions``: ``for record in notation_tools.read(FILE): for _ in
  record.replay().positions(): pass`` (live positions, no copies);
- ``positions(copy=True)``: the same with a copy of the board per ply.

Both sides run in this process (``validate`` through its Click command, standard output
discarded), each ``--repeat`` times in turn; the best time of each is reported, with the
ratios to ``validate`` (issue #13 asks ``positions`` <= 1.3x). With ``--whole-process`` each
side runs as its own Python process instead (start-up included).

Run: ``python benchmarks/bench_api.py [--games N] [--plies N] [--seed N] [--repeat N]
[--whole-process]``. Not a test: it prints numbers and asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import notation_tools
from notation_tools.analysis.generate import generate_records
from notation_tools.cli import main
from notation_tools.records.writers import RECORD_WRITERS

ITERATE = ("import sys, notation_tools\n"
           "for record in notation_tools.read(sys.argv[1]):\n"
           "    for _ in record.replay().positions(copy={copy}):\n"
           "        pass\n")


def write_games(path: str, games: int, plies: int, seed: int) -> int:
    game = notation_tools.game("maka")
    total = 0
    with open(path, "w", encoding="utf-8") as out:
        writer = RECORD_WRITERS["pgn"](out)
        for record in generate_records(game, game.parse_rules(None), count=games, seed=seed,
                                       max_plies=plies):
            total += len(record.moves)
            writer.write(record)
        writer.end()
    return total


def validate_in_process(path: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            main.main(["validate", path, "--quiet"], standalone_mode=False)
        except SystemExit:
            pass


def positions_in_process(path: str, copy: bool) -> int:
    plies = 0
    for record in notation_tools.read(path):
        for _ in record.replay().positions(copy=copy):
            plies += 1
    return plies


def whole_process(arguments: list[str]) -> None:
    subprocess.run(arguments, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--whole-process", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "maka-generated.pgn")
        plies = write_games(path, args.games, args.plies, args.seed)
        print(f"{args.games} generated Maka games, {plies} plies, "
              f"{os.path.getsize(path) / 1e6:.1f} MB")
        if args.whole_process:
            cli = [sys.executable, "-m", "notation_tools", "validate", path, "--quiet"]
            sides: dict[str, Callable[[], object]] = {
                "validate": lambda: whole_process(cli),
                "positions": lambda: whole_process(
                    [sys.executable, "-c", ITERATE.format(copy=False), path]),
                "positions(copy=True)": lambda: whole_process(
                    [sys.executable, "-c", ITERATE.format(copy=True), path]),
            }
        else:
            assert positions_in_process(path, False) == plies
            sides = {
                "validate": lambda: validate_in_process(path),
                "positions": lambda: positions_in_process(path, False),
                "positions(copy=True)": lambda: positions_in_process(path, True),
            }
        best = {name: float("inf") for name in sides}
        for _ in range(args.repeat):
            for name, work in sides.items():
                best[name] = min(best[name], timed(work))
        mode = "whole process" if args.whole_process else "in process"
        for name, seconds in best.items():
            print(f"{name:22} {seconds:7.3f} s  {plies / seconds:9,.0f} plies/s  "
                  f"{seconds / best['validate']:.2f}x validate  ({mode}, best of {args.repeat})")


if __name__ == "__main__":
    main_()
