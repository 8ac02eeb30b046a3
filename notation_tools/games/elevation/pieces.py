"""Elevation's data tables: board geometry, piece kinds, turn options, the numbers the rules
name, and their lint.

Squares are numbered ``0..SQUARE_COUNT - 1``, ``index = SIZE * (rank - 1) + file`` (a1 = 0,
f1 = 5, a6 = 30). Every neighbour relation the rules use is computed here once, so the rules
index tables instead of doing coordinate arithmetic. This module knows no rule beyond geometry,
the start layout, which piece may use which option (§2, §3.3, §4.1) and the numbers the rules
state (§4.3, §5).

>>> square_name(14), square_index("c3"), len(ADJACENT[square_index("a1")])
('c3', 14, 3)
"""

from __future__ import annotations

import dataclasses

FILES = "abcdef"
RANKS = "123456"
SIZE = 6
"""Files and ranks of the board (§1)."""
SQUARE_COUNT = SIZE * SIZE
"""Squares of the board: ``range(SQUARE_COUNT)`` are the square indexes."""
LAST_RANK = SQUARE_COUNT - SIZE
"""The index of the first square of rank 6 (a6), Black's home rank."""

SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANKS for f in FILES)
SQUARE_INDEX: dict[str, int] = {name: index for index, name in enumerate(SQUARE_NAMES)}


def square_name(index: int) -> str:
    """The name of square ``index`` (``14`` → ``"c3"``)."""
    return SQUARE_NAMES[index]


def square_index(name: str) -> int:
    """The index of square ``name`` (``"c3"`` → ``14``); ``KeyError`` if there is none."""
    return SQUARE_INDEX[name]


def file_of(index: int) -> int:
    return index % SIZE


def rank_of(index: int) -> int:
    """0-based rank (rank 1 → 0)."""
    return index // SIZE


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < SIZE and 0 <= rank < SIZE


def _at(file: int, rank: int) -> int:
    return rank * SIZE + file


DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
DIAGONALS = ((-1, -1), (1, -1), (-1, 1), (1, 1))

# §1: the 8 surrounding squares; a square is not its own neighbour.
ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_at(file_of(s) + dx, rank_of(s) + dy) for dx, dy in DIRECTIONS
          if _on_board(file_of(s) + dx, rank_of(s) + dy))
    for s in range(SQUARE_COUNT))
IS_ADJACENT: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in ADJACENT)
ADJACENT_BITS: tuple[int, ...] = tuple(sum(1 << n for n in ADJACENT[s]) for s in range(SQUARE_COUNT))
"""``ADJACENT`` as bit sets (bit ``n`` for square ``n``), for counting with ``int.bit_count``."""

# §4.4: one diagonal step.
DIAGONAL_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_at(file_of(s) + dx, rank_of(s) + dy) for dx, dy in DIAGONALS
          if _on_board(file_of(s) + dx, rank_of(s) + dy))
    for s in range(SQUARE_COUNT))

# §4.4: straight two-square diagonal lines P → M → Q as (M, Q).
DIAGONAL_LINES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((_at(file_of(s) + dx, rank_of(s) + dy), _at(file_of(s) + 2 * dx, rank_of(s) + 2 * dy))
          for dx, dy in DIAGONALS if _on_board(file_of(s) + 2 * dx, rank_of(s) + 2 * dy))
    for s in range(SQUARE_COUNT))

# Reflections used by the symmetry oracles (§12).
MIRROR_FILE: tuple[int, ...] = tuple(_at(SIZE - 1 - file_of(s), rank_of(s)) for s in range(SQUARE_COUNT))
MIRROR_RANK: tuple[int, ...] = tuple(_at(file_of(s), SIZE - 1 - rank_of(s)) for s in range(SQUARE_COUNT))


# ---- pieces (§2) ------------------------------------------------------------------------

SIDE_NAMES = ("White", "Black")
WHITE, BLACK = 0, 1

SAMURAI, FISH, DRAGON = 1, 2, 3
"""Piece kinds. A board cell holds ``side << SIDE_SHIFT | kind`` (White 1..3, Black 5..7) or 0."""
SIDE_SHIFT = 2
"""Where a board cell keeps its side: above the two bits of its kind (``cell >> SIDE_SHIFT``)."""
KIND_MASK = 3
"""The bits of a board cell that hold its kind (``cell & KIND_MASK``)."""


@dataclasses.dataclass(frozen=True, slots=True)
class PieceKind:
    kind: int
    letter: str
    name: str
    options: tuple[str, ...]
    spec: str


PIECE_KINDS: dict[int, PieceKind] = {
    SAMURAI: PieceKind(SAMURAI, "S", "Samurai", ("B", "U"), "§2, §4.1"),
    FISH: PieceKind(FISH, "F", "Fish", ("B", "F", "U"), "§2, §4.1, §4.4"),
    DRAGON: PieceKind(DRAGON, "D", "Dragon", ("B", "DD", "MM", "C2", "U"), "§2, §4.1, §4.5"),
}
KIND_BY_LETTER: dict[str, int] = {row.letter: row.kind for row in PIECE_KINDS.values()}

PIECE_CHARS = {1: "S", 2: "F", 3: "D", 5: "s", 6: "f", 7: "d"}
"""Board cell code → position-string letter (§3.2)."""
PIECE_CODES = {char: code for code, char in PIECE_CHARS.items()}


def piece_code(side: int, kind: int) -> int:
    """The board cell of a ``side`` piece of ``kind`` (``piece_code(BLACK, FISH)`` → 6)."""
    return side << SIDE_SHIFT | kind


def side_of(cell: int) -> int:
    """The side of the piece in a non-empty board cell (``side_of(6)`` → ``BLACK``)."""
    return cell >> SIDE_SHIFT


def kind_of(cell: int) -> int:
    """The kind of the piece in a non-empty board cell (``kind_of(6)`` → ``FISH``)."""
    return cell & KIND_MASK


HOME_ROW: tuple[int, ...] = (SAMURAI, FISH, DRAGON, DRAGON, FISH, SAMURAI)
"""§3.3 [reconstruction]: the pieces on each home rank, files a to f, the same for both sides
so that they face each other file by file."""
START_BOARD: tuple[int, ...] = (
    tuple(piece_code(WHITE, kind) for kind in HOME_ROW)
    + (0,) * (LAST_RANK - SIZE)
    + tuple(piece_code(BLACK, kind) for kind in HOME_ROW))
"""The board cells of the default start (§3.3): White on rank 1, Black on rank 6."""


# ---- numbers the rules state (§4.3, §4.5, §5) --------------------------------------------

CLIMB_LIMIT = 1
"""How many levels a one-square move may climb (§4.3)."""
HIGH_CLIMB_LIMIT = 2
"""How many levels a Dragon's high climb (C2) may climb (§4.5)."""
CAPTURE_DROP = 2
"""How many levels above an enemy a piece must stand to capture it (§4.3)."""
REPETITION_COUNT = 3
"""``repetition-rule=threefold``: the occurrence of a position that draws (§5)."""
UNDO_RUN_PLIES = 6
"""``repetition-rule=consecutive-undo-6-plies``: the run of undoing plies that draws (§5)."""
TALL_STACK = 10
"""The lowest height the position string writes as ``<n>`` instead of one digit (§3.2)."""


# ---- turn options (§4.1) ----------------------------------------------------------------

@dataclasses.dataclass(frozen=True, slots=True)
class TurnOption:
    code: str
    name: str
    kinds: tuple[int, ...]
    spec: str


TURN_OPTIONS: dict[str, TurnOption] = {
    "B": TurnOption("B", "basic move", (SAMURAI, FISH, DRAGON), "§4.1"),
    "F": TurnOption("F", "fish move", (FISH,), "§4.4"),
    "DD": TurnOption("DD", "dig twice", (DRAGON,), "§4.5"),
    "MM": TurnOption("MM", "move twice", (DRAGON,), "§4.5"),
    "C2": TurnOption("C2", "high climb", (DRAGON,), "§4.5"),
    "U": TurnOption("U", "undermine", (SAMURAI, FISH, DRAGON), "§8.2"),
}
OPTION_ORDER: tuple[str, ...] = ("B", "F", "DD", "MM", "C2", "U")
"""The order in which §6.1 tries options for a token without ``=CODE``."""


def check_tables() -> list[str]:
    """Problems in the tables above, each naming its row.

    >>> check_tables()
    []
    """
    problems: list[str] = []
    if len(START_BOARD) != SQUARE_COUNT or len(HOME_ROW) != SIZE:
        problems.append("start board: not one cell per square")
    for s in range(SQUARE_COUNT):
        if s in IS_ADJACENT[s]:
            problems.append(f"square {square_name(s)} is listed as its own neighbour")
        for n in ADJACENT[s]:
            if s not in IS_ADJACENT[n]:
                problems.append(f"adjacency {square_name(s)}-{square_name(n)} is not symmetric")
        for m, q in DIAGONAL_LINES[s]:
            if m not in DIAGONAL_NEIGHBOURS[s] or q not in DIAGONAL_NEIGHBOURS[m]:
                problems.append(f"diagonal line {square_name(s)}-{square_name(m)}-{square_name(q)} is broken")
    for code, option in TURN_OPTIONS.items():
        if code != option.code or code not in OPTION_ORDER:
            problems.append(f"turn option {code}: code mismatch or missing from OPTION_ORDER")
        for kind in option.kinds:
            if code not in PIECE_KINDS[kind].options:
                problems.append(f"turn option {code}: piece {PIECE_KINDS[kind].name} does not list it")
    for kind, row in PIECE_KINDS.items():
        for code in row.options:
            if kind not in TURN_OPTIONS[code].kinds:
                problems.append(f"piece {row.name}: option {code} does not list this piece")
    return problems


def piece_name(cell: int) -> str:
    """The full name of a board cell's piece, side first (``White Samurai``): what a drawing
    shows on hover."""
    return f"{SIDE_NAMES[side_of(cell)]} {PIECE_KINDS[kind_of(cell)].name}"
