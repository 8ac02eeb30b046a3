"""``players`` from a results database (docs/players.md): counts, sides, dates, what counts,
best and worst results, and properties of the scores."""

from __future__ import annotations

import random
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.storage.database import DatabaseError, ResultsDatabase
from notation_tools.storage.players import players
from tests.storage.results_support import write_database


def by_name(rows):
    return {row["player"]: row for row in rows}


def test_counts_sides_dates_and_what_counts(tmp_path):
    # Maka-Dai-Dai Shogi: the first side is Black.
    path = write_database(tmp_path / "r.sqlite", [
        ("Ann", "Bob", "1-0", {"date": "2024.01.05"}),
        ("Bob", "Ann", "1/2-1/2", {"date": "2024.02.01"}),
        ("Ann", "Cid", "0-1", {"date": "2023.12.31"}),
        ("Cid", "Ann", "*", {"date": "????.??.??"}),          # unfinished
        ("Ann", "Bob", "1-0", {"valid": False}),              # invalid: not scored
        ("Ann", "?", "1-0"),                                  # no second player: left out
    ])
    rows = by_name(players(path))
    ann = rows["Ann"]
    assert (ann["games"], ann["wins"], ann["draws"], ann["losses"]) == (3, 1, 1, 1)
    assert ann["score"] == 1.5
    assert (ann["Black_games"], ann["Black_score"]) == (2, 1.0)
    assert (ann["White_games"], ann["White_score"]) == (1, 0.5)
    assert (ann["unfinished"], ann["invalid"]) == (1, 1)
    assert (ann["first_date"], ann["last_date"]) == ("2023.12.31", "2024.02.01")
    assert ann["best"].startswith("beat Bob") and ann["worst"].startswith("lost to Cid")
    assert ann["best_record"] == "t.pgn#1" and ann["worst_record"] == "t.pgn#3"
    assert rows["Bob"]["games"] == 2 and rows["Cid"]["score"] == 1.0
    assert ann["rating_low"] < ann["rating"] < ann["rating_high"]


def test_sorted_by_rating_and_min_games(tmp_path):
    path = write_database(tmp_path / "r.sqlite", [
        ("Ann", "Bob", "1-0"), ("Ann", "Cid", "1-0"), ("Bob", "Cid", "1-0"), ("Cid", "Dan", "1-0")])
    rows = players(path)
    assert [row["player"] for row in rows] == ["Ann", "Bob", "Cid", "Dan"]
    assert [row["player"] for row in players(path, min_games=2)] == ["Ann", "Bob", "Cid"]


def test_one_row_per_player_and_game(tmp_path):
    path = write_database(tmp_path / "r.sqlite", [
        ("Ann", "Bob", "1-0"), ("Ann", "Bob", "0-1", {"game": "game-of-war"})])
    rows = players(path)
    assert sorted((row["game"], row["player"]) for row in rows) == [
        ("game-of-war", "Ann"), ("game-of-war", "Bob"),
        ("maka-dai-dai-shogi", "Ann"), ("maka-dai-dai-shogi", "Bob")]
    war = [row for row in rows if row["game"] == "game-of-war"]
    assert {row["player"]: row["North_score"] for row in war} == {"Ann": 0.0, "Bob": 0.0}
    assert [row["player"] for row in players(path, game="game-of-war")] == ["Bob", "Ann"]


def test_an_open_database_object_is_taken_as_is(tmp_path):
    path = write_database(tmp_path / "r.sqlite", [("Ann", "Bob", "1-0")])
    with ResultsDatabase(path) as database:
        assert [row["player"] for row in players(database)] == ["Ann", "Bob"]


def test_a_file_that_is_not_a_database(tmp_path):
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    with pytest.raises(DatabaseError):
        players(str(path))
    with pytest.raises(DatabaseError):
        players(str(tmp_path / "missing.sqlite"))


NAMES = ["Ann", "Bob", "Cid", "Dan"]
games_strategy = st.lists(
    st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES),
              st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"])).filter(lambda g: g[0] != g[1]),
    min_size=1, max_size=12)


@settings(max_examples=25)
@given(games_strategy, st.randoms(use_true_random=False))
def test_scores_sum_to_games_played_and_ignore_record_order(tmp_path_factory, games, rnd):
    folder = tmp_path_factory.mktemp("db")
    rows = players(write_database(folder / "a.sqlite", games))
    decided = sum(1 for game in games if game[2] != "*")
    assert sum(row["score"] for row in rows) == decided
    assert sum(row["games"] for row in rows) == 2 * decided
    for row in rows:
        assert row["score"] == sum(row[f"{side}_score"] for side in ("Black", "White"))
    shuffled = list(games)
    rnd.shuffle(shuffled)
    again = by_name(players(write_database(folder / "b.sqlite", shuffled)))
    for row in rows:
        other = again[row["player"]]
        for column in ("games", "score", "wins", "draws", "losses", "unfinished"):
            assert other[column] == row[column]
        assert other["rating"] == pytest.approx(row["rating"], abs=0.2)
