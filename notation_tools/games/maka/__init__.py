"""Maka-Dai-Dai Shogi: the 19×19 game of ShogiVar's TSA records, with its rule options.

The package follows the one-package template (``docs/development.md``); the rules and notation
reference is ``docs/rules/maka-dai-dai-shogi.md``.
"""

from notation_tools.games.maka.game import GAME
from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.options import Options
from notation_tools.games.maka.rules import Position
from notation_tools.games.maka.stats import Stats

__all__ = ["GAME", "Move", "Options", "Position", "Stats"]
