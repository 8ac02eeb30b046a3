"""The Elevation :class:`~notation_tools.games.base.Game`: identity, diagnostic codes, and one
line per entry point delegating to the module that owns it.

It holds no rule and no format of its own. It does not read files or print.

>>> GAME.id, GAME.sides
('elevation', ('White', 'Black'))
>>> GAME.parse_rules("standard; fish-diag2-model=jump").describe()
'standard; fish-diag2-model=jump'
"""

from __future__ import annotations

from typing import Any

from notation_tools.codes import ERROR, Code
from notation_tools.games.base import Game, Resolution, Rules, Side, Style
from notation_tools.games.elevation import notation as _notation
from notation_tools.games.elevation import options as _options
from notation_tools.games.elevation import pieces, render, sampling, stats
from notation_tools.games.elevation import position as _position
from notation_tools.games.elevation.moves import Move
from notation_tools.games.elevation.rules import Position

CODES: tuple[Code, ...] = (
    Code("E-CAPTURE-MARK", ERROR, "an x on a step that captures nothing, or a capturing step "
         "written with -", "§6.1"),
)
"""The diagnostic codes Elevation raises beyond the shared ones."""


class ElevationGame(Game[Position, Move]):
    """Steve Baker's Elevation (2013): digging and climbing on a 6×6 board of tile stacks."""

    id = "elevation"
    name = "Elevation"
    aliases = ()
    sides = pieces.SIDES
    results = ("1-0", "0-1")
    notations = _notation.NOTATIONS
    options = _options.OPTIONS
    options_type = _options.Options
    profiles = _options.PROFILES
    default_profile = "standard"
    rules_doc = "docs/rules/elevation.md"
    codes = CODES
    dialect = _notation.DIALECT
    figures = stats.FIGURES
    sampler = sampling.SAMPLER
    render_options = {}

    def check_rules(self, rules: Rules) -> None:
        _options.check_rules(rules)

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

    def resolve_move(self, text: str, position: Position,
                     notation: str | None = None) -> Resolution[Move]:
        return Resolution(_notation.parse_move(text, position, notation))

    def describe_move(self, move: Move, position: Position) -> dict[str, Any]:
        return stats.describe(move, position)

    def draw_text(self, position: Position, style: Style, marks: frozenset[str]) -> str:
        return render.text_diagram(position, style=style)

    def draw_svg(self, position: Position, last_move: Move | None, marks: frozenset[str]) -> str:
        return render.svg(position, last_move=last_move)

    def new_stats(self, rules: Rules) -> stats.Stats:
        return stats.Stats(rules)

    def check_data(self) -> list[str]:
        return pieces.check_tables()


GAME = ElevationGame()
