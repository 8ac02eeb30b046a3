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
    DRAGON, FISH, PIECE_KINDS, SAMURAI, SIDES, SQUARE_NAMES, piece_code)
from notation_tools.games.elevation.rules import Position

KIND_WORDS = {SAMURAI: "samurai", FISH: "fish", DRAGON: "dragon"}
OPTION_KEYS = ("B_dig_first", "B_move_first", "B_lone", "F", "DD", "MM", "C2", "U")
_B_ORDER_KEYS = {"dig-first": "B_dig_first", "move-first": "B_move_first"}


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


_KEYS = tuple(_side_keys(side.lower()) for side in SIDES)


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
        side = piece >> 2
        digs: list[tuple[int, int]] = []
        undermining = 0
        squares: tuple[int, ...] = ()
        captures: list[tuple[int, int]] = []
        climbs: list[int] = []
        actions = part.actions
        for action in actions:
            if type(action) is Dig:
                s, d = action.source, action.target
                if board[s] and board[s] >> 2 != side:
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
                        captures.append((q, board[q] & 3))
                        board[q] = 0
                at = squares[-1]
                board[at] = piece
        # digs and moves both (a move's squares are never empty): in the order of the first
        # action; else one kind only
        order = (("dig-first" if type(actions[0]) is Dig else "move-first") if digs and squares
                 else "single")
        out.append((side, piece & 3, part.option, order, digs, undermining, squares, captures, climbs))
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


def describe(move: Move, position: Position) -> dict[str, Any]:
    """Flat facts for ``moves`` listings: pieces, options, digs, path, captures."""
    facts = piece_turn_facts(move, position)
    return {
        "pieces": "&".join(f.piece for f in facts),
        "options": "&".join(f.option for f in facts),
        "digs": "&".join(",".join(f.digs) for f in facts),
        "path": "&".join("-".join(f.path) for f in facts),
        "captures": sum(len(f.captures) for f in facts),
    }


class Stats(StatsCollector[Position, Move]):
    """Per-record figures of §10, gathered ply by ply.

    Keys (``side`` is ``white``/``black``): ``turns``, ``captures``, ``<side>_captures``,
    ``<side>_captures_by_<kind>`` (capturing piece), ``<side>_captured_<kind>`` (piece taken
    by that side), ``<side>_<kind>_left``, ``<side>_pieces_left``, ``<side>_digs``,
    ``<side>_undermining_digs``, ``<side>_option_<code>`` (``B_dig_first``, ``B_move_first``,
    ``B_lone``, ``F``, ``DD``, ``MM``, ``C2``, ``U``), ``<side>_largest_climb``,
    ``<side>_largest_drop``, ``first_capture_ply``, ``highest_stack``, ``ocean_squares``,
    ``end_reason``.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.turns = 0
        self.figures: dict[str, Any] = {}
        for side in ("white", "black"):
            for key in ("captures", "digs", "undermining_digs", "largest_climb", "largest_drop"):
                self.figures[f"{side}_{key}"] = 0
            for word in KIND_WORDS.values():
                self.figures[f"{side}_captures_by_{word}"] = 0
                self.figures[f"{side}_captured_{word}"] = 0
            for code in OPTION_KEYS:
                self.figures[f"{side}_option_{code}"] = 0
        self.first_capture_ply: int | None = None
        self.highest_stack: int | None = None
        self._facts: list[tuple[Any, ...]] = []

    def before_move(self, position: Position, move: Move) -> None:
        """Note what ``move`` does, from the live position before it (§10)."""
        self.turns += 1
        if self.highest_stack is None:
            self.highest_stack = max(position.heights)
        self._facts = _trace(move, position)

    def add(self, before: Position, move: Move, after: Position) -> None:
        """The same as the two hooks, for a caller that kept a copy of the position before
        the move."""
        self.before_move(before, move)
        self.after_move(after)

    def after_move(self, after: Position) -> None:
        """Note the position ``move`` left (§10)."""
        assert self.highest_stack is not None
        heights = after.heights
        highest = self.highest_stack
        figures = self.figures
        for side, kind, option, order, digs, undermining, _squares, captures, climbs in self._facts:
            keys = _KEYS[side]
            figures[keys[_B_ORDER_KEYS.get(order, "B_lone") if option == "B" else option]] += 1
            if digs:
                figures[keys["digs"]] += len(digs)
                figures[keys["undermining_digs"]] += undermining
                for _source, target in digs:
                    # only a dig's destination grows: the highest stack is among them
                    if heights[target] > highest:
                        highest = heights[target]
            if climbs:
                key = keys["largest_climb"]
                figures[key] = max(figures[key], *climbs)
                key = keys["largest_drop"]
                figures[key] = max(figures[key], -min(climbs))
            for _square, taken in captures:
                figures[keys["captures"]] += 1
                figures[keys[("by", kind)]] += 1
                figures[keys[("taken", taken)]] += 1
                if self.first_capture_ply is None:
                    self.first_capture_ply = self.turns
        self.highest_stack = highest

    def summary(self, final: Position, outcome: Outcome | None) -> dict[str, Any]:
        """The flat figures; ``end_reason`` is the engine's reason, or ``result-tag-only``."""
        result: dict[str, Any] = {"turns": self.turns,
                                  "captures": self.figures["white_captures"] + self.figures["black_captures"]}
        result.update(self.figures)
        for side_index, side in enumerate(("white", "black")):
            total = 0
            for kind, word in KIND_WORDS.items():
                left = final.board.count(piece_code(side_index, kind))
                result[f"{side}_{word}_left"] = left
                total += left
            result[f"{side}_pieces_left"] = total
        result["first_capture_ply"] = self.first_capture_ply
        highest = max(final.heights)
        result["highest_stack"] = highest if self.highest_stack is None else max(self.highest_stack, highest)
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
           *((f"option_{code}", _C, f"piece-turns of option {code}") for code in OPTION_KEYS))},
}
"""How each numeric figure of :meth:`Stats.summary` is summarized over records (§10)."""
