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

from functools import partial
from typing import Any

from notation_tools.games.base import Style
from notation_tools.games.elevation.moves import Dig, Move
from notation_tools.games.elevation.pieces import (
    FILES, PIECE_CHARS, RANKS, SIDE_NAMES, SIZE, SQUARE_COUNT, SQUARE_NAMES)
from notation_tools.games.elevation.pieces import PIECE_KINDS, piece_name, side_of
from notation_tools.games.elevation.rules import Position
from notation_tools.render.svg import (DARK, LAST_MOVE_LINE, LIGHT, MARK_LINE, Element,
                                       LegendEntry,
                                       SvgDocument, legend_document, legend_line,
                                       legend_swatch)

_EMPTY = {Style.ASCII: ".", Style.UNICODE: "·"}


def status_line(position: Position) -> str:
    """``White to move``, ``White wins (…)`` or ``Draw (…)``."""
    outcome = position.outcome()
    if outcome is None:
        return f"{SIDE_NAMES[position.turn]} to move"
    if outcome.winner is None:
        return f"Draw ({outcome.detail})"
    return f"{SIDE_NAMES[outcome.winner]} wins ({outcome.detail})"


WIDE_HEIGHT = 100
"""The lowest height that widens every field of the text diagram by one column (§11.1)."""


def text_diagram(position: Position, *, style: Style = Style.ASCII,
                 marks: frozenset[str] = frozenset(), status: bool = True) -> str:
    """``marks``: Elevation offers no render option, so it is always empty. The §11.1 diagram: a file header, ranks 6 to 1 (height right-aligned, then the piece
    letter or an empty mark), and a status line. Heights of 100 or more widen every field."""
    width = 3 if max(position.heights) >= WIDE_HEIGHT else 2
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


# ---- SVG (§11.2) ------------------------------------------------------------------------

SQUARE = 60
MARGIN = 24
_OCEAN = "#3a78c2"
_EARTH_LIGHT = (232, 214, 166)
_EARTH_DARK = (92, 58, 26)
SCALE_TOP = 8
"""The height the earth tones reach their darkest at when the rules set no ``max-height``
(§4.2): taller stacks share that colour. The scale is the rules', never the position's, so a
height keeps its colour from one position to the next."""


def scale_top(position: Position) -> int:
    """The top of the height scale: the rules' ``max-height``, else :data:`SCALE_TOP`."""
    return position.options.max_height or SCALE_TOP


def height_colour(height: int, top: int) -> str:
    """Blue for the ocean; earth tones from light (height 1) to dark (``top`` and above)."""
    if height <= 0:
        return _OCEAN
    t = min(1.0, (height - 1) / max(1, top - 1))
    rgb = tuple(round(a + (b - a) * t) for a, b in zip(_EARTH_LIGHT, _EARTH_DARK))
    return "#%02x%02x%02x" % rgb


def _is_dark(height: int, top: int) -> bool:
    return height <= 0 or (height - 1) / max(1, top - 1) > 0.5


def _centre(square: int) -> tuple[float, float]:
    file, rank = square % SIZE, square // SIZE
    return (MARGIN + file * SQUARE + SQUARE / 2, MARGIN + (SIZE - 1 - rank) * SQUARE + SQUARE / 2)


def caption_lines(position: Position) -> list[str]:
    """The caption under the SVG board: who is to move and the move number (counted from the
    position the turns were pushed on; a result instead once the game is over), then the
    pieces left on each side and the tallest stack."""
    first = status_line(position)
    if position.outcome() is None:
        first += f" (move {len(position.move_stack) // 2 + 1})"
    counts = ", ".join(f"{SIDE_NAMES[side]} {position.counts[side]}" for side in (0, 1))
    return [first, f"Pieces: {counts}; tallest stack {max(position.heights)}"]


def svg(position: Position, *, last_move: Move | None = None, marks: frozenset[str] = frozenset(),
        size: int | None = None) -> str:
    """``marks``: none (as for :func:`text_diagram`). An SVG board (§11.2): squares coloured by height with the height in a corner, pieces as
    discs with their letter, file and rank labels on all four edges, optionally the last
    turn's digs (dashed arrows) and path, a caption (:func:`caption_lines`) and a legend of
    the colours and lines. The text diagram is embedded in ``<desc>``."""
    full = 2 * MARGIN + SIZE * SQUARE
    doc = SvgDocument(full, full, title=f"Elevation: {status_line(position)}",
                      description=text_diagram(position), size=size)
    top = scale_top(position)
    doc.arrow_marker(LAST_MOVE_LINE)   # the same <defs> in every frame
    doc.arrow_marker(MARK_LINE)
    board_group = doc.group("board")
    # A square of a height, and a piece on a square, are always the same drawing: each is
    # drawn once (the viewer draws every position of a game).
    for square in range(SQUARE_COUNT):
        height = position.heights[square]
        doc.cached(board_group, ("elevation square", square, height, top),
                   partial(_draw_square, doc, square=square, height=height, top=top))
    labels: list[tuple[float, float, str]] = []
    for index, letter in enumerate(FILES):
        centre_x = _centre(index)[0]
        labels += [(centre_x, MARGIN - 8, letter), (centre_x, MARGIN + SIZE * SQUARE + 18, letter)]
    for rank in range(SIZE):
        centre_y = _centre(rank * SIZE)[1]
        labels += [(MARGIN / 2, centre_y + 5, RANKS[rank]),
                   (MARGIN + SIZE * SQUARE + MARGIN / 2, centre_y + 5, RANKS[rank])]
    doc.coordinates(labels, font_size=14, key="elevation")
    pieces_group = doc.group("pieces")
    for square in range(SQUARE_COUNT):
        cell = position.board[square]
        if cell:
            doc.cached(pieces_group, ("elevation piece", square, cell),
                       partial(_draw_piece, doc, square=square, cell=cell))
    if last_move is not None:   # over the pieces: a path ends on the piece that walked it
        _draw_last_move(doc, last_move)
    doc.caption(caption_lines(position), margin=MARGIN / 2,
                dark_to_move=position.turn == 1 if position.outcome() is None else None)
    doc.legend(_legend(position, last_move is not None), margin=MARGIN / 2,
               key=("elevation", top, position.options.max_height is None,
                    last_move is not None))
    return doc.to_string()


def _draw_square(doc: SvgDocument, parent: Element, square: int, height: int, top: int
                 ) -> None:
    """A square in its height's colour (on the scale up to ``top``), its height written in
    its corner."""
    file, rank = square % SIZE, square // SIZE
    x, y = MARGIN + file * SQUARE, MARGIN + (SIZE - 1 - rank) * SQUARE
    doc.element(parent, "rect", class_="square", id=SQUARE_NAMES[square], x=x, y=y,
                width=SQUARE, height=SQUARE, fill=height_colour(height, top),
                stroke="#333333", stroke_width=1, data_height=height)
    doc.label(parent, x + 4, y + 14, str(height), anchor="start", class_="height",
              fill="#ffffff" if _is_dark(height, top) else "#000000")


def _draw_piece(doc: SvgDocument, parent: Element, square: int, cell: int) -> None:
    cx, cy = _centre(square)
    doc.piece_disc(parent, cx, cy, SQUARE * 0.32, dark=bool(side_of(cell)),
                   letter=PIECE_CHARS[cell].upper(), font_size=18,
                   data_square=SQUARE_NAMES[square], name=piece_name(cell))


def _short_of(start: tuple[float, float], end: tuple[float, float]) -> tuple[float, float]:
    """``end`` drawn back towards ``start`` by a piece's radius: the arrowhead then points
    at the piece that walked the path rather than covering its letter."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    pull = min(SQUARE * 0.32, length / 2)
    return end[0] - dx / length * pull, end[1] - dy / length * pull


def _draw_last_move(doc: SvgDocument, move: Move) -> None:
    """The last turn's digs as dashed arrows source → destination, and its path (§11.2)."""
    group = doc.group("last-move")
    for part in move.parts:
        for action in part.actions:
            if isinstance(action, Dig):
                doc.last_move_line(group, [_centre(action.source), _centre(action.target)],
                                   colour=MARK_LINE, width=3, arrow=True, dashed=True,
                                   css_class="dig")
            else:
                points = [_centre(square) for square in action.squares]
                doc.last_move_line(group, [*points[:-1], _short_of(points[-2], points[-1])],
                                   width=3, arrow=True)


def _height_scale(position: Position) -> list[LegendEntry]:
    """The height key: the ocean, then every height's colour from 1 to the top of the scale
    (the top written ``8+`` when taller stacks may share it)."""
    top = scale_top(position)
    unlimited = position.options.max_height is None
    return [LegendEntry("ocean (0)", legend_swatch(_OCEAN))] + [
        LegendEntry(f"{height}+" if unlimited and height == top else str(height),
                    legend_swatch(height_colour(height, top))) for height in range(1, top + 1)]


def _piece_key() -> list[LegendEntry]:
    """S, F and D with their names, on a light disc (White's) and a dark one (Black's)."""
    def disc(letter: str, dark: bool) -> Any:
        def draw(doc: SvgDocument, parent: Element, x: float, y: float, box: float) -> None:
            doc.piece_disc(parent, x + box / 2, y + box / 2, box / 2, dark=dark, letter=letter,
                           font_size=box * 0.8, css_class="legend-piece")
        return draw

    return [LegendEntry(f"{kind.letter} {kind.name}", disc(kind.letter, False))
            for kind in PIECE_KINDS.values()] + [
        LegendEntry("White (light)", legend_swatch(LIGHT["fill"])),
        LegendEntry("Black (dark)", legend_swatch(DARK["fill"]))]


def _legend(position: Position, last_move: bool) -> list[LegendEntry]:
    legend = _piece_key() + _height_scale(position)
    if last_move:
        legend += [LegendEntry("last turn's path", legend_line(LAST_MOVE_LINE, arrow=True,
                                                                width=4)),
                   LegendEntry("dig: tile moved", legend_line(MARK_LINE, dashed=True,
                                                              arrow=True))]
    return legend


def legend_svg(position: Position) -> str:
    """A standalone key (SVG): S, F and D with their names, the sides' colours, the height
    scale of the rules (fixed: the same colours at every position) and the last turn's
    marks."""
    return legend_document("Elevation: key", _legend(position, True),
                           width=2 * MARGIN + SIZE * SQUARE)
