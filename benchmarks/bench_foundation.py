"""Throughput of the container and the batch runner on generated archives of one game.

Prints, each measured on this machine:
  * the container tokenizer's movetext tokens/s (one core);
  * the container parser's records/s (tokenize + build the record tree, one core);
  * validate (one process): records/s and plies/s;
  * analyze with --jobs 1 and --jobs 2: records/s, plies/s and the speed-up;
  * analyze's peak memory on an archive and on one ten times larger.

Run:  python benchmarks/bench_foundation.py [--game elevation] [--games 1000] [--plies 60]
      [--no-memory]
The archive is generated once (fixed seed) into benchmarks/out/. Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from notation_tools.parallel.batch import RecordReport, Settings, iter_reports
from notation_tools.analysis.generate import generate_records
from notation_tools.games.base import get_game
from notation_tools.records.pgn import read_records, write_record
from notation_tools.records.tokens import tokenize

OUT = Path(__file__).resolve().parent / "out"


def make_archive(game_id: str, games: int, plies: int, copies: int = 1,
                 compression: str = "gz") -> tuple[Path, str]:
    """A tar archive (``compression``: gz, xz, bz2) of ``copies`` members, each holding the
    same ``games`` random games."""
    OUT.mkdir(exist_ok=True)
    text_path = OUT / f"{game_id}-{games}x{plies}.pgn"
    if not text_path.exists():
        game = get_game(game_id)
        records = generate_records(game, game.parse_rules(None), count=games, seed=2026,
                                   max_plies=plies)
        text_path.write_text("".join(write_record(r) for r in records), encoding="utf-8")
    text = text_path.read_text(encoding="utf-8")
    archive = OUT / f"{game_id}-{games}x{plies}-{copies}.tar.{compression}"
    if not archive.exists():
        data = text.encode()
        with tarfile.open(archive, f"w:{compression}") as tar:
            for number in range(copies):
                info = tarfile.TarInfo(f"games/part{number:03}.pgn")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return archive, text


def timed(label: str, function):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    value = function()
    seconds = time.perf_counter() - start
    return value, seconds


def run_reports(archive: Path, jobs: int, stats: bool) -> tuple[int, int]:
    records = plies = 0
    for item in iter_reports([str(archive)], Settings(collect_stats=stats), jobs=jobs):
        if isinstance(item, RecordReport):
            records += 1
            plies += item.plies
    return records, plies


_MEASURE = """
import resource, subprocess, sys
subprocess.run([sys.executable, "-m", "notation_tools", "analyze", "--jobs", "1",
                "-o", "/dev/null", sys.argv[1]], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_memory_mib(archive: Path) -> float:
    """Peak resident memory of one ``analyze`` run, measured from a fresh parent process."""
    output = subprocess.run([sys.executable, "-c", _MEASURE, str(archive)], check=True,
                            capture_output=True, text=True).stdout
    return int(output.split()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="elevation")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--no-memory", action="store_true", help="skip the memory runs")
    args = parser.parse_args()
    game_id = get_game(args.game).id

    archive, text = make_archive(game_id, args.games, args.plies)
    print(f"archive: {archive.name} ({args.games} games, up to {args.plies} plies each)")

    movetext = "\n".join(line for line in text.splitlines() if not line.startswith("["))
    count, seconds = timed("tokenize", lambda: sum(1 for _ in tokenize(movetext)))
    print(f"tokenizer: {count} tokens in {seconds:.3f} s = {count / seconds:,.0f} tokens/s")

    lines = text.splitlines(keepends=True)
    count, seconds = timed("parse", lambda: sum(1 for _ in read_records(lines)))
    print(f"container parser: {count} records in {seconds:.3f} s = {count / seconds:,.0f} records/s")

    for label, jobs, stats in (("validate (1 process)", 1, False),
                               ("analyze --jobs 1", 1, True),
                               ("analyze --jobs 2", 2, True)):
        (records, plies), seconds = timed(label, lambda: run_reports(archive, jobs, stats))
        print(f"{label}: {records} records, {plies} plies in {seconds:.2f} s = "
              f"{records / seconds:,.1f} records/s, {plies / seconds:,.0f} plies/s")
        if jobs == 1 and stats:
            one_job = seconds
        if jobs == 2:
            print(f"analyze speed-up with 2 jobs: {one_job / seconds:.2f}x")

    if args.no_memory:
        return
    big, _ = make_archive(game_id, args.games, args.plies, copies=10)
    small_mib = peak_memory_mib(archive)
    big_mib = peak_memory_mib(big)
    print(f"analyze peak memory: {small_mib:.1f} MiB on 1x, {big_mib:.1f} MiB on 10x "
          f"({args.games * 10} records)")


if __name__ == "__main__":
    main()
