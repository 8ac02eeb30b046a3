"""Elevation pictures (§11): the text diagram, its inverse, and the SVG board.

Pure functions returning strings; nothing here prints or decides rules (the status line asks
the position for its outcome).

>>> from notation_tools.games.elevation import GAME
>>> print(text_diagram(GAME.start_position(GAME.parse_rules(None))))
   a   b   c   d   e   f
6  3s  3f  3d  3d  3f  3s
5  3.  3.  3.  3.  3.  3.
4  3.  3.  3.  3.  3.  3.
3  3.  3.  3.  3.  3.  3.
2  3.  3.  3.  3.  3.  3.
1  3S  3F  3D  3D  3F  3S
White to move
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from notation_tools.games.base import BadPositionError, Rules, Style
from notation_tools.games.elevation.moves import Dig, Move, Turn
from notation_tools.games.elevation.pieces import FILES, PIECE_CHARS, PIECE_CODES, SIDES, SIZE, SQUARE_NAMES
from notation_tools.games.elevation.rules import Position

_EMPTY = {Style.ASCII: ".", Style.UNICODE: "·"}


def status_line(position: Position) -> str:
    """``White to move``, ``White wins (…)`` or ``Draw (…)``."""
    outcome = position.outcome()
    if outcome is None:
        return f"{SIDES[position.turn]} to move"
    if outcome.winner is None:
        return f"Draw ({outcome.detail})"
    return f"{SIDES[outcome.winner]} wins ({outcome.detail})"


def text_diagram(position: Position, *, style: Style = Style.ASCII, status: bool = True) -> str:
    """The §11.1 diagram: a file header, ranks 6 to 1 (height right-aligned, then the piece
    letter or an empty mark), and a status line. Heights of 100 or more widen every field."""
    width = 3 if max(position.heights) >= 100 else 2
    empty = _EMPTY[style]
    header = " " * (1 + width) + "".join(
        (" " * (width + 1) if index else "") + letter for index, letter in enumerate(FILES))
    lines = [header]
    for rank in range(SIZE - 1, -1, -1):
        fields = []
        for file in range(SIZE):
            square = rank * SIZE + file
            cell = position.board[square]
            fields.append(f"{position.heights[square]:>{width}}{PIECE_CHARS[cell] if cell else empty}")
        lines.append(f"{rank + 1} " + " ".join(fields))
    if status:
        lines.append(status_line(position))
    return "\n".join(lines)


def position_from_diagram(text: str, rules: Rules, *, turn: int | None = None) -> Position:
    """Read a §11.1 diagram back (either style). The side to move comes from a
    ``White to move``/``Black to move`` status line, else from ``turn``.

    Raises :class:`BadPositionError`.

    >>> from notation_tools.games.elevation import GAME
    >>> rules = GAME.parse_rules(None)
    >>> start = GAME.start_position(rules)
    >>> position_from_diagram(text_diagram(start), rules) == start
    True
    """
    lines = [line for line in text.splitlines() if line.strip()]
    heights = [0] * 36
    board = [0] * 36
    seen = set()
    side = turn
    for line in lines:
        words = line.split()
        if line.strip() in ("White to move", "Black to move"):
            side = 0 if line.startswith("White") else 1
            continue
        if words == list(FILES):
            continue
        if len(words) != SIZE + 1 or words[0] not in "123456" or len(words[0]) != 1:
            raise BadPositionError(f"diagram line {line!r} is not a rank of six fields", rule="§11.1")
        rank = int(words[0]) - 1
        seen.add(rank)
        for file, field in enumerate(words[1:]):
            number, mark = field[:-1], field[-1]
            if not number.isdigit() or not number.isascii():
                raise BadPositionError(f"diagram field {field!r} has no height", rule="§11.1")
            square = rank * SIZE + file
            heights[square] = int(number)
            if mark in PIECE_CODES:
                board[square] = PIECE_CODES[mark]
            elif mark not in _EMPTY.values():
                raise BadPositionError(f"diagram field {field!r}: unknown piece {mark!r}", rule="§11.1")
    if len(seen) != SIZE:
        raise BadPositionError("a diagram needs the six ranks 1-6", rule="§11.1")
    if side is None:
        raise BadPositionError("the diagram has no 'White to move'/'Black to move' line", rule="§11.1")
    return Position(rules, heights, board, side)


# ---- SVG (§11.2) ------------------------------------------------------------------------

SQUARE = 60
MARGIN = 24
_OCEAN = "#3a78c2"
_EARTH_LIGHT = (232, 214, 166)
_EARTH_DARK = (92, 58, 26)


def height_colour(height: int, tallest: int) -> str:
    """Blue for the ocean; earth tones from light to dark as stacks rise."""
    if height <= 0:
        return _OCEAN
    top = max(tallest, 6)
    t = min(1.0, (height - 1) / max(1, top - 1))
    rgb = tuple(round(a + (b - a) * t) for a, b in zip(_EARTH_LIGHT, _EARTH_DARK))
    return "#%02x%02x%02x" % rgb


def _is_dark(height: int, tallest: int) -> bool:
    return height <= 0 or (height - 1) / max(1, max(tallest, 6) - 1) > 0.5


def _centre(square: int) -> tuple[float, float]:
    file, rank = square % SIZE, square // SIZE
    return (MARGIN + file * SQUARE + SQUARE / 2, MARGIN + (SIZE - 1 - rank) * SQUARE + SQUARE / 2)


def svg(position: Position, *, last_move: Move | Turn | None = None, size: int | None = None) -> str:
    """An SVG board (§11.2): squares coloured by height with the height in a corner, pieces as
    discs with their letter, file and rank labels, and optionally the last turn's digs
    (arrows) and path. The text diagram is embedded in ``<desc>``."""
    full = 2 * MARGIN + SIZE * SQUARE
    root = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
        "viewBox": f"0 0 {full} {full}",
        "width": str(size or full), "height": str(size or full)})
    ET.SubElement(root, "desc").text = text_diagram(position)
    defs = ET.SubElement(root, "defs")
    marker = ET.SubElement(defs, "marker", {
        "id": "arrowhead", "markerWidth": "8", "markerHeight": "8", "refX": "6", "refY": "4",
        "orient": "auto"})
    ET.SubElement(marker, "path", {"d": "M0,0 L8,4 L0,8 z", "fill": "#c0392b"})
    tallest = max(position.heights)
    board_group = ET.SubElement(root, "g", {"class": "board"})
    for square in range(36):
        file, rank = square % SIZE, square // SIZE
        x, y = MARGIN + file * SQUARE, MARGIN + (SIZE - 1 - rank) * SQUARE
        height = position.heights[square]
        ET.SubElement(board_group, "rect", {
            "class": "square", "id": SQUARE_NAMES[square], "x": str(x), "y": str(y),
            "width": str(SQUARE), "height": str(SQUARE), "fill": height_colour(height, tallest),
            "stroke": "#333333", "stroke-width": "1", "data-height": str(height)})
        label = ET.SubElement(board_group, "text", {
            "class": "height", "x": str(x + 4), "y": str(y + 14), "font-size": "12",
            "font-family": "sans-serif",
            "fill": "#ffffff" if _is_dark(height, tallest) else "#000000"})
        label.text = str(height)
    for index, letter in enumerate(FILES):
        x, _ = _centre(index)
        for y in (MARGIN - 8, MARGIN + SIZE * SQUARE + 18):
            ET.SubElement(root, "text", {"class": "coordinate", "x": str(x), "y": str(y),
                                         "text-anchor": "middle", "font-size": "14",
                                         "font-family": "sans-serif"}).text = letter
    for rank in range(SIZE):
        _, y = _centre(rank * SIZE)
        for x in (MARGIN / 2, MARGIN + SIZE * SQUARE + MARGIN / 2):
            ET.SubElement(root, "text", {"class": "coordinate", "x": str(x), "y": str(y + 5),
                                         "text-anchor": "middle", "font-size": "14",
                                         "font-family": "sans-serif"}).text = str(rank + 1)
    if last_move is not None:
        _draw_last_move(root, last_move)
    pieces_group = ET.SubElement(root, "g", {"class": "pieces"})
    for square in range(36):
        cell = position.board[square]
        if not cell:
            continue
        cx, cy = _centre(square)
        white = cell >> 2 == 0
        ET.SubElement(pieces_group, "circle", {
            "class": f"piece {'white' if white else 'black'}", "cx": str(cx), "cy": str(cy),
            "r": str(SQUARE * 0.32), "fill": "#ffffff" if white else "#111111",
            "stroke": "#111111" if white else "#eeeeee", "stroke-width": "2",
            "data-square": SQUARE_NAMES[square]})
        ET.SubElement(pieces_group, "text", {
            "class": "piece-letter", "x": str(cx), "y": str(cy + 6), "text-anchor": "middle",
            "font-size": "18", "font-weight": "bold", "font-family": "sans-serif",
            "fill": "#111111" if white else "#ffffff"}).text = PIECE_CHARS[cell].upper()
    return ET.tostring(root, encoding="unicode")


def _draw_last_move(root: ET.Element, move: Move | Turn) -> None:
    group = ET.SubElement(root, "g", {"class": "last-move"})
    for part in move.parts:
        for action in part.actions:
            if isinstance(action, Dig):
                (x1, y1), (x2, y2) = _centre(action.source), _centre(action.target)
                ET.SubElement(group, "line", {
                    "class": "dig", "x1": str(x1), "y1": str(y1), "x2": str(x2), "y2": str(y2),
                    "stroke": "#c0392b", "stroke-width": "3", "stroke-dasharray": "6,4",
                    "marker-end": "url(#arrowhead)"})
            else:
                points = " ".join(f"{x},{y}" for x, y in map(_centre, action.squares))
                ET.SubElement(group, "polyline", {
                    "class": "path", "points": points, "fill": "none", "stroke": "#27ae60",
                    "stroke-width": "4", "stroke-linejoin": "round"})

