"""Maka-Dai-Dai Shogi diagrams: the ASCII/Unicode text diagram (spec §12) and SVG.

Pure functions returning strings (G9); :func:`position_from_diagram` reads a text diagram back
so that tests can state positions as pictures. This module does not print or know the rules.

>>> from notation_tools.games.maka import GAME
>>> pos = GAME.start_position(GAME.parse_rules(None))
>>> print(text_diagram(pos).splitlines()[1])
  vL  vEa  vSt   vT   vI   vC   vS   vG vDSp   vK  vDV   vG   vS   vC   vI   vT  vSt  vEa   vL  a
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from notation_tools.games.base import BadPositionError, Rules

from .pieces import PROMOTED_IDS, RANKS, SIZE, TYPE_BY_ABBR, TYPE_ID, square_name
from .position import cell_text
from .rules import Move, Position

SIDE_NAMES = ("Black", "White")


def status_line(pos: Position) -> str:
    return f"{SIDE_NAMES[pos.turn]} to move (move {pos.move_number})"


def text_diagram(pos: Position, *, unicode: bool = False, coordinates: bool = True) -> str:
    """The text diagram of §12: file header, 19 ranks, blank line, status (and rules) line."""
    lines = []
    if coordinates:
        lines.append(" ".join(f"{SIZE - c:>4}" for c in range(SIZE)))
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            code = pos.board[row * SIZE + col]
            text = cell_text(code) if code else "."
            if unicode and code and code & 1:
                text = "▽" + text[1:]
            cells.append(f"{text:>4}")
        sep = "│" if unicode else " "
        line = sep.join(cells)
        lines.append(line + (f"  {RANKS[row]}" if coordinates else ""))
    lines.append("")
    lines.append(status_line(pos))
    rules = pos.rules
    if rules.describe() != "tsa":
        lines.append(f"Rules: {rules.describe()}")
    return "\n".join(lines)


def position_from_diagram(text: str, rules: Rules) -> Position:
    """Read a diagram of :func:`text_diagram` (ASCII or Unicode) back into a position.

    Raises :class:`BadPositionError` (E-BAD-POSITION) for a malformed diagram.
    """
    board: list[int] = []
    turn, number = 0, 1
    for line in text.splitlines():
        words = line.replace("│", " ").split()
        if len(words) == SIZE + 1 and words[-1] in RANKS:
            for word in words[:-1]:
                if word == ".":
                    board.append(0)
                    continue
                side = 1 if word[0] in "v▽" else 0
                abbr = word[1:] if side else word
                if abbr not in TYPE_BY_ABBR:
                    raise BadPositionError(f"unknown piece {word!r} in the diagram", rule="§12")
                board.append(TYPE_ID[abbr] * 2 + side)
        elif len(words) >= 5 and words[1:3] == ["to", "move"]:
            turn = SIDE_NAMES.index(words[0]) if words[0] in SIDE_NAMES else 0
            number = int(words[4].rstrip(")")) if words[4].rstrip(")").isdigit() else 1
    if len(board) != SIZE * SIZE:
        raise BadPositionError("a diagram has 19 ranks of 19 cells", rule="§12")
    return Position(board, turn, number, rules)


def svg(pos: Position, *, last_move: Move | None = None, size: int | None = None) -> str:
    """An SVG picture: 19×19 grid, files above, ranks at the right, wedge pieces (White's
    turned 180°), promoted types in red, the last move's origin, path and captures marked;
    the text diagram in ``<desc>``."""
    cell = 36
    margin = 24
    width = margin + SIZE * cell + margin
    root = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", version="1.1",
                      width=str(size or width), height=str(size or width),
                      viewBox=f"0 0 {width} {width}")
    ET.SubElement(root, "desc").text = text_diagram(pos)
    ET.SubElement(root, "rect", x="0", y="0", width=str(width), height=str(width), fill="#f3d9a4")
    marks: dict[int, str] = {}
    if last_move is not None:
        for s in last_move.path:
            marks[s] = "#b7d7f0"
        for s in last_move.captures:
            marks[s] = "#f0b7b7"
        marks[last_move.origin] = "#c8f0b7"
    for row in range(SIZE):
        for col in range(SIZE):
            sq = row * SIZE + col
            attrs: dict[str, Any] = {
                "x": str(margin + col * cell), "y": str(margin + row * cell),
                "width": str(cell), "height": str(cell), "fill": marks.get(sq, "none"),
                "stroke": "#000", "stroke-width": "1"}
            square = ET.SubElement(root, "rect", attrs)
            square.set("class", "square " + square_name(sq))
    for col in range(SIZE):
        label = ET.SubElement(root, "text", x=str(margin + col * cell + cell // 2), y="16",
                              **{"text-anchor": "middle", "font-size": "12"})
        label.text = str(SIZE - col)
    for row in range(SIZE):
        label = ET.SubElement(root, "text", x=str(margin + SIZE * cell + 12),
                              y=str(margin + row * cell + cell // 2 + 4),
                              **{"text-anchor": "middle", "font-size": "12"})
        label.text = RANKS[row]
    for sq, code in enumerate(pos.board):
        if not code:
            continue
        row, col = divmod(sq, SIZE)
        cx, cy = margin + col * cell + cell / 2, margin + row * cell + cell / 2
        h = cell * 0.42
        points = [(0, -h), (h * 0.7, -h * 0.5), (h * 0.85, h), (-h * 0.85, h), (-h * 0.7, -h * 0.5)]
        if code & 1:
            points = [(-x, -y) for x, y in points]
        group = ET.SubElement(root, "g")
        group.set("class", "piece " + ("white" if code & 1 else "black"))
        ET.SubElement(group, "polygon", points=" ".join(f"{cx + x:.1f},{cy + y:.1f}" for x, y in points),
                      fill="#fff8e7", stroke="#333")
        text = ET.SubElement(group, "text", x=f"{cx:.1f}", y=f"{cy + 4:.1f}",
                             **{"text-anchor": "middle", "font-size": "10",
                                "fill": "#c00" if code >> 1 in PROMOTED_IDS else "#000"})
        if code & 1:
            text.set("transform", f"rotate(180 {cx:.1f} {cy:.1f})")
        text.text = cell_text(code).lstrip("v")
    return ET.tostring(root, encoding="unicode")
