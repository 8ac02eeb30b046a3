"""The Elevation :class:`~notation_tools.games.base.Game`: identity, diagnostic codes, and the
game object built from the package's modules.

It holds no rule and no format of its own. It does not read files or print.

>>> GAME.id, GAME.sides
('elevation', ('White', 'Black'))
>>> GAME.parse_rules("standard; fish-diag2-model=jump").describe()
'standard; fish-diag2-model=jump'
"""

from __future__ import annotations

from notation_tools.codes import ERROR, Code
from notation_tools.games.base import Game
from notation_tools.games.elevation.keys import KEYS, SQUARE_NAMES, material, occupants
from notation_tools.games.elevation import notation, options, pieces, position, render, sampling, stats
from notation_tools.games.elevation.moves import Move
from notation_tools.games.elevation.rules import Position

CODES: tuple[Code, ...] = (
    Code("E-CAPTURE-MARK", ERROR, "an x on a step that captures nothing, or a capturing step "
         "written with -", "§6.1"),
)
"""The diagnostic codes Elevation raises beyond the shared ones."""

GAME: Game[Position, Move] = Game(
    keys=KEYS, occupants=occupants, material=material, square_names=SQUARE_NAMES,
    id="elevation", name="Elevation", sides=pieces.SIDE_NAMES, default_profile="standard",
    position_type=Position, notation=notation, positions=position, render=render, stats=stats,
    options=options.OPTIONS, options_type=options.Options, profiles=options.PROFILES,
    rules_check=options.check_rules, rules_doc="docs/rules/elevation.md", codes=CODES,
    sampler=sampling.SAMPLER, data_checks=(pieces.check_tables,),
)
"""Steve Baker's Elevation (2013): digging and climbing on a 6×6 board of tile stacks."""
