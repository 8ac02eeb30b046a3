"""Shih's position keys (rules reference, "Position keys").

The same position is what §3.1 calls the position and the threefold-repetition rule
compares: the walls, the pieces, the power spins each side has left, the score and the
side to move. The count of quiet turns is a counter and is left out.
"""

from __future__ import annotations

from collections import Counter

from collections.abc import Iterator, Sequence

from notation_tools.games.base import StateKeys
from notation_tools.games.shih.pieces import EMPTY, NAMES
from notation_tools.games.shih.rules import Position

SEED = 0x53484948  # "SHIH"


def key_state(position: Position) -> tuple[Sequence[int], ...]:
    """The rows the key is made of: walls, board, spins left, score, side to move."""
    return (position.walls, position.board, position.spins, position.score, [position.turn])


KEYS: StateKeys[Position] = StateKeys(SEED, key_state, material_row=1)
"""The material counts the pieces of the board (row 1) by side."""


SQUARE_NAMES = NAMES
"""Every square's name, for pattern search."""


def occupants(position: Position) -> Iterator[tuple[str, int, str]]:
    """(space, side, ``P``: one kind of piece) of every piece, for pattern search."""
    for space, side in enumerate(position.board):
        if side != EMPTY:
            yield NAMES[space], side, "P"


def material(position: Position) -> Counter[tuple[int, str]]:
    """(side, piece) → how many, for pattern search's material conditions."""
    return Counter((side, piece) for _, side, piece in occupants(position))
