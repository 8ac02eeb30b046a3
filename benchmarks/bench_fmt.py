"""Throughput of ``fmt`` against ``validate`` on the same files (issue #28).

Prints, for each game, the CPU time (user + system of the child process) and records/s of
  * ``validate FILE`` (reads and replays every record);
  * ``fmt --check FILE`` (reads, replays, writes each record's canonical text, then reads
    and replays that text again to check its moves and verdict);
and fmt's rate as a ratio to validate's. Runs alternate (validate, fmt, validate, fmt, ...)
and the best of ``--repeat`` is kept, since the machine is shared.

Run:  python benchmarks/bench_fmt.py [--games 200] [--plies 60] [--repeat 3] [--game G]
The files are random games written by ``generate`` into benchmarks/out/. Not a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
GAMES = ("elevation", "game-of-war", "maka-dai-dai-shogi", "shih", "shuriken-2d")


def cpu_seconds(args: list[str]) -> float:
    """The CPU time of one run of ``notation-tools ARGS`` (its exit status 0 or 1)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "notation_tools", *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def records_file(game: str, games: int, plies: int) -> Path:
    """``games`` random games of ``game``, made once."""
    OUT.mkdir(exist_ok=True)
    path = OUT / f"fmt-{game}-{games}x{plies}.pgn"
    if not path.exists():
        subprocess.run([sys.executable, "-m", "notation_tools", "generate", "--game", game,
                        "--count", str(games), "--seed", "28", "--max-plies", str(plies),
                        "-o", str(path)], check=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", action="append", choices=GAMES)
    options = parser.parse_args()
    print(f"{'game':20} {'validate rec/s':>15} {'fmt rec/s':>10} {'fmt/validate':>13}")
    for game in options.game or GAMES:
        path = str(records_file(game, options.games, options.plies))
        best = {"validate": float("inf"), "fmt": float("inf")}
        for _ in range(options.repeat):
            best["validate"] = min(best["validate"], cpu_seconds(["validate", "-q", path]))
            best["fmt"] = min(best["fmt"], cpu_seconds(["fmt", "--check", "-q", path]))
        rates = {name: options.games / seconds for name, seconds in best.items()}
        print(f"{game:20} {rates['validate']:15.0f} {rates['fmt']:10.0f} "
              f"{rates['fmt'] / rates['validate']:13.2f}", flush=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
