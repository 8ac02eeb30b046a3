"""Elevation's position keys (rules reference, "Position keys").

The same position is what §5's repetition rule compares: every square's height, every
piece, and the side to move.
"""

from __future__ import annotations

from collections.abc import Sequence

from notation_tools.games.base import StateKeys
from notation_tools.games.elevation.rules import Position

SEED = 0x454C4556  # "ELEV"


def key_state(position: Position) -> tuple[Sequence[int], ...]:
    """The rows the key is made of: heights, pieces, side to move."""
    return (position.heights, position.board, [position.turn])


KEYS: StateKeys[Position] = StateKeys(SEED, key_state)
