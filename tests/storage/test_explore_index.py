"""The explorer and search at scale (docs/database.md, "How the explorer reads the index"):
the moves settled by the index's next rows give the same answer as reading every spelling
in the game's rules, and ``limit`` lists the most played moves (records) and counts the
rest."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import random_move
from notation_tools.games.base import get_game
from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.storage.game_database import Database
from tests.storage.index_support import brute_force, copy_without

GAMES = ("maka", "shih", "elevation")
"""Games with several notations: a move comes in several spellings across the records."""


def _archive(game_id: str, seed: int, count: int) -> str:
    """``count`` records from three short openings (so that positions recur), each record
    written in a notation drawn at random, with random results."""
    game = get_game(game_id)
    rng = random.Random(seed)
    start = game.start_position(game.parse_rules(None))
    openings = []
    for _ in range(3):
        position, line = start.copy(), []
        for _ in range(rng.randrange(1, 4)):
            move = random_move(game, position, rng)
            if move is None:
                break
            line.append(move)
            position.push(move)
        openings.append(line)
    texts = []
    for index in range(count):
        notation = rng.choice(game.notations)
        position, written = start.copy(), []
        line = list(rng.choice(openings))
        for _ in range(rng.randrange(0, 3)):
            probe = start.copy()
            for move in line:
                probe.push(move)
            extra = random_move(game, probe, rng)
            if extra is not None:
                line.append(extra)
        for move in line:
            written.append(game.format_move(move, position, notation))
            position.push(move)
        result = rng.choice(("1-0", "0-1", "1/2-1/2", "*"))
        texts.append(f'[Event "explore"]\n[Variant "{game.id}"]\n[Round "{index + 1}"]\n'
                     f'[Date "20{rng.randrange(10, 30)}.01.01"]\n[Result "{result}"]\n\n'
                     f'{" ".join(written)} {result}\n')
    return "\n".join(texts)


def _indexed(game_id: str, seed: int, count: int) -> tuple[Path, Path, str]:
    folder = Path(tempfile.mkdtemp())
    path = folder / "archive.pgn"
    text = _archive(game_id, seed, count)
    path.write_text(text, encoding="utf-8")
    database = folder / "results.sqlite"
    settings_ = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings_, jobs=1, database=str(database)) as session:
        list(session.reports([str(path)]))
    return path, database, text


def _without_next_rows(database: Path) -> Path:
    """A copy of ``database`` without the keys after each move (a database made before
    them): the explorer then reads every spelling in the game's rules."""
    return copy_without(database, "old.sqlite", "DROP TABLE record_keys")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 10_000),
       count=st.integers(4, 12), limit=st.integers(1, 4))
def test_settled_moves_and_limits_give_the_full_reading(game_id, seed, count, limit):
    path, database, text = _indexed(game_id, seed, count)
    played, reaching = brute_force(text, str(path))
    with Database(str(database)) as db, Database(str(_without_next_rows(database))) as old:
        for fen in reaching:
            full = db.explore(fen)
            assert full == old.explore(fen)  # the index's next rows change nothing
            assert {row["move"] for row in full["moves"]} == set(played.get(fen, {}))
            assert full["rest"] == {"moves": 0, "games": 0}
            cut = db.explore(fen, limit=limit)
            listed, everything = cut["moves"], full["moves"]
            assert len(listed) == min(limit, len(everything))
            assert all(row in everything for row in listed)
            assert [row["games"] for row in listed] == [row["games"] for row in
                                                        everything[:limit]]
            assert cut["rest"] == {"moves": len(everything) - len(listed),
                                   "games": sum(row["games"] for row in everything)
                                   - sum(row["games"] for row in listed)}
            found = db.search(fen)
            assert {row["record"] for row in found} == reaching[fen]
            assert db.search(fen, limit=limit) == found[:limit]
            assert db.count(fen) == len(found)


def test_spellings_of_one_move_are_merged_whatever_the_index_says():
    """Records in two notations: each move of the first ply is one row per spelling in the
    index, and one move in the explorer, with every spelling and the records summed."""
    path, database, text = _indexed("maka", 11, 12)
    played, _ = brute_force(text, str(path))
    with Database(str(database)) as db:
        game, start = db.position()
        answer = db.explore()
        assert answer["games"] == 12
        assert sum(row["games"] for row in answer["moves"]) == 12
        merged = [row for row in answer["moves"] if len(row["spellings"]) > 1]
        assert merged  # the seed writes one opening move in two notations
        for row in merged:
            moves = {game.parse_move(text, start) for text in row["spellings"]}
            assert len(moves) == 1
            assert row["games"] == len(played[answer["fen"]][row["move"]])
