"""Shuriken 2D (Mark Steere, 2008; also published as Loophole 2D): the :data:`GAME` object.

The rules and notation reference is ``docs/rules/shuriken-2d.md``. This module ties the
package together behind the ``Game`` contract, each entry point delegating to the module that
owns it: the geometry in ``pieces.py``, the option in ``options.py``, the moves in
``moves.py``, the rules in ``rules.py``, the turn token in ``notation.py``, the position
string in ``position.py``, pictures in ``render.py``, statistics in ``stats.py`` and random
moves in ``sampling.py``.

>>> rules = GAME.parse_rules(None)
>>> pos = GAME.start_position(rules)
>>> move = GAME.parse_move("k10", pos)
>>> GAME.format_move(move, pos), pos.turn
('K10', 0)
>>> pos.push(move); GAME.format_position(pos)[:40]
'19/19/19/12bbb4/11w---w3/11w---w3/11w---'
"""

from __future__ import annotations

from typing import Any

from notation_tools.codes import ERROR, Code
from notation_tools.games.base import Game, Resolution, Rules, Side, Style, options_of
from notation_tools.games.shuriken.moves import Move
from notation_tools.games.shuriken.notation import DIALECT, NOTATIONS, format_move, parse_move
from notation_tools.games.shuriken.options import OPTIONS, PROFILES, Options
from notation_tools.games.shuriken.pieces import SIDE_NAMES, check_tables
from notation_tools.games.shuriken.position import (
    check_start_string, format_position, parse_position, start_position)
from notation_tools.games.shuriken.render import LOOPS, svg, text_diagram
from notation_tools.games.shuriken.rules import Position
from notation_tools.games.shuriken.sampling import SAMPLER
from notation_tools.games.shuriken.stats import FIGURES, Stats, describe_move

_RESOLUTIONS: dict[Move, Resolution[Move]] = {}
"""One shared resolution per move (at most one per grid point, and ``swap``)."""
_RESOLVED_TEXTS: dict[str, Resolution[Move]] = {}
"""The shared resolution of each token text already read (its move is still checked in each
position); bounded like the notation's own cache, so that garbage cannot grow it."""
_RESOLVED_TEXTS_LIMIT = 20_000

CODES = (
    Code("E-BAD-SQUARE", ERROR, "a cell name whose column or row is off the board", "§1.1"),
)
"""The diagnostic codes of Shuriken 2D beyond the shared ones (§8)."""


class ShurikenGame(Game[Position, Move]):
    """Shuriken 2D behind the ``Game`` contract. Side 0 is Black, who places first (§2.1)."""

    id = "shuriken-2d"
    name = "Shuriken 2D"
    aliases = ("shuriken", "loophole")
    sides = SIDE_NAMES
    results = ("1-0", "0-1")   # "1-0" is a win of Black, the first player (rules doc, head)
    notations = NOTATIONS
    options = OPTIONS
    options_type = Options
    profiles = PROFILES
    default_profile = "standard"
    rules_doc = "docs/rules/shuriken-2d.md"
    codes = CODES
    dialect = DIALECT
    figures = FIGURES
    sampler = SAMPLER
    draws_possible = False  # §4.2: the board always fills to exactly one win
    render_options = {
        LOOPS: "mark the stones of groups that carry a loop (X/O) and list each player's loops",
    }

    # ---- positions -----------------------------------------------------------------------

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> Position:
        """The standard start (§1.5) or the set-up ``fen``; Black places first (§2.1)."""
        return start_position(options_of(Options, rules), fen=fen, first_player=first_player)

    def parse_position(self, text: str, rules: Rules) -> Position:
        """The §5 position string; raises ``BadPositionError`` (``E-BAD-POSITION``)."""
        return parse_position(text, options=options_of(Options, rules))

    def format_position(self, position: Position) -> str:
        """The canonical §5 string (maximal runs): ``format(parse(s)) == s``."""
        return format_position(position)

    # ---- moves ---------------------------------------------------------------------------

    def parse_move(self, text: str, position: Position, notation: str | None = None) -> Move:
        """The legal move ``text`` names (§7), checked by the engine."""
        return parse_move(text, position, notation)

    def format_move(self, move: Move, position: Position, notation: str | None = None) -> str:
        """The canonical §7 token: upper-case cell without leading zeros, or ``swap``."""
        return format_move(move)

    def resolve_move(self, text: str, position: Position,
                     notation: str | None = None) -> Resolution[Move]:
        """:meth:`parse_move` as a ``Resolution``: a cell name has one reading and no
        warning, so each move's resolution is made once and shared (replay asks per ply)."""
        if notation is None:
            try:
                resolution = _RESOLVED_TEXTS[text]
            except (KeyError, TypeError):
                pass
            else:
                position.check(resolution.move)
                return resolution
        move = parse_move(text, position, notation)
        resolution = _RESOLUTIONS.get(move)
        if resolution is None:
            resolution = _RESOLUTIONS[move] = Resolution(move)
        if notation is None and len(_RESOLVED_TEXTS) < _RESOLVED_TEXTS_LIMIT:
            _RESOLVED_TEXTS[text] = resolution
        return resolution

    def describe_move(self, move: Move, position: Position) -> dict[str, Any]:
        """The mover's rank after ``move`` and the loops it forms (§9 per-move figures)."""
        return describe_move(move, position)

    # ---- output --------------------------------------------------------------------------

    def draw_text(self, position: Position, style: Style, marks: frozenset[str]) -> str:
        """The §10.1 diagram; ``loops`` marks the loop groups and lists the loops."""
        return text_diagram(position, style=style, marks=marks)

    def draw_svg(self, position: Position, last_move: Move | None,
                 marks: frozenset[str]) -> str:
        """The §10.2 picture; ``loops`` rings the stones of loop-carrying groups."""
        return svg(position, last_move=last_move, marks=marks)

    def new_stats(self, rules: Rules) -> Stats:
        """A fresh §9 statistics collector."""
        return Stats()

    def check_data(self) -> list[str]:
        """Geometry table problems (``pieces.check_tables``) and a start-string round trip."""
        return check_tables() + check_start_string()


GAME = ShurikenGame()
"""The one Shuriken 2D game object, registered as ``shuriken``."""
