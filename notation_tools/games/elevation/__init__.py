"""Elevation (Steve Baker, 2013): fighting on terrain that the pieces dig and climb.

Exposes :data:`GAME`, the :class:`~notation_tools.games.base.Game` the registry loads. The
tables live in :mod:`.pieces`, the rule options in :mod:`.options`, the move values in
:mod:`.moves`, the rules in :mod:`.rules`, tokens in :mod:`.notation`, the position string in
:mod:`.position`, pictures in :mod:`.render`, figures in :mod:`.stats`, the random-move policy
in :mod:`.sampling`; the rules reference is ``docs/rules/elevation.md``.
"""

from notation_tools.games.elevation.game import GAME
from notation_tools.games.elevation.moves import Dig, Move, Path, PieceTurn, Turn
from notation_tools.games.elevation.options import Options
from notation_tools.games.elevation.rules import Position
from notation_tools.games.elevation.stats import Stats

__all__ = ["GAME", "Dig", "Move", "Options", "Path", "PieceTurn", "Position",
           "Stats", "Turn"]
