"""Maka-Dai-Dai Shogi statistics (§13): per-move facts, the facts of ``moves`` listings, and
a flat per-record summary.

The collector reads positions and moves; it decides nothing about legality.

>>> from notation_tools.games.maka import GAME
>>> rules = GAME.parse_rules(None)
>>> pos = GAME.start_position(rules)
>>> stats = GAME.new_stats(rules)
>>> move = GAME.parse_move("P-10m", pos)
>>> stats.before_move(pos, move); pos.push(move); stats.after_move(pos)
>>> stats.summary(pos, None)["captures"]
0
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from notation_tools.games.base import Figure, FigureKind, Outcome, StatsCollector

from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.pieces import (COL, DIAGONAL, EMPEROR_ID, GP_ID, KNIGHT_STUCK_RANKS,
                                              LAST_RANK_STUCK, PIECES_PER_SIDE, ROW, ROYAL_IDS,
                                              SIDE_NAMES, SIZE, TYPE_ID, TYPE_OF_ID,
                                              square_name)
from notation_tools.games.maka.rules import Position

SIDE_KEYS = ("black", "white")


def describe_move(move: Move, position: Position) -> dict[str, Any]:
    """The facts of a legal move for ``moves`` listings: piece, captures, what it becomes."""
    board = position.board
    return {"piece": TYPE_OF_ID[board[move.origin] >> 1].abbr, "captures": len(move.captures),
            "captured": ", ".join(f"{TYPE_OF_ID[board[c] >> 1].abbr}@{square_name(c)}"
                                  for c in move.captures),
            "becomes": TYPE_OF_ID[move.becomes].abbr}


class Stats(StatsCollector[Position, Move]):
    """Gathers §13's per-record figures while a record is replayed (the same figures under
    every rule option)."""

    def __init__(self) -> None:
        self.plies = 0
        self.moves = [0, 0]
        self.captures = [0, 0]
        self.captured_types: Counter[str] = Counter()
        self.multi: Counter[int] = Counter()
        self.igui = 0
        self.passes = 0
        self.promotions = [0, 0]
        self.promotion_list: list[str] = []
        self.declined = 0
        self.contagion = 0
        self.emperor_ply: list[int | None] = [None, None]
        self.emperor_moves = 0
        self.emperor_captures = 0
        self.emperor_protected = 0
        self.prince_ply: int | None = None
        self.royal_capture_plies: list[int] = []
        self.hook_moves = 0
        self.hook_turns = 0
        self.lion_moves = 0
        self.first_capture: int | None = None
        self.quiet_run = 0
        self.longest_quiet = 0
        self.max_occurrences = 1
        self.self_checks = [0, 0]
        self.longest = 0
        self.longest_ply: int | None = None
        self.most_legs = 0
        self.pieces_min = [PIECES_PER_SIDE, PIECES_PER_SIDE]
        self.pieces_now: list[int] | None = None
        self._mover = 0
        self._unattacked: list[tuple[int, int, bytes] | None] = [None, None]
        """Per side, ``(royal square, position key, attack watch)`` after the side's last move
        when its one royal was then not attacked: the last two moves tell whether that can have
        changed."""

    def before_move(self, before: Position, move: Move) -> None:
        """Note ``move``, about to be played from the live position ``before`` (§13 "per
        move"; every figure is judged in the position before the move)."""
        self.plies += 1
        ply = self.plies
        board = before.board
        origin, target, captures = move.origin, move.target, move.captures
        code = board[origin]
        side = code & 1
        t = before.t
        self.moves[side] += 1
        n = len(captures)
        if n:
            self.captures[side] += n
            for c in captures:
                self.captured_types[TYPE_OF_ID[board[c] >> 1].abbr] += 1
            if self.first_capture is None:
                self.first_capture = ply
            self.quiet_run = 0
            if n >= 2:
                self.multi[n] += 1
            if any(board[c] >> 1 in ROYAL_IDS for c in captures):
                self.royal_capture_plies.append(ply)
                self._unattacked = [None, None]
            kind = before.promotion_kind(move)
            if kind == "promote":
                self.promotions[side] += 1
                became = TYPE_OF_ID[move.becomes].abbr
                self.promotion_list.append(f"{TYPE_OF_ID[code >> 1].abbr}>{became}")
                if became == "E":
                    self.emperor_ply[side] = ply
                if became == "Pr" and self.prince_ply is None:
                    self.prince_ply = ply
            elif kind == "decline":
                self.declined += 1
            elif kind == "contagion":
                self.contagion += 1
        else:  # a move without capture neither promotes (§6.8) nor converts (§6.9)
            self.quiet_run += 1
            if self.quiet_run > self.longest_quiet:
                self.longest_quiet = self.quiet_run
        if origin == target:
            if n:
                self.igui += 1
            else:
                self.passes += 1
        if t.emperor[code]:
            self.emperor_moves += 1
            if n:
                self.emperor_captures += 1
                # judged by the default restriction (unprotected) even when allowed (§13)
                if before.emperor_defended(origin, target) is not None:
                    self.emperor_protected += 1
        dr, dc = ROW[target] - ROW[origin], COL[target] - COL[origin]
        hook = t.hook[code]
        if hook is not None:
            self.hook_moves += 1
            aligned = dr == 0 or dc == 0 or abs(dr) == abs(dc)
            diagonal = hook is DIAGONAL
            if not aligned or (diagonal and (dr == 0 or dc == 0)) or (
                    not diagonal and dr != 0 and dc != 0):
                self.hook_turns += 1
        if t.lion[code] or t.ldog[code]:
            self.lion_moves += 1
        # the king distance (§6.3), by comparisons: this runs at every ply
        length = dr if dr >= 0 else -dr
        if dc > length or -dc > length:
            length = dc if dc >= 0 else -dc
        if length > self.longest:
            self.longest = length
            self.longest_ply = ply
        legs = len(move.path)
        if legs > self.most_legs:
            self.most_legs = legs
        self._mover = side
        if code >> 1 in ROYAL_IDS or move.becomes in ROYAL_IDS:
            self._unattacked = [None, None]
        if self.pieces_now is None:
            self.pieces_now = [before.piece_count(0), before.piece_count(1)]
            self.pieces_min = list(self.pieces_now)
        if n:
            now, least = self.pieces_now, self.pieces_min
            for c in captures:
                victim_side = board[c] & 1
                now[victim_side] -= 1
                if now[victim_side] < least[victim_side]:
                    least[victim_side] = now[victim_side]

    def after_move(self, after: Position) -> None:
        """Note the live position after the move given to :meth:`before_move`."""
        occurrences = after.counts.get(after.key, 1)
        if occurrences > self.max_occurrences:
            self.max_occurrences = occurrences
        mover = self._mover
        known = self._unattacked[mover]
        stack = after.stack
        # The royal was not attacked two plies ago (and no royal moved, appeared or was taken
        # since): the two moves since then decide whether a full test is needed.
        if known is not None and len(stack) >= 2 and stack[-2][3] == known[1] \
                and not after.may_attack_anew(known[0], 1 - mover, 2, known[2]):
            self._unattacked[mover] = (known[0], after.key, known[2])
            return
        if after.self_check_by(mover) is not None:
            self.self_checks[mover] += 1
            self._unattacked[mover] = None
        else:
            royals = after.royals(mover)
            self._unattacked[mover] = (royals[0], after.key, after.attack_watch(
                royals[0], 1 - mover)) if len(royals) == 1 else None

    def summary(self, final: Position, outcome: Outcome | None) -> dict[str, Any]:
        """Flat figures (§13); ``captures`` is the total number of captured pieces."""
        data: dict[str, Any] = {
            "plies": self.plies,
            "moves_black": self.moves[0],
            "moves_white": self.moves[1],
            "end": outcome.reason if outcome else "ongoing",
            "winner": None if outcome is None or outcome.winner is None
            else SIDE_NAMES[outcome.winner],
            "captures": sum(self.captures),
            "captures_black": self.captures[0],
            "captures_white": self.captures[1],
            "captured_types": ", ".join(f"{k} {v}" for k, v in sorted(self.captured_types.items())),
            "double_captures": self.multi[2],
            "triple_captures": self.multi[3],
            "igui": self.igui,
            "passes": self.passes,
            "promotions": sum(self.promotions),
            "promotions_black": self.promotions[0],
            "promotions_white": self.promotions[1],
            "promotion_list": ", ".join(self.promotion_list),
            "declined_promotions": self.declined,
            "contagion": self.contagion,
            "emperor_ply_black": self.emperor_ply[0],
            "emperor_ply_white": self.emperor_ply[1],
            "emperor_moves": self.emperor_moves,
            "emperor_captures": self.emperor_captures,
            "emperor_protected_captures": self.emperor_protected,
            "prince_ply": self.prince_ply,
            "royal_capture_plies": ", ".join(map(str, self.royal_capture_plies)),
            "hook_moves": self.hook_moves,
            "hook_turns": self.hook_turns,
            "lion_moves": self.lion_moves,
            "first_capture_ply": self.first_capture,
            "longest_capture_free": self.longest_quiet,
            "max_position_occurrences": self.max_occurrences,
            "longest_move": self.longest,
            "longest_move_ply": self.longest_ply,
            "most_legs": self.most_legs,
            "self_checks_black": self.self_checks[0],
            "self_checks_white": self.self_checks[1],
        }
        squares = final.squares
        for s, key in enumerate(SIDE_KEYS):
            pieces = final.piece_count(s)
            data[f"pieces_{key}"] = pieces
            data[f"pieces_min_{key}"] = min(self.pieces_min[s], pieces)
            data[f"royals_{key}"] = len(final.royals(s))
            data[f"emperor_{key}"] = len(squares[EMPEROR_ID * 2 + s])
            data[f"gold_promoted_{key}"] = len(squares[GP_ID * 2 + s])
            # the cheap geometric test first: move generation only for pieces it names
            data[f"immobile_{key}"] = sum(1 for code in _STUCK_CODES[s] for sq in squares[code]
                                          if _immobile(sq, code) and not final.piece_moves(sq, code))
        for abbr, count in sorted(self.captured_types.items()):
            data[f"captured_{abbr}"] = count
        return data


def _immobile(sq: int, code: int) -> bool:
    """The permanently stuck pieces of §6.14 (last rank or, for a Knight, last two)."""
    abbr = TYPE_OF_ID[code >> 1].abbr
    row = ROW[sq] if code & 1 == 0 else SIZE - 1 - ROW[sq]
    if abbr in LAST_RANK_STUCK:
        return row == 0
    return abbr == "N" and row < KNIGHT_STUCK_RANKS


_STUCK_CODES = tuple(tuple(TYPE_ID[abbr] * 2 + side for abbr in sorted(LAST_RANK_STUCK | {"N"}))
                     for side in (0, 1))
"""Per side, the piece codes :func:`_immobile` can name (§6.14)."""

_C, _MAX, _MIN, _PLY = FigureKind.COUNT, FigureKind.MAX, FigureKind.MIN, FigureKind.PLY
FIGURES: dict[str, Figure] = {
    "plies": Figure(_C, "plies played"),
    "captures": Figure(_C, "pieces captured, both sides", key=True),
    "double_captures": Figure(_C, "moves capturing two pieces"),
    "triple_captures": Figure(_C, "moves capturing three pieces"),
    "igui": Figure(_C, "captures without moving (igui)", key=True),
    "passes": Figure(_C, "passes"),
    "promotions": Figure(_C, "promotions, both sides", key=True),
    "declined_promotions": Figure(_C, "promotions declined"),
    "contagion": Figure(_C, "promotions by contagion"),
    "emperor_moves": Figure(_C, "Emperor moves"),
    "emperor_captures": Figure(_C, "captures by an Emperor"),
    "emperor_protected_captures": Figure(_C, "Emperor captures of a protected piece"),
    "prince_ply": Figure(_PLY, "ply of the first promotion to Prince"),
    "hook_moves": Figure(_C, "moves by hook movers"),
    "hook_turns": Figure(_C, "hook moves that turned"),
    "lion_moves": Figure(_C, "moves by Lion-type pieces"),
    "first_capture_ply": Figure(_PLY, "ply of the first capture", key=True),
    "longest_capture_free": Figure(_MAX, "longest run of plies without a capture"),
    "max_position_occurrences": Figure(_MAX, "most occurrences of one position"),
    "longest_move": Figure(_MAX, "longest move (squares)", key=True),
    "longest_move_ply": Figure(_PLY, "ply of the longest move"),
    "most_legs": Figure(_MAX, "most legs in one move"),
    **{f"{figure}_{side}": Figure(kind, f"{about} ({side})")
       for side in SIDE_KEYS for figure, kind, about in (
           ("moves", _C, "moves"), ("captures", _C, "pieces captured"),
           ("promotions", _C, "promotions"), ("emperor_ply", _PLY, "ply of promotion to Emperor"),
           ("self_checks", _C, "moves leaving the own royal attacked"),
           ("pieces", _C, "pieces at the end"), ("pieces_min", _MIN, "fewest pieces"),
           ("royals", _C, "royal pieces at the end"), ("emperor", _C, "Emperors at the end"),
           ("gold_promoted", _C, "promoted Gold Generals at the end"),
           ("immobile", _C, "permanently immobile pieces at the end"))},
    **{f"captured_{piece.abbr}": Figure(_C, f"{piece.abbr} captured (where any was)")
       for piece in TYPE_OF_ID[1:]},
}
"""How each numeric figure of :meth:`Stats.summary` is summarized over records (§13)."""
