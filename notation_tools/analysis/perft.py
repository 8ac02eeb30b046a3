"""perft: the number of legal move sequences from a position, the move generator's check.

Counts with the position's ``unordered_moves()`` and, at the last ply, its
``count_legal_moves()`` (a game may count without building moves). Does not print.
"""

from __future__ import annotations

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
