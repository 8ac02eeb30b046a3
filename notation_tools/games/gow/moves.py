"""The move objects of the Game of War: the actions of a turn and the whole turn.

A record holds one :class:`Turn` per turn token (spec §13.2): up to five :class:`Step` moves,
then at most one :class:`Attack`. Inside a turn the engine works action by action (spec §17):
a :class:`Step`, an :class:`Attack` (which ends the turn) or :class:`EndTurn`. These are plain
frozen values; this module checks no rule and parses no text (see ``notation.py``).

>>> Turn((Step.of("G8", "H9"),), Attack.of("L8", "D"))
Turn((Step.of('G8', 'H9'),), Attack.of('L8', 'D'))
>>> Step.of("G8", "H9").origin
157
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.gow.pieces import NAMES, SQUARE


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One unit's move from ``origin`` to ``target`` (square indices, §7)."""

    origin: int
    target: int

    @classmethod
    def of(cls, origin: str, target: str) -> Step:
        """A step from square names (``Step.of("G8", "H9")``)."""
        return cls(SQUARE[origin], SQUARE[target])

    def __repr__(self) -> str:
        return f"Step.of({NAMES[self.origin]!r}, {NAMES[self.target]!r})"

    def text(self) -> str:
        return f"{NAMES[self.origin]}-{NAMES[self.target]}"


@dataclasses.dataclass(frozen=True, slots=True)
class Attack:
    """The attack on ``target``; ``mark`` is the written outcome claim (``D``, ``R``, ``0``) or None
    (spec §8, §13.2)."""

    target: int
    mark: str | None = None

    @classmethod
    def of(cls, target: str, mark: str | None = None) -> Attack:
        return cls(SQUARE[target], mark)

    def __repr__(self) -> str:
        if self.mark is None:
            return f"Attack.of({NAMES[self.target]!r})"
        return f"Attack.of({NAMES[self.target]!r}, {self.mark!r})"

    def text(self) -> str:
        return f"x{NAMES[self.target]}" + (f"={self.mark}" if self.mark is not None else "")


@dataclasses.dataclass(frozen=True, slots=True)
class EndTurn:
    """Ending the turn without (a further move or) an attack (spec §17)."""

    def text(self) -> str:
        return "--"


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """A whole turn (or the rest of a turn in progress): its steps in order, then the attack."""

    steps: tuple[Step, ...] = ()
    attack: Attack | None = None

    def __repr__(self) -> str:
        if self.attack is None:
            return f"Turn({self.steps!r})"
        return f"Turn({self.steps!r}, {self.attack!r})"

    def actions(self) -> tuple[Step | Attack | EndTurn, ...]:
        """The actions to push one by one: the steps, then the attack or :class:`EndTurn`."""
        return (*self.steps, self.attack if self.attack is not None else EndTurn())

    def text(self) -> str:
        """The canonical turn token (spec §13.2)."""
        parts = [step.text() for step in self.steps]
        if self.attack is not None:
            parts.append(self.attack.text())
        return ",".join(parts) if parts else "--"


Action = Step | Attack | EndTurn

Move = Turn | Action
"""What one ply of a record is: a whole turn; ``push`` also takes its actions one by one
(§17)."""
