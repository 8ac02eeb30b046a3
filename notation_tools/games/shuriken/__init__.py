"""Shuriken 2D (Mark Steere, 2008; also published as Loophole 2D): placement on a 19 × 19 hex
rhombus with two windows; the first player with two distinct loops wins.

The package's face: :data:`GAME` and the names other code and tests use. The rules and
notation reference is ``docs/rules/shuriken-2d.md``; ``game.py`` says which module holds what.
"""

from notation_tools.games.shuriken.game import GAME
from notation_tools.games.shuriken.moves import PLACES, SWAP, Move, Place, Swap
from notation_tools.games.shuriken.options import Options
from notation_tools.games.shuriken.rules import Position
from notation_tools.games.shuriken.stats import Stats

__all__ = ["GAME", "PLACES", "SWAP", "Move", "Options", "Place", "Position",
           "Stats", "Swap"]
