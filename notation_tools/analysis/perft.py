"""perft: the number of legal move sequences from a position, the move generator's check.

Counts with the position's ``unordered_moves()`` and, at the last ply, its
``count_legal_moves()`` (a game may count without building moves); :func:`timed_perft`
times each depth. Does not print.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import Any

from notation_tools.games.base import Position


def perft(position: Position[Any], depth: int) -> int:
    """The number of legal move sequences of ``depth`` plies from ``position`` (restored
    afterwards).

    >>> from notation_tools.games.base import get_game
    >>> game = get_game("elevation")
    >>> perft(game.start_position(game.parse_rules(None)), 1)
    1194
    """
    if depth == 0:
        return 1
    if depth == 1:
        return position.count_legal_moves()
    total = 0
    for move in list(position.unordered_moves()):
        position.push(move)
        total += perft(position, depth - 1)
        position.pop()
    return total


def divide(position: Position[Any], depth: int) -> Iterator[tuple[Any, int]]:
    """``(move, perft below it)`` for every legal move of ``position``, in ``legal_moves()``
    order: perft ``depth`` split by the first move."""
    for move in list(position.generate_legal_moves()):
        position.push(move)
        count = perft(position, depth - 1)
        position.pop()
        yield move, count


@dataclasses.dataclass(frozen=True)
class PerftLevel:
    """One depth counted: its perft ``nodes`` and the ``seconds`` the count took."""

    depth: int
    nodes: int
    seconds: float

    @property
    def rate(self) -> float:
        """Nodes per second (infinite when the clock saw no time pass)."""
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


def timed_perft(position: Position[Any], depth: int) -> Iterator[PerftLevel]:
    """perft 1..``depth`` of ``position``, each depth timed on its own and given as soon as
    it is counted.

    >>> from notation_tools.games.base import get_game
    >>> game = get_game("elevation")
    >>> [level.nodes for level in timed_perft(game.start_position(game.parse_rules(None)), 1)]
    [1194]
    """
    for level in range(1, depth + 1):
        start = time.perf_counter()
        nodes = perft(position, level)
        yield PerftLevel(level, nodes, time.perf_counter() - start)
