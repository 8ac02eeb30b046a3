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

from notation_tools.games.base import Style
from notation_tools.games.elevation.moves import Dig, Move
from notation_tools.games.elevation.pieces import (
    FILES, PIECE_CHARS, RANKS, SIDE_NAMES, SIZE, SQUARE_COUNT, SQUARE_NAMES)
from notation_tools.games.elevation.pieces import side_of
from notation_tools.games.elevation.rules import Position
from notation_tools.render.svg import (LAST_MOVE_LINE, MARK_LINE, LegendEntry, SvgDocument,
                                       legend_line, legend_swatch)

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
_SCALE_TOP = 6
"""The earth tones darken from height 1 up to the tallest stack, or to this height if higher."""


def height_colour(height: int, tallest: int) -> str:
    """Blue for the ocean; earth tones from light to dark as stacks rise."""
    if height <= 0:
        return _OCEAN
    top = max(tallest, _SCALE_TOP)
    t = min(1.0, (height - 1) / max(1, top - 1))
    rgb = tuple(round(a + (b - a) * t) for a, b in zip(_EARTH_LIGHT, _EARTH_DARK))
    return "#%02x%02x%02x" % rgb


def _is_dark(height: int, tallest: int) -> bool:
    return height <= 0 or (height - 1) / max(1, max(tallest, _SCALE_TOP) - 1) > 0.5


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
    tallest = max(position.heights)
    board_group = doc.group("board")
    for square in range(SQUARE_COUNT):
        file, rank = square % SIZE, square // SIZE
        x, y = MARGIN + file * SQUARE, MARGIN + (SIZE - 1 - rank) * SQUARE
        height = position.heights[square]
        doc.element(board_group, "rect", class_="square", id=SQUARE_NAMES[square], x=x, y=y,
                    width=SQUARE, height=SQUARE, fill=height_colour(height, tallest),
                    stroke="#333333", stroke_width=1, data_height=height)
        doc.label(board_group, x + 4, y + 14, str(height), anchor="start", class_="height",
                  fill="#ffffff" if _is_dark(height, tallest) else "#000000")
    labels: list[tuple[float, float, str]] = []
    for index, letter in enumerate(FILES):
        centre_x = _centre(index)[0]
        labels += [(centre_x, MARGIN - 8, letter), (centre_x, MARGIN + SIZE * SQUARE + 18, letter)]
    for rank in range(SIZE):
        centre_y = _centre(rank * SIZE)[1]
        labels += [(MARGIN / 2, centre_y + 5, RANKS[rank]),
                   (MARGIN + SIZE * SQUARE + MARGIN / 2, centre_y + 5, RANKS[rank])]
    doc.coordinates(labels, font_size=14)
    if last_move is not None:
        _draw_last_move(doc, last_move)
    pieces_group = doc.group("pieces")
    for square in range(SQUARE_COUNT):
        cell = position.board[square]
        if cell:
            cx, cy = _centre(square)
            doc.piece_disc(pieces_group, cx, cy, SQUARE * 0.32, dark=bool(side_of(cell)),
                           letter=PIECE_CHARS[cell].upper(), font_size=18,
                           data_square=SQUARE_NAMES[square])
    doc.caption(caption_lines(position), margin=MARGIN / 2,
                dark_to_move=position.turn == 1 if position.outcome() is None else None)
    legend = [LegendEntry("ocean (height 0)", legend_swatch(_OCEAN)),
              LegendEntry("low stack", legend_swatch(height_colour(1, tallest))),
              LegendEntry(f"stack of {max(tallest, _SCALE_TOP)}+",
                          legend_swatch(height_colour(max(tallest, _SCALE_TOP), tallest)))]
    if last_move is not None:
        legend += [LegendEntry("last turn's path", legend_line(LAST_MOVE_LINE)),
                   LegendEntry("dig: tile moved", legend_line(MARK_LINE, dashed=True,
                                                              arrow=True))]
    doc.legend(legend, margin=MARGIN / 2)
    return doc.to_string()


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
                doc.last_move_line(group, [_centre(square) for square in action.squares])
