"""The position and its rules: placing (§2), the end of the game (§3), misère (§4).

Knows no text format: notation.py and position.py read and write it.
"""

from __future__ import annotations

from collections.abc import Iterator

from notation_tools.games import base
from notation_tools.games.base import Outcome, Rules, options_of
from tests.example_game.tictactoe.moves import Move, Place
from tests.example_game.tictactoe.options import Options
from tests.example_game.tictactoe.pieces import EMPTY, LINES, MARKS, SQUARES

PLACES = tuple(Place(square) for square in range(SQUARES))


class Position(base.Position[Move]):
    """A board, the side to move, and the moves played (for ``pop``).

    >>> from tests.example_game.tictactoe.game import GAME
    >>> position = GAME.start_position(GAME.parse_rules(None))
    >>> len(list(position.legal_moves())), position.is_over()
    (9, False)
    """

    __slots__ = ("rules", "options", "board", "turn", "stack")

    def __init__(self, rules: Rules, board: list[int], turn: int) -> None:
        self.rules = rules
        self.options = options_of(Options, rules)
        self.board = board
        self.turn = turn
        self.stack: list[Move] = []

    def generate_legal_moves(self, *, origin: int | None = None,
                             target: int | None = None) -> Iterator[Move]:
        """Every empty square, while the game goes on (§2); a placement has no origin."""
        if self.outcome() is not None or origin is not None:
            return
        squares = range(SQUARES) if target is None else (target,)
        for square in squares:
            if 0 <= square < SQUARES and self.board[square] == EMPTY:
                yield PLACES[square]

    def push(self, move: Move) -> None:
        self.board[move.target] = MARKS[self.turn]
        self.stack.append(move)
        self.turn ^= 1

    def pop(self) -> Move:
        move = self.stack.pop()
        self.board[move.target] = EMPTY
        self.turn ^= 1
        return move

    def copy(self) -> Position:
        other = Position(self.rules, list(self.board), self.turn)
        other.stack = list(self.stack)
        return other

    def outcome(self) -> Outcome | None:
        """Three in a line wins (loses under misère, §4); a full board is a draw (§3)."""
        for line in LINES:
            mark = self.board[line[0]]
            if mark != EMPTY and self.board[line[1]] == mark == self.board[line[2]]:
                side = MARKS.index(mark)
                winner = side ^ 1 if self.options.misere else side
                return Outcome(winner, "three-in-a-row", "three marks in a line")
        if EMPTY not in self.board:
            return Outcome(None, "board-full", "the board is full")
        return None
