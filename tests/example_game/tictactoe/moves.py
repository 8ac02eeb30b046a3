"""The move: a mark placed on an empty square (rules §2)."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class Place:
    """Place the mover's mark on ``target`` (a square index, see ``pieces.SQUARE_NAMES``).

    >>> Place(4)
    Place(target=4)
    """

    target: int


Move = Place
"""The type of one ply."""
