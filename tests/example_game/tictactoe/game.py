"""The tic-tac-toe ``Game``: identity, codes, and one line per entry point.

>>> position = GAME.start_position(GAME.parse_rules(None))
>>> position.push(GAME.parse_move("b2", position)); GAME.format_position(position)
'3/1X1/3 o'
"""

from __future__ import annotations

from typing import Any

from notation_tools.codes import ERROR, Code
from notation_tools.games.base import Game, Rules, Side, Style, TagConflictError
from tests.example_game.tictactoe import notation as _notation
from tests.example_game.tictactoe import pieces as _pieces
from tests.example_game.tictactoe import position as _position
from tests.example_game.tictactoe import render as _render
from tests.example_game.tictactoe.moves import Move
from tests.example_game.tictactoe.options import OPTIONS, PROFILES, Options
from tests.example_game.tictactoe.rules import Position
from tests.example_game.tictactoe.stats import FIGURES, Stats

CODES = (Code("E-OCCUPIED", ERROR, "a mark on a square that is taken", "§2"),)


class TicTacToeGame(Game[Position, Move]):
    """Crosses (side 0) move first; ``1-0`` means crosses win."""

    id = "tictactoe"
    name = "Tic-tac-toe"
    aliases = ("noughts-and-crosses",)
    sides = ("Crosses", "Noughts")
    notations = _notation.NOTATIONS
    options = OPTIONS
    options_type = Options
    profiles = PROFILES
    default_profile = "standard"
    rules_doc = "tests/example_game/rules.md"
    codes = CODES
    dialect = _notation.DIALECT
    figures = FIGURES

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> Position:
        start = _position.parse_position(fen or "3/3/3 x", rules)
        if fen is not None and first_player not in (None, start.turn):
            raise TagConflictError("FirstPlayer contradicts the FEN's side to move", rule="§6")
        if fen is None and first_player is not None:
            start.turn = first_player
        return start

    def parse_position(self, text: str, rules: Rules) -> Position:
        return _position.parse_position(text, rules)

    def format_position(self, position: Position) -> str:
        return _position.format_position(position)

    def parse_move(self, text: str, position: Position, notation: str | None = None) -> Move:
        return _notation.parse_move(text, position, notation)

    def format_move(self, move: Move, position: Position, notation: str | None = None) -> str:
        return _notation.format_move(move, position, notation)

    def draw_text(self, position: Position, style: Style, marks: frozenset[str]) -> str:
        return _render.text_diagram(position, style=style, marks=marks)

    def draw_svg(self, position: Position, last_move: Move | None,
                 marks: frozenset[str]) -> str:
        return _render.svg(position, last_move=last_move, marks=marks)

    def new_stats(self, rules: Rules) -> Stats:
        return Stats()

    def check_data(self) -> list[str]:
        return _pieces.check_tables()

    def describe_move(self, move: Move, position: Position) -> dict[str, Any]:
        return {"square": _pieces.SQUARE_NAMES[move.target]}


GAME = TicTacToeGame()
