"""Archives for the position index's tests: random games that share openings, some by
another move order (transpositions), with dates and results, and a brute-force count of what
their main lines play from each position (by replay, no index)."""

from __future__ import annotations

import io
import random
import shutil
import sqlite3
from collections import defaultdict
from pathlib import Path

from notation_tools.analysis.generate import random_playout
from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.games.base import get_game
from notation_tools.records.pgn import read_records

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def copy_without(database: Path, name: str, *statements: str) -> Path:
    """A copy of ``database`` named ``name`` (beside it) with ``statements`` run on it: a
    database as an older version wrote it, without a table or an index added since."""
    copy = database.with_name(name)
    shutil.copy(database, copy)
    connection = sqlite3.connect(copy)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()
    return copy


def _line(game, position, rng, plies):
    return [game.format_move(move, position)
            for move in random_playout(game, position, rng, plies)]


def _transposed(game, openings, rng):
    """Two three-move openings a-w-b and b-w-a that reach the same position."""
    for _ in range(200):
        start = game.start_position(game.parse_rules(None))
        first = _line(game, start.copy(), rng, 3)
        if len(first) < 3:
            continue
        second = [first[2], first[1], first[0]]
        position = start.copy()
        try:
            for text in second:
                position.push(game.resolve_move(text, position).move)
        except Exception:  # noqa: BLE001 - not legal in that order: try other moves
            continue
        end = start.copy()
        for text in first:
            end.push(game.resolve_move(text, end).move)
        if game.format_position(end) == game.format_position(position):
            return first, second
    raise AssertionError("no transposition found")


def archive_text(game_id: str, *, count: int, seed: int) -> str:
    """``count`` records of ``game_id``: a few shared openings (one pair transposed), random
    tails, dates and results drawn at random."""
    game = get_game(game_id)
    rng = random.Random(seed)
    openings = list(_transposed(game, [], rng))
    start = game.start_position(game.parse_rules(None))
    openings += [_line(game, start.copy(), rng, rng.randrange(1, 4)) for _ in range(3)]
    texts = []
    for index in range(1, count + 1):
        opening = rng.choice(openings)
        position = start.copy()
        for text in opening:
            position.push(game.resolve_move(text, position).move)
        moves = opening + _line(game, position, rng, rng.randrange(0, 5))
        result = rng.choice(RESULTS)
        date = f"20{rng.randrange(10, 25)}.0{rng.randrange(1, 10)}.1{rng.randrange(0, 10)}"
        texts.append(f'[Event "index test"]\n[Variant "{game.id}"]\n[Round "{index}"]\n'
                     f'[Date "{date}"]\n[Result "{result}"]\n\n{_numbered(moves)} {result}\n')
    return "\n".join(texts)


def _numbered(moves):
    return " ".join(f"{i // 2 + 1}. {move}" if i % 2 == 0 else move
                    for i, move in enumerate(moves))


class _Plies(ReplayVisitor):
    def __init__(self):
        self.seen = []

    def visit_move(self, node, move, before, ply, in_variation):
        if not in_variation:
            self.seen.append((before.game.format_position(before),
                              before.game.format_move(move, before)))


def brute_force(text: str, path: str):
    """By replay: position string → {move → [(record index, result, plies, date)]} and
    position string → the records whose main line reaches it."""
    played = defaultdict(lambda: defaultdict(list))
    reaching = defaultdict(set)
    for record in read_records(io.StringIO(text), path):
        visitor = _Plies()
        result = replay(record, visitor=visitor)
        game = result.game
        final = game.format_position(result.position)
        facts = (record.index, record.tag("Result"), result.plies, record.tag("Date"))
        for fen, move in visitor.seen:
            if record.index not in {r[0] for r in played[fen][move]}:
                played[fen][move].append(facts)
            reaching[fen].add(record.index)
        reaching[final].add(record.index)
    return played, reaching


def query(database, sql, parameters=()):
    """The rows of ``sql`` (with ``parameters``) over the SQLite file ``database`` (its own
    connection, closed)."""
    connection = sqlite3.connect(database)
    try:
        return connection.execute(sql, parameters).fetchall()
    finally:
        connection.close()
