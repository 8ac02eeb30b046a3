"""The position index (issue #27): build cost against ``analyze --db`` without it, bytes per
indexed ply, database size against the archive, and the latency of ``search --position``, a
material and a square pattern search and ``explore`` (at the start and 10 plies deep) against
today's ``select --reaches`` (replay) on the same archive. Not a test: it prints.

One archive per game of ``--records`` generated games (``generate --max-plies``), kept in
``--cache`` and generated only when missing (generating is slow: a random legal game costs a
few hundred legal-move lists). Each ``analyze`` runs as a subprocess into a fresh database,
with and without the index in alternation (``--repeat`` times), and the least child CPU time
and wall time of each are kept (the machine is shared). Query latencies are measured in this
process, warm (the second of two runs), through :class:`notation_tools.Database`; a query
that takes over 5 s the first time is not run again.

    python benchmarks/bench_index.py --records 10000 --games maka gow [--jobs 2] [--repeat 2]
    python benchmarks/bench_index.py ... --index positions squares   # the square index too
    python benchmarks/bench_index.py --archive games.pgn    # one archive of your own
    python benchmarks/bench_index.py --build-only ...       # the build cost only
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

COMMAND = [sys.executable, "-m", "notation_tools"]


def _child_run(arguments: list[str]) -> tuple[float, float]:
    """(CPU seconds of the child, wall seconds) of one ``notation-tools`` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*COMMAND, *arguments], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime), wall


def _analyze(path: str, database: str, jobs: int, index: str | None) -> tuple[float, float]:
    if os.path.exists(database):
        os.remove(database)
    return _child_run(["analyze", path, "--db", database, "-j", str(jobs), "-q",
                       "-o", os.devnull, *(["--index", index] if index else [])])


def _warm(call: Callable[[], Any]) -> tuple[float, Any]:
    """Seconds of the second of two calls (of the first when it took over 5 s), answer."""
    start = time.perf_counter()
    answer = call()
    seconds = time.perf_counter() - start
    if seconds > 5:
        return seconds, answer
    start = time.perf_counter()
    answer = call()
    return time.perf_counter() - start, answer


def archive_of(game: str, records: int, max_plies: int, cache: str) -> str:
    """The cached archive of ``records`` generated games of ``game`` (generated if missing)."""
    path = os.path.join(cache, f"{game}-{records}-p{max_plies}-s1.pgn")
    if not os.path.exists(path):
        print(f"generating {path} ...", flush=True)
        partial = path + ".part"
        subprocess.run([*COMMAND, "generate", "--game", game, "--count", str(records),
                        "--max-plies", str(max_plies), "--seed", "1", "-o", partial], check=True)
        os.replace(partial, path)
    return path


def bench_build(archive: str, jobs: int, repeat: int, indexes: list[str]) -> dict[str, str]:
    """Build the databases without an index and with each of ``indexes``; print the costs;
    index → its database."""
    folder = tempfile.mkdtemp()
    paths = {index: os.path.join(folder, f"{index or 'plain'}.sqlite")
             for index in [None, *indexes]}
    runs: dict[str | None, list[tuple[float, float]]] = {index: [] for index in paths}
    for _ in range(repeat):
        for index, path in paths.items():
            runs[index].append(_analyze(archive, path, jobs, index))
    cpu = {index: min(r[0] for r in found) for index, found in runs.items()}
    wall = {index: min(r[1] for r in found) for index, found in runs.items()}
    sizes = {index: os.path.getsize(path) for index, path in paths.items()}
    archive_size = os.path.getsize(archive)
    print(f"archive {archive}: {archive_size / 1e6:.1f} MB; --jobs {jobs}, best of {repeat}")
    print(f"analyze --db            cpu {cpu[None]:7.2f} s  wall {wall[None]:7.2f} s  "
          f"database {sizes[None] / 1e6:.1f} MB ({sizes[None] / archive_size:.2f}x the archive)")
    for index in indexes:
        connection = sqlite3.connect(paths[index])
        plies = connection.execute("SELECT count(*) FROM positions").fetchone()[0]
        print(f"analyze --index {index:9s} cpu {cpu[index]:7.2f} s  wall {wall[index]:7.2f} s  "
              f"ratio cpu {cpu[index] / cpu[None]:.2f}x  wall {wall[index] / wall[None]:.2f}x  "
              f"database {sizes[index] / 1e6:.1f} MB ({sizes[index] / archive_size:.2f}x the "
              f"archive), {(sizes[index] - sizes[None]) / plies:.1f} bytes per indexed ply")
        print("    rows: " + ", ".join(
            f"{table} {connection.execute(f'SELECT count(*) FROM {table}').fetchone()[0]}"
            for table in _TABLES[index]))
        connection.close()
    return {index: path for index, path in paths.items() if index is not None}


_TABLES = {"positions": ("records", "positions", "position_material", "material_signatures",
                         "material_differences"),
           "variations": ("records", "positions", "position_material", "material_signatures",
                          "material_differences"),
           "squares": ("records", "positions", "position_material", "square_runs",
                       "square_occupants")}


def bench_queries(archive: str, indexed: str, select: bool = True) -> None:
    """Search, pattern search, explore, and ``select --reaches`` with and without the index."""
    from notation_tools.analysis.pattern import material_of
    from notation_tools.records.pgn import read_records
    from notation_tools.storage.game_database import Database

    with Database(indexed) as db:
        game = db.game()
        with open(archive, encoding="utf-8") as handle:
            record = next(iter(read_records(handle, archive)))
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
        start = game.start_position(game.parse_rules(None))
        total = sum(count for (owner, _), count in material_of(game, start).items()
                    if owner == 1)
        material = f"{side}: *<{total}"  # the second side has lost a piece
        seconds, matched = _warm(lambda: db.pattern(material=material, at="..60"))
        print(f"pattern --material {material!r} --at ..60: {seconds:6.2f} s  "
              f"{len(matched)} records")
        square, owner, piece = next(iter(game.occupants(deep)))
        squares = [f"{square}={game.sides[owner]}:{piece}"]
        seconds, matched = _warm(lambda: db.pattern(squares=squares, material=material))
        print(f"pattern --square {squares[0]} --material {material!r}: {seconds:6.2f} s  "
              f"{len(matched)} records")
        squares = [f"{square}=empty"]
        seconds, matched = _warm(lambda: db.pattern(squares=squares, at="..60"))
        print(f"pattern --square {squares[0]} --at ..60: {seconds:6.2f} s  {len(matched)} records")
        _, later = db.position(moves=moves)
        moved = sorted(set(game.occupants(later)) - set(game.occupants(start)))
        if moved:  # a piece where it did not start: what a move made
            square, owner, piece = moved[0]
            squares = [f"{square}={game.sides[owner]}:{piece}"]
            seconds, matched = _warm(lambda: db.pattern(squares=squares))
            print(f"pattern --square {squares[0]}: {seconds:6.2f} s  {len(matched)} records")
    if not select:
        return
    select_cpu, select_wall = _child_run(["select", archive, "--reaches", fen, "-q",
                                          "-o", os.devnull])
    print(f"select --reaches (replay)         cpu {select_cpu:.2f} s  wall {select_wall:.2f} s")
    index_cpu, index_wall = _child_run(["select", archive, "--reaches", fen, "--db",
                                        indexed, "-q", "-o", os.devnull])
    print(f"select --reaches --db (index)     cpu {index_cpu:.2f} s  wall {index_wall:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", action="append", default=[],
                        help="an archive of your own (instead of generated ones)")
    parser.add_argument("--records", type=int, default=10000)
    parser.add_argument("--games", nargs="+", default=["maka", "gow"])
    parser.add_argument("--max-plies", type=int, default=60)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "bench-index"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--index", nargs="+", default=["positions"],
                        choices=["positions", "variations", "squares"],
                        help="the indexes to build and query (e.g. positions squares)")
    parser.add_argument("--build-only", action="store_true",
                        help="time the index build only, not the queries")
    args = parser.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    archives = args.archive or [archive_of(game, args.records, args.max_plies, args.cache)
                                for game in args.games]
    for archive in archives:
        databases = bench_build(archive, args.jobs, args.repeat, args.index)
        if args.build_only:
            continue
        for index, indexed in databases.items():
            print(f"queries with --index {index}:")
            bench_queries(archive, indexed, select=index == args.index[0])
        print(flush=True)


if __name__ == "__main__":
    main()
