"""The Shih position: walls, pieces, Power Spins, scores; legal turns, captures and the end.

:class:`Position` owns every rules question (G1): which Steps, Spins and Power Spins are
legal (§6–§8), what a rotation captures (§9.2), how a turn is built from actions (§4), when the
game ends (§10), and why a turn named in a record is illegal (:meth:`Position.resolve`, with
the messages of §13). It knows no text format: turn tokens are read in
:mod:`notation_tools.games.shih.notation` (which hands :meth:`Position.resolve` the parsed
token and a way to write one action) and position strings in
:mod:`notation_tools.games.shih.position`.

>>> from notation_tools.games.shih import GAME
>>> pos = GAME.start_position(GAME.parse_rules("standard"))
>>> sum(1 for _ in pos.legal_moves())      # §16 perft(1)
4354
>>> pos.push(GAME.parse_move("b2-b1,c2cw", pos))
>>> pos.turn
1
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal, Union, overload

from notation_tools.games import base
from notation_tools.games.base import IllegalMoveError, MoveSyntaxError, Outcome, Rules
from notation_tools.games.shih.moves import PASS, Action, Move, PowerSpin, Spin, Step, Turn
from notation_tools.games.shih.options import Options
from notation_tools.games.shih.pieces import (ACTION_MP, ADJACENT, BLUE, CCW, COUNT, CW, EMPTY,
                                              LINKS, MP_PER_TURN, NAMES, NEIGHBOURS,
                                              POWER_SPIN_MP, RED, REPETITIONS, RIM,
                                              SIDE_LETTERS, SIDE_NAMES)

_STEPS = tuple({other: Step(space, other) for _side, other in LINKS[space]}
               for space in range(COUNT))
_SPINS = tuple((Spin(space, False), Spin(space, True)) for space in range(COUNT))
_SPACES = range(COUNT)

_Key = tuple[bytes, bytes, tuple[int, ...], tuple[int, ...], int]
"""A position as §3.1 calls it, for repetition (:meth:`Position.key`)."""
_RotationUndo = tuple[int, int, tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]
"""What undoes a rotation: the space, its old wall, the removed (space, side) pieces, and the
score and piece counts before it."""
_ActionUndo = Union[tuple[Literal["step"], Step], tuple[Literal["spin"], _RotationUndo],
                    tuple[Literal["power"], _RotationUndo, tuple[int, ...], int]]
"""What undoes one action (:meth:`Position._do`): a Step; a Spin's rotation; a Power Spin's
rotation, surrendered spaces and mover."""
_State = tuple[list[int], list[int], list[int], list[int], list[int]]
"""Walls, board, spins, score and piece counts, copied."""
ParsedItem = tuple[Any, ...]
"""One action of a written turn as the notation parsed it (:meth:`Position.resolve`): a kind
word first, then squares, a rotation and a surrender list as the kind has them, then the
offset and text in the token."""


@dataclasses.dataclass(frozen=True, slots=True)
class ActionEffect:
    """What one action did: its kind, MP cost, the pieces it captured (opponent pieces sealed
    by the mover), lost (the mover's own, with ``self-capture=yes``) and surrendered, the size
    of each captured region, and whether it ended the game (§14)."""

    kind: str
    mp: int
    captured: tuple[int, ...] = ()
    self_captured: tuple[int, ...] = ()
    surrendered: tuple[int, ...] = ()
    regions: tuple[int, ...] = ()
    ended: bool = False


@dataclasses.dataclass(slots=True)
class _TurnInProgress:
    """A written turn while :meth:`Position.resolve` checks it action by action: what has been
    played (and must be undone), the MP spent, the pieces that may still act, and whether the
    turn was ended early or the game ended inside it."""

    mover: int
    records: list[_ActionUndo] = dataclasses.field(default_factory=list)
    actions: list[Action] = dataclasses.field(default_factory=list)
    effects: list[ActionEffect] = dataclasses.field(default_factory=list)
    texts: list[str] = dataclasses.field(default_factory=list)
    pieces: set[int] | None = None
    mp: int = 0
    early: bool = False
    end_text: str | None = None


class Position(base.Position[Move]):
    """A Shih position (§3.1) under given rules, with a move stack for :meth:`pop`.

    ``walls[i]`` is the side (0 H, 1 S, 2 B) of space ``i``'s wall; ``board[i]`` is -1 (empty),
    0 (Blue) or 1 (Red); ``spins`` and ``score`` are indexed by side; ``turn`` is the side to
    move.
    """

    __slots__ = ("rules", "options", "walls", "board", "spins", "score", "turn", "counts",
                 "quiet", "last_effects", "_stack", "_seen", "_resolved")

    def __init__(self, rules: Rules, walls: Sequence[int], board: Sequence[int],
                 spins: Sequence[int], turn: int, score: Sequence[int] = (0, 0)) -> None:
        self.rules = rules
        self.options: Options = base.options_of(Options, rules)
        self.walls = list(walls)
        self.board = list(board)
        self.spins = list(spins)
        self.score = list(score)
        self.turn = turn
        self.counts = [self.board.count(BLUE), self.board.count(RED)]
        self.quiet = 0
        """Turns in a row without a capture or surrender (``draw-no-capture-turns``, §10)."""
        self.last_effects: tuple[ActionEffect, ...] = ()
        """What each action of the last turn pushed did, as :meth:`effects` says but with
        no ``ended`` flag set (only a turn's last action can end the game); empty after
        :meth:`pop`."""
        # per turn pushed: the turn, the state before it, the side to move and the quiet count
        self._stack: list[tuple[Turn, list[int], list[int], list[int], list[int], list[int],
                                int, int]] = []
        self._seen: dict[_Key, int] = {}
        # the turn resolve() checked last, and the state and effects after it
        self._resolved: tuple[Turn, tuple[list[int], list[int], list[int], list[int],
                                          list[int], tuple[ActionEffect, ...]]] | None = None
        if self.options.threefold:
            self._seen[self.key()] = 1

    # ---- identity ------------------------------------------------------------------------

    def key(self) -> _Key:
        """Everything §3.1 calls the position, as a hashable value (for repetition)."""
        return (bytes(self.walls), bytes(p + 1 for p in self.board), tuple(self.spins),
                tuple(self.score), self.turn)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.key() == other.key()
                and self.rules == other.rules)

    def __hash__(self) -> int:
        return hash(self.key())

    def copy(self) -> Position:
        """An independent copy with the same move stack."""
        new = Position.__new__(Position)
        new.rules, new.options = self.rules, self.options
        new.walls, new.board = self.walls[:], self.board[:]
        new.spins, new.score, new.counts = self.spins[:], self.score[:], self.counts[:]
        new.turn, new.quiet = self.turn, self.quiet
        new.last_effects = self.last_effects
        new._stack = self._stack[:]
        new._resolved = None
        new._seen = dict(self._seen)
        return new

    @property
    def turns_played(self) -> int:
        """Turns pushed since this position was set up (a picture's move number)."""
        return len(self._stack)

    # ---- walls and regions (§5, §9.2) ------------------------------------------------------

    def is_walled(self, space: int, side: int) -> bool:
        """Whether the edge on ``side`` of ``space`` is walled: rim, or either wall on it (§5)."""
        other = NEIGHBOURS[space][side]
        return other == RIM or self.walls[space] == side or self.walls[other] == side

    def region(self, start: int) -> set[int]:
        """The region of ``start``: its component in the open graph (§9.2)."""
        walls = self.walls
        seen = {start}
        stack = [start]
        while stack:
            space = stack.pop()
            own = walls[space]
            for side, other in LINKS[space]:
                if other not in seen and own != side and walls[other] != side:
                    seen.add(other)
                    stack.append(other)
        return seen

    def regions(self) -> list[list[int]]:
        """All regions, each sorted, in board order of their first space."""
        found: list[list[int]] = []
        done: set[int] = set()
        for space in _SPACES:
            if space not in done:
                region = self.region(space)
                done |= region
                found.append(sorted(region))
        return found

    def double_walls(self) -> int:
        """Edges covered by the walls of both spaces sharing them (§5)."""
        walls = self.walls
        return sum(1 for space in _SPACES
                   if NEIGHBOURS[space][walls[space]] > space
                   and walls[NEIGHBOURS[space][walls[space]]] == walls[space])

    def _full_region(self, start: int) -> set[int] | None:
        """The region of ``start`` if it holds no empty space and pieces of one colour only
        (the only kind §9.2 step 4 or 7 can remove), else ``None`` as soon as that fails."""
        walls, board = self.walls, self.board
        owner = board[start]
        if owner == EMPTY:
            return None
        seen = {start}
        stack = [start]
        while stack:
            space = stack.pop()
            own = walls[space]
            for side, other in LINKS[space]:
                if other not in seen and own != side and walls[other] != side:
                    if board[other] != owner:
                        return None
                    seen.add(other)
                    stack.append(other)
        return seen

    def _holds_only(self, region: set[int], side: int) -> bool:
        board = self.board
        return all(board[space] == side for space in region)

    def _was_sealed_full(self, region: set[int], space: int, old: int, opponent: int) -> bool:
        """``already-enclosed=exempt`` (§9.2 step 5): did every space of ``region`` lie, before
        the rotation of ``space`` back from its wall ``old``, in a full all-enemy region?"""
        walls = self.walls
        new = walls[space]
        walls[space] = old
        try:
            checked: set[int] = set()
            for member in region:
                if member in checked:
                    continue
                before = self.region(member)
                if not self._holds_only(before, opponent):
                    return False
                checked |= before
            return True
        finally:
            walls[space] = new

    # ---- applying actions ------------------------------------------------------------------

    def _rotate(self, target: int, clockwise: bool, mover: int) -> tuple[
            _RotationUndo, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """Turn ``target``'s wall and make its captures (§9.2 steps 1–7); return the undo
        record ``(target, old wall, removed pieces, score, counts)`` and the captures."""
        walls, board = self.walls, self.board
        old = walls[target]
        new = CW[old] if clockwise else CCW[old]
        walls[target] = new
        undo: _RotationUndo = (target, old, (), tuple(self.score), tuple(self.counts))
        across = NEIGHBOURS[target][new]
        # Step 1: a wall turned onto the rim or onto the neighbour's wall walls no new edge.
        if across == RIM or walls[across] == new:
            return undo, (), (), ()
        # Steps 2-4. Only a region with no empty space can be taken, so each walk stops at the
        # first empty space or mixed colours. If t and n share a region that is full, step 2
        # forbids the capture; if that shared region holds an empty space, neither can fall.
        options = self.options
        far = self._full_region(across)
        near = None if options.far_only else self._full_region(target)
        if far is not None and target in far:
            return undo, (), (), ()
        opponent = 1 - mover
        captured: list[int] = []
        lost: list[int] = []
        sizes: list[int] = []
        for region in (far, near):
            if region is None:
                continue
            owner = board[across if region is far else target]
            if owner == opponent:
                if options.exempt and self._was_sealed_full(region, target, old, opponent):
                    continue
                captured.extend(region)
                sizes.append(len(region))
            elif options.self_capture:
                lost.extend(region)
        if not captured and not lost:
            return undo, (), (), ()
        removed: list[tuple[int, int]] = []
        for space in captured:
            removed.append((space, opponent))
            board[space] = EMPTY
        for space in lost:
            removed.append((space, mover))
            board[space] = EMPTY
        self.counts[opponent] -= len(captured)
        self.counts[mover] -= len(lost)
        self.score[mover] += len(captured)
        self.score[opponent] += len(lost)
        undo = (target, old, tuple(removed), undo[3], undo[4])
        return undo, tuple(sorted(captured)), tuple(sorted(lost)), tuple(sizes)

    def _unrotate(self, undo: _RotationUndo) -> None:
        target, old, removed, score, counts = undo
        self.walls[target] = old
        for space, side in removed:
            self.board[space] = side
        self.score[:] = score
        self.counts[:] = counts

    def _surrender(self, spaces: tuple[int, ...], mover: int) -> None:
        """Remove the mover's surrendered pieces (§8), crediting the opponent when
        ``surrender-counts-as-capture=yes``."""
        for space in spaces:
            self.board[space] = EMPTY
        self.counts[mover] -= len(spaces)
        if self.options.surrender_counts_as_capture:
            self.score[1 - mover] += len(spaces)

    def _unsurrender(self, spaces: tuple[int, ...], mover: int) -> None:
        for space in spaces:
            self.board[space] = mover
        self.counts[mover] += len(spaces)
        if self.options.surrender_counts_as_capture:
            self.score[1 - mover] -= len(spaces)

    def _do(self, action: Action, mover: int) -> tuple[_ActionUndo, ActionEffect]:
        """Apply one legal action with its captures; return its undo record and effect."""
        if isinstance(action, Step):
            self.board[action.target] = mover
            self.board[action.origin] = EMPTY
            return ("step", action), ActionEffect("step", ACTION_MP)
        undo, captured, lost, sizes = self._rotate(action.target, action.clockwise, mover)
        if isinstance(action, Spin):
            return ("spin", undo), ActionEffect("spin", ACTION_MP, captured, lost, (), sizes)
        self.spins[mover] -= 1
        self._surrender(action.surrender, mover)
        return (("power", undo, action.surrender, mover),
                ActionEffect("power-spin", POWER_SPIN_MP, captured, lost, action.surrender,
                             sizes))

    def _undo(self, record: _ActionUndo) -> None:
        if record[0] == "step":
            action = record[1]
            self.board[action.origin] = self.board[action.target]
            self.board[action.target] = EMPTY
        elif record[0] == "spin":
            self._unrotate(record[1])
        else:
            _kind, undo, surrendered, mover = record
            self._unsurrender(surrendered, mover)
            self._unrotate(undo)
            self.spins[mover] += 1

    # ---- the end of the game (§10) ---------------------------------------------------------

    def _simultaneous(self, mover: int, what: str) -> Outcome:
        rule = self.options.simultaneous_nine
        if rule == "mover-wins":
            return Outcome(mover, "simultaneous", f"{what}; simultaneous-nine=mover-wins")
        if rule == "mover-loses":
            return Outcome(1 - mover, "simultaneous", f"{what}; simultaneous-nine=mover-loses")
        return Outcome(None, "simultaneous", f"{what}; simultaneous-nine=draw")

    def decided(self, mover: int) -> Outcome | None:
        """The end decided by the last action of ``mover``: a capture count at the threshold,
        or a side without pieces (§10). Draw rules and stuck players are :meth:`outcome`'s."""
        threshold = self.options.win_threshold
        score = self.score
        other = 1 - mover
        if score[mover] >= threshold or score[other] >= threshold:
            if score[mover] >= threshold and score[other] >= threshold:
                return self._simultaneous(
                    mover, f"both sides captured {threshold} (Blue {score[0]}, Red {score[1]})")
            winner = mover if score[mover] >= threshold else other
            return Outcome(winner, "threshold", f"{SIDE_NAMES[winner]} captured {score[winner]}")
        counts = self.counts
        if counts[mover] == 0 or counts[other] == 0:
            if counts[mover] == 0 and counts[other] == 0:
                return self._simultaneous(mover, "neither side has a piece left")
            loser = mover if counts[mover] == 0 else other
            return Outcome(1 - loser, "no-pieces", f"{SIDE_NAMES[loser]} has no pieces left")
        return None

    def outcome(self) -> Outcome | None:
        """How the game has ended, or ``None`` (§10).

        Checks, in order: the capture threshold and a side without pieces (judged for the
        side that moved last), ``draw-no-capture-turns``, ``draw-repetition``, and with
        ``no-legal-action=lose`` a side to move that has no legal action.
        """
        options = self.options
        ended = self.decided(1 - self.turn)
        if ended is not None:
            return ended
        quiet_limit = options.draw_no_capture_turns
        if quiet_limit is not None and self.quiet >= quiet_limit:
            return Outcome(None, "no-capture-turns",
                           f"{self.quiet} turns without a capture (draw-no-capture-turns)")
        if options.threefold and self._seen.get(self.key(), 0) >= REPETITIONS:
            return Outcome(None, "repetition", "third occurrence of the position")
        if options.lose_if_stuck and not self.has_legal_action():
            return Outcome(1 - self.turn, "no-legal-action",
                           f"{SIDE_NAMES[self.turn]} has no legal action (no-legal-action=lose)")
        return None

    # ---- legal actions (§6–§8) -------------------------------------------------------------

    def viewers(self, target: int, mover: int) -> list[int]:
        """The mover's pieces that can see ``target``: adjacent, and their own wall not on the
        shared edge (§7, conditions 2 and 3; the target's wall may lie there, condition 4)."""
        board, walls = self.board, self.walls
        return [other for side, other in LINKS[target]
                if board[other] == mover and walls[other] != side]

    def one_mp_actions(self, mover: int, pieces: set[int] | None = None) -> list[Action]:
        """Every legal Step and Spin for ``mover`` (§6, §7); ``pieces`` restricts them to the
        one piece allowed by ``allow-split-mp-between-pieces=no`` (its possible places)."""
        board, walls = self.board, self.walls
        actions: list[Action] = []
        both = not self.options.cw_only
        for space in _SPACES:
            if board[space] != mover or (pieces is not None and space not in pieces):
                continue
            own = walls[space]
            steps = _STEPS[space]
            for side, other in LINKS[space]:
                if board[other] == EMPTY and own != side and walls[other] != side:
                    actions.append(steps[other])
        for space in _SPACES:
            if board[space] != EMPTY:
                continue
            for side, other in LINKS[space]:
                if (board[other] == mover and walls[other] != side
                        and (pieces is None or other in pieces)):
                    actions.append(_SPINS[space][1])
                    if both:
                        actions.append(_SPINS[space][0])
                    break
        return actions

    def _has_one_mp_action(self, mover: int, pieces: set[int] | None = None) -> bool:
        # A piece whose own wall does not face an empty neighbour can Spin it (§7); every
        # legal Step needs that too, so this one test decides both.
        board, walls = self.board, self.walls
        for space in _SPACES:
            if board[space] != mover or (pieces is not None and space not in pieces):
                continue
            own = walls[space]
            for side, other in LINKS[space]:
                if board[other] == EMPTY and own != side:
                    return True
        return False

    def _can_power_spin(self, mover: int) -> bool:
        return self.spins[mover] > 0 and self.counts[mover] < COUNT

    def has_legal_action(self) -> bool:
        """Whether the side to move has any legal action at the start of its turn (§4)."""
        return self._has_one_mp_action(self.turn) or self._can_power_spin(self.turn)

    def _pieces_after(self, action: Action, pieces: set[int] | None) -> set[int] | None:
        """Where the one piece of ``allow-split-mp-between-pieces=no`` may be after ``action``
        (None when the rule is off): the stepped piece, or the viewers of the Spin."""
        if self.options.allow_split_mp_between_pieces:
            return None
        if type(action) is Step:
            return {action.target}
        places = set(self.viewers(action.target, self.turn))
        return places if pieces is None else places & pieces

    def _power_spins(self) -> Iterator[tuple[PowerSpin, int, list[int]]]:
        """Each Power Spin target and direction with its capture count and the mover's pieces
        left to surrender (§8); the position is restored between yields."""
        mover = self.turn
        if self.spins[mover] <= 0:
            return
        directions = (True,) if self.options.cw_only else (True, False)
        board = self.board
        for target in _SPACES:
            if board[target] == mover:
                continue
            for clockwise in directions:
                undo, captured, _lost, _sizes = self._rotate(target, clockwise, mover)
                own = [space for space in _SPACES if board[space] == mover] if captured else []
                self._unrotate(undo)
                yield PowerSpin(target, clockwise), len(captured), own

    def generate_legal_moves(self, *, origin: int | None = None,
                             target: int | None = None) -> Iterator[Turn]:
        """Every legal turn (§4, §12.1): ``--`` where allowed, one action then ``--``, two
        actions, and each Power Spin with every surrender set. ``origin`` keeps the turns whose
        first action is a Step from that space, ``target`` those whose first action ends on
        (or turns) that space. Empty when the game is over.

        >>> from notation_tools.games.shih import GAME
        >>> from notation_tools.games.shih.pieces import INDEX
        >>> pos = GAME.start_position(GAME.parse_rules("standard"))
        >>> sorted(GAME.format_move(m, pos) for m in pos.legal_moves(origin=INDEX["b2"]))[:3]
        ['b2-b1,--', 'b2-b1,a1-b2', 'b2-b1,b1-b2']
        """
        turns = list(self._turns(count_only=False))
        if origin is not None:
            turns = [turn for turn in turns if turn.actions
                     and getattr(turn.actions[0], "origin", None) == origin]
        if target is not None:
            turns = [turn for turn in turns if turn.actions and turn.actions[0].target == target]
        return iter(turns)

    def count_legal_moves(self) -> int:
        """``len(list(legal_moves()))`` without building the turns (for perft)."""
        return sum(self._turns(count_only=True))

    @overload
    def _turns(self, count_only: Literal[True]) -> Iterator[int]: ...

    @overload
    def _turns(self, count_only: Literal[False]) -> Iterator[Turn]: ...

    def _turns(self, count_only: bool) -> Iterator[Turn | int]:
        if self.outcome() is not None:
            return
        early_end = self.options.allow_early_end
        mover = self.turn
        firsts = self.one_mp_actions(mover)
        power = self._can_power_spin(mover)
        if not firsts and not power:
            yield 1 if count_only else PASS  # no legal action: the empty turn (§4)
            return
        if early_end:
            yield 1 if count_only else PASS
        for first in firsts:
            record, _effect = self._do(first, mover)
            try:
                if self.decided(mover) is not None:
                    yield 1 if count_only else Turn((first,))
                    continue
                seconds = self.one_mp_actions(mover, self._pieces_after(first, None))
                if early_end or not seconds:
                    yield 1 if count_only else Turn((first,), True)
                if count_only:
                    yield len(seconds)
                else:
                    for second in seconds:
                        yield Turn((first, second))
            finally:
                self._undo(record)
        if power:
            for spin, captured, own in self._power_spins():
                if not captured:
                    yield 1 if count_only else Turn((spin,))
                    continue
                size = min(captured, len(own))
                if count_only:
                    yield math.comb(len(own), size)
                else:
                    for chosen in itertools.combinations(own, size):
                        yield Turn((PowerSpin(spin.target, spin.clockwise, chosen),))

    # ---- push / pop ------------------------------------------------------------------------

    def push(self, move: Turn) -> None:
        """Play a turn. Trusts that it came from :meth:`legal_moves` or :meth:`resolve`."""
        resolved, self._resolved = self._resolved, None
        self._stack.append((move, self.walls[:], self.board[:], self.spins[:], self.score[:],
                            self.counts[:], self.turn, self.quiet))
        mover = self.turn
        pieces = self.counts[0] + self.counts[1]
        if resolved is not None and resolved[0] is move:
            # The turn resolve() just checked here: the state after it is already worked out.
            (self.walls, self.board, self.spins, self.score, self.counts,
             self.last_effects) = resolved[1]
        else:
            self.last_effects = tuple([self._do(action, mover)[1] for action in move.actions])
        # Every capture, self-capture and surrender takes pieces off the board (§10).
        self.quiet = 0 if self.counts[0] + self.counts[1] != pieces else self.quiet + 1
        self.turn = 1 - mover
        if self.options.threefold:
            key = self.key()
            self._seen[key] = self._seen.get(key, 0) + 1

    def pop(self) -> Turn:
        """Take back the last turn and return it."""
        if self.options.threefold:
            key = self.key()
            left = self._seen[key] - 1
            if left:
                self._seen[key] = left
            else:
                del self._seen[key]
        move, walls, board, spins, score, counts, turn, quiet = self._stack.pop()
        self.last_effects = ()
        self._resolved = None
        # Copies, because a copy() of this position may hold the same stack entry.
        self.walls, self.board, self.spins, self.score = walls[:], board[:], spins[:], score[:]
        self.counts, self.turn, self.quiet = counts[:], turn, quiet
        return move

    # ---- explaining a turn -----------------------------------------------------------------

    def effects(self, move: Turn) -> list[ActionEffect]:
        """What each action of a legal turn does (captures, surrender, end), without changing
        the position (§14's per-action report)."""
        mover = self.turn
        records = []
        found = []
        try:
            for action in move.actions:
                record, effect = self._do(action, mover)
                records.append(record)
                if self.decided(mover) is not None:
                    effect = dataclasses.replace(effect, ended=True)
                found.append(effect)
        finally:
            for record in reversed(records):
                self._undo(record)
        return found

    def wall_sides(self, move: Turn) -> list[int]:
        """The side each rotation of ``move`` leaves its wall on (for ``=H``/``=S``/``=B``),
        ``-1`` for Steps; the position is unchanged."""
        mover = self.turn
        records = []
        sides = []
        try:
            for action in move.actions:
                if isinstance(action, Step):
                    sides.append(-1)
                else:
                    old = self.walls[action.target]
                    sides.append(CW[old] if action.clockwise else CCW[old])
                record, _effect = self._do(action, mover)
                records.append(record)
        finally:
            for record in reversed(records):
                self._undo(record)
        return sides

    # ---- resolving a written turn (§12.1, §13) ---------------------------------------------

    def resolve(self, items: Sequence[ParsedItem], describe: Callable[[Action], str]) -> Turn:
        """The legal turn named by parsed token ``items``, or the reason it is illegal.

        Each item is ``("step", origin, target, offset, text)``, ``("spin", target, rotation,
        offset, text)``, ``("power", target, rotation, surrender, offset, text)`` with
        ``surrender`` a tuple of ``(space, offset)``, or ``("end", offset, "--")``; a rotation
        is ``"cw"``, ``"ccw"`` or a wall letter. ``describe`` writes an action the way the
        notation does, for messages that suggest one (the rules hold no text format). Raises
        IllegalMoveError (codes E-ILLEGAL-MOVE, E-MOVE-AFTER-END) with the §13 message and the
        rule's section. The position is unchanged afterwards.
        """
        ended = self.outcome()
        if ended is not None:
            text = items[0][-1] if items else "--"
            raise IllegalMoveError(f"{text}: the game is over ({ended.detail})",
                                   code="E-MOVE-AFTER-END", rule="§10")
        turn = _TurnInProgress(self.turn)
        try:
            for index, item in enumerate(items):
                if item[0] == "end":
                    self._resolve_end(turn, item, index == len(items) - 1, describe)
                    break
                self._resolve_action(turn, item)
            if not turn.early and turn.mp < MP_PER_TURN and turn.end_text is None:
                written = ",".join(turn.texts)
                raise IllegalMoveError(f"turn spends {turn.mp} of 2 MP; write '{written},--' to "
                                       "end it early", rule="§12.1", offset=len(written))
            played = (self.walls[:], self.board[:], self.spins[:], self.score[:],
                      self.counts[:], tuple(turn.effects))
        finally:
            for record in reversed(turn.records):
                self._undo(record)
        resolved = Turn(tuple(turn.actions), turn.early)
        # Kept until the next push or pop, so that pushing this turn next takes the played
        # state instead of playing the actions again.
        self._resolved = (resolved, played)
        return resolved

    def _resolve_end(self, turn: _TurnInProgress, item: ParsedItem, last: bool,
                     describe: Callable[[Action], str]) -> None:
        """The end mark ``--`` (§12.1): last, only while MP remain, and under
        ``allow-early-end=no`` only when no legal action remains."""
        _kind, offset, text = item
        if turn.end_text is not None:
            raise IllegalMoveError(f"{text}: the game ended after {turn.end_text}",
                                   code="E-MOVE-AFTER-END", rule="§4", offset=offset)
        if not last:
            raise MoveSyntaxError("nothing may follow the end mark '--'",
                                  rule="§12.1", offset=offset + len(text))
        if turn.mp >= MP_PER_TURN:
            if type(turn.actions[0]) is PowerSpin:
                raise IllegalMoveError("Power Spin needs 2 MP: it must be the "
                                       "whole turn (-- follows it)", rule="§8",
                                       offset=offset)
            raise IllegalMoveError("a turn has 2 MP: both are spent, so no '--' "
                                   "may follow", rule="§12.1", offset=offset)
        if not self.options.allow_early_end:
            self._check_early_end(turn.mover, turn.mp, turn.pieces, offset, describe)
        turn.early = True

    def _resolve_action(self, turn: _TurnInProgress, item: ParsedItem) -> None:
        """One written action of the turn, checked and played (§4, §6–§8)."""
        kind, offset, text = item[0], item[-2], item[-1]
        mover = turn.mover
        if turn.end_text is not None:
            raise IllegalMoveError(f"{text}: the game ended after {turn.end_text}",
                                   code="E-MOVE-AFTER-END", rule="§4", offset=offset)
        if turn.mp >= MP_PER_TURN:
            if turn.actions and type(turn.actions[0]) is PowerSpin:
                raise IllegalMoveError("Power Spin needs 2 MP: it must be the whole "
                                       f"turn ({text} follows it)", rule="§8",
                                       offset=offset)
            raise IllegalMoveError(f"a turn has 2 MP: third action {text}", rule="§4",
                                   offset=offset)
        action: Action
        if kind == "power":
            if turn.mp:
                raise IllegalMoveError("Power Spin needs 2 MP: it must be the whole "
                                       "turn", rule="§8", offset=offset)
            action, record, effect = self._resolve_power(item, mover)
        else:
            if kind == "step":
                action = self._resolve_step(item, mover)
            else:
                action = self._resolve_spin(item, mover)
            if not self.options.allow_split_mp_between_pieces and turn.actions:
                self._check_one_piece(action, turn.pieces, text, turn.texts[0], offset)
            new_pieces = self._pieces_after(action, turn.pieces)
            record, effect = self._do(action, mover)
            turn.pieces = new_pieces
            if turn.pieces is not None:
                turn.pieces = {space for space in turn.pieces if self.board[space] == mover}
        turn.records.append(record)
        turn.actions.append(action)
        turn.effects.append(effect)
        turn.texts.append(text)
        turn.mp += POWER_SPIN_MP if kind == "power" else ACTION_MP
        outcome = self.decided(mover)
        if outcome is not None:
            turn.end_text = f"{text} ({outcome.detail})"

    def _check_early_end(self, mover: int, mp: int, pieces: set[int] | None, offset: int,
                         describe: Callable[[Action], str]) -> None:
        """``allow-early-end=no`` (§4): ``--`` only when no legal action remains; the message
        names one that does, written by ``describe``."""
        remaining = self.one_mp_actions(mover, pieces)
        if remaining:
            example: Action = remaining[0]
        elif mp == 0 and self._can_power_spin(mover):
            example = next(self._power_spins())[0]
        else:
            return
        raise IllegalMoveError(f"allow-early-end=no: a legal action remains (e.g. "
                               f"{describe(example)})", rule="§4", offset=offset)

    def _check_one_piece(self, action: Action, pieces: set[int] | None, text: str,
                         first: str, offset: int) -> None:
        """``allow-split-mp-between-pieces=no`` (§4): one piece makes both actions."""
        if pieces is None:
            return
        if type(action) is Step:
            good = action.origin in pieces
        else:
            good = bool(pieces.intersection(self.viewers(action.target, self.turn)))
        if not good:
            raise IllegalMoveError(f"allow-split-mp-between-pieces=no: {text} uses a "
                                   f"different piece than {first}", rule="§4", offset=offset)

    def _resolve_step(self, item: ParsedItem, mover: int) -> Step:
        """A Step's conditions, in the order of §6 (own piece, adjacency, empty, open edge)."""
        origin: int
        target: int
        _kind, origin, target, offset, text = item
        name = SIDE_NAMES[mover]
        if self.board[origin] != mover:
            raise IllegalMoveError(f"step {text}: {NAMES[origin]} holds no {name} piece",
                                   rule="§6", offset=offset)
        side = ADJACENT[origin].get(target)
        if side is None:
            raise IllegalMoveError(f"step {text}: {NAMES[origin]} and {NAMES[target]} do not "
                                   "share a side", rule="§1.4", offset=offset)
        if self.board[target] != EMPTY:
            raise IllegalMoveError(f"step {text}: {NAMES[target]} is occupied", rule="§6",
                                   offset=offset)
        owners = [NAMES[space] for space in (origin, target) if self.walls[space] == side]
        if owners:
            whose = (f"{owners[0]}'s wall" if len(owners) == 1
                     else f"{owners[0]}'s and {owners[1]}'s walls, a double wall")
            raise IllegalMoveError(f"step {text}: the edge {NAMES[origin]}/{NAMES[target]} is "
                                   f"walled ({whose})", rule="§6", offset=offset)
        return _STEPS[origin][target]

    def _direction(self, target: int, rotation: str, text: str, offset: int,
                   what: str) -> bool:
        """Clockwise or not, from ``cw``/``ccw`` or the wall letter it ends on (§12.1)."""
        if rotation == "cw":
            clockwise = True
        elif rotation == "ccw":
            clockwise = False
        else:
            old = self.walls[target]
            side = SIDE_LETTERS.index(rotation)
            if side == old:
                raise IllegalMoveError(f"{text}: the wall of {NAMES[target]} is already on "
                                       f"{rotation}", rule="§7", offset=offset)
            clockwise = CW[old] == side
        if not clockwise and self.options.cw_only:
            raise IllegalMoveError(f"{what} {NAMES[target]}: spin-directions=cw-only allows "
                                   "only clockwise turns", rule="§7", offset=offset)
        return clockwise

    def _resolve_spin(self, item: ParsedItem, mover: int) -> Spin:
        """A Spin's conditions (§7): empty target, a viewer whose wall does not face it."""
        target: int
        _kind, target, rotation, offset, text = item
        name = SIDE_NAMES[mover]
        if self.board[target] != EMPTY:
            raise IllegalMoveError(f"spin {NAMES[target]}: {NAMES[target]} is occupied (use a "
                                   "Power Spin)", rule="§7", offset=offset)
        clockwise = self._direction(target, rotation, text, offset, "spin")
        if not self.viewers(target, mover):
            blocked = [NAMES[other] for _side, other in LINKS[target]
                       if self.board[other] == mover]
            if not blocked:
                raise IllegalMoveError(f"spin {NAMES[target]}: no {name} piece is next to "
                                       f"{NAMES[target]}", rule="§7", offset=offset)
            walls = (f"{blocked[0]}'s own wall faces it" if len(blocked) == 1 else
                     " and ".join(f"{space}'s" for space in blocked) + " own walls face it")
            raise IllegalMoveError(f"spin {NAMES[target]}: no {name} piece can see "
                                   f"{NAMES[target]} ({walls})", rule="§7", offset=offset)
        return _SPINS[target][clockwise]

    def _resolve_power(self, item: ParsedItem,
                       mover: int) -> tuple[PowerSpin, _ActionUndo, ActionEffect]:
        """A Power Spin (§8): a spin left, a non-own target, then captures and the surrender
        list checked against them. Returns the spin and its undo record (it stays applied)."""
        _kind, target, rotation, surrender, offset, text = item
        name = SIDE_NAMES[mover]
        where = NAMES[target]
        if self.board[target] == mover:
            raise IllegalMoveError(f"Power Spin {where}: {where} holds a {name} piece",
                                   rule="§8", offset=offset)
        if self.spins[mover] <= 0:
            raise IllegalMoveError(f"Power Spin {where}: {name} has no Power Spins left",
                                   rule="§8", offset=offset)
        clockwise = self._direction(target, rotation, text, offset, "Power Spin")
        undo, captured, _lost, _sizes = self._rotate(target, clockwise, mover)
        try:
            chosen: list[int] = []
            if surrender and not captured:
                raise IllegalMoveError(f"Power Spin {where} captured nothing; no surrender "
                                       "list allowed", rule="§8", offset=surrender[0][1])
            for space, at in surrender:
                if self.board[space] != mover:
                    raise IllegalMoveError(f"surrender {NAMES[space]}: not a {name} piece",
                                           rule="§8", offset=at)
                if space in chosen:
                    raise IllegalMoveError(f"surrender {NAMES[space]}: named twice",
                                           rule="§12.1", offset=at)
                chosen.append(space)
            own = self.counts[mover]
            wanted = min(len(captured), own)
            if len(chosen) != wanted:
                noun = "piece" if len(captured) == 1 else "pieces"
                extra = f" ({name} has only {own} left: all of them)" if own < len(captured) else ""
                raise IllegalMoveError(f"Power Spin {where} captured {len(captured)} {noun}; "
                                       f"the surrender list names {len(chosen)}{extra}",
                                       rule="§8", offset=len(text))
        finally:
            self._unrotate(undo)
        action = PowerSpin(target, clockwise, tuple(sorted(chosen)))
        record, effect = self._do(action, mover)
        return action, record, effect
