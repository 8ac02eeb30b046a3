"""What the foreign-format readers (``kfen.py``, ``ebarjou.py``) give back, and their shared steps.

A reader returns a :class:`ForeignPosition` (a position string of spec §5.4 plus diagnostics)
or a :class:`ForeignRecord` (tags, start position and turn tokens). Notes are ``(code,
message)`` pairs with the codes of spec §15 (``W-MAP-DIFFERS``, ``W-MID-TURN``,
``I-TURN-ASSUMED``, ...). This module reads no format itself and applies no move.
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.base import BadPositionError
from notation_tools.games.file_formats import ForeignRecord
from notation_tools.games.gow.pieces import (
    ARSENAL_OWNER, ARSENALS, NAMES, SIDE_OF, SIZE, TERRAIN, territory)
from notation_tools.games.gow.position import format_board


@dataclasses.dataclass(frozen=True)
class ForeignPosition:
    """A position read from a foreign format: the position string and what the reader noticed.

    ``comment`` keeps text the position string cannot hold (e.g. ``kfen-actions: ...``).
    """

    fen: str
    notes: tuple[tuple[str, str], ...] = ()
    comment: str | None = None


def foreign_error(message: str, code: str) -> BadPositionError:
    """An unreadable foreign file (E-KFEN, E-EBARJOU), raised as a position error."""
    return BadPositionError(message, code=code, rule="§14")


def map_differences(terrain: dict[int, int], arsenal_marks: dict[int, int]) -> list[int]:
    """Squares whose written terrain differs from the standard map (spec §14.2, §14.4).

    ``terrain`` maps squares to the written terrain kind (absent = plain); ``arsenal_marks``
    maps squares to the owner of a written arsenal. A standard arsenal written as plain is a
    destroyed arsenal, not a difference.
    """
    differ = []
    for s in range(SIZE):
        if terrain.get(s, 0) != TERRAIN[s]:
            differ.append(s)
        elif s in arsenal_marks and ARSENAL_OWNER.get(s) != arsenal_marks[s]:
            differ.append(s)
    return differ


def surviving(arsenal_marks: dict[int, int]) -> list[bool]:
    """The arsenal field from written arsenal marks: standard squares with the right owner."""
    return [arsenal_marks.get(s) == ARSENAL_OWNER[s] for s in ARSENALS]


def assemble(board: list[int], side: int, alive: list[bool], retreat: int | None,
             turn: int) -> str:
    """A position string (spec §5.4) from its parts; validity is checked by its parser."""
    arsenals = ",".join(NAMES[s] for i, s in enumerate(ARSENALS) if alive[i]) or "-"
    return (f"{format_board(board)} {'N' if side == 0 else 'S'} {arsenals} "
            f"{NAMES[retreat] if retreat is not None else '-'} {turn}")


def assumed_turn(board: list[int], side: int, alive: list[bool],
                 retreat: int | None) -> int:
    """The turn number of a position whose format has none (spec §14.4): 1 for a valid North
    deployment, 3 for another North-to-move position, 2 when South is to move."""
    if side == 1:
        return 2
    deployment = (retreat is None and all(alive)
                  and all(territory(s) == SIDE_OF[v] for s, v in enumerate(board) if v))
    return 1 if deployment else 3
