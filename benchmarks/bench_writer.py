"""Where an ``analyze --db`` run spends its time: the main process (which reads the input and
writes the database) against the worker processes, and, with ``--index``, the position
index's parts of the writer. Not a test: it prints.

The run is made in this process, through the command line's own entry point, so that the
main process's CPU time is this process's and the workers' is its children's. The writer's
parts are timed by wrapping its methods (CPU time of the main process; the sorter's helper
thread counts in it); the wrappers cost a few calls per record.

    python benchmarks/bench_writer.py ARCHIVE [--index positions] [--jobs 2]
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import resource
import sys
import tempfile
import time
from typing import Any, Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from notation_tools.analysis.position_keys import INDEX_CHOICES  # noqa: E402
from notation_tools.cli import main as command_line  # noqa: E402
from notation_tools.storage import position_index  # noqa: E402
from notation_tools.storage.database import ResultsDatabase  # noqa: E402

SPENT: collections.defaultdict[str, float] = collections.defaultdict(float)


def _timed(function: Callable[..., Any], label: Callable[..., str]) -> Callable[..., Any]:
    @functools.wraps(function)
    def timed(*arguments: Any, **keywords: Any) -> Any:
        start = time.process_time()
        try:
            return function(*arguments, **keywords)
        finally:
            SPENT[label(*arguments)] += time.process_time() - start
    return timed


def _wrap() -> None:
    # Set as attributes of the classes: every instance (the module's inserters, the
    # database's stores) finds the wrapper.
    setattr(position_index.RowInserter, "insert", _timed(
        position_index.RowInserter.insert,
        lambda inserter, *_: "  rows into " + inserter._head.split(" INTO ")[-1].split()[0]))
    for name, label in (("add", "PositionStore.add (with the inserts it makes)"),
                        ("_signature_id", "  a material's id (a new one's rows made)"),
                        ("_move_staged_rows", "the staged rows moved in")):
        setattr(position_index.PositionStore, name, _timed(
            getattr(position_index.PositionStore, name), lambda *_, label=label: label))
    setattr(ResultsDatabase, "_insert_record", _timed(
        ResultsDatabase._insert_record, lambda *_: "a record stored (all of it)"))
    setattr(ResultsDatabase, "refresh_busy_moves", _timed(
        ResultsDatabase.refresh_busy_moves, lambda *_: "busy_moves written"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive")
    parser.add_argument("--index", choices=INDEX_CHOICES)
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    _wrap()
    with tempfile.TemporaryDirectory() as folder:
        database = os.path.join(folder, "bench.sqlite")
        start = time.perf_counter()
        try:
            command_line(["analyze", options.archive, "--db", database, "-j",
                          str(options.jobs), "-q", "-o", os.devnull,
                          *(["--index", options.index] if options.index else [])])
        except SystemExit:
            pass
        wall = time.perf_counter() - start
        size = os.path.getsize(database)
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{options.archive}, --jobs {options.jobs}, index {options.index or 'none'}: "
          f"wall {wall:.1f} s, database {size / 1e6:.0f} MB")
    print(f"main process CPU {own.ru_utime + own.ru_stime:.1f} s (system {own.ru_stime:.1f}); "
          f"workers {workers.ru_utime + workers.ru_stime:.1f} s")
    for label, seconds in sorted(SPENT.items(), key=lambda item: -item[1]):
        print(f"  {seconds:7.2f} s  {label}")


if __name__ == "__main__":
    main()
