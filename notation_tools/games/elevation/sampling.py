"""Elevation's random-move policy for ``generate`` (a :class:`~notation_tools.games.base.Sampler`).

Under ``two-pieces-per-turn`` the full list of whole turns from the start holds a million
turns (§8.1), so the sampler draws the two piece-turns one after the other instead. Each
draw counts the legal piece-turns and builds only the one drawn. This module decides no
rule: it asks the position for legal piece-turns.

>>> import random
>>> from notation_tools.games.elevation import GAME
>>> pos = GAME.start_position(GAME.parse_rules("two-pieces-per-turn"))
>>> len(SAMPLER.sample(pos, random.Random(1)).parts)
2
"""

from __future__ import annotations

import random

from notation_tools.games.elevation.moves import Move, PieceTurn, Turn
from notation_tools.games.elevation.rules import Position


class ElevationSampler:
    """Random turns without building every two-piece turn."""

    def sample(self, position: Position, rng: random.Random) -> Move | None:
        """A uniformly chosen legal turn; under ``two-pieces-per-turn`` the first piece-turn
        is chosen uniformly, then the second uniformly among those it leaves (building every
        whole turn would cost a million objects)."""
        if position.outcome() is not None:
            return None
        first = _draw(position, rng)
        if first is None or not position.options.two_pieces_per_turn:
            return first
        after = position.piece_turn_position(Turn((first,)), 1)
        if not after.counts[after.turn ^ 1]:
            return Turn((first,))
        second = _draw(after, rng, first.target)
        return Turn((first, second)) if second is not None else Turn((first,))


def _draw(position: Position, rng: random.Random, exclude: int = -1) -> PieceTurn | None:
    """``rng.choice(position.legal_piece_turns(exclude))`` without building the list: the
    same random draw (``choice`` of a range of the same length picks the same index), so a
    seed gives the same games as when the whole list was built."""
    counts = position.piece_turn_counts(exclude)
    total = sum(count for _square, count in counts)
    if not total:
        return None
    return position.legal_piece_turn_at(rng.choice(range(total)), counts)


SAMPLER = ElevationSampler()
