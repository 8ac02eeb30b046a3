"""Latency of ``search`` and ``explore`` at the start position and deep, on a results database
with a position index, and on the same database copied N times over (issue #27: 100,000
records from a 10,000-record archive without generating 100,000 games). Not a test: it prints.

The copies repeat every record and its index rows under new record ids (and other paths), so
each position is reached N times as often and each move text is played N times as often: the
SQL work grows N-fold, the number of distinct moves at a position does not (an archive of N
times as many generated games has about N times as many distinct Game of War first turns; the
explorer reads only the listed ones and those that share a next position with another).
Times are the CPU and the wall seconds of this process, each the least of three warm runs
(the machine is shared); each query is what the command does (``search`` lists the first 100
records and counts the rest, ``explore`` the 40 most played moves). The copies repeat the
material and square rows too, so that pattern search (``--material``, ``--square`` with the
square index) is timed on them. A database indexed before the materials' rows by piece
gets them at the first pattern search (the untimed warm-up run): the benchmark writes to
it.

    python benchmarks/bench_explore.py --database maka.sqlite --archive maka.pgn --copies 10
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import tempfile
import time
from typing import Any, Callable

SEARCH_TOP, EXPLORE_TOP = 100, 40  # what the commands list unless told

_RECORD_ROWS = {
    "positions": ("key", "record_id", "line", "ply", "move_id"),
    "position_material": ("record_id", "first_ply", "last_ply", "signature_id"),
    "square_runs": ("occupant_id", "record_id", "first_ply", "last_ply"),
    "square_records": ("record_id", "last_ply", "standard"),
}
"""The tables with rows per record that the copies repeat (when the database has them)."""


def copied(database: str, copies: int) -> str:
    """A new database holding ``copies`` copies of ``database``'s records and index rows."""
    path = os.path.join(tempfile.mkdtemp(), f"x{copies}.sqlite")
    shutil.copy(database, path)
    connection = sqlite3.connect(path)
    last = connection.execute("SELECT max(id) FROM records").fetchone()[0]
    columns = [row[1] for row in connection.execute("PRAGMA table_info(records)")]
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    for copy in range(1, copies):
        chosen = ", ".join(f"id + {copy * last}" if name == "id" else
                           f"source || '#{copy}'" if name == "source" else name
                           for name in columns)
        connection.execute(f"INSERT INTO records ({', '.join(columns)}) SELECT {chosen} "
                           f"FROM records WHERE id <= {last}")
        for table, names in _RECORD_ROWS.items():
            if table in tables:  # each row again, under the copy's record id
                moved = ", ".join(f"record_id + {copy * last}" if name == "record_id" else name
                                  for name in names)
                connection.execute(f"INSERT INTO {table} ({', '.join(names)}) SELECT {moved} "
                                   f"FROM {table} WHERE record_id <= {last}")
        connection.commit()
    connection.close()
    return path


def _least(call: Callable[[], Any]) -> tuple[float, float, Any]:
    """The least CPU and the least wall time of three warm runs, and the answer."""
    call()
    cpu = wall = float("inf")
    answer = None
    for _ in range(3):
        start, clock = time.process_time(), time.perf_counter()
        answer = call()
        cpu = min(cpu, time.process_time() - start)
        wall = min(wall, time.perf_counter() - clock)
    return cpu, wall, answer


def bench(database: str, archive: str) -> None:
    from notation_tools.analysis.pattern import material_of
    from notation_tools.records.pgn import read_records
    from notation_tools.storage.game_database import Database

    with Database(database) as db, open(archive, encoding="utf-8") as handle:
        moves = [node.text for node in next(iter(read_records(handle, archive))).moves][:10]
        game, deep = db.position(moves=moves[:4])
        fen = game.format_position(deep)
        start = game.start_position(game.parse_rules(None))
        total = sum(count for (owner, _), count in material_of(game, start).items()
                    if owner == 1)
        material = f"{game.sides[1]}: *<{total}"  # the second side has lost a piece
        square, owner, piece = next(iter(game.occupants(deep)))
        squares = [f"{square}={game.sides[owner]}:{piece}"]

        def search(**given: Any) -> tuple[list[dict[str, Any]], int]:
            found = db.search(limit=SEARCH_TOP, **given)  # what the command does
            return found, db.count(**given) if len(found) == SEARCH_TOP else len(found)

        queries: list[tuple[str, Callable[[], Any]]] = [
            ("search 4 plies deep", lambda: search(fen=fen)),
            ("search at the start", lambda: search()),
            ("explore at the start (table)", lambda: db.explore(fens=False, limit=EXPLORE_TOP)),
            ("explore at the start (JSON)", lambda: db.explore(limit=EXPLORE_TOP)),
            ("explore 10 plies deep (JSON)", lambda: db.explore(moves=moves, limit=EXPLORE_TOP)),
            (f"search --material '{material}'",
             lambda: db.pattern_counted(material=material, limit=SEARCH_TOP)),
            (f"search --square {squares[0]} --material",
             lambda: db.pattern_counted(squares=squares, material=material, limit=SEARCH_TOP)),
        ]
        for label, call in queries:
            cpu, wall, answer = _least(call)
            size = f"{len(answer[0])} of {answer[1]} records listed" \
                if isinstance(answer, tuple) else \
                f"{answer['games']} records, {len(answer['moves'])} moves listed, " \
                f"{answer['rest']['moves']} more"
            print(f"{label:44s} cpu {cpu * 1000:8.1f} ms  wall {wall * 1000:8.1f} ms  {size}",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a database with a position index")
    parser.add_argument("--archive", required=True, help="the archive it was analysed from")
    parser.add_argument("--copies", type=int, default=1, help="also time N copies of it")
    options = parser.parse_args()
    print(f"{options.database}:")
    bench(options.database, options.archive)
    if options.copies > 1:
        print(f"{options.copies} copies:")
        bench(copied(options.database, options.copies), options.archive)


if __name__ == "__main__":
    main()
