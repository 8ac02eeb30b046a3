"""Pictures of a Shuriken 2D position: the text diagram (both ways) and SVG (§10).

:func:`text_diagram` draws the rhombus with offset rows, the frame as virtual stones and the
windows as blanks, then a status line; with the ``loops`` mark it marks the stones of every
group that carries a loop and lists each player's loops. :func:`svg` draws with the shared ``render.svg.SvgDocument`` and embeds
the text diagram in ``<desc>``. Nothing here prints or decides a rule: loops and ranks come
from the position.

>>> from notation_tools.games.shuriken.rules import Position
>>> print(text_diagram(Position.start()).splitlines()[6])
         5 o . . . . . . . . . . . o       o . . . o 5
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence, Set
from functools import cache, partial

from notation_tools.games.base import Style
from notation_tools.games.shuriken.moves import PLACES, Move, Place, Swap
from notation_tools.games.shuriken.pieces import (
    BLACK, CELL_NAME, CELLS, COLUMNS, EMPTY, FRAME, HOLES, NODES, ROW_COL, SIDE_NAMES, SIZE,
    STONE_NAMES, WHITE, WINDOWS, index_of, transpose)
from notation_tools.games.shuriken.rules import Position
from notation_tools.render.svg import (
    DARK, LAST_MOVE_LINE, LAST_MOVE_TARGET, LIGHT, MARK_LINE, Element, LegendEntry, SvgDocument,
    legend_disc, legend_document, number)

LOOPS = "loops"
CELL_SIZE = 12.0
"""A cell's radius in SVG units, unless ``svg`` is given another ``size``."""
"""The mark both drawings offer: the stones of loop-carrying groups, and the loops listed."""

_GLYPHS = {
    # style: (black, white, empty, black in a loop group, white in a loop group)
    Style.ASCII: ("x", "o", ".", "X", "O"),
    Style.UNICODE: ("●", "○", "·", "◉", "◎"),
}
# The layout of §10.1: an item of column c on line r sits at character 2c + r + INDENT; a row
# number ends at r + NUMBER_END and is written again from r + RIGHT_NUMBER.
INDENT = 6
NUMBER_END = 4
RIGHT_NUMBER = 2 * (SIZE + 1) + INDENT + 2


def status_line(position: Position) -> str:
    """``Black to move``, or ``Black wins: single{W1} single{W3}`` (§10.1)."""
    if position.winner is not None:
        return f"{SIDE_NAMES[position.winner]} wins: {' '.join(position.loops(position.winner))}"
    return f"{SIDE_NAMES[position.turn]} to move"


def text_diagram(position: Position, *, style: Style | str = Style.ASCII,
                 marks: Set[str] = frozenset(), coordinates: bool = True) -> str:
    """The 23-line diagram of §10.1 and a status line.

    An item of column c on line r sits at character 2c + r + 6; row numbers end at r + 4 and
    start again at r + 48. With the ``loops`` mark the stones (frame included) of groups
    carrying a loop are drawn ``X``/``O`` and two lines list the loops of each player.
    Without ``coordinates`` the letter lines and row numbers are left out (spaces in their
    place).

    >>> from notation_tools.games.shuriken.rules import Position
    >>> lines = text_diagram(Position.start()).splitlines()
    >>> lines[0], lines[-1]
    ('       A B C D E F G H I J K L M N O P Q R S', 'Black to move')
    """
    black, white, empty, black_loop, white_loop = _GLYPHS[Style(style)]
    loops = LOOPS in marks
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
        line = [" "] * (2 * (SIZE + 1) + r + INDENT + 6)
        if r == -1 or r == SIZE + 2:
            if coordinates:
                for c in range(1, SIZE + 1):
                    line[2 * c + r + INDENT] = COLUMNS[c - 1]
        elif r == 0 or r == SIZE + 1:
            for c in range(1, SIZE + 1):
                line[2 * c + r + INDENT] = glyph(index_of(r, c))
        else:
            for c in range(0, SIZE + 2):
                line[2 * c + r + INDENT] = glyph(index_of(r, c))
            if coordinates:
                number = str(r)
                start = r + NUMBER_END - len(number) + 1
                line[start:start + len(number)] = number
                line[r + RIGHT_NUMBER:r + RIGHT_NUMBER + len(number)] = number
        lines.append("".join(line).rstrip())
    lines.append(status_line(position))
    if loops:
        for side in (0, 1):
            found = position.loops(side)
            lines.append(f"{SIDE_NAMES[side]} loops: {' '.join(found) if found else 'none'}")
    return "\n".join(lines)


# ---- SVG (§10.2) ---------------------------------------------------------------------------

_ROOT3 = math.sqrt(3)
# Pointy-top hexagon: the edge facing each neighbour direction of pieces.DIRECTIONS, as the two
# corner angles (degrees, y downwards) that bound it.
_EDGE_CORNERS = {(0, -1): (150, 210), (0, 1): (-30, 30), (-1, 0): (210, 270),
                 (-1, 1): (270, 330), (1, -1): (90, 150), (1, 0): (30, 90)}
_BOARD_FILL = "#e8d8b0"
_BOARD_LINE = "#806040"
_WINDOW_LINE = "#404040"


def caption_lines(position: Position, marks: Set[str] = frozenset()) -> list[str]:
    """The caption under the SVG: the side to move and the move number, or the winner and
    its loops; the stones each side has placed; with ``loops``, each side's loops."""
    if position.winner is not None:
        first = status_line(position)
    else:
        first = (f"{SIDE_NAMES[position.turn]} to move "
                 f"(move {position.move_number(position.ply + 1)})")
    lines = [first, "Stones placed: " + ", ".join(
        f"{SIDE_NAMES[side]} {position.placed_stones(side)}" for side in (0, 1))]
    if LOOPS in marks:
        for side in (0, 1):
            found = position.loops(side)
            lines.append(f"{SIDE_NAMES[side]} loops: {' '.join(found) if found else 'none'}")
    return lines


def svgs(position: Position, *, last_move: Move | None = None,
         mark_sets: Sequence[Set[str]] = (frozenset(),)) -> list[str]:
    """:func:`svg` of ``position`` under each set of marks in ``mark_sets``, the text
    diagram written once."""
    description = text_diagram(position)
    return [_document(position, last_move, marks, CELL_SIZE, description).to_string()
            for marks in mark_sets]


def svg_runs(position: Position, *, last_move: Move | None = None,
             mark_sets: Sequence[Set[str]] = (frozenset(),)) -> list[tuple[str, ...]]:
    """:func:`svgs`, each drawing as its runs of whole lines
    (:meth:`~notation_tools.render.svg.SvgDocument.to_runs`), not joined into one text."""
    description = text_diagram(position)
    return [_document(position, last_move, marks, CELL_SIZE, description).to_runs()
            for marks in mark_sets]


def svg(position: Position, *, last_move: Move | None = None, marks: Set[str] = frozenset(),
        size: float = CELL_SIZE) -> str:
    """An SVG picture of ``position`` (§10.2), with the text diagram in ``<desc>``.

    343 hexagon cells (holes left out, window outlines drawn), the frame as rim segments in
    the colour of the side whose sides they are (Black's top and bottom, White's left and
    right), column letters above and below and row numbers on both sides, one disc per
    stone, the last placement marked (``last_move``, or the position's last placement), a
    caption (:func:`caption_lines`) and a legend; with the ``loops`` mark the stones of
    loop-carrying groups ringed (in the ``mark-loops`` group) and the loops listed.

    >>> from notation_tools.games.shuriken.rules import Position
    >>> picture = svg(Position.start())
    >>> picture.count('class="cell"'), picture.count('class="stone')
    (343, 24)
    """
    return _document(position, last_move, marks, size, text_diagram(position)).to_string()


def _document(position: Position, last_move: Move | None, marks: Set[str], size: float,
              description: str) -> SvgDocument:
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

    board = position.board
    if last_move is None and position.moves:
        last_move = position.moves[-1]
    if isinstance(last_move, Swap) and position.moves:
        last_move = PLACES[transpose(position.opening_cell())]
    last = (last_move.target if isinstance(last_move, Place)
            and board[last_move.target] in (BLACK, WHITE) else None)

    doc = SvgDocument(width, height, title=f"Shuriken 2D: {status_line(position)}",
                      description=description, background="#ffffff")
    cells = doc.group("board")

    def draw_cell(parent: Element, cell: int, fill: str) -> None:
        # The corners are the rounded centre plus the rounded offsets of a hexagon's corners,
        # so every cell is exactly the same polygon moved (a viewer page stores it once).
        x, y = (round(value, 2) for value in centre(*ROW_COL[cell]))
        points = " ".join(f"{number(round(x + dx, 2))},{number(round(y + dy, 2))}"
                          for dx, dy in _corner_offsets(size))
        doc.element(parent, "polygon", class_="cell", id=f"cell-{CELL_NAME[cell]}",
                    points=points, fill=fill, stroke=_BOARD_LINE, stroke_width=0.5)

    def draw_stone(parent: Element, cell: int, content: int) -> None:
        x, y = centre(*ROW_COL[cell])
        doc.piece_disc(parent, x, y, size * 0.75, dark=content == BLACK, css_class="stone",
                       data_cell=CELL_NAME[cell], name=STONE_NAMES[content])

    def draw_cells(parent: Element) -> None:
        for cell in CELLS:
            fill = LAST_MOVE_TARGET if cell == last else _BOARD_FILL
            doc.cached(parent, ("shuriken cell", size, cell, fill),
                       partial(draw_cell, cell=cell, fill=fill))

    def draw_stones(parent: Element) -> None:
        for cell in CELLS:
            content = board[cell]
            if content in (BLACK, WHITE):
                doc.cached(parent, ("shuriken stone", size, cell, content),
                           partial(draw_stone, cell=cell, content=content))

    # The board, its rims and names are the same in every position, and a stone on a cell
    # always the same drawing: each is drawn once (the viewer draws every position), and
    # the board with its marked cell and the stones as a whole are kept too.
    doc.cached(cells, ("shuriken cells", size, last), draw_cells)
    doc.cached(doc.root, ("shuriken edges", size),
               lambda parent: _draw_edges(doc, parent, centre, corner, size))
    doc.coordinates(_frame_labels(centre, size), font_size=0.8 * size,
                    key=("shuriken", size))
    doc.cached(doc.group("pieces"), ("shuriken stones", size, tuple(board)), draw_stones)
    doc.cached(doc.root, ("shuriken windows", size),
               lambda parent: _draw_window_names(doc, parent, centre, size))
    if LOOPS in marks:
        _draw_loop_rings(doc, position, centre, size)
    if last is not None:
        x, y = centre(*ROW_COL[last])
        doc.element(doc.group("marks"), "circle", class_="last-move", cx=x, cy=y, r=size / 4,
                    fill=LAST_MOVE_LINE)
    doc.caption(caption_lines(position, marks), margin=margin / 2,
                dark_to_move=position.turn == 0 if position.winner is None else None)
    legend = _legend(size)
    if LOOPS in marks:
        legend.append(LegendEntry("stone of a group carrying a loop", legend_disc(
            True, ring=MARK_LINE)))
    doc.legend(legend, margin=margin / 2, key=("shuriken", size, LOOPS in marks))
    return doc


@cache
def _corner_offsets(size: float) -> tuple[tuple[float, float], ...]:
    """Where a cell's six corners lie from its centre (pointy-top), to two decimals."""
    return tuple((round(size * math.cos(math.radians(30 + 60 * k)), 2),
                  round(size * math.sin(math.radians(30 + 60 * k)), 2)) for k in range(6))


_Centre = Callable[[int, int], tuple[float, float]]
"""Where the centre of a cell (row, column) is drawn."""
_Corner = Callable[[float, float, float], tuple[float, float]]
"""Where the corner of a hexagon centred at (x, y) at an angle in degrees is drawn."""


def _draw_edges(doc: SvgDocument, parent: Element, centre: _Centre, corner: _Corner,
                size: float) -> None:
    """The sides of the cells that touch a window (outlined) or the frame (a rim segment in
    the colour of the side whose side it is; White's outlined to show on the board)."""
    edges = doc.group("edges", parent)
    for cell in CELLS:
        row, col = ROW_COL[cell]
        x, y = centre(row, col)
        for (dr, dc), (a, b) in _EDGE_CORNERS.items():
            other = index_of(row + dr, col + dc)
            if other in HOLES:
                kind, colour, stroke = "window", _WINDOW_LINE, size / 6
            elif other in FRAME:
                black = FRAME[other][0] == BLACK
                kind = "frame black" if black else "frame white"
                colour, stroke = (DARK if black else LIGHT)["fill"], size * _RIM
            else:
                continue
            (x1, y1), (x2, y2) = corner(x, y, a), corner(x, y, b)
            if kind == "frame white":   # outlined, as a light piece is, to show on the board
                doc.element(edges, "line", class_="rim-outline", x1=x1, y1=y1, x2=x2, y2=y2,
                            stroke=LIGHT["stroke"], stroke_linecap="round",
                            stroke_width=stroke + size / 6)
            doc.element(edges, "line", class_=kind, x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour,
                        stroke_linecap="round", stroke_width=stroke)


def _frame_labels(centre: _Centre, size: float) -> Iterator[tuple[float, float, str]]:
    """Column letters above row 1 and below row 19, row numbers where the virtual columns 0
    and 20 would be (generated as drawn: a board's coordinates are kept after the first)."""
    # The letters keep clear of the rims' zigzag: baselines a little further out than the
    # numbers', which sit on their rows' centres.
    yield from ((centre(1, c)[0], centre(0, c)[1], COLUMNS[c - 1]) for c in range(1, SIZE + 1))
    yield from ((centre(r, 0)[0], centre(r, 0)[1] + 0.3 * size, str(r))
                for r in range(1, SIZE + 1))
    yield from ((centre(SIZE, c)[0], centre(SIZE + 1, c)[1] + 0.6 * size, COLUMNS[c - 1])
                for c in range(1, SIZE + 1))
    yield from ((centre(r, SIZE + 1)[0], centre(r, SIZE + 1)[1] + 0.3 * size, str(r))
                for r in range(1, SIZE + 1))


def _draw_loop_rings(doc: SvgDocument, position: Position, centre: _Centre,
                     size: float) -> None:
    """The ``loops`` mark: a ring round each stone of a group that carries a loop."""
    rings = doc.mark_group(LOOPS)
    for cell in sorted(position.loop_groups(0) | position.loop_groups(1)):
        if cell not in CELLS:
            continue
        x, y = centre(*ROW_COL[cell])
        doc.element(rings, "circle", class_="loop-ring", cx=x, cy=y, r=size * 0.8,
                    fill="none", stroke=MARK_LINE, stroke_width=size / 5,
                    data_cell=CELL_NAME[cell])


_RIM = 0.3
"""The width of a frame rim segment, as a share of the hexagon size."""


def _legend_rim(black: bool | None, size: float) -> Callable[
        [SvgDocument, Element, float, float, float], None]:
    def draw(doc: SvgDocument, parent: Element, x: float, y: float, box: float) -> None:
        x1, y1, x2, y2 = x + 2, y + box / 2, x + box - 2, y + box / 2
        if black is None:
            doc.element(parent, "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=_WINDOW_LINE,
                        stroke_width=size / 6)
            return
        if not black:
            doc.element(parent, "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=LIGHT["stroke"],
                        stroke_linecap="round", stroke_width=size * _RIM + size / 6)
        doc.element(parent, "line", x1=x1, y1=y1, x2=x2, y2=y2,
                    stroke=(DARK if black else LIGHT)["fill"], stroke_linecap="round",
                    stroke_width=size * _RIM)
    return draw


def _legend_last(doc: SvgDocument, parent: Element, x: float, y: float, box: float) -> None:
    doc.element(parent, "rect", x=x, y=y, width=box, height=box, fill=LAST_MOVE_TARGET,
                stroke="#555555", stroke_width=0.5)
    doc.element(parent, "circle", cx=x + box / 2, cy=y + box / 2, r=box / 5,
                fill=LAST_MOVE_LINE)


_WINDOW_NAME_SIZE = 1.6
"""The font size of a window's name, as a share of the hexagon size."""


def _draw_window_names(doc: SvgDocument, parent: Element, centre: _Centre, size: float
                       ) -> None:
    """Each window's name (``W1``, ``W2``) in its middle, as loop names write it (§3.1), and
    the outline's (``W3``) in the empty corner below the rhombus' left end."""
    layer = doc.group("windows", parent)
    font_size = size * _WINDOW_NAME_SIZE
    for window in WINDOWS:
        points = [centre(*ROW_COL[cell]) for cell in window.holes]
        x = sum(p[0] for p in points) / len(points)
        y = sum(p[1] for p in points) / len(points)
        label = doc.group("window-name", layer)
        doc.name(label, f"window {window.name}")
        doc.label(label, x, y + font_size * 0.35, window.name, font_size=font_size,
                  font_weight="bold", fill=_WINDOW_LINE, class_="window")
    outline = NODES[-1]
    label = doc.group("window-name", layer)
    doc.name(label, f"window {outline}: the board's outline")
    doc.label(label, size, centre(SIZE, 1)[1], f"{outline} = the outline", font_size=size,
              anchor="start", fill=_WINDOW_LINE, class_="window")


def _legend(size: float) -> list[LegendEntry]:
    return [LegendEntry("Black's sides (top, bottom)", _legend_rim(True, size)),
            LegendEntry("White's sides (left, right)", _legend_rim(False, size)),
            LegendEntry("window (W1, W2; W3 is the outline)", _legend_rim(None, size)),
            LegendEntry("last placement", _legend_last)]


def legend_svg(position: Position) -> str:
    """A standalone key (SVG): the stones, the two sides' rims, the windows as loop names
    write them and the last placement."""
    stones = [LegendEntry(STONE_NAMES[BLACK], legend_disc(True)),
              LegendEntry(STONE_NAMES[WHITE], legend_disc(False))]
    return legend_document("Shuriken 2D: key", stones + _legend(CELL_SIZE), width=520)
