"""Elevation (Steve Baker, 2013): fighting on terrain that the pieces dig and climb.

Exposes :data:`GAME`, the :class:`~notation_tools.games.base.Game` the registry loads. The
rules live in :mod:`.rules`, the tables in :mod:`.pieces`, tokens in :mod:`.notation`, the
position string in :mod:`.position`, pictures in :mod:`.render`, figures in :mod:`.stats`.

>>> GAME.id, GAME.sides
('elevation', ('White', 'Black'))
"""

from notation_tools.games.elevation.game import GAME, ElevationGame
from notation_tools.games.elevation.moves import Dig, Move, Path, Turn
from notation_tools.games.elevation.rules import Position

__all__ = ["GAME", "ElevationGame", "Dig", "Move", "Path", "Position", "Turn"]
