"""Shih move values: the three actions (Step, Spin, Power Spin) and the turn that holds them.

A :class:`Turn` is what one record token names (§12.1): up to two 1-MP actions, or one
Power Spin, plus whether the turn was ended early with ``--``; :data:`Move` (the type of one
ply) is the turn. Squares are board indices from :mod:`notation_tools.games.shih.pieces`. These
are plain frozen values; this module knows no rule and no notation.

>>> Turn((Step(10, 9),), early_end=True)
Turn(actions=(Step(origin=10, target=9),), early_end=True)
>>> eval(repr(PowerSpin(0, False, (54,)))) == PowerSpin(0, False, (54,))
True
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.shih.pieces import ACTION_MP, POWER_SPIN_MP


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """Move the mover's piece from ``origin`` to the adjacent empty ``target`` (1 MP, §6)."""

    origin: int
    target: int


@dataclasses.dataclass(frozen=True, slots=True)
class Spin:
    """Turn the empty ``target`` one step, clockwise or not (1 MP, §7)."""

    target: int
    clockwise: bool


@dataclasses.dataclass(frozen=True, slots=True)
class PowerSpin:
    """Turn any non-own ``target`` one step (2 MP, §8); ``surrender`` lists the mover's pieces
    given up after its captures, in board order (§12.1: by row, then column)."""

    target: int
    clockwise: bool
    surrender: tuple[int, ...] = ()


Action = Step | Spin | PowerSpin
"""One action of a turn."""


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn: its actions in order, and whether ``--`` ended it with MP unspent."""

    actions: tuple[Action, ...] = ()
    early_end: bool = False

    @property
    def mp(self) -> int:
        """Movement points spent (§4)."""
        return sum(POWER_SPIN_MP if isinstance(action, PowerSpin) else ACTION_MP
                   for action in self.actions)


Move = Turn
"""The type of one ply: a whole turn (one record token)."""

PASS = Turn((), True)
"""The empty turn ``--``."""
