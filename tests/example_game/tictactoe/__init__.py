"""Tic-tac-toe, the smallest game in the toolkit's package template: copy this folder to
start a new game (docs/development.md, "Adding a game")."""

from tests.example_game.tictactoe.game import GAME
from tests.example_game.tictactoe.moves import Move, Place
from tests.example_game.tictactoe.options import Options
from tests.example_game.tictactoe.rules import Position
from tests.example_game.tictactoe.stats import Stats

__all__ = ["GAME", "Move", "Options", "Place", "Position", "Stats"]
