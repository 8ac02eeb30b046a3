"""Shuriken 2D's position keys (rules reference, "Position keys").

The same position is the same stones on the same cells with the same side to place: groups,
loops and the winner are worked out from the stones, so they are not part of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from notation_tools.games.base import StateKeys
from notation_tools.games.shuriken.rules import Position

SEED = 0x5348524B  # "SHRK"


def key_state(position: Position) -> tuple[Sequence[int], ...]:
    """The rows the key is made of: the cells' stones and the side to place."""
    return (position.board, [position.turn])


KEYS: StateKeys[Position] = StateKeys(SEED, key_state)
