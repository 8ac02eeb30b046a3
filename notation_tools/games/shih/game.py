"""The Shih :class:`~notation_tools.games.base.Game`: identity, diagnostic codes, and the entry
points, each handed to the module that owns it.

This module wires the package together (geometry, rules, notation, position string, render,
statistics) behind the Game contract; it adds no rule of its own. The rules reference is
``docs/rules/shih.md``.

>>> from notation_tools.games.shih import GAME
>>> GAME.id, GAME.sides
('shih', ('Blue', 'Red'))
>>> rules = GAME.parse_rules("standard; allow-early-end=no")
>>> rules.describe()
'standard; allow-early-end=no'
>>> pos = GAME.start_position(rules)
>>> GAME.format_move(GAME.parse_move("b2-b1,b4-b3", pos), pos)
'b2-b1,b4-b3'
"""

from __future__ import annotations

from typing import Any

from notation_tools.codes import ERROR, Code
from notation_tools.games.base import Game, Rules, Side, Style
from notation_tools.games.shih import notation as _notation
from notation_tools.games.shih import pieces as _pieces
from notation_tools.games.shih import position as _position
from notation_tools.games.shih import render as _render
from notation_tools.games.shih import stats as _stats
from notation_tools.games.shih.moves import Move
from notation_tools.games.shih.options import OPTIONS, PROFILES, Options
from notation_tools.games.shih.pieces import SIDE_NAMES
from notation_tools.games.shih.rules import Position

CODES: tuple[Code, ...] = (
    Code("E-BAD-SQUARE", ERROR, "a square name that is not on the board: its column is "
         "beyond the row's width (d16)", "§1.2"),
)
"""The diagnostic codes Shih raises beyond the shared ones (§13)."""


class ShihGame(Game[Position, Move]):
    """Shih: Blue is side 0 and moves first by default; ``1-0`` = Blue."""

    id = "shih"
    name = "Shih"
    sides = SIDE_NAMES
    results = ("1-0", "0-1")
    notations = _notation.NOTATIONS
    options = OPTIONS
    options_type = Options
    profiles = PROFILES
    default_profile = "standard"
    rules_doc = "docs/rules/shih.md"
    codes = CODES
    dialect = _notation.DIALECT
    figures = _stats.FIGURES
    render_options = {
        "regions": "mark the enclosed regions (no empty space inside) with letters and list "
                   "them under the diagram",
        "coordinates": "label every space with its name (a larger drawing)",
        "maze": "draw the triangular lattice itself: walled edges drawn, open edges blank",
    }

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> Position:
        return _position.start_position(rules, fen=fen, first_player=first_player)

    def parse_position(self, text: str, rules: Rules) -> Position:
        return _position.parse_position(text, rules)

    def format_position(self, position: Position) -> str:
        return _position.format_position(position)

    def parse_move(self, text: str, position: Position, notation: str | None = None) -> Move:
        return _notation.parse_move(text, position, notation)

    def format_move(self, move: Move, position: Position, notation: str | None = None) -> str:
        return _notation.format_move(move, position, notation)

    def move_to_json(self, move: Move, position: Position) -> dict[str, Any]:
        return _notation.move_to_json(move, position)

    def move_from_json(self, data: Any, position: Position) -> Move:
        return _notation.move_from_json(data, position)

    def describe_move(self, move: Move, position: Position) -> dict[str, Any]:
        return _stats.describe_move(move, position)

    def draw_text(self, position: Position, style: Style, marks: frozenset[str]) -> str:
        return _render.text_diagram(position, style=style, marks=marks)

    def draw_svg(self, position: Position, last_move: Move | None,
                 marks: frozenset[str]) -> str:
        return _render.svg(position, last_move=last_move, marks=marks)

    def new_stats(self, rules: Rules) -> _stats.Stats:
        return _stats.Stats(rules)

    def check_data(self) -> list[str]:
        return _pieces.check_tables()


GAME = ShihGame()
"""The Shih game (registry entry)."""
