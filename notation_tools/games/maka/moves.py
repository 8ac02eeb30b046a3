"""Maka-Dai-Dai Shogi moves as data (§8.1): :class:`Move`, the type of one ply.

>>> from notation_tools.games.maka.pieces import TYPE_ID, parse_square
>>> str(Move(parse_square("10j"), parse_square("9h"), (parse_square("10i"), parse_square("9h")),
...          TYPE_ID["FF"], (parse_square("10i"), parse_square("9h"))))
'10j>9h[10i,9h]FF'
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.maka.pieces import ABBR_OF_ID, square_name


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """One move identity (§8.1) with its canonical path (not part of equality).

    ``origin``/``target`` are square indices (see
    :func:`~notation_tools.games.maka.pieces.square_name`): where the piece starts and where
    it ends; ``captures`` lists the captured squares in the
    order of the canonical path; ``becomes`` is the type id of the moving piece after the move;
    ``path`` the squares visited after the origin (``()`` for a pass, ``(target,)`` for a
    one-leg move).
    """

    origin: int
    target: int
    captures: tuple[int, ...] = ()
    becomes: int = 0
    path: tuple[int, ...] = dataclasses.field(default=(), compare=False)

    def __hash__(self) -> int:
        return hash((self.origin, self.target, frozenset(self.captures), self.becomes))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Move) and self.origin == other.origin
                and self.target == other.target and self.becomes == other.becomes
                and frozenset(self.captures) == frozenset(other.captures))

    @property
    def is_pass(self) -> bool:
        return self.origin == self.target and not self.captures

    def __str__(self) -> str:
        caps = ",".join(square_name(s) for s in self.captures)
        return (f"{square_name(self.origin)}>{square_name(self.target)}[{caps}]"
                f"{ABBR_OF_ID[self.becomes]}")
