"""The random-move policy of Shuriken 2D for ``generate``: a uniform choice among the legal
moves (§2.2, §6) without building the move list.

>>> import random
>>> from notation_tools.games.shuriken.rules import Position
>>> SAMPLER.sample(Position.start(), random.Random(1)) is not None
True
"""

from __future__ import annotations

import random

from notation_tools.games.shuriken.moves import PLACES, SWAP, Move
from notation_tools.games.shuriken.rules import Position


class ShurikenSampler:
    """Random placements without building the move list (``base.Sampler``)."""

    def sample(self, position: Position, rng: random.Random) -> Move | None:
        """A uniformly chosen legal move (``swap`` included when legal), ``None`` at the end."""
        cells = position.empty_cells()
        if not cells:
            return None
        if position.can_swap() and rng.randrange(len(cells) + 1) == len(cells):
            return SWAP
        return PLACES[rng.choice(cells)]


SAMPLER = ShurikenSampler()
