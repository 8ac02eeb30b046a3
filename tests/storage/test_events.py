"""``crosstable`` (docs/players.md): hand-checked round-robin and Swiss tables, their
tie-breaks, and what an unknown event says."""

from __future__ import annotations

import pytest

from notation_tools.storage.events import (ROUND_ROBIN, SWISS, UnknownEvent, crosstable,
                                           event_table, events)
from tests.storage.results_support import write_database


def test_round_robin_with_sonneborn_berger(tmp_path):
    # A-B 1-0, A-C ½, D beat A, B-C 1-0, B-D 1-0, C-D ½.
    # Scores: A 1 + ½ + 0 = 1.5, B 0 + 1 + 1 = 2, C ½ + 0 + ½ = 1, D 1 + 0 + ½ = 1.5.
    # Sonneborn-Berger: B = beat C (1) + beat D (1.5) = 2.5; A = beat B (2) + ½ C (0.5) = 2.5;
    # D = beat A (1.5) + ½ C (0.5) = 2.0; C = ½ A (0.75) + ½ D (0.75) = 1.5.
    # Ranking: B 2; A 1.5 ahead of D 1.5 on SB (2.5 > 2.0); C 1.
    path = write_database(tmp_path / "r.sqlite", [
        ("A", "B", "1-0"), ("A", "C", "1/2-1/2"), ("A", "D", "0-1"),
        ("B", "C", "1-0"), ("D", "B", "0-1"), ("C", "D", "1/2-1/2")], event="Club")
    table = event_table(path, "Club")
    assert table.kind == ROUND_ROBIN
    assert [(r["player"], r["score"], r["sonneborn_berger"]) for r in table.rows] == [
        ("B", 2.0, 2.5), ("A", 1.5, 2.5), ("D", 1.5, 2.0), ("C", 1.0, 1.5)]
    b, a = table.rows[0], table.rows[1]
    # columns are the opponents' ranks: B 1, A 2, D 3, C 4
    assert (b["1"], b["2"], b["3"], b["4"]) == ("x", "0", "1", "1")
    assert (a["1"], a["3"], a["4"]) == ("1", "0", "½")
    assert "buchholz" not in b


def test_swiss_with_buchholz(tmp_path):
    # Round 1: A beat B, C beat D, E drew F. Round 2: A beat C, B beat E, F beat D.
    # Scores: A 2, F 1.5, B 1, C 1, E 0.5, D 0.
    # Buchholz: B = A 2 + E 0.5 = 2.5; C = D 0 + A 2 = 2.0: B ahead of C.
    # Ranks: A 1, F 2, B 3, C 4, E 5, D 6.
    games = [("A", "B", "1-0", {"round": "1.1"}), ("C", "D", "1-0", {"round": "1.2"}),
             ("E", "F", "1/2-1/2", {"round": "1.3"}), ("A", "C", "1-0", {"round": "2.1"}),
             ("B", "E", "1-0", {"round": "2.2"}), ("D", "F", "0-1", {"round": "2.3"})]
    table = event_table(write_database(tmp_path / "r.sqlite", games, event="Open"), "Open")
    assert table.kind == SWISS and table.columns == ["R1", "R2"]
    assert [(r["player"], r["score"], r["buchholz"]) for r in table.rows] == [
        ("A", 2.0, 2.0), ("F", 1.5, 0.5), ("B", 1.0, 2.5), ("C", 1.0, 2.0),
        ("E", 0.5, 2.5), ("D", 0.0, 2.5)]
    cells = {r["player"]: (r["R1"], r["R2"]) for r in table.rows}
    assert cells == {"A": ("+3", "+4"), "F": ("=5", "+6"), "B": ("-1", "+5"),
                     "C": ("+6", "-1"), "E": ("=2", "-3"), "D": ("-4", "-2")}
    assert table.rows[2]["sonneborn_berger"] == 0.5  # B beat E (0.5)


def test_unscored_records_and_scores_sum(tmp_path):
    path = write_database(tmp_path / "r.sqlite", [
        ("A", "B", "1-0"), ("B", "A", "*"), ("A", "B", "0-1", {"valid": False})],
        event="Match")
    table = event_table(path, "Match")
    assert table.unscored == 2
    assert sum(row["score"] for row in table.rows) == 1
    assert crosstable(path, "Match") == table.rows


def test_an_unknown_event_lists_the_events(tmp_path):
    path = write_database(tmp_path / "r.sqlite", [
        ("A", "B", "1-0", {"event": "Club"}), ("A", "B", "1-0", {"event": "Open"})])
    with pytest.raises(UnknownEvent) as raised:
        event_table(path, "Nope")
    assert raised.value.events == ["Club", "Open"]
    assert [row["event"] for row in events(path)] == ["Club", "Open"]
