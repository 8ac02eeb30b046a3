"""The move notation (rules §5): the square's name, ``b2``. A move is read by matching the
square against the legal moves, never by a second copy of the rules."""

from __future__ import annotations

from collections.abc import Sequence

from notation_tools.games.base import Dialect, IllegalMoveError, MoveSyntaxError, Resolution
from tests.example_game.tictactoe.moves import Move
from tests.example_game.tictactoe.pieces import SQUARE_NAMES, SQUARE_OF
from tests.example_game.tictactoe.rules import Position

NOTATIONS = ("square",)


def resolve_move(text: str, position: Position,
                 notation: str | None = None) -> Resolution[Move]:
    """The legal move ``text`` names (§5), as a :class:`Resolution` (one reading, no warning).

    Raises ``E-SYNTAX`` for a text that names no square and ``E-OCCUPIED`` for a square
    that is taken; does not change ``position``.
    """
    if notation not in (None, *NOTATIONS):
        raise MoveSyntaxError(f"no notation {notation!r}", rule="§5")
    square = SQUARE_OF.get(text.strip().lower())
    if square is None:
        raise MoveSyntaxError(f"{text!r} is not a square (a1 to c3)", rule="§5")
    for move in position.generate_legal_moves(target=square):
        return Resolution(move)
    if position.is_over():
        raise IllegalMoveError("the game is over", rule="§3")
    raise IllegalMoveError(f"{SQUARE_NAMES[square]} is taken", code="E-OCCUPIED", rule="§2")


def format_move(move: Move, position: Position, notation: str | None = None) -> str:
    """The square's name."""
    return SQUARE_NAMES[move.target]


class TicTacToeDialect(Dialect):
    """Untagged movetext of square names is tic-tac-toe."""

    def sniff(self, move_texts: Sequence[str]) -> bool:
        return bool(move_texts) and all(text.lower() in SQUARE_OF for text in move_texts)


DIALECT = TicTacToeDialect()
