"""The database's ``openings`` table (docs/database.md): written by analyze, read back by
report, added to a version-1 database that lacks it, and a changed catalogue makes the inputs
analysed again."""

from __future__ import annotations

import sqlite3

from notation_tools.parallel import Settings, run
from notation_tools.storage.database import ResultsDatabase

GAMES = '[Variant "maka"]\n\n1. P-10m P-10g *\n\n[Variant "maka"]\n\n1. P-9m *\n'


def names(reports):
    return [getattr(report, "opening", None) for report in reports]


def test_written_read_back_and_added_to_an_old_database(tmp_path):
    games = tmp_path / "games.pgn"
    games.write_text(GAMES, encoding="utf-8")
    db = str(tmp_path / "r.sqlite")
    settings = Settings(collect_stats=True, details=True, openings=())
    assert names(run([str(games)], settings, database=db)) == ["Centre pawns", None]
    assert names(run([str(games)], settings, database=db)) == ["Centre pawns", None]  # stored
    with sqlite3.connect(db) as connection:
        connection.execute("DROP TABLE openings")  # as a database written before the table
    with ResultsDatabase(db) as database:
        tables = {row[0] for row in database.connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "openings" in tables and database.schema_version() == 1
        assert names(database.reports()) == [None, None]


def test_a_changed_catalogue_analyses_the_inputs_again(tmp_path, runner):
    from tests.conftest import invoke

    games = tmp_path / "games.pgn"
    games.write_text(GAMES, encoding="utf-8")
    mine = tmp_path / "mine.pgn"
    mine.write_text('[Variant "maka"]\n[Opening "Ninth file"]\n\n1. P-9m *\n', encoding="utf-8")
    db = tmp_path / "r.sqlite"
    assert invoke(runner, ["analyze", str(games), "--db", str(db), "-q"]).exit_code == 0
    assert invoke(runner, ["analyze", str(games), "--db", str(db), "-q", "--openings",
                           str(mine)]).exit_code == 0
    with sqlite3.connect(db) as connection:
        stored = sorted(row[0] for row in connection.execute("SELECT name FROM openings"))
    assert stored == ["Centre pawns", "Ninth file"]
