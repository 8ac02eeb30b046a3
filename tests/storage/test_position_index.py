"""The position index (docs/database.md, "The position index"), search and the opening
explorer, against a brute-force count over the replayed records (no index)."""

from __future__ import annotations


import pytest

from notation_tools.analysis.select import parse_selection
from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.records.pgn import read_records
from notation_tools.storage import position_index
from notation_tools.storage.database import DatabaseError
from notation_tools.storage.game_database import Database
from tests.storage.index_support import archive_text, brute_force, query

GAMES = ("maka", "gow", "shuriken")


def analyze(paths, database, index="positions"):
    settings = Settings(collect_stats=True, details=True, index=index)
    with open_session(settings, jobs=1, database=str(database)) as session:
        return list(session.reports([str(p) for p in paths]))


@pytest.fixture(scope="module", params=[(game, cache) for game in GAMES
                                        for cache in (position_index.MOVE_CACHE, 2)])
def archive(request, tmp_path_factory):
    """An archive and its database; with a writer that keeps 2 move texts in memory, its
    texts are stored many times over (the answers must not change)."""
    game, cache = request.param
    folder = tmp_path_factory.mktemp(game)
    path = folder / "archive.pgn"
    text = archive_text(game, count=24, seed=7)
    path.write_text(text, encoding="utf-8")
    database = folder / "results.sqlite"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(position_index, "MOVE_CACHE", cache)
        analyze([path], database)
    (rows, distinct), = query(database, "SELECT count(*), count(DISTINCT text) "
                                        "FROM position_moves")
    assert (rows > distinct) == (cache == 2)
    return game, path, text, database


def test_explorer_counts_equal_a_brute_force_count_over_the_replayed_records(archive):
    game_id, path, text, database = archive
    played, _ = brute_force(text, str(path))
    with Database(str(database)) as db:
        game = db.game()
        for fen, moves in played.items():
            answer = db.explore(fen)
            got = {row["move"]: row for row in answer["moves"]}
            assert set(got) == set(moves), fen
            for move, facts in moves.items():
                row = got[move]
                assert row["games"] == len(facts)
                assert row["wins"] == [sum(f[1] == game.results[0] for f in facts),
                                       sum(f[1] == game.results[1] for f in facts)]
                assert row["draws"] == sum(f[1] == "1/2-1/2" for f in facts)
                assert row["unfinished"] == sum(f[1] == "*" for f in facts)
                assert row["average_plies"] == pytest.approx(
                    sum(f[2] for f in facts) / len(facts))
                assert (row["first_date"], row["last_date"]) == (
                    min(f[3] for f in facts), max(f[3] for f in facts))
                assert row["example"] == {"path": str(path), "record": min(f[0] for f in facts)}
        assert len(played) > 10


def test_search_finds_what_replaying_every_record_finds(archive):
    game_id, path, text, database = archive
    _, reaching = brute_force(text, str(path))
    with open(path, encoding="utf-8") as stream:
        records = list(read_records(stream, str(path)))
    with Database(str(database)) as db:
        for fen in list(reaching)[:25]:
            found = {row["record"] for row in db.search(fen)}
            assert found == reaching[fen]
            selection = parse_selection(reaches=fen, games=[game_id])
            by_select = {r.index for r in records if selection.judge(r).matched}
            assert found == by_select


def test_a_transposition_is_one_position_in_the_explorer(archive):
    """The archive's first two openings are a-w-b and b-w-a (tests/storage/index_support)."""
    game_id, path, text, database = archive
    with Database(str(database)) as db:
        rows = db.search(moves=_opening(text, 1))
        assert {row["ply"] for row in rows} == {3}
        openings = {_opening(text, i) for i in range(1, 25)}
        orders = [o for o in openings if o in (_opening(text, 1), _reversed(_opening(text, 1)))]
        assert db.explore(moves=_opening(text, 1))["games"] == len(rows)
        if len(orders) == 2:
            assert db.search(moves=orders[0]) == db.search(moves=orders[1])


def _opening(text, index):
    record = text.split("[Event")[index]
    moves = record.split("\n\n")[1].split()
    return " ".join([m for m in moves if not m.rstrip(".").isdigit()][:3])


def _reversed(opening):
    return " ".join(reversed(opening.split()))


def _rows(database):
    return (query(database, "SELECT count(*) FROM positions")[0][0],
            query(database, "SELECT sum(plies + 1) FROM records")[0][0],
            query(database, "SELECT analyzed FROM inputs"))


def test_the_index_is_incremental_and_follows_a_changed_input(tmp_path):
    path = tmp_path / "a.pgn"
    path.write_text(archive_text("shuriken", count=6, seed=3), encoding="utf-8")
    database = tmp_path / "r.sqlite"
    analyze([path], database, index=None)
    with Database(str(database)) as db:  # no index asked: none made
        assert db.coverage() == (0, 1)
        with pytest.raises(DatabaseError, match="no position index"):
            db.search()
    analyze([path], database)  # the index asked: the input is analysed again
    rows, plies, analyzed = _rows(database)
    assert rows == plies
    analyze([path], database)
    assert _rows(database) == (rows, plies, analyzed)  # unchanged: not redone
    analyze([path], database, index=None)
    assert _rows(database)[0] == rows  # a run without --index keeps the index
    path.write_text(archive_text("shuriken", count=9, seed=4), encoding="utf-8")
    analyze([path], database)
    rows, plies, _ = _rows(database)
    assert rows == plies  # the old records' rows are gone, the new ones there


def test_an_interrupted_run_leaves_a_usable_database(tmp_path):
    first, second = tmp_path / "a.pgn", tmp_path / "b.pgn"
    first.write_text(archive_text("shuriken", count=5, seed=1), encoding="utf-8")
    second.write_text(archive_text("shuriken", count=5, seed=2), encoding="utf-8")
    database = tmp_path / "r.sqlite"
    settings = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings, jobs=1, database=str(database)) as session:
        reports = session.reports([str(first), str(second)])
        for _ in range(7):  # the first input whole, two records of the second
            next(reports)
        reports.close()
    with Database(str(database)) as db:
        assert db.coverage() == (1, 2)  # the second input is stored incomplete
        assert {row["path"] for row in db.search()} == {str(first)}
    analyze([first, second], database)
    with Database(str(database)) as db:
        assert {row["path"] for row in db.search()} == {str(first), str(second)}
        assert db.coverage() == (2, 2)
