"""Elevation statistics (§10): what each piece-turn did, and per-record figures.

:func:`piece_turn_facts` is the per-piece-turn hook (piece, option, digs, path, captures,
climbs); :func:`describe` flattens it for ``moves`` listings; :class:`Stats` sums the facts over
a record into one flat dict. This module does
not judge legality: it trusts that the turns it is given were legal.

>>> from notation_tools.games.elevation import GAME
>>> rules = GAME.parse_rules(None)
>>> pos = GAME.start_position(rules)
>>> move = GAME.parse_move("c1:c2>b2,c1-c2", pos)
>>> facts = piece_turn_facts(move, pos)[0]
>>> facts.piece, facts.option, facts.digs, facts.path, facts.captures
('D', 'B', ('c2>b2',), ('c1', 'c2'), ())
"""

from __future__ import annotations

import dataclasses
from typing import Any

from notation_tools.games.base import Figure, FigureKind, Outcome, Rules, StatsCollector
from notation_tools.games.elevation.moves import Dig, Move
from notation_tools.games.elevation.pieces import (
    DRAGON, FISH, PIECE_KINDS, SAMURAI, SIDE_NAMES, SQUARE_NAMES, piece_code)
from notation_tools.games.elevation.pieces import KIND_MASK, SIDE_SHIFT
from notation_tools.games.elevation.rules import Position

KIND_WORDS = {SAMURAI: "samurai", FISH: "fish", DRAGON: "dragon"}
OPTION_KEYS = ("B_dig_first", "B_move_first", "B_lone", "F", "DD", "MM", "C2", "U")
OPTION_LABELS = {"B_dig_first": "basic moves, dig first", "B_move_first": "basic moves, move first",
                 "B_lone": "basic moves with one part only", "F": "fish moves",
                 "DD": "Dragon digs twice", "MM": "Dragon moves twice", "C2": "Dragon high climbs",
                 "U": "undermining digs alone"}
"""What a reader is told each option figure counts (piece-turns of that option, §10)."""


def _side_keys(side: str) -> dict[Any, str]:
    """The figure names of one side, spelt once (``after_move`` runs at every ply)."""
    keys: dict[Any, str] = {key: f"{side}_{key}" for key in (
        "captures", "digs", "undermining_digs", "largest_climb", "largest_drop")}
    for code in OPTION_KEYS:
        keys[code] = f"{side}_option_{code}"
    for kind, word in KIND_WORDS.items():
        keys["by", kind] = f"{side}_captures_by_{word}"
        keys["taken", kind] = f"{side}_captured_{word}"
    return keys


_KEYS = tuple(_side_keys(side.lower()) for side in SIDE_NAMES)
_FIGURE_NAMES = tuple(f"{side}_{name}" for side in ("white", "black") for name in (
    "captures", "digs", "undermining_digs", "largest_climb", "largest_drop",
    *(f"{verb}_{word}" for word in KIND_WORDS.values() for verb in ("captures_by", "captured")),
    *(f"option_{code}" for code in OPTION_KEYS)))
"""The per-turn figures of :meth:`Stats.summary`, in its order."""


@dataclasses.dataclass(frozen=True, slots=True)
class PieceTurnFacts:
    """What one piece-turn did (§10 hook): ``piece`` is the letter (upper case), ``side`` 0/1,
    ``digs`` as ``"s>d"``, ``path`` as square names, ``captures`` as (square, piece letter)."""

    side: int
    piece: str
    option: str
    order: str  # "dig-first", "move-first" or "single" (one kind of action only)
    digs: tuple[str, ...]
    undermining_digs: int
    path: tuple[str, ...]
    captures: tuple[tuple[str, str], ...]
    climbs: tuple[int, ...]  # height change of each step (positive = up)


def _trace(move: Move, position: Position) -> list[tuple[Any, ...]]:
    """What each piece-turn of ``move`` from ``position`` (not changed) did, in squares and
    kinds: (side, kind, option, order, digs as (source, target), undermining digs, path
    squares, captures as (square, captured kind), climbs)."""
    heights = position.heights[:]
    board = position.board[:]
    out = []
    for part in move.parts:
        at = part.origin
        piece = board[at]
        side = piece >> SIDE_SHIFT
        digs: list[tuple[int, int]] = []
        undermining = 0
        squares: tuple[int, ...] = ()
        captures: list[tuple[int, int]] = []
        climbs: list[int] = []
        actions = part.actions
        for action in actions:
            if isinstance(action, Dig):
                s, d = action.source, action.target
                if board[s] and board[s] >> SIDE_SHIFT != side:
                    undermining += 1
                heights[s] -= 1
                heights[d] += 1
                digs.append((s, d))
            else:
                squares = action.squares
                board[at] = 0
                for index, captured in enumerate(action.captures):
                    p, q = squares[index], squares[index + 1]
                    climbs.append(heights[q] - heights[p])
                    if captured:
                        captures.append((q, board[q] & KIND_MASK))
                        board[q] = 0
                at = squares[-1]
                board[at] = piece
        # digs and moves both (a move's squares are never empty): in the order of the first
        # action; else one kind only
        order = (("dig-first" if type(actions[0]) is Dig else "move-first") if digs and squares
                 else "single")
        out.append((side, piece & KIND_MASK, part.option, order, digs, undermining, squares,
                    captures, climbs))
    return out


def piece_turn_facts(move: Move, position: Position) -> list[PieceTurnFacts]:
    """The facts of each piece-turn of ``move`` played from ``position`` (not changed)."""
    return [PieceTurnFacts(side, PIECE_KINDS[kind].letter, option, order,
                           tuple(f"{SQUARE_NAMES[s]}>{SQUARE_NAMES[d]}" for s, d in digs),
                           undermining, tuple(SQUARE_NAMES[square] for square in squares),
                           tuple((SQUARE_NAMES[q], PIECE_KINDS[taken].letter) for q, taken in captures),
                           tuple(climbs))
            for side, kind, option, order, digs, undermining, squares, captures, climbs
            in _trace(move, position)]


def describe_move(move: Move, position: Position) -> dict[str, Any]:
    """Flat facts for ``moves`` listings: pieces, options, digs, path, captures."""
    facts = piece_turn_facts(move, position)
    return {
        "pieces": "&".join(f.piece for f in facts),
        "options": "&".join(f.option for f in facts),
        "digs": "&".join(",".join(f.digs) for f in facts),
        "path": "&".join("-".join(f.path) for f in facts),
        "captures": sum(len(f.captures) for f in facts),
    }


def _store_side_figures(figures: dict[str, Any],
                        sums: tuple[list[int], list[int], list[int], list[int]],
                        options: tuple[dict[str, int], dict[str, int]],
                        taken: dict[tuple[int, int, int], int]) -> None:
    """Write each side's sums into ``figures``: ``sums`` holds the digs, undermining digs,
    largest climb and largest drop by side, ``options`` the piece-turns by option, ``taken``
    the captures by (side, capturing kind, captured kind)."""
    digs, undermining, climb, drop = sums
    for side, keys in enumerate(_KEYS):
        figures[keys["digs"]] = digs[side]
        figures[keys["undermining_digs"]] = undermining[side]
        figures[keys["largest_climb"]] = climb[side]
        figures[keys["largest_drop"]] = drop[side]
        for option, count in options[side].items():
            figures[keys[option]] = count
    for (side, kind, victim), count in taken.items():
        keys = _KEYS[side]
        figures[keys["captures"]] += count
        figures[keys[("by", kind)]] += count
        figures[keys[("taken", victim)]] += count


class Stats(StatsCollector[Position, Move]):
    """Per-record figures of §10.

    Keys (``side`` is ``white``/``black``): ``turns``, ``captures``, ``<side>_captures``,
    ``<side>_captures_by_<kind>`` (capturing piece), ``<side>_captured_<kind>`` (piece taken
    by that side), ``<side>_<kind>_left``, ``<side>_pieces_left``, ``<side>_digs``,
    ``<side>_undermining_digs``, ``<side>_option_<code>`` (``B_dig_first``, ``B_move_first``,
    ``B_lone``, ``F``, ``DD``, ``MM``, ``C2``, ``U``), ``<side>_largest_climb``,
    ``<side>_largest_drop``, ``first_capture_ply``, ``highest_stack``, ``ocean_squares``,
    ``end_reason``.

    The collector keeps the heights and pieces before the first move and the moves; the
    per-turn figures are summed once, at :meth:`summary`, by playing the moves' actions
    again on a copy (one pass, no work per ply while the record is replayed).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._moves: list[Move] = []
        self._start: tuple[list[int], list[int]] | None = None
        """The heights and board before the first move noted (copies)."""

    @property
    def turns(self) -> int:
        """The turns noted so far."""
        return len(self._moves)

    def before_move(self, position: Position, move: Move) -> None:
        """Note ``move``, about to be played from the live position (§10)."""
        moves = self._moves
        if not moves:
            self._start = (position.heights[:], position.board[:])
        moves.append(move)

    def add(self, before: Position, move: Move, after: Position) -> None:
        """The same as the two hooks, for a caller that kept a copy of the position before
        the move."""
        self.before_move(before, move)
        self.after_move(after)

    def after_move(self, after: Position) -> None:
        """Nothing to note: :meth:`summary` reads the moves (§10)."""

    def _per_turn_figures(self) -> tuple[dict[str, Any], int | None, int | None]:
        """The figures summed over the moves' piece-turns, the ply of the first capture and
        the highest stack after any ply (None before the first move), from the actions
        played again on copies of the heights and board before the first move."""
        figures = dict.fromkeys(_FIGURE_NAMES, 0)
        if self._start is None:
            return figures, None, None
        heights, board = self._start[0][:], self._start[1][:]
        highest = max(heights)
        first_capture = None
        digs, undermining, climb, drop = [0, 0], [0, 0], [0, 0], [0, 0]
        options: tuple[dict[str, int], dict[str, int]] = ({}, {})
        taken: dict[tuple[int, int, int], int] = {}  # (side, capturing kind, captured kind)
        dug: list[int] = []  # the squares dug onto in this ply
        for ply, move in enumerate(self._moves, 1):
            for part in move.parts:
                at = part.origin
                piece = board[at]
                side = piece >> SIDE_SHIFT
                actions = part.actions
                digging = moved = False
                for action in actions:
                    if isinstance(action, Dig):
                        digging = True
                        source, target = action.source, action.target
                        under = board[source]
                        if under and under >> SIDE_SHIFT != side:
                            undermining[side] += 1
                        heights[source] -= 1
                        heights[target] += 1
                        digs[side] += 1
                        dug.append(target)
                    else:
                        moved = True
                        squares = action.squares
                        board[at] = 0
                        for index, captured in enumerate(action.captures):
                            to = squares[index + 1]
                            step = heights[to] - heights[squares[index]]
                            if step > climb[side]:
                                climb[side] = step
                            elif -step > drop[side]:
                                drop[side] = -step
                            if captured:
                                key = (side, piece & KIND_MASK, board[to] & KIND_MASK)
                                taken[key] = taken.get(key, 0) + 1
                                board[to] = 0
                                if first_capture is None:
                                    first_capture = ply
                        at = squares[-1]
                        board[at] = piece
                option = part.option
                if option == "B":
                    # a dig and a move (a move's squares are never empty): in the order of
                    # the first action; else one kind only
                    if not (digging and moved):
                        option = "B_lone"
                    elif type(actions[0]) is Dig:
                        option = "B_dig_first"
                    else:
                        option = "B_move_first"
                counts = options[side]
                counts[option] = counts.get(option, 0) + 1
            if dug:
                # only a dig's destination grows: the highest stack is among them, after the ply
                for target in dug:
                    if heights[target] > highest:
                        highest = heights[target]
                dug.clear()
        _store_side_figures(figures, (digs, undermining, climb, drop), options, taken)
        return figures, first_capture, highest

    def summary(self, final: Position, outcome: Outcome | None) -> dict[str, Any]:
        """The flat figures; ``end_reason`` is the engine's reason, or ``result-tag-only``."""
        figures, first_capture, highest = self._per_turn_figures()
        result: dict[str, Any] = {"turns": self.turns,
                                  "captures": figures["white_captures"] + figures["black_captures"]}
        result.update(figures)
        for side_index, side in enumerate(("white", "black")):
            total = 0
            for kind, word in KIND_WORDS.items():
                left = final.board.count(piece_code(side_index, kind))
                result[f"{side}_{word}_left"] = left
                total += left
            result[f"{side}_pieces_left"] = total
        result["first_capture_ply"] = first_capture
        final_highest = max(final.heights)
        result["highest_stack"] = final_highest if highest is None else max(highest, final_highest)
        result["ocean_squares"] = sum(1 for height in final.heights if height == 0)
        result["end_reason"] = outcome.reason if outcome is not None else "result-tag-only"
        return result


_C, _MAX, _PLY = FigureKind.COUNT, FigureKind.MAX, FigureKind.PLY
FIGURES: dict[str, Figure] = {
    "turns": Figure(_C, "turns played"),
    "captures": Figure(_C, "pieces captured, both sides", key=True),
    "first_capture_ply": Figure(_PLY, "turn of the first capture", key=True),
    "highest_stack": Figure(_MAX, "highest stack", key=True),
    "ocean_squares": Figure(_C, "squares at height 0 at the end", key=True),
    **{f"{side}_{figure}": Figure(kind, f"{about} ({side})")
       for side in ("white", "black") for figure, kind, about in (
           ("captures", _C, "pieces captured"), ("digs", _C, "digs"),
           ("undermining_digs", _C, "digs under an opposing piece"),
           ("largest_climb", _MAX, "largest climb in one step"),
           ("largest_drop", _MAX, "largest drop in one step"),
           ("pieces_left", _C, "pieces left at the end"),
           *((f"captures_by_{word}", _C, f"captures by a {word}")
             for word in KIND_WORDS.values()),
           *((f"captured_{word}", _C, f"{word} captured") for word in KIND_WORDS.values()),
           *((f"{word}_left", _C, f"{word} left at the end") for word in KIND_WORDS.values()),
           *((f"option_{code}", _C, f"{OPTION_LABELS[code]}") for code in OPTION_KEYS))},
}
"""How each numeric figure of :meth:`Stats.summary` is summarized over records (§10)."""
