"""The Shih :class:`~notation_tools.games.base.Game`: identity, diagnostic codes, and the
game object built from the package's modules.

It adds no rule of its own. The rules reference is ``docs/rules/shih.md``.

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

from notation_tools.codes import ERROR, Code
from notation_tools.games.base import Game
from notation_tools.games.shih.keys import KEYS, SQUARE_NAMES, material, occupants
from notation_tools.games.shih import notation, pieces, position, render, stats
from notation_tools.games.shih.moves import Move
from notation_tools.games.shih.options import OPTIONS, PROFILES, Options
from notation_tools.games.shih.rules import Position

CODES: tuple[Code, ...] = (
    Code("E-BAD-SQUARE", ERROR, "a square name that is not on the board: its column is "
         "beyond the row's width (d16)", "§1.2"),
)
"""The diagnostic codes Shih raises beyond the shared ones (§13)."""

GAME: Game[Position, Move] = Game(
    keys=KEYS, occupants=occupants, material=material, square_names=SQUARE_NAMES,
    id="shih", name="Shih", sides=pieces.SIDE_NAMES, default_profile="standard",
    position_type=Position, notation=notation, positions=position, render=render, stats=stats,
    options=OPTIONS, options_type=Options, profiles=PROFILES, rules_doc="docs/rules/shih.md",
    codes=CODES, json_moves=notation, data_checks=(pieces.check_tables,),
    render_options={
        "regions": "mark the enclosed regions (no empty space inside) with letters and list "
                   "them under the diagram",
        "coordinates": "label every space with its name (d8); the SVG otherwise shows each "
                       "space's number along its row",
        "maze": "draw the triangular lattice itself: walled edges drawn, open edges blank",
    },
)
"""The Shih game (registry entry). Blue is side 0 and moves first by default; ``1-0`` = Blue."""
