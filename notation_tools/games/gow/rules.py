"""The Game of War position: lines of communication, movement, combat, retreat, the end.

:class:`Position` owns every rule question about a position (spec §4-§11): which units are
online, which actions are legal at the current point of a turn (spec §17), what an attack's
offence and defence are, and what a turn does. ``push`` applies a whole :class:`Turn` or a single
action and trusts that it is legal; :meth:`Position.resolve` checks a turn written in a record
action by action and raises the diagnostic of the first rule it breaks. This module parses no
text and formats no position string.

>>> from notation_tools.games.gow import GAME
>>> pos = GAME.start_position(GAME.parse_rules(None))
>>> sum(1 for _ in pos.legal_moves())
123
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, cast

from notation_tools.compiled import load as load_compiled
from notation_tools.games import base
from notation_tools.games.base import IllegalMoveError, Outcome, Rules, options_of
from notation_tools.games.gow.moves import Action, Attack, EndTurn, Step, Turn
from notation_tools.games.gow.options import Options
from notation_tools.games.gow.pieces import (
    ARSENAL_OWNER, ARSENALS, ATTACK, COLS, MOVES_PER_TURN, CAVALRY, CHARGE, DEFENCE, FIRE_RAYS, FORT, IS_FIGHTING,
    IS_RELAY, MIDDLES, NAMES, NEIGHBOURS, PASS, PLAIN, RANGE, RAYS, SIDE_NAMES, SIDE_OF,
    SIZE, SPEED, STEPS1, STEPS2, TERRAIN, MOUNTAIN, code, distance, kind_name, unit_name)

# Per side, per unit code: does that code stop this side's rays / is it this side's fighting
# unit / relay. Tuples indexed by code are the fastest lookup in the inner loops.
_ENEMY_FIGHTING = tuple(tuple(IS_FIGHTING[v] and SIDE_OF[v] != side for v in range(16))
                        for side in (0, 1))
_OWN_FIGHTING = tuple(tuple(IS_FIGHTING[v] and SIDE_OF[v] == side for v in range(16))
                      for side in (0, 1))
_OWN_RELAY = tuple(tuple(IS_RELAY[v] and SIDE_OF[v] == side for v in range(16))
                   for side in (0, 1))
_ARSENAL_INDEX = {square: index for index, square in enumerate(ARSENALS)}
_SIDE_ARSENALS = tuple(tuple(i for i, s in enumerate(ARSENALS) if ARSENAL_OWNER[s] == side)
                       for side in (0, 1))
MARK_TEXT = {"D": "target destroyed", "R": "forced retreat", "0": "no effect"}


class Status:
    """One side's communication (§6.2), as bit sets (bit *s* for square *s*): the covered
    squares, the online fighting units, the online relays and all the side's units; and how
    many fighting units the side has. ``covered[square]`` reads 1 or 0; ``online`` and
    ``relays_online`` are the same squares as sets, built on first use."""

    __slots__ = ("covered_bits", "online_bits", "relays_online_bits", "unit_bits", "fighting",
                 "_online", "_relays_online")

    def __init__(self, covered_bits: int, online_bits: int, relays_online_bits: int,
                 unit_bits: int, fighting: int) -> None:
        self.covered_bits = covered_bits
        self.online_bits = online_bits
        self.relays_online_bits = relays_online_bits
        self.unit_bits = unit_bits
        self.fighting = fighting
        self._online: set[int] | None = None
        self._relays_online: set[int] | None = None

    @property
    def covered(self) -> SquareBits:
        return SquareBits(self.covered_bits)

    @property
    def online(self) -> set[int]:
        """The squares of the side's online fighting units."""
        if self._online is None:
            self._online = set(_squares(self.online_bits))
        return self._online

    @property
    def relays_online(self) -> set[int]:
        """The squares of the side's online relays (per ``relay-status``)."""
        if self._relays_online is None:
            self._relays_online = set(_squares(self.relays_online_bits))
        return self._relays_online


class SquareBits:
    """A set of squares held as the bits of an integer, read like a list of 0 and 1."""

    __slots__ = ("bits",)

    def __init__(self, bits: int) -> None:
        self.bits = bits

    def __getitem__(self, square: int) -> int:
        return (self.bits >> square) & 1


@dataclasses.dataclass(frozen=True, slots=True)
class Combat:
    """The sums of one attack (spec §8.3-§8.6).

    ``offence_parts`` and ``defence_parts`` list ``(square, value, how)`` for every contributor,
    ``how`` being ``charge``, ``fire``, ``self`` or ``support``; ``columns`` are the charging
    cavalry columns.
    """

    target: int
    offence: int
    defence: int
    offence_parts: tuple[tuple[int, int, str], ...]
    defence_parts: tuple[tuple[int, int, str], ...]
    columns: tuple[tuple[int, ...], ...]

    @property
    def mark(self) -> str:
        """The outcome mark (spec §8.6): ``D`` destroyed, ``R`` forced retreat, ``0`` no effect."""
        diff = self.offence - self.defence
        return "D" if diff >= 2 else "R" if diff == 1 else "0"

    def explain(self) -> str:
        parts = ", ".join(f"{NAMES[s]} {v}" for s, v, _ in self.offence_parts) or "none"
        dparts = ", ".join(f"{NAMES[s]} {v}" for s, v, _ in self.defence_parts) or "none"
        return f"offence {self.offence} ({parts}), defence {self.defence} ({dparts})"


def _bits(squares: Any) -> int:
    bits = 0
    for square in squares:
        bits |= 1 << square
    return bits


def _squares(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


_DIRECTION_BITS = tuple(tuple(_bits(ray) for ray in rays) for rays in RAYS)
"""Each ray of every square (in the order of ``DIRECTIONS``) as bits."""
# Each ray of every square as (its squares as bits, whether it runs towards higher squares):
# a ray's squares are monotonic in their index, so the nearest blocker on it is the lowest or
# the highest of its bits, and the squares before the blocker are the bits below or above it.
_RAY_BITS = tuple(tuple((bits, ray[0] > square) for ray, bits in zip(rays, directions) if ray)
                  for square, (rays, directions) in enumerate(zip(RAYS, _DIRECTION_BITS)))
_ALL_RAY_BITS = tuple(functools.reduce(operator.or_, directions)
                      for directions in _DIRECTION_BITS)
_RAY_PAIRS = tuple(tuple((directions[d], directions[d - 4]) for d in range(8)
                         if directions[d] and directions[d - 4])
                   for directions in _DIRECTION_BITS)
"""For each square, each ray from it (as bits) with the ray in the opposite direction: a line
that runs through the square comes from an emitter on the one and goes on along the other."""
_BOARD = (1 << SIZE) - 1
_BIT = tuple(1 << square for square in range(SIZE))
_NOT_WEST = _BOARD & ~_bits(range(0, SIZE, COLS))
"""Every square but column 1: where a step east may land (it cannot wrap from column 25)."""
_NOT_EAST = _BOARD & ~_bits(range(COLS - 1, SIZE, COLS))


def _neighbours_of(bits: int) -> int:
    """The squares adjacent to any square of ``bits`` (shifts of the bit set, with the edge
    columns masked so that no step wraps round a row)."""
    east = (bits << 1 | bits << (COLS + 1) | bits >> (COLS - 1)) & _NOT_WEST
    west = (bits >> 1 | bits >> (COLS + 1) | bits << (COLS - 1)) & _NOT_EAST
    return (east | west | bits << COLS | bits >> COLS) & _BOARD


_EMITTED: dict[tuple[int, int], int] = {}
"""What an emitter covers, by its square and the blockers on its rays: the same few cases
recur from turn to turn (an arsenal's surroundings rarely change)."""
_EMITTED_SIZE = 1 << 16


def _emit(square: int, hits: int) -> int:
    """The squares the rays from ``square`` cover, ``hits`` being the blocking squares on them."""
    key = (square, hits)
    found = _EMITTED.get(key)
    if found is not None:
        return found
    covered = 0
    for ray, upward in _RAY_BITS[square]:
        hit = ray & hits
        if not hit:
            covered |= ray
        elif upward:  # the nearest blocker is the lowest bit; the squares before it lie below
            covered |= ray & ((hit & -hit) - 1)
        else:  # the nearest blocker is the highest bit; the squares before it lie above
            covered |= ray & ~((1 << hit.bit_length()) - 1)
    if len(_EMITTED) >= _EMITTED_SIZE:
        _EMITTED.clear()
    _EMITTED[key] = covered
    return covered


def compute_status(board: list[int], squares: Any, enemy_squares: Any, side: int,
                   sources: list[int], opts: Options, blockers: Any = None) -> Status:
    """Lines of communication of ``side`` (§6.2), from the squares of the units.

    ``squares`` are the side's unit squares and ``enemy_squares`` the other side's,
    ``sources`` its surviving arsenals; ``blockers`` is ``None`` (every enemy fighting unit
    cuts lines) or the set of squares that cut them.
    """
    relay_bits = fighting_bits = block_bits = enemy_bits = 0
    bit = _BIT
    for s in squares:
        if IS_RELAY[board[s]]:
            relay_bits |= bit[s]
        else:
            fighting_bits |= bit[s]
    for s in enemy_squares:
        enemy_bits |= bit[s]
        if IS_FIGHTING[board[s]]:
            block_bits |= bit[s]
    if blockers is not None:  # squares that cut lines, when a unit stands on them
        block_bits = _bits(blockers) & (enemy_bits | relay_bits | fighting_bits)
    return communication(fighting_bits, relay_bits, block_bits, _bits(sources), opts)


_NEAR = tuple(frozenset(steps) for steps in STEPS1)
"""The squares next to each square that a move may enter (not mountains)."""
_NEIGHBOUR_BITS = tuple(_bits(near) for near in NEIGHBOURS)
"""The squares next to each square, as bits."""

_COVERED: dict[tuple[int, int, int], tuple[int, int]] = {}
"""What the sources and the relays on their lines cover, and which of them emit, by the
sources, the relays and the blocking squares: none of these change when a fighting unit of
the side moves, so the moves of one turn find it here."""
_COVERED_SIZE = 1 << 12
_RAYS_OF: dict[int, int] = {}
"""The squares on the rays of the emitters (sources and relays), by the emitters."""


def _lines(pending: int, relay_bits: int, block_bits: int, covered: int,
           emitted: int) -> tuple[int, int]:
    """Covered and emitting squares once the emitters ``pending`` (and every relay their
    lines reach, in turn) have emitted."""
    while pending:
        low = pending & -pending
        pending ^= low
        e = low.bit_length() - 1
        emitted |= low
        hits = _ALL_RAY_BITS[e] & block_bits
        covered |= low | (_EMITTED.get((e, hits)) or _emit(e, hits))
        pending |= covered & relay_bits & ~emitted
    return covered, emitted


def _emitter_rays(emitters: int) -> int:
    """The squares on the rays of the emitters ``emitters`` (sources and relays), cached."""
    rays = _RAYS_OF.get(emitters)
    if rays is None:
        rays = 0
        for square in _squares(emitters):
            rays |= _ALL_RAY_BITS[square]
        if len(_RAYS_OF) >= _COVERED_SIZE:
            _RAYS_OF.clear()
        _RAYS_OF[emitters] = rays
    return rays


def _source_lines(source_bits: int, relay_bits: int, block_bits: int) -> tuple[int, int]:
    """Covered and emitting squares of the lines from the sources and the relays they reach.

    Only blockers on a ray of a source or relay can matter, so only those enter the key:
    an enemy unit moving elsewhere leaves the answer where it was."""
    emitters = source_bits | relay_bits
    rays = _RAYS_OF.get(emitters)
    if rays is None:
        rays = _emitter_rays(emitters)
    block_bits &= rays
    key = (source_bits, relay_bits, block_bits)
    found = _COVERED.get(key)
    if found is None:
        found = _lines(source_bits, relay_bits, block_bits, 0, 0)
        if len(_COVERED) >= _COVERED_SIZE:
            _COVERED.clear()
        _COVERED[key] = found
    return found


def _reaches(start: int, chain_bits: int, covered: int) -> bool:
    """Whether the squares of ``chain_bits`` connected to ``start`` (a bit of it) include a
    covered one: whether the unit there is online (§6.2), found without the other units'
    answers."""
    component = frontier = start
    while frontier:
        if frontier & covered:
            return True
        frontier = _neighbours_of(frontier) & chain_bits & ~component
        component |= frontier
    return False


def communication(fighting_bits: int, relay_bits: int, block_bits: int, source_bits: int,
                  opts: Options) -> Status:
    """Lines of communication of a side (§6.2) on bit sets: its fighting units, its relays,
    the squares that cut its lines and its surviving arsenals."""
    covered, emitted = _source_lines(source_bits, relay_bits, block_bits)
    return _spread(covered, emitted, fighting_bits, relay_bits, block_bits, opts)


def _spread(covered: int, emitted: int, fighting_bits: int, relay_bits: int, block_bits: int,
            opts: Options) -> Status:
    """The rest of :func:`communication` once the lines from the sources (``covered``, and the
    ``emitted`` squares whose units re-emitted) are known: the units connected to them."""
    covered, online, relays_online = _connected(covered, emitted, fighting_bits, relay_bits,
                                                block_bits, opts.adjacency_via_relays,
                                                opts.relay_adjacent, opts.relay_status)
    return Status(covered, online, relays_online, fighting_bits | relay_bits,
                  fighting_bits.bit_count())


def _connected(covered: int, emitted: int, fighting_bits: int, relay_bits: int,
               block_bits: int, via_relays: bool, relay_adjacent: bool,
               relay_status: str) -> tuple[int, int, int]:
    """:func:`_spread`'s answer as bits, without the :class:`Status` around it: the covered
    squares (relays next to online units may add theirs), the online fighting units and the
    online relays. The last three are the options ``adjacency-via-relays`` (as a bool),
    ``relay-activation=line-or-adjacent`` (as a bool) and ``relay-status``."""
    chain_bits = fighting_bits | relay_bits if via_relays else fighting_bits
    while True:
        members = frontier = covered & chain_bits
        rest = chain_bits & ~members
        while frontier and rest:
            # The squares adjacent to the frontier (and the frontier itself, which is no longer
            # in ``rest``): the frontier widened along its rows (masked so that no step wraps
            # round a row), then that moved one row up and one row down.
            row = frontier | frontier << 1 & _NOT_WEST | frontier >> 1 & _NOT_EAST
            frontier = (row | row << COLS | row >> COLS) & rest
            members |= frontier
            rest ^= frontier
        if relay_adjacent:
            extra = relay_bits & ~emitted & _neighbours_of(members & fighting_bits)
            if extra:
                covered, emitted = _lines(extra, relay_bits, block_bits, covered, emitted)
                continue
        break
    online = members & fighting_bits
    if relay_status == "always":
        relays_online = relay_bits
    elif relay_status == "covered":
        relays_online = relay_bits & (covered | members)
    else:
        relays_online = relay_bits & (covered | members)
        pending = relay_bits & ~relays_online
        while pending:
            low = pending & -pending
            pending ^= low
            if _NEIGHBOUR_BITS[low.bit_length() - 1] & online:
                relays_online |= low
    return covered, online, relays_online


def sides_online_python(sources: Sequence[int], relays: Sequence[int], fighting: Sequence[int],
                        options: tuple[bool, bool, str],
                        counted: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """How many units of each side are online (§6.2): from each side's sources, relays and
    fighting units as bits (pairs indexed by side, as :attr:`Position.fighting_bits` is), each
    side's lines being cut by the other's fighting units (``offline-units-block=yes``), under
    ``options``, the three that :func:`_connected` takes. For north and for south: how many of
    its fighting units and of its relays are online, how many fighting units it has, and how
    many of its units stand on the squares of each of ``counted`` (at most four bit sets).

    The reference of the compiled ``_lines.sides_online``, which ``pip install .`` builds when
    a C compiler is at hand (see :mod:`notation_tools.compiled`); :data:`sides_online` is the
    compiled one, or ``None``. The tests compare the two."""
    out = []
    for side in (0, 1):
        cutting = fighting[1 - side]
        covered, emitted = _source_lines(sources[side], relays[side], cutting)
        _, online, relays_online = _connected(covered, emitted, fighting[side], relays[side],
                                              cutting, *options)
        units = fighting[side] | relays[side]
        out.append((online.bit_count(), relays_online.bit_count(), fighting[side].bit_count(),
                    *((units & squares).bit_count() for squares in counted)))
    return tuple(out)


class _CompiledLines(Protocol):
    """What the compiled ``_lines`` module exports (``_lines.c``; :func:`load_compiled` checks
    that both names are there): the geometry it is set up with once, and the counts of
    :func:`sides_online_python`, which it takes positionally."""

    def setup(self, rays: tuple[tuple[tuple[int, ...], ...], ...],
              neighbours: tuple[tuple[int, ...], ...], /) -> None: ...

    def sides_online(self, sources: Sequence[int], relays: Sequence[int],
                     fighting: Sequence[int], options: tuple[bool, bool, str],
                     counted: tuple[int, ...], /) -> tuple[tuple[int, ...], ...]: ...


# load_compiled returns a plain module; the names it checked are those of _CompiledLines
_compiled_lines = cast("_CompiledLines | None",
                       load_compiled("games.gow._lines", "setup", "sides_online"))
if _compiled_lines is not None:
    _compiled_lines.setup(RAYS, NEIGHBOURS)
sides_online: Callable[[Sequence[int], Sequence[int], Sequence[int], tuple[bool, bool, str],
                        tuple[int, ...]], tuple[tuple[int, ...], ...]] | None = (
    _compiled_lines.sides_online if _compiled_lines is not None else None)
""":func:`sides_online_python` compiled, when it was built; else ``None``. Worked out afresh
after every turn for both sides, it costs less than :class:`OnlineFollower` does in Python
following the changes (the statistics of §18 read it after every turn; issue #14)."""


UnitsOnline = tuple[int, int, int, int]
"""What a side's units read of its communication: the squares of its online fighting units
and of its online relays, the squares of all its units, and how many fighting units it has
(the fields of :class:`Status` but the covered squares)."""


def units_online(status: Status) -> UnitsOnline:
    """What the side's units read of ``status``."""
    return (status.online_bits, status.relays_online_bits, status.unit_bits, status.fighting)


class OnlineFollower:
    """What one side's units read of :meth:`Position.status` (its :data:`UnitsOnline`), along
    the positions of a game, worked out again only when it may have changed: the statistics of
    §18 read it after every turn, and a turn rarely changes what the side that did not move
    reads.

    Why the answer is the same: :func:`communication` reads the side's sources, its relays,
    its fighting units and the squares that cut its lines. A line runs square by square from
    an emitting square (every emitter is covered) and stops before the first cutting square on
    it. So while the side's own bit sets stay, a cutting square that came or went changes a
    line only if it was covered or next to a covered square (it is then the first change on
    that line), and the line changes only beyond it, on the rays from it. Hence: when no square
    that came or went since the lines were last worked out lies in the covered squares or next
    to them (the ``watch``), the lines are the same; when those that do have none of the
    side's units on their rays, no unit of the side is covered or uncovered, so no relay starts
    or stops emitting and the units read the same (only squares where the side has no unit
    changed). When the lines must be worked out again, those the engine kept for this side
    during the turn (``_lines_memo``) serve if they came from the same bit sets. Under
    ``offline-units-block=no`` the cutting squares are the enemy's online units, which depend
    on the enemy's whole position: there it asks :meth:`Position.status`.
    """

    __slots__ = ("side", "_options", "_alive", "_sources", "_relays", "_fighting", "_blockers",
                 "_source_cover", "_watched", "_watch", "_online")

    def __init__(self, side: int) -> None:
        self.side = side
        self._options: Options | None = None
        self._alive: list[bool] | None = None
        """The arsenals standing when ``_sources`` was read: the side's sources follow from
        them, so they are read again only when an arsenal falls (or a take-back raises one)."""
        self._sources = self._relays = self._fighting = self._blockers = self._watched = -1
        self._source_cover = (0, 0)
        """The covered and emitting squares of the lines from the sources for ``_blockers``,
        before any relay next to an online unit adds its own
        (``relay-activation=line-or-adjacent``)."""
        self._watch = 0
        self._online: UnitsOnline = (0, 0, 0, 0)

    def online(self, position: Position) -> UnitsOnline:
        """``position.status(side)``'s online fighting units, online relays, units and number
        of fighting units; the same tuple as the last call's when none of them changed.

        Called after every turn, for both sides: one side's units moved, and the other's lines
        may have been cut or freed; so the common cases come first and the work is inline."""
        side = self.side
        opts = position.options
        if not opts.offline_units_block:
            return self._keep(position.status(side))
        fighting_bits = position.fighting_bits
        fighting = fighting_bits[side]
        blockers = fighting_bits[1 - side]
        relays = position.relay_bits[side]
        alive = position.alive
        if relays == self._relays and alive == self._alive and opts is self._options:
            if blockers == self._blockers:  # the side that moved: its lines stand
                if fighting == self._fighting:
                    return self._online
                changed = 0
            else:
                changed = (blockers ^ self._blockers) & self._watch
                if fighting == self._fighting and (not changed or not self._reaches_units(
                        changed, self._sources | relays, fighting | relays)):
                    return self._online
        else:
            self._options, self._relays, self._alive = opts, relays, alive[:]
            self._sources = position._source_bits(side)
            changed = 1
        if changed:
            sources = self._sources
            last = position._lines_memo[side]
            if (last is not None and last[0] == sources and last[1] == relays
                    and last[2] == blockers):
                self._source_cover = (last[3], last[4])
            else:
                self._source_cover = _source_lines(sources, relays, blockers)
        self._blockers = blockers  # the lines are those for these cutting squares
        self._fighting = fighting
        covered, emitted = self._source_cover
        covered, online, relays_online = _connected(covered, emitted, fighting, relays,
                                                    blockers, opts.adjacency_via_relays,
                                                    opts.relay_adjacent, opts.relay_status)
        if covered != self._watched:
            self._watched, self._watch = covered, covered | _neighbours_of(covered)
        found = (online, relays_online, fighting | relays, fighting.bit_count())
        if found != self._online:
            self._online = found
        return self._online

    @staticmethod
    def _reaches_units(changed: int, emitters: int, units: int) -> bool:
        """Whether a line from ``emitters`` through a square of ``changed`` may go on to a
        square of ``units``: whether one of ``units`` stands on a ray from such a square whose
        opposite ray holds one of ``emitters``."""
        for square in _squares(changed):
            # The emitters first: a side has few, so most squares have none on their rays.
            if _ALL_RAY_BITS[square] & emitters:
                for ray, back in _RAY_PAIRS[square]:
                    if ray & units and back & emitters:
                        return True
        return False

    def _keep(self, status: Status) -> UnitsOnline:
        online = units_online(status)
        if online != self._online:
            self._online = online
        return self._online


class Position(base.Position[Any]):
    """A Game of War position, possibly inside a turn (spec §4, §17).

    State: ``board`` (500 unit codes, 0 = empty), ``alive`` (the four arsenals in the order
    B15, D8, T3, T23), ``turn`` (side to act), ``turn_number`` (spec §5.3), ``retreat`` (square
    of the pending forced retreat of the side to move, or None), and the progress of the turn
    in hand (units moved, arsenal taken). ``units`` holds each side's unit squares, and
    ``fighting_bits`` and ``relay_bits`` the same squares as bits by kind. Statuses are computed
    on demand and cached until the board changes.
    """

    __slots__ = ("rules", "options", "board", "alive", "turn", "turn_number", "retreat", "units",
                 "fighting_bits", "relay_bits", "started", "moves_made", "moved", "arsenal_taken", "dislodged", "failed",
                 "limit", "events", "last_events", "_history", "_status", "_outcome", "_over",
                 "_resolved", "_lines_memo", "notes")

    def __init__(self, rules: Rules, board: Sequence[int], alive: list[bool], turn: int,
                 turn_number: int, retreat: int | None) -> None:
        self.rules = rules
        self.options: Options = options_of(Options, rules)
        # A bytearray: the snapshot kept for pop() at every push copies it in one piece.
        self.board = bytearray(board)
        self.alive = alive
        self.turn = turn
        self.turn_number = turn_number
        self.retreat = retreat
        self.units: list[set[int]] = [set(), set()]
        self.fighting_bits = [0, 0]
        self.relay_bits = [0, 0]
        for s, v in enumerate(board):
            if v:
                self.units[SIDE_OF[v]].add(s)
                if IS_FIGHTING[v]:
                    self.fighting_bits[SIDE_OF[v]] |= 1 << s
                else:
                    self.relay_bits[SIDE_OF[v]] |= 1 << s
        self.started = False
        self.moves_made = 0
        self.moved: set[int] = set()
        self.arsenal_taken: int | None = None
        self.dislodged = retreat
        self.failed: tuple[int, int, str] | None = None
        self.limit = MOVES_PER_TURN
        self.events: list[tuple[Any, ...]] = []
        self.last_events: list[tuple[Any, ...]] = []
        self._history: list[tuple[Turn | Action, tuple[Any, ...]]] = []
        self._status: list[Status | None] = [None, None]
        self._outcome: tuple[Outcome | None] | None = None
        self._over: bool | None = None
        self._resolved: tuple[Turn, tuple[Any, ...], tuple[Any, ...]] | None = None
        self._lines_memo: list[tuple[int, int, int, int, int] | None] = [None, None]
        """Per side, the last (sources, relays, blockers, covered squares, emitting squares)
        worked out: the moves of a turn by fighting units ask again with the same three, and
        :class:`OnlineFollower` once the turn is over."""
        self.notes: tuple[tuple[str, str], ...] = ()

    # ---- state save/restore ----------------------------------------------------------------

    def _snapshot(self) -> tuple[Any, ...]:
        # Compact (the board as bytes, the unit sets as tuples): a record keeps one snapshot
        # per ply for pop(), so a 100,000-ply record must not keep 100,000 boards of objects.
        return (bytes(self.board), tuple(self.alive), self.turn, self.turn_number,
                self.retreat, tuple(self.units[0]), tuple(self.units[1]), self.started,
                self.moves_made, tuple(self.moved), self.arsenal_taken, self.dislodged,
                self.failed, self.limit, self.events, len(self.events), self.last_events,
                tuple(self.fighting_bits), tuple(self.relay_bits))

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (board, alive, self.turn, self.turn_number, self.retreat, u0, u1, self.started,
         self.moves_made, moved, self.arsenal_taken, self.dislodged, self.failed,
         self.limit, events, n_events, self.last_events, fighting_bits, relay_bits) = snap
        # New objects each time: a snapshot may be restored twice when a copy() shares the
        # history.
        self.board = bytearray(board)
        self.alive = list(alive)
        self.units = [set(u0), set(u1)]
        self.fighting_bits = list(fighting_bits)
        self.relay_bits = list(relay_bits)
        self.moved = set(moved)
        self.events = events[:n_events]
        self._touch()

    def _touch(self) -> None:
        self._status = [None, None]
        self._outcome = None
        self._over = None
        self._resolved = None

    def _hand(self) -> tuple[Any, ...]:
        """The state that a turn's steps change, as the objects themselves (not copies)."""
        return (self.board, self.alive, self.units, self.fighting_bits, self.relay_bits,
                self.moved, self.events, self.retreat, self.started, self.moves_made,
                self.arsenal_taken, self.dislodged, self.failed, self.limit, self._status)

    def _take_hand(self, hand: tuple[Any, ...]) -> None:
        (self.board, self.alive, self.units, self.fighting_bits, self.relay_bits, self.moved,
         self.events, self.retreat, self.started, self.moves_made, self.arsenal_taken,
         self.dislodged, self.failed, self.limit, self._status) = hand
        self._outcome = None
        self._over = None
        self._resolved = None

    def copy(self) -> Position:
        """An independent copy (history included, so it can be popped)."""
        new = Position.__new__(Position)
        new.rules = self.rules
        new.options = self.options
        new.board = self.board[:]
        new.alive = self.alive[:]
        new.turn = self.turn
        new.turn_number = self.turn_number
        new.retreat = self.retreat
        new.units = [set(self.units[0]), set(self.units[1])]
        new.fighting_bits = self.fighting_bits[:]
        new.relay_bits = self.relay_bits[:]
        new.started = self.started
        new.moves_made = self.moves_made
        new.moved = set(self.moved)
        new.arsenal_taken = self.arsenal_taken
        new.dislodged = self.dislodged
        new.failed = self.failed
        new.limit = self.limit
        new.events = list(self.events)
        new.last_events = list(self.last_events)
        new._history = list(self._history)
        new._status = list(self._status)
        new._outcome = self._outcome
        new._over = self._over
        new._resolved = None
        new._lines_memo = self._lines_memo[:]
        new.notes = self.notes
        return new

    def __eq__(self, other: object) -> bool:
        """Positions are equal when their position strings would be (turn in hand included)."""
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[Any, ...]:
        return (tuple(self.board), tuple(self.alive), self.turn, self.turn_number, self.retreat,
                self.started, self.moves_made, frozenset(self.moved), self.arsenal_taken,
                self.rules)

    # ---- basic queries ---------------------------------------------------------------------

    def sources(self, side: int) -> list[int]:
        """The surviving arsenals of ``side`` (spec §6.1: the sources of its lines)."""
        return [ARSENALS[i] for i in _SIDE_ARSENALS[side] if self.alive[i]]

    def status(self, side: int) -> Status:
        """The communication of ``side`` on the current position (spec §6), cached."""
        cached = self._status[side]
        if cached is not None:
            return cached
        opts = self.options
        fighting, relays = self.fighting_bits, self.relay_bits
        if opts.offline_units_block:
            status = communication(fighting[side], relays[side], fighting[1 - side],
                                   self._source_bits(side), opts)
            self._status[side] = status
            return status
        # offline-units-block=no (spec §6.2): pass 1 with every enemy fighting unit blocking,
        # pass 2 with only the enemy units that pass 1 found online.
        first = [communication(fighting[s], relays[s], fighting[1 - s], self._source_bits(s),
                               opts) for s in (0, 1)]
        for s in (0, 1):
            self._status[s] = communication(fighting[s], relays[s], first[1 - s].online_bits,
                                            self._source_bits(s), opts)
        result = self._status[side]
        assert result is not None
        return result

    def _is_fighting_online(self, side: int, square: int) -> bool:
        """Whether ``side``'s fighting unit on ``square`` is online: what :meth:`status` says,
        without working out every other unit's answer when that is not cached."""
        cached = self._status[side]
        opts = self.options
        if cached is not None or opts.relay_adjacent or not opts.offline_units_block:
            return bool(self.status(side).online_bits >> square & 1)
        relays = self.relay_bits[side]
        sources = self._source_bits(side)
        blockers = self.fighting_bits[1 - side]
        last = self._lines_memo[side]
        if last is not None and last[0] == sources and last[1] == relays and last[2] == blockers:
            covered = last[3]
        else:
            covered, emitted = _source_lines(sources, relays, blockers)
            self._lines_memo[side] = (sources, relays, blockers, covered, emitted)
        chain = self.fighting_bits[side]
        if opts.adjacency_via_relays:
            chain |= relays
        return _reaches(_BIT[square], chain, covered)

    def _source_bits(self, side: int) -> int:
        alive = self.alive
        bits = 0
        for i in _SIDE_ARSENALS[side]:
            if alive[i]:
                bits |= _BIT[ARSENALS[i]]
        return bits

    def is_online(self, square: int) -> bool:
        """Whether the unit on ``square`` is in communication (relays per ``relay-status``)."""
        v = self.board[square]
        if not v:
            return False
        st = self.status(SIDE_OF[v])
        return bool((st.online_bits if IS_FIGHTING[v] else st.relays_online_bits) >> square & 1)

    def offline_units(self, side: int) -> tuple[list[int], list[int]]:
        """Squares of ``side``'s offline fighting units and offline relays."""
        st = self.status(side)
        squares = sorted(self.units[side])
        fighting = [s for s in squares if IS_FIGHTING[self.board[s]] and s not in st.online]
        relays = [s for s in squares if IS_RELAY[self.board[s]] and s not in st.relays_online]
        return fighting, relays

    def fighting_count(self, side: int) -> int:
        return self.fighting_bits[side].bit_count()

    def has_fighting(self, side: int) -> bool:
        return self.fighting_bits[side] != 0

    def _enemy_arsenal(self, square: int, side: int) -> bool:
        owner = ARSENAL_OWNER.get(square)
        return owner is not None and owner != side and self.alive[_ARSENAL_INDEX[square]]

    # ---- turn start: the forced retreat (spec §9) -------------------------------------------

    def _retreat_failure(self) -> str | None:
        """Why the pending retreat is impossible (``offline`` / ``no square``), or None."""
        r = self.retreat
        if r is None:
            return None
        v = self.board[r]
        if IS_FIGHTING[v] and not self.options.offline_retreat_move and not self.status(SIDE_OF[v]).online_bits >> r & 1:
            return "offline"
        if not self._destinations(r, retreat=True):
            return "no square"
        return None

    def _begin(self) -> None:
        """Start the turn in hand: destroy a dislodged unit that cannot retreat (spec §9)."""
        if self.started:
            return
        self.started = True
        self._resolved = None
        self.limit = MOVES_PER_TURN
        self.failed = None
        cause = self._retreat_failure()
        if cause is not None:
            r = self.retreat
            assert r is not None
            v = self.board[r]
            self._remove(r, v)
            self.failed = (r, v, cause)
            self.retreat = None
            self.dislodged = None
            if self.options.failed_retreat_uses_move:
                self.limit = 4
            self.events.append(("failed-retreat", r, v, cause))
            self._touch()

    def _remove(self, square: int, v: int) -> None:
        """Take the unit ``v`` off ``square``."""
        self.board[square] = 0
        side = SIDE_OF[v]
        self.units[side].discard(square)
        if IS_FIGHTING[v]:
            self.fighting_bits[side] &= ~_BIT[square]
        else:
            self.relay_bits[side] &= ~_BIT[square]

    def _began(self) -> Position:
        """``self`` if the turn has started (or nothing happens at its start), else a copy on
        which it has."""
        if self.started or self.retreat is None:
            return self
        copy = self.copy()
        copy._begin()
        return copy

    # ---- movement (spec §7) ------------------------------------------------------------------

    def _lifted_online(self, origin: int, side: int) -> int:
        """Squares online for ``side`` with the unit on ``origin`` lifted (spec §7.2), as bits:
        the covered squares and those of or next to an online fighting unit."""
        lifted = ~_BIT[origin]
        st = communication(self.fighting_bits[side] & lifted, self.relay_bits[side] & lifted,
                           self.fighting_bits[1 - side], self._source_bits(side), self.options)
        return st.covered_bits | st.online_bits | _neighbours_of(st.online_bits)

    def _destinations(self, origin: int, *, retreat: bool = False) -> list[int]:
        """Squares the unit on ``origin`` may move to now, ignoring whether it may move at all."""
        board = self.board
        v = board[origin]
        side = SIDE_OF[v]
        out = [d for d in STEPS1[origin] if not board[d]]
        speed = 1 if retreat and self.options.retreat_one else SPEED[v]
        if speed == 2:
            online = None
            for d, middles in STEPS2[origin]:
                if board[d]:
                    continue
                if self.options.two_step_via_online:
                    if online is None:
                        online = self._lifted_online(origin, side)
                    if not any(not board[m] and online >> m & 1 for m in middles):
                        continue
                elif all(board[m] for m in middles):
                    continue
                out.append(d)
        return [d for d in out if self._may_enter(v, d, side, retreat)]

    def _may_enter(self, v: int, d: int, side: int, retreat: bool) -> bool:
        if not self._enemy_arsenal(d, side):
            return True
        if not IS_FIGHTING[v]:
            return self.options.relay_on_arsenal
        if retreat:
            return self.options.retreat_arsenal
        return self.arsenal_taken is None

    def _retreat_now(self) -> bool:
        return self.retreat is not None and self.moves_made == 0

    def legal_steps(self) -> list[Step]:
        """Every legal move at this point of the turn (spec §7, §9, §17)."""
        if self._ended():
            return []
        pos = self._began()
        if pos._decided() or pos.moves_made >= pos.limit:
            return []
        if pos.arsenal_taken is not None and not pos.options.arsenal_then_moves:
            return []
        if pos._retreat_now():
            r = pos.retreat
            assert r is not None
            return [Step(r, d) for d in pos._destinations(r, retreat=True)]
        side = pos.turn
        online = pos.status(side).online_bits
        out: list[Step] = []
        for s in sorted(pos.units[side]):
            if s in pos.moved:
                continue
            v = pos.board[s]
            if IS_FIGHTING[v] and not online >> s & 1:
                continue
            out.extend(Step(s, d) for d in pos._destinations(s))
        return out

    # ---- combat (spec §8) --------------------------------------------------------------------

    def combat(self, target: int) -> Combat:
        """Offence and defence of an attack by the side to move on ``target`` (spec §8.3-§8.5)."""
        board = self.board
        opts = self.options
        v_target = board[target]
        defender = SIDE_OF[v_target]
        attacker = 1 - defender
        st_a = self.status(attacker)
        st_d = self.status(defender)
        online_a = st_a.online_bits
        dislodged = self.dislodged if self.turn == attacker else None
        cavalry = code(attacker, CAVALRY)
        terrain = TERRAIN[target]
        columns: list[tuple[int, ...]] = []
        if terrain != PASS and terrain != FORT:
            # charge-directions=last-moved: only the line through the target on which the
            # last unit moved this turn stands may charge (§8.4; JeuDeLaGuerre's reading)
            last = self._last_moved() if opts.charge_last_moved else None
            for ray in FIRE_RAYS[target]:
                if opts.charge_last_moved and last not in ray:
                    continue
                column = []
                for s in ray:
                    if (board[s] == cavalry and online_a >> s & 1 and TERRAIN[s] != FORT
                            and s != dislodged):
                        column.append(s)
                    else:
                        break
                if column:
                    columns.append(tuple(column))
            if opts.charge_four:
                columns = [c for c in columns if len(c) == 4]
            if opts.charge_single and columns:
                columns = [max(columns, key=len)]
        charging = {s for c in columns for s in c}
        off_parts = [(s, CHARGE, "charge") for c in columns for s in c]
        offence = CHARGE * len(charging)
        blocked_by = opts.fire_blocked_by
        bonus_unit = opts.bonus_unit
        relay_range = opts.relay_range
        online_d = st_d.online_bits
        relays_d = st_d.relays_online_bits
        if v_target and IS_FIGHTING[v_target]:
            own = DEFENCE[v_target][terrain] if online_d >> target & 1 else 0
        else:
            own = 1 if relays_d >> target & 1 else 0
        def_parts = [(target, own, "self")]
        defence = own
        for ray in FIRE_RAYS[target]:
            seen_a = seen_d = False
            for k, s in enumerate(ray, 1):
                v = board[s]
                if not v:
                    continue
                side = SIDE_OF[v]
                if side == attacker:
                    if (s not in charging and IS_FIGHTING[v] and k <= RANGE[v] and online_a >> s & 1
                            and s != dislodged
                            and not (blocked_by == "any" and (seen_a or seen_d))
                            and not (blocked_by == "enemy" and seen_d)):
                        offence += ATTACK[v]
                        off_parts.append((s, ATTACK[v], "fire"))
                    seen_a = True
                else:
                    blocked = ((blocked_by == "any" and (seen_a or seen_d))
                               or (blocked_by == "enemy" and seen_a))
                    if not blocked:
                        if IS_FIGHTING[v]:
                            if k <= RANGE[v] and online_d >> s & 1:
                                value = DEFENCE[v][TERRAIN[s] if bonus_unit else PLAIN]
                                defence += value
                                def_parts.append((s, value, "support"))
                        elif k <= relay_range and relays_d >> s & 1:
                            defence += 1
                            def_parts.append((s, 1, "support"))
                    seen_d = True
        return Combat(target, offence, defence, tuple(off_parts), tuple(def_parts),
                      tuple(columns))

    def _last_moved(self) -> int | None:
        """Where the last unit moved in the turn in hand stands now (None before any move)."""
        for event in reversed(self.events):
            if event[0] == "step":
                square: int = event[2]   # ("step", origin, target, ...)
                return square
        return None

    def _attack_allowed(self, combat: Combat) -> bool:
        minimum = self.options.attack_minimum
        if minimum == "positive":
            return combat.offence >= 1
        if minimum == "winning":
            return combat.offence > combat.defence
        return True

    def legal_attacks(self) -> list[Attack]:
        """Every legal attack at this point of the turn (spec §8.1, §17); marks left unset."""
        if self._ended():
            return []
        pos = self._began()
        if pos._decided() or pos.arsenal_taken is not None or pos._retreat_now():
            return []
        if pos.options.attack_needs_move and pos.moves_made == 0:
            return []
        enemy = 1 - pos.turn
        return [Attack(t) for t in sorted(pos.units[enemy]) if pos._attack_allowed(pos.combat(t))]

    # ---- the legal-action list (spec §17) ----------------------------------------------------

    def generate_legal_moves(self, *, origin: int | None = None,
                             target: int | None = None) -> Iterator[Action]:
        """The legal actions at this point: moves, attacks, then end of turn (spec §17).

        ``origin`` keeps the moves of one unit, ``target`` the actions ending on (moves) or
        aimed at (attacks) one square. When a retreat is pending and possible only the retreat
        moves are listed.
        """
        if self._ended():
            return
        steps = self.legal_steps()
        for step in steps:
            if (origin is None or step.origin == origin) and (target is None or step.target == target):
                yield step
        pos = self._began()
        if pos._retreat_now() or pos._decided():
            return
        if origin is None:
            for attack in self.legal_attacks():
                if target is None or attack.target == target:
                    yield attack
            if target is None:
                yield EndTurn()

    # ---- applying actions ----------------------------------------------------------------------

    def push(self, move: Turn | Action) -> None:
        """Play a whole turn (or the rest of the turn in hand) or one action.

        Trusts that ``move`` came from :meth:`legal_moves`, :meth:`resolve` or
        ``Game.parse_move``; it does not check legality.
        """
        resolved = self._resolved
        if resolved is not None and resolved[0] is move:
            # The turn resolve() just checked here: its steps are already played out.
            snap = resolved[1]
            self._take_hand(resolved[2])
        else:
            snap = self._snapshot()
            if isinstance(move, Turn):
                for step in move.steps:
                    self._apply_step(step)
        if isinstance(move, Turn):
            if move.attack is not None:
                self._apply_attack(move.attack.target)
            else:
                self._begin()
                self._end_turn(None)
        elif isinstance(move, Step):
            self._apply_step(move)
        elif isinstance(move, Attack):
            self._apply_attack(move.target)
        else:
            self._begin()
            self._end_turn(None)
        self._history.append((move, snap))

    def pop(self) -> Turn | Action:
        """Undo the last :meth:`push` and return what it pushed."""
        move, snap = self._history.pop()
        self._restore(snap)
        return move

    def _apply_step(self, step: Step) -> None:
        if not self.started:
            self._begin()
        origin, dest = step.origin, step.target
        board = self.board
        v = board[origin]
        side = SIDE_OF[v]
        board[origin] = 0
        board[dest] = v
        units = self.units[side]
        units.discard(origin)
        units.add(dest)
        fighting = IS_FIGHTING[v]
        if fighting:
            self.fighting_bits[side] ^= _BIT[origin] | _BIT[dest]
        else:
            self.relay_bits[side] ^= _BIT[origin] | _BIT[dest]
        moved = self.moved
        moved.discard(origin)
        moved.add(dest)
        was_retreat = self.moves_made == 0 and origin == self.retreat
        self.moves_made += 1
        if was_retreat:
            self.retreat = None
            self.dislodged = dest
        elif self.dislodged == origin:
            self.dislodged = dest
        self.events.append(("step", origin, dest, v, was_retreat))
        if fighting and dest in ARSENAL_OWNER and self._enemy_arsenal(dest, side):
            self.alive[_ARSENAL_INDEX[dest]] = False
            self.arsenal_taken = dest
            self.events.append(("arsenal", dest, 1 - side))
            self._over = None
        # What _touch() does, but _over stays: a move takes no unit off the board, so only
        # a fallen arsenal can decide the game.
        self._status = [None, None]
        self._outcome = None
        self._resolved = None

    def _apply_attack(self, target: int) -> None:
        self._begin()
        combat = self.combat(target)
        mark = combat.mark
        v = self.board[target]
        self.events.append(("attack", target, v, combat, mark))
        next_retreat = None
        if mark == "D":
            self._remove(target, v)
            self.events.append(("destroyed", target, v, "attack"))
            self._touch()
        elif mark == "R":
            next_retreat = target
        self._end_turn(next_retreat)

    def _end_turn(self, next_retreat: int | None) -> None:
        self.last_events = self.events
        self.events = []
        self.turn = 1 - self.turn
        self.turn_number += 1
        self.retreat = next_retreat
        self.dislodged = next_retreat
        self.started = False
        self.moves_made = 0
        self.moved = set()
        self.arsenal_taken = None
        self.failed = None
        self.limit = MOVES_PER_TURN
        self._touch()

    @property
    def history(self) -> list[Turn | Action]:
        """What was pushed, oldest first."""
        return [move for move, _ in self._history]

    # ---- the end (spec §10) ------------------------------------------------------------------

    def _ended(self) -> bool:
        """Whether the game is over here: any end of spec §10 between turns (relay collapse
        and an impossible last retreat included), arsenals or annihilation inside a turn."""
        if not self.started:
            return self.outcome() is not None
        return self._decided()

    def _decided(self) -> bool:
        """Whether a side has lost its arsenals or its fighting units (spec §10), mid-turn too."""
        if self._over is None:
            self._over = self._decided_now()
        return self._over

    def _decided_now(self) -> bool:
        alive = self.alive
        (north_1, north_2), (south_1, south_2) = _SIDE_ARSENALS
        if not (alive[north_1] or alive[north_2]) or not (alive[south_1] or alive[south_2]):
            return True
        return not self.fighting_bits[0] or not self.fighting_bits[1]

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else the winner and reason (spec §10).

        Reasons: ``arsenals``, ``annihilation``, ``relay-collapse``. At the start of a turn the
        forced retreat is looked ahead: an impossible retreat of the last fighting unit decides.
        """
        if self._outcome is not None:
            return self._outcome[0]
        result = self._compute_outcome()
        self._outcome = (result,)
        return result

    def _compute_outcome(self) -> Outcome | None:
        if self._decided():  # which side, and why
            for side in (0, 1):
                if not any(self.alive[i] for i in _SIDE_ARSENALS[side]):
                    return Outcome(1 - side, "arsenals",
                                   f"{SIDE_NAMES[side]} has lost both arsenals")
            for side in (0, 1):
                if not self.has_fighting(side):
                    return Outcome(1 - side, "annihilation",
                                   f"{SIDE_NAMES[side]} has no fighting unit left")
        if not self.started:
            side = self.turn
            if (self.retreat is not None and self.fighting_count(side) == 1
                    and IS_FIGHTING[self.board[self.retreat]] and self._retreat_failure()):
                return Outcome(1 - side, "annihilation",
                               f"{SIDE_NAMES[side]}'s last fighting unit cannot retreat")
            if self.options.relay_collapse_win and self.turn_number > 1:
                collapsed = [s for s in (0, 1)
                             if not self.relay_bits[s] and not self.status(s).online_bits]
                if collapsed:
                    loser = collapsed[0] if len(collapsed) == 1 else self.turn
                    return Outcome(1 - loser, "relay-collapse",
                                   f"{SIDE_NAMES[loser]} has no relay and no unit in communication")
        return None

    def decided_at(self) -> str:
        out = self.outcome()
        return f"{out.detail} ({out.reason})" if out else ""

    # ---- checking a written turn (spec §15) ----------------------------------------------------

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` is legal here: a whole :class:`Turn` is checked as the rules check
        a written one (:meth:`resolve`); an action, among the actions listed now."""
        if not isinstance(move, Turn):
            return super().is_legal(move)
        attack = None if move.attack is None else (move.attack.target, move.attack.mark, 0)
        try:
            resolved = self.resolve([(step.origin, step.target, 0) for step in move.steps],
                                    attack)
        except IllegalMoveError:
            return False
        return resolved.steps == move.steps and (
            move.attack is None or resolved.attack is not None
            and resolved.attack.target == move.attack.target)

    def resolve(self, steps: list[tuple[int, int, int]], attack: tuple[int, str | None, int] | None,
                 end_offset: int = 0) -> Turn:
        """The :class:`Turn` that ``steps`` then ``attack`` name, checked rule by rule.

        ``steps`` are ``(origin, dest, offset)``, ``attack`` is ``(target, mark, offset)``;
        offsets point into the written token for diagnostics (``end_offset`` for a turn without
        attack). The position is left unchanged.

        Raises IllegalMoveError with the codes of spec §15 (E-UNIT-OFFLINE, E-PATH-BLOCKED,
        E-OUTCOME-MISMATCH, ...). Does not parse text.
        """
        snap = self._snapshot()
        status, outcome, over = list(self._status), self._outcome, self._over
        made: list[Step] = []
        try:
            if self._ended():
                self._check_common(steps[0][2] if steps else attack[2] if attack else end_offset,
                                   force=True)
            self._begin()
            for origin, dest, offset in steps:
                step = Step(origin, dest)
                if not self._is_plain_step(origin, dest):
                    self._explain_step(step, offset, (snap, made))
                self._apply_step(step)  # not push: the snapshot above restores the position
                made.append(step)
            if attack is None:
                self._check_end(end_offset)
                turn = Turn(tuple(made), None)
            else:
                target, mark, offset = attack
                self._check_attack(target, mark, offset)
                turn = Turn(tuple(made), Attack(target, mark))
            played = self._hand()
        finally:
            self._restore(snap)
            self._status, self._outcome, self._over = status, outcome, over
        # Kept until the position changes, so that pushing this turn next reuses the steps.
        self._resolved = (turn, snap, played)
        return turn

    def _fail(self, message: str, code: str, rule: str, offset: int) -> IllegalMoveError:
        return IllegalMoveError(message, code=code, rule=rule, offset=offset)

    def _check_common(self, offset: int, *, force: bool = False) -> None:
        if force or self._decided():
            raise self._fail(f"the game is already over: {self.decided_at()}", "E-MOVE-AFTER-END",
                             "§10", offset)

    def _retreat_hint(self) -> str:
        r = self.retreat
        assert r is not None
        squares = " ".join(NAMES[d] for d in self._destinations(r, retreat=True))
        return f"{unit_name(self.board[r])} on {NAMES[r]} must retreat first (to {squares})"

    def _is_plain_step(self, origin: int, dest: int) -> bool:
        """Whether ``origin``-``dest`` is a legal move here that meets none of the rarer rules
        (a pending retreat, an enemy arsenal, a fallen arsenal, two-step-via-online): the quick
        yes for most moves of a record. No means only that :meth:`_explain_step` must look.
        The turn must have begun."""
        over = self._over
        if over is None:
            over = self._over = self._decided_now()
        if (over or self.moves_made >= self.limit or self.arsenal_taken is not None
                or (self.retreat is not None and self.moves_made == 0)):
            return False
        board = self.board
        v = board[origin]
        if (not v or SIDE_OF[v] != self.turn or board[dest] or origin in self.moved
                or (dest in ARSENAL_OWNER and self._enemy_arsenal(dest, self.turn))):
            return False
        if dest not in _NEAR[origin]:
            if SPEED[v] != 2 or self.options.two_step_via_online:
                return False
            middles = MIDDLES[origin].get(dest)
            if not middles or all(board[m] for m in middles):
                return False
        return not IS_FIGHTING[v] or self._is_fighting_online(self.turn, origin)

    def _explain_step(self, step: Step, offset: int,
                      trail: tuple[tuple[Any, ...], list[Step]] | None = None) -> None:
        """The rules of a move (spec §7, §9, §10) one by one in the order of spec §15,
        raising the diagnostic of the first that ``step`` breaks."""
        self._check_common(offset)
        origin, dest = step.origin, step.target
        text = step.text()
        if self.moves_made >= self.limit:
            raise self._fail(f"{text}: a turn has at most {self.limit} moves "
                             f"({self.moves_made + 1} written)", "E-TOO-MANY-MOVES", "§4", offset)
        if self.arsenal_taken is not None and not self.options.arsenal_then_moves:
            raise self._fail(f"{text}: no move may follow the destruction of the arsenal "
                             f"{NAMES[self.arsenal_taken]} (moves-after-arsenal=forbid)",
                             "E-MOVE-AFTER-ARSENAL", "§7.3", offset)
        if self._retreat_now() and origin != self.retreat:
            raise self._fail(f"{text}: {self._retreat_hint()}", "E-RETREAT-FIRST", "§9", offset)
        v = self.board[origin]
        if not v:
            note = ""
            if self.failed is not None and self.failed[0] == origin:
                note = (f"; the {unit_name(self.failed[1])} dislodged on {NAMES[origin]} was destroyed "
                        f"at the start of the turn ({self.failed[2]}: it could not retreat)")
            raise self._fail(f"{text}: no unit on {NAMES[origin]}{note}", "E-NO-UNIT", "§7.1", offset)
        if SIDE_OF[v] != self.turn:
            raise self._fail(f"{text}: {NAMES[origin]} holds a {unit_name(v)}, not a unit of "
                             f"{SIDE_NAMES[self.turn]}", "E-NOT-OWN-UNIT", "§7.1", offset)
        if origin in self.moved:
            earlier = next((e for e in reversed(self.events) if e[0] == "step" and e[2] == origin), None)
            before = f" (it already moved {NAMES[earlier[1]]}-{NAMES[origin]})" if earlier else ""
            raise self._fail(f"{text}: a unit moves at most once per turn{before}",
                             "E-UNIT-MOVED-TWICE", "§7.1", offset)
        retreat = self._retreat_now()
        if IS_FIGHTING[v] and not self._is_fighting_online(self.turn, origin) and not (
                retreat and self.options.offline_retreat_move):
            raise self._fail(f"{text}: {kind_name(v)} on {NAMES[origin]} is out of communication "
                             f"and cannot move{self._offline_hint(origin, trail)}", "E-UNIT-OFFLINE",
                             "§7.1", offset)
        if TERRAIN[dest] == MOUNTAIN:
            raise self._fail(f"{text}: {NAMES[dest]} is a mountain", "E-DEST-MOUNTAIN", "§7.1", offset)
        if dest == origin:
            raise self._fail(f"{text}: a move must leave its square", "E-DEST-OCCUPIED", "§7.1", offset)
        if self.board[dest]:
            raise self._fail(f"{text}: {NAMES[dest]} is occupied by a {unit_name(self.board[dest])}",
                             "E-DEST-OCCUPIED", "§7.1", offset)
        speed = 1 if retreat and self.options.retreat_one else SPEED[v]
        dist = distance(origin, dest)
        if dist > speed:
            extra = " (retreat-range=one)" if speed == 1 and SPEED[v] == 2 else ""
            raise self._fail(f"{text}: {kind_name(v)} moves at most {speed} square"
                             f"{'s' if speed > 1 else ''}{extra}, {NAMES[dest]} is {dist} away",
                             "E-TOO-FAR", "§7.1", offset)
        if dist == 2:
            self._explain_two_step_path(text, origin, dest, offset)
        if self._enemy_arsenal(dest, self.turn):
            self._explain_enemy_arsenal(text, v, dest, retreat, offset)

    def _explain_two_step_path(self, text: str, origin: int, dest: int, offset: int) -> None:
        """Raise E-PATH-BLOCKED unless a two-square move ``origin``-``dest`` has a usable
        square between (§7.1): empty and, with two-step-via-online, online."""
        middles = MIDDLES[origin].get(dest, ())
        online = self._lifted_online(origin, self.turn) if self.options.two_step_via_online else None
        reasons = []
        ok = False
        for m in middles:
            if self.board[m]:
                reasons.append(f"{NAMES[m]} occupied")
            elif online is not None and not online >> m & 1:
                reasons.append(f"{NAMES[m]} offline (two-step-via-online=yes)")
            else:
                ok = True
        if not middles:
            reasons.append("only mountains between them")
        if not ok:
            raise self._fail(f"{text}: no usable square between {NAMES[origin]} and "
                             f"{NAMES[dest]} ({', '.join(reasons)})", "E-PATH-BLOCKED",
                             "§7.1", offset)

    def _explain_enemy_arsenal(self, text: str, v: int, dest: int, retreat: bool,
                               offset: int) -> None:
        """The rules of a move of the unit ``v`` onto the enemy arsenal ``dest`` (§7.3): a
        relay, a forced retreat or a second destruction in one turn may be forbidden."""
        if not IS_FIGHTING[v]:
            if not self.options.relay_on_arsenal:
                raise self._fail(f"{text}: a relay may not enter the enemy arsenal {NAMES[dest]} "
                                 "(relay-on-enemy-arsenal=forbid)", "E-RELAY-ON-ARSENAL",
                                 "§7.3", offset)
        elif retreat:
            if not self.options.retreat_arsenal:
                raise self._fail(f"{text}: a forced retreat may not end on the enemy arsenal "
                                 f"{NAMES[dest]} (retreat-to-enemy-arsenal=forbid)",
                                 "E-RETREAT-ARSENAL", "§7.3", offset)
        elif self.arsenal_taken is not None:
            raise self._fail(f"{text}: only one enemy arsenal may be destroyed per turn "
                             f"({NAMES[self.arsenal_taken]} already fell this turn)",
                             "E-SECOND-ARSENAL", "§7.3", offset)

    def _offline_hint(self, origin: int,
                      trail: tuple[tuple[Any, ...], list[Step]] | None = None) -> str:
        """Which move of this turn cut the unit on ``origin`` off, if one did: the steps of the
        ``trail`` of :meth:`resolve` (latest first), then the steps pushed one by one."""
        befores: list[tuple[Step, tuple[Any, ...]]] = []
        if trail is not None:
            snap, made = trail
            replay = self.copy()
            replay._restore(snap)
            replay._begin()
            for step in made:
                befores.append((step, replay._snapshot()))
                replay._apply_step(step)
        for index in range(len(self._history) - 1, -1, -1):
            move, snap = self._history[index]
            if not isinstance(move, Step) or snap[3] != self.turn_number:
                break
            befores.insert(0, (move, snap))
        for move, snap in reversed(befores):
            probe = Position(self.rules, list(snap[0]), list(snap[1]), snap[2], snap[3], snap[4])
            if probe.board[origin] and probe.status(self.turn).online_bits >> origin & 1:
                return f"; it was online before {move.text()}"
        return ""

    def _check_end(self, offset: int) -> None:
        self._begin()
        if self._decided() and self.moves_made == 0:
            self._check_common(offset)
        if self._retreat_now():
            raise self._fail(f"{self._retreat_hint()}; the turn has no move", "E-RETREAT-MISSING",
                             "§9", offset)

    def _check_attack(self, target: int, mark: str | None, offset: int) -> Combat:
        self._begin()
        self._check_common(offset)
        text = NAMES[target]
        if self._retreat_now():
            raise self._fail(f"x{text}: {self._retreat_hint()}", "E-RETREAT-MISSING", "§9", offset)
        if self.arsenal_taken is not None:
            raise self._fail(f"x{text}: no attack in a turn that destroyed the arsenal "
                             f"{NAMES[self.arsenal_taken]}", "E-ATTACK-AFTER-ARSENAL", "§7.3", offset)
        if self.options.attack_needs_move and self.moves_made == 0:
            raise self._fail(f"x{text}: an attack must follow a move of the same turn "
                             "(attack-needs-move=yes)", "E-ATTACK-NO-MOVE", "§8.1", offset)
        v = self.board[target]
        if not v or SIDE_OF[v] == self.turn:
            if v:
                what = f"a {unit_name(v)} (own unit)"
            elif target in ARSENAL_OWNER:
                what = "an arsenal, which cannot be attacked (occupy it with a fighting unit)"
            else:
                what = "empty"
            raise self._fail(f"x{text}: the target must be an enemy unit; {text} is {what}",
                             "E-ATTACK-NO-TARGET", "§8.1", offset)
        combat = self.combat(target)
        minimum = self.options.attack_minimum
        if minimum == "positive" and combat.offence < 1:
            raise self._fail(f"x{text}: no unit can attack {text} (offence 0, defence "
                             f"{combat.defence})", "E-ATTACK-NO-OFFENCE", "§8.1", offset)
        if minimum == "winning" and combat.offence <= combat.defence:
            raise self._fail(f"x{text}: offence {combat.offence} does not exceed defence "
                             f"{combat.defence} (attack-minimum=winning)", "E-ATTACK-NOT-WINNING",
                             "§8.1", offset)
        if mark is not None and mark != combat.mark:
            diff = combat.offence - combat.defence
            raise self._fail(f"x{text}={mark}: offence {combat.offence}, defence {combat.defence} "
                             f"(difference {diff}): {MARK_TEXT[combat.mark]}, record says "
                             f"{MARK_TEXT[mark]}; {combat.explain()}", "E-OUTCOME-MISMATCH",
                             "§8.6", offset)
        return combat
