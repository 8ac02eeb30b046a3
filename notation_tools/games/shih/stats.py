"""Shih statistics for one record (spec §14): actions, MP, captures, surrenders, the end.

:class:`ShihStats` is fed every turn by the replay driver and returns a flat dict. It asks the
position what each action did (:meth:`~.rules.ShihPosition.effects`); it does not judge
legality.

>>> from notation_tools.games.shih import GAME
>>> rules = GAME.parse_rules("standard")
>>> pos = GAME.start_position(rules)
>>> collector = GAME.new_stats(rules)
>>> move = GAME.parse_move("b2-b1,c2cw", pos)
>>> before = pos.copy(); pos.push(move); collector.add(before, move, pos)
>>> figures = collector.summary(pos, None)
>>> figures["blue_steps"], figures["blue_spins"], figures["captures"]
(1, 1, 0)
"""

from __future__ import annotations

from typing import Any

from ..base import Outcome, Rules, SnapshotStats
from .moves import Turn
from .rules import ShihPosition

_SIDES = ("blue", "red")


class ShihStats(SnapshotStats[ShihPosition, Any]):
    """Collects §14's figures per side and per record."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.turns = 0
        self.per_side: list[dict[str, int]] = [dict.fromkeys(
            ("turns", "steps", "spins", "power_spins", "mp", "early_ends", "passes",
             "captured_by_spin", "captured_by_power_spin", "surrendered", "self_captured"), 0)
            for _ in _SIDES]
        self.largest_capture = 0
        self.largest_enclosure = 0
        self.first_capture_ply: int | None = None
        self.actions: list[dict[str, Any]] = []
        """The per-action report of §14 (kind, squares, MP, captures, surrender, end)."""

    def add(self, before: ShihPosition, move: Turn, after: ShihPosition) -> None:
        """Note one turn; ``before`` is the position before it (unchanged here)."""
        from .notation import format_action
        from .pieces import NAMES
        self.turns += 1
        side = before.turn
        figures = self.per_side[side]
        figures["turns"] += 1
        figures["mp"] += move.mp
        if not move.actions:
            if before.has_legal_action():
                figures["early_ends"] += 1
            else:
                figures["passes"] += 1
        elif move.early_end:
            figures["early_ends"] += 1
        for action, effect in zip(move.actions, before.effects(move)):
            key = {"step": "steps", "spin": "spins", "power-spin": "power_spins"}[effect.kind]
            figures[key] += 1
            count = len(effect.captured)
            if effect.kind == "spin":
                figures["captured_by_spin"] += count
            elif effect.kind == "power-spin":
                figures["captured_by_power_spin"] += count
            figures["surrendered"] += len(effect.surrendered)
            figures["self_captured"] += len(effect.self_captured)
            if count:
                self.largest_capture = max(self.largest_capture, count)
                self.largest_enclosure = max(self.largest_enclosure, *effect.regions)
                if self.first_capture_ply is None:
                    self.first_capture_ply = self.turns
            self.actions.append({
                "ply": self.turns, "side": _SIDES[side], "kind": effect.kind,
                "action": format_action(action), "mp": effect.mp,
                "captured": [NAMES[s] for s in effect.captured],
                "surrendered": [NAMES[s] for s in effect.surrendered],
                "ended_game": effect.ended})

    def summary(self, final: ShihPosition, outcome: Outcome | None) -> dict[str, Any]:
        """Flat figures: ``captures`` (pieces captured by enclosure, both sides), per-side
        counts prefixed ``blue_``/``red_``, and the record-wide figures of §14."""
        result: dict[str, Any] = {"turns": self.turns}
        captures = 0
        surrenders = 0
        for name, figures in zip(_SIDES, self.per_side):
            for key, value in figures.items():
                result[f"{name}_{key}"] = value
            taken = figures["captured_by_spin"] + figures["captured_by_power_spin"]
            result[f"{name}_captures"] = taken
            result[f"{name}_captures_per_turn"] = (round(taken / figures["turns"], 3)
                                                   if figures["turns"] else 0.0)
            captures += taken
            surrenders += figures["surrendered"]
        result["blue_score"], result["red_score"] = final.score
        result["captures"] = captures
        result["surrenders"] = surrenders
        result["captures_per_turn"] = round(captures / self.turns, 3) if self.turns else 0.0
        result["largest_capture"] = self.largest_capture
        result["largest_enclosure"] = self.largest_enclosure
        result["first_capture_ply"] = self.first_capture_ply
        result["double_walls"] = final.double_walls()
        result["regions"] = len(final.regions())
        result["end_reason"] = outcome.reason if outcome is not None else "result-tag-only"
        return result
