"""Pattern search through the position index (docs/pattern.md, "With a position index"):
material answered from the stored material runs, squares confirmed by replaying only the
candidate records, equal to the replay of every record (no index) on random patterns."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from notation_tools.analysis.generate import generate_records
from notation_tools.games.base import get_game
from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.records.pgn import write_record
from notation_tools.storage.errors import DatabaseError
from notation_tools.storage.game_database import Database
from notation_tools.storage.position_index import material_first_plies, material_runs

GAMES = ("maka", "gow", "elevation", "shih", "shuriken")
OPERATORS = (">=", "<=", "=", "!=", ">", "<")


def analyze(path, database, index):
    settings_ = Settings(collect_stats=True, details=True, index=index)
    with open_session(settings_, jobs=1, database=str(database)) as session:
        return list(session.reports([str(path)]))


@pytest.fixture(scope="module", params=GAMES)
def databases(request, tmp_path_factory):
    """An archive of random games long enough to capture (and one record whose main line
    breaks off at an illegal move), analysed with the index and without."""
    game = get_game(request.param)
    folder = tmp_path_factory.mktemp(request.param)
    records = list(generate_records(game, game.parse_rules(None), count=10, seed=5,
                                    max_plies=70))
    text = "\n".join(write_record(record) for record in records)
    broken = write_record(records[0]).rstrip()
    text += "\n" + broken[:broken.rindex(" ")] + " zz99 *\n"  # the main line breaks off
    path = folder / "archive.pgn"
    path.write_text(text, encoding="utf-8")
    indexed, plain = folder / "indexed.sqlite", folder / "plain.sqlite"
    analyze(path, indexed, "positions")
    analyze(path, plain, None)
    start = game.start_position(game.parse_rules(None))
    return game, Database(str(indexed)), Database(str(plain)), sorted(game.occupants(start)), path


def _patterns(game, occupants):
    """Random patterns over the start's squares and pieces: what a player asks."""
    pieces = sorted({piece for _, _, piece in occupants}) + ["*"]
    sides = list(game.sides)
    squares = sorted({square for square, _, _ in occupants}) + list(game.square_names[:5])
    what = st.one_of(st.sampled_from(["empty", "any"]), st.sampled_from(sides),
                     st.sampled_from(pieces[:-1]),
                     st.tuples(st.sampled_from(sides), st.sampled_from(pieces[:-1])).map(
                         lambda pair: f"{pair[0]}:{pair[1]}"))
    square_test = st.tuples(st.sampled_from(squares), what).map(lambda p: f"{p[0]}={p[1]}")
    term = st.tuples(st.sampled_from(pieces), st.sampled_from(OPERATORS),
                     st.integers(0, 12)).map(lambda t: f"{t[0]}{t[1]}{t[2]}")
    material = st.dictionaries(st.sampled_from(sides), st.lists(term, min_size=1, max_size=2),
                               min_size=1, max_size=2).map(lambda d: "; ".join(
                                   f"{side}: {', '.join(terms)}" for side, terms in d.items()))
    at = st.one_of(st.none(), st.tuples(st.integers(0, 40), st.integers(0, 40)).map(
        lambda p: f"{min(p)}..{max(p)}"), st.integers(0, 60).map(lambda n: f"{n}.."))
    return st.tuples(st.lists(square_test, max_size=2), st.one_of(st.none(), material), at
                     ).filter(lambda p: p[0] or p[1])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_index_answers_what_replaying_every_record_answers(databases, data):
    game, indexed, plain, occupants, _ = databases
    squares, material, at = data.draw(_patterns(game, occupants))
    by_index = indexed.pattern(squares=squares, material=material, at=at)
    by_replay = plain.pattern(squares=squares, material=material, at=at)
    assert [(r["record"], r["ply"]) for r in by_index] == \
        [(r["record"], r["ply"]) for r in by_replay]


def test_material_runs_cover_every_checked_ply_and_captures_change_them(databases):
    game, indexed, plain, _, _ = databases
    connection = sqlite3.connect(indexed.path)
    runs = connection.execute(
        "SELECT r.record_index, r.plies, r.valid, m.first_ply, m.last_ply FROM records AS r "
        "JOIN position_material AS m ON m.record_id = r.id ORDER BY r.id, m.first_ply").fetchall()
    signatures = connection.execute("SELECT count(*) FROM material_signatures").fetchone()[0]
    connection.close()
    by_record: dict[int, list[tuple[int, int, int, int]]] = {}
    for index, plies, valid, first, last in runs:
        by_record.setdefault(index, []).append((plies, valid, first, last))
    assert len(by_record) == 11
    for rows in by_record.values():
        plies, valid = rows[0][0], rows[0][1]
        covered = [ply for _, _, first, last in rows for ply in range(first, last + 1)]
        # the plies pattern search checks: before every move, and the end of a whole line
        assert covered == list(range(plies + 1 if valid else plies))
    assert signatures > 1  # the random games capture: material changes


def test_a_material_pattern_is_answered_without_reading_the_archive(databases):
    game, indexed, plain, _, path = databases
    side = game.sides[0]
    material = f"{side}: *>=1"
    expected = plain.pattern(material=material)
    hidden = path.with_suffix(".hidden")
    path.rename(hidden)  # the replay path can no longer read the records: it says so
    try:
        with pytest.raises(DatabaseError, match="not found"):
            plain.pattern(material=material)
        answer = indexed.pattern(material=material)
    finally:
        hidden.rename(path)
    assert len(answer) == 11 and [(r["record"], r["ply"]) for r in answer] == \
        [(r["record"], r["ply"]) for r in expected]


def test_an_open_database_sees_the_materials_a_later_run_adds(tmp_path):
    game = get_game("shuriken")
    first, second = tmp_path / "a.pgn", tmp_path / "b.pgn"
    for path, seed in ((first, 1), (second, 2)):
        records = generate_records(game, game.parse_rules(None), count=6, seed=seed,
                                   max_plies=70)
        path.write_text("\n".join(write_record(record) for record in records), encoding="utf-8")
    database = tmp_path / "r.sqlite"
    analyze(first, database, "positions")
    material = f"{game.sides[0]}: *>=1"
    with Database(str(database)) as db:
        assert {r["path"] for r in db.pattern(material=material)} == {str(first)}
        analyze(second, database, "positions")  # new materials while the database is open
        kept = db.pattern(material=material, at="5..")
    with Database(str(database)) as fresh:
        assert kept == fresh.pattern(material=material, at="5..")
    assert {r["path"] for r in kept} == {str(first), str(second)}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
@given(data=st.data(), limit=st.integers(0, 12))
def test_the_first_records_and_the_count_are_those_of_the_whole_answer(databases, data, limit):
    """``pattern(limit=)`` reads only the listed records and ``pattern_count`` counts in
    SQL: the same as cutting and counting the whole answer (found by replaying)."""
    game, indexed, plain, occupants, _ = databases
    squares, material, at = data.draw(_patterns(game, occupants))
    whole = plain.pattern(squares=squares, material=material, at=at)
    listed, total = indexed.pattern_counted(squares=squares, material=material, at=at,
                                            limit=limit)
    assert [(r["record"], r["ply"]) for r in listed] == \
        [(r["record"], r["ply"]) for r in whole[:limit]]
    assert total == indexed.pattern_count(squares=squares, material=material, at=at) \
        == len(whole)
    assert indexed.pattern(squares=squares, material=material, at=at, limit=limit) == listed


def test_the_first_ply_of_a_material_is_the_first_of_its_runs(databases):
    """``material_first_plies`` (SQL) gives the first ply of ``material_runs`` (Python)."""
    game, indexed, _, _, _ = databases
    for plies in ((None, None), (10, 40), (None, 5), (30, None)):
        for wanted in (lambda material: True, lambda material: len(material) % 2 == 0):
            runs = material_runs(indexed.connection, game.id, wanted, plies)
            assert material_first_plies(indexed.connection, game.id, wanted, plies) == \
                {record_id: found[0][0] for record_id, found in runs.items()}


def test_a_pattern_that_needs_a_missing_input_says_so(tmp_path, monkeypatch):
    """Records confirmed by reading their input again are never left out in silence: an
    input analysed by a relative path, searched from elsewhere, is an error naming it."""
    game = get_game("shuriken")
    records = list(generate_records(game, game.parse_rules(None), count=3, seed=2,
                                    max_plies=20))
    (tmp_path / "games.pgn").write_text("\n".join(write_record(r) for r in records),
                                        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    analyze("games.pgn", "indexed.sqlite", "positions")
    square = sorted(game.occupants(game.start_position(game.parse_rules(None))))[0][0] \
        if list(game.occupants(game.start_position(game.parse_rules(None)))) else \
        game.square_names[0]
    with Database("indexed.sqlite") as db:
        assert db.pattern(squares=[f"{square}=any"]) is not None  # read where analyze ran
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    with Database(str(tmp_path / "indexed.sqlite")) as db:
        with pytest.raises(DatabaseError, match="games.pgn: not found"):
            db.pattern(squares=[f"{square}=any"])
