"""The position index's move texts (docs/database.md, "The position index"): each distinct
text is stored once, whatever the writer keeps in memory, whatever texts share a digest, and
in a database indexed before ``position_moves`` had its digests."""

from __future__ import annotations

import sqlite3

import pytest

from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.storage import position_index
from notation_tools.storage.game_database import Database
from tests.storage.index_support import archive_text, query


def analyze(paths, database):
    settings = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings, jobs=1, database=str(database)) as session:
        return list(session.reports([str(p) for p in paths]))


def stored_once(database) -> int:
    """The number of move texts stored, checked to be each stored once."""
    (count, distinct), = query(database, "SELECT count(*), count(DISTINCT text) "
                                         "FROM position_moves")
    assert count == distinct
    return count


def answers(database):
    """What the explorer lists (move texts and their counts) at the start and after each
    move it lists there."""
    with Database(str(database)) as db:
        start = sorted((m["move"], m["games"]) for m in db.explore()["moves"])
        return [start] + [sorted((m["move"], m["games"])
                                 for m in db.explore(moves=[move])["moves"])
                          for move, _ in start]


OLD_MOVES = """CREATE TABLE position_moves (
    id   INTEGER PRIMARY KEY,
    text TEXT NOT NULL  -- a move as the records write it, each once (the writer keeps them
                        -- apart: a UNIQUE index would double them, and Game of War's turns
                        -- are nearly all distinct)
);"""
"""The table as releases before its digests made it (its comments included: adding a column
edits this text)."""


@pytest.fixture
def two_inputs(tmp_path):
    first, second = tmp_path / "a.pgn", tmp_path / "b.pgn"
    first.write_text(archive_text("maka", count=6, seed=3), encoding="utf-8")
    second.write_text(archive_text("maka", count=6, seed=4), encoding="utf-8")  # same openings
    return first, second


def _reference(tmp_path, two_inputs):
    database = tmp_path / "reference.sqlite"
    analyze(two_inputs, database)
    return database, stored_once(database), answers(database)


@pytest.mark.parametrize("cache, clash", [(1, False), (3, False), (50, False), (2, True)])
def test_a_small_memory_stores_each_text_once(tmp_path, two_inputs, monkeypatch, cache, clash):
    """The writer forgets its texts past MOVE_CACHE and finds them again in the database by
    their digest; with ``clash``, many texts share each digest and stay apart."""
    reference, count, explored = _reference(tmp_path, two_inputs)
    monkeypatch.setattr(position_index, "MOVE_CACHE", cache)
    if clash:
        monkeypatch.setattr(position_index, "move_digests",
                            lambda texts: [len(text) % 3 for text in texts])
    database = tmp_path / "small.sqlite"
    analyze(two_inputs, database)
    assert stored_once(database) == count
    assert answers(database) == explored


def test_a_database_indexed_before_the_digests_gets_them(tmp_path, two_inputs, monkeypatch):
    reference, count, explored = _reference(tmp_path, two_inputs)
    database = tmp_path / "old.sqlite"
    analyze(two_inputs[:1], database)
    connection = sqlite3.connect(database)
    connection.executescript(f"""
        DROP INDEX position_moves_digest;
        ALTER TABLE position_moves RENAME TO new_moves;
        {OLD_MOVES}
        INSERT INTO position_moves SELECT id, text FROM new_moves;
        DROP TABLE new_moves;""")
    connection.close()
    monkeypatch.setattr(position_index, "DIGEST_BATCH", 7)  # several batches
    monkeypatch.setattr(position_index, "MOVE_CACHE", 5)
    analyze(two_inputs, database)
    assert stored_once(database) == count
    digests = query(database, "SELECT text, digest FROM position_moves")
    assert [digest for _, digest in digests] == position_index.move_digests(
        [text for text, _ in digests])
    assert answers(database) == explored
