"""Pictures of a Shuriken 2D position: the text diagram (both ways) and SVG (spec §10).

:func:`text_diagram` draws the rhombus with offset rows, the frame as virtual stones and the
windows as blanks, then a status line; with ``loops=True`` it marks the stones of every group
that carries a loop and lists each player's loops. :func:`position_from_diagram` reads such a
diagram back. :func:`svg` builds an SVG with ``xml.etree`` and embeds the text diagram in
``<desc>``. Nothing here prints or decides a rule: loops and ranks come from the position.

>>> from notation_tools.games.shuriken.rules import ShurikenPosition
>>> print(text_diagram(ShurikenPosition.start()).splitlines()[6])
         5 o . . . . . . . . . . . o       o . . . o 5
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from notation_tools.games.base import BadPositionError
from notation_tools.games.shuriken.pieces import (
    BLACK, CELL_NAME, CELLS, COLUMNS, EMPTY, FRAME, HOLE, HOLES, SIDE_NAMES, SIZE, WHITE,
    index_of, transpose)
from notation_tools.games.shuriken.position import parse_position
from notation_tools.games.shuriken.rules import PLACES, Place, ShurikenPosition, Swap

_GLYPHS = {
    # style: (black, white, empty, black in a loop group, white in a loop group)
    "ascii": ("x", "o", ".", "X", "O"),
    "unicode": ("●", "○", "·", "◉", "◎"),
}
_READ = {"x": BLACK, "X": BLACK, "●": BLACK, "◉": BLACK,
         "o": WHITE, "O": WHITE, "○": WHITE, "◎": WHITE,
         ".": EMPTY, "·": EMPTY, " ": HOLE}


def status_line(position: ShurikenPosition) -> str:
    """``Black to move``, or ``Black wins: single{W1} single{W3}`` (§10.1)."""
    if position.winner is not None:
        return f"{SIDE_NAMES[position.winner]} wins: {' '.join(position.loops(position.winner))}"
    return f"{SIDE_NAMES[position.turn]} to move"


def text_diagram(position: ShurikenPosition, *, style: str = "ascii", loops: bool = False,
                 coordinates: bool = True) -> str:
    """The 23-line diagram of §10.1 and a status line.

    An item of column c on line r sits at character 2c + r + 6; row numbers end at r + 4 and
    start again at r + 48. With ``loops`` the stones (frame included) of groups carrying a
    loop are drawn ``X``/``O`` and two lines list the loops of each player. Without
    ``coordinates`` the letter lines and row numbers are left out (spaces in their place).

    >>> from notation_tools.games.shuriken.rules import ShurikenPosition
    >>> lines = text_diagram(ShurikenPosition.start()).splitlines()
    >>> lines[0], lines[-1]
    ('       A B C D E F G H I J K L M N O P Q R S', 'Black to move')
    """
    black, white, empty, black_loop, white_loop = _GLYPHS[style]
    marked: set[int] = set()
    if loops:
        marked = position.loop_groups(0) | position.loop_groups(1)
    board = position.board

    def glyph(cell: int) -> str:
        content = board[cell]
        if content == BLACK:
            return black_loop if cell in marked else black
        if content == WHITE:
            return white_loop if cell in marked else white
        return empty if content == EMPTY else " "

    lines = []
    for r in range(-1, SIZE + 3):   # -1 and 21: letters; 0 and 20: the black frame
        line = [" "] * (2 * (SIZE + 1) + r + 6 + 6)
        if r == -1 or r == SIZE + 2:
            if coordinates:
                for c in range(1, SIZE + 1):
                    line[2 * c + r + 6] = COLUMNS[c - 1]
        elif r == 0 or r == SIZE + 1:
            for c in range(1, SIZE + 1):
                line[2 * c + r + 6] = glyph(index_of(r, c))
        else:
            for c in range(0, SIZE + 2):
                line[2 * c + r + 6] = glyph(index_of(r, c))
            if coordinates:
                number = str(r)
                start = r + 4 - len(number) + 1
                line[start:start + len(number)] = number
                line[r + 48:r + 48 + len(number)] = number
        lines.append("".join(line).rstrip())
    lines.append(status_line(position))
    if loops:
        for side in (0, 1):
            found = position.loops(side)
            lines.append(f"{SIDE_NAMES[side]} loops: {' '.join(found) if found else 'none'}")
    return "\n".join(lines)


def position_from_diagram(text: str, *, swap_allowed: bool = False) -> ShurikenPosition:
    """Read a :func:`text_diagram` (either style, marks allowed) back into a position.

    Rows are found by their left number; the side to move comes from the status line
    (``… to move``, or the loser of ``… wins``); Black if there is none. Raises
    :class:`BadPositionError` as ``parse_position`` does for the board it finds.

    >>> from notation_tools.games.shuriken.position import format_position, START_STRING
    >>> from notation_tools.games.shuriken.rules import ShurikenPosition
    >>> diagram = text_diagram(ShurikenPosition.start())
    >>> format_position(position_from_diagram(diagram)) == START_STRING
    True
    """
    cells: dict[int, list[str]] = {}
    turn = "b"
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        head = stripped.split(" ")[0]
        indent = len(line) - len(stripped)
        if (head.isascii() and head.isdigit() and 1 <= int(head) <= SIZE
                and indent + len(head) - 1 == int(head) + 4):
            r = int(head)
            row = []
            for c in range(1, SIZE + 1):
                at = 2 * c + r + 6
                char = line[at] if at < len(line) else " "
                if char not in _READ:
                    raise BadPositionError(f"diagram row {r}, column {COLUMNS[c - 1]}: "
                                           f"unknown symbol {char!r}", rule="§10.1")
                row.append(char)
            cells[r] = row
        elif line.startswith(("Black to move", "White wins")):
            turn = "b"
        elif line.startswith(("White to move", "Black wins")):
            turn = "w"
    if sorted(cells) != list(range(1, SIZE + 1)):
        raise BadPositionError("diagram does not have the 19 numbered rows", rule="§10.1")
    rows = []
    for r in range(1, SIZE + 1):
        parts: list[str] = []
        run = 0
        for char in cells[r]:
            content = _READ[char]
            if content == EMPTY:
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append({BLACK: "b", WHITE: "w", HOLE: "-"}[content])
        if run:
            parts.append(str(run))
        rows.append("".join(parts))
    return parse_position("/".join(rows) + " " + turn, swap_allowed=swap_allowed)


# ---- SVG (§10.2) ---------------------------------------------------------------------------

_ROOT3 = math.sqrt(3)
# Pointy-top hexagon: the edge facing each neighbour direction of pieces.DIRECTIONS, as the two
# corner angles (degrees, y downwards) that bound it.
_EDGE_CORNERS = {(0, -1): (150, 210), (0, 1): (-30, 30), (-1, 0): (210, 270),
                 (-1, 1): (270, 330), (1, -1): (90, 150), (1, 0): (30, 90)}


def svg(position: ShurikenPosition, *, last_move: Place | None = None, size: float = 12.0,
        loops: bool = False) -> str:
    """An SVG picture of ``position`` (§10.2), with the text diagram in ``<desc>``.

    343 hexagon cells (holes left out, window outlines drawn), the frame as black and white
    rim segments, one disc per stone, the last placement marked (``last_move``, or the
    position's last placement), and with ``loops`` the stones of loop-carrying groups ringed.

    >>> from notation_tools.games.shuriken.rules import ShurikenPosition
    >>> picture = svg(ShurikenPosition.start())
    >>> picture.count('class="cell"'), picture.count('class="stone')
    (343, 24)
    """
    margin = 2 * size
    width = _ROOT3 * size * (SIZE - 1 + (SIZE - 1) / 2) + _ROOT3 * size + 2 * margin
    height = 1.5 * size * (SIZE - 1) + 2 * size + 2 * margin

    def centre(row: int, col: int) -> tuple[float, float]:
        x = size * _ROOT3 * ((col - 1) + (row - 1) / 2) + margin + _ROOT3 * size / 2
        y = 1.5 * size * (row - 1) + margin + size
        return x, y

    def corner(x: float, y: float, angle: float) -> tuple[float, float]:
        rad = math.radians(angle)
        return x + size * math.cos(rad), y + size * math.sin(rad)

    root = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
        "width": f"{width:.0f}", "height": f"{height:.0f}",
        "viewBox": f"0 0 {width:.2f} {height:.2f}"})
    ET.SubElement(root, "title").text = f"Shuriken 2D: {status_line(position)}"
    ET.SubElement(root, "desc").text = text_diagram(position)
    cells = ET.SubElement(root, "g", {"class": "board"})
    for cell in CELLS:
        row, col = divmod(cell, SIZE + 2)
        x, y = centre(row, col)
        points = " ".join(f"{px:.2f},{py:.2f}" for px, py in
                          (corner(x, y, 30 + 60 * k) for k in range(6)))
        ET.SubElement(cells, "polygon", {"class": "cell", "id": f"cell-{CELL_NAME[cell]}",
                                         "points": points, "fill": "#e8d8b0",
                                         "stroke": "#806040", "stroke-width": "0.5"})
    edges = ET.SubElement(root, "g", {"class": "edges"})
    for cell in CELLS:
        row, col = divmod(cell, SIZE + 2)
        x, y = centre(row, col)
        for (dr, dc), (a, b) in _EDGE_CORNERS.items():
            other = index_of(row + dr, col + dc)
            if other in HOLES:
                kind, colour = "window", "#404040"
            elif other in FRAME:
                kind = "frame black" if FRAME[other][0] == BLACK else "frame white"
                colour = "#000000" if FRAME[other][0] == BLACK else "#ffffff"
            else:
                continue
            (x1, y1), (x2, y2) = corner(x, y, a), corner(x, y, b)
            ET.SubElement(edges, "line", {
                "class": kind, "x1": f"{x1:.2f}", "y1": f"{y1:.2f}", "x2": f"{x2:.2f}",
                "y2": f"{y2:.2f}", "stroke": colour, "stroke-linecap": "round",
                "stroke-width": f"{size / 4 if kind != 'window' else size / 6:.2f}"})
    marked: set[int] = set()
    if loops:
        marked = position.loop_groups(0) | position.loop_groups(1)
    stones = ET.SubElement(root, "g", {"class": "layer-of-stones"})
    board = position.board
    for cell in CELLS:
        content = board[cell]
        if content not in (BLACK, WHITE):
            continue
        row, col = divmod(cell, SIZE + 2)
        x, y = centre(row, col)
        name = "black" if content == BLACK else "white"
        attributes = {"class": f"stone {name}" + (" loop" if cell in marked else ""),
                      "cx": f"{x:.2f}", "cy": f"{y:.2f}", "r": f"{size * 0.75:.2f}",
                      "fill": "#000000" if content == BLACK else "#ffffff",
                      "stroke": "#d02020" if cell in marked else "#000000",
                      "stroke-width": f"{size / 5 if cell in marked else size / 12:.2f}"}
        ET.SubElement(stones, "circle", attributes)
    if last_move is None and position.moves:
        last_move = position.moves[-1]
    if isinstance(last_move, Swap) and position.moves:
        last_move = PLACES[transpose(position.moves[0].index)]
    if isinstance(last_move, Place) and board[last_move.index] in (BLACK, WHITE):
        x, y = centre(last_move.row, last_move.col)
        ET.SubElement(root, "circle", {"class": "last-move", "cx": f"{x:.2f}", "cy": f"{y:.2f}",
                                       "r": f"{size / 4:.2f}", "fill": "#d02020"})
    return ET.tostring(root, encoding="unicode")

