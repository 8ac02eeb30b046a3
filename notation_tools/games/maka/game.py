"""Maka-Dai-Dai Shogi, the Game object: identity, diagnostic codes, and the engine entry points,
each delegated to the module that owns it (rules, notation, position string, rendering,
statistics). This module holds no rule itself; the rules reference is
``docs/rules/maka-dai-dai-shogi.md``.

>>> pos = GAME.start_position(GAME.parse_rules("modern"))
>>> GAME.format_move(GAME.parse_move("P-10m", pos), pos, "coord")
'10n10m'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from notation_tools.codes import ERROR, WARNING, Code
from notation_tools.games.base import Game, Resolution, Rules, Side, Style
from notation_tools.games.maka import formats as _formats
from notation_tools.games.maka import notation as _notation
from notation_tools.games.maka import pieces as _pieces
from notation_tools.games.maka import position as _position
from notation_tools.games.maka import render as _render
from notation_tools.games.maka import stats as _stats
from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.options import (OPTIONS, PROFILES, Options,
                                               check_alternative_moves)
from notation_tools.games.maka.rules import Position

CODES = (
    Code("E-BAD-SQUARE", ERROR, "a square outside files 1-19 and ranks a-s, or with a leading "
         "zero", "§9.1"),
    Code("E-UNKNOWN-PIECE", ERROR, "a designation that names no piece, or + before a piece that "
         "never promotes", "§3.4"),
    Code("E-NO-PIECE", ERROR, "the side to move has no such piece (on the origin written)",
         "§9.2"),
    Code("E-CAPTURE-MARK", ERROR, "x onto a square without an enemy, or - onto an enemy", "§9.1"),
    Code("E-MULTI-LEG", ERROR, "several legs, ! or x! for a piece without Lion power, or more "
         "legs than the piece has", "§9.1"),
    Code("E-PROMOTION", ERROR, "a promotion mark the rules forbid: = on a compulsory promotion "
         "or contagion, + or = where no promotion is possible", "§6.8"),
    Code("W-PROMOTION-MARK", WARNING, "a promotion mark missing or superfluous where it is "
         "tolerated", "§9.2"),
    Code("W-SELF-CHECK", WARNING, "a move leaves the mover's only royal piece capturable "
         "(self-check=warn)", "§6.11"),
    Code("W-AMBIGUOUS-GOLD", WARNING, "G without an origin fits an original and a gold-promoted "
         "Gold, and the rest of the record never tells them apart", "§9.2"),
    Code("E-SVAR", ERROR, "a ShogiVar save file (.svar) whose layout cannot be read", "§9.9"),
    Code("E-SVAR-BOARD", ERROR, "the moves of a ShogiVar save, replayed, do not end on the "
         "board it saved", "§9.9"),
    Code("W-SVAR-TAKEN-BACK", WARNING, "a ShogiVar save whose board differs from the replayed "
         "one only where Take Back of ShogiVar's extra ply after a mate changed it", "§9.9"),
    Code("W-AMBIGUOUS-OUTPUT", WARNING, "convert wrote a TSA token that reads back as more than "
         "one move", "§9.4"),
)
"""The diagnostic codes of Maka-Dai-Dai Shogi beyond the shared ones (§11)."""


class MakaGame(Game[Position, Move]):
    """Maka-Dai-Dai Shogi: Black (side 0) moves first; ``1-0`` means Black wins."""

    id = "maka-dai-dai-shogi"
    name = "Maka-Dai-Dai Shogi"
    aliases = ("maka", "mdd")
    sides = ("Black", "White")
    results = ("1-0", "0-1")
    notations = _notation.NOTATIONS
    options = OPTIONS
    options_type = Options
    profiles = PROFILES
    default_profile = "tsa"
    rules_doc = "docs/rules/maka-dai-dai-shogi.md"
    codes = CODES
    dialect = _notation.DIALECT
    figures = _stats.FIGURES
    file_formats = _formats.FILE_FORMATS

    # ---- positions ------------------------------------------------------------------------

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> Position:
        return _position.start_position(rules, fen, first_player)

    def parse_position(self, text: str, rules: Rules) -> Position:
        return _position.parse_position(text, rules)

    def format_position(self, position: Position) -> str:
        return _position.format_position(position)

    # ---- moves ----------------------------------------------------------------------------

    def parse_move(self, text: str, position: Position, notation: str | None = None) -> Move:
        return _notation.parse_move(text, position, notation)

    def resolve_move(self, text: str, position: Position,
                     notation: str | None = None) -> Resolution[Move]:
        return _notation.resolve(text, position, notation)

    def format_move(self, move: Move, position: Position, notation: str | None = None) -> str:
        return _notation.format_move(move, position, notation)

    def format_warnings(self, move: Move, position: Position,
                        notation: str | None = None) -> Sequence[tuple[str, str]]:
        return _notation.format_warnings(move, position, notation)

    def move_to_json(self, move: Move, position: Position) -> Any:
        return _notation.move_to_json(move, position)

    def move_from_json(self, data: Any, position: Position) -> Move:
        return _notation.move_from_json(data, position)

    def describe_move(self, move: Move, position: Position) -> dict[str, Any]:
        return _stats.describe_move(move, position)

    # ---- output ---------------------------------------------------------------------------

    def draw_text(self, position: Position, style: Style, marks: frozenset[str]) -> str:
        return _render.text_diagram(position, style=style, marks=marks)

    def draw_svg(self, position: Position, last_move: Move | None,
                 marks: frozenset[str]) -> str:
        return _render.svg(position, last_move=last_move, marks=marks)

    def new_stats(self, rules: Rules) -> _stats.Stats:
        return _stats.Stats(rules)

    def check_data(self) -> list[str]:
        return _pieces.check_tables() + check_alternative_moves()


GAME = MakaGame()
