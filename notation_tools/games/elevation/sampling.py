"""Elevation's random-move policy for ``generate`` (a :class:`~notation_tools.games.base.Sampler`).

Under ``two-pieces-per-turn`` the full list of whole turns from the start holds a million
turns (§8.1), so the sampler draws the two piece-turns one after the other instead. This
module decides no rule: it asks the position for legal piece-turns.

>>> import random
>>> from notation_tools.games.elevation import GAME
>>> pos = GAME.start_position(GAME.parse_rules("two-pieces-per-turn"))
>>> len(SAMPLER.sample(pos, random.Random(1)).parts)
2
"""

from __future__ import annotations

import random

from notation_tools.games.elevation.moves import Move, Turn
from notation_tools.games.elevation.rules import Position


class ElevationSampler:
    """Random turns without building every two-piece turn."""

    def sample(self, position: Position, rng: random.Random) -> Move | None:
        """A uniformly chosen legal turn; under ``two-pieces-per-turn`` the first piece-turn
        is chosen uniformly, then the second uniformly among those it leaves (building every
        whole turn would cost a million objects)."""
        if position.outcome() is not None:
            return None
        firsts = position.legal_piece_turns()
        if not position.options.two_pieces_per_turn:
            return rng.choice(firsts) if firsts else None
        if not firsts:
            return None
        first = rng.choice(firsts)
        after = position.piece_turn_position(Turn((first,)), 1)
        if not after.counts[after.turn ^ 1]:
            return Turn((first,))
        seconds = after.legal_piece_turns(first.target)
        return Turn((first, rng.choice(seconds))) if seconds else Turn((first,))


SAMPLER = ElevationSampler()
