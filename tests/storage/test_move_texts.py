"""The position index's move texts (docs/database.md, "The position index"): the writer keeps
a bounded number of texts in memory and stores a text again when it meets it after it forgot
it, never twice for one record; the explorer answers the same whatever it kept; a database
indexed by a release that found the texts by their digest keeps working."""

from __future__ import annotations

import sqlite3
import zlib

import pytest

from notation_tools.analysis.position_keys import IndexedPositions
from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.storage import position_index
from notation_tools.storage.game_database import Database
from tests.storage.index_support import archive_text, query


def analyze(paths, database):
    settings = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings, jobs=1, database=str(database)) as session:
        return list(session.reports([str(p) for p in paths]))


def stored(database) -> tuple[int, int]:
    """(move text rows, distinct texts), after checking that no record plays one text under
    two ids."""
    assert query(database, "SELECT count(*) FROM (SELECT 1 FROM positions AS p JOIN "
                           "position_moves AS m ON m.id = p.move_id GROUP BY p.record_id, "
                           "m.text HAVING count(DISTINCT p.move_id) > 1)") == [(0,)]
    (rows, distinct), = query(database, "SELECT count(*), count(DISTINCT text) "
                                        "FROM position_moves")
    return rows, distinct


def answers(database):
    """What the explorer lists (move texts, their counts, what follows them) at the start
    and after each move it lists there."""
    with Database(str(database)) as db:
        start = sorted((m["move"], m["games"], m["key"]) for m in db.explore()["moves"])
        return [start] + [sorted((m["move"], m["games"], m["fen"])
                                 for m in db.explore(moves=[move])["moves"])
                          for move, _, _ in start]


@pytest.fixture
def two_inputs(tmp_path):
    first, second = tmp_path / "a.pgn", tmp_path / "b.pgn"
    first.write_text(archive_text("maka", count=6, seed=3), encoding="utf-8")
    second.write_text(archive_text("maka", count=6, seed=4), encoding="utf-8")  # same openings
    return first, second


def _reference(tmp_path, two_inputs):
    database = tmp_path / "reference.sqlite"
    analyze(two_inputs, database)
    rows, distinct = stored(database)
    assert rows == distinct  # the default memory holds every text of so small an archive
    return distinct, answers(database)


@pytest.mark.parametrize("cache", [1, 3, 50])
def test_texts_stored_again_give_the_same_answers(tmp_path, two_inputs, monkeypatch, cache):
    """Past MOVE_CACHE texts the writer forgets some, and stores them again when it meets
    them: the explorer groups the moves by text, so its answers do not change."""
    distinct, explored = _reference(tmp_path, two_inputs)
    monkeypatch.setattr(position_index, "MOVE_CACHE", cache)
    database = tmp_path / "small.sqlite"
    analyze(two_inputs, database)
    rows, stored_distinct = stored(database)
    assert stored_distinct == distinct
    if cache == 1:  # the start's moves are met again after they were forgotten
        assert rows > distinct
    assert answers(database) == explored


def test_a_database_whose_texts_have_digests_keeps_working(tmp_path, two_inputs):
    """A release before this one found the texts by their CRC-32 (``digest``, indexed by
    ``position_moves_digest``): the writer drops the index, which only that writer read,
    keeps the column, and leaves it empty in the rows it adds."""
    distinct, explored = _reference(tmp_path, two_inputs)
    database = tmp_path / "old.sqlite"
    analyze(two_inputs[:1], database)
    connection = sqlite3.connect(database)
    connection.execute("ALTER TABLE position_moves ADD COLUMN digest INTEGER")
    connection.executemany("UPDATE position_moves SET digest = ? WHERE id = ?",
                           [(zlib.crc32(text.encode("utf-8")), id_) for id_, text in
                            connection.execute("SELECT id, text FROM position_moves")])
    connection.execute("CREATE INDEX position_moves_digest ON position_moves (digest)")
    connection.commit()
    old_rows = connection.execute("SELECT count(*) FROM position_moves").fetchone()[0]
    connection.close()
    analyze(two_inputs, database)
    assert query(database, "SELECT name FROM sqlite_master WHERE name = "
                           "'position_moves_digest'") == []
    assert query(database, "SELECT count(digest), count(*) > count(digest) FROM "
                           "position_moves") == [(old_rows, 1)]
    assert stored(database) == (distinct, distinct)
    assert answers(database) == explored


def _record(*texts: str) -> IndexedPositions:
    """A record's positions: its moves, then the end of its main line."""
    positions = IndexedPositions()
    for ply, text in enumerate([*texts, None]):
        positions.add(ply, ply, 0, text)
    return positions


def test_the_writer_forgets_the_texts_met_before_the_last_ones(monkeypatch):
    """With room for 3 texts: a text is found while it is among those met since the writer
    last forgot or among those met before that; it is forgotten at the second time the
    writer forgets after it was last met, and stored again when met after that."""
    monkeypatch.setattr(position_index, "MOVE_CACHE", 3)
    connection = sqlite3.connect(":memory:")
    store = position_index.PositionStore(connection)
    records = [("a",),
               ("b", "c"),       # 3 texts: nothing forgotten yet
               ("d",),           # 4 texts: the writer forgets; a-d are now the older ones
               ("a",),           # found among the older, and met again
               ("e", "f"),       # d, a, e, f: it forgets; b and c are gone
               ("b", "a"),       # b is stored again; a was met since and is found
               ("b", "b")]       # one id per text in a record
    for record_id, texts in enumerate(records, 1):
        store.add(1, record_id, _record(*texts))
    store.complete(1, variations=False)  # the rows into positions (staged: it was empty)
    assert connection.execute("SELECT id, text FROM position_moves ORDER BY id").fetchall() \
        == [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, "e"), (6, "f"), (7, "b")]
    assert connection.execute(
        "SELECT record_id, group_concat(move_id) FROM (SELECT record_id, move_id FROM "
        "positions WHERE move_id IS NOT NULL ORDER BY record_id, ply) GROUP BY record_id"
    ).fetchall() == [(1, "1"), (2, "2,3"), (3, "4"), (4, "1"), (5, "5,6"), (6, "7,1"),
                     (7, "7,7")]


def test_the_pass_over_a_busy_position_gives_a_row_per_text(tmp_path, two_inputs,
                                                           monkeypatch):
    """The texts a pass finds (what ``busy_moves`` keeps, what the moves not listed are
    counted by) are one per text, under its least id, whatever ids it is stored under."""
    monkeypatch.setattr(position_index, "MOVE_CACHE", 1)
    database = tmp_path / "small.sqlite"
    analyze(two_inputs, database)
    with Database(str(database)) as db:
        game, start = db.position()
        key = game.position_key(start)
        texts = position_index.move_texts(db.connection, key, game.id)
    by_text = query(database, "SELECT min(p.move_id), count(DISTINCT p.record_id), "
                              "count(DISTINCT p.move_id) FROM positions AS p JOIN "
                              "position_moves AS m ON m.id = p.move_id WHERE p.key = "
                              f"{key} AND p.line = 0 GROUP BY m.text")
    assert any(ids > 1 for _, _, ids in by_text)  # some text here is stored twice
    assert sorted((move_id, records) for move_id, records, _ in texts) == \
        sorted((move_id, records) for move_id, records, _ in by_text)
