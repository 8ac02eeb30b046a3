"""Elevation's move values: a :class:`Dig`, a :class:`Path`, a :class:`PieceTurn`, a
:class:`Turn`, and :data:`Move`, the type of one ply; and the written patterns
(:class:`PieceTurnSpec`) that the notation hands to the engine.

Plain immutable data (squares are indexes ``0..SQUARE_COUNT - 1``, see :mod:`.pieces`). This
module does not check legality (that is :mod:`.rules`) nor read or spell moves as text (that
is :mod:`.notation`).

>>> PieceTurn(14, "B", (Dig(21, 7), Path((14, 21), (False,)))).path
Path(squares=(14, 21), captures=(False,))
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple, Union

from notation_tools.games.elevation.pieces import SQUARE_COUNT, SQUARE_NAMES


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
    def target(self) -> int:
        """Where the path ends."""
        return self.squares[-1]


Action = Union[Dig, Path]


@dataclasses.dataclass(frozen=True, slots=True)
class PieceTurn:
    """One piece-turn: the acting piece's square, the option code, the actions in order (§4.1).

    Without ``two-pieces-per-turn`` a piece-turn is a whole ply.
    """

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
    def target(self) -> int:
        """Where the acting piece stands after the piece-turn."""
        path = self.path
        return self.origin if path is None else path.target

    @property
    def parts(self) -> tuple[PieceTurn, ...]:
        """The piece-turns of the ply: this one (as :attr:`Turn.parts`)."""
        return (self,)


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """A whole turn under ``two-pieces-per-turn=yes``: one or two piece-turns (§8.1)."""

    parts: tuple[PieceTurn, ...]

    @property
    def origin(self) -> int:
        """Where the first acting piece stood."""
        return self.parts[0].origin

    @property
    def target(self) -> int:
        """Where the first acting piece stands after its piece-turn."""
        return self.parts[0].target


Move = PieceTurn | Turn
"""One ply: a :class:`PieceTurn`, or a :class:`Turn` under ``two-pieces-per-turn=yes``."""

# Interned digs: legal-move generation builds thousands of moves per position.
DIGS: tuple[tuple[Dig, ...], ...] = tuple(
    tuple(Dig(source, target) for target in range(SQUARE_COUNT)) for source in range(SQUARE_COUNT))


# ---- moves as written: what the notation hands to the engine (§6.1) -----------------------

class DigSpec(NamedTuple):
    """A dig as written: squares and the character offset of the action in the token."""

    source: int
    target: int
    offset: int


class PathSpec(NamedTuple):
    """A path as written: squares, the ``x`` marks of each step, the action's offset."""

    squares: tuple[int, ...]
    marks: tuple[bool, ...]
    offset: int

    def step_offset(self, index: int) -> int:
        """Where step ``index`` (its mark, then its square) starts in the token: a path is
        written ``c3-d4-e5``, squares of two characters joined by one mark (§6.1).

        >>> PathSpec((14, 21, 28), (False, True), 9).step_offset(1)
        14
        """
        return self.offset + len("c3") + len("-d4") * index


ActionSpec = Union[DigSpec, PathSpec]


class PieceTurnSpec(NamedTuple):
    """One piece-turn as written: optional piece kind and option code, and the actions.

    ``head`` is the text before ``:`` and ``text`` the whole piece-turn, both for messages;
    ``offset`` is where the piece-turn starts in the token.
    """

    origin: int
    kind: int | None
    option: str | None
    actions: tuple[ActionSpec, ...]
    head: str
    text: str
    offset: int


def spec_of(move: PieceTurn) -> PieceTurnSpec:
    """A :class:`PieceTurnSpec` that states ``move`` exactly (no piece letter)."""
    actions: list[ActionSpec] = []
    for action in move.actions:
        if isinstance(action, Dig):
            actions.append(DigSpec(action.source, action.target, 0))
        else:
            actions.append(PathSpec(action.squares, action.captures, 0))
    head = f"{SQUARE_NAMES[move.origin]}={move.option}"
    return PieceTurnSpec(move.origin, None, move.option, tuple(actions), head, head, 0)
