"""Elevation's position keys (rules reference, "Position keys").

The same position is what §5's repetition rule compares: every square's height, every
piece, and the side to move.
"""

from __future__ import annotations

from collections import Counter

from collections.abc import Iterator, Sequence

from notation_tools.games.base import StateKeys
from notation_tools.games.elevation.pieces import PIECE_CHARS, side_of
from notation_tools.games.elevation.pieces import SQUARE_NAMES as SQUARE_NAMES
from notation_tools.games.elevation.rules import Position

SEED = 0x454C4556  # "ELEV"


def key_state(position: Position) -> tuple[Sequence[int], ...]:
    """The rows the key is made of: heights, pieces, side to move."""
    return (position.heights, position.board, [position.turn])


KEYS: StateKeys[Position] = StateKeys(SEED, key_state, material_row=1)
"""The material counts the pieces of the board (row 1) by code."""


def occupants(position: Position) -> Iterator[tuple[str, int, str]]:
    """(square, side, piece letter in upper case) of every piece, for pattern search."""
    for square, code in enumerate(position.board):
        if code:
            yield SQUARE_NAMES[square], side_of(code), PIECE_CHARS[code].upper()


def material(position: Position) -> Counter[tuple[int, str]]:
    """(side, piece) → how many, for pattern search's material conditions."""
    return Counter((side, piece) for _, side, piece in occupants(position))
