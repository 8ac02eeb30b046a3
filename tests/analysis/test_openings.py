"""Opening catalogues and names (docs/players.md#opening-names): every shipped line replays,
the deepest line wins, moves are compared as moves, a transposition is not a match, a user's
catalogue adds and renames, and analyze, report and select use the names."""

from __future__ import annotations

import json
import sqlite3

import pytest

from notation_tools.analysis.openings import (CatalogueError, check_catalogue, load_catalogue,
                                              opening_of, shipped_records)
from notation_tools.games.base import all_games
from notation_tools.records.pgn import read_records
from tests.conftest import invoke


def record(moves: str, game: str = "maka-dai-dai-shogi", extra: str = ""):
    [found] = read_records([f'[Variant "{game}"]', extra, "", f"{moves} *"])
    return found


@pytest.mark.parametrize("game", sorted(g.id for g in all_games()))
def test_every_shipped_line_replays_legally(game):
    from notation_tools.games.base import get_game

    assert list(shipped_records(get_game(game))), f"{game} ships no opening catalogue"
    assert check_catalogue(get_game(game)) == []


def test_the_deepest_line_is_named():
    assert opening_of(record("1. P-10m Ea-18b 2. P-9m")).name == "Centre pawn"
    assert opening_of(record("1. P-10m P-10g 2. P-9m")).name == "Centre pawns"
    assert opening_of(record("1. P-9m")) is None


def test_moves_are_compared_as_moves_not_texts():
    # the same first move in the three notations of Maka-Dai-Dai Shogi
    for spelling in ("P-10m", "P10n-10m", "10n10m"):
        assert opening_of(record(f"1. {spelling} P-10g")).name == "Centre pawns"
    assert opening_of(record("1. Sa1=B:b1>a2,a1-a2", "elevation")).name == "Samurai first"


def test_a_transposition_is_not_a_match(tmp_path):
    catalogue_file = tmp_path / "mine.pgn"
    catalogue_file.write_text('[Variant "shuriken-2d"]\n[Opening "Two centre stones"]\n\n'
                              "1. J10 J9 2. K10 *\n", encoding="utf-8")
    catalogue = load_catalogue([str(catalogue_file)])
    assert opening_of(record("1. J10 J9 2. K10", "shuriken-2d"), catalogue).name == \
        "Two centre stones"
    # the same position by another order: only the shipped one-move line matches
    assert opening_of(record("1. K10 J9 2. J10", "shuriken-2d"), catalogue) is None


def test_a_record_from_another_start_is_not_matched():
    from notation_tools.analysis.replay import replay
    from notation_tools.games.base import get_game

    game = get_game("shuriken-2d")
    start = game.format_position(game.start_position(game.parse_rules(None)))
    assert start.startswith("19/")
    other = "b18/" + start[3:]  # one more stone in a corner: another start
    found = record("1. J10", "shuriken-2d", f'[SetUp "1"]\n[FEN "{other}"]')
    assert opening_of(found) is None
    assert replay(found).is_valid  # the record itself is fine
    assert opening_of(record("1. J10", "shuriken-2d")).name == "Centre placement"
    # the standard start written out as a FEN is the same start
    written = record("1. J10", "shuriken-2d", f'[SetUp "1"]\n[FEN "{start}"]')
    assert opening_of(written).name == "Centre placement"


def test_a_users_catalogue_adds_lines_and_renames(tmp_path):
    catalogue_file = tmp_path / "mine.pgn"
    catalogue_file.write_text(
        '[Variant "maka"]\n[Opening "My centre"]\n\n1. P10n-10m *\n\n'
        '[Variant "maka"]\n[Opening "Ninth file"]\n\n1. P-9m *\n', encoding="utf-8")
    catalogue = load_catalogue([str(catalogue_file)])
    assert opening_of(record("1. P-10m Ea-18b"), catalogue).name == "My centre"
    assert opening_of(record("1. P-10m P-10g"), catalogue).name == "Centre pawns"
    assert opening_of(record("1. P-9m"), catalogue).name == "Ninth file"


def test_a_bad_catalogue_is_refused_with_its_problems(tmp_path):
    catalogue_file = tmp_path / "bad.pgn"
    catalogue_file.write_text('[Variant "maka"]\n[Opening "Bad"]\n\n1. P-10a *\n\n'
                              '[Variant "maka"]\n\n1. P-9m *\n', encoding="utf-8")
    with pytest.raises(CatalogueError) as raised:
        load_catalogue([str(catalogue_file)])
    codes = [problem.code for problem in raised.value.problems]
    assert codes == ["E-ILLEGAL-MOVE", "E-BAD-TAG"]


def test_opening_of_leaves_the_record_as_it_was():
    found = record("1. P-10m P-10a")
    assert opening_of(found).name == "Centre pawn" and found.diagnostics == []


MAKA_GAMES = ('[Variant "maka"]\n[Black "Ann"]\n[White "Bob"]\n\n1. P-10m P-10g 2. P-9m *\n\n'
              '[Variant "maka"]\n[Black "Bob"]\n[White "Ann"]\n\n1. 10n10m Ea-18b *\n\n'
              '[Variant "maka"]\n\n1. P-9m *\n')


def test_analyze_names_openings_in_the_report_and_the_database(runner, tmp_path):
    games = tmp_path / "games.pgn"
    games.write_text(MAKA_GAMES, encoding="utf-8")
    db = tmp_path / "r.sqlite"
    result = invoke(runner, ["analyze", str(games), "--db", str(db), "--format", "json",
                             "-j", "1"])
    assert result.exit_code == 0, result.stderr
    tables = {table["title"]: table["rows"] for table in json.loads(result.stdout)}
    assert tables["Openings"] == [
        {"game": "maka-dai-dai-shogi", "opening": "Centre pawn", "records": 1},
        {"game": "maka-dai-dai-shogi", "opening": "Centre pawns", "records": 1}]
    with sqlite3.connect(db) as connection:
        stored = connection.execute("SELECT records.record_index, openings.name FROM records "
                                    "JOIN openings ON openings.record_id = records.id "
                                    "ORDER BY 1").fetchall()
    assert stored == [(1, "Centre pawns"), (2, "Centre pawn")]
    again = invoke(runner, ["report", str(db), "--format", "json"])
    assert {t["title"]: t["rows"] for t in json.loads(again.stdout)}["Openings"] == \
        tables["Openings"]
    bare = invoke(runner, ["analyze", str(games), "--no-openings", "--format", "json"])
    assert "Openings" not in {table["title"] for table in json.loads(bare.stdout)}


def test_select_by_opening(runner, tmp_path):
    games = tmp_path / "games.pgn"
    games.write_text(MAKA_GAMES, encoding="utf-8")
    for test, kept in (("Centre pawn", 1), ("Centre*", 2), ("~pawns$", 1), ("Nothing", 0)):
        result = invoke(runner, ["select", str(games), "--opening", test, "--tags-only", "-q"])
        assert result.exit_code == 0, result.stderr
        assert result.stdout.count("[Variant") == kept, test


def test_bad_catalogue_options_are_usage_errors(runner, tmp_path):
    games = tmp_path / "games.pgn"
    games.write_text(MAKA_GAMES, encoding="utf-8")
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Variant "maka"]\n[Opening "Bad"]\n\n1. P-10a *\n', encoding="utf-8")
    for args in (["select", str(games), "--opening", "x", "--openings", str(bad)],
                 ["analyze", str(games), "--openings", str(bad)],
                 ["analyze", str(games), "--openings", str(tmp_path / "missing.pgn")],
                 ["analyze", str(games), "--openings", str(bad), "--no-openings"],
                 ["select", str(games), "--opening", "~("]):
        result = invoke(runner, args)
        assert result.exit_code == 2, args
    assert "E-ILLEGAL-MOVE" in invoke(runner, ["analyze", str(games), "--openings",
                                               str(bad)]).stderr
