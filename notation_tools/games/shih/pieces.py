"""Shih board geometry as data: the 96 triangular spaces, their names, sides and neighbours.

Everything here is computed once at import from the row widths of §1.2 and the neighbour
table of §1.4; the rules index these tuples and never recompute geometry. The numbers the rules
and the notation need (movement points, limits of the position string, the board counts
of §1.1) are named here too. This module knows no rule of play (walls, pieces and captures live
in :mod:`notation_tools.games.shih.rules`).

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

ROW_COUNT = len(WIDTHS)
"""Rows ``a`` to ``h`` (§1.2)."""

MIDDLE = ROW_COUNT // 2
"""Index of the first row of the lower half (``e``): rows above it point up on odd columns,
rows from it on on even columns, and the neighbour rule changes across it (§1.2, §1.4)."""

MAX_WIDTH = max(WIDTHS)
"""The widest row (``d`` and ``e``): the longest run a position string may write (§3.2)."""

HEX_SIDE = 4
"""The board is a regular hexagon of side 4 (§1.1)."""

LATTICE_LINES = ROW_COUNT + 1
"""Horizontal lattice lines, 0 (top) to 8 (bottom), that bound the rows (§15.2)."""

SPACES = 96
"""Spaces on the board according to §1.1 (:data:`COUNT` is what the row widths give)."""

UP_SPACES = SPACES // 2
"""Spaces that point up, and as many point down (§1.1)."""

RIM_SIDES = 6 * HEX_SIDE
"""Sides on the board's outline: four per side of the hexagon (§1.1)."""

SHARED_EDGES = 132
"""Edges shared by two spaces (§1.1)."""

MP_PER_TURN = 2
"""Movement points of a turn (§4)."""

ACTION_MP = 1
"""The cost of a Step or a Spin (§4, §6, §7)."""

POWER_SPIN_MP = 2
"""The cost of a Power Spin, the whole turn (§8)."""

PIECES_PER_PLAYER = 14
"""Pieces per side by default (§2); a score can never exceed it (§3.2)."""

MAX_POWER_SPINS = 9
"""The most Power Spins a side can hold: the spins field writes one digit per side (§3.2)."""

REPETITIONS = 3
"""``draw-repetition=threefold``: the occurrence of a position that draws (§10)."""
"""The most Power Spins a side can hold: the spins field writes one digit per side (§3.2)."""

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

ROW_START = tuple(sum(WIDTHS[:row]) for row in range(ROW_COUNT))
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
            up = (k % 2 == 1) if row < MIDDLE else (k % 2 == 0)
            sides = [RIM, RIM, RIM]
            if up:
                sides[S] = _index(row, k - 1) if k > 1 else RIM
                sides[B] = _index(row, k + 1) if k < width else RIM
                if row < MIDDLE - 1:
                    sides[H] = _index(row + 1, k + 1)
                elif row == MIDDLE - 1:
                    sides[H] = _index(MIDDLE, k)
                elif row < ROW_COUNT - 1:
                    sides[H] = _index(row + 1, k - 1)
            else:
                sides[B] = _index(row, k - 1) if k > 1 else RIM
                sides[S] = _index(row, k + 1) if k < width else RIM
                if 1 <= row < MIDDLE:
                    sides[H] = _index(row - 1, k - 1)
                elif row == MIDDLE:
                    sides[H] = _index(MIDDLE - 1, k)
                elif row > MIDDLE:
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
    return _index(ROW_COUNT - 1 - row, WIDTHS[row] + 1 - column)


def reflect(space: int) -> int:
    """The left-right mirror image of a space (§1.5): ``(row, k) → (row, w+1−k)``."""
    row, column = ROW_OF[space], COLUMN_OF[space]
    return _index(row, WIDTHS[row] + 1 - column)


MIRROR_SIDE = (H, B, S)
"""Side letter under left-right reflection: ``S`` and ``B`` swap, ``H`` stays (§1.5)."""


def check_tables() -> list[str]:
    """Problems in the geometry tables, each naming the space (§1.1, §1.4, §16).

    >>> check_tables()
    []
    """
    problems: list[str] = []
    if COUNT != SPACES:
        problems.append(f"board has {COUNT} spaces, not {SPACES} (§1.1)")
    if sum(IS_UP) != UP_SPACES:
        problems.append(f"board has {sum(IS_UP)} up spaces, not {UP_SPACES} (§1.1)")
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
    if rim != RIM_SIDES:
        problems.append(f"board has {rim} rim sides, not {RIM_SIDES} (§1.1)")
    if shared != 2 * SHARED_EDGES:  # every shared edge is seen from both of its spaces
        problems.append(f"board has {shared // 2} shared edges, not {SHARED_EDGES} (§1.1)")
    return problems

PIECE_NAMES = ("Blue piece", "Red piece")
"""The name of each side's piece (indexed by ``BLUE``, ``RED``): what a drawing shows on
hover."""
