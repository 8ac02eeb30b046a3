"""Shuriken 2D (Mark Steere, 2008; also published as Loophole 2D): the :data:`GAME` object.

The rules and notation reference is ``docs/rules/shuriken-2d.md``. This module builds the
game object from the package's modules: the geometry in ``pieces.py``, the option in
``options.py``, the moves in ``moves.py``, the rules in ``rules.py``, the turn token in
``notation.py``, the position string in ``position.py``, pictures in ``render.py``, statistics
in ``stats.py`` and random moves in ``sampling.py``.

>>> rules = GAME.parse_rules(None)
>>> pos = GAME.start_position(rules)
>>> move = GAME.parse_move("k10", pos)
>>> GAME.format_move(move, pos), pos.turn
('K10', 0)
>>> pos.push(move); GAME.format_position(pos)[:40]
'19/19/19/12bbb4/11w---w3/11w---w3/11w---'
"""

from __future__ import annotations

from notation_tools.codes import ERROR, Code
from notation_tools.games.base import Game, Rules, Side, options_of
from notation_tools.games.shuriken.keys import KEYS, SQUARE_NAMES, material, occupants
from notation_tools.games.shuriken import notation, pieces, position, render, stats
from notation_tools.games.shuriken.moves import Move
from notation_tools.games.shuriken.options import OPTIONS, PROFILES, Options
from notation_tools.games.shuriken.rules import Position
from notation_tools.games.shuriken.sampling import SAMPLER

CODES: tuple[Code, ...] = (
    Code("E-BAD-SQUARE", ERROR, "a cell name whose column or row is off the board", "§1.1"),
)
"""The diagnostic codes of Shuriken 2D beyond the shared ones (§8)."""


class _PositionStrings:
    """``position.py`` reads typed options, not rules: the position protocol over it."""

    @staticmethod
    def start_position(rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> Position:
        """The standard start (§1.5) or the set-up ``fen``; Black places first (§2.1)."""
        return position.start_position(options_of(Options, rules), fen=fen,
                                       first_player=first_player)

    @staticmethod
    def parse_position(text: str, rules: Rules) -> Position:
        """The §5 position string; raises ``BadPositionError`` (``E-BAD-POSITION``)."""
        return position.parse_position(text, options=options_of(Options, rules))

    format_position = staticmethod(position.format_position)


GAME: Game[Position, Move] = Game(
    keys=KEYS, occupants=occupants, material=material, square_names=SQUARE_NAMES,
    id="shuriken-2d", name="Shuriken 2D", sides=pieces.SIDE_NAMES, default_profile="standard",
    position_type=Position, notation=notation, positions=_PositionStrings(), render=render,
    stats=stats, aliases=("shuriken", "loophole"), options=OPTIONS, options_type=Options,
    profiles=PROFILES, rules_doc="docs/rules/shuriken-2d.md", codes=CODES, sampler=SAMPLER,
    draws_possible=False,  # §4.2: the board always fills to exactly one win
    data_checks=(pieces.check_tables, position.check_start_string),
    render_options={
        render.LOOPS: "mark the stones of groups that carry a loop (X/O) and list each "
                      "player's loops",
    },
)
"""The one Shuriken 2D game object, registered as ``shuriken``. Side 0 is Black, who places
first (§2.1); ``1-0`` is a win of Black (rules doc, head)."""
