"""Material conditions answered in SQL (docs/database.md, "material_pieces"; docs/pattern.md):
the signatures a pattern's material tests (and its squares' prefilter) accept, found over
``material_pieces``, are those that the Python evaluation of the stored material accepts;
a database indexed before the table gets it on first use, or is answered in Python."""

from __future__ import annotations

import sqlite3

from hypothesis import given, settings, strategies as st

from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.pattern import (MaterialTest, Pattern, SquareTest,
                                             signature_material)
from notation_tools.analysis.position_keys import signature_text
from notation_tools.games.base import get_game
from notation_tools.records.pgn import write_record
from notation_tools.storage.game_database import Database
from notation_tools.storage.position_index import (create_index_tables, fill_material_pieces,
                                                    material_piece_rows,
                                                    material_pieces_complete,
                                                    signature_filter, store_material_pieces)
from tests.storage.test_pattern_index import analyze

PIECES = ("A", "Bb", "Ln", "FK")
OPERATORS = (">=", "<=", "=", "==", "!=", ">", "<")

signatures = st.lists(
    st.dictionaries(st.tuples(st.integers(0, 1), st.sampled_from(PIECES)), st.integers(1, 4),
                    max_size=6).map(lambda d: tuple(sorted((s, p, c) for (s, p), c in d.items()))),
    min_size=1, max_size=12, unique=True)
material_tests = st.builds(MaterialTest, st.integers(0, 1),
                           st.sampled_from((*PIECES, "*", "Zz")),  # Zz: a piece none has
                           st.sampled_from(OPERATORS), st.integers(0, 9))
square_tests = st.builds(SquareTest, st.just("a1"), st.sampled_from((None, 0, 1)),
                         st.sampled_from((None, *PIECES, "Zz")), st.booleans())


def _stored(rows):
    """An in-memory index holding ``rows`` (signatures) as the writer stores them."""
    connection = sqlite3.connect(":memory:")
    create_index_tables(connection)
    for signature in rows:
        cursor = connection.execute("INSERT INTO material_signatures (counts) VALUES (?)",
                                    (signature_text(signature),))
        store_material_pieces(connection, cursor.lastrowid, signature_text(signature))
    return connection


@settings(max_examples=150, deadline=None)
@given(rows=signatures, material=st.lists(material_tests, max_size=3),
       squares=st.lists(square_tests, max_size=2), prefilter=st.booleans())
def test_sql_accepts_the_signatures_the_python_evaluation_accepts(rows, material, squares,
                                                                   prefilter):
    pattern = Pattern("maka", tuple(squares), tuple(material))
    connection = _stored(rows)
    found = signature_filter(pattern, squares=prefilter)
    by_sql = {row[0] for row in connection.execute(found.sql, found.parameters)}
    accepts = pattern.may_hold if prefilter else pattern.material_holds
    assert found.accepts == accepts
    by_python = {number for number, signature in enumerate(rows, 1)
                 if accepts(signature_material(signature))}
    assert by_sql == by_python


@settings(max_examples=40, deadline=None)
@given(rows=signatures, kept=st.integers(0, 12))
def test_filling_gives_the_rows_the_writer_writes(rows, kept):
    """A database whose first ``kept`` materials have their rows (or none: made before the
    table) gets the others' rows, the same as the writer's."""
    written = _stored(rows)
    connection = _stored(rows)
    connection.execute("DELETE FROM material_pieces WHERE signature_id > ?", (kept,))
    assert material_pieces_complete(connection) == (kept >= len(rows))
    assert fill_material_pieces(connection) == max(0, len(rows) - kept)
    assert material_pieces_complete(connection)
    everything = "SELECT * FROM material_pieces ORDER BY 1, 2, 3, 4"
    assert connection.execute(everything).fetchall() == written.execute(everything).fetchall()


def test_every_signature_has_its_sides_totals():
    assert sorted(material_piece_rows(7, '[[0,"Ln",2],[0,"A",1]]')) == [
        (0, "*", 3, 7), (0, "A", 1, 7), (0, "Ln", 2, 7), (1, "*", 0, 7)]


def _old_database(tmp_path):
    """A Maka database indexed as before ``material_pieces`` (the table dropped)."""
    game = get_game("maka")
    records = generate_records(game, game.parse_rules(None), count=8, seed=3, max_plies=60)
    path = tmp_path / "a.pgn"
    path.write_text("\n".join(write_record(record) for record in records), encoding="utf-8")
    database = tmp_path / "old.sqlite"
    analyze(path, database, "positions")
    connection = sqlite3.connect(database)
    with connection:
        connection.execute("DROP TABLE material_pieces")
    connection.close()
    return database, game


QUERIES = ({"material": "White: *<96"}, {"material": "Black: FK=0; White: Ln>=1"},
           {"squares": ["10j=empty"], "material": "Black: *<=95"})


def test_an_old_database_gets_the_table_on_first_use_with_the_same_answers(tmp_path):
    database, _ = _old_database(tmp_path)
    writing = sqlite3.connect(database, isolation_level=None)
    writing.execute("BEGIN IMMEDIATE")  # another writer (an analyze run): it cannot add it
    try:
        with Database(str(database)) as db:
            by_python = [db.pattern(**query) for query in QUERIES]  # answered in Python
        assert not material_pieces_complete(writing)
    finally:
        writing.execute("ROLLBACK")
        writing.close()
    with Database(str(database)) as db:
        assert [db.pattern(**query) for query in QUERIES] == by_python
    assert material_pieces_complete(sqlite3.connect(database))
    assert any(by_python)  # the queries found records: the comparison says something
