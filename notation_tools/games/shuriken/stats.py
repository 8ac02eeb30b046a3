"""Per-record statistics of Shuriken 2D (§9), gathered ply by ply, and the per-move facts of
``moves`` listings.

The collector notes, for each side, the plies at which its rank first reached 1 (the first
loop) and 2 (the win), every loop the moment it first appears, and per move the cell, the
mover's rank and the loops it formed. ``summary`` flattens this for tables, adding each side's
stones per board region (``pieces.ZONE``: nearest window W1/W2/W3, or ``between``). Nothing
here decides a rule: ranks and loops come from the position.

>>> from notation_tools.games.shuriken.moves import Place
>>> from notation_tools.games.shuriken.rules import Position
>>> pos, stats = Position.start(), Stats()
>>> for move in (Place(10, 11), Place(9, 10)):
...     before = pos.copy(); pos.push(move); stats.add(before, move, pos)
>>> summary = stats.summary(pos, pos.outcome())
>>> summary["plies"], summary["captures"], summary["black_placements"], summary["winner"]
(2, 0, 1, None)
"""

from __future__ import annotations

import operator
from typing import Any

from notation_tools.games.base import Figure, FigureKind, Outcome, Rules, StatsCollector
from notation_tools.games.shuriken.moves import Move, Place
from notation_tools.games.shuriken.pieces import (
    BLACK, CELL_NAME, EMPTY_AT_START, SIDE_NAMES, WHITE, WIN_RANK, ZONE, ZONES, transpose)
from notation_tools.games.shuriken.rules import LOOP_TYPES, Position

_PREFIX = ("black", "white")
_ZONE_KEYS = tuple(tuple(f"{prefix}_stones_{zone.lower()}" for zone in ZONES)
                   for prefix in _PREFIX)
"""The figures counting a side's stones in each zone, by side, in the order of ``ZONES``."""
_LOOP_KINDS = tuple(LOOP_TYPES.values())
_SIDE_KEYS = tuple((*(f"{prefix}_{name}" for name in (
    "placements", "stones", "first_loop_ply", "rank2_ply", "rank", "loops", "loops_formed",
    *(f"{kind}_loops" for kind in _LOOP_KINDS))), *_ZONE_KEYS[side], f"{prefix}_largest_group")
    for side, prefix in enumerate(_PREFIX))
"""Each side's figures, in the order :meth:`Stats.summary` gives them."""
_ZONE_CELLS = tuple(operator.itemgetter(*(cell for cell in EMPTY_AT_START if ZONE[cell] == zone))
                    for zone in ZONES)
"""For each zone of ``ZONES``, what the board holds on the cells of the zone a stone can be
placed on (a tuple)."""
_PLACEABLE = frozenset(EMPTY_AT_START)


def describe_move(move: Move, position: Position) -> dict[str, Any]:
    """The mover's rank after ``move`` and the loops it forms (§9 per-move figures); the
    position is left as it was."""
    side = position.turn
    before = set(position.loops(side))
    position.push(move)
    try:
        rank = position.rank(side)
        new = [loop for loop in position.loops(side) if loop not in before]
        wins = position.winner == side
    finally:
        position.pop()
    return {"rank": rank, "new_loops": " ".join(new), "wins": wins}


def largest_groups(position: Position) -> list[int]:
    """Each side's largest group counted in placeable cells (pre-placed stones and frame
    points left out), 0 for a side with no placed stone.

    >>> from notation_tools.games.shuriken.moves import Place
    >>> pos = Position.start()
    >>> for move in (Place(10, 11), Place(1, 1), Place(10, 12)):
    ...     pos.push(move)
    >>> largest_groups(pos)
    [2, 1]
    """
    board = position.board
    largest = [0, 0, 0]  # by colour
    # A group holds no more placeable cells than members, so the groups are looked at from
    # the largest down, and only while one could still beat its colour's largest so far.
    for group in sorted(position.members.values(), key=len, reverse=True):
        size = len(group)
        if size <= largest[BLACK] and size <= largest[WHITE]:
            break
        colour = board[group[0]]
        if size > largest[colour]:
            placed = len(_PLACEABLE.intersection(group))
            if placed > largest[colour]:
                largest[colour] = placed
    return [largest[BLACK], largest[WHITE]]


_PER_MOVE_KEYS = ("ply", "side", "cell", "rank", "new_loops")


class Stats(StatsCollector[Position, Move]):
    """Collects §9's figures while a record is replayed (``StatsCollector``)."""

    def __init__(self, rules: Rules | None = None) -> None:
        # Shuriken's one option changes no figure; the rules are taken as every game's are.
        self.swaps = 0
        self.ranks: list[int] | None = None
        """Each side's rank when the collector first saw the position."""
        self.first_loop_ply: list[int | None] = [None, None]
        self.rank2_ply: list[int | None] = [None, None]
        self.loops_formed: list[dict[str, int]] = [{}, {}]
        self._first_side = 0
        self._cells: list[int] = []
        """Per ply, the cell's grid index (named only in :attr:`per_move`); the sides take
        turns from ``_first_side`` (every ply, a swap included, passes the turn)."""
        self._ranked: dict[int, tuple[int, str]] = {}
        """The plies after which the mover's rank was not 0: ply → (rank, loops formed)."""

    @property
    def plies(self) -> int:
        """Plies noted so far."""
        return len(self._cells)

    @property
    def placements(self) -> list[int]:
        """Plies played by each side (a swap included)."""
        plies = len(self._cells)
        black = (plies + 1 - self._first_side) // 2
        return [black, plies - black]

    @property
    def per_move(self) -> list[dict[str, Any]]:
        """One entry per ply: ``ply``, ``side``, ``cell``, ``rank``, ``new_loops`` (§9),
        built when asked for (the per-record figures never need them)."""
        ranked, first = self._ranked, self._first_side
        return [dict(zip(_PER_MOVE_KEYS, (ply, first ^ (ply - 1) % 2, CELL_NAME[cell],
                                          *ranked.get(ply, (0, "")))))
                for ply, cell in enumerate(self._cells, 1)]

    def _baseline(self, position: Position) -> None:
        # A set-up position may already hold loops: they count as formed at ply 0.
        self.ranks = [position.rank(0), position.rank(1)]
        self._first_side = position.turn
        for side in (0, 1):
            for loop in position.loops(side):
                self.loops_formed[side][loop] = 0
            if self.ranks[side] >= 1:
                self.first_loop_ply[side] = 0
            if self.ranks[side] >= WIN_RANK:
                self.rank2_ply[side] = 0

    def add(self, before: Position, move: Move, after: Position) -> None:
        """Note one ply: ``before`` is a copy taken before ``move``, ``after`` the live position."""
        self.before_move(before, move)
        self.after_move(after)

    def before_move(self, position: Position, move: Move) -> None:
        """The first half of :meth:`add`, with the live position before the push."""
        if self.ranks is None:
            self._baseline(position)
        if move.__class__ is Place:
            self._cells.append(move.target)
        else:
            self.swaps += 1
            self._cells.append(transpose(position.opening_cell()))

    def after_move(self, after: Position) -> None:
        """The second half of :meth:`add`, with the live position after the push."""
        # The mover is the side not to move now, so its colour (side + 1) is 2 - turn; at
        # rank 0 (most plies) it has no loop and there is nothing more to note.
        if after.ranks[2 - after.turn]:
            self._note_rank(after)

    def _note_rank(self, after: Position) -> None:
        assert self.ranks is not None
        side = after.turn ^ 1
        rank = after.ranks[side + 1]
        ply = len(self._cells)
        # The mover's rank after its previous ply, or when first seen: every ply passes
        # the turn, so that ply is two back, and a ply not noted here left its mover at 0.
        previous = self._ranked.get(ply - 2, (0,))[0] if ply > 2 else self.ranks[side]
        new_loops: list[str] = []
        if rank != previous or rank >= WIN_RANK:
            # Loops only appear when the rank grows, or at rank 2 and above (§3.3).
            known = self.loops_formed[side]
            for loop in after.loops(side):
                if loop not in known:
                    known[loop] = ply
                    new_loops.append(loop)
        if self.first_loop_ply[side] is None:
            self.first_loop_ply[side] = ply
        if rank >= WIN_RANK and self.rank2_ply[side] is None:
            self.rank2_ply[side] = ply
        self._ranked[ply] = (rank, " ".join(new_loops))

    def summary(self, final: Position, outcome: Outcome | None) -> dict[str, Any]:
        """Flat figures (§9): str keys, scalar values; ``captures`` is always 0 (§2.2)."""
        if self.ranks is None:
            self._baseline(final)
        winner = None if outcome is None else outcome.winner   # never a draw (§4.2)
        figures: dict[str, Any] = {
            "captures": 0,
            "plies": self.plies,
            "swaps": self.swaps,
            "winner": None if winner is None else SIDE_NAMES[winner],
            "winning_ply": None,
        }
        if winner is not None:
            figures["winning_ply"] = self.rank2_ply[winner]
        # Each side's stones per zone; their sum is the side's placed stones
        # (``Position.placed_stones``).
        board = final.board
        zone_values = [cells(board) for cells in _ZONE_CELLS]
        largest = largest_groups(final)
        placed_total = 0
        placements = self.placements
        for side in (0, 1):
            loops = final.loops(side)
            formed = self.loops_formed[side]
            colour = side + 1
            zones = [values.count(colour) for values in zone_values]
            stones = sum(zones)
            placed_total += stones
            kinds = [loop.partition("{")[0] for loop in loops]  # "double{W1,W3}" → "double"
            figures.update(zip(_SIDE_KEYS[side], (
                placements[side], stones, self.first_loop_ply[side], self.rank2_ply[side],
                final.rank(side), " ".join(loops),
                " ".join(f"{loop}@{ply}"
                         for loop, ply in sorted(formed.items(), key=lambda kv: kv[1])),
                *(kinds.count(kind) for kind in _LOOP_KINDS), *zones, largest[side])))
        figures["fill_ratio"] = round(placed_total / len(EMPTY_AT_START), 4)
        return figures


_C, _MAX, _PLY, _RATIO = FigureKind.COUNT, FigureKind.MAX, FigureKind.PLY, FigureKind.RATIO
FIGURES: dict[str, Figure] = {
    "captures": Figure(_C, "always 0: no stone is ever captured (§2.2)"),
    "plies": Figure(_C, "plies played"),
    "swaps": Figure(_C, "swaps", key=True),
    "winning_ply": Figure(_PLY, "ply the winner reached rank 2 (won records)", key=True),
    "fill_ratio": Figure(_RATIO, "share of the empty cells filled at the end", key=True),
    **{f"{side}_{figure}": Figure(kind, f"{about} ({side})")
       for side in _PREFIX for figure, kind, about in (
           ("placements", _C, "placements"), ("stones", _C, "stones placed at the end"),
           ("first_loop_ply", _PLY, "ply of the first loop"),
           ("rank2_ply", _PLY, "ply of reaching rank 2"), ("rank", _C, "rank at the end"),
           ("single_loops", _C, "single loops at the end"),
           ("double_loops", _C, "double loops at the end"),
           ("triple_loops", _C, "triple loops at the end"),
           ("largest_group", _MAX, "largest group of placed stones"),
           *((f"stones_{zone.lower()}", _C, f"stones in zone {zone} at the end")
             for zone in ZONES))},
}
"""How each numeric figure of :meth:`Stats.summary` is summarized over records (§9)."""
