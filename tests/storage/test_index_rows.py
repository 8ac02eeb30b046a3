"""The position index's rows as the writer stores them (docs/database.md, "The position
index"), against what the workers sent: every position row, each move text with its ids in
the order the records first write the texts (again when the writer had forgotten it), each
material once with its rows by piece, and the material runs; whatever the writer
keeps in memory and however many rows it puts in one statement."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.parallel.batch import RecordReport, Settings
from notation_tools.parallel.session import open_session
from notation_tools.storage import database as database_module
from notation_tools.storage import position_index
from notation_tools.storage.database import ResultsDatabase
from notation_tools.storage.position_index import _keys_of
from tests.storage.index_support import archive_text, query


def analyze(path: Path, database: Path) -> list[RecordReport]:
    settings = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings, jobs=1, database=str(database)) as session:
        return [item for item in session.reports([str(path)])
                if isinstance(item, RecordReport)]


def expected_rows(reports: list[RecordReport], record_ids: list[int], cache: int):
    """The index's tables as the reports make them, worked out without the writer: ids
    numbered from 1 in the order the texts are stored and the materials first come. A text
    is stored when it is neither among the texts met since the writer last forgot nor among
    those met before; past ``cache`` texts met since, it forgets the older ones and keeps the
    record's (docs/database.md, "The position index")."""
    moves: list[tuple[int, str]] = []
    recent: dict[str, int] = {}
    older: dict[str, int] = {}
    signatures: dict[str, int] = {}
    positions, material = set(), []
    for report, record_id in zip(reports, record_ids):
        found = report.positions
        fresh = [text for text in found.moves if text is not None and text not in recent]
        for text in fresh:
            if text not in recent:  # not an earlier one of the record's
                if text not in older:
                    moves.append((len(moves) + 1, text))
                recent[text] = older.get(text, len(moves))
        for key, ply, line, text in found.rows():
            positions.add((key, record_id, line, ply, None if text is None else recent[text]))
        if fresh and len(recent) > cache:  # a record of known texts only forgets nothing
            older, recent = recent, {text: recent[text] for text in found.moves
                                     if text is not None}
        for first, last, signature in found.material or ():
            material.append((record_id, first, last,
                             signatures.setdefault(signature, len(signatures) + 1)))
    # The first material stored is the reference the others' rows are told against.
    reference = {(side, piece): count for side, piece, count in
                 json.loads(next(iter(signatures), "[]"))}
    pieces = sorted(row for signature, id_ in signatures.items()
                    for row in position_index.material_count_rows(id_, signature, reference))
    return {"positions": sorted(positions),
            "position_moves": moves,
            "position_material": sorted(material),
            "material_signatures": [(id_, text) for text, id_ in signatures.items()],
            "material_differences": pieces}


def stored_rows(database: Path):
    return {"positions": query(database, "SELECT * FROM positions ORDER BY 1, 2, 3, 4"),
            "position_moves": query(database, "SELECT id, text FROM position_moves "
                                              "ORDER BY id"),
            "position_material": query(database, "SELECT * FROM position_material "
                                                 "ORDER BY 1, 2"),
            "material_signatures": query(database, "SELECT id, counts FROM "
                                                   "material_signatures ORDER BY id"),
            "material_differences": query(database, "SELECT * FROM material_differences "
                                                    "ORDER BY 1, 2, 3, 4")}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["maka", "gow"]), seed=st.integers(0, 10_000),
       count=st.integers(1, 10), rows_per_statement=st.sampled_from([1, 2, 4, 64]),
       cache=st.sampled_from([1, 5, 100_000]), pending=st.sampled_from([1, 7, 32_768]),
       commit_every=st.sampled_from([2, 2000]), stage_after=st.sampled_from([0, 40, 10**9]),
       sort_threads=st.sampled_from([0, 1, 2]), sort_cache=st.sampled_from([16, 1024, 65536]))
def test_the_writer_stores_what_the_workers_sent(game, seed, count, rows_per_statement,
                                                 cache, pending, commit_every, stage_after,
                                                 sort_threads, sort_cache):
    """Whatever the writer keeps in memory, however many rows it gathers before it inserts
    them (they go in before each commit), however often it commits, however many of the
    input's rows it stages to move them into the table at its end, and however many helper
    threads and how much memory SQLite's sorter has for that."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(position_index, "sort_threads", lambda: sort_threads)
        patch.setattr(position_index, "SORT_CACHE_KIB", sort_cache)
        patch.setattr(position_index, "ROWS_PER_STATEMENT", rows_per_statement)
        patch.setattr(position_index, "MOVE_CACHE", cache)
        patch.setattr(position_index, "PENDING_ROWS", pending)
        patch.setattr(position_index, "STAGE_AFTER_ROWS", stage_after)
        patch.setattr(database_module, "_COMMIT_EVERY", commit_every)
        archive, database = Path(folder, "a.pgn"), Path(folder, "a.sqlite")
        archive.write_text(archive_text(game, count=count, seed=seed), encoding="utf-8")
        reports = analyze(archive, database)
        record_ids = [row[0] for row in query(database, "SELECT id FROM records ORDER BY seq")]
        assert len(reports) == len(record_ids) == count
        assert stored_rows(database) == expected_rows(reports, record_ids, cache)
        assert_index_whole(database)


def assert_index_whole(database: Path) -> None:
    """No staged rows in the file (they are staged in the connection's temporary database),
    no ``positions_line``, and each record's ``record_keys`` its main line's keys in ply
    order, as the table holds them."""
    assert query(database, "SELECT name FROM sqlite_master WHERE name = 'positions_staged'") \
        == []
    assert query(database, "SELECT name FROM sqlite_master WHERE type = 'index' "
                           "AND name = 'positions_line'") == []
    assert query(database, "PRAGMA integrity_check") == [("ok",)]
    assert query(database, "PRAGMA foreign_key_check") == []
    main_lines: dict[int, list[int]] = {}
    for record_id, ply, key in sorted(query(
            database, "SELECT record_id, ply, key FROM positions WHERE line = 0")):
        assert ply == len(main_lines.setdefault(record_id, []))
        main_lines[record_id].append(key)
    assert {record_id: list(_keys_of(keys)) for record_id, keys in
            query(database, "SELECT record_id, keys FROM record_keys")} == main_lines


def positions_by_text(database: Path) -> list[tuple]:
    """The ``positions`` rows with their move's text for its id (ids depend on the order
    the writer met the texts)."""
    return query(database, "SELECT p.key, p.record_id, p.line, p.ply, m.text FROM positions "
                           "AS p LEFT JOIN position_moves AS m ON m.id = p.move_id "
                           "ORDER BY 1, 2, 3, 4")


def expected_by_text(reports: list[RecordReport], record_ids: list[int]) -> list[tuple]:
    return sorted((key, record_id, line, ply, text)
                  for report, record_id in zip(reports, record_ids)
                  for key, ply, line, text in report.positions.rows())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["maka", "gow"]), seed=st.integers(0, 10_000),
       first=st.integers(1, 8), second=st.integers(1, 8),
       stage_after=st.sampled_from([0, 30, 10**9]))
def test_an_input_staged_into_a_database_with_others(game, seed, first, second, stage_after):
    """An input whose rows are staged goes into a table that already holds another's: with
    ``positions_line`` made again after its rows (it brings at least as many as the table
    holds) or kept up to date (fewer): the same rows either way."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(position_index, "STAGE_AFTER_ROWS", stage_after)
        database = Path(folder, "both.sqlite")
        reports = []
        for name, count, offset in (("a.pgn", first, 0), ("b.pgn", second, 1)):
            archive = Path(folder, name)
            archive.write_text(archive_text(game, count=count, seed=seed + offset),
                               encoding="utf-8")
            reports += analyze(archive, database)
        record_ids = [row[0] for row in query(database, "SELECT records.id FROM records JOIN "
                                                        "inputs ON inputs.id = input_id "
                                                        "ORDER BY inputs.path, seq")]
        assert positions_by_text(database) == expected_by_text(reports, record_ids)
        assert_index_whole(database)


@pytest.mark.parametrize("before", ["nothing", "another input", "the same input"])
def test_an_input_into_an_empty_table_is_staged_whole(before):
    """When ``positions`` is empty as an input begins (a new database, or its only input
    stored again) every row of the input is staged, however few, and moved in sorted: each
    then goes at the table's end (docs/database.md, "The position index"). Into a table
    that holds rows, the input's first STAGE_AFTER_ROWS rows go straight in."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(position_index, "STAGE_AFTER_ROWS", 10**9)
        reports = {}
        for name, count, seed in (("a.pgn", 3, 11), ("b.pgn", 2, 12)):
            archive = Path(folder, name)
            archive.write_text(archive_text("maka", count=count, seed=seed), encoding="utf-8")
            reports[name] = analyze(archive, Path(folder, f"{name}.sqlite"))
        database = Path(folder, "both.sqlite")
        with ResultsDatabase(str(database)) as results:
            first = {"nothing": None, "another input": "b.pgn", "the same input": "a.pgn"}
            if first[before] is not None:
                for _ in results.store(first[before], 1, "digest", None,
                                       iter(reports[first[before]]), index="positions"):
                    pass
            statements: list[str] = []
            results.connection.set_trace_callback(statements.append)
            for _ in results.store("a.pgn", 1, "digest", None, iter(reports["a.pgn"]),
                                   index="positions"):
                pass
            results.connection.set_trace_callback(None)
        staged = any(text.startswith("INSERT INTO temp.positions_staged VALUES")
                     for text in statements)
        direct = any(text.startswith("INSERT OR IGNORE INTO positions VALUES")
                     for text in statements)
        assert (staged, direct) == ((False, True) if before == "another input"
                                    else (True, False))
        stored = ["a.pgn", "b.pgn"] if before == "another input" else ["a.pgn"]
        record_ids = [row[0] for row in query(database, "SELECT records.id FROM records JOIN "
                                                        "inputs ON inputs.id = input_id "
                                                        "ORDER BY inputs.path, seq")]
        assert positions_by_text(database) == expected_by_text(
            [report for name in stored for report in reports[name]], record_ids)
        assert_index_whole(database)


@pytest.mark.parametrize("rows", [0, 1, 5, 64, 65, 200])
def test_a_row_inserter_inserts_every_row_in_order(rows):
    """Any number of rows, in statements of at most ROWS_PER_STATEMENT rows."""
    import sqlite3

    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE t (n INTEGER, text TEXT)")
    inserter = position_index.RowInserter("INSERT INTO t", 2)
    values = [value for n in range(rows) for value in (n, f"row {n}")]
    inserter.insert(connection, values)
    assert connection.execute("SELECT n, text FROM t ORDER BY rowid").fetchall() == \
        [(n, f"row {n}") for n in range(rows)]


def interrupt_store(results: ResultsDatabase, name: str, reports: list[RecordReport],
                    stop: int) -> None:
    """Store ``reports`` as input ``name`` and interrupt the store (Ctrl-C) after ``stop``
    of them."""
    stored = results.store(name, 1, "digest", None, iter(reports), index="positions")
    for _ in range(stop):
        next(stored)
    with pytest.raises(KeyboardInterrupt):
        stored.throw(KeyboardInterrupt)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["maka", "gow"]), seed=st.integers(0, 10_000),
       count=st.integers(2, 8), stop=st.integers(1, 7), cache=st.sampled_from([5, 100_000]))
def test_rows_gathered_before_an_interruption_are_not_stored(game, seed, count, stop, cache):
    """A store interrupted in the middle of its transaction leaves none of the rows the
    writer gathered, and the writer reads its tables again: the same input stored again by
    the same writer gets the rows and ids a first store would have."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(position_index, "MOVE_CACHE", cache)
        archive = Path(folder, "a.pgn")
        archive.write_text(archive_text(game, count=count, seed=seed), encoding="utf-8")
        reports = analyze(archive, Path(folder, "first.sqlite"))
        database = Path(folder, "a.sqlite")
        with ResultsDatabase(str(database)) as results:
            interrupt_store(results, "a.pgn", reports, min(stop, count))
            # The index's tables were made in that transaction too: none, or empty.
            for table in ("positions", "position_moves", "material_differences"):
                assert query(database, "SELECT name FROM sqlite_master WHERE name = "
                             f"'{table}'") == [] or \
                    query(database, f"SELECT count(*) FROM {table}") == [(0,)]
            for _ in results.store("a.pgn", 1, "digest", None, iter(reports),
                                   index="positions"):
                pass
        record_ids = [row[0] for row in query(database, "SELECT id FROM records ORDER BY seq")]
        assert stored_rows(database) == expected_rows(reports, record_ids, cache)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["maka", "gow"]), seed=st.integers(0, 10_000),
       count=st.integers(3, 8), stop=st.integers(2, 7), other_first=st.booleans())
def test_rows_staged_by_an_interrupted_run_are_found_again(game, seed, count, stop,
                                                          other_first):
    """An input interrupted after some of its staged rows were committed: they stay staged
    in the connection (it is not indexed, and its positions are not searched); when it is
    stored again on it (here changed: its new records may get the old ones' ids) they are
    removed first, and when another input is completed before that they go into the table
    with its rows and are removed from there. Either way the table ends as if the run had
    never stopped. A new connection (the next run) has nothing staged."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(position_index, "STAGE_AFTER_ROWS", 0)
        patch.setattr(database_module, "_COMMIT_EVERY", 1)
        archive, other = Path(folder, "a.pgn"), Path(folder, "b.pgn")
        archive.write_text(archive_text(game, count=count, seed=seed), encoding="utf-8")
        other.write_text(archive_text(game, count=2, seed=seed + 1), encoding="utf-8")
        reports = analyze(archive, Path(folder, "first.sqlite"))
        other_reports = analyze(other, Path(folder, "other.sqlite"))
        archive.write_text(archive_text(game, count=count, seed=seed + 2), encoding="utf-8")
        changed = analyze(archive, Path(folder, "changed.sqlite"))
        database = Path(folder, "a.sqlite")
        with ResultsDatabase(str(database)) as results:
            interrupt_store(results, "a.pgn", reports, min(stop, count))
            committed = min(stop, count)  # each record commits before it is passed on
            staged = results.connection.execute(
                "SELECT count(DISTINCT record_id) FROM temp.positions_staged").fetchall()
            assert staged == [(committed,)]
            assert query(database, "SELECT count(*) FROM positions") == [(0,)]
            order = [("b.pgn", other_reports), ("a.pgn", changed)]
            for name, items in order if other_first else order[::-1]:
                for _ in results.store(name, 1, "digest", None, iter(items),
                                       index="positions"):
                    pass
        record_ids = [row[0] for row in query(database, "SELECT records.id FROM records JOIN "
                                                        "inputs ON inputs.id = input_id "
                                                        "ORDER BY inputs.path, seq")]
        assert positions_by_text(database) == expected_by_text(changed + other_reports,
                                                               record_ids)
        assert_index_whole(database)


@pytest.mark.parametrize("game", ["maka", "gow"])
def test_the_next_run_after_an_interruption_has_nothing_staged(game):
    """The rows a stopped run staged go with its connection; an earlier release staged in
    the file, and the rows its stopped run left there are removed with their records' when
    the input is stored again. Either way the table ends as if no run had stopped."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(position_index, "STAGE_AFTER_ROWS", 0)
        patch.setattr(database_module, "_COMMIT_EVERY", 1)
        archive = Path(folder, "a.pgn")
        archive.write_text(archive_text(game, count=5, seed=11), encoding="utf-8")
        reports = analyze(archive, Path(folder, "first.sqlite"))
        database = Path(folder, "a.sqlite")
        with ResultsDatabase(str(database)) as results:
            interrupt_store(results, "a.pgn", reports, 3)
        with ResultsDatabase(str(database)) as results:
            # An earlier release's staged rows of the stopped input's records, in the file.
            results.connection.execute(
                "CREATE TABLE main.positions_staged (key INTEGER NOT NULL, record_id INTEGER "
                "NOT NULL, line INTEGER NOT NULL, ply INTEGER NOT NULL, move_id INTEGER)")
            results.connection.execute(
                "INSERT INTO main.positions_staged SELECT 7, id, 0, 0, NULL FROM records")
            results.connection.commit()
            assert results.connection.execute(
                "SELECT 1 FROM sqlite_temp_master WHERE name = 'positions_staged'"
            ).fetchall() == []
            for _ in results.store("a.pgn", 1, "digest", None, iter(reports),
                                   index="positions"):
                pass
        assert query(database, "SELECT count(*) FROM main.positions_staged") == [(0,)]
        record_ids = [row[0] for row in query(database, "SELECT id FROM records ORDER BY seq")]
        assert positions_by_text(database) == expected_by_text(reports, record_ids)


@pytest.mark.parametrize(("cores", "threads"), [(1, 0), (2, 1), (8, 1)])
def test_the_staged_rows_are_sorted_with_a_helper_thread_when_a_core_is_spare(cores, threads):
    """The move of the staged rows into the table (docs/database.md, "The position index")
    lets SQLite's sorter use :data:`~position_index.SORT_THREADS` helper threads when the
    process may run on more cores than one, none on one core, and sorts with the small page
    cache :data:`~position_index.SORT_CACHE_KIB`; afterwards the connection sorts in its own
    thread again with the index's page cache, and the staged table is there, empty, for the
    next input (emptied without overwriting what it held: the connection's own file)."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(position_index, "STAGE_AFTER_ROWS", 0)
        patch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)),
                      raising=False)
        archive = Path(folder, "a.pgn")
        archive.write_text(archive_text("maka", count=3, seed=5), encoding="utf-8")
        reports = analyze(archive, Path(folder, "first.sqlite"))
        database = Path(folder, "a.sqlite")
        with ResultsDatabase(str(database)) as results:
            statements: list[str] = []
            results.connection.set_trace_callback(statements.append)
            for _ in results.store("a.pgn", 1, "digest", None, iter(reports),
                                   index="positions"):
                pass
            results.connection.set_trace_callback(None)
            move = next(index for index, text in enumerate(statements)
                        if "FROM temp.positions_staged ORDER BY" in text)
            assert statements[move - 2:move] == [
                f"PRAGMA threads = {threads}",
                f"PRAGMA cache_size = -{position_index.SORT_CACHE_KIB}"]
            assert statements[move + 1:move + 3] == [
                f"PRAGMA cache_size = -{position_index.CACHE_KIB}", "PRAGMA threads = 0"]
            assert results.connection.execute("PRAGMA threads").fetchone() == (0,)
            assert results.connection.execute("PRAGMA cache_size").fetchone() == (
                -position_index.CACHE_KIB,)
            assert results.connection.execute(
                "SELECT count(*) FROM temp.positions_staged").fetchone() == (0,)
            assert results.connection.execute("PRAGMA temp.secure_delete").fetchone() == (0,)
        record_ids = [row[0] for row in query(database, "SELECT id FROM records ORDER BY seq")]
        assert positions_by_text(database) == expected_by_text(reports, record_ids)


def test_a_full_temporary_directory_is_one_clear_error():
    """The staged rows go to SQLite's temporary directory (docs/database.md, "The position
    index"): when it is full, the store stops with a DatabaseError that says where to make
    room, rolls back what it had not committed, and the database stays usable."""
    from notation_tools.storage.errors import DatabaseError

    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(position_index, "STAGE_AFTER_ROWS", 0)
        archive = Path(folder, "a.pgn")
        archive.write_text(archive_text("maka", count=120, seed=3), encoding="utf-8")
        reports = analyze(archive, Path(folder, "first.sqlite"))
        database = Path(folder, "a.sqlite")
        with ResultsDatabase(str(database)) as results:
            # A full disk: the staged table made, and SQLite's temporary database held to
            # the pages it has then.
            results.connection.execute(position_index.STAGED_SCHEMA)
            pages = results.connection.execute("PRAGMA temp.page_count").fetchone()[0]
            results.connection.execute(f"PRAGMA temp.max_page_count = {pages}")
            with pytest.raises(DatabaseError, match="SQLITE_TMPDIR"):
                for _ in results.store("a.pgn", 1, "digest", None, iter(reports),
                                       index="positions"):
                    pass
        # Rolled back since the last commit: here the index's tables too, made in that
        # transaction; the records committed before are of an input not complete.
        assert query(database, "SELECT name FROM sqlite_master WHERE name = 'positions'") == \
            [] or query(database, "SELECT count(*) FROM positions") == [(0,)]
        assert query(database, "SELECT complete FROM inputs") in ([], [(0,)])
        assert query(database, "PRAGMA integrity_check") == [("ok",)]
