"""Pictures of a Game of War position: the text diagram (spec §16.1) and SVG (spec §16.2).

Pure functions returning strings; :func:`position_from_diagram` reads a text diagram back so
that tests can state positions as pictures. This module computes no rule beyond asking the
position which units are offline and which squares are covered.

>>> from notation_tools.games.gow import GAME
>>> print(text_diagram(GAME.start_position(GAME.parse_rules(None))).splitlines()[4])
  D  .  .  R  .  .  .  . <*> .  ^  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from notation_tools.games.base import BadPositionError, Rules
from notation_tools.games.gow.moves import Attack, Step, Turn
from notation_tools.games.gow.pieces import (
    ARSENAL_OWNER, ARSENALS, CODE_LETTER, COLS, FORT, IS_FIGHTING, LETTER_CODE, MOUNTAIN, NAMES,
    PASS, ROW_LETTERS, ROWS, SIDE_OF, SIZE, TERRAIN)
from notation_tools.games.gow.rules import Position

_CIRCLED = {"I": "\u24be", "C": "\u24b8", "A": "\u24b6", "H": "\u24bd", "R": "\u24c7", "M": "\u24c2"}
_UNCIRCLED = {v: k.lower() for k, v in _CIRCLED.items()}
_ARSENAL_INDEX = {s: i for i, s in enumerate(ARSENALS)}


def _letter(v: int, unicode: bool) -> str:
    letter = CODE_LETTER[v]
    if unicode and SIDE_OF[v] == 1:
        return _CIRCLED[letter.upper()]
    return letter


def _squares(squares: list[int]) -> str:
    return " ".join(NAMES[s] for s in squares) or "-"


def text_diagram(position: Position, *, unicode: bool = False, north_lines: bool = False,
                 south_lines: bool = False) -> str:
    """The text diagram of spec §16.1 with its status lines.

    ``north_lines``/``south_lines`` draw the empty plain squares covered by that side's lines of
    communication as ``+`` (North) and ``-`` (South), ``#`` when covered by both.
    """
    board = position.board
    covered = [position.status(0).covered if north_lines else None,
               position.status(1).covered if south_lines else None]
    lines = ["    " + "".join(f"{c:>3}" for c in range(1, COLS + 1))]
    for r in range(ROWS):
        if r == 10:
            lines.append("    " + "-" * (3 * COLS))
        cells = []
        for c in range(COLS):
            s = r * COLS + c
            v = board[s]
            terrain = TERRAIN[s]
            inner = _letter(v, unicode) if v else " "
            if terrain == MOUNTAIN:
                cells.append(" \u25b2 " if unicode else " ^ ")
            elif terrain == PASS:
                cells.append(f"={inner}=")
            elif terrain == FORT:
                cells.append(f"[{inner}]")
            elif s in _ARSENAL_INDEX and position.alive[_ARSENAL_INDEX[s]]:
                cells.append(f"<{inner if v else '*'}>")
            elif v:
                cells.append(f" {inner} ")
            else:
                marks = [covered[side] is not None and covered[side][s] for side in (0, 1)]
                mark = "#" if all(marks) else "+" if marks[0] else "-" if marks[1] else "."
                cells.append(f" {mark} ")
        lines.append(f"  {ROW_LETTERS[r]} " + "".join(cells))
    lines = [line.rstrip() for line in lines]
    side = "North" if position.turn == 0 else "South"
    arsenals = _squares([s for i, s in enumerate(ARSENALS) if position.alive[i]])
    retreat = NAMES[position.retreat] if position.retreat is not None else "-"
    lines.append(f"turn {position.turn_number}, {side} to move; arsenals {arsenals}; retreat {retreat}")
    off = [position.offline_units(side) for side in (0, 1)]
    lines.append(f"offline North: {_squares(off[0][0])}; South: {_squares(off[1][0])}")
    lines.append(f"offline relays North: {_squares(off[0][1])}; South: {_squares(off[1][1])}")
    if north_lines or south_lines:
        lines.append("covered empty squares: + North, - South, # both")
    return "\n".join(lines)


def position_from_diagram(text: str, rules: Rules) -> Position:
    """Read a diagram written by :func:`text_diagram` back into a position (G9).

    Raises BadPositionError when the text is not such a diagram.
    """
    from notation_tools.games.gow.position import format_board, parse_position

    board = [0] * SIZE
    rows_seen = 0
    status = None
    retreat = "-"
    for line in text.splitlines():
        if len(line) > 4 and line[:2] == "  " and line[2] in ROW_LETTERS and line[3] == " ":
            r = ROW_LETTERS.index(line[2])
            cells = line[4:].ljust(3 * COLS)
            for c in range(COLS):
                ch = cells[3 * c + 1]
                if ch in _UNCIRCLED:
                    ch = _UNCIRCLED[ch]
                if ch in LETTER_CODE:
                    board[r * COLS + c] = LETTER_CODE[ch]
            rows_seen += 1
        elif line.startswith("turn "):
            status = line
    if rows_seen != ROWS or status is None:
        raise BadPositionError("not a Game of War diagram (20 rows and a status line needed)",
                               rule="§16.1")
    try:
        head, arsenal_part, retreat_part = status.split("; ")
        turn = head.split(",")[0].split()[1]
        side = "N" if "North to move" in head else "S"
        arsenals = ",".join(arsenal_part.split()[1:]).replace("-", "") or "-"
        retreat = retreat_part.split()[1]
    except (ValueError, IndexError):
        raise BadPositionError(f"unreadable status line {status!r}", rule="§16.1") from None
    return parse_position(f"{format_board(board)} {side} {arsenals} {retreat} {turn}", rules)


# ---- SVG -----------------------------------------------------------------------------------

_CELL = 24
_MARGIN = 20


def svg(position: Position, *, last_move: Any = None, north_lines: bool = False,
        south_lines: bool = False) -> str:
    """An SVG picture (spec §16.2), deterministic, with the text diagram in ``<desc>``."""
    width = _MARGIN * 2 + COLS * _CELL
    height = _MARGIN * 2 + ROWS * _CELL
    root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
                              "width": str(width), "height": str(height),
                              "viewBox": f"0 0 {width} {height}"})
    desc = ET.SubElement(root, "desc")
    desc.text = text_diagram(position)
    ET.SubElement(root, "rect", {"x": "0", "y": "0", "width": str(width), "height": str(height),
                                 "fill": "#f4efe1"})

    def xy(s: int) -> tuple[int, int]:
        return _MARGIN + (s % COLS) * _CELL, _MARGIN + (s // COLS) * _CELL

    for c in range(COLS):
        for y in (_MARGIN - 6, height - 6):
            label = ET.SubElement(root, "text", {"x": str(_MARGIN + c * _CELL + _CELL // 2),
                                                 "y": str(y), "font-size": "9",
                                                 "text-anchor": "middle"})
            label.text = str(c + 1)
    for r in range(ROWS):
        for x in (_MARGIN // 2, width - _MARGIN // 2):
            label = ET.SubElement(root, "text", {"x": str(x), "y": str(_MARGIN + r * _CELL + 15),
                                                 "font-size": "9", "text-anchor": "middle"})
            label.text = ROW_LETTERS[r]
    covered = [position.status(0).covered if north_lines else None,
               position.status(1).covered if south_lines else None]
    for s in range(SIZE):
        x, y = xy(s)
        ET.SubElement(root, "rect", {"x": str(x), "y": str(y), "width": str(_CELL),
                                     "height": str(_CELL), "fill": "none", "stroke": "#b9b09a",
                                     "stroke-width": "0.5"})
        for side, colour in ((0, "#d9534f"), (1, "#3f72af")):
            grid = covered[side]
            if grid is not None and grid[s] and TERRAIN[s] != MOUNTAIN:
                ET.SubElement(root, "rect", {"x": str(x), "y": str(y), "width": str(_CELL),
                                             "height": str(_CELL), "fill": colour,
                                             "fill-opacity": "0.12"})
        terrain = TERRAIN[s]
        if terrain == MOUNTAIN:
            ET.SubElement(root, "rect", {"x": str(x), "y": str(y), "width": str(_CELL),
                                         "height": str(_CELL), "fill": "#5b5146"})
            ET.SubElement(root, "polygon", {"points": f"{x + 4},{y + 19} {x + 12},{y + 5} {x + 20},{y + 19}",
                                            "fill": "#a89c8c"})
        elif terrain == PASS:
            ET.SubElement(root, "polyline", {"points": f"{x + 3},{y + 4} {x + 12},{y + 10} {x + 21},{y + 4}",
                                             "fill": "none", "stroke": "#5b5146", "stroke-width": "1.5"})
        elif terrain == FORT:
            ET.SubElement(root, "rect", {"x": str(x + 2), "y": str(y + 2), "width": str(_CELL - 4),
                                         "height": str(_CELL - 4), "fill": "none",
                                         "stroke": "#333", "stroke-width": "2"})
        elif s in _ARSENAL_INDEX and position.alive[_ARSENAL_INDEX[s]]:
            colour = "#d9534f" if ARSENAL_OWNER[s] == 0 else "#3f72af"
            ET.SubElement(root, "rect", {"x": str(x + 2), "y": str(y + 2), "width": str(_CELL - 4),
                                         "height": str(_CELL - 4), "fill": "none",
                                         "stroke": colour, "stroke-width": "2"})
            ET.SubElement(root, "path", {"d": f"M{x + 2},{y + 2}L{x + 22},{y + 22}M{x + 22},{y + 2}L{x + 2},{y + 22}",
                                         "stroke": colour, "stroke-width": "1"})
    ET.SubElement(root, "line", {"x1": str(_MARGIN), "y1": str(_MARGIN + 10 * _CELL),
                                 "x2": str(_MARGIN + COLS * _CELL), "y2": str(_MARGIN + 10 * _CELL),
                                 "stroke": "#000", "stroke-width": "1.5", "stroke-dasharray": "6,4"})
    marked: set[int] = set()
    if isinstance(last_move, Turn):
        marked = {q for step in last_move.steps for q in (step.origin, step.dest)}
        if last_move.attack is not None:
            marked.add(last_move.attack.target)
    elif isinstance(last_move, Step):
        marked = {last_move.origin, last_move.dest}
    elif isinstance(last_move, Attack):
        marked = {last_move.target}
    for s in sorted(marked):
        x, y = xy(s)
        ET.SubElement(root, "rect", {"x": str(x + 1), "y": str(y + 1), "width": str(_CELL - 2),
                                     "height": str(_CELL - 2), "fill": "#f0d264", "fill-opacity": "0.5"})
    attack = last_move.attack if isinstance(last_move, Turn) else last_move
    if isinstance(attack, Attack):
        # The last attack's contributing lines, from the engine's record of the turn.
        event = next((e for e in position.last_events if e[0] == "attack" and e[1] == attack.target),
                     None)
        if event is not None:
            combat = event[3]
            tx, ty = xy(attack.target)
            for parts, colour in ((combat.offence_parts, "#c0392b"), (combat.defence_parts, "#1f4e8c")):
                for s, value, _ in parts:
                    if s == attack.target or not value:
                        continue
                    x, y = xy(s)
                    ET.SubElement(root, "line", {"x1": str(x + 12), "y1": str(y + 12),
                                                 "x2": str(tx + 12), "y2": str(ty + 12),
                                                 "stroke": colour, "stroke-width": "1.5",
                                                 "stroke-opacity": "0.7"})
    offline = set()
    for side in (0, 1):
        fighting, relays = position.offline_units(side)
        offline.update(fighting, relays)
    for s in range(SIZE):
        v = position.board[s]
        if not v:
            continue
        x, y = xy(s)
        colour = "#c0392b" if SIDE_OF[v] == 0 else "#1f4e8c"
        opacity = "0.4" if s in offline else "1"
        group = ET.SubElement(root, "g", {"opacity": opacity})
        if SIDE_OF[v] == 1:
            ET.SubElement(group, "circle", {"cx": str(x + 12), "cy": str(y + 12), "r": "9",
                                            "fill": "none", "stroke": colour, "stroke-width": "1.2"})
        if s == position.retreat:
            ET.SubElement(group, "circle", {"cx": str(x + 12), "cy": str(y + 12), "r": "11",
                                            "fill": "none", "stroke": "#e67e22", "stroke-width": "2"})
        letter = ET.SubElement(group, "text", {"x": str(x + 12), "y": str(y + 16),
                                               "font-size": "12", "font-weight": "bold" if IS_FIGHTING[v] else "normal",
                                               "text-anchor": "middle", "fill": colour})
        letter.text = CODE_LETTER[v].upper()
    return ET.tostring(root, encoding="unicode")
