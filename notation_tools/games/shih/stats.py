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
from notation_tools.games.shih.pieces import NAMES, SIDE_NAMES
from notation_tools.games.shih.rules import ActionEffect, Position

_SIDES = tuple(name.lower() for name in SIDE_NAMES)
_KIND_FIGURE = {"step": "steps", "spin": "spins", "power-spin": "power_spins"}


class Stats(StatsCollector[Position, Move]):
    """Collects §14's figures per side and per record."""

    def __init__(self, rules: Rules) -> None:
        # Every figure is the same under every option, so the rules are not kept.
        self.turns = 0
        self.per_side: list[dict[str, int]] = [dict.fromkeys(
            ("turns", "steps", "spins", "power_spins", "mp", "early_ends", "passes",
             "captured_by_spin", "captured_by_power_spin", "surrendered", "self_captured"), 0)
            for _ in _SIDES]
        self.largest_capture = 0
        self.largest_enclosure = 0
        self.first_capture_ply: int | None = None
        self._side = 0
        self._move: Move | None = None
        self._played: list[tuple[int, int, Move, tuple[ActionEffect, ...]]] = []

    def before_move(self, position: Position, move: Move) -> None:
        """Note one turn, from the position it is played in (unchanged here)."""
        self.turns += 1
        side = position.turn
        figures = self.per_side[side]
        figures["turns"] += 1
        figures["mp"] += move.mp
        if not move.actions:
            if position.has_legal_action():
                figures["early_ends"] += 1
            else:
                figures["passes"] += 1
        elif move.early_end:
            figures["early_ends"] += 1
        self._side, self._move = side, move

    def after_move(self, position: Position) -> None:
        """Note what each action of the turn did, from the position's report of it."""
        move = self._move
        if move is None or not move.actions:
            return
        side = self._side
        figures = self.per_side[side]
        effects = position.last_effects
        if position.decided(side) is not None:
            # Only a turn's last action can end the game: the rules refuse any after it.
            effects = (*effects[:-1], dataclasses.replace(effects[-1], ended=True))
        for effect in effects:
            figures[_KIND_FIGURE[effect.kind]] += 1
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
        self._played.append((self.turns, side, move, effects))

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The per-action report of §14 (kind, squares, MP, captures, surrender, end), built
        on request from the turns noted."""
        report = []
        for ply, side, move, effects in self._played:
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
