"""Statistics of a Game of War record (spec §18), gathered turn by turn during replay.

:class:`Stats` reads what each turn did from the position's event list (``last_events``,
filled by the engine) and sums it into the flat figures of :meth:`Stats.summary`;
:func:`turn_report` gives the per-turn facts. This module applies no rule.

>>> from notation_tools.games.gow import GAME
>>> rules = GAME.parse_rules(None)
>>> pos = GAME.start_position(rules)
>>> stats = GAME.new_stats(rules)
>>> before = pos.copy(); move = GAME.parse_move("G8-F8", pos); pos.push(move)
>>> stats.add(before, move, pos)
>>> stats.summary(pos, pos.outcome())["moves_north"]
1
"""

from __future__ import annotations

import operator
from typing import Any

from notation_tools.games.base import (
    Figure, FigureKind, Outcome, Rules, StatsCollector, options_of)
from notation_tools.games.gow.pieces import (
    FORT, NAMES, PASS, SIDE_NAMES, SIDE_OF, TERRAIN, UNITS, UNIT_TYPES)
from notation_tools.games.gow.moves import Attack, Step, Turn
from notation_tools.games.gow.options import Options
from notation_tools.games.gow.rules import (
    Combat, OnlineFollower, Position, UnitsOnline, sides_online, units_online)

_SIDES = ("north", "south")
_LETTERS = tuple(t.letter for t in UNIT_TYPES if t is not None)
_FORTS = tuple(s for s, t in enumerate(TERRAIN) if t == FORT)
_PASSES = tuple(s for s, t in enumerate(TERRAIN) if t == PASS)
_FORT_BITS = sum(1 << s for s in _FORTS)
_PASS_BITS = sum(1 << s for s in _PASSES)
_COUNTED = (_FORT_BITS, _PASS_BITS)
"""The squares whose holders the figures count: forts, then passes."""


def turn_report(side: int, events: list[tuple[Any, ...]],
                offline_after: tuple[int, int]) -> dict[str, Any]:
    """What one turn did (§18, the per-turn hook), from the engine's events and the number of
    each side's offline fighting units after it."""
    report: dict[str, Any] = {"side": SIDE_NAMES[side], "moves": [], "arsenal": None,
                              "failed_retreat": None, "attack": None, "destroyed": []}
    for event in events:
        kind = event[0]
        if kind == "step":
            _, origin, dest, v, was_retreat = event
            report["moves"].append({"from": NAMES[origin], "to": NAMES[dest],
                                    "unit": UNITS[v].letter, "retreat": was_retreat})
        elif kind == "arsenal":
            report["arsenal"] = NAMES[event[1]]
        elif kind == "failed-retreat":
            report["failed_retreat"] = {"square": NAMES[event[1]], "unit": UNITS[event[2]].letter,
                                        "cause": event[3]}
            report["destroyed"].append(NAMES[event[1]])
        elif kind == "attack":
            _, target, v, combat, mark = event
            report["attack"] = {
                "target": NAMES[target], "unit": UNITS[v].letter, "offence": combat.offence,
                "defence": combat.defence, "outcome": mark,
                "offence_parts": [(NAMES[s], value, how) for s, value, how in combat.offence_parts],
                "defence_parts": [(NAMES[s], value, how) for s, value, how in combat.defence_parts],
                "charging": [NAMES[s] for column in combat.columns for s in column]}
        elif kind == "destroyed":
            report["destroyed"].append(NAMES[event[1]])
    report["offline_after"] = {SIDE_NAMES[s]: offline_after[s] for s in (0, 1)}
    return report


def _side_figures(online: int, relays_online: int, fighting: int, forts: int,
                  passes: int) -> tuple[int, str, str, int, int, int]:
    """A side's figures after a turn, from how many of its fighting units and relays are
    online, how many fighting units it has, and how many of its units hold a fort and a pass:
    offline fighting units (as a number and as text, for the series), online relays (as text),
    whether every fighting unit is offline (1 or 0), and the forts and the passes it holds.
    The texts are made here, once per change, not once per turn of the series."""
    offline = fighting - online
    return (offline, str(offline), str(relays_online), int(bool(fighting) and offline == fighting),
            forts, passes)


def _read_figures(online: UnitsOnline) -> tuple[int, str, str, int, int, int]:
    """:func:`_side_figures` of what a side's units read of its communication."""
    online_bits, relays_online_bits, units, fighting = online
    return _side_figures(online_bits.bit_count(), relays_online_bits.bit_count(), fighting,
                         (units & _FORT_BITS).bit_count(), (units & _PASS_BITS).bit_count())


_FIGURES: dict[tuple[int, ...], tuple[int, str, str, int, int, int]] = {}
"""A side's figures by the counts :data:`sides_online` gives for it: the same few counts
recur from turn to turn and from record to record."""
_FIGURES_SIZE = 1 << 14


def _figures_of(counts: tuple[int, ...]) -> tuple[int, str, str, int, int, int]:
    """A side's figures from :data:`sides_online`'s counts (kept in :data:`_FIGURES`)."""
    figures = _side_figures(*counts)
    if len(_FIGURES) >= _FIGURES_SIZE:
        _FIGURES.clear()
    _FIGURES[counts] = figures
    return figures


_OFFLINE, _OFFLINE_TEXT, _RELAYS_TEXT, _ALL_OFFLINE, _FORTS_HELD, _PASSES_HELD = map(
    operator.itemgetter, range(6))


class Stats(StatsCollector[Position, Any]):
    """Collects the figures of §18 for one record, from what each turn left in the position's
    event list: nothing is copied, so a long record costs as much per ply as a short one.

    Each turn keeps the pair of the sides' figures after it, and the sums and series are made
    at the end. Where the compiled :data:`~notation_tools.games.gow.rules.sides_online` was
    built, it counts both sides' online units afresh after every turn; else a side's figures
    are worked out only when what its units read of its communication changed (an
    :class:`OnlineFollower` per side follows that)."""

    reuse_figures = True
    """Whether the figures are worked out the quick way: after an empty turn (``--``, which
    changes no square) not at all, else by the compiled counts or, without them, when a side's
    :class:`OnlineFollower` finds a change. The tests turn it off for their reference, which
    asks ``position.status()`` after every turn."""

    def __init__(self, rules: Rules) -> None:
        # 29 instance attributes: one more and every attribute read here slows down (see
        # docs/development.md, "new_stats")
        self.rules = rules
        self.turns = [0, 0]
        self.moves = [0, 0]
        self.empty = [0, 0]
        self.attacks = [0, 0]
        self.outcomes = [{"D": 0, "R": 0, "0": 0}, {"D": 0, "R": 0, "0": 0}]
        self.combats: list[Combat] = []
        self.charges = 0
        self.charging_cavalry = 0
        self.longest_column = 0
        self.multi_direction = 0
        self.retreats_executed = 0
        self.failed = {"no square": 0, "offline": 0}
        self.arsenals: list[str] = []
        self.lost = [dict.fromkeys(_LETTERS, 0), dict.fromkeys(_LETTERS, 0)]
        self.lost_attack = 0
        self.lost_retreat = 0
        self.first_attack: int | None = None
        self.after_turns: list[tuple[tuple[Any, ...], tuple[Any, ...]]] = []
        """Per turn, each side's figures after it (see :func:`_side_figures`); a turn that
        changed neither side's shares the tuples of the turn before."""
        self._followers = (OnlineFollower(0), OnlineFollower(1))
        opts = options_of(Options, rules)
        # The compiled reading of both sides works them out afresh after every turn, which
        # costs less than the followers do in Python; it reads the cutting squares of
        # offline-units-block=yes only (under =no the followers ask the position's status).
        self._sides_online = (sides_online if opts.offline_units_block and self.reuse_figures
                              else None)
        self._flags = (opts.adjacency_via_relays, opts.relay_adjacent, opts.relay_status)
        """The options :data:`sides_online` takes (one tuple, which the compiled part reads
        once)."""
        self._alive: list[bool] | None = None
        self._sources = (0, 0)
        self._seen: list[UnitsOnline | None] = [None, None]
        self._figures: list[tuple[Any, ...]] = [(), ()]
        self._side, self._turn_number = 0, 0
        self._last: tuple[int, list[tuple[Any, ...]]] = (0, [])

    def before_move(self, position: Position, move: Any) -> None:
        self._side, self._turn_number = position.turn, position.turn_number

    def add(self, before: Position, move: Any, after: Position) -> None:
        """The same as the two hooks, for a caller that kept a copy of the position before
        the move."""
        self.before_move(before, move)
        self.after_move(after)

    def after_move(self, after: Position) -> None:
        side = self._side
        events = after.last_events if after.turn != side else after.events
        self.turns[side] += 1
        moves = 0
        attacked = False
        for event in events:
            kind = event[0]
            if kind == "step":
                moves += 1
                if event[4]:
                    self.retreats_executed += 1
            elif kind == "failed-retreat":
                _, square, v, cause = event
                self.failed[cause] += 1
                self.lost[SIDE_OF[v]][UNITS[v].letter] += 1
                self.lost_retreat += 1
            elif kind == "arsenal":
                self.arsenals.append(f"{NAMES[event[1]]}@{self._turn_number}")
            elif kind == "attack":
                _, target, v, combat, mark = event
                attacked = True
                self.attacks[side] += 1
                self.outcomes[side][mark] += 1
                self.combats.append(combat)
                if self.first_attack is None:
                    self.first_attack = self._turn_number
                if combat.columns:
                    self.charges += 1
                    self.charging_cavalry += sum(len(c) for c in combat.columns)
                    self.longest_column = max(self.longest_column, *map(len, combat.columns))
                    if len(combat.columns) > 1:
                        self.multi_direction += 1
            elif kind == "destroyed":
                v = event[2]
                self.lost[SIDE_OF[v]][UNITS[v].letter] += 1
                self.lost_attack += 1
        if moves:
            self.moves[side] += moves
        elif not attacked:
            self.empty[side] += 1
        self._last = (side, events)
        after_turns = self.after_turns
        if not events and after_turns and self.reuse_figures:
            # An empty turn changes no square: every figure of the position is as it was.
            after_turns.append(after_turns[-1])
            return
        if self._sides_online is not None:
            alive = after.alive
            if alive != self._alive:  # the sources follow from the arsenals standing
                self._alive = alive[:]
                self._sources = (after._source_bits(0), after._source_bits(1))
            north, south = self._sides_online(self._sources, after.relay_bits,
                                              after.fighting_bits, self._flags, _COUNTED)
            after_turns.append((_FIGURES.get(north) or _figures_of(north),
                                _FIGURES.get(south) or _figures_of(south)))
            return
        seen, figures = self._seen, self._figures
        for s in (0, 1):
            online = (self._followers[s].online(after) if self.reuse_figures
                      else units_online(after.status(s)))
            if online is not seen[s]:
                seen[s] = online
                figures[s] = _read_figures(online)
        after_turns.append((figures[0], figures[1]))

    @property
    def last_turn(self) -> dict[str, Any]:
        """What the last turn noted did (§18's per-turn hook): its moves, arsenal, failed
        retreat, attack and losses. Built on request, so a long record keeps no per-turn list."""
        side, events = self._last
        offline_after = ((self.after_turns[-1][0][0], self.after_turns[-1][1][0])
                         if self.after_turns else (0, 0))
        return turn_report(side, events, offline_after)

    def summary(self, final: Position, outcome: Outcome | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for s, name in enumerate(_SIDES):
            out[f"turns_{name}"] = self.turns[s]
            out[f"moves_{name}"] = self.moves[s]
            out[f"empty_turns_{name}"] = self.empty[s]
            out[f"attacks_{name}"] = self.attacks[s]
            out[f"attacks_destroyed_{name}"] = self.outcomes[s]["D"]
            out[f"attacks_retreat_{name}"] = self.outcomes[s]["R"]
            out[f"attacks_no_effect_{name}"] = self.outcomes[s]["0"]
        total_turns = sum(self.turns)
        out["moves_per_turn"] = round(sum(self.moves) / total_turns, 3) if total_turns else None
        for what, values in (("offence", [c.offence for c in self.combats]),
                             ("defence", [c.defence for c in self.combats]),
                             ("margin", [c.offence - c.defence for c in self.combats])):
            out[f"{what}_mean"] = round(sum(values) / len(values), 3) if values else None
            out[f"{what}_min"] = min(values) if values else None
            out[f"{what}_max"] = max(values) if values else None
        out["charges"] = self.charges
        out["charging_cavalry"] = self.charging_cavalry
        out["longest_column"] = self.longest_column
        out["charges_multi_direction"] = self.multi_direction
        out["retreats_imposed"] = sum(o["R"] for o in self.outcomes)
        out["retreats_executed"] = self.retreats_executed
        out["retreats_failed_no_square"] = self.failed["no square"]
        out["retreats_failed_offline"] = self.failed["offline"]
        out["arsenals_destroyed"] = len(self.arsenals)
        out["arsenals_destroyed_at"] = " ".join(self.arsenals)
        for s, name in enumerate(_SIDES):
            for letter in _LETTERS:
                out[f"lost_{name}_{letter}"] = self.lost[s][letter]
            out[f"lost_{name}"] = sum(self.lost[s].values())
        out["lost_by_attack"] = self.lost_attack
        out["lost_by_failed_retreat"] = self.lost_retreat
        out["captures"] = self.lost_attack + self.lost_retreat
        for s, name in enumerate(_SIDES):
            # Maps over the turns' figures (a turn that changed nothing shares the tuple of
            # the one before), which run in C: a record has one entry per turn.
            column = list(map(operator.itemgetter(s), self.after_turns))
            out[f"offline_{name}_series"] = ",".join(map(_OFFLINE_TEXT, column))
            out[f"offline_{name}_max"] = max(map(_OFFLINE, column), default=0)
            out[f"all_offline_turns_{name}"] = sum(map(_ALL_OFFLINE, column))
            out[f"relays_online_{name}_series"] = ",".join(map(_RELAYS_TEXT, column))
            out[f"forts_held_{name}"] = sum(map(_FORTS_HELD, column))
            out[f"passes_held_{name}"] = sum(map(_PASSES_HELD, column))
        out["first_attack_turn"] = self.first_attack
        if outcome is not None:
            out["winner"] = SIDE_NAMES[outcome.winner] if outcome.winner is not None else "draw"
            out["end_reason"] = outcome.reason
            out["turns_to_victory"] = final.turn_number - 1
        else:
            out["winner"] = None
            out["end_reason"] = "unfinished"
            out["turns_to_victory"] = None
        out["rules"] = self.rules.describe()
        out["profile"] = self.rules.profile
        return out


def describe_move(move: Any, position: Position) -> dict[str, Any]:
    """Facts for ``moves`` listings (spec §17): a step's unit; an attack's offence, defence,
    outcome and contributors (the turn's attack, or a single Attack)."""
    if isinstance(move, Step):
        unit = UNITS[position.board[move.origin]]
        return {"unit": unit.name if unit else None}
    attack = move.attack if isinstance(move, Turn) else move if isinstance(move, Attack) else None
    if attack is None:
        return {}
    work = position.copy()
    if isinstance(move, Turn):
        for step in move.steps:
            work.push(step)
    work._begin()
    combat = work.combat(attack.target)
    return {"offence": combat.offence, "defence": combat.defence,
            "outcome": {"D": "destroyed", "R": "forced retreat", "0": "no effect"}[combat.mark],
            "mark": combat.mark,
            "offence_parts": " ".join(f"{NAMES[s]}:{v}" for s, v, _ in combat.offence_parts),
            "defence_parts": " ".join(f"{NAMES[s]}:{v}" for s, v, _ in combat.defence_parts)}


_C, _MAX, _MIN, _PLY, _RATIO = (FigureKind.COUNT, FigureKind.MAX, FigureKind.MIN,
                                FigureKind.PLY, FigureKind.RATIO)
FIGURES: dict[str, Figure] = {
    "moves_per_turn": Figure(_RATIO, "units moved per turn", key=True),
    "offence_mean": Figure(_RATIO, "mean offence of the record's attacks"),
    "offence_min": Figure(_MIN, "weakest offence"),
    "offence_max": Figure(_MAX, "strongest offence"),
    "defence_mean": Figure(_RATIO, "mean defence of the record's attacks"),
    "defence_min": Figure(_MIN, "weakest defence"),
    "defence_max": Figure(_MAX, "strongest defence"),
    "margin_mean": Figure(_RATIO, "mean offence minus defence"),
    "margin_min": Figure(_MIN, "smallest offence minus defence"),
    "margin_max": Figure(_MAX, "largest offence minus defence"),
    "charges": Figure(_C, "attacks with a cavalry charge"),
    "charging_cavalry": Figure(_C, "cavalry units in charges"),
    "longest_column": Figure(_MAX, "longest charging column"),
    "charges_multi_direction": Figure(_C, "charges from several directions"),
    "retreats_imposed": Figure(_C, "forced retreats imposed"),
    "retreats_executed": Figure(_C, "retreats executed"),
    "retreats_failed_no_square": Figure(_C, "retreats failed for want of a square"),
    "retreats_failed_offline": Figure(_C, "retreats failed offline"),
    "arsenals_destroyed": Figure(_C, "arsenals destroyed", key=True),
    "lost_by_attack": Figure(_C, "units destroyed by attacks"),
    "lost_by_failed_retreat": Figure(_C, "units lost in failed retreats"),
    "captures": Figure(_C, "units lost, both sides", key=True),
    "first_attack_turn": Figure(_PLY, "turn of the first attack", key=True),
    "turns_to_victory": Figure(_PLY, "turns to victory (won records)", key=True),
    **{f"{figure}_{side}": Figure(kind, f"{about} ({side})")
       for side in _SIDES for figure, kind, about in (
           ("turns", _C, "turns"), ("moves", _C, "unit moves"), ("empty_turns", _C, "empty turns"),
           ("attacks", _C, "attacks"), ("attacks_destroyed", _C, "attacks destroying"),
           ("attacks_retreat", _C, "attacks forcing a retreat"),
           ("attacks_no_effect", _C, "attacks without effect"), ("lost", _C, "units lost"),
           ("all_offline_turns", _C, "turns with every fighting unit offline"),
           ("forts_held", _C, "fort-turns held"), ("passes_held", _C, "pass-turns held"))},
    **{f"offline_{side}_max": Figure(_MAX, f"most offline fighting units ({side})")
       for side in _SIDES},
    **{f"lost_{side}_{letter}": Figure(_C, f"{letter} units lost ({side})")
       for side in _SIDES for letter in _LETTERS},
}
"""How each numeric figure of :meth:`Stats.summary` is summarized over records (§18)."""
