"""The opening explorer's position work: reaching the position asked for, and merging the
moves the index found there (docs/explore.md).

The index stores moves as the records write them, so one move may come in several spellings
(``P-10m``, ``P10m``); :func:`merge_moves` reads each spelling in the position, merges those
that are one move, and names the move in the game's own notation. Knows no database: the
rows come from ``notation_tools.storage.position_index``.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from notation_tools.games.base import EngineError, Game, KeyTracker, Position, Rules, signed64


MOVE_FIELDS = ("move", "games", "wins", "draws", "unfinished", "average_plies", "first_date",
               "last_date", "example", "example_path", "example_record", "fen", "key",
               "spellings")
"""What :func:`merge_moves` gives of each move, in this order."""


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
                rows: Iterable[dict[str, Any]], *, fens: bool = True,
                limit: int | None = None) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The index's rows of the moves played from ``position`` (one per spelling), merged by
    the move they mean, most played first (then by name), and what was left out: the first
    ``limit`` moves (all with ``None``) and ``{"moves": …, "games": …}`` of the rest.

    Each move gets ``move`` (the game's notation), ``key`` and (with ``fens``) ``fen`` of
    the position after it; a spelling that does not read here (a record under other rules)
    stays as written, with ``key`` and ``fen`` ``None``. A row whose ``child`` (the key
    after it, from the index) no other row shares is one move by itself: it is read only
    when it is listed, so a position with many moves costs per move listed. Where ``limit``
    cuts among moves played equally often, the moves not read go by their spelling (their
    name when the records write moves as the game does)."""
    rows = _by_text(rows)
    sharing = Counter(row["child"] for row in rows if row["child"] is not None)
    alone = [row for row in rows if row["child"] is not None and sharing[row["child"]] == 1]
    merged = _Merged(game, position)
    for row in rows:
        if row["child"] is None or sharing[row["child"]] > 1:
            merged.add(row)
    # A lone row whose position another spelling reached (read here) may be that move.
    reached = {found["key"] for found in merged.moves.values()}
    for row in [row for row in alone if row["child"] in reached]:
        alone.remove(row)
        merged.add(row)
    rest = {"moves": 0, "games": 0}
    order = _most_played
    if limit is not None and len(merged.moves) + len(alone) > limit:
        # Only the most played lone rows can be listed: the others are counted, not copied.
        everything = len(merged.moves) + len(alone)
        games = sum(row["games"] for row in merged.moves.values()) + \
            sum(row["games"] for row in alone)
        alone = heapq.nsmallest(limit, alone, key=order)
        moves = sorted([*merged.moves.values(), *_lone(alone)], key=order)[:limit]
        rest = {"moves": everything - limit,
                "games": games - sum(row["games"] for row in moves)}
    else:
        moves = [*merged.moves.values(), *_lone(alone)]
    for row in moves:
        child = row.pop("child")
        if child is not None:  # a lone row, read now that it is listed
            identity, move, after = _read(game, position, row["move"])
            row.update(key=None, after=after)
            if move is not None:
                row.update(move=game.format_move(move, position), key=child)
        after, played = row.pop("after"), row.pop("played", None)
        if fens and after is None and played is not None:
            after = merged.after(played)
        row["fen"] = game.format_position(after) if fens and after is not None else None
    listed = [{name: row[name] for name in MOVE_FIELDS} for row in moves]
    return sorted(listed, key=lambda row: (-row["games"], row["move"])), rest


@dataclasses.dataclass
class Listing:
    """What :func:`choose_listed` found: the move texts to read in full (``move_ids``),
    and how many moves and records there are in all (``moves``, ``games``)."""

    move_ids: list[int]
    moves: int
    games: int


def choose_listed(game: Game[Any, Any], position: Position[Any],
                  texts: Sequence[tuple[int, int, int | None]], limit: int,
                  spell: Callable[[Iterable[int]], Mapping[int, str]]) -> Listing | None:
    """The texts of the ``limit`` most played moves from ``position`` (``texts``: move id,
    records, key after it; every key known, else ``None``; ``spell`` gives the texts of
    move ids, asked only for the few read), without reading the others: only their counts.

    The texts that lead to one position are that position's spellings of moves (a move
    leads to one position), so each position's records bound the records of each of its
    moves. Positions are taken most played first; a position reached by several texts is
    read in the rules to merge its texts by move; a position by one text is one move. Once
    ``limit`` moves are known, a position played less often than the last of them holds
    none to list: the rest are counted by their texts, not read (in Game of War many
    different turns lead to one position; an archive that spells one move two ways has
    it counted twice among the moves not listed). Of the positions reached by one text
    played exactly as often as the last listed, only the first ``limit`` by spelling are
    kept (:func:`merge_moves` lists them by spelling)."""
    totals: dict[int, int] = {}
    groups: dict[int, list[tuple[int, int]]] = {}
    for move_id, games, child in texts:
        if child is None:
            return None
        totals[child] = totals.get(child, 0) + games
        groups.setdefault(child, []).append((move_id, games))
    # Most played first, taken one by one: most positions are never reached by the loop.
    heap = [(-total, child) for child, total in totals.items()]
    heapq.heapify(heap)
    best: list[int] = []  # the games of the most played moves known, at most ``limit``
    chosen: list[int] = []
    tied: list[int] = []
    moves = read = 0
    while heap:
        total, child = heapq.heappop(heap)
        total, group = -total, groups[child]
        least = best[0] if len(best) == limit else -1
        if total < least:
            break
        read += len(group)
        if len(group) == 1 and total == least:
            tied.append(group[0][0])
            moves += 1
            continue
        spelled = spell([move_id for move_id, _ in group]) if len(group) > 1 else {}
        merged: dict[str, int] = {}
        for move_id, games in group:
            identity = _identity(game, position, spelled[move_id])[0] if spelled \
                else str(move_id)
            merged[identity] = merged.get(identity, 0) + games
            chosen.append(move_id)
        moves += len(merged)
        for games in merged.values():
            heapq.heappush(best, games)
            if len(best) > limit:
                heapq.heappop(best)
    if tied:
        spelled = spell(tied)
        chosen.extend(heapq.nsmallest(limit, tied, key=spelled.__getitem__))
    moves += len(texts) - read  # the texts not read, each counted as a move
    return Listing(chosen, moves, sum(totals.values()))


def _most_played(row: dict[str, Any]) -> tuple[int, str]:
    return -row["games"], row["move"]


def _lone(rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    return ({**row, "spellings": [row["move"]], "after": None} for row in rows)


class _Merged:
    """Rows read in a position, merged by the move they mean (its ``repr``): ``moves``."""

    def __init__(self, game: Game[Any, Any], position: Position[Any]) -> None:
        self.game, self.position = game, position
        self.moves: dict[str, dict[str, Any]] = {}
        self.tracker = game.key_tracker(position)
        self.parent = self.tracker.key
        self.tracker.before(position)  # every child's key from the parent's, by its changes

    def add(self, row: dict[str, Any]) -> None:
        if row["child"] is not None:
            # The index knows the position after it: the move is read, not played (played
            # only if it is listed with its position string: :meth:`after`).
            identity, move = _identity(self.game, self.position, row["move"])
            after, key = None, row["child"]
        else:
            identity, move, after = _read(self.game, self.position, row["move"])
        found = self.moves.get(identity)
        if found is None:
            self.moves[identity] = {**row, "spellings": [row["move"]], "child": None,
                                    "after": after, "key": None,
                                    "firsts": {row["move"]: row["example"]}}
            if move is not None:
                if after is not None:
                    self.tracker.key = self.parent
                    key = signed64(self.tracker.after(after))
                else:
                    self.moves[identity]["played"] = move
                self.moves[identity].update(
                    move=self.game.format_move(move, self.position), key=key)
            return
        _add_up(found, row)
        # The spellings by the first record that played each here (one row per text).
        firsts = found["firsts"]
        firsts[row["move"]] = row["example"]
        found["spellings"] = sorted(firsts, key=lambda text: (firsts[text], text))


    def after(self, move: Any) -> Position[Any]:
        """The position after ``move``, one that :meth:`add` read but did not play."""
        after = self.position.copy()
        after.push(move)
        return after


def _by_text(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with those of one text made one: a text stored under several ids (the
    index's writer met it again after it forgot it) has a row per id, and whether a move
    is one text or several decides how it is read and ordered (:func:`merge_moves`), which
    must not depend on the ids. The key after it is kept where all its rows agree."""
    texts: dict[str, dict[str, Any]] = {}
    for row in rows:
        found = texts.get(row["move"])
        if found is None:
            texts[row["move"]] = dict(row)
            continue
        if found["child"] != row["child"]:
            found["child"] = None
        _add_up(found, row)
    return list(texts.values())


def _add_up(found: dict[str, Any], row: dict[str, Any]) -> None:
    """Add ``row``'s records to ``found``'s (one move or text), as one row of all their
    records would give them: each record is in one of the two."""
    total = found["games"] + row["games"]
    # From the sums of the final lengths, as one row of all the records would give it.
    if row["plies"] is not None:
        found["plies"] = row["plies"] + (found["plies"] or 0)
    found["average_plies"] = None if found["plies"] is None else found["plies"] / total
    found["games"] = total
    found["wins"] = [a + b for a, b in zip(found["wins"], row["wins"])]
    found["draws"] += row["draws"]
    found["unfinished"] += row["unfinished"]
    found["first_date"] = _least(found["first_date"], row["first_date"])
    found["last_date"] = _most(found["last_date"], row["last_date"])
    if row["example"] < found["example"]:
        found.update(example=row["example"], example_path=row["example_path"],
                     example_record=row["example_record"])


def _identity(game: Game[Any, Any], position: Position[Any], text: str) -> tuple[str, Any]:
    """The identity of move ``text`` here and the move (``None`` when it does not read)."""
    try:
        move = game.resolve_move(text, position).move
    except EngineError:
        return "text:" + text, None
    return repr(move), move


def _read(game: Game[Any, Any], position: Position[Any], text: str
          ) -> tuple[str, Any, Position[Any] | None]:
    """The identity of move ``text`` here, the move and the position after it (both
    ``None`` when the text does not read here)."""
    try:
        move = game.resolve_move(text, position).move
    except EngineError:
        return "text:" + text, None, None
    after = position.copy()
    after.push(move)
    return repr(move), move, after


def _least(a: str | None, b: str | None) -> str | None:
    return b if a is None else a if b is None else min(a, b)


def _most(a: str | None, b: str | None) -> str | None:
    return b if a is None else a if b is None else max(a, b)
