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

from notation_tools.games.base import Figure, FigureKind, Outcome, Rules, StatsCollector, options_of

from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.options import Options
from notation_tools.games.maka.pieces import (ABBR_OF_ID, COL, DIAGONAL, EMPEROR_ID, GP_ID,
                                              KNIGHT_STUCK_RANKS, LAST_RANK_STUCK, NCODES,
                                              PIECES_PER_SIDE, ROW, ROYAL_IDS, SIDE_NAMES, SIZE, TYPE_ID, TYPE_OF_ID,
                                              Tables, compile_tables, distances_from, square_name)
from notation_tools.games.maka.rules import OPENING_MARKS, Position

SIDE_KEYS = ("black", "white")


def describe_move(move: Move, position: Position) -> dict[str, Any]:
    """The facts of a legal move for ``moves`` listings: piece, captures, what it becomes."""
    board = position.board
    return {"piece": ABBR_OF_ID[board[move.origin] >> 1], "captures": len(move.captures),
            "captured": ", ".join(f"{ABBR_OF_ID[board[c] >> 1]}@{square_name(c)}"
                                  for c in move.captures),
            "becomes": ABBR_OF_ID[move.becomes]}


class Stats(StatsCollector[Position, Move]):
    """Gathers §13's per-record figures while a record is replayed (the same figures under
    every rule option)."""

    def __init__(self, rules: Rules) -> None:
        t = compile_tables(options_of(Options, rules).choices)
        self.plies = 0
        """The plies noted so far: the last ones of the position's history."""
        self.captures = [0, 0]
        self.captured_types: Counter[str] = Counter()
        self.multi: Counter[int] = Counter()
        self.promotions = [0, 0]
        self.promotion_list: list[str] = []
        self.declined = 0
        self.contagion = 0
        self.emperor_ply: list[int | None] = [None, None]
        self.emperor_protected = 0
        self.prince_ply: int | None = None
        self.royal_capture_plies: list[int] = []
        self.capture_plies: list[int] = []
        self.self_checks = [0, 0]
        self._watches: list[tuple[int, bytearray] | None] = [None, None]
        """Per side, ``(royal square, attack watch)`` while its one royal is known not to be
        attacked in the live position (:meth:`Position.attack_watch`, kept up to date move by
        move); None when not known."""
        self._hook = t.hook
        """The hook movers' kinds per piece code (§6.4)."""
        self._kinds = _kinds(t)
        self._distances = distances_from()
        self._igui_passes = [0, 0]
        self._longest = 0
        self._longest_ply: int | None = None
        self._legs = 0
        self._special: list[tuple[int, Move]] = []
        """The code and the move of each ply by a piece of :func:`_kinds` (Emperor, hook
        mover, Lion-type), whose figures :meth:`summary` counts."""

    def before_move(self, before: Position, move: Move) -> None:
        """Note ``move``, about to be played from the live position ``before`` (§13 "per
        move"; every figure is judged in the position before the move). Only a capture needs
        that position (:meth:`_note_captures`); :meth:`after_move` notes the other per-move
        figures."""
        if move.captures:
            self._note_captures(before, move)

    def _note_captures(self, before: Position, move: Move) -> None:
        """The figures of a capturing move (§6.8 and §6.9: only a capture promotes or
        converts; §6.6: whether an Emperor took a protected piece)."""
        board = before.board
        captures = move.captures
        code = board[move.origin]
        side = code & 1
        ply = self.plies + 1
        n = len(captures)
        self.captures[side] += n
        for c in captures:
            self.captured_types[ABBR_OF_ID[board[c] >> 1]] += 1
        self.capture_plies.append(ply)
        if n >= 2:
            self.multi[n] += 1
        if any(board[c] >> 1 in ROYAL_IDS for c in captures):
            self.royal_capture_plies.append(ply)
            self._watches = [None, None]
        if move.becomes in ROYAL_IDS:
            self._watches = [None, None]
        kind = before.promotion_kind(move)
        if kind == "promote":
            self.promotions[side] += 1
            became = ABBR_OF_ID[move.becomes]
            self.promotion_list.append(f"{ABBR_OF_ID[code >> 1]}>{became}")
            if became == "E":
                self.emperor_ply[side] = ply
            if became == "Pr" and self.prince_ply is None:
                self.prince_ply = ply
        elif kind == "decline":
            self.declined += 1
        elif kind == "contagion":
            self.contagion += 1
        # judged by the default restriction (unprotected) even when allowed (§13)
        if before.t.emperor[code] and before.emperor_defended(move.origin, move.target) \
                is not None:
            self.emperor_protected += 1

    def after_move(self, after: Position) -> None:
        """Note the live position after the move given to :meth:`before_move`.

        The self-check figure asks whether the mover's one royal is attacked now. Each
        side's watch follows its royal move by move: a move is judged against both watches
        (as a move of the attacking side against the other side's, as one of the side itself
        against its own), and only a move that changes a square marked there (for the side
        itself, vacates one with :data:`OPENING_MARKS`), or moves or makes a hook mover of the
        attacking side, can have left the royal attacked (:meth:`Position.may_attack_anew`,
        which is asked then). A move that makes a royal (an Emperor among them) or captures
        one was seen by :meth:`before_move`, which drops both watches. When the mover's
        watch is lost, the full test decides, and a new watch is made."""
        plies = self.plies = self.plies + 1
        move, code, _, _ = after.stack[-1]
        origin, target, captures = move.origin, move.target, move.captures
        # the per-move figures, while the move is at hand
        length = self._distances[origin][target]
        if length > self._longest:
            self._longest, self._longest_ply = length, plies
        elif not length:  # the piece stayed: igui, or a pass
            self._igui_passes[not captures] += 1
        legs = len(move.path)
        if legs > self._legs:
            self._legs = legs
        if self._kinds[code]:
            self._special.append((code, move))
        # the self-check figure
        mover = code & 1
        watches = self._watches
        mine, theirs = watches[mover], watches[1 - mover]
        if mine is not None:
            watch = mine[1]
            if _IS_ROYAL[code] or (watch[origin] & OPENING_MARKS or captures and any(
                    map(watch.__getitem__, captures))) \
                    and after.may_attack_anew(mine[0], 1 - mover, 1, watch):
                mine = watches[mover] = None
        if theirs is not None:
            watch = theirs[1]
            if (watch[origin] or watch[target]
                    or self._hook[move.becomes * 2 + mover] is not None
                    or captures and any(map(watch.__getitem__, captures))) \
                    and after.may_attack_anew(theirs[0], mover, 1, watch):
                watches[1 - mover] = None
        if mine is None:
            if after.self_check_by(mover) is not None:
                self.self_checks[mover] += 1
                return
            royals = after.royals(mover)
            # an Emperor of the other side can capture from anywhere (§6.6): no watch then
            if len(royals) == 1 and not after.squares[EMPEROR_ID * 2 + 1 - mover]:
                watches[mover] = (royals[0], after.attack_watch(royals[0], 1 - mover))

    def _moves_figures(self, final: Position) -> dict[str, Any]:
        """The figures of §13 of the moves noted, and the most occurrences of one position:
        the last :attr:`plies` entries of ``final``'s history are the moves noted (a push
        appends one, and the collector sees every push of its line)."""
        stack = final.stack
        plies = self.plies
        per_side = [plies // 2, plies // 2]
        if plies:
            per_side[stack[len(stack) - plies][1] & 1] += plies % 2  # the sides take turns (§6.1)
        emperor_moves = emperor_captures = hook_moves = hook_turns = lion_moves = 0
        kinds, hook = self._kinds, self._hook
        for code, move in self._special:
            kind = kinds[code]
            if kind & _EMPEROR:
                emperor_moves += 1
                if move.captures:
                    emperor_captures += 1
            if kind & _HOOK:
                hook_moves += 1
                origin, target = move.origin, move.target
                dr, dc = ROW[target] - ROW[origin], COL[target] - COL[origin]
                aligned = dr == 0 or dc == 0 or abs(dr) == abs(dc)
                diagonal = hook[code] is DIAGONAL
                if not aligned or (diagonal and (dr == 0 or dc == 0)) or (
                        not diagonal and dr != 0 and dc != 0):
                    hook_turns += 1
            if kind & _LION:
                lion_moves += 1
        # A position's count only grows along the line, so its final count is the count it
        # had the last time it occurred. From the start position, the keys counted are its
        # own and those after each ply; else those after each ply are picked: the keys
        # before the next ply, then the final one.
        counts = final.counts
        if not plies:
            most = 1
        elif len(stack) == plies:
            most = max(counts.values())
        else:
            most = max(1, counts[final.key],
                       *(counts[entry[3]] for entry in stack[len(stack) - plies + 1:]))
        return {
            "moves": per_side,
            "igui": self._igui_passes[0], "passes": self._igui_passes[1],
            "emperor_moves": emperor_moves, "emperor_captures": emperor_captures,
            "hook_moves": hook_moves, "hook_turns": hook_turns, "lion_moves": lion_moves,
            "max_position_occurrences": most,
            "longest_move": self._longest,
            "longest_move_ply": self._longest_ply,
            "most_legs": self._legs,
        }

    def summary(self, final: Position, outcome: Outcome | None) -> dict[str, Any]:
        """Flat figures (§13); ``captures`` is the total number of captured pieces."""
        per_move = self._moves_figures(final)
        moves = per_move["moves"]
        quiet = last = 0
        for ply in self.capture_plies:
            quiet, last = max(quiet, ply - 1 - last), ply
        data: dict[str, Any] = {
            "plies": self.plies,
            "moves_black": moves[0],
            "moves_white": moves[1],
            "end": outcome.reason if outcome else "ongoing",
            "winner": None if outcome is None or outcome.winner is None
            else SIDE_NAMES[outcome.winner],
            "captures": sum(self.captures),
            "captures_black": self.captures[0],
            "captures_white": self.captures[1],
            "captured_types": ", ".join(f"{k} {v}" for k, v in sorted(self.captured_types.items())),
            "double_captures": self.multi[2],
            "triple_captures": self.multi[3],
            "igui": per_move["igui"],
            "passes": per_move["passes"],
            "promotions": sum(self.promotions),
            "promotions_black": self.promotions[0],
            "promotions_white": self.promotions[1],
            "promotion_list": ", ".join(self.promotion_list),
            "declined_promotions": self.declined,
            "contagion": self.contagion,
            "emperor_ply_black": self.emperor_ply[0],
            "emperor_ply_white": self.emperor_ply[1],
            "emperor_moves": per_move["emperor_moves"],
            "emperor_captures": per_move["emperor_captures"],
            "emperor_protected_captures": self.emperor_protected,
            "prince_ply": self.prince_ply,
            "royal_capture_plies": ", ".join(map(str, self.royal_capture_plies)),
            "hook_moves": per_move["hook_moves"],
            "hook_turns": per_move["hook_turns"],
            "lion_moves": per_move["lion_moves"],
            "first_capture_ply": self.capture_plies[0] if self.capture_plies else None,
            "longest_capture_free": max(quiet, self.plies - last),
            "max_position_occurrences": per_move["max_position_occurrences"],
            "longest_move": per_move["longest_move"],
            "longest_move_ply": per_move["longest_move_ply"],
            "most_legs": per_move["most_legs"],
            "self_checks_black": self.self_checks[0],
            "self_checks_white": self.self_checks[1],
        }
        squares = final.squares
        for s, key in enumerate(SIDE_KEYS):
            pieces = final.piece_count(s)
            data[f"pieces_{key}"] = pieces
            # no piece comes back (§6.1), so the fewest are those at the end; before any ply
            # the figure is capped at the start count
            data[f"pieces_min_{key}"] = pieces if self.plies else min(PIECES_PER_SIDE, pieces)
            data[f"royals_{key}"] = len(final.royals(s))
            data[f"emperor_{key}"] = len(squares[EMPEROR_ID * 2 + s])
            data[f"gold_promoted_{key}"] = len(squares[GP_ID * 2 + s])
            # the cheap geometric test first: move generation only for pieces it names
            data[f"immobile_{key}"] = sum(
                1 for code in _STUCK_CODES[s] for sq in squares[code]
                if _immobile(sq, code) and not final.piece_moves(sq, code))
        for abbr, count in sorted(self.captured_types.items()):
            data[f"captured_{abbr}"] = count
        return data


_EMPEROR, _HOOK, _LION = 1, 2, 4
"""The kinds of piece whose moves have figures of their own (:func:`_kinds`)."""
_IS_ROYAL = tuple(code >> 1 in ROYAL_IDS for code in range(NCODES))
"""Per piece code, whether it is a royal piece (§6.10)."""
_KINDS: dict[int, tuple[Tables, tuple[int, ...]]] = {}
""":func:`_kinds` by the id of its tables, kept with them (the records of a file mostly share
their rules)."""


def _kinds(t: Tables) -> tuple[int, ...]:
    """Per piece code, its :data:`_EMPEROR`, :data:`_HOOK` and :data:`_LION` marks under the
    rules of ``t`` (0 for most pieces)."""
    known = _KINDS.get(id(t))
    if known is None or known[0] is not t:
        known = _KINDS[id(t)] = (t, tuple(
            (_EMPEROR if t.emperor[code] else 0) | (_HOOK if t.hook[code] is not None else 0)
            | (_LION if t.lion[code] or t.ldog[code] else 0) for code in range(NCODES)))
    return known[1]


def _immobile(sq: int, code: int) -> bool:
    """The permanently stuck pieces of §6.14 (last rank or, for a Knight, last two)."""
    abbr = ABBR_OF_ID[code >> 1]
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
    **{f"captured_{piece.abbr}": Figure(_C, f"{piece.name} ({piece.abbr}) captured")
       for piece in TYPE_OF_ID[1:]},
}
"""How each numeric figure of :meth:`Stats.summary` is summarized over records (§13)."""
