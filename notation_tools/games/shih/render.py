"""Shih pictures (spec §15): the text diagram, its reading back, and the SVG drawing.

The text diagram is one line per row, each space two characters: the piece (``b``, ``r``,
``.``) then the wall's direction (``-`` H, ``/`` S, ``\\`` B), rows indented so the hexagon
shows (§15.1). Keywords: ``regions=True`` adds a second drawing in which every enclosed region
(no empty space inside, so sealed and full) carries a letter, with a list of them;
``coordinates=True`` draws wider cells that carry each space's name. The SVG follows §15.2's
lattice. Pure functions returning strings; nothing here prints or knows a rule beyond asking
the position for its regions.

>>> from notation_tools.games.shih import GAME
>>> print(text_diagram(GAME.start_position(GAME.parse_rules("standard"))).splitlines()[0])
a       b/b/b/b/b/b/b/b/b/
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from ..base import BadPositionError, Rules, Style
from .moves import Turn
from .pieces import (COUNT, EMPTY, IS_UP, NAMES, ROW_START, ROWS, SIDE_NAMES, WIDTHS, B, H, S)
from .rules import ShihPosition

_WALL_ASCII = "-/\\"
_WALL_UNICODE = "―╱╲"
_PIECE_ASCII = ("b", "r")
_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def status_line(position: ShihPosition) -> str:
    """The §15.1 status line (side to move, Power Spins left, captures), plus the result."""
    text = (f"{SIDE_NAMES[position.turn]} to move; Power Spins left: Blue {position.spins[0]}, "
            f"Red {position.spins[1]}; captured: by Blue {position.score[0]}, "
            f"by Red {position.score[1]}")
    outcome = position.outcome()
    if outcome is not None:
        winner = "draw" if outcome.winner is None else f"{SIDE_NAMES[outcome.winner]} wins"
        text += f"; game over: {winner} ({outcome.detail})"
    return text


def _grid(cells: list[str], width_of_cell: int) -> list[str]:
    lines = []
    for row, width in enumerate(WIDTHS):
        start = ROW_START[row]
        indent = " " * ((15 - width) // 2 * width_of_cell)
        lines.append(f"{ROWS[row]} {indent}{''.join(cells[start:start + width])}".rstrip())
    return lines


def enclosed_regions(position: ShihPosition) -> list[list[int]]:
    """The regions with no empty space (sealed and full: the shape a capture takes, §9.2)."""
    board = position.board
    return [region for region in position.regions()
            if all(board[space] != EMPTY for space in region)]


def text_diagram(position: ShihPosition, *, style: Style = Style.ASCII, regions: bool = False,
                 coordinates: bool = False, maze: bool = False, **_ignored: Any) -> str:
    """The §15.1 text diagram with its status line.

    ``style=Style.UNICODE`` draws empty spaces as ``▲``/``▼`` and walls as ``―╱╲``;
    ``coordinates`` widens each cell to carry the space's name; ``maze`` draws the lattice
    itself instead (:func:`maze_diagram`); ``regions`` appends a second drawing in which each
    enclosed region carries a letter, and lists them. Keywords other games offer are ignored,
    so a caller may pass one set of render options to every game.
    """
    if maze:
        lines = _maze_lines(position, style, None)
    else:
        lines = _grid(_cells(position, style, coordinates, None), 6 if coordinates else 2)
    lines.append(status_line(position))
    if regions:
        lines.extend(_region_drawing(position, style, coordinates, maze))
    return "\n".join(lines)


def _cells(position: ShihPosition, style: Style, coordinates: bool,
           labels: dict[int, str] | None) -> list[str]:
    walls_of = _WALL_UNICODE if style == Style.UNICODE else _WALL_ASCII
    cells = []
    for space in range(COUNT):
        piece = position.board[space]
        if labels is not None:
            mark = labels.get(space, ".")
        elif piece != EMPTY:
            mark = _PIECE_ASCII[piece]
        elif style == Style.UNICODE:
            mark = "▲" if IS_UP[space] else "▼"
        else:
            mark = "."
        cell = mark + walls_of[position.walls[space]]
        if coordinates:
            cell = f"{NAMES[space]:>3}{cell} "
        cells.append(cell)
    return cells


def _region_drawing(position: ShihPosition, style: Style, coordinates: bool,
                    maze: bool) -> list[str]:
    found = enclosed_regions(position)
    labels: dict[int, str] = {}
    listing = []
    for number, region in enumerate(found):
        label = _LABELS[number] if number < len(_LABELS) else "*"
        blue = sum(1 for space in region if position.board[space] == 0)
        red = len(region) - blue
        holders = ", ".join(f"{count} {name}" for count, name in ((blue, "Blue"), (red, "Red"))
                            if count)
        listing.append(f"{label} = {' '.join(NAMES[space] for space in region)}: {holders}")
        for space in region:
            labels[space] = label
    if maze:
        drawing = _maze_lines(position, style, labels)
    else:
        drawing = _grid(_cells(position, style, coordinates, labels), 6 if coordinates else 2)
    head = (f"regions: {len(position.regions())} in all, {len(found)} enclosed (no empty "
            "space inside), lettered:")
    return ["", head, *drawing, *listing]


def position_from_diagram(text: str, rules: Rules) -> ShihPosition:
    """Read a §15.1 ASCII diagram (rows a–h then the status line) back into a position (G9).

    Raises BadPositionError when a row or the status line does not fit.

    >>> from notation_tools.games.shih import GAME
    >>> rules = GAME.parse_rules("standard")
    >>> start = GAME.start_position(rules)
    >>> position_from_diagram(text_diagram(start), rules) == start
    True
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 9:
        raise BadPositionError("a diagram has 8 rows and a status line", rule="§15.1")
    walls: list[int] = []
    board: list[int] = []
    for row, line in enumerate(lines[:8]):
        if not line.startswith(ROWS[row]):
            raise BadPositionError(f"diagram row {row + 1} does not start with {ROWS[row]}",
                                   rule="§15.1")
        body = line[1:].strip()
        if len(body) != 2 * WIDTHS[row]:
            raise BadPositionError(f"diagram row {ROWS[row]} has {len(body) // 2} spaces, not "
                                   f"{WIDTHS[row]}", rule="§15.1")
        for index in range(0, len(body), 2):
            mark, wall = body[index], body[index + 1]
            if mark not in "br." or wall not in _WALL_ASCII:
                raise BadPositionError(f"diagram row {ROWS[row]}: bad cell {body[index:index + 2]!r}",
                                       rule="§15.1")
            board.append({"b": 0, "r": 1, ".": EMPTY}[mark])
            walls.append(_WALL_ASCII.index(wall))
    status = lines[8]
    try:
        side_text, spins_text, captured_text = status.split(";")[:3]
        turn = SIDE_NAMES.index(side_text.split()[0])
        spins = [int(spins_text.split("Blue")[1].split(",")[0]),
                 int(spins_text.split("Red")[1])]
        score = [int(captured_text.split("by Blue")[1].split(",")[0]),
                 int(captured_text.split("by Red")[1])]
    except (ValueError, IndexError):
        raise BadPositionError(f"status line {status!r} does not fit §15.1",
                               rule="§15.1") from None
    return ShihPosition(rules, walls, board, spins, turn, score)


# -------------------------------------------------------------------------------------------
# SVG (§15.2)

_UNIT = 40.0
_HEIGHT = _UNIT * math.sqrt(3) / 2
_MARGIN = 12.0
_COLOURS = ("#1f5fd1", "#d12f1f")


def _point(line: int, index: int) -> tuple[float, float]:
    count = 4 + min(line, 8 - line)
    return ((8 - count) * _UNIT / 2 + index * _UNIT + _MARGIN, line * _HEIGHT + _MARGIN)


def lattice_corners(space: int) -> dict[int, tuple[tuple[int, int], tuple[int, int]]]:
    """The two end points ``(line, point)`` of each side (H, S, B) of a space (§15.2)."""
    row = next(r for r in range(8) if ROW_START[r] <= space < ROW_START[r] + WIDTHS[r])
    c = space - ROW_START[row]
    if row <= 3:
        if c % 2 == 0:  # up: apex on line r, base on line r+1
            apex, left, right = (row, c // 2), (row + 1, c // 2), (row + 1, c // 2 + 1)
        else:  # down: top on line r, lower vertex on line r+1
            left, right, apex = (row, (c - 1) // 2), (row, (c + 1) // 2), (row + 1, (c + 1) // 2)
    elif c % 2 == 0:  # down
        left, right, apex = (row, c // 2), (row, c // 2 + 1), (row + 1, c // 2)
    else:  # up
        apex, left, right = (row, (c + 1) // 2), (row + 1, (c - 1) // 2), (row + 1, (c + 1) // 2)
    if IS_UP[space]:
        return {H: (left, right), S: (left, apex), B: (apex, right)}
    return {H: (left, right), S: (right, apex), B: (left, apex)}


def corners(space: int) -> dict[int, tuple[tuple[float, float], tuple[float, float]]]:
    """The two end points (SVG user units) of each side of a space."""
    return {side: (_point(*ends[0]), _point(*ends[1]))
            for side, ends in lattice_corners(space).items()}


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def svg(position: ShihPosition, *, last_move: Turn | None = None, labels: bool = True) -> str:
    """An SVG drawing (§15.2): 96 triangles, 96 walls pulled towards their own triangle, the
    rim outline, one disc per piece, optional labels, the status line, and the text diagram in
    ``<desc>``. ``last_move`` highlights the spaces its actions touched."""
    width = 8 * _UNIT + 2 * _MARGIN
    height = 8 * _HEIGHT + 2 * _MARGIN + 24
    root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
                              "width": _fmt(width), "height": _fmt(height),
                              "viewBox": f"0 0 {_fmt(width)} {_fmt(height)}"})
    ET.SubElement(root, "desc").text = text_diagram(position)
    touched: set[int] = set()
    if last_move is not None:
        for action in last_move.actions:
            touched.add(action.target)
            origin = getattr(action, "origin", None)
            if origin is not None:
                touched.add(origin)
    spaces = ET.SubElement(root, "g", {"class": "spaces"})
    walls = ET.SubElement(root, "g", {"class": "walls"})
    discs = ET.SubElement(root, "g", {"class": "pieces"})
    names = ET.SubElement(root, "g", {"class": "labels"})
    for space in range(COUNT):
        sides = corners(space)
        points = {sides[H][0], sides[H][1], sides[S][0], sides[S][1]}
        cx = sum(p[0] for p in points) / 3
        cy = sum(p[1] for p in points) / 3
        fill = "#f3e7a8" if space in touched else ("#f4f1ea" if IS_UP[space] else "#e9e4d8")
        ET.SubElement(spaces, "polygon", {
            "points": " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in sorted(points)),
            "fill": fill, "stroke": "#b9b2a2", "stroke-width": "0.6",
            "data-space": NAMES[space]})
        (x1, y1), (x2, y2) = sides[position.walls[space]]
        pull = 0.14
        ET.SubElement(walls, "line", {
            "x1": _fmt(x1 + (cx - x1) * pull), "y1": _fmt(y1 + (cy - y1) * pull),
            "x2": _fmt(x2 + (cx - x2) * pull), "y2": _fmt(y2 + (cy - y2) * pull),
            "stroke": "#222", "stroke-width": "3.5", "stroke-linecap": "round",
            "data-space": NAMES[space]})
        piece = position.board[space]
        if piece != EMPTY:
            ET.SubElement(discs, "circle", {"cx": _fmt(cx), "cy": _fmt(cy),
                                            "r": _fmt(_UNIT * 0.17), "fill": _COLOURS[piece],
                                            "data-space": NAMES[space]})
        if labels:
            label = ET.SubElement(names, "text", {"x": _fmt(cx), "y": _fmt(cy + _UNIT * 0.3),
                                                  "font-size": "6", "text-anchor": "middle",
                                                  "fill": "#776f5f"})
            label.text = NAMES[space]
    rim = [_point(0, 0), _point(0, 4), _point(4, 8), _point(8, 4), _point(8, 0), _point(4, 0)]
    ET.SubElement(root, "polygon", {"class": "rim",
                                    "points": " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in rim),
                                    "fill": "none", "stroke": "#888", "stroke-width": "4"})
    status = ET.SubElement(root, "text", {"x": _fmt(_MARGIN), "y": _fmt(height - 8),
                                          "font-size": "10", "fill": "#222"})
    status.text = status_line(position)
    return ET.tostring(root, encoding="unicode")


# -------------------------------------------------------------------------------------------
# The maze drawing: the triangular lattice itself, walled edges drawn, open edges left blank.


def _maze_x(line: int, index: int) -> int:
    count = 4 + min(line, 8 - line)
    return (8 - count) * 2 + 4 * index


def maze_diagram(position: ShihPosition, *, style: Style = Style.ASCII) -> str:
    """The board as a maze: lattice points ``.``, every walled edge drawn (``---``, ``/``,
    ``\\``; the rim too, since it is a wall, §5), open edges blank, pieces ``b``/``r`` in
    their triangles and empty triangles ``'`` (up) or ``,`` (down), then the status line.

    Which space owns a wall is not shown here (the §15.1 diagram shows it); what a person
    sees is where pieces can step and which regions are sealed.
    """
    return "\n".join([*_maze_lines(position, style, None), status_line(position)])


def _maze_lines(position: ShihPosition, style: Style, labels: dict[int, str] | None) -> list[str]:
    """The maze rows; ``labels`` (space → letter) replaces the piece marks when given."""
    unicode = style == Style.UNICODE
    canvas = [[" "] * 33 for _ in range(17)]
    for line in range(9):
        for index in range(4 + min(line, 8 - line) + 1):
            canvas[2 * line][_maze_x(line, index)] = "·" if unicode else "."
    horizontal = "───" if unicode else "---"
    slant = {S: "╱" if unicode else "/", B: "╲" if unicode else "\\"}
    for space in range(COUNT):
        ends = lattice_corners(space)
        for side, ((line1, index1), (line2, index2)) in ends.items():
            if not position.is_walled(space, side):
                continue
            x1, x2 = _maze_x(line1, index1), _maze_x(line2, index2)
            if side == H:
                left = min(x1, x2)
                for offset in range(3):
                    canvas[2 * line1][left + 1 + offset] = horizontal[offset]
            else:
                canvas[line1 + line2][(x1 + x2) // 2] = slant[side]
        (line1, index1), (line2, index2) = ends[S]
        middle = line1 + line2
        column = _maze_x(line1, index1) if line1 < line2 else _maze_x(line2, index2)
        if IS_UP[space]:
            column = _maze_x(min(line1, line2), index1 if line1 < line2 else index2)
        else:
            column = _maze_x(max(line1, line2), index1 if line1 > line2 else index2)
        piece = position.board[space]
        if labels is not None:
            mark = labels.get(space, " ")
        elif piece != EMPTY:
            mark = _PIECE_ASCII[piece]
        elif unicode:
            mark = "▵" if IS_UP[space] else "▿"
        else:
            mark = "'" if IS_UP[space] else ","
        canvas[middle][column] = mark
    lines = []
    for number, row in enumerate(canvas):
        label = ROWS[number // 2] if number % 2 else " "
        lines.append(f"{label} {''.join(row)}".rstrip())
    return lines
