"""Game of War's position keys (rules reference, "Position keys").

The same position, between turns, is the same units on the same squares, the same arsenals
standing, the same side to act and the same pending forced retreat. Lines of communication
are worked out from these, so they are not part of it; the turn number is a counter and is
left out.
"""

from __future__ import annotations


from collections.abc import Iterator, Sequence

from notation_tools.games.base import StateKeys
from notation_tools.games.gow.pieces import CODE_LETTER, NAMES, SIDE_OF
from notation_tools.games.gow.rules import Position

SEED = 0x474F57  # "GOW"


def key_state(position: Position) -> tuple[Sequence[int], ...]:
    """The rows the key is made of: the board's unit codes, the arsenals standing, and the
    side to act with the square of the pending retreat (-1: none). The arsenals are a row of
    bytes (0 or 1, the same values as a list of them: the same key), which the tracker
    compares in one step."""
    retreat = -1 if position.retreat is None else position.retreat
    return (position.board, bytes(position.alive), [position.turn, retreat])


KEYS: StateKeys[Position] = StateKeys(SEED, key_state, material_row=0)
"""The material counts the units of the board (row 0) by code."""


SQUARE_NAMES = NAMES
"""Every square's name, for pattern search."""


def occupants(position: Position) -> Iterator[tuple[str, int, str]]:
    """(square, side, unit letter as North writes it) of every unit, for pattern search."""
    for square, code in enumerate(position.board):
        if code:
            yield NAMES[square], SIDE_OF[code], CODE_LETTER[code].upper()


_MATERIAL_OF_CODE = tuple((code, (SIDE_OF[code], CODE_LETTER[code].upper()))
                          for code in sorted(CODE_LETTER) if code)


def material(position: Position) -> dict[tuple[int, str], int]:
    """(side, piece) → how many, for pattern search's material conditions (the index keeps
    it per ply: one count over the board per unit code, not one step per square)."""
    board = position.board
    return {piece: found for code, piece in _MATERIAL_OF_CODE if (found := board.count(code))}
