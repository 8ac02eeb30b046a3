"""Material conditions answered in SQL (docs/database.md, "material_differences";
docs/pattern.md): the signatures a pattern's material tests (and its squares' prefilter)
accept, found over the materials' rows by piece (told against the database's first
material, or in a database indexed by an earlier release against none, in
``material_pieces``), are those that the Python evaluation of the stored material accepts;
a database indexed before those rows gets them on first use, or is answered in Python."""

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
from notation_tools.storage.position_index import (MATERIAL_ROWS_SCHEMA,
                                                    complete_material_rows,
                                                    create_index_tables, fill_material_rows,
                                                    material_count_rows, material_rows,
                                                    signature_filter, store_material)
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


def _stored(rows, layout="material_differences"):
    """An in-memory index holding ``rows`` (signatures) as the writer stores them: told
    against the first (``material_differences``), or as in a database indexed by an
    earlier release (``material_pieces``)."""
    connection = sqlite3.connect(":memory:")
    create_index_tables(connection)
    if layout == "material_pieces":
        connection.execute(MATERIAL_ROWS_SCHEMA["material_pieces"])
    for number, signature in enumerate(rows, 1):
        assert store_material(connection, signature_text(signature)) == number
    assert material_rows(connection).table == layout
    return connection

LAYOUTS = ("material_differences", "material_pieces")


@settings(max_examples=150, deadline=None)
@given(rows=signatures, material=st.lists(material_tests, max_size=3),
       squares=st.lists(square_tests, max_size=2), prefilter=st.booleans(),
       layout=st.sampled_from(LAYOUTS))
def test_sql_accepts_the_signatures_the_python_evaluation_accepts(rows, material, squares,
                                                                   prefilter, layout):
    pattern = Pattern("maka", tuple(squares), tuple(material))
    connection = _stored(rows, layout)
    found = signature_filter(pattern, squares=prefilter)
    counted = complete_material_rows(connection)
    assert counted == material_rows(connection)
    by_sql = {row[0] for row in connection.execute(*found.query(counted))}
    accepts = pattern.may_hold if prefilter else pattern.material_holds
    assert found.accepts == accepts
    by_python = {number for number, signature in enumerate(rows, 1)
                 if accepts(signature_material(signature))}
    assert by_sql == by_python


@settings(max_examples=40, deadline=None)
@given(rows=signatures, kept=st.integers(0, 12), layout=st.sampled_from(LAYOUTS))
def test_filling_gives_the_rows_the_writer_writes(rows, kept, layout):
    """A database whose first ``kept`` materials have their rows (or none: made before the
    table) gets the others' rows, the same as the writer's."""
    written = _stored(rows, layout)
    connection = _stored(rows, layout)
    connection.execute(f"DELETE FROM {layout} WHERE signature_id > ?", (kept,))
    assert (complete_material_rows(connection) is not None) == (kept >= len(rows))
    assert fill_material_rows(connection) == max(0, len(rows) - kept)
    assert complete_material_rows(connection) == material_rows(connection)
    everything = f"SELECT * FROM {layout} ORDER BY 1, 2, 3, 4"
    assert connection.execute(everything).fetchall() == written.execute(everything).fetchall()


def test_every_signature_has_its_sides_totals():
    assert sorted(material_count_rows(7, '[[0,"Ln",2],[0,"A",1]]', {})) == [
        (0, "*", 3, 7), (0, "A", 1, 7), (0, "Ln", 2, 7), (1, "*", 0, 7)]


def test_a_material_has_rows_where_it_differs_from_the_reference():
    """A count the reference has too has no row; one it lacks, or has another of, has one
    (0 for a piece the reference has and the material has not); the totals always."""
    reference = {(0, "Ln"): 2, (1, "FK"): 1, (1, "A"): 3}
    assert sorted(material_count_rows(7, '[[0,"A",1],[0,"Ln",2],[1,"A",2]]', reference)) == [
        (0, "*", 3, 7), (0, "A", 1, 7), (1, "*", 2, 7), (1, "A", 2, 7), (1, "FK", 0, 7)]


def test_the_first_material_stored_is_the_reference():
    connection = _stored([((0, "Ln", 2), (1, "FK", 1)), ((0, "Ln", 1), (1, "FK", 1))])
    assert sorted(connection.execute("SELECT * FROM material_reference")) == [
        (0, "Ln", 2), (1, "FK", 1)]
    assert sorted(connection.execute("SELECT * FROM material_differences")) == [
        (0, "*", 1, 2), (0, "*", 2, 1), (0, "Ln", 1, 2), (1, "*", 1, 1), (1, "*", 1, 2)]


def _archive(tmp_path, name, seed):
    game = get_game("maka")
    records = generate_records(game, game.parse_rules(None), count=8, seed=seed, max_plies=60)
    path = tmp_path / name
    path.write_text("\n".join(write_record(record) for record in records), encoding="utf-8")
    return path


def _old_database(tmp_path):
    """A Maka database indexed as before its materials' rows by piece (the tables
    dropped), and the same indexed now."""
    path = _archive(tmp_path, "a.pgn", 3)
    new, database = tmp_path / "new.sqlite", tmp_path / "old.sqlite"
    analyze(path, new, "positions")
    analyze(path, database, "positions")
    connection = sqlite3.connect(database)
    with connection:
        connection.execute("DROP TABLE material_differences")
        connection.execute("DROP TABLE material_reference")
    connection.close()
    return database, new


QUERIES = ({"material": "White: *<96"}, {"material": "Black: FK=0; White: Ln>=1"},
           {"material": "Black: Ca=0"}, {"material": "Black: P<19; White: P>=17"},
           {"squares": ["10j=empty"], "material": "Black: *<=95"})


def _answers(database):
    with Database(str(database)) as db:
        return [db.pattern(**query) for query in QUERIES]


def test_an_old_database_gets_the_table_on_first_use_with_the_same_answers(tmp_path):
    database, new = _old_database(tmp_path)
    writing = sqlite3.connect(database, isolation_level=None)
    writing.execute("BEGIN IMMEDIATE")  # another writer (an analyze run): it cannot add it
    try:
        by_python = _answers(database)  # answered in Python
        assert complete_material_rows(writing) is None
    finally:
        writing.execute("ROLLBACK")
        writing.close()
    assert _answers(database) == by_python == _answers(new)
    # It gets the rows of an earlier release: against no reference.
    assert complete_material_rows(sqlite3.connect(database)).table == "material_pieces"
    # The queries found records (the comparison says something), those told by rows where
    # a material differs from the reference too.
    assert any(by_python[:2]) and all(by_python[2:4])


def test_a_database_with_material_pieces_keeps_them(tmp_path):
    """A database indexed by an earlier release (``material_pieces``, every count above 0)
    is answered from them, and the writer adds a new input's materials there: the same
    answers as a database indexed now."""
    database, new = _old_database(tmp_path)
    connection = sqlite3.connect(database)
    with connection:
        fill_material_rows(connection)
    connection.close()
    other = _archive(tmp_path, "b.pgn", 4)
    for path in (database, new):
        analyze(other, path, "positions")
    connection = sqlite3.connect(database)
    assert complete_material_rows(connection).table == "material_pieces"
    assert connection.execute("SELECT name FROM sqlite_master WHERE name LIKE "
                              "'material_differences'").fetchall() == []
    assert _answers(database) == _answers(new)
    assert sqlite3.connect(new).execute("SELECT count(*) FROM material_differences").fetchone() \
        < connection.execute("SELECT count(*) FROM material_pieces").fetchone()


def test_a_reference_row_edited_by_hand_is_left_out():
    """A ``material_reference`` row of another kind (a file edited by hand) is not compared
    with a test's count: the query is made and runs, with no exception."""
    connection = _stored([((0, "Ln", 2),), ((0, "Ln", 1),)])
    connection.execute("INSERT INTO material_reference VALUES (0, 'A', 'two')")
    rows = material_rows(connection)
    assert rows.reference == {(0, "Ln"): 2}
    pattern = Pattern("maka", (SquareTest("a1", 0, "A", False),),
                      (MaterialTest(0, "A", ">=", 1), MaterialTest(0, "Ln", "<", 2)))
    found = signature_filter(pattern, squares=True)
    assert connection.execute(*found.query(rows)).fetchall() == []
