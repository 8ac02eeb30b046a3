"""The move of a large input's staged position rows into ``positions`` (docs/database.md,
"The position index"): with the page cache the index is written with and no helper thread
for SQLite's sorter, with a helper thread (``position_index.SORT_THREADS``), and with the
helper thread and the small page cache of the move (``position_index.SORT_CACHE_KIB``), as
the writer does it. Not a test: it prints.

The rows are made up to look like an archive's: ``--records`` records of ``--plies`` plies,
keys random but for the first plies, which come from a small pool (the openings many records
share). The first ``--direct`` rows go into the table as the writer puts them there into a
table that holds rows (``--direct 0``: an input begun on an empty table, which the writer
stages whole); the rest are staged. Each round moves them in inside a transaction and rolls it back, once per
way; the rounds alternate, and the medians (wall clock) and their ratios to the first way
are printed (the machine is shared).

    python benchmarks/bench_staged_sort.py --records 50000 --plies 60 --rounds 4
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from notation_tools.storage import position_index  # noqa: E402
from notation_tools.storage.position_index import PositionStore  # noqa: E402


def made_up_rows(records: int, plies: int, seed: int) -> list[tuple[int, int, int, int, int]]:
    """(key, record, line, ply, move) in record order, as the writer gets them."""
    chance = random.Random(seed)
    openings = [[chance.getrandbits(64) - (1 << 63) for _ in range(4)] for _ in range(8)]
    rows = []
    for record in range(1, records + 1):
        opening = chance.choice(openings)
        for ply in range(plies):
            key = opening[ply] if ply < len(opening) else chance.getrandbits(64) - (1 << 63)
            rows.append((key, record, 0, ply, chance.randrange(1, 5000)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--direct", type=int, default=position_index.STAGE_AFTER_ROWS)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rows = made_up_rows(options.records, options.plies, options.seed)
    with tempfile.TemporaryDirectory() as folder:
        connection = sqlite3.connect(os.path.join(folder, "bench.sqlite"), isolation_level=None)
        store = PositionStore(connection)
        store._prepare()  # the index's tables, the staged table and the page cache
        connection.execute("BEGIN")
        connection.executemany("INSERT OR IGNORE INTO positions VALUES (?, ?, ?, ?, ?)",
                               rows[:options.direct])
        connection.executemany("INSERT INTO temp.positions_staged VALUES (?, ?, ?, ?, ?)",
                               rows[options.direct:])
        connection.execute("COMMIT")
        staged = len(rows) - min(options.direct, len(rows))
        del rows
        helpers = position_index.sort_threads()
        ways = {"64 MiB cache, no helper thread": (position_index.CACHE_KIB, 0),
                f"64 MiB cache, {helpers} helper thread(s)": (position_index.CACHE_KIB, helpers),
                f"{position_index.SORT_CACHE_KIB} KiB cache, {helpers} helper thread(s)":
                    (position_index.SORT_CACHE_KIB, helpers)}
        times: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(options.rounds):
            for way, (cache, threads) in ways.items():
                position_index.SORT_CACHE_KIB, position_index.SORT_THREADS = cache, threads
                connection.execute("BEGIN")
                start = time.perf_counter()
                store._staged_rows = staged
                store._move_staged_rows(0)
                times[way].append(time.perf_counter() - start)
                connection.execute("ROLLBACK")
        connection.close()
    print(f"{staged:,} rows staged, {options.direct:,} in the table before; "
          f"{options.rounds} rounds")
    first = statistics.median(next(iter(times.values())))
    for way, seconds in times.items():
        median = statistics.median(seconds)
        print(f"  {way}: median {median:.2f} s, ratio {median / first:.2f} "
              f"({', '.join(f'{value:.2f}' for value in seconds)})")
    if not helpers:
        print("  (one core: the sorter gets no helper thread)")


if __name__ == "__main__":
    main()
