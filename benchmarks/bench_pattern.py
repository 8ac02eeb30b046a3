"""Latency of pattern search with the square index (``analyze --index squares``): square
conditions alone, with material, several together, within a range of plies and at one ply,
on a results database and on the same database copied N times over (issue #27: 100,000
records from a smaller archive; ``bench_explore.copied`` repeats the records and their
square and material rows under new ids). Not a test: it prints.

The patterns come from the archive's first record: squares as its main line holds them at
the start (most records keep them a while: the answer is most of the archive) and ten plies
in (squares its moves changed: a few records); the materials are "the second side has lost
a piece" and "has not" (every record's start). Each line gives the least CPU and wall time
of three warm runs in one process (what ``search DB --square ...`` asks: the first 100
records and the count of all), the number of records found, and a digest of every record id
and first ply found, so that two versions of the code can be compared on the same database.

    python benchmarks/bench_pattern.py --database gow.sqlite --archive gow.pgn \\
        --copies 20 --copy-to gow-x20.sqlite
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_explore import SEARCH_TOP, _least, copied  # noqa: E402  (a sibling script)


def _patterns(database: Any, archive: str) -> list[tuple[str, dict[str, Any]]]:
    """(label, ``Database.pattern`` arguments) of the patterns timed."""
    from notation_tools.analysis.pattern import material_of
    from notation_tools.analysis.square_runs import board_of
    from notation_tools.records.pgn import read_records

    with open(archive, encoding="utf-8") as handle:
        moves = [node.text for node in next(iter(read_records(handle, archive))).moves][:10]
    game, deep = database.position(moves=moves)
    start = game.start_position(game.parse_rules(None))
    total = sum(count for (owner, _), count in material_of(game, start).items() if owner == 1)
    lost = f"{game.sides[1]}: *<{total}"  # the second side has lost a piece
    whole = f"{game.sides[1]}: *={total}"  # it has not: every record at the start

    def named(square: str, held: tuple[int, str] | None) -> str:
        return f"{square}=empty" if held is None else f"{square}={game.sides[held[0]]}:{held[1]}"

    at_start, at_ten = board_of(game, start), board_of(game, deep)
    kept = [named(square, held) for square, held in sorted(at_start.items())
            if held is not None and at_ten[square] == held]
    empty = [named(square, None) for square, held in sorted(at_start.items())
             if held is None and at_ten[square] is None]
    changed = [named(square, held) for square, held in sorted(at_ten.items())
               if held is not None and at_start[square] != held]
    emptied = [named(square, None) for square, held in sorted(at_ten.items())
               if held is None and at_start[square] is not None]
    return [
        (f"square held at the start {kept[0]}", {"squares": kept[:1]}),
        (f"square a move filled {changed[0]}", {"squares": changed[:1]}),
        (f"square a move emptied {emptied[0]}", {"squares": emptied[:1]}),
        (f"square held at the start + material '{lost}'",
         {"squares": kept[:1], "material": lost}),
        ("three squares held at the start", {"squares": kept[:3]}),
        ("two squares a move filled + one held", {"squares": [*changed[:2], kept[0]]}),
        (f"empty square {empty[len(empty) // 2]} --at 20..40",
         {"squares": [empty[len(empty) // 2]], "at": "20..40"}),
        ("square held at the start + material --at 30",
         {"squares": kept[:1], "material": lost, "at": "30"}),
        ("square a move filled --at ..20", {"squares": changed[:1], "at": "..20"}),
        ("five squares held at the start --at 20..40", {"squares": kept[:5], "at": "20..40"}),
        (f"three squares held at the start + material '{whole}'",
         {"squares": kept[:3], "material": whole}),
        ("three squares held at the start + material --at 30",
         {"squares": kept[:3], "material": lost, "at": "30"}),
        ("two squares a move filled + three held + material",
         {"squares": [*changed[:2], *kept[:3]], "material": lost}),
    ]


def bench(path: str, archive: str) -> None:
    from notation_tools.storage.game_database import Database

    with Database(path) as database:
        for label, given in _patterns(database, archive):
            cpu, wall, (_, count) = _least(
                lambda: database.pattern_counted(limit=SEARCH_TOP, **given))
            # Every record and first ply found, outside the timing (the method is private:
            # the same in the versions compared).
            _, found = database._pattern_matches(given.get("squares", ()), given.get("material"),
                                                 given.get("at"), None)
            digest = hashlib.sha1(repr(sorted((item[1], item[2] if isinstance(item[2], int)
                                               else item[2]["ply"]) for item in found)
                                       ).encode()).hexdigest()[:12]
            print(f"{label:58s} cpu {cpu * 1000:7.1f} ms  wall {wall * 1000:7.1f} ms  "
                  f"{count:6d} records  {digest}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a database with the square index")
    parser.add_argument("--archive", required=True, help="the archive it was analysed from")
    parser.add_argument("--copies", type=int, default=1, help="also time N copies of it")
    parser.add_argument("--copy-to", help="keep the copies in this file (and reuse it when "
                                          "it exists: the same database for every run)")
    options = parser.parse_args()
    print(f"{options.database}:")
    bench(options.database, options.archive)
    if options.copies > 1:
        path = options.copy_to
        if path is None or not os.path.exists(path):
            made = copied(options.database, options.copies)
            if path is not None:
                shutil.move(made, path)
            path = path or made
        print(f"{options.copies} copies ({path}):")
        bench(path, options.archive)


if __name__ == "__main__":
    main()
