"""The tic-tac-toe ``Game``: identity, codes, and the game object built from the modules.

>>> position = GAME.start_position(GAME.parse_rules(None))
>>> position.push(GAME.parse_move("b2", position)); GAME.format_position(position)
'3/1X1/3 o'
"""

from __future__ import annotations

from notation_tools.codes import ERROR, Code
from notation_tools.games.base import Game
from tests.example_game.tictactoe import notation, pieces, position, render, stats
from tests.example_game.tictactoe.moves import Move
from tests.example_game.tictactoe.options import OPTIONS, PROFILES, Options
from tests.example_game.tictactoe.rules import Position

CODES = (Code("E-OCCUPIED", ERROR, "a mark on a square that is taken", "§2"),)

GAME: Game[Position, Move] = Game(
    id="tictactoe", name="Tic-tac-toe", sides=pieces.SIDE_NAMES, default_profile="standard",
    position_type=Position, notation=notation, positions=position, render=render, stats=stats,
    aliases=("noughts-and-crosses",), options=OPTIONS, options_type=Options, profiles=PROFILES,
    rules_doc="tests/example_game/rules.md", codes=CODES, data_checks=(pieces.check_tables,),
)
"""Crosses (side 0) move first; ``1-0`` means crosses win."""
