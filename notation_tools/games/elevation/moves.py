"""Elevation's move values: a Dig, a Path, a piece-turn (:class:`Move`) and a :class:`Turn`.

Plain immutable data (squares are indexes 0..35, see :mod:`.pieces`). This module does not
check legality (that is :mod:`.rules`) nor spell moves as text (that is :mod:`.notation`).

>>> Move(14, "B", (Dig(21, 7), Path((14, 21), (False,)))).path
Path(squares=(14, 21), captures=(False,))
"""

from __future__ import annotations

import dataclasses
from typing import Union


@dataclasses.dataclass(frozen=True, slots=True)
class Dig:
    """One tile taken from ``source`` and put on ``target`` (§4.2)."""

    source: int
    target: int


@dataclasses.dataclass(frozen=True, slots=True)
class Path:
    """A move of one or two steps; ``squares[0]`` is where the piece stood (§4.3, §4.4).

    ``captures[i]`` says whether step ``i`` (``squares[i]`` → ``squares[i + 1]``) captures.
    """

    squares: tuple[int, ...]
    captures: tuple[bool, ...]

    @property
    def end(self) -> int:
        return self.squares[-1]


Action = Union[Dig, Path]


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """One piece-turn: the acting piece's square, the option code, the actions in order (§4.1)."""

    origin: int
    option: str
    actions: tuple[Action, ...]

    @property
    def path(self) -> Path | None:
        for action in self.actions:
            if isinstance(action, Path):
                return action
        return None

    @property
    def digs(self) -> tuple[Dig, ...]:
        return tuple(action for action in self.actions if isinstance(action, Dig))

    @property
    def end(self) -> int:
        """Where the acting piece stands after the piece-turn."""
        path = self.path
        return self.origin if path is None else path.end

    @property
    def capture_count(self) -> int:
        path = self.path
        return 0 if path is None else sum(path.captures)

    @property
    def parts(self) -> tuple[Move, ...]:
        return (self,)


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """A whole turn under ``two-pieces-per-turn=yes``: one or two piece-turns (§8.1)."""

    parts: tuple[Move, ...]


# Interned digs: legal-move generation builds thousands of moves per position.
DIGS: tuple[tuple[Dig, ...], ...] = tuple(tuple(Dig(s, d) for d in range(36)) for s in range(36))
