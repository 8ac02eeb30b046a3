"""The board (rules §1): three files a-c, three ranks 1-3, the eight lines, the marks.

Data only. ``check_tables`` checks the tables and names the row at fault.
"""

from __future__ import annotations

SIDE_NAMES = ("Crosses", "Noughts")
"""Side 0 moves first."""
SIZE = 3
SQUARES = SIZE * SIZE
FILES = "abc"
SQUARE_NAMES = tuple(f"{FILES[index % SIZE]}{index // SIZE + 1}" for index in range(SQUARES))
"""Square index → name; index 0 is a1, rank 1 first."""
SQUARE_OF = {name: index for index, name in enumerate(SQUARE_NAMES)}
EMPTY, CROSS, NOUGHT = 0, 1, 2
MARKS = (CROSS, NOUGHT)
"""The mark of each side: side 0 plays crosses."""
MARK_LETTERS = {CROSS: "X", NOUGHT: "O"}
LETTER_MARKS = {letter: mark for mark, letter in MARK_LETTERS.items()}
LINES = (*((r * SIZE, r * SIZE + 1, r * SIZE + 2) for r in range(SIZE)),
         *((f, f + SIZE, f + 2 * SIZE) for f in range(SIZE)),
         (0, 4, 8), (2, 4, 6))
"""The eight lines of three (§3): ranks, files, diagonals."""


def check_tables() -> list[str]:
    """Problems in the tables, each naming its row."""
    problems = [f"line {line}: not three distinct squares" for line in LINES
                if len(set(line)) != SIZE or not all(0 <= s < SQUARES for s in line)]
    if len(set(LINES)) != 2 * SIZE + 2:
        problems.append("the lines are not the eight of the board")
    return problems
