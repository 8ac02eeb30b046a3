"""Guy Debord's Game of War ("Le Jeu de la Guerre"): the :data:`GAME` object and the types a
user of the package needs. Rules reference: ``docs/rules/game-of-war.md``."""

from notation_tools.games.gow.game import GAME
from notation_tools.games.gow.moves import Attack, EndTurn, Move, Step, Turn
from notation_tools.games.gow.options import Options
from notation_tools.games.gow.rules import Position
from notation_tools.games.gow.stats import Stats

__all__ = ["GAME", "Attack", "EndTurn", "Move", "Options", "Position", "Stats",
           "Step", "Turn"]
