"""Statistics (rules §8): captures (none in this game) and the ply the centre was taken."""

from __future__ import annotations

from typing import Any

from notation_tools.games.base import Figure, FigureKind, Outcome, Rules, StatsCollector
from tests.example_game.tictactoe.moves import Move
from tests.example_game.tictactoe.pieces import SIZE, SQUARE_NAMES
from tests.example_game.tictactoe.rules import Position

CENTRE = SIZE * SIZE // 2


class Stats(StatsCollector[Position, Move]):
    """Figures of one record."""

    def __init__(self, rules: Rules | None = None) -> None:
        # No rule option changes a figure; the rules are taken as every game's are.
        self.plies = 0
        self.centre_ply: int | None = None

    def before_move(self, position: Position, move: Move) -> None:
        self.plies += 1
        if move.target == CENTRE:
            self.centre_ply = self.plies

    def after_move(self, position: Position) -> None:
        pass

    def summary(self, final: Position, outcome: Outcome | None) -> dict[str, Any]:
        return {"captures": 0, "centre_taken_at": self.centre_ply}


def describe_move(move: Move, position: Position) -> dict[str, Any]:
    """The square a listed move marks."""
    return {"square": SQUARE_NAMES[move.target]}


FIGURES: dict[str, Figure] = {
    "captures": Figure(FigureKind.COUNT, "always 0: nothing is captured"),
    "centre_taken_at": Figure(FigureKind.PLY, "ply the centre was taken", key=True),
}
"""How each figure is summarized over records (rules §8)."""
