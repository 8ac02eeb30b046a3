"""The position index (issue #27): build cost against ``analyze --db`` without it, bytes per
indexed ply, database size against the archive, and the latency of ``search --position``, one
pattern search and ``explore`` (at the start and 10 plies deep) against today's
``select --reaches`` on the same archive. Not a test: it prints.

Each ``analyze`` runs as a subprocess into a fresh database, with and without the index in
alternation (``--repeat`` times), and the best child CPU time and wall time of each are kept
(the machine is shared). Query latencies are measured in this process, warm (the second of two
runs), through :class:`notation_tools.Database`.

    notation-tools generate --game maka --count 1000 --max-plies 100 --seed 1 -o maka.pgn
    python benchmarks/bench_index.py maka.pgn [--jobs 2] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable


def _child_run(arguments: list[str]) -> tuple[float, float]:
    """(CPU seconds of the child, wall seconds) of one ``notation-tools`` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "notation_tools", *arguments], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime), wall


def _analyze(path: str, database: str, jobs: int, index: bool) -> tuple[float, float]:
    if os.path.exists(database):
        os.remove(database)
    return _child_run(["analyze", path, "--db", database, "-j", str(jobs), "-q",
                       "-o", os.devnull, *(["--index", "positions"] if index else [])])


def _warm(call: Callable[[], Any]) -> tuple[float, Any]:
    call()
    start = time.perf_counter()
    answer = call()
    return time.perf_counter() - start, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    from notation_tools.storage.game_database import Database

    folder = tempfile.mkdtemp()
    plain, indexed = os.path.join(folder, "plain.sqlite"), os.path.join(folder, "indexed.sqlite")
    runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for _ in range(args.repeat):
        for index in (False, True):
            runs[index].append(_analyze(args.archive, plain if not index else indexed,
                                        args.jobs, index))
    cpu = {index: min(r[0] for r in found) for index, found in runs.items()}
    wall = {index: min(r[1] for r in found) for index, found in runs.items()}
    connection = sqlite3.connect(indexed)
    rows, records = connection.execute(
        "SELECT (SELECT count(*) FROM positions), (SELECT count(*) FROM records)").fetchone()
    connection.close()
    archive_size = os.path.getsize(args.archive)
    sizes = {"plain": os.path.getsize(plain), "indexed": os.path.getsize(indexed)}
    print(f"archive {args.archive}: {records} records, {archive_size / 1e6:.1f} MB, "
          f"{rows} indexed plies; --jobs {args.jobs}")
    print(f"analyze --db            cpu {cpu[False]:7.2f} s  wall {wall[False]:7.2f} s")
    print(f"analyze --db --index    cpu {cpu[True]:7.2f} s  wall {wall[True]:7.2f} s  "
          f"ratio cpu {cpu[True] / cpu[False]:.2f}x  wall {wall[True] / wall[False]:.2f}x")
    print(f"database {sizes['plain'] / 1e6:.1f} MB without, {sizes['indexed'] / 1e6:.1f} MB with "
          f"the index ({sizes['indexed'] / archive_size:.2f}x the archive); "
          f"{(sizes['indexed'] - sizes['plain']) / rows:.1f} bytes per indexed ply")
    with Database(indexed) as db:
        game = db.game()
        with open(args.archive, encoding="utf-8") as handle:
            from notation_tools.records.pgn import read_records
            record = next(iter(read_records(handle, args.archive)))
        moves = [node.text for node in record.moves][:10]
        _, deep = db.position(moves=moves[:4])
        fen = game.format_position(deep)
        seconds, found = _warm(lambda: db.search(fen))
        print(f"search --position (4 plies deep)  {seconds * 1000:8.1f} ms  {len(found)} records")
        seconds, found = _warm(lambda: db.search())
        print(f"search --position (the start)     {seconds * 1000:8.1f} ms  {len(found)} records")
        for label, depth in (("the start", 0), ("10 plies deep", 10)):
            for fens in (False, True):  # the table, and JSON (each next position written)
                seconds, answer = _warm(lambda: db.explore(moves=moves[:depth], fens=fens))
                print(f"explore at {label:14s} {'json ' if fens else 'table'}   "
                      f"{seconds * 1000:8.1f} ms  {answer['games']} records, "
                      f"{len(answer['moves'])} moves")
        side = game.sides[1]
        seconds, matched = _warm(lambda: db.pattern(material=f"{side}: *<=10", at="..60"))
        print(f"pattern search (material)         {seconds:8.2f} s   {len(matched)} records")
        square = next(iter(game.occupants(deep)))[0]
        seconds, matched = _warm(lambda: db.pattern(squares=[f"{square}=empty"],
                                                    material=f"{side}: *<=90"))
        print(f"pattern search ({square}=empty, material) {seconds:6.2f} s   "
              f"{len(matched)} records")
    select_cpu, select_wall = _child_run(["select", args.archive, "--reaches", fen, "-q",
                                          "-o", os.devnull])
    print(f"select --reaches (replay)         cpu {select_cpu:.2f} s  wall {select_wall:.2f} s")
    index_cpu, index_wall = _child_run(["select", args.archive, "--reaches", fen, "--db",
                                        indexed, "-q", "-o", os.devnull])
    print(f"select --reaches --db (index)     cpu {index_cpu:.2f} s  wall {index_wall:.2f} s")


if __name__ == "__main__":
    main()
