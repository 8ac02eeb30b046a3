"""Shih statistics for one record (§14): actions, MP, captures, surrenders, the end; and the
per-move facts of ``moves`` listings.

:class:`Stats` is told of every turn by the replay driver before it is played and reads
what each action did from the position after it
(:attr:`~notation_tools.games.shih.rules.Position.last_effects`), and returns a flat dict. It
does not judge legality and copies no position.

>>> from notation_tools.games.shih import GAME
>>> rules = GAME.parse_rules("standard")
>>> pos = GAME.start_position(rules)
>>> collector = GAME.new_stats(rules)
>>> move = GAME.parse_move("b2-b1,c2cw", pos)
>>> collector.before_move(pos, move); pos.push(move); collector.after_move(pos)
>>> figures = collector.summary(pos, None)
>>> figures["blue_steps"], figures["blue_spins"], figures["captures"]
(1, 1, 0)
"""

from __future__ import annotations

import dataclasses
from typing import Any

from notation_tools.games.base import Figure, FigureKind, Outcome, Rules, StatsCollector
from notation_tools.games.shih.moves import Move
from notation_tools.games.shih.notation import format_action
from notation_tools.games.shih.pieces import ACTION_MP, NAMES, POWER_SPIN_MP, SIDE_NAMES
from notation_tools.games.shih.rules import ActionEffect, Position

_SIDES = tuple(name.lower() for name in SIDE_NAMES)
_KINDS = ("step", "spin", "power-spin")
"""The kinds of :class:`ActionEffect`."""


class Stats(StatsCollector[Position, Move]):
    """Collects §14's figures per side and per record.

    Each turn is only noted as it is played (the side that played it, the turn, and what
    :attr:`Position.last_effects` says each action did); the figures are counted from those
    notes once, in :meth:`summary`, so that a replayed turn costs an append.
    """

    def __init__(self, rules: Rules) -> None:
        # Every figure is the same under every option, so the rules are not kept.
        self._move: Move | None = None
        self._played: list[tuple[int, Move, tuple[ActionEffect, ...], bool]] = []
        """Per turn: the side that played it, the turn, what each action did, and whether
        the turn took pieces off the board."""
        self._passes: set[int] = set()
        """The indices in ``_played`` of empty turns played with no legal action left (§4):
        passes, where the other empty turns are ended early."""

    @property
    def turns(self) -> int:
        """Turns noted so far."""
        return len(self._played)

    def before_move(self, position: Position, move: Move) -> None:
        """Note one turn, from the position it is played in (unchanged here)."""
        self._move = move
        if not move.actions and not position.has_legal_action():
            self._passes.add(len(self._played))

    def after_move(self, position: Position) -> None:
        """Note what each action of the turn did, from the position's report of it."""
        effects = position.last_effects
        side = 1 - position.turn
        # Every capture, self-capture and surrender takes pieces off the board, and only
        # then is ``quiet`` back to 0 (§10).
        removed = position.quiet == 0
        # The game ends by a capture count or a side without pieces (§10), so only a turn
        # that removed pieces can have ended it: before the turn neither held (it was
        # legal), and a turn that removes nothing changes neither score nor pieces. Only a
        # turn's last action can end the game: the rules refuse any after it.
        if removed and position.decided(side) is not None:
            effects = (*effects[:-1], dataclasses.replace(effects[-1], ended=True))
        self._played.append((side, self._move, effects, removed))  # type: ignore[arg-type]

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The per-action report of §14 (kind, squares, MP, captures, surrender, end), built
        on request from the turns noted."""
        report = []
        for ply, (side, move, effects, _removed) in enumerate(self._played, 1):
            for action, effect in zip(move.actions, effects):
                report.append({
                    "ply": ply, "side": _SIDES[side], "kind": effect.kind,
                    "action": format_action(action), "mp": effect.mp,
                    "captured": [NAMES[s] for s in effect.captured],
                    "surrendered": [NAMES[s] for s in effect.surrendered],
                    "ended_game": effect.ended})
        return report

    def summary(self, final: Position, outcome: Outcome | None) -> dict[str, Any]:
        """Flat figures: ``captures`` (pieces captured by enclosure, both sides), per-side
        counts prefixed ``blue_``/``red_``, and the record-wide figures of §14."""
        turns_by_side, early_ends, passes = [0, 0], [0, 0], [0, 0]
        kinds = [dict.fromkeys(_KINDS, 0) for _ in _SIDES]
        by_spin, by_power_spin, surrendered, self_captured = [0, 0], [0, 0], [0, 0], [0, 0]
        largest_capture = largest_enclosure = 0
        first_capture_ply: int | None = None
        for ply, (side, move, effects, removed) in enumerate(self._played, 1):
            turns_by_side[side] += 1
            if not effects:
                if ply - 1 in self._passes:
                    passes[side] += 1
                else:
                    early_ends[side] += 1
                continue
            if move.early_end:
                early_ends[side] += 1
            counted = kinds[side]
            for effect in effects:
                counted[effect.kind] += 1
            if not removed:
                continue  # no action of the turn captured, lost or surrendered a piece
            for effect in effects:
                kind = effect.kind
                count = len(effect.captured)
                if count:
                    if kind == "spin":
                        by_spin[side] += count
                    else:
                        by_power_spin[side] += count
                    largest_capture = max(largest_capture, count)
                    largest_enclosure = max(largest_enclosure, *effect.regions)
                    if first_capture_ply is None:
                        first_capture_ply = ply
                surrendered[side] += len(effect.surrendered)
                self_captured[side] += len(effect.self_captured)
        result: dict[str, Any] = {"turns": self.turns}
        captures = 0
        for side, name in enumerate(_SIDES):
            counted = kinds[side]
            turns = turns_by_side[side]
            taken = by_spin[side] + by_power_spin[side]
            result.update({
                f"{name}_turns": turns, f"{name}_steps": counted["step"],
                f"{name}_spins": counted["spin"], f"{name}_power_spins": counted["power-spin"],
                f"{name}_mp": ACTION_MP * (counted["step"] + counted["spin"])
                + POWER_SPIN_MP * counted["power-spin"],
                f"{name}_early_ends": early_ends[side], f"{name}_passes": passes[side],
                f"{name}_captured_by_spin": by_spin[side],
                f"{name}_captured_by_power_spin": by_power_spin[side],
                f"{name}_surrendered": surrendered[side],
                f"{name}_self_captured": self_captured[side],
                f"{name}_captures": taken,
                f"{name}_captures_per_turn": round(taken / turns, 3) if turns else 0.0})
            captures += taken
        result["blue_score"], result["red_score"] = final.score
        result["captures"] = captures
        result["surrenders"] = surrendered[0] + surrendered[1]
        result["captures_per_turn"] = round(captures / self.turns, 3) if self.turns else 0.0
        result["largest_capture"] = largest_capture
        result["largest_enclosure"] = largest_enclosure
        result["first_capture_ply"] = first_capture_ply
        result["double_walls"] = final.double_walls()
        result["regions"] = len(final.regions())
        result["end_reason"] = outcome.reason if outcome is not None else "result-tag-only"
        return result


def describe_move(move: Move, position: Position) -> dict[str, Any]:
    """The facts of one legal turn for ``moves`` listings: its MP, the pieces it captures and
    surrenders, and whether it ends the game."""
    effects = position.effects(move)
    captured = [NAMES[s] for e in effects for s in e.captured]
    surrendered = [NAMES[s] for e in effects for s in e.surrendered]
    facts: dict[str, Any] = {"mp": move.mp}
    if captured:
        facts["captures"] = " ".join(captured)
    if surrendered:
        facts["surrenders"] = " ".join(surrendered)
    if any(e.ended for e in effects):
        facts["ends_game"] = True
    return facts


_C, _MAX, _PLY, _RATIO = FigureKind.COUNT, FigureKind.MAX, FigureKind.PLY, FigureKind.RATIO
FIGURES: dict[str, Figure] = {
    "turns": Figure(_C, "turns played"),
    "captures": Figure(_C, "pieces captured by enclosure, both sides", key=True),
    "surrenders": Figure(_C, "pieces surrendered, both sides", key=True),
    "captures_per_turn": Figure(_RATIO, "captures per turn", key=True),
    "largest_capture": Figure(_MAX, "most pieces captured by one action", key=True),
    "largest_enclosure": Figure(_MAX, "largest enclosed region of a capture"),
    "first_capture_ply": Figure(_PLY, "turn of the first capture", key=True),
    "double_walls": Figure(_C, "double walls at the end"),
    "regions": Figure(_C, "regions at the end"),
    **{f"{side}_{figure}": Figure(kind, f"{about} ({side})")
       for side in _SIDES for figure, kind, about in (
           ("turns", _C, "turns"), ("steps", _C, "steps"), ("spins", _C, "spins"),
           ("power_spins", _C, "power spins"), ("mp", _C, "movement points spent"),
           ("early_ends", _C, "turns ended early"), ("passes", _C, "passes"),
           ("captured_by_spin", _C, "pieces captured by spins"),
           ("captured_by_power_spin", _C, "pieces captured by power spins"),
           ("surrendered", _C, "pieces surrendered"), ("self_captured", _C, "own pieces lost"),
           ("captures", _C, "pieces captured"), ("captures_per_turn", _RATIO, "captures per turn"),
           ("score", _C, "score at the end"))},
}
"""How each numeric figure of :meth:`Stats.summary` is summarized over records (§14)."""
