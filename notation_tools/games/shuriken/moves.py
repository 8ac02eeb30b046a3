"""The moves of Shuriken 2D: a placement on a cell (§2.2), or the pie rule's ``swap`` (§6).

Moves are small frozen values; :data:`PLACES` holds one shared :class:`Place` per grid point of
the board, so the engine and the notation hand the same objects around. ``Move``, the type of
one ply, is ``Place | Swap``.

>>> PLACES[Place(10, 11).target] is PLACES[Place(10, 11).target], Place(10, 11).name
(True, 'K10')
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.shuriken.pieces import CELL_NAME, ROW_COL, index_of


@dataclasses.dataclass(frozen=True, slots=True)
class Place:
    """Place the mover's stone on cell (row, col) (§2.2). Row 1 is the top, col 1 is A;
    ``target`` is the cell's grid index (``pieces.index_of``).

    >>> Place(10, 11).name
    'K10'
    """

    row: int
    col: int
    target: int = dataclasses.field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", index_of(self.row, self.col))

    @property
    def name(self) -> str:
        """The cell's name (§1.1), the move's canonical text (§7)."""
        return CELL_NAME[self.target]


@dataclasses.dataclass(frozen=True, slots=True)
class Swap:
    """The pie rule as White's first turn (§6, option ``swap=yes``): Black's stone at (r, c)
    is replaced by a white stone at (c, r)."""


Move = Place | Swap
"""One ply of Shuriken 2D."""

PLACES: dict[int, Place] = {cell: Place(*ROW_COL[cell]) for cell in CELL_NAME}
"""One shared :class:`Place` per board grid point (holes included, so they can be explained)."""
SWAP = Swap()
"""The one :class:`Swap`."""
