"""Shih: the maze-and-capture game on a hexagon of 96 triangles (rules: ``docs/rules/shih.md``).

Exposes :data:`GAME`, the :class:`~notation_tools.games.base.Game` the toolkit registers, and
the package's types.
"""

from notation_tools.games.shih.game import GAME
from notation_tools.games.shih.moves import Move, PowerSpin, Spin, Step, Turn
from notation_tools.games.shih.options import Options
from notation_tools.games.shih.rules import Position
from notation_tools.games.shih.stats import Stats

__all__ = ["GAME", "Move", "Options", "Position", "PowerSpin", "Spin", "Stats",
           "Step", "Turn"]
