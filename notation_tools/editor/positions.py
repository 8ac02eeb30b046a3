"""The positions at a record's moves, found by replaying it again with a visitor.

The checked record keeps its diagnostics; a second replay over a copy of it (the same move
nodes, an empty diagnostics list) sees each resolved node with the position before it. A node
that did not resolve (an illegal or ambiguous text) has the position the previous node left,
or, first in its line, the position before the move its variation replaces, or the start.
Does not print.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.editor.document import RecordCheck, flatten_moves
from notation_tools.games.base import EngineError, Game, Position
from notation_tools.records.model import Move

Seen = Callable[[Move, Any, Position[Any]], None]
"""Called with a node, its move and the live position before it (not to be kept)."""


class _Visitor(ReplayVisitor):
    def __init__(self, seen: Seen) -> None:
        self.seen = seen

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        self.seen(node, move, before)


def visit_moves(check: RecordCheck, seen: Seen) -> None:
    """Replay a copy of the checked record, calling ``seen`` at each resolved move node."""
    replay(dataclasses.replace(check.record, diagnostics=[]), visitor=_Visitor(seen))


def positions_before(check: RecordCheck,
                     nodes: Iterable[Move]) -> dict[int, tuple[Position[Any], Any]]:
    """For each of ``nodes`` that resolved, by ``id``: a copy of the position before it and
    its move."""
    wanted = {id(node) for node in nodes}
    found: dict[int, tuple[Position[Any], Any]] = {}

    def keep(node: Move, move: Any, before: Position[Any]) -> None:
        if id(node) in wanted:
            found[id(node)] = (before.copy(), move)

    if wanted:
        visit_moves(check, keep)
    return found


def position_at(check: RecordCheck, node: Move | None, *,
                after: bool = False) -> Position[Any] | None:
    """The position before ``node`` (``None``: the start), or after it with ``after``;
    ``None`` when no position is known there."""
    start = check.replay.start
    if node is None:
        return start.copy() if start is not None else None
    entries = {id(entry[0]): entry for entry in flatten_moves(check.record.moves)}
    line, parent = entries[id(node)][1], entries[id(node)][2]
    index = next(i for i, other in enumerate(line) if other is node)
    previous = line[index - 1] if index else None
    known = positions_before(check, [n for n in (node, previous, parent) if n is not None])
    if id(node) in known:
        position, move = known[id(node)]
        if after:
            position.push(move)
        return position
    if after:
        return None
    if previous is not None:
        if id(previous) not in known:
            return None
        position, move = known[id(previous)]
        position.push(move)
        return position
    if parent is not None:
        return known[id(parent)][0] if id(parent) in known else None
    return start.copy() if start is not None else None


def notation_of(game: Game[Any, Any], text: str, before: Position[Any],
                move: Any) -> str | None:
    """The first of the game's notations in which ``text`` reads as ``move`` before it."""
    for notation in game.notations:
        try:
            if game.resolve_move(text, before, notation).move == move:
                return notation
        except EngineError:
            continue
    return None


def record_notation(check: RecordCheck) -> str | None:
    """The notation the record's first move is written in (``None``: the game's first)."""
    game, start = check.replay.game, check.replay.start
    if game is None or start is None or not check.record.moves:
        return None
    text = check.record.moves[0].text
    try:
        move = game.resolve_move(text, start).move
    except EngineError:
        return None
    return notation_of(game, text, start, move)
