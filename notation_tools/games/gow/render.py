"""Pictures of a Game of War position: the text diagram (spec §16.1) and SVG (spec §16.2).

Pure functions returning strings; :func:`position_from_diagram` reads a text diagram back so
that tests can state positions as pictures. This module computes no rule beyond asking the
position which units are offline and which squares are covered.

>>> from notation_tools.games.gow import GAME
>>> print(text_diagram(GAME.start_position(GAME.parse_rules(None))).splitlines()[4])
  D  .  .  R  .  .  .  . <*> .  ^  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
"""

from __future__ import annotations

from typing import Any

from notation_tools.games.base import BadPositionError, Rules, Style
from notation_tools.games.gow.moves import Attack, Step, Turn
from notation_tools.games.gow.pieces import (
    SIDE_NAMES,
    ARSENAL_OWNER, ARSENALS, CODE_LETTER, COLS, FORT, IS_FIGHTING, LETTER_CODE, MOUNTAIN, NAMES,
    PASS, ROW_LETTERS, ROWS, SIDE_OF, SIZE, TERRAIN)
from notation_tools.games.gow.position import format_board, parse_position
from notation_tools.games.gow.rules import Position
from notation_tools.render.svg import LAST_MOVE_TARGET, SvgDocument

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


def text_diagram(position: Position, *, style: Style = Style.ASCII,
                 marks: frozenset[str] = frozenset()) -> str:
    """The text diagram of §16.1 with its status lines.

    The marks ``north-lines``/``south-lines`` draw the empty plain squares covered by that
    side's lines of communication as ``+`` (North) and ``-`` (South), ``#`` when covered by
    both; ``Style.UNICODE`` circles South's units.
    """
    unicode = style is Style.UNICODE
    board = position.board
    covered = _covered(position, marks)
    lines = ["    " + "".join(f"{c:>3}" for c in range(1, COLS + 1))]
    for r in range(ROWS):
        if r == _FRONTIER_ROW:
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
    if covered[0] is not None or covered[1] is not None:
        lines.append("covered empty squares: + North, - South, # both")
    return "\n".join(lines)


def position_from_diagram(text: str, rules: Rules) -> Position:
    """Read a diagram written by :func:`text_diagram` back into a position (G9).

    Raises BadPositionError when the text is not such a diagram.
    """

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
_HALF = _CELL // 2
_SIDE_COLOURS = ("#c0392b", "#1f4e8c")
"""North's and South's colour: units, arsenals, covered squares and combat lines."""
_TERRAIN_COLOUR = "#5b5146"
_FRONTIER_ROW = ROWS // 2
"""The dashed line between the two territories runs above this row (K)."""


def _covered(position: Position, marks: frozenset[str]) -> list[list[bool] | None]:
    return [position.status(0).covered if "north-lines" in marks else None,
            position.status(1).covered if "south-lines" in marks else None]


def svg(position: Position, *, last_move: Any = None,
        marks: frozenset[str] = frozenset()) -> str:
    """An SVG picture (§16.2), deterministic, with the text diagram in ``<desc>``: the map,
    the units (South's ringed, offline ones faded, a unit due to retreat ringed in orange),
    the last turn's squares and its attack's contributing lines; ``north-lines`` and
    ``south-lines`` tint the squares each side's lines of communication cover."""
    width = _MARGIN * 2 + COLS * _CELL
    height = _MARGIN * 2 + ROWS * _CELL
    doc = SvgDocument(width, height, title=f"Game of War: {SIDE_NAMES[position.turn]} to move, "
                      f"turn {position.turn_number}", description=text_diagram(position),
                      background="#f4efe1")

    def xy(s: int) -> tuple[int, int]:
        return _MARGIN + (s % COLS) * _CELL, _MARGIN + (s // COLS) * _CELL

    doc.coordinates([(_MARGIN + c * _CELL + _HALF, y, str(c + 1))
                     for c in range(COLS) for y in (_MARGIN - 6, height - 6)]
                    + [(x, _MARGIN + r * _CELL + 15, ROW_LETTERS[r])
                       for r in range(ROWS) for x in (_MARGIN // 2, width - _MARGIN // 2)],
                    font_size=9)
    board = doc.group("board")
    covered = _covered(position, marks)
    for s in range(SIZE):
        x, y = xy(s)
        doc.element(board, "rect", x=x, y=y, width=_CELL, height=_CELL, fill="none",
                    stroke="#b9b09a", stroke_width=0.5)
        terrain = TERRAIN[s]
        for side, colour in enumerate(_SIDE_COLOURS):
            grid = covered[side]
            if grid is not None and grid[s] and terrain != MOUNTAIN:
                doc.element(board, "rect", class_=f"covered {SIDE_NAMES[side].lower()}", x=x,
                            y=y, width=_CELL, height=_CELL, fill=colour, fill_opacity=0.12)
        if terrain == MOUNTAIN:
            doc.element(board, "rect", class_="mountain", x=x, y=y, width=_CELL, height=_CELL,
                        fill=_TERRAIN_COLOUR)
            doc.element(board, "polygon", points=f"{x + 4},{y + 19} {x + 12},{y + 5} "
                        f"{x + 20},{y + 19}", fill="#a89c8c")
        elif terrain == PASS:
            doc.element(board, "polyline", class_="pass", points=f"{x + 3},{y + 4} "
                        f"{x + 12},{y + 10} {x + 21},{y + 4}", fill="none",
                        stroke=_TERRAIN_COLOUR, stroke_width=1.5)
        elif terrain == FORT:
            doc.element(board, "rect", class_="fort", x=x + 2, y=y + 2, width=_CELL - 4,
                        height=_CELL - 4, fill="none", stroke="#333", stroke_width=2)
        elif s in _ARSENAL_INDEX and position.alive[_ARSENAL_INDEX[s]]:
            colour = _SIDE_COLOURS[ARSENAL_OWNER[s]]
            doc.element(board, "rect", class_="arsenal", x=x + 2, y=y + 2, width=_CELL - 4,
                        height=_CELL - 4, fill="none", stroke=colour, stroke_width=2)
            doc.element(board, "path", d=f"M{x + 2},{y + 2}L{x + 22},{y + 22}M{x + 22},{y + 2}"
                        f"L{x + 2},{y + 22}", stroke=colour, stroke_width=1)
    frontier = _MARGIN + _FRONTIER_ROW * _CELL
    doc.element(board, "line", class_="frontier", x1=_MARGIN, y1=frontier,
                x2=_MARGIN + COLS * _CELL, y2=frontier, stroke="#000", stroke_width=1.5,
                stroke_dasharray="6,4")
    _draw_last_move(doc, position, last_move, xy)
    offline: set[int] = set()
    for side in (0, 1):
        fighting, relays = position.offline_units(side)
        offline.update(fighting, relays)
    units = doc.group("pieces")
    for s in range(SIZE):
        v = position.board[s]
        if not v:
            continue
        x, y = xy(s)
        side = SIDE_OF[v]
        colour = _SIDE_COLOURS[side]
        unit = doc.group(f"unit {SIDE_NAMES[side].lower()}", units,
                         opacity=0.4 if s in offline else 1, data_square=NAMES[s])
        if side == 1:
            doc.element(unit, "circle", cx=x + _HALF, cy=y + _HALF, r=9, fill="none",
                        stroke=colour, stroke_width=1.2)
        if s == position.retreat:
            doc.element(unit, "circle", class_="retreat", cx=x + _HALF, cy=y + _HALF, r=11,
                        fill="none", stroke="#e67e22", stroke_width=2)
        doc.label(unit, x + _HALF, y + 16, CODE_LETTER[v].upper(),
                  font_weight="bold" if IS_FIGHTING[v] else "normal", fill=colour)
    return doc.to_string()


def _draw_last_move(doc: SvgDocument, position: Position, last_move: Any, xy: Any) -> None:
    marked: set[int] = set()
    if isinstance(last_move, Turn):
        marked = {q for step in last_move.steps for q in (step.origin, step.target)}
        if last_move.attack is not None:
            marked.add(last_move.attack.target)
    elif isinstance(last_move, Step):
        marked = {last_move.origin, last_move.target}
    elif isinstance(last_move, Attack):
        marked = {last_move.target}
    layer = doc.group("last-move")
    for s in sorted(marked):
        x, y = xy(s)
        doc.element(layer, "rect", x=x + 1, y=y + 1, width=_CELL - 2, height=_CELL - 2,
                    fill=LAST_MOVE_TARGET, fill_opacity=0.6)
    attack = last_move.attack if isinstance(last_move, Turn) else last_move
    if not isinstance(attack, Attack):
        return
    # The last attack's contributing lines, from the engine's record of the turn.
    event = next((e for e in position.last_events if e[0] == "attack"
                  and e[1] == attack.target), None)
    if event is None:
        return
    combat = event[3]
    tx, ty = xy(attack.target)
    for parts, colour in ((combat.offence_parts, _SIDE_COLOURS[0]),
                          (combat.defence_parts, _SIDE_COLOURS[1])):
        for s, value, _ in parts:
            if s == attack.target or not value:
                continue
            x, y = xy(s)
            doc.element(layer, "line", class_="combat", x1=x + _HALF, y1=y + _HALF,
                        x2=tx + _HALF, y2=ty + _HALF, stroke=colour, stroke_width=1.5,
                        stroke_opacity=0.7)
