"""``players`` and ``crosstable`` on the command line: formats, exit statuses, diagnostics."""

from __future__ import annotations

import csv
import io
import json

from tests.conftest import invoke
from tests.storage.results_support import write_database

GAMES = [("Ann", "Bob", "1-0"), ("Bob", "Cid", "1/2-1/2"), ("Cid", "Ann", "0-1")]


def test_players_in_every_format(runner, tmp_path):
    db = write_database(tmp_path / "r.sqlite", GAMES, event="Club", date="2024.03.01")
    table = invoke(runner, ["players", db])
    assert table.exit_code == 0 and table.stdout.splitlines()[2].split()[1] == "Ann"
    assert "best_record" not in table.stdout
    rows = list(csv.DictReader(io.StringIO(invoke(runner, ["players", db, "-f", "csv"]).stdout)))
    assert [row["player"] for row in rows] == ["Ann", "Bob", "Cid"]
    # Bob and Cid are rated alike (each lost to Ann, they drew): either win is the best
    assert rows[0]["score"] == "2.0" and rows[0]["best_record"] in ("t.pgn#1", "t.pgn#3")
    data = json.loads(invoke(runner, ["players", db, "-f", "json", "--min-games", "2"]).stdout)
    assert [row["player"] for row in data["rows"]] == ["Ann", "Bob", "Cid"]
    assert invoke(runner, ["players", db, "--game", "elevation"]).stdout.strip() == "(none)"


def test_players_and_crosstable_refuse_what_is_no_database(runner, tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"\x00junk" * 400)
    for command in (["players"], ["crosstable", "--event", "Club"]):
        missing = invoke(runner, [*command, str(tmp_path / "missing.sqlite")])
        assert missing.exit_code == 2 and "no such file" in missing.stderr
        damaged = invoke(runner, [*command, str(junk)])
        assert damaged.exit_code == 2 and "not an SQLite results database" in damaged.stderr
        assert "Traceback" not in damaged.stderr
    assert invoke(runner, ["players", str(tmp_path / "r.sqlite"), "--game", "chess"]
                  ).exit_code == 2


def test_crosstable_formats_and_an_unknown_event(runner, tmp_path):
    db = write_database(tmp_path / "r.sqlite", GAMES, event="Club")
    text = invoke(runner, ["crosstable", db, "--event", "Club"])
    assert text.exit_code == 0 and text.stdout.startswith("Club (round-robin)")
    data = json.loads(invoke(runner, ["crosstable", db, "-e", "Club", "-f", "json"]).stdout)
    assert [(row["player"], row["score"]) for row in data["rows"]] == [
        ("Ann", 2.0), ("Bob", 0.5), ("Cid", 0.5)]
    page = invoke(runner, ["crosstable", db, "-e", "Club", "-f", "html"])
    assert page.exit_code == 0 and 'name="viewport"' in page.stdout
    unknown = invoke(runner, ["crosstable", db, "--event", "Open"])
    assert unknown.exit_code == 2
    assert "holds no event 'Open' (events: Club)" in unknown.stderr
    out = tmp_path / "table.html"
    assert invoke(runner, ["crosstable", db, "-e", "Club", "-f", "html", "-o", str(out)]
                  ).exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    same = invoke(runner, ["crosstable", db, "-e", "Club", "-o", db])
    assert same.exit_code == 2


def test_crosstable_of_one_game_when_two_games_share_an_event_name(runner, tmp_path):
    gow = {"game": "gow"}
    db = write_database(tmp_path / "r.sqlite", [*GAMES, ("Dee", "Eve", "1-0", gow),
                                                ("Eve", "Dee", "1-0", gow)], event="Club")
    both = json.loads(invoke(runner, ["crosstable", db, "-e", "Club", "-f", "json"]).stdout)
    assert {row["player"] for row in both["rows"]} == {"Ann", "Bob", "Cid", "Dee", "Eve"}
    maka = json.loads(invoke(runner, ["crosstable", db, "-e", "Club", "-f", "json",
                                      "--game", "maka"]).stdout)
    assert [(row["player"], row["score"]) for row in maka["rows"]] == [
        ("Ann", 2.0), ("Bob", 0.5), ("Cid", 0.5)]
    war = json.loads(invoke(runner, ["crosstable", db, "-e", "Club", "-f", "json",
                                     "-g", "debord"]).stdout)
    assert sorted((row["player"], row["score"]) for row in war["rows"]) == [
        ("Dee", 1.0), ("Eve", 1.0)]
    none = invoke(runner, ["crosstable", db, "-e", "Club", "--game", "elevation"])
    assert none.exit_code == 2 and "holds no event 'Club' of elevation" in none.stderr
    assert invoke(runner, ["crosstable", db, "-e", "Club", "--game", "chess"]).exit_code == 2
