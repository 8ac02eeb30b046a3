"""Shuriken 2D's position keys (rules reference, "Position keys").

The same position is the same stones on the same cells with the same side to place: groups,
loops and the winner are worked out from the stones, so they are not part of it.
"""

from __future__ import annotations

from collections import Counter

from collections.abc import Iterator, Sequence

from notation_tools.games.base import StateKeys
from notation_tools.games.shuriken.pieces import BLACK, CELL_NAME, WHITE
from notation_tools.games.shuriken.rules import Position

SEED = 0x5348524B  # "SHRK"


def key_state(position: Position) -> tuple[Sequence[int], ...]:
    """The rows the key is made of: the cells' stones and the side to place."""
    return (position.board, [position.turn])


KEYS: StateKeys[Position] = StateKeys(SEED, key_state, material_row=0)
"""The material counts the stones on the board (row 0): cells off the board never change."""


SQUARE_NAMES = tuple(CELL_NAME.values())
"""Every square's name, for pattern search."""


def occupants(position: Position) -> Iterator[tuple[str, int, str]]:
    """(cell, side, ``S``: a stone) of every stone, for pattern search (frame stones
    included: they are on the board)."""
    board = position.board
    for cell, name in CELL_NAME.items():
        if board[cell] in (BLACK, WHITE):
            yield name, board[cell] - 1, "S"


def material(position: Position) -> Counter[tuple[int, str]]:
    """(side, piece) → how many, for pattern search's material conditions."""
    return Counter((side, piece) for _, side, piece in occupants(position))
