"""Search and explore where the database holds one game and where it holds two
(docs/database.md, "Query latency at 100,000 records"): with one game the counts and the
first records are found without joining the records table, with two through it; the
answers are the same."""

from __future__ import annotations

import shutil
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import generate_records
from notation_tools.games.base import get_game
from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.records.pgn import write_record
from notation_tools.storage.game_database import Database

GAMES = ("maka", "shih", "elevation")


def _analyze(paths, database):
    settings_ = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings_, jobs=1, database=str(database)) as session:
        list(session.reports([str(path) for path in paths]))


def _without_ids(rows):
    return [{name: value for name, value in row.items() if name != "id"} for row in rows]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(pair=st.permutations(GAMES).map(lambda games: games[:2]), seed=st.integers(0, 1000),
       count=st.integers(2, 6), limit=st.integers(1, 5), depth=st.integers(0, 3))
def test_one_game_and_two_games_give_the_same_answers(tmp_path_factory, pair, seed, count,
                                                      limit, depth):
    folder = tmp_path_factory.mktemp("games")
    paths = []
    for game_id in pair:
        game = get_game(game_id)
        records = generate_records(game, game.parse_rules(None), count=count, seed=seed,
                                   max_plies=8)
        path = folder / f"{game_id}.pgn"
        path.write_text("\n".join(write_record(record) for record in records), encoding="utf-8")
        paths.append(path)
    _analyze(paths, folder / "both.sqlite")
    _analyze(paths[:1], folder / "one.sqlite")
    game_id = get_game(pair[0]).id
    with Database(str(folder / "both.sqlite")) as both, \
            Database(str(folder / "one.sqlite")) as one:
        assert one.games() == [game_id] and len(both.games()) == 2
        line: list[str] = []
        for _ in range(depth):  # down the most played moves
            moves = one.explore(moves=line)["moves"]
            if not moves:
                break
            line.append(moves[0]["move"])
        for db in (one, both):
            everything = db.search(moves=line, game=game_id)
            assert everything  # the first record's moves are played by it
            assert db.search(moves=line, game=game_id, limit=limit) == everything[:limit]
            assert db.count(moves=line, game=game_id) == len(everything)
        assert _without_ids(both.search(moves=line, game=game_id)) == \
            _without_ids(one.search(moves=line, game=game_id))
        assert both.explore(moves=line, game=game_id) == one.explore(moves=line, game=game_id)


def test_a_move_played_under_several_rules_is_looked_up_per_rules(tmp_path):
    """The explorer reads the position after a move from one record per move text; where
    the records of a text were replayed under several rules it reads one per rules (here
    the rules are renamed on every other record: the answers must not change)."""
    game = get_game("maka")
    records = list(generate_records(game, game.parse_rules(None), count=7, seed=3,
                                    max_plies=6))
    path = tmp_path / "maka.pgn"  # each record twice: ids i and i + 7, one of them even
    path.write_text("\n".join(write_record(record) for record in records * 2),
                    encoding="utf-8")
    _analyze([path], tmp_path / "one.sqlite")
    mixed = tmp_path / "mixed.sqlite"
    shutil.copy(tmp_path / "one.sqlite", mixed)
    connection = sqlite3.connect(mixed)
    connection.execute("UPDATE records SET rules = 'renamed' WHERE id % 2 = 0")
    connection.commit()
    connection.close()
    with Database(str(tmp_path / "one.sqlite")) as one, Database(str(mixed)) as other:
        assert other.connection.execute(
            "SELECT count(DISTINCT rules) FROM records").fetchone()[0] == 2
        line: list[str] = []
        for _ in range(4):
            answer = one.explore(moves=line)
            assert other.explore(moves=line) == answer
            assert other.explore(moves=line, limit=1) == one.explore(moves=line, limit=1)
            if not answer["moves"]:
                break
            line.append(answer["moves"][0]["move"])
