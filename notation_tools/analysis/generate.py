"""Random legal games as records, and the random-move policy they are drawn with.

Each ply is a uniform choice among the position's legal moves, unless the game declares its
own ``sampler`` (a game whose full move list is too large to build, or whose uniform choice
plays no useful games). Used by ``generate``, the tests and the benchmarks. Deterministic for
a given seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from notation_tools.version import __version__
from notation_tools.games.base import Game, Position, Rules
from notation_tools.records.model import Move, Record, Tag, Tags


def random_move(game: Game[Any, Any], position: Position[Any], rng: random.Random) -> Any:
    """A random legal move of ``position``, or ``None`` when there is none: the game's own
    ``sampler`` where it declares one, else a uniform choice among ``legal_moves()``.

    >>> from notation_tools.games.base import get_game
    >>> game = get_game("elevation")
    >>> move = random_move(game, game.start_position(game.parse_rules(None)), random.Random(1))
    >>> move is not None
    True
    """
    if game.sampler is not None:
        return game.sampler.sample(position, rng)
    moves = list(position.generate_legal_moves())
    return rng.choice(moves) if moves else None


def random_playout(game: Game[Any, Any], position: Position[Any], rng: random.Random,
                   max_plies: int) -> Iterator[Any]:
    """Play up to ``max_plies`` random legal moves (:func:`random_move`) on ``position``, in
    place, until the game is over or a side has no move: each move is yielded just before it
    is played, so the caller sees the position it is played in, and played when the caller
    asks for the next.

    >>> from notation_tools.games.base import get_game
    >>> game = get_game("elevation")
    >>> position = game.start_position(game.parse_rules(None))
    >>> played = list(random_playout(game, position, random.Random(1), 4))
    >>> replayed = game.start_position(game.parse_rules(None))
    >>> for move in played:
    ...     replayed.push(move)
    >>> len(played), game.format_position(position) == game.format_position(replayed)
    (4, True)
    """
    for _ in range(max_plies):
        if position.outcome() is not None:
            return
        move = random_move(game, position, rng)
        if move is None:
            return
        yield move
        position.push(move)


def generate_records(game: Game[Any, Any], rules: Rules, *, count: int, seed: int, max_plies: int,
                     notation: str | None = None) -> Iterator[Record]:
    """``count`` random legal games of ``game`` under ``rules``.

    >>> from notation_tools.games.base import get_game
    >>> game = get_game("elevation")
    >>> [r.tag("Result") for r in generate_records(game, game.parse_rules(None), count=2, seed=1, max_plies=4)]
    ['*', '*']
    """
    rng = random.Random(seed)
    for index in range(1, count + 1):
        position = game.start_position(rules)
        moves: list[Move] = []
        number = 1
        for move in random_playout(game, position, rng, max_plies):
            side = position.turn
            label = f"{number}." if side == 0 else (f"{number}..." if not moves else None)
            moves.append(Move(game.format_move(move, position, notation), number=label))
            if side == 1:
                number += 1
        outcome = position.outcome()
        result = game.result_text(outcome) if outcome is not None else "*"
        tags = [Tag("Event", "notation-tools generate"), Tag("Site", "-"),
                Tag("Round", str(index)), Tag("Variant", game.id),
                Tag("Rules", rules.describe()),
                *[Tag(side, "random") for side in game.sides],
                Tag("Result", result),
                Tag("Generator", f"notation-tools {__version__}; seed {seed}; game {index}")]
        yield Record(tags=Tags(tags), moves=moves, result=result)
