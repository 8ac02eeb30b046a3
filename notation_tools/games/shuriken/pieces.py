"""Board geometry of Shuriken 2D as data: cells, windows, pre-placed stones, frame, neighbours.

Everything is computed once at import into flat tables indexed by a cell index
``r * WIDTH + c`` over a 21 × 21 grid: rows and columns 1..19 are the board, rows 0 and 20 and
columns 0 and 20 hold the virtual frame stones (§1.3). The rules index these tables; this
module does not know whose turn it is, what a loop is, or how a move is written. The sections
cited (§1.1, ...) are those of the rules reference, ``docs/rules/shuriken-2d.md``.

>>> CELL_NAME[index_of(10, 11)], index_of(*ROW_COL[CELL_INDEX["N3"]]) == CELL_INDEX["N3"]
('K10', True)
>>> sorted(CELL_NAME[n] for n in NEIGHBOURS[CELL_INDEX["N3"]])
['M3', 'M4', 'N2', 'N4', 'O2', 'O3']
>>> len(CELLS), len(HOLES), len(PRE_PLACED), len(EMPTY_AT_START)
(343, 18, 24, 319)
"""

from __future__ import annotations

import dataclasses

SIZE = 19
"""Rows and columns of the rhombus (§1.1)."""
WIDTH = SIZE + 2
"""Grid width: the board plus one frame column on each side."""
GRID = WIDTH * WIDTH
COLUMNS = "ABCDEFGHIJKLMNOPQRS"  # §1.1: 19 letters, I included

CELL_COUNT = 343
"""Board cells: 361 grid positions less the 18 hole cells (§1.4)."""
EMPTY_CELL_COUNT = 319
"""Cells empty at the start: the board cells less the 24 pre-placed stones (§1.4); also the
longest possible game, in placements (§4.3)."""
HOLES_PER_WINDOW = 9
"""Each small window is a 3 × 3 rhombus of hole cells (§1.2)."""
STONES_PER_SIDE = 3
"""Pre-placed stones on each side of a small window (§1.4)."""
WIN_RANK = 2
"""A player whose port graph reaches this cycle rank has two distinct loops and wins (§3.4)."""

# Contents of a grid point (the engine's board list holds these).
EMPTY, BLACK, WHITE, HOLE, OUTSIDE = 0, 1, 2, 3, 4
SIDE_NAMES = ("Black", "White")
"""Side 0 is Black (moves first, §2.1); a side's stone colour is ``side + 1``."""

# Neighbour offsets of (r, c), §1.1:
# (r, c−1) (r, c+1) (r−1, c) (r−1, c+1) (r+1, c−1) (r+1, c).
DIRECTIONS = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0))

NODES = ("W1", "W2", "W3")
"""The three windows, the nodes of loops (§3.1); W3 is the board outline."""
PORT_COUNT = 2 * len(NODES)
"""Ports of a player's port graph: one group per side s₁ and s₂ of each node (§3.2)."""
TOP, RIGHT, BOTTOM, LEFT = "top", "right", "bottom", "left"
SIDE_COLOUR = {TOP: BLACK, BOTTOM: BLACK, LEFT: WHITE, RIGHT: WHITE}
"""Every window's sides in cyclic order: top black, right white, bottom black, left white
(§1.3)."""
PASSAGE = {BLACK: (TOP, BOTTOM), WHITE: (LEFT, RIGHT)}
"""A window is a passage from side s₁ to side s₂ for each colour (§3.2)."""


def index_of(row: int, col: int) -> int:
    """The grid index of (row, col); row and col may be 0..20 (frame included)."""
    return row * WIDTH + col


def cell_name(row: int, col: int) -> str:
    """The cell name of (row, col): column letter + row number (§1.1)."""
    return f"{COLUMNS[col - 1]}{row}"


def _cells(names: str) -> tuple[int, ...]:
    return tuple(_parse_name(name) for name in names.split())


def _parse_name(name: str) -> int:
    return index_of(int(name[1:]), COLUMNS.index(name[0]) + 1)


@dataclasses.dataclass(frozen=True)
class Window:
    """One small window: its hole cells (§1.2) and its ring of pre-placed stones by side
    (§1.4)."""

    name: str
    holes: tuple[int, ...]
    sides: dict[str, tuple[int, ...]]


# §1.2 (holes) and §1.4 (pre-placed stones), read from the Loophole 2D diagrams.
WINDOWS = (
    Window("W1", _cells("M5 N5 O5 M6 N6 O6 M7 N7 O7"),
           {TOP: _cells("M4 N4 O4"), RIGHT: _cells("P5 P6 P7"),
            BOTTOM: _cells("M8 N8 O8"), LEFT: _cells("L5 L6 L7")}),
    Window("W2", _cells("E13 F13 G13 E14 F14 G14 E15 F15 G15"),
           {TOP: _cells("E12 F12 G12"), RIGHT: _cells("H13 H14 H15"),
            BOTTOM: _cells("E16 F16 G16"), LEFT: _cells("D13 D14 D15")}),
)

# The outline is the third window W3: a ring of virtual stones (§1.3); no corners.
FRAME_SIDES = {
    TOP: tuple(index_of(0, c) for c in range(1, SIZE + 1)),
    BOTTOM: tuple(index_of(SIZE + 1, c) for c in range(1, SIZE + 1)),
    LEFT: tuple(index_of(r, 0) for r in range(1, SIZE + 1)),
    RIGHT: tuple(index_of(r, SIZE + 1) for r in range(1, SIZE + 1)),
}

SIDE_STONES: dict[str, dict[str, tuple[int, ...]]] = {
    **{window.name: window.sides for window in WINDOWS}, "W3": FRAME_SIDES}
"""Window → side → the stones forming that side (pre-placed, or virtual for W3)."""

HOLES: dict[int, str] = {cell: window.name for window in WINDOWS for cell in window.holes}
"""Hole cell → its window. Holes are not cells (§1.2)."""

PRE_PLACED: dict[int, tuple[int, str, str]] = {
    cell: (SIDE_COLOUR[side], window.name, side)
    for window in WINDOWS for side, cells in window.sides.items() for cell in cells}
"""Pre-placed cell → (colour, window, side) (§1.4)."""

FRAME: dict[int, tuple[int, str]] = {
    cell: (SIDE_COLOUR[side], side) for side, cells in FRAME_SIDES.items() for cell in cells}
"""Virtual frame point → (colour, side) (§1.3)."""

CELLS: tuple[int, ...] = tuple(
    index_of(r, c) for r in range(1, SIZE + 1) for c in range(1, SIZE + 1)
    if index_of(r, c) not in HOLES)
"""The board cells (``CELL_COUNT``) in row-major order (pre-placed ones included)."""

EMPTY_AT_START: tuple[int, ...] = tuple(cell for cell in CELLS if cell not in PRE_PLACED)

ROW_COL: dict[int, tuple[int, int]] = {
    index_of(r, c): (r, c) for r in range(SIZE + 2) for c in range(SIZE + 2)}
CELL_NAME: dict[int, str] = {
    index_of(r, c): cell_name(r, c) for r in range(1, SIZE + 1) for c in range(1, SIZE + 1)}
"""Grid index → name, for every grid point of the board (holes included, for diagnostics)."""
CELL_INDEX: dict[str, int] = {name: cell for cell, name in CELL_NAME.items()}


def _initial_contents() -> list[int]:
    board = [OUTSIDE] * GRID
    for cell in CELLS:
        board[cell] = EMPTY
    for cell in HOLES:
        board[cell] = HOLE
    for cell, (colour, _, _) in PRE_PLACED.items():
        board[cell] = colour
    for cell, (colour, _) in FRAME.items():
        board[cell] = colour
    return board


START_BOARD: tuple[int, ...] = tuple(_initial_contents())
"""Grid contents of the start position (§1.5): frame, holes, pre-placed stones."""


def _neighbours(cell: int) -> tuple[int, ...]:
    row, col = ROW_COL[cell]
    found = []
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        if 0 <= r <= SIZE + 1 and 0 <= c <= SIZE + 1:
            other = index_of(r, c)
            # Holes are nobody's neighbour (§1.2); the four frame corners do not exist (§1.3).
            if START_BOARD[other] not in (HOLE, OUTSIDE):
                found.append(other)
    return tuple(found)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    _neighbours(i) if START_BOARD[i] not in (HOLE, OUTSIDE) else () for i in range(GRID))
"""Grid index → its neighbours among cells and frame points (§1.1, §1.3)."""

PORTS: dict[int, tuple[tuple[int, int], ...]] = {
    colour: tuple((SIDE_STONES[node][PASSAGE[colour][0]][0],
                   SIDE_STONES[node][PASSAGE[colour][1]][0]) for node in NODES)
    for colour in (BLACK, WHITE)}
"""Colour → per node (W1, W2, W3), one stone of side s₁ and one of side s₂ (§3.2, §3.4)."""


def hex_distance(a: int, b: int) -> int:
    """Steps between two grid points over the hex adjacency of §1.1 (holes ignored)."""
    (r1, c1), (r2, c2) = ROW_COL[a], ROW_COL[b]
    dr, dc = r2 - r1, c2 - c1
    return (abs(dr) + abs(dc) + abs(dr + dc)) // 2


def _zone(cell: int) -> str:
    distances = {window.name: min(hex_distance(cell, hole) for hole in window.holes)
                 for window in WINDOWS}
    # The nearest frame point is straight across the nearest edge: every frame side runs the
    # board's whole length, so the point in the cell's own row or column is on it.
    row, col = ROW_COL[cell]
    distances["W3"] = min(row, col, SIZE + 1 - row, SIZE + 1 - col)
    nearest = min(distances.values())
    closest = [node for node, distance in distances.items() if distance == nearest]
    return closest[0] if len(closest) == 1 else "between"


ZONES = ("W1", "W2", "W3", "between")
ZONE: dict[int, str] = {cell: _zone(cell) for cell in CELLS}
"""Board region of each cell, for statistics only: the window it is nearest to (hex steps to
a hole cell, or to the frame for W3), or ``between`` on a tie. Not a rule [reconstruction]."""


def transpose(cell: int) -> int:
    """(r, c) → (c, r): with colours swapped, a symmetry of the start (§1.6)."""
    row, col = ROW_COL[cell]
    return index_of(col, row)


def rotate(cell: int) -> int:
    """(r, c) → (20 − r, 20 − c): with colours kept, a symmetry of the start (§1.6)."""
    row, col = ROW_COL[cell]
    return index_of(SIZE + 1 - row, SIZE + 1 - col)


def check_tables() -> list[str]:
    """Problems in the geometry tables, each naming the cell or window (G7).

    >>> check_tables()
    []
    """
    problems = []
    if len(CELLS) != CELL_COUNT:
        problems.append(f"board: {len(CELLS)} cells, §1.4 says {CELL_COUNT}")
    if len(EMPTY_AT_START) != EMPTY_CELL_COUNT:
        problems.append(f"board: {len(EMPTY_AT_START)} empty cells at start, §1.4 says "
                        f"{EMPTY_CELL_COUNT}")
    for window in WINDOWS:
        if len(window.holes) != HOLES_PER_WINDOW:
            problems.append(f"{window.name}: {len(window.holes)} hole cells, not "
                            f"{HOLES_PER_WINDOW} (§1.2)")
        for side, cells in window.sides.items():
            if len(cells) != STONES_PER_SIDE:
                problems.append(f"{window.name} {side}: {len(cells)} stones, not "
                                f"{STONES_PER_SIDE} (§1.4)")
            for cell in cells:
                if cell in HOLES:
                    problems.append(f"{window.name} {side}: {CELL_NAME[cell]} is a hole")
                if not any(HOLES.get(n) == window.name
                           for n in _grid_neighbours(cell)):
                    problems.append(f"{window.name} {side}: {CELL_NAME[cell]} does not touch "
                                    "the window")
    for node, sides in SIDE_STONES.items():
        for side, cells in sides.items():
            # A side must be one connected row of stones so that it lies in one group (§3.2).
            if not _connected(cells):
                problems.append(f"{node} {side}: the side's stones are not connected")
    for cell in range(GRID):
        for other in NEIGHBOURS[cell]:
            if cell not in NEIGHBOURS[other]:
                problems.append(f"neighbours: {cell} → {other} is not mutual")
    for mapping, name, swap in ((transpose, "transpose", True), (rotate, "rotation", False)):
        for cell in range(GRID):
            if START_BOARD[cell] == OUTSIDE:
                continue
            image = START_BOARD[mapping(cell)]
            expected = START_BOARD[cell]
            if swap and expected in (BLACK, WHITE):
                expected = BLACK + WHITE - expected
            if image != expected:
                problems.append(f"{name}: start not symmetric at grid point {ROW_COL[cell]} "
                                "(§1.6)")
    return problems


def _grid_neighbours(cell: int) -> list[int]:
    row, col = ROW_COL[cell]
    return [index_of(row + dr, col + dc) for dr, dc in DIRECTIONS]


def _connected(cells: tuple[int, ...]) -> bool:
    wanted = set(cells)
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        for other in NEIGHBOURS[stack.pop()]:
            if other in wanted and other not in seen:
                seen.add(other)
                stack.append(other)
    return seen == wanted

STONE_NAMES = {BLACK: "Black stone", WHITE: "White stone"}
"""The name of a board content that is a stone: what a drawing shows on hover."""
