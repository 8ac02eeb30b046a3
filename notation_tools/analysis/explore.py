"""The opening explorer's position work: reaching the position asked for, and merging the
moves the index found there (docs/explore.md).

The index stores moves as the records write them, so one move may come in several spellings
(``P-10m``, ``P10m``); :func:`merge_moves` reads each spelling in the position, merges those
that are one move, and names the move in the game's own notation. Knows no database: the
rows come from ``notation_tools.storage.position_index``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from notation_tools.games.base import EngineError, Game, KeyTracker, Position, Rules, signed64


class PositionError(ValueError):
    """A position the explorer cannot reach: a bad position string or a move that does not
    read in it. The message says which."""


def reach(game: Game[Any, Any], rules: Rules, *, fen: str | None = None,
          moves: Sequence[str] = ()) -> Position[Any]:
    """The position of ``fen`` (the start position when ``None``) after ``moves``."""
    try:
        position: Position[Any] = game.parse_position(fen, rules) if fen is not None \
            else game.start_position(rules)
    except EngineError as error:
        raise PositionError(f"not a {game.name} position: {error}") from None
    for number, text in enumerate(moves, 1):
        try:
            position.push(game.resolve_move(text, position).move)
        except EngineError as error:
            raise PositionError(f"move {number} ({text}): {error}") from None
    return position


def split_moves(text: str | None) -> list[str]:
    """``--moves "1. P-10m P-8g"``: the move texts, move numbers left out."""
    if not text:
        return []
    return [word for word in text.split() if not word.rstrip(".").isdigit()]


def merge_moves(game: Game[Any, Any], position: Position[Any],
                rows: Iterable[dict[str, Any]], *, fens: bool = True) -> list[dict[str, Any]]:
    """The index's rows of the moves played from ``position`` (one per spelling), merged by
    the move they mean, most played first. Each gets ``move`` (the game's notation), ``key``
    and (with ``fens``) ``fen`` of the position after it; a spelling that does not read here
    (a record under other rules) stays as written, with ``key`` and ``fen`` ``None``."""
    merged: dict[str, dict[str, Any]] = {}
    tracker = game.key_tracker(position)
    parent = tracker.key
    tracker.before(position)  # every child's key from the parent's, by what its move changed
    for row in rows:
        tracker.key = parent
        identity, extra = _read(game, position, row["move"], tracker, fens)
        found = merged.get(identity)
        if found is None:
            merged[identity] = {**row, **extra, "spellings": [row["move"]]}
            continue
        total = found["games"] + row["games"]
        found["average_plies"] = (found["average_plies"] * found["games"]
                                  + row["average_plies"] * row["games"]) / total
        found["games"] = total
        found["wins"] = [a + b for a, b in zip(found["wins"], row["wins"])]
        found["draws"] += row["draws"]
        found["unfinished"] += row["unfinished"]
        found["first_date"] = _least(found["first_date"], row["first_date"])
        found["last_date"] = _most(found["last_date"], row["last_date"])
        found["example"] = min(found["example"], row["example"])
        found["spellings"].append(row["move"])
    return sorted(merged.values(), key=lambda row: (-row["games"], row["move"]))


def _read(game: Game[Any, Any], position: Position[Any], text: str, tracker: KeyTracker[Any],
          fens: bool) -> tuple[str, dict[str, Any]]:
    try:
        move = game.resolve_move(text, position).move
    except EngineError:
        return "text:" + text, {"fen": None, "key": None}
    after = position.copy()
    after.push(move)
    return repr(move), {"move": game.format_move(move, position),
                        "fen": game.format_position(after) if fens else None,
                        "key": signed64(tracker.after(after))}


def _least(a: str | None, b: str | None) -> str | None:
    return b if a is None else a if b is None else min(a, b)


def _most(a: str | None, b: str | None) -> str | None:
    return b if a is None else a if b is None else max(a, b)
