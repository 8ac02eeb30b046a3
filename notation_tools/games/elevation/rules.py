"""Elevation's rules: the :class:`Position` class and everything that decides legality.

One place answers every rules question: the default start, which piece-turns are legal
(generation, counting, "is there any" with early exit), why a written piece-turn is illegal
(:meth:`Position.resolve_turn`, checking each action in order and naming the broken rule),
applying and undoing turns, and how the game ends. It reads the rule options as
:class:`~.options.Options`. It does not read or write text tokens or position strings
(:mod:`.notation`, :mod:`.position`), but it words its reasons with square names.

>>> from notation_tools.games.elevation import GAME
>>> pos = GAME.start_position(GAME.parse_rules("standard"))
>>> sum(1 for _ in pos.legal_moves())
1194
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final, TypeVar

from notation_tools.games import base
from notation_tools.games.base import IllegalMoveError, Outcome, Rules, options_of
from notation_tools.games.elevation.moves import (
    DIGS, Dig, DigSpec, Move, Path, PathSpec, PieceTurn, PieceTurnSpec, Turn, spec_of)
from notation_tools.games.elevation.options import Options
from notation_tools.games.elevation.pieces import (
    ADJACENT, ADJACENT_BITS, CAPTURE_DROP, CLIMB_LIMIT, DIAGONAL_LINES, DIAGONAL_NEIGHBOURS, DRAGON, FISH,
    HIGH_CLIMB_LIMIT, IS_ADJACENT, OPTION_ORDER, PIECE_KINDS, REPETITION_COUNT, SAMURAI, SIDE_NAMES,
    SQUARE_COUNT, SQUARE_NAMES, START_BOARD, TURN_OPTIONS, UNDO_RUN_PLIES)
from notation_tools.games.elevation.pieces import KIND_MASK, SIDE_SHIFT, kind_of, side_of

CAPTURE_MARK = "E-CAPTURE-MARK"


class NotUnderminingError(IllegalMoveError):
    """A lone dig read as ``U`` whose source holds no enemy (§8.2); the reading the writer
    least likely meant, so a basic-move reading's reason is reported instead when there is one."""


class _Unknown(enum.Enum):
    """The type of :data:`_UNKNOWN`, so that a type checker tells it from an outcome."""
    UNKNOWN = enum.auto()


_UNKNOWN: Final = _Unknown.UNKNOWN  # outcome not computed yet for this ply
_CANDIDATES: dict[Options, dict[tuple[int, tuple[str, ...]], tuple[str, ...]]] = {}
"""Per option set: (piece kind, action shape) → the options that fit, in §6.1 order."""


# ---- interned paths (generation builds thousands of moves per position) -----------------

_PATH1: tuple[dict[int, tuple[Path, Path]], ...] = tuple(
    {m: (Path((p, m), (False,)), Path((p, m), (True,))) for m in ADJACENT[p]}
    for p in range(SQUARE_COUNT))
"""``_PATH1[p][q][capture]``: the one-step path p → q."""
_PATH2: tuple[dict[int, dict[int, tuple[Path, ...]]], ...] = tuple(
    {m: {q: tuple(Path((p, m, q), (c1, c2)) for c1 in (False, True) for c2 in (False, True))
         for q in ADJACENT[m]}
     for m in ADJACENT[p]}
    for p in range(SQUARE_COUNT))
"""``_PATH2[p][m][q][2 * capture1 + capture2]``: the two-step path p → m → q."""


def _path1(p: int, q: int, capture: bool) -> Path:
    return _PATH1[p][q][capture]


def _path2(p: int, m: int, q: int, c1: bool, c2: bool) -> Path:
    return _PATH2[p][m][q][c1 * 2 + c2]


def _n(square: int) -> str:
    return SQUARE_NAMES[square]


def _levels(count: int) -> str:
    return f"{count} level" if count == 1 else f"{count} levels"


_PATH_SHAPES = {2: "1", 3: "2"}


def _shape(actions: Sequence[Any]) -> tuple[str, ...]:
    """The action shape: ``"d"`` dig, ``"1"``/``"2"`` a path of that many steps."""
    return tuple(["d" if a.__class__ is DigSpec or a.__class__ is Dig else _PATH_SHAPES[len(a.squares)]
                  for a in actions])


def _piece_name(kind: int) -> str:
    return PIECE_KINDS[kind].name


def _dig_error(dig: DigSpec, reason: str, rule: str = "§4.2") -> IllegalMoveError:
    return IllegalMoveError(f"dig {_n(dig.source)}>{_n(dig.target)}: {reason}", rule=rule,
                            offset=dig.offset)


def _step_text(p: int, q: int, marked: bool) -> str:
    return f"move {_n(p)}{'x' if marked else '-'}{_n(q)}"


class _Turns(list):  # type: ignore[type-arg]
    """Where :meth:`Position._piece_turns` puts every legal piece-turn."""

    done = False

    def wants(self, count: int) -> bool:
        return True

    def wants_section(self, count: Callable[[], int]) -> bool:
        return True

    def chosen(self, group: list[Any]) -> list[Any]:
        return group


class _Pick:
    """Where :meth:`Position._piece_turns` keeps only the piece-turn at ``index`` of its
    order: it builds only the group of piece-turns that holds it, and none after."""

    __slots__ = ("index", "turn", "sections")

    def __init__(self, index: int, sections: Sequence[int] | None = None) -> None:
        self.index = index
        self.turn: PieceTurn | None = None
        # The sizes of the sections, in order, when counting them has been done already.
        self.sections = iter(sections) if sections is not None else None

    def wants(self, count: int) -> bool:
        if 0 <= self.index < count:
            return True
        self.index -= count   # a group before the wanted one, or any after it (index < 0)
        return False

    @property
    def done(self) -> bool:
        """Whether the wanted piece-turn has been kept: nothing after it is needed."""
        return self.index < 0

    def wants_section(self, count: Callable[[], int]) -> bool:
        """Whether a section of groups (all dig-first basic moves, say) holds the wanted
        piece-turn, judged by ``count()`` (not called once it has been found)."""
        if self.sections is not None:
            return self.wants(next(self.sections)) if self.index >= 0 else False
        return self.index >= 0 and self.wants(count())

    def chosen(self, group: list[Any]) -> list[Any]:
        """Of a group that :meth:`wants` took, the one item to build the piece-turn of (none
        when the wanted one comes after the group, from an item built on its own)."""
        index = self.index
        self.index = 0
        return group[index:index + 1]

    def append(self, turn: PieceTurn) -> None:
        if self.index == 0:
            self.turn = turn
        self.index -= 1


_DigEnds = tuple[int, int, int]
"""What :meth:`Position._dig_end_bits` answers: bit sets (bit ``x`` for square ``x``) of the
squares a dig may take its tile from, without and with undermining, and put it on."""

_Judged = TypeVar("_Judged")

_DigChanges = tuple[int, int, int, dict[int, int], dict[int, int]]
"""What :meth:`Position._dig_step_changes` answers: the bit sets of the dig's sources and
destinations, how many piece-turns follow a dig now, and by how much a source (lowered) or
a destination (raised) changes that number, for the ends that change it."""


def _squares(bits: int) -> Iterator[int]:
    """The squares of a bit set, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _step_bits(steps: Iterable[tuple[int, bool]]) -> int:
    """The targets of (target, capture) steps as a bit set."""
    bits = 0
    for q, _capture in steps:
        bits |= 1 << q
    return bits


def _changes(after: int, before: int, squares: int) -> dict[int, int]:
    """+1 for each of ``squares`` in ``after`` and not in ``before``, -1 for the reverse."""
    if not (after ^ before) & squares:
        return {}
    return {x: 1 if after >> x & 1 else -1 for x in _squares((after ^ before) & squares)}


def _through(paths: Iterable[tuple[int, int, bool, bool]]) -> dict[int, int]:
    """How many fish paths (M, Q, capture1, capture2) pass through each middle square M."""
    through: dict[int, int] = {}
    for m, _q, _c1, _c2 in paths:
        through[m] = through.get(m, 0) + 1
    return through


def _through_changes(after: dict[int, int], before: dict[int, int], squares: list[int]) -> dict[int, int]:
    """How the number of fish paths through each of ``squares`` changed, where it did."""
    if after == before:
        return {}
    changes = {x: after.get(x, 0) - before.get(x, 0) for x in squares}
    return {x: change for x, change in changes.items() if change}


def _dig_pairs(sources: int, targets: int) -> int:
    """How many digs s > d with s in ``sources`` and d in ``targets`` (bit sets): every pair
    but a square with itself (§4.2)."""
    return sources.bit_count() * targets.bit_count() - (sources & targets).bit_count()


def _dig_first_count(changes: _DigChanges | None) -> int:
    """How many piece-turns start with a dig, given the dig ends and how each end changes the
    count of what may follow (:meth:`Position._dig_step_changes`): a source s is paired with
    every destination but itself, a destination d with every source but itself."""
    if changes is None:
        return 0
    sources, targets, now, by_source, by_target = changes
    count = _dig_pairs(sources, targets) * now
    n_sources, n_targets = sources.bit_count(), targets.bit_count()
    for s, change in by_source.items():
        count += change * (n_targets - (targets >> s & 1))
    for d, change in by_target.items():
        count += change * (n_sources - (sources >> d & 1))
    return count


def _dig_first_sizes(changes: _DigChanges | None) -> Callable[[tuple[int, int]], int]:
    """How many piece-turns start with the legal dig s > d, as a function of (s, d)."""
    if changes is None:
        return lambda dig: 0
    _sources, _targets, now, by_source, by_target = changes
    return lambda dig: now + by_source.get(dig[0], 0) + by_target.get(dig[1], 0)


def _first_digs(out: _Turns | _Pick | None, section: Callable[[], int],
                digs: Callable[[], list[tuple[int, int]]],
                sizes: Callable[[], Callable[[tuple[int, int]], int]]) -> Iterable[tuple[int, int]]:
    """The first digs to try in a section of groups of piece-turns that start with a dig:
    every legal dig (``digs()``) for a count or a full list; for a :class:`_Pick`, none when
    the section (of ``section()`` piece-turns) does not hold the wanted one, else only the dig
    whose group holds it, the groups before it skipped by their ``sizes()`` without trying
    their digs."""
    if out is None:
        return digs()
    if not out.wants_section(section):
        return ()
    if type(out) is not _Pick:
        return digs()
    return _picked_dig(out, digs(), sizes())


def _picked_dig(pick: _Pick, digs: list[tuple[int, int]],
                size: Callable[[tuple[int, int]], int]) -> Iterator[tuple[int, int]]:
    for dig in digs:
        if pick.wants(size(dig)):
            yield dig
            return


class _PieceTurnCounts(list):  # type: ignore[type-arg]
    """What :meth:`Position.piece_turn_counts` answers: (square, count) pairs, with each
    piece's section sizes by square (for a :class:`_Pick`)."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[int, list[int]] = {}


# ---- the position ----------------------------------------------------------------------

class Position(base.Position[Move]):
    """An Elevation position: the heights and board cells of the squares, the side to move,
    and the history.

    ``heights[i]`` is the stack on square ``i``; ``board[i]`` is 0 or ``side << 2 | kind``;
    ``counts`` is the pieces of each side, a tuple replaced (never changed) on a capture.
    The history (turns, repetition keys) lives in the position, so ``pop`` undoes ``push``
    and ``outcome`` can see repetitions. The repetition key of every position reached holds
    its heights and board, so ``pop`` restores them from the key before, and ``push`` copies
    nothing.
    """

    __slots__ = ("rules", "options", "heights", "board", "turn", "counts", "_history", "_seen",
                 "_outcome", "_fitting", "_hints")

    def __init__(self, rules: Rules, heights: Sequence[int], board: Sequence[int], turn: int) -> None:
        self.rules = rules
        self.options = options_of(Options, rules)
        self._fitting = _CANDIDATES.setdefault(self.options, {})
        self._hints: list[tuple[int, int, int, int] | None] = [None, None]
        self.heights = list(heights)
        self.board = list(board)
        self.turn = turn
        self.counts = tuple(sum(1 for c in board if c and side_of(c) == side) for side in (0, 1))
        key = self.key()
        # One entry per position reached, the start first: its key, how often that key has
        # occurred so far, how many undoing plies in a row led to it (§5), and the turn that
        # led to it with the piece counts and the outcome before that turn.
        self._history: list[tuple[tuple[int, ...], int, int, Move | None, tuple[int, ...],
                                  Outcome | None | _Unknown]] = [
            (key, 1, 0, None, self.counts, _UNKNOWN)]
        self._seen = {key: 1}
        self._outcome: Outcome | None | _Unknown = _UNKNOWN

    @classmethod
    def start(cls, rules: Rules, turn: int = 0) -> Position:
        """The default start (§3.3): ``initial-height`` tiles on every square, each side's
        home rank filled, ``turn`` to move."""
        height = options_of(Options, rules).initial_height
        return cls(rules, [height] * SQUARE_COUNT, START_BOARD, turn)

    # ---- identity and history ----------------------------------------------------------

    def key(self) -> tuple[int, ...]:
        """A hashable key for repetition: all heights, all pieces, the side to move (§5)."""
        return tuple(self.heights + self.board + [self.turn])

    def copy(self) -> Position:
        """An independent copy, history included."""
        other = Position.__new__(Position)
        other.rules = self.rules
        other.options = self.options
        other._fitting = self._fitting
        other._hints = self._hints[:]
        other.heights = self.heights[:]
        other.board = self.board[:]
        other.turn = self.turn
        other.counts = self.counts
        other._history = self._history[:]
        other._seen = dict(self._seen)
        other._outcome = self._outcome
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key() == other.key() and self.rules == other.rules

    __hash__ = None  # type: ignore[assignment]  # mutable: use key() for a hashable snapshot

    @property
    def move_stack(self) -> list[Any]:
        """The turns pushed so far, oldest first."""
        return [entry[3] for entry in self._history[1:]]

    # ---- applying turns ----------------------------------------------------------------

    def _apply(self, move: PieceTurn) -> None:
        """Apply one piece-turn. Trusts that it is legal."""
        h = self.heights
        b = self.board
        at = move.origin
        piece = b[at]
        for action in move.actions:
            if type(action) is Dig:
                h[action.source] -= 1
                h[action.target] += 1
            else:
                assert type(action) is Path
                squares = action.squares
                b[at] = 0
                for index, captures in enumerate(action.captures):
                    if captures:
                        target = squares[index + 1]
                        counts = list(self.counts)
                        counts[b[target] >> 2] -= 1
                        self.counts = tuple(counts)
                        b[target] = 0
                at = squares[-1]
                b[at] = piece

    def push(self, move: Move) -> None:
        """Play a turn (a :class:`PieceTurn`, or a :class:`Turn` under ``two-pieces-per-turn``).

        Trusts that the turn came from :meth:`legal_moves` or ``parse_move``; does not check it.
        """
        counts = self.counts
        if type(move) is PieceTurn:
            self._apply(move)
        else:
            for part in move.parts:
                self._apply(part)
        self.turn ^= 1
        key = self.key()
        seen = self._seen
        occurrences = seen.get(key, 0) + 1
        seen[key] = occurrences
        history = self._history
        # §5 consecutive-undo: a ply undoes the previous one when it restores the position
        # of two plies earlier.
        if len(history) >= 2 and history[-2][0] == key:
            undo_run = history[-1][2] + 1
        else:
            undo_run = 0
        history.append((key, occurrences, undo_run, move, counts, self._outcome))
        self._outcome = _UNKNOWN

    def pop(self) -> Move:
        """Undo the last turn and return it."""
        history = self._history
        key, occurrences, _undo_run, move, counts, outcome = history.pop()
        if move is None:
            history.append((key, occurrences, _undo_run, move, counts, outcome))
            raise IndexError("pop from the start position: no turn to undo")
        if occurrences > 1:
            self._seen[key] = occurrences - 1
        else:
            del self._seen[key]
        before = history[-1][0]
        self.heights = list(before[:SQUARE_COUNT])
        self.board = list(before[SQUARE_COUNT:2 * SQUARE_COUNT])
        self.counts = counts
        self.turn ^= 1
        self._outcome = outcome
        return move

    # ---- end of game (§5) --------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the game has ended, or ``None`` while it goes on (§5).

        Checks, in order: a side without pieces (the other wins), repetition per
        ``repetition-rule``, and a side to move without a legal turn (it loses).

        >>> from notation_tools.games.elevation import GAME
        >>> rules = GAME.parse_rules(None)
        >>> GAME.parse_position("333333/333333/333333/333333/333333/033333 6/6/6/6/df4/Ss4 w",
        ...                     rules).outcome()
        Outcome(winner=1, reason='no-legal-turn', detail='White has no legal turn')
        """
        if self._outcome is _UNKNOWN:
            self._outcome = self._compute_outcome()
        return self._outcome

    def _compute_outcome(self) -> Outcome | None:
        side = self.turn
        other = side ^ 1
        if not self.counts[side]:
            return Outcome(other, "all-pieces-captured", f"{SIDE_NAMES[other]} captured every {SIDE_NAMES[side]} piece")
        if not self.counts[other]:
            return Outcome(side, "all-pieces-captured", f"{SIDE_NAMES[side]} captured every {SIDE_NAMES[other]} piece")
        rule = self.options.repetition_rule
        _key, occurrences, undo_run = self._history[-1][:3]
        if rule == "threefold" and occurrences >= REPETITION_COUNT:
            return Outcome(None, "repetition", "the same position occurred three times")
        if rule == "consecutive-undo-6-plies" and undo_run >= UNDO_RUN_PLIES:
            return Outcome(None, "repetition", "six consecutive plies undid the previous ones")
        if not self.has_legal_turn():
            return Outcome(other, "no-legal-turn", f"{SIDE_NAMES[side]} has no legal turn")
        return None

    def has_legal_turn(self, exclude: int = -1) -> bool:
        """Whether the side to move has any legal turn, or (``exclude``) any legal piece-turn
        by a piece other than the one on that square (§5, §8.1). Stops at the first one.

        Replay asks this at every ply and the answer is nearly always yes, so the search
        starts with the cheapest proof: the plain basic move that proved it last time for
        this side, if it is still legal, then a plain basic move of any piece
        (:meth:`_plain_basic_move`); only when none exists does the full search
        (``_piece_turns``) decide, piece by piece.
        """
        b = self.board
        side = self.turn
        hint = self._hints[side]
        if hint is not None and hint[0] != exclude and self._is_plain_basic_move(side, *hint):
            return True
        pieces = [square for square in range(SQUARE_COUNT)
                  if b[square] and b[square] >> 2 == side and square != exclude]
        for square in pieces:
            found = self._plain_basic_move(square, side)
            if found is not None:
                self._hints[side] = found
                return True
        for square in pieces:
            if self._piece_turns(square, b[square], None, True):
                return True
        return False

    def _plain_basic_move(self, p: int, side: int) -> tuple[int, int, int, int] | None:
        """A step p → q legal now and a dig s > d around p with neither s nor d on q, as
        (p, q, s, d), or ``None``. Such a pair is a legal dig-first basic move (§4.1-§4.3).

        The dig changes only the heights of s and d, both beside p, so the step stays legal
        after it; a source without an enemy and a destination below ``max-height`` are
        allowed under every option set. ``None`` says nothing: the piece may still have
        other piece-turns.
        """
        h = self.heights
        b = self.board
        near = ADJACENT[p]
        steps = self._steps(p, side, CLIMB_LIMIT, near)
        if not steps:
            return None
        top = self.options.max_height
        for d in near:
            if b[d] or (top is not None and h[d] >= top):
                continue
            for s in near:
                if s == d or not h[s] or (b[s] and b[s] >> 2 != side):
                    continue
                for q, _capture in steps:
                    if q != s and q != d:
                        return (p, q, s, d)
        return None

    def _is_plain_basic_move(self, side: int, p: int, q: int, s: int, d: int) -> bool:
        """Whether (p, q, s, d), once found by :meth:`_plain_basic_move` (so q, s and d are
        three different neighbours of p), is still a plain basic move of a ``side`` piece."""
        h = self.heights
        b = self.board
        piece = b[p]
        if not piece or piece >> 2 != side or b[d] or not h[s] or (b[s] and b[s] >> 2 != side):
            return False
        top = self.options.max_height
        if top is not None and h[d] >= top:
            return False
        return bool(self._steps(p, side, CLIMB_LIMIT, (q,)))

    # ---- move generation ---------------------------------------------------------------

    def _steps(self, p: int, side: int, limit: int, targets: Sequence[int]) -> list[tuple[int, bool]]:
        """Legal one-square steps from ``p`` to ``targets`` with a climb limit (§4.3, §8.3)."""
        h = self.heights
        b = self.board
        options = self.options
        hp = h[p]
        free = options.ocean_climb and hp == 0
        free_capture = free and options.ocean_capture
        exact2 = options.capture_exactly_2
        need = CAPTURE_DROP
        out = []
        for q in targets:
            c = b[q]
            if not c:
                if free or h[q] - hp <= limit:
                    out.append((q, False))
            elif c >> 2 != side:
                drop = hp - h[q]
                if free_capture or (drop == need if exact2 else drop >= need):
                    out.append((q, True))
        return out

    def _dig_ends(self, x: int, side: int, undermine: bool, only_undermine: bool = False,
                  near: Sequence[int] | None = None) -> tuple[list[int], list[int]]:
        """The squares a dig around the acting piece on ``x`` may take a tile from and put it
        on (§4.2; undermining §8.2): every pair of them but a square with itself is a dig.
        ``near`` limits the answer to some of the squares beside ``x``."""
        h = self.heights
        b = self.board
        top = self.options.max_height
        whole = near is None
        if near is None:
            near = ADJACENT[x]
        if top is None:
            targets = [d for d in near if not b[d]]
        else:
            targets = [d for d in near if not b[d] and h[d] < top]
        if not targets and whole:
            return [], []
        if only_undermine:
            sources = [s for s in near if h[s] and b[s] and b[s] >> 2 != side]
        elif undermine:
            sources = [s for s in near if h[s]]
        else:
            sources = [s for s in near if h[s] and (not b[s] or b[s] >> 2 == side)]
        return sources, targets

    def _digs(self, x: int, side: int, undermine: bool, only_undermine: bool = False) -> list[tuple[int, int]]:
        """Legal digs around the acting piece on ``x`` (§4.2; undermining §8.2)."""
        sources, targets = self._dig_ends(x, side, undermine, only_undermine)
        return [(s, d) for d in targets for s in sources if s != d]

    def _fish_paths(self, p: int, side: int) -> list[tuple[int, int, bool, bool]]:
        """Legal two-square diagonal Fish moves from ``p`` as (M, Q, capture1, capture2) (§4.4)."""
        h = self.heights
        b = self.board
        options = self.options
        model = options.fish_diag2_model
        out = []
        if model == "two-free-diagonal-steps":
            piece = b[p]
            b[p] = 0
            for m, c1 in self._steps(p, side, CLIMB_LIMIT, DIAGONAL_NEIGHBOURS[p]):
                for q, c2 in self._steps(m, side, CLIMB_LIMIT, DIAGONAL_NEIGHBOURS[m]):
                    if q != p:
                        out.append((m, q, c1, c2))
            b[p] = piece
            return out
        hp = h[p]
        free = options.ocean_climb and hp == 0
        limit = CLIMB_LIMIT
        if model == "jump":
            free_capture = free and options.ocean_capture
            exact2 = options.capture_exactly_2
            need = CAPTURE_DROP
            for m, q in DIAGONAL_LINES[p]:
                c = b[q]
                if not c:
                    if free or h[q] - hp <= limit:
                        out.append((m, q, False, False))
                elif c >> 2 != side:
                    drop = hp - h[q]
                    if free_capture or (drop == need if exact2 else drop >= need):
                        out.append((m, q, False, True))
            return out
        for m, q in DIAGONAL_LINES[p]:
            if not b[m] and (free or h[m] - hp <= limit):
                for q2, c2 in self._steps(m, side, limit, (q,)):
                    out.append((m, q2, False, c2))
        return out

    def _piece_turns(self, p: int, piece: int, out: _Turns | _Pick | None, stop: bool) -> int:
        """Count the legal piece-turns of the piece on ``p``, appending them to ``out`` if given.

        With ``stop`` it returns as soon as one is found; a :class:`_Pick` stops once it has
        its piece-turn (the count is then partial). ``out.wants(n)`` says whether the
        next group of ``n`` piece-turns is to be built (a :class:`_Pick` wants one group).
        The position is restored before returning (§4.1 options, each action judged where
        the piece stands at that moment). This is the order of ``legal_moves()`` and the
        reference that :meth:`_count_turns` is tested against: the basic moves (B), then the
        Fish's (F) or the Dragon's (DD, MM, C2) own, then the undermining dig (U).
        """
        kind = piece & KIND_MASK
        count = self._basic_turns(p, piece, kind == SAMURAI, out, stop)
        if stop and count:
            return count
        if out is not None and out.done:
            return count
        if kind == FISH:
            count += self._fish_turns(p, piece, out, stop)
            if stop and count:
                return count
        elif kind == DRAGON:
            count += self._dragon_double_digs(p, piece >> SIDE_SHIFT, out, stop)
            if stop and count:
                return count
            if out is not None and out.done:
                return count
            count += self._dragon_moves(p, piece, out)
            if stop and count:
                return count
        if self.options.undermining:
            count += self._undermining_turns(p, piece >> SIDE_SHIFT, out)
        return count

    def _basic_turns(self, p: int, piece: int, samurai: bool, out: _Turns | _Pick | None,
                     stop: bool) -> int:
        """The B piece-turns of the piece on ``p`` (§4.1), as :meth:`_piece_turns` counts
        them: dig first, then move first (and a lone move when the dig is optional), then a
        lone dig when the move is optional. With ``stop`` it returns at the first one."""
        options = self.options
        h = self.heights
        b = self.board
        side = piece >> SIDE_SHIFT
        near = ADJACENT[p]
        count = 0
        limit = CLIMB_LIMIT
        dig_optional = options.basic_dig_optional
        b_undermine = options.samurai_undermine_and_move and samurai
        steps = self._steps
        digs = self._digs

        # B, dig first.
        for s, d in _first_digs(out, lambda: self._count_dig_then_step(p, side, b_undermine),
                                lambda: digs(p, side, b_undermine),
                                lambda: self._dig_then_step_sizes(p, side, b_undermine)):
            h[s] -= 1
            h[d] += 1
            found = steps(p, side, limit, near)
            h[s] += 1
            h[d] -= 1
            if found:
                count += len(found)
                if stop:
                    return count
                if out is not None and out.wants(len(found)):
                    dig = DIGS[s][d]
                    for q, cap in out.chosen(found):
                        out.append(PieceTurn(p, "B", (dig, _path1(p, q, cap))))
        # B, move first; and a lone move when the dig is optional.
        for q, cap in (steps(p, side, limit, near) if out is None or out.wants_section(
                lambda: self._count_step_then_dig(p, piece, b_undermine)) else ()):
            if out is not None and out.done:
                break
            captured = b[q]
            b[p] = 0
            b[q] = piece
            found2 = digs(q, side, b_undermine)
            b[q] = captured
            b[p] = piece
            count += len(found2)
            if dig_optional:
                count += 1
            if stop and count:
                return count
            if out is not None and out.wants(len(found2) + dig_optional):
                path = _path1(p, q, cap)
                for s, d in out.chosen(found2):
                    out.append(PieceTurn(p, "B", (path, DIGS[s][d])))
                if dig_optional and not out.done:
                    out.append(PieceTurn(p, "B", (path,)))
        # B, a lone dig when the move is optional.
        if options.basic_move_optional:
            found2 = digs(p, side, b_undermine)
            count += len(found2)
            if stop and count:
                return count
            if out is not None and out.wants(len(found2)):
                for s, d in out.chosen(found2):
                    out.append(PieceTurn(p, "B", (DIGS[s][d],)))
        return count

    def _fish_turns(self, p: int, piece: int, out: _Turns | _Pick | None, stop: bool) -> int:
        """The F piece-turns of the Fish on ``p`` (§4.4), as :meth:`_piece_turns` counts
        them: dig first, then move first (and a lone fish move when the dig is optional)."""
        h = self.heights
        b = self.board
        side = piece >> SIDE_SHIFT
        dig_optional = self.options.basic_dig_optional
        digs = self._digs
        count = 0
        # F, dig first.
        for s, d in _first_digs(out, lambda: self._count_dig_then_fish(p, side),
                                lambda: digs(p, side, False),
                                lambda: self._dig_then_fish_sizes(p, side)):
            h[s] -= 1
            h[d] += 1
            paths = self._fish_paths(p, side)
            h[s] += 1
            h[d] -= 1
            if paths:
                count += len(paths)
                if stop:
                    return count
                if out is not None and out.wants(len(paths)):
                    dig = DIGS[s][d]
                    for m, q, c1, c2 in out.chosen(paths):
                        out.append(PieceTurn(p, "F", (dig, _path2(p, m, q, c1, c2))))
        # F, move first; and a lone fish move when the dig is optional.
        for m, q, c1, c2 in (self._fish_paths(p, side) if out is None or out.wants_section(
                lambda: self._count_fish_then_dig(p, piece)) else ()):
            saved_m = b[m]
            captured = b[q]
            b[p] = 0
            if c1:
                b[m] = 0
            b[q] = piece
            found2 = digs(q, side, False)
            b[q] = captured
            b[m] = saved_m
            b[p] = piece
            count += len(found2)
            if dig_optional:
                count += 1
            if stop and count:
                return count
            if out is not None and out.wants(len(found2) + dig_optional):
                path = _path2(p, m, q, c1, c2)
                for s, d in out.chosen(found2):
                    out.append(PieceTurn(p, "F", (path, DIGS[s][d])))
                if dig_optional and not out.done:
                    out.append(PieceTurn(p, "F", (path,)))
        return count

    def _dragon_double_digs(self, p: int, side: int, out: _Turns | _Pick | None,
                            stop: bool) -> int:
        """The DD piece-turns of the Dragon on ``p``: two digs from the same square (§4.5)."""
        h = self.heights
        undermine = self.options.undermining
        no_null_pair = self.options.forbid_null_dig_pair
        digs = self._digs
        count = 0
        for s, d in _first_digs(out, lambda: self._count_dig_twice(p, side),
                                lambda: digs(p, side, undermine),
                                lambda: self._dig_twice_sizes(p, side)):
            h[s] -= 1
            h[d] += 1
            found2 = digs(p, side, undermine)
            h[s] += 1
            h[d] -= 1
            if no_null_pair and (d, s) in found2:
                found2.remove((d, s))
            if found2:
                count += len(found2)
                if stop:
                    return count
                if out is not None and out.wants(len(found2)):
                    first = DIGS[s][d]
                    for s2, d2 in out.chosen(found2):
                        out.append(PieceTurn(p, "DD", (first, DIGS[s2][d2])))
        return count

    def _undermining_turns(self, p: int, side: int, out: _Turns | _Pick | None) -> int:
        """The U piece-turns of the piece on ``p``: one undermining dig (§8.2)."""
        found2 = self._digs(p, side, True, True)
        if out is not None and out.wants(len(found2)):
            for s, d in out.chosen(found2):
                out.append(PieceTurn(p, "U", (DIGS[s][d],)))
        return len(found2)

    def legal_piece_turns(self, exclude: int = -1) -> list[PieceTurn]:
        """Every legal piece-turn of the side to move, except by the piece on ``exclude``
        (§4; under ``two-pieces-per-turn`` these are the halves of a turn, §8.1)."""
        out = _Turns()
        b = self.board
        side = self.turn
        for square in range(SQUARE_COUNT):
            piece = b[square]
            if piece and piece >> 2 == side and square != exclude:
                self._piece_turns(square, piece, out, False)
        return out

    def _count_piece_turns(self, exclude: int = -1) -> int:
        b = self.board
        side = self.turn
        total = 0
        ends = self._dig_end_bits(side)
        for square in range(SQUARE_COUNT):
            piece = b[square]
            if piece and piece >> 2 == side and square != exclude:
                total += self._count_turns(square, piece, None, ends)
        return total

    def piece_turn_counts(self, exclude: int = -1) -> list[tuple[int, int]]:
        """(square, how many legal piece-turns) for each piece of the side to move but the one
        on ``exclude``, in the order of :meth:`legal_piece_turns`, without building them.

        The list also keeps each piece's section sizes, so that :meth:`legal_piece_turn_at`
        does not count them again."""
        b = self.board
        side = self.turn
        out = _PieceTurnCounts()
        sections = out.sections
        ends = self._dig_end_bits(side)
        for square in range(SQUARE_COUNT):
            piece = b[square]
            if piece and piece >> 2 == side and square != exclude:
                these: list[int] = []
                sections[square] = these
                out.append((square, self._count_turns(square, piece, these, ends)))
        return out

    def legal_piece_turn_at(self, index: int, counts: Sequence[tuple[int, int]]) -> PieceTurn:
        """``self.legal_piece_turns(exclude)[index]`` given ``counts``, the
        :meth:`piece_turn_counts` of this position with the same ``exclude``. Builds only the
        group of piece-turns that holds it (a random game draws one turn of some two
        thousand).

        Raises ``IndexError`` when there are not that many.
        """
        if index >= 0:
            for square, count in counts:
                if index < count:
                    pick = _Pick(index, counts.sections.get(square)
                                 if isinstance(counts, _PieceTurnCounts) else None)
                    self._piece_turns(square, self.board[square], pick, False)
                    assert pick.turn is not None
                    return pick.turn
                index -= count
        raise IndexError("fewer legal piece-turns than that")

    def _count_turns(self, p: int, piece: int, sections: list[int] | None = None,
                     ends: _DigEnds | None = None) -> int:
        """``_piece_turns(p, piece, None, False)``: the legal piece-turns of the piece on
        ``p``, counted without trying each dig in turn (§4.1-§4.5, §8.2).

        A dig s > d by the piece on p changes the heights of s and d only, both beside p, so
        the groups that start with a dig are counted from what is legal now and from s and d
        judged again (:meth:`_count_dig_then_step`, :meth:`_count_dig_then_fish`,
        :meth:`_count_dig_twice`); the others count the digs around a square from the bit
        sets of the dig ends (:meth:`_dig_end_bits`, ``ends`` when the caller has them)
        without listing the pairs. ``sections`` gets the sizes of the sections that
        :meth:`_piece_turns` asks a :class:`_Pick` about, in its order.
        """
        options = self.options
        side = piece >> SIDE_SHIFT
        kind = piece & KIND_MASK
        b_undermine = options.samurai_undermine_and_move and kind == SAMURAI
        if ends is None:
            ends = self._dig_end_bits(side)
        near = ADJACENT_BITS[p]
        steps_now = self._steps(p, side, CLIMB_LIMIT, ADJACENT[p])
        vacated = self._vacated_ends(ends, side, p)

        # B, dig first.
        dig_first = self._count_dig_then_step(p, side, b_undermine, ends, steps_now)
        # B, move first; and a lone move when the dig is optional.
        move_first = self._count_step_then_dig(p, piece, b_undermine, vacated, steps_now)
        if sections is not None:
            sections += (dig_first, move_first)
        count = dig_first + move_first
        # B, a lone dig when the move is optional.
        if options.basic_move_optional:
            count += _dig_pairs(near & ends[b_undermine], near & ends[2])

        if kind == FISH:
            # F, dig first.
            dig_first = self._count_dig_then_fish(p, side, ends)
            # F, move first; and a lone fish move when the dig is optional.
            move_first = self._count_fish_then_dig(p, piece, vacated)
            if sections is not None:
                sections += (dig_first, move_first)
            count += dig_first + move_first

        elif kind == DRAGON:
            # DD: two digs from the same square.
            dig_twice = self._count_dig_twice(p, side, ends)
            if sections is not None:
                sections.append(dig_twice)
            count += dig_twice
            # MM and C2.
            count += self._dragon_moves(p, piece, None)

        # U: one undermining dig (§8.2): its source holds an enemy, so it is a source only
        # with undermining.
        if options.undermining:
            count += _dig_pairs(near & ends[1] & ~ends[0], near & ends[2])
        return count

    def _dig_end_bits(self, side: int, squares: Iterable[int] = range(SQUARE_COUNT)) -> _DigEnds:
        """Which of ``squares`` a dig by a ``side`` piece may take its tile from, without and
        with undermining, and put it on, as bit sets (§4.2, §8.2): the conditions of
        :meth:`_dig_ends` on the square itself (adjacency is the caller's business)."""
        h = self.heights
        b = self.board
        top = self.options.max_height
        sources = undermining = targets = 0
        for x in squares:
            c = b[x]
            if h[x]:
                undermining |= 1 << x
                if not c or c >> 2 == side:
                    sources |= 1 << x
            if not c and (top is None or h[x] < top):
                targets |= 1 << x
        return sources, undermining, targets

    def _vacated_ends(self, ends: _DigEnds, side: int, square: int) -> _DigEnds:
        """``ends`` with ``square`` judged again once it is empty (the acting piece leaves
        it, or a capture empties it)."""
        b = self.board
        cell = b[square]
        b[square] = 0
        sources, undermining, targets = self._dig_end_bits(side, (square,))
        b[square] = cell
        keep = ~(1 << square)
        return ends[0] & keep | sources, ends[1] & keep | undermining, ends[2] & keep | targets

    def _count_step_then_dig(self, p: int, piece: int, undermine: bool,
                             vacated: _DigEnds | None = None,
                             steps_now: list[tuple[int, bool]] | None = None) -> int:
        """The move-first basic moves of the piece on ``p`` (and its lone moves when the dig
        is optional), counting the digs after each step without listing them (§4.1).

        A step p → q changes the board on p and q only, and q is not beside itself, so the
        dig ends around q are those of the board as it stands with p judged again empty
        (``vacated``, when the caller has them; ``steps_now``, the legal steps from p)."""
        side = piece >> SIDE_SHIFT
        dig_optional = self.options.basic_dig_optional
        if vacated is None:
            vacated = self._vacated_ends(self._dig_end_bits(side), side, p)
        if steps_now is None:
            steps_now = self._steps(p, side, CLIMB_LIMIT, ADJACENT[p])
        sources, targets = vacated[undermine], vacated[2]
        count = 0
        for q, _capture in steps_now:
            near = ADJACENT_BITS[q]
            count += _dig_pairs(near & sources, near & targets) + dig_optional
        return count

    def _count_fish_then_dig(self, p: int, piece: int, vacated: _DigEnds | None = None) -> int:
        """The move-first fish moves of the Fish on ``p`` (and its lone fish moves when the
        dig is optional), as :meth:`_count_step_then_dig` counts (§4.4): a fish path changes
        the board on p, on its far square and on its middle square when it captures there."""
        side = piece >> SIDE_SHIFT
        dig_optional = self.options.basic_dig_optional
        if vacated is None:
            vacated = self._vacated_ends(self._dig_end_bits(side), side, p)
        count = 0
        for m, q, c1, _c2 in self._fish_paths(p, side):
            sources, _undermining, targets = self._vacated_ends(vacated, side, m) if c1 else vacated
            near = ADJACENT_BITS[q]
            count += _dig_pairs(near & sources, near & targets) + dig_optional
        return count

    def _count_dig_then_step(self, p: int, side: int, undermine: bool, ends: _DigEnds | None = None,
                             steps_now: list[tuple[int, bool]] | None = None) -> int:
        """The dig-first basic moves of the piece on ``p`` (§4.1-§4.3), counted without
        trying each dig: a dig s > d changes the heights of s and d only, both beside p, so
        a step to any other square is legal after it exactly when it is legal now, and only
        the steps to s and to d are judged again, each with its own height changed."""
        return _dig_first_count(self._dig_step_changes(p, side, undermine, ends, steps_now))

    def _dig_then_step_sizes(self, p: int, side: int, undermine: bool) -> Callable[[tuple[int, int]], int]:
        """How many basic moves of the piece on ``p`` start with the dig s > d, as a function
        of (s, d) for the legal digs, judged as :meth:`_count_dig_then_step` judges."""
        return _dig_first_sizes(self._dig_step_changes(p, side, undermine))

    def _near_dig_ends(self, p: int, side: int, undermine: bool, ends: _DigEnds | None
                       ) -> tuple[int, int, list[int], list[int]]:
        """The sources and destinations of the digs around ``p``, as bit sets and as lists."""
        if ends is None:
            ends = self._dig_end_bits(side, ADJACENT[p])
        near = ADJACENT_BITS[p]
        sources, targets = near & ends[undermine], near & ends[2]
        if not sources or not targets:
            return sources, targets, [], []
        return (sources, targets, [x for x in ADJACENT[p] if sources >> x & 1],
                [x for x in ADJACENT[p] if targets >> x & 1])

    def _dig_step_changes(self, p: int, side: int, undermine: bool, ends: _DigEnds | None = None,
                          steps_now: list[tuple[int, bool]] | None = None) -> _DigChanges | None:
        """The ends of the digs around ``p``, how many steps from ``p`` are legal now
        (``steps_now`` when the caller has them), and how a dig changes that number: by a
        source's own change (the step to it, judged with it lowered) plus a destination's
        (the step to it, judged with it raised). ``None`` when no dig is legal."""
        sources, targets, source_list, target_list = self._near_dig_ends(p, side, undermine, ends)
        if not source_list:
            return None
        steps = self._steps
        if steps_now is None:
            steps_now = steps(p, side, CLIMB_LIMIT, ADJACENT[p])
        legal_now = _step_bits(steps_now)
        # Each step is judged by its own target square.
        lowered, raised = self._judged_again(source_list, target_list,
                                             lambda squares: steps(p, side, CLIMB_LIMIT, squares))
        return (sources, targets, legal_now.bit_count(), _changes(_step_bits(lowered), legal_now, sources),
                _changes(_step_bits(raised), legal_now, targets))

    def _judged_again(self, sources: list[int], targets: list[int],
                      judge: Callable[[list[int]], _Judged]) -> tuple[_Judged, _Judged]:
        """``judge(sources)`` with every source one tile lower, then ``judge(targets)`` with
        every destination one tile higher: what the digs around a square change, for a
        ``judge`` that judges each square by itself alone (a step by its target, a fish path
        by its middle square, a dig end by its own stack), so that all the squares may be
        changed at once and judged in one call."""
        h = self.heights
        for x in sources:
            h[x] -= 1
        lowered = judge(sources)
        for x in sources:
            h[x] += 1
        for x in targets:
            h[x] += 1
        raised = judge(targets)
        for x in targets:
            h[x] -= 1
        return lowered, raised

    def _count_dig_then_fish(self, p: int, side: int, ends: _DigEnds | None = None) -> int:
        """The dig-first fish moves of the Fish on ``p`` (§4.4), counted as
        :meth:`_count_dig_then_step` counts: a fish path's only square beside p is its middle
        square, so a dig s > d changes only the paths through s and through d."""
        return _dig_first_count(self._dig_fish_changes(p, side, ends))

    def _dig_then_fish_sizes(self, p: int, side: int) -> Callable[[tuple[int, int]], int]:
        """How many fish moves of the Fish on ``p`` start with the dig s > d, as a function of
        (s, d) for the legal digs, judged as :meth:`_count_dig_then_fish` judges."""
        return _dig_first_sizes(self._dig_fish_changes(p, side))

    def _dig_fish_changes(self, p: int, side: int, ends: _DigEnds | None = None
                          ) -> _DigChanges | None:
        """As :meth:`_dig_step_changes`, for the fish paths from ``p``: each path is judged by
        its middle square (and the far square, which no dig touches)."""
        sources, targets, source_list, target_list = self._near_dig_ends(p, side, False, ends)
        if not source_list:
            return None
        paths = self._fish_paths(p, side)
        through_now = _through(paths)
        lowered, raised = self._judged_again(source_list, target_list,
                                             lambda _middles: self._fish_paths(p, side))
        return (sources, targets, len(paths), _through_changes(_through(lowered), through_now, source_list),
                _through_changes(_through(raised), through_now, target_list))

    def _dig_twice_ends(self, p: int, side: int, ends: _DigEnds | None = None
                        ) -> tuple[int, int, int, int, int, int] | None:
        """The sources and destinations of the digs around the Dragon on ``p`` (§4.5), then
        which of the sources are still sources and are destinations once lowered, then which
        of the destinations are sources and still destinations once raised: a first dig s > d
        changes whether s and d can be the ends of the second dig, and no other square.
        ``None`` when no dig is legal."""
        undermine = self.options.undermining
        if ends is None:
            ends = self._dig_end_bits(side, ADJACENT[p])
        near = ADJACENT_BITS[p]
        sources, targets = near & ends[undermine], near & ends[2]
        if not sources or not targets:
            return None
        source_list = [x for x in ADJACENT[p] if sources >> x & 1]
        target_list = [x for x in ADJACENT[p] if targets >> x & 1]
        lowered, raised = self._judged_again(source_list, target_list,
                                             lambda squares: self._dig_end_bits(side, squares))
        return sources, targets, lowered[undermine], lowered[2], raised[undermine], raised[2]

    def _dig_twice_sizes(self, p: int, side: int) -> Callable[[tuple[int, int]], int]:
        """How many DD piece-turns of the Dragon on ``p`` start with the legal dig s > d, as a
        function of (s, d): the digs whose ends are those of now with s and d judged again
        (:meth:`_dig_twice_ends`), but the one undoing the first under ``forbid-null-dig-pair``."""
        found = self._dig_twice_ends(p, side)
        if found is None:
            return lambda dig: 0
        sources, targets, sources_low, targets_low, sources_up, targets_up = found
        no_null_pair = self.options.forbid_null_dig_pair
        plain = _dig_pairs(sources, targets)
        # The ends that a first dig changes; a first dig between two others leaves the
        # second dig's ends as they are now.
        changing = (((sources_low ^ sources) | (targets_low ^ targets)) & sources
                    | ((sources_up ^ sources) | (targets_up ^ targets)) & targets)

        def size(dig: tuple[int, int]) -> int:
            s, d = dig
            s_bit, d_bit = 1 << s, 1 << d
            if not changing & (s_bit | d_bit):
                return plain - bool(no_null_pair and sources & d_bit and targets & s_bit)
            keep = ~(s_bit | d_bit)
            sources2 = sources & keep | sources_low & s_bit | sources_up & d_bit
            targets2 = targets & keep | targets_low & s_bit | targets_up & d_bit
            undo = no_null_pair and sources2 & d_bit and targets2 & s_bit
            return _dig_pairs(sources2, targets2) - bool(undo)
        return size

    def _count_dig_twice(self, p: int, side: int, ends: _DigEnds | None = None) -> int:
        """The Dragon on ``p``'s DD piece-turns (§4.5): the sum of :meth:`_dig_twice_sizes`
        over the first digs, without a term per first dig.

        After a first dig s > d the second dig's sources, destinations and squares that are
        both number nS + a_s + a_d, nT + b_s + b_d and nB + c_s + c_d, where a, b, c are how
        s lowered and d raised change each number. Summed over the first digs, the product of
        the first two expands into terms of one square each and products of two sums over the
        squares, and only the squares with a change add to those."""
        found = self._dig_twice_ends(p, side, ends)
        if found is None:
            return 0
        sources, targets, sources_low, targets_low, sources_up, targets_up = found
        both = sources & targets
        n_s, n_t, n_b = sources.bit_count(), targets.bit_count(), both.bit_count()
        pairs = n_s * n_t - n_b
        count = pairs * pairs
        sum_a = sum_b = sum_a_up = sum_b_up = 0
        by_source: dict[int, tuple[int, int]] = {}
        for s in _squares(((sources_low ^ sources) | (targets_low ^ targets)) & sources):
            a = (sources_low >> s & 1) - 1
            b = (targets_low >> s & 1) - (targets >> s & 1)
            c = ((sources_low & targets_low) >> s & 1) - (both >> s & 1)
            count += (n_t - (targets >> s & 1)) * (n_t * a + n_s * b - c + a * b)
            sum_a += a
            sum_b += b
            by_source[s] = a, b
        for d in _squares(((sources_up ^ sources) | (targets_up ^ targets)) & targets):
            a = (sources_up >> d & 1) - (sources >> d & 1)
            b = (targets_up >> d & 1) - 1
            c = ((sources_up & targets_up) >> d & 1) - (both >> d & 1)
            count += (n_s - (sources >> d & 1)) * (n_t * a + n_s * b - c + a * b)
            sum_a_up += a
            sum_b_up += b
            # The cross terms a_s * b_d + a_d * b_s below are summed over all pairs, s = d too.
            if d in by_source:
                a_low, b_low = by_source[d]
                count -= a_low * b + a * b_low
        count += sum_a * sum_b_up + sum_a_up * sum_b
        if self.options.forbid_null_dig_pair:
            # The pairs whose second dig d > s would undo the first: s a destination once
            # lowered, d a source once raised, s != d.
            count -= ((sources & targets_low).bit_count() * (targets & sources_up).bit_count()
                      - (both & targets_low & sources_up).bit_count())
        return count

    def _dragon_moves(self, p: int, piece: int, out: _Turns | _Pick | None) -> int:
        """Count the Dragon on ``p``'s MM and C2 piece-turns (§4.5), appending them to ``out``
        if given."""
        options = self.options
        h = self.heights
        b = self.board
        side = piece >> SIDE_SHIFT
        steps = self._steps
        count = 0
        # MM: two ordinary one-square moves.
        first_steps = steps(p, side, CLIMB_LIMIT, ADJACENT[p])
        if first_steps:
            mm_max = options.dragon_mm_max_captures
            no_return = options.dragon_mm_forbid_return
            b[p] = 0
            for m, c1 in first_steps:
                if c1 and mm_max < 1:
                    continue
                for q, c2 in steps(m, side, CLIMB_LIMIT, ADJACENT[m]):
                    if (c2 and c1 + c2 > mm_max) or (no_return and q == p):
                        continue
                    count += 1
                    if out is not None and out.wants(1):
                        out.append(PieceTurn(p, "MM", (_path2(p, m, q, c1, c2),)))
            b[p] = piece
        # C2: one move with the high climb limit.
        hp = h[p]
        for q, cap in steps(p, side, HIGH_CLIMB_LIMIT, ADJACENT[p]):
            if options.dragon_c2_requires_climb2 and h[q] - hp != HIGH_CLIMB_LIMIT:
                continue
            count += 1
            if out is not None and out.wants(1):
                out.append(PieceTurn(p, "C2", (_path1(p, q, cap),)))
        return count

    def _two_piece_turns(self, out: list[Turn] | None) -> int:
        """Whole turns of two piece-turns by different pieces (§8.1)."""
        total = 0
        for first in self.legal_piece_turns():
            saved = (self.heights[:], self.board[:], self.counts)
            self._apply(first)
            if not self.counts[self.turn ^ 1]:
                seconds: list[PieceTurn] = []
            elif out is None:
                n = self._count_piece_turns(first.target)
                total += n if n else 1
                self.heights, self.board, self.counts = saved
                continue
            else:
                seconds = self.legal_piece_turns(first.target)
            self.heights, self.board, self.counts = saved
            if seconds:
                total += len(seconds)
                if out is not None:
                    for second in seconds:
                        out.append(Turn((first, second)))
            else:
                total += 1
                if out is not None:
                    out.append(Turn((first,)))
        return total

    def generate_legal_moves(self, *, origin: int | None = None,
                             target: int | None = None) -> Iterator[Move]:
        """Every legal turn, each once: :class:`PieceTurn` objects, or :class:`Turn` objects
        under ``two-pieces-per-turn=yes`` (§4, §8.1). Empty when the game is over.

        The list is built before iteration starts, so pushing while iterating is safe.
        ``origin`` keeps the turns whose (first) acting piece stands on that square, ``target``
        those whose (first) acting piece ends its piece-turn there.

        >>> from notation_tools.games.elevation import GAME
        >>> pos = GAME.start_position(GAME.parse_rules(None))
        >>> next(iter(pos.legal_moves()))
        PieceTurn(origin=0, option='B', actions=(Dig(source=1, target=6), Path(squares=(0, 6), captures=(False,))))
        >>> sorted({move.option for move in pos.legal_moves(origin=2, target=2)})
        ['DD', 'MM']
        """
        if self.outcome() is not None:
            return iter(())
        moves: list[Any]
        if self.options.two_pieces_per_turn:
            moves = []
            self._two_piece_turns(moves)
            if origin is not None:
                moves = [turn for turn in moves if turn.origin == origin]
        elif origin is not None:
            moves = _Turns()
            piece = self.board[origin]
            if piece and piece >> 2 == self.turn:
                self._piece_turns(origin, piece, moves, False)
        else:
            moves = self.legal_piece_turns()
        if target is not None:
            moves = [move for move in moves if move.target == target]
        return iter(moves)

    def count_legal_moves(self) -> int:
        """``len(list(legal_moves()))`` without building the moves (for perft)."""
        if self.outcome() is not None:
            return 0
        if self.options.two_pieces_per_turn:
            return self._two_piece_turns(None)
        return self._count_piece_turns()

    # ---- checking a specified turn -----------------------------------------------------

    def resolve_turn(self, parts: Sequence[PieceTurnSpec]) -> Move:
        """The legal turn that the written piece-turns describe, or the reason it is illegal.

        Each action is checked in order against the position at that moment (§4.1). Returns
        a :class:`PieceTurn`, or a :class:`Turn` under ``two-pieces-per-turn=yes``. Does not
        change the position. Does not check whether the game is already over.

        Raises :class:`IllegalMoveError` (code ``E-ILLEGAL-MOVE`` or ``E-CAPTURE-MARK``).
        """
        if not self.options.two_pieces_per_turn:
            if len(parts) > 1:
                raise IllegalMoveError("two piece-turns in one turn need two-pieces-per-turn=yes",
                                       rule="§8.1", offset=parts[1].offset - 1)
            return self.resolve_piece_turn(parts[0])
        first = self.resolve_piece_turn(parts[0])
        saved = (self.heights[:], self.board[:], self.counts)
        try:
            self._apply(first)
            over = not self.counts[self.turn ^ 1]
            if len(parts) == 1:
                if not over and self.has_legal_turn(first.target):
                    raise IllegalMoveError(
                        f"the turn needs a second piece-turn: another {SIDE_NAMES[self.turn]} piece can "
                        "still act (two-pieces-per-turn=yes)", rule="§8.1", offset=len(parts[0].text))
                return Turn((first,))
            if over:
                raise IllegalMoveError(
                    f"second piece-turn {_n(parts[1].origin)}: the game ended with the first "
                    "piece-turn (the last enemy piece was captured)", rule="§8.1", offset=parts[1].offset)
            second = self.resolve_piece_turn(parts[1], exclude=first.target)
            return Turn((first, second))
        finally:
            self.heights, self.board, self.counts = saved

    def resolve_piece_turn(self, spec: PieceTurnSpec, *, exclude: int = -1) -> PieceTurn:
        """The legal piece-turn that ``spec`` describes (§4, §6.1 implied option).

        Raises :class:`IllegalMoveError` naming the broken rule.
        """
        origin = spec.origin
        piece = self.board[origin]
        side = self.turn
        if not piece or side_of(piece) != side:
            raise IllegalMoveError(f"{_n(origin)}: no {SIDE_NAMES[side]} piece on {_n(origin)}",
                                   rule="§6.1", offset=spec.offset)
        if origin == exclude:
            raise IllegalMoveError(f"second piece-turn {_n(origin)}: that piece already acted this turn",
                                   rule="§8.1", offset=spec.offset)
        kind = piece & KIND_MASK
        if spec.kind is not None and spec.kind != kind:
            raise IllegalMoveError(f"{spec.head}: {_n(origin)} holds a {_piece_name(kind)}",
                                   rule="§6.1", offset=spec.offset)
        shape = _shape(spec.actions)
        if spec.option is not None:
            problem = self._misfit(spec.option, kind, shape)
            if problem:
                raise IllegalMoveError(f"{spec.head}: {problem}", rule=TURN_OPTIONS[spec.option].spec,
                                       offset=spec.offset)
            return self._run(spec.option, spec, kind)
        candidates = self._candidates(kind, shape)
        if not candidates:
            raise IllegalMoveError(f"{spec.text}: {self._no_option(kind, shape)}", rule="§4.1",
                                   offset=spec.offset)
        errors: list[IllegalMoveError] = []
        for code in candidates:
            try:
                return self._run(code, spec, kind)
            except IllegalMoveError as error:
                errors.append(error)
        # With two readings, report the more permissive one (C2 over B for a Dragon's lone
        # move), but not U's "no enemy under the dig" when the writer plainly meant B.
        last = errors[-1]
        if candidates[-1] == "U" and isinstance(last, NotUnderminingError):
            return_error = errors[0]
        else:
            return_error = last
        raise return_error

    def _candidates(self, kind: int, shape: tuple[str, ...]) -> tuple[str, ...]:
        """The options whose shape fits, in the §6.1 order (memoised: replay asks per ply)."""
        key = (kind, shape)
        found = self._fitting.get(key)
        if found is None:
            found = tuple(code for code in OPTION_ORDER if self._misfit(code, kind, shape) is None)
            self._fitting[key] = found
        return found

    def _misfit(self, code: str, kind: int, shape: tuple[str, ...]) -> str | None:
        """Why option ``code`` cannot describe this piece and action shape, or ``None`` (§6.1)."""
        options = self.options
        name = _piece_name(kind)
        shapes: set[tuple[str, ...]]
        if code == "B":
            shapes = {("d", "1"), ("1", "d")}
            if options.basic_dig_optional:
                shapes.add(("1",))
            if options.basic_move_optional:
                shapes.add(("d",))
            expected = "a dig and a one-square move"
            if options.basic_dig_optional:
                expected += ", or a lone move"
            if options.basic_move_optional:
                expected += ", or a lone dig"
        elif code == "F":
            if kind != FISH:
                return "only a Fish can make a fish move"
            shapes = {("d", "2"), ("2", "d")}
            if options.basic_dig_optional:
                shapes.add(("2",))
            expected = "a dig and a two-square diagonal move"
            if options.basic_dig_optional:
                expected += ", or that move alone"
        elif code == "U":
            if not options.undermining:
                return "U (undermine) needs undermining=yes"
            shapes = {("d",)}
            expected = "one undermining dig"
        else:
            if kind != DRAGON:
                what = {"DD": "dig twice", "MM": "move twice", "C2": "make a high climb"}[code]
                return f"only a Dragon can {what} ({code}); this is a {name}"
            shapes = {"DD": {("d", "d")}, "MM": {("2",)}, "C2": {("1",)}}[code]  # type: ignore[assignment]
            expected = {"DD": "two digs", "MM": "one two-square path", "C2": "one one-square move"}[code]
        if shape in shapes:
            return None
        words = {"d": "a dig", "1": "a one-square move", "2": "a two-square move"}
        got = " and ".join(words[part] for part in shape)
        return f"{code} is {expected}, not {got}"

    def _no_option(self, kind: int, shape: tuple[str, ...]) -> str:
        """Why no option fits a piece and an action shape (§4.1, §6.1)."""
        name = _piece_name(kind)
        if shape == ("1",):
            return f"a {name} must dig and move (lone moves are Dragon C2 only)"
        if shape == ("d",):
            return (f"a {name} must dig and move (a lone dig is an undermining dig, "
                    "which needs undermining=yes)")
        if shape == ("2",):
            if kind == FISH:
                return "a Fish must dig as well as make its fish move"
            return f"a {name} cannot move two squares (only a Dragon's MM or a Fish's fish move)"
        if shape == ("d", "d"):
            return f"only a Dragon can dig twice (DD); this is a {name}"
        if "2" in shape:
            return f"only a Fish combines a dig with a two-square move; this is a {name}"
        return "these actions fit no option"  # unreachable with the grammar's shapes

    # ---- the sequential checker --------------------------------------------------------

    def _run(self, code: str, spec: PieceTurnSpec, kind: int) -> PieceTurn:
        """Check ``spec`` as option ``code``, action by action, and return the piece-turn (§4)."""
        options = self.options
        h = self.heights
        b = self.board
        saved_h = h[:]
        saved_b = b[:]
        side = self.turn
        origin = spec.origin
        piece = b[origin]
        at = origin
        actions: list[Dig | Path] = []
        undermine = ((code in ("U", "DD") and options.undermining)
                     or (code == "B" and kind == SAMURAI and options.samurai_undermine_and_move))
        try:
            for action in spec.actions:
                if isinstance(action, DigSpec):
                    self._check_dig(at, action, side, undermine, code, kind)
                    h[action.source] -= 1
                    h[action.target] += 1
                    actions.append(DIGS[action.source][action.target])
                    continue
                squares = action.squares
                if squares[0] != at:
                    raise IllegalMoveError(
                        f"move {self._path_text(squares, action.marks)}: the acting piece stands "
                        f"on {_n(at)}", rule="§6.1", offset=action.offset)
                if code == "F":
                    captures = self._check_fish_path(action, side)
                elif code == "MM":
                    captures = self._check_steps(action, side, CLIMB_LIMIT)
                    total = sum(captures)
                    most = options.dragon_mm_max_captures
                    if total > most:
                        raise IllegalMoveError(
                            f"MM with {total} capture{'s' if total != 1 else ''}: "
                            f"dragon-mm-max-captures={most}", rule="§4.5", offset=action.offset)
                    if options.dragon_mm_forbid_return and squares[2] == squares[0]:
                        raise IllegalMoveError(
                            f"MM {self._path_text(squares, action.marks)}: ends on its starting "
                            "square (dragon-mm-forbid-return=yes)",
                            rule="§4.5", offset=action.offset)
                else:
                    limit = HIGH_CLIMB_LIMIT if code == "C2" else CLIMB_LIMIT
                    hp = h[squares[0]]
                    captures = self._check_steps(action, side, limit)
                    climb = h[squares[1]] - hp
                    if code == "C2" and options.dragon_c2_requires_climb2 and climb != HIGH_CLIMB_LIMIT:
                        raise IllegalMoveError(
                            f"C2 {self._path_text(squares, action.marks)}: climbs {climb} "
                            f"({hp} to {h[squares[1]]}); "
                            f"dragon-c2-requires-climb2=yes needs exactly {HIGH_CLIMB_LIMIT}", rule="§4.5",
                            offset=action.offset)
                if len(squares) == 2:
                    path = _PATH1[squares[0]][squares[1]][captures[0]]
                else:
                    path = _PATH2[squares[0]][squares[1]][squares[2]][captures[0] * 2 + captures[1]]
                b[at] = 0
                for index, captured in enumerate(captures):
                    if captured:
                        b[squares[index + 1]] = 0
                at = squares[-1]
                b[at] = piece
                actions.append(path)
            if code == "DD" and options.forbid_null_dig_pair:
                first, second = actions
                assert isinstance(first, Dig) and isinstance(second, Dig)
                if first.source == second.target and first.target == second.source:
                    raise IllegalMoveError(
                        f"DD {_n(first.source)}>{_n(first.target)},{_n(second.source)}>{_n(second.target)}: "
                        "the second dig undoes the first (forbid-null-dig-pair=yes)", rule="§4.5",
                        offset=spec.actions[1].offset)
        finally:
            self.heights[:] = saved_h
            self.board[:] = saved_b
        return PieceTurn(origin, code, tuple(actions))

    @staticmethod
    def _path_text(squares: Sequence[int], marks: Sequence[bool]) -> str:
        text = _n(squares[0])
        for square, mark in zip(squares[1:], marks):
            text += ("x" if mark else "-") + _n(square)
        return text

    def _check_dig(self, at: int, dig: DigSpec, side: int, undermine: bool, code: str, kind: int) -> None:
        """A dig around the acting piece on ``at`` (§4.2, undermining §8.2)."""
        h = self.heights
        b = self.board
        s, d = dig.source, dig.target
        if s == d:
            raise _dig_error(dig, "source and destination must differ")
        near = IS_ADJACENT[at]
        for square in (s, d):
            if square == at:
                raise _dig_error(dig, f"{_n(square)} is the acting piece's own square, not adjacent to it")
            if square not in near:
                raise _dig_error(dig, f"{_n(square)} is not adjacent to the acting piece on {_n(at)}")
        if not h[s]:
            raise _dig_error(dig, f"{_n(s)} has no tile (height 0)")
        enemy = b[s] and side_of(b[s]) != side
        if enemy and not undermine:
            if not self.options.undermining:
                raise _dig_error(dig, f"{_n(s)} holds a {SIDE_NAMES[side ^ 1]} piece (undermining is off)")
            if code == "B" and kind == SAMURAI:
                reason = "an undermining dig forbids moving this turn (samurai-undermine-and-move is off)"
            else:
                reason = "an undermining dig forbids moving this turn"
            raise _dig_error(dig, f"{_n(s)} holds a {SIDE_NAMES[side ^ 1]} piece: {reason}", "§8.2")
        if code == "U" and not enemy:
            raise NotUnderminingError(
                f"dig {_n(s)}>{_n(d)}: U is an undermining dig, and {_n(s)} holds no "
                f"{SIDE_NAMES[side ^ 1]} piece", rule="§8.2", offset=dig.offset)
        if b[d]:
            raise _dig_error(dig, f"{_n(d)} is occupied")
        top = self.options.max_height
        if top is not None and h[d] + 1 > top:
            raise _dig_error(dig, f"{_n(d)} would exceed max-height {top}")

    def _judge(self, p: int, q: int, side: int, limit: int, marked: bool, offset: int,
               rule: str = "§4.3") -> bool:
        """Whether the step p → q captures; raises why it is illegal (§4.3, §8.3).

        Adjacency is the caller's business (the ``jump`` Fish judges two squares apart).
        """
        h = self.heights
        b = self.board
        options = self.options
        hp, hq = h[p], h[q]
        free = options.ocean_climb and hp == 0
        c = b[q]
        if c and side_of(c) == side:
            raise IllegalMoveError(f"{_step_text(p, q, marked)}: {_n(q)} holds a {SIDE_NAMES[side]} piece", rule=rule, offset=offset)
        if c:
            victim = f"a {SIDE_NAMES[side ^ 1]} {_piece_name(kind_of(c))}"
            drop = hp - hq
            exact2 = options.capture_exactly_2
            allowed = ((free and options.ocean_capture)
                       or (drop == CAPTURE_DROP if exact2 else drop >= CAPTURE_DROP))
            if not allowed:
                if exact2 and drop > CAPTURE_DROP:
                    why = (f"{_n(p)} is {_levels(drop)} above {_n(q)}; capture-height=exactly-2 "
                           f"needs exactly {CAPTURE_DROP}")
                elif drop > 0:
                    why = f"{_n(p)} is only {_levels(drop)} above {_n(q)}"
                elif drop == 0:
                    why = f"{_n(p)} is level with {_n(q)}"
                else:
                    why = f"{_n(p)} is {_levels(-drop)} below {_n(q)}"
                if not marked:
                    why = f"{_n(q)} holds {victim}, and {why} (a capture needs {CAPTURE_DROP})"
                raise IllegalMoveError(f"{_step_text(p, q, marked)}: {why}", rule=rule, offset=offset)
            if not marked:
                raise IllegalMoveError(f"{_step_text(p, q, marked)} captures {victim}: write {_n(p)}x{_n(q)}",
                                       rule="§6.1", code=CAPTURE_MARK, offset=offset)
            return True
        if marked:
            raise IllegalMoveError(f"{_step_text(p, q, marked)}: {_n(q)} is empty", rule="§6.1", code=CAPTURE_MARK,
                                   offset=offset)
        if not free and hq - hp > limit:
            raise IllegalMoveError(f"{_step_text(p, q, marked)}: climbs {hq - hp} ({hp} to {hq}); the limit is {limit}",
                                   rule=rule, offset=offset)
        return False

    def _check_steps(self, action: PathSpec, side: int, limit: int) -> list[bool]:
        """One-square steps along a path, each judged from where the piece stands (§4.3, §4.5)."""
        b = self.board
        squares = action.squares
        piece = b[squares[0]]
        captures = []
        changed: list[tuple[int, int]] = []
        try:
            for index in range(len(squares) - 1):
                p, q = squares[index], squares[index + 1]
                offset = action.step_offset(index)
                if q not in IS_ADJACENT[p]:
                    raise IllegalMoveError(
                        f"move {_n(p)}{'x' if action.marks[index] else '-'}{_n(q)}: "
                        f"{_n(q)} is not adjacent to {_n(p)}", rule="§4.3", offset=offset)
                captures.append(self._judge(p, q, side, limit, action.marks[index], offset))
                changed.append((p, b[p]))
                changed.append((q, b[q]))
                b[p] = 0
                b[q] = piece
        finally:
            for square, content in reversed(changed):
                b[square] = content
        return captures

    def _check_fish_path(self, action: PathSpec, side: int) -> list[bool]:
        """A Fish's two-square diagonal move under ``fish-diag2-model`` (§4.4)."""
        h = self.heights
        b = self.board
        options = self.options
        model = options.fish_diag2_model
        p, m, q = action.squares
        label = f"fish move {self._path_text(action.squares, action.marks)}"
        offset = action.offset
        first_step, second_step = action.step_offset(0), action.step_offset(1)
        if model == "two-free-diagonal-steps":
            for a, z in ((p, m), (m, q)):
                if z not in DIAGONAL_NEIGHBOURS[a]:
                    raise IllegalMoveError(f"{label}: {_n(a)}-{_n(z)} is not a diagonal step",
                                           rule="§4.4", offset=offset)
            if q == p:
                raise IllegalMoveError(f"{label}: the second step may not return to {_n(p)}",
                                       rule="§4.4", offset=offset)
            return self._check_steps(action, side, CLIMB_LIMIT)
        if (m, q) not in DIAGONAL_LINES[p]:
            raise IllegalMoveError(f"{label}: not a straight diagonal", rule="§4.4", offset=offset)
        if model == "jump":
            if action.marks[0]:
                raise IllegalMoveError(f"{label}: a jumping Fish captures nothing on {_n(m)}",
                                       rule="§4.4", code=CAPTURE_MARK, offset=first_step)
            return [False, self._judge(p, q, side, CLIMB_LIMIT, action.marks[1], second_step, "§4.4")]
        if b[m]:
            raise IllegalMoveError(f"{label}: {_n(m)} is occupied", rule="§4.4", offset=first_step)
        if action.marks[0]:
            raise IllegalMoveError(f"move {_n(p)}x{_n(m)}: {_n(m)} is empty", rule="§6.1",
                                   code=CAPTURE_MARK, offset=first_step)
        free = options.ocean_climb and h[p] == 0
        if not free and h[m] - h[p] > CLIMB_LIMIT:
            raise IllegalMoveError(
                f"{label}: climbs {h[m] - h[p]} ({h[p]} to {h[m]}) onto {_n(m)}; "
                f"the limit is {CLIMB_LIMIT}",
                rule="§4.4", offset=first_step)
        piece = b[p]
        b[p] = 0
        b[m] = piece
        try:
            second = self._judge(m, q, side, CLIMB_LIMIT, action.marks[1], second_step, "§4.4")
        finally:
            b[m] = 0
            b[p] = piece
        return [False, second]

    # ---- the implied option (§6.1) -----------------------------------------------------

    def implied_option(self, move: PieceTurn) -> str:
        """The option a token without ``=CODE`` would mean for ``move``'s actions (§6.1).

        ``move`` must be legal here. The first option in the order B, F, DD, MM, C2, U whose
        shape fits and under which the actions are legal.
        """
        kind = kind_of(self.board[move.origin])
        candidates = self._candidates(kind, _shape(move.actions))
        if len(candidates) == 1 or candidates[0] == move.option:
            return candidates[0]
        spec = spec_of(move)
        for code in candidates:
            if code == move.option:
                return code
            try:
                self._run(code, spec, kind)
            except IllegalMoveError:
                continue
            return code
        raise IllegalMoveError(f"{move!r} is not legal here", rule="§6.1")

    def piece_turn_position(self, turn: Turn, index: int) -> Position:
        """A copy of this position after the first ``index`` piece-turns of ``turn`` (§8.1)."""
        other = self.copy()
        for part in turn.parts[:index]:
            other._apply(part)
        return other

