"""Which inputs the position index holds (docs/database.md, "The position index"): an input
stored whole with ``--index`` is indexed even when it has nothing to index, an input a run
stopped in the middle of is not (and leaves no row behind once analysed again), and an input
indexed before the material runs were stored is indexed again."""

from __future__ import annotations

import sqlite3

import pytest

from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.storage import database as results
from notation_tools.storage.game_database import Database
from notation_tools.storage.position_index import is_indexed
from tests.storage.index_support import archive_text, query


def analyze(paths, database, index="positions"):
    settings = Settings(collect_stats=True, details=True, index=index)
    with open_session(settings, jobs=1, database=str(database)) as session:
        return list(session.reports([str(p) for p in paths]))


def _count(database, sql):
    return query(database, sql)[0][0]


def test_an_input_with_nothing_to_index_is_indexed(tmp_path):
    games = tmp_path / "a.pgn"
    games.write_text(archive_text("shuriken", count=3, seed=1), encoding="utf-8")
    unreadable = tmp_path / "b.pgn"
    unreadable.write_text("this is no record at all\n", encoding="utf-8")
    empty = tmp_path / "c.pgn"
    empty.write_text("", encoding="utf-8")
    database = tmp_path / "r.sqlite"
    analyze([games, unreadable, empty], database)
    with Database(str(database)) as db:
        assert db.coverage() == (3, 3)
    connection = sqlite3.connect(database)
    try:
        assert all(is_indexed(connection, str(path), False)
                   for path in (games, unreadable, empty))
    finally:
        connection.close()
    analyze([games, unreadable, empty], database, index=None)
    analyze([empty], database)  # stored again without the index: not indexed until now
    with Database(str(database)) as db:
        assert db.coverage() == (3, 3)
    empty.write_text(archive_text("shuriken", count=2, seed=2), encoding="utf-8")
    analyze([empty], database, index=None)  # changed, analysed without the index
    with Database(str(database)) as db:
        assert db.coverage() == (2, 3)


@pytest.mark.parametrize("other_first", [False, True])
def test_a_run_stopped_inside_an_input_leaves_it_unindexed_and_no_row_behind(
        tmp_path, monkeypatch, other_first):
    """The records committed before the stop keep their index rows when they went straight
    into ``positions`` (the table held another input's); an input begun on an empty table
    stages all its rows in the connection, and they go with it. Either way the input is
    not indexed, and once analysed again it has its rows, each once."""
    path, other = tmp_path / "a.pgn", tmp_path / "b.pgn"
    path.write_text(archive_text("shuriken", count=8, seed=4), encoding="utf-8")
    other.write_text(archive_text("shuriken", count=2, seed=5), encoding="utf-8")
    database = tmp_path / "r.sqlite"
    if other_first:
        analyze([other], database)
    monkeypatch.setattr(results, "_COMMIT_EVERY", 2)  # commits inside the input
    settings = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings, jobs=1, database=str(database)) as session:
        reports = session.reports([str(path)])
        for _ in range(5):
            next(reports)
        reports.close()
    mine = "SELECT id FROM records WHERE input_id = (SELECT id FROM inputs WHERE path = ?)"
    stored = len(query(database, mine, (str(path),)))
    assert 0 < stored < 8  # part of the input committed
    assert query(database, f"SELECT count(*) FROM positions WHERE record_id IN ({mine})",
                 (str(path),))[0][0] == (query(
                     database, f"SELECT sum(plies + 1) FROM records WHERE id IN ({mine})",
                     (str(path),))[0][0] if other_first else 0)
    with Database(str(database)) as db:
        assert db.coverage() == (int(other_first), 1 + int(other_first))
        side = db.game().sides[0]
        # the records stored so far are found (replayed: the input is not indexed)
        assert len([found for found in db.pattern(material=f"{side}: *>=1")
                    if found["path"] == str(path)]) == stored
    analyze([path], database)
    assert _count(database, "SELECT count(*) FROM records") == 8 + 2 * int(other_first)
    assert _count(database, "SELECT count(*) FROM positions") == \
        _count(database, "SELECT sum(plies + 1) FROM records")
    assert _count(database, "SELECT count(DISTINCT record_id) FROM position_material") == \
        8 + 2 * int(other_first)
    with Database(str(database)) as db:
        assert db.coverage() == (1 + int(other_first), 1 + int(other_first))


def test_an_input_indexed_before_the_material_runs_is_indexed_again(tmp_path):
    path = tmp_path / "a.pgn"
    path.write_text(archive_text("shuriken", count=4, seed=5), encoding="utf-8")
    database = tmp_path / "r.sqlite"
    analyze([path], database)
    connection = sqlite3.connect(database)
    connection.executescript("DROP TABLE material_inputs; DELETE FROM position_material;")
    assert not is_indexed(connection, str(path), False)
    connection.close()
    analyze([path], database)
    assert _count(database, "SELECT count(DISTINCT record_id) FROM position_material") == 4
    assert _count(database, "SELECT count(*) FROM material_inputs") == 1


def test_each_move_text_is_stored_once_across_runs(tmp_path):
    path = tmp_path / "a.pgn"
    path.write_text(archive_text("gow", count=4, seed=6), encoding="utf-8")
    database = tmp_path / "r.sqlite"
    analyze([path], database)
    path.write_text(archive_text("gow", count=5, seed=6), encoding="utf-8")  # shares openings
    analyze([path], database)
    assert _count(database, "SELECT count(*) FROM position_moves") == \
        _count(database, "SELECT count(DISTINCT text) FROM position_moves") > 4
