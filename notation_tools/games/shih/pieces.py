"""Shih board geometry as data: the 96 triangular spaces, their names, sides and neighbours.

Everything here is computed once at import from the row widths of spec §1.2 and the neighbour
table of §1.4; the rules index these tuples and never recompute geometry. This module knows no
rule of play (walls, pieces and captures live in :mod:`.rules`).

>>> NAMES[0], NAMES[95], INDEX["d8"]
('a1', 'h9', 40)
>>> [NAMES[n] for n in NEIGHBOURS[INDEX["d8"]]]   # sides H, S, B
['c7', 'd9', 'd7']
"""

from __future__ import annotations

ROWS = "abcdefgh"
"""Row letters, top (``a``) to bottom (``h``) (§1.2)."""

WIDTHS = (9, 11, 13, 15, 15, 13, 11, 9)
"""Spaces per row (§1.2)."""

H, S, B = 0, 1, 2
"""Side indices: ``H`` horizontal, ``S`` slanting like ``/``, ``B`` slanting like ``\\`` (§1.3)."""

SIDE_LETTERS = "HSB"
SIDE_OF_LETTER = {"H": H, "S": S, "B": B}

CW = (S, B, H)
"""Clockwise turn moves the wall ``H → S → B → H`` (§1.5): ``CW[side]`` is the new side."""
CCW = (B, H, S)
"""Counter-clockwise turn moves the wall ``H → B → S → H`` (§1.5)."""

RIM = -1
"""Neighbour value of a side that lies on the board's outline."""

BLUE, RED = 0, 1
EMPTY = -1
SIDE_NAMES = ("Blue", "Red")
PIECE_LETTERS = ("b", "r")

ROW_START = tuple(sum(WIDTHS[:row]) for row in range(8))
"""Index of the first space of each row; spaces are numbered row by row, left to right."""

COUNT = sum(WIDTHS)


def _index(row: int, column: int) -> int:
    return ROW_START[row] + column - 1


def _build() -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[bool, ...],
                      tuple[tuple[int, int, int], ...]]:
    names: list[str] = []
    rows: list[int] = []
    columns: list[int] = []
    ups: list[bool] = []
    neighbours: list[tuple[int, int, int]] = []
    for row, width in enumerate(WIDTHS):
        for k in range(1, width + 1):
            up = (k % 2 == 1) if row <= 3 else (k % 2 == 0)
            sides = [RIM, RIM, RIM]
            if up:
                sides[S] = _index(row, k - 1) if k > 1 else RIM
                sides[B] = _index(row, k + 1) if k < width else RIM
                if row <= 2:
                    sides[H] = _index(row + 1, k + 1)
                elif row == 3:
                    sides[H] = _index(4, k)
                elif row <= 6:
                    sides[H] = _index(row + 1, k - 1)
            else:
                sides[B] = _index(row, k - 1) if k > 1 else RIM
                sides[S] = _index(row, k + 1) if k < width else RIM
                if 1 <= row <= 3:
                    sides[H] = _index(row - 1, k - 1)
                elif row == 4:
                    sides[H] = _index(3, k)
                elif row >= 5:
                    sides[H] = _index(row - 1, k + 1)
            names.append(f"{ROWS[row]}{k}")
            rows.append(row)
            columns.append(k)
            ups.append(up)
            neighbours.append((sides[H], sides[S], sides[B]))
    return tuple(names), tuple(rows), tuple(columns), tuple(ups), tuple(neighbours)


NAMES, ROW_OF, COLUMN_OF, IS_UP, NEIGHBOURS = _build()
"""Per space: its name (``"d8"``), row index (a = 0), column (1-based), whether it points up,
and its neighbour across sides ``(H, S, B)`` (:data:`RIM` on the outline) (§1.2, §1.4)."""

INDEX = {name: index for index, name in enumerate(NAMES)}
"""Space name → index."""

LINKS = tuple(tuple((side, other) for side, other in enumerate(NEIGHBOURS[space]) if other != RIM)
              for space in range(COUNT))
"""Per space, its interior edges as ``(side, neighbour)`` pairs: the only edges a step, a view
or a region can cross."""

ADJACENT = tuple({other: side for side, other in LINKS[space]} for space in range(COUNT))
"""Per space, neighbour → the side they share (§1.4: sharing a side, not a corner)."""


def rotate180(space: int) -> int:
    """The 180° image of a space (§1.5): ``(row i, k) → (row 7−i, w+1−k)``."""
    row, column = ROW_OF[space], COLUMN_OF[space]
    return _index(7 - row, WIDTHS[row] + 1 - column)


def reflect(space: int) -> int:
    """The left-right mirror image of a space (§1.5): ``(row, k) → (row, w+1−k)``."""
    row, column = ROW_OF[space], COLUMN_OF[space]
    return _index(row, WIDTHS[row] + 1 - column)


MIRROR_SIDE = (H, B, S)
"""Side letter under left-right reflection: ``S`` and ``B`` swap, ``H`` stays (§1.5)."""


def check_tables() -> list[str]:
    """Problems in the geometry tables, each naming the space (spec §1.1, §1.4, §16).

    >>> check_tables()
    []
    """
    problems: list[str] = []
    if COUNT != 96:
        problems.append(f"board has {COUNT} spaces, not 96 (§1.1)")
    if sum(IS_UP) != 48:
        problems.append(f"board has {sum(IS_UP)} up spaces, not 48 (§1.1)")
    rim = 0
    shared = 0
    for space in range(COUNT):
        for side, other in enumerate(NEIGHBOURS[space]):
            if other == RIM:
                rim += 1
                continue
            shared += 1
            if NEIGHBOURS[other][side] != space:
                problems.append(f"{NAMES[space]}: side {SIDE_LETTERS[side]} leads to "
                                f"{NAMES[other]}, which does not lead back on the same side (§1.4)")
            if IS_UP[other] == IS_UP[space]:
                problems.append(f"{NAMES[space]}: neighbour {NAMES[other]} has the same "
                                f"orientation (§1.2)")
        if rotate180(rotate180(space)) != space or reflect(reflect(space)) != space:
            problems.append(f"{NAMES[space]}: symmetry is not an involution (§1.5)")
        image = rotate180(space)
        for side, other in enumerate(NEIGHBOURS[space]):
            mapped = NEIGHBOURS[image][side]
            expected = RIM if other == RIM else rotate180(other)
            if mapped != expected:
                problems.append(f"{NAMES[space]}: 180° rotation does not keep side "
                                f"{SIDE_LETTERS[side]} (§1.5)")
        image = reflect(space)
        for side, other in enumerate(NEIGHBOURS[space]):
            mapped = NEIGHBOURS[image][MIRROR_SIDE[side]]
            expected = RIM if other == RIM else reflect(other)
            if mapped != expected:
                problems.append(f"{NAMES[space]}: reflection does not swap S and B (§1.5)")
    if rim != 24:
        problems.append(f"board has {rim} rim sides, not 24 (§1.1)")
    if shared != 2 * 132:
        problems.append(f"board has {shared // 2} shared edges, not 132 (§1.1)")
    return problems
