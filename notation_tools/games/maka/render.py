"""Maka-Dai-Dai Shogi diagrams: the ASCII/Unicode text diagram (§12) and SVG.

Pure functions returning strings (G9; tests read a diagram back with their own reader, so
that they can state positions as pictures). This module does not print or know the rules.

>>> from notation_tools.games.maka import GAME
>>> pos = GAME.start_position(GAME.parse_rules(None))
>>> print(text_diagram(pos).splitlines()[1])
  vL  vEa  vSt   vT   vI   vC   vS   vG vDSp   vK  vDV   vG   vS   vC   vI   vT  vSt  vEa   vL  a
"""

from __future__ import annotations

from functools import partial
from typing import Any

from notation_tools.games.base import Style
from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.pieces import (NSQ, PROMOTED_IDS, RANKS, SIDE_NAMES, SIZE,
                                              TYPE_OF_ID, piece_name, square_name)
from notation_tools.games.maka.position import WHITE_MARK, cell_text
from notation_tools.games.maka.rules import Position
from notation_tools.render.svg import (EM_WIDTH, LAST_MOVE_CAPTURE, LAST_MOVE_ORIGIN,
                                       LAST_MOVE_TARGET, LIGHT, Element, LegendEntry,
                                       SvgDocument, legend_document, legend_swatch, number)

CELL_WIDTH = 4
"""Characters per cell in the text diagram (§12)."""
UNICODE_WHITE = "▽"
"""Marks a White piece in the Unicode diagram instead of ``v`` (§12)."""

SQUARE = 36
"""The side of a square in the SVG, in user units."""
MARGIN = 24
"""Room around the grid for the file numbers (above) and rank letters (right)."""
WEDGE = 0.42
"""Half the height of a piece's wedge, as a share of a square."""
WEDGE_POINTS = ((0, -1), (0.7, -0.5), (0.85, 1), (-0.85, 1), (-0.7, -0.5))
"""The wedge's corners in units of its half height, pointing up (toward White)."""
LABEL_SHARE = 0.5
"""The largest label font size, as a share of a square: a one-, two- or three-letter
abbreviation at this size still fits its square (:data:`LABEL_ROOM`)."""
LABEL_ROOM = 0.95
"""The share of a square's width an abbreviation may take."""
LABEL_WIDTH = 0.54
"""The widest an abbreviation is drawn, as a share of a square: the wedge's width where its
letters stand. A wider one (``CSw``, ``GG``) is drawn condensed to this width (SVG's
``textLength``), so that no label runs over its wedge or into the next square."""
GLYPH_EMS = {**dict.fromkeys("ABEKPSVXY", 0.67), **dict.fromkeys("CDHNRU", 0.72),
             **dict.fromkeys("GOQ", 0.78), "F": 0.61, "I": 0.28, "J": 0.5, "L": 0.56,
             "M": 0.83, "T": 0.61, "W": 0.94, "Z": 0.61,
             **dict.fromkeys("fjilt", 0.28), "i": 0.22, "l": 0.22, "j": 0.22, "r": 0.33,
             "m": 0.83, "w": 0.72, "c": 0.5, "k": 0.5, "s": 0.5, "v": 0.5, "x": 0.5,
             "y": 0.5, "z": 0.5}
"""The width of a letter in a common sans-serif font, in ems (other letters 0.56): what
decides whether an abbreviation needs condensing."""
BOARD_COLOUR = "#f3d9a4"
PROMOTED_COLOUR = "#c00"
"""The label colour of a promoted type (§12: promoted types in red)."""


def status_line(pos: Position) -> str:
    """``Black to move (move 1)`` (§12), or once the game is over who won and how, as the
    SVG caption says it (``Black wins (...)``)."""
    outcome = pos.outcome()
    if outcome is None:
        return f"{SIDE_NAMES[pos.turn]} to move (move {pos.move_number})"
    winner = "Draw" if outcome.winner is None else f"{SIDE_NAMES[outcome.winner]} wins"
    return f"{winner} ({outcome.detail})" if outcome.detail else winner


def text_diagram(position: Position, *, style: Style = Style.ASCII,
                 marks: frozenset[str] = frozenset()) -> str:
    """The text diagram of §12: file header, 19 ranks, blank line, status (and rules) line.
    ``marks`` is empty: the game offers no extra marks."""
    unicode = style is Style.UNICODE
    lines = [" ".join(f"{SIZE - c:>{CELL_WIDTH}}" for c in range(SIZE))]
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            code = position.board[row * SIZE + col]
            text = cell_text(code) if code else "."
            if unicode and code and code & 1:
                text = UNICODE_WHITE + text[len(WHITE_MARK):]
            cells.append(f"{text:>{CELL_WIDTH}}")
        sep = "│" if unicode else " "
        lines.append(sep.join(cells) + f"  {RANKS[row]}")
    lines.append("")
    lines.append(status_line(position))
    rules = position.rules
    if rules.describe() != "tsa":
        lines.append(f"Rules: {rules.describe()}")
    return "\n".join(lines)


def caption_lines(pos: Position) -> list[str]:
    """The caption under the SVG: the status line of §12 (or the result once the game is
    over), the pieces each side has on the board, and the rules when not the default."""
    first = status_line(pos)
    counts = [0, 0]
    for code in pos.board:
        if code:
            counts[code & 1] += 1
    lines = [first, "Pieces on the board: " + ", ".join(
        f"{SIDE_NAMES[side]} {counts[side]}" for side in (0, 1))]
    if pos.rules.describe() != "tsa":
        lines.append(f"Rules: {pos.rules.describe()}")
    return lines


def _wedge(doc: SvgDocument, parent: Element, cx: float, cy: float, half: float,
           white: bool) -> None:
    turn = -1 if white else 1
    doc.element(parent, "polygon", points=" ".join(
        f"{cx + turn * x * half:.1f},{cy + turn * y * half:.1f}" for x, y in WEDGE_POINTS),
        fill=LIGHT["fill"], stroke=LIGHT["stroke"])


def _legend_wedge(white: bool) -> Any:
    def draw(doc: SvgDocument, parent: Element, x: float, y: float, box: float) -> None:
        _wedge(doc, parent, x + box / 2, y + box / 2, box * 0.45, white)
    return draw


def label_size(text: str) -> float:
    """The font size of a piece's abbreviation: :data:`LABEL_SHARE` of a square, less for a
    text too wide for :data:`LABEL_ROOM` of it."""
    return min(SQUARE * LABEL_SHARE, SQUARE * LABEL_ROOM / (EM_WIDTH * max(1, len(text))))


def _centre(sq: int) -> tuple[float, float]:
    row, col = divmod(sq, SIZE)
    return MARGIN + col * SQUARE + SQUARE / 2, MARGIN + row * SQUARE + SQUARE / 2


def svg(position: Position, *, last_move: Move | None = None, marks: frozenset[str] = frozenset(),
        size: int | None = None) -> str:
    """An SVG picture (§12): 19×19 grid, files above, ranks at the right, wedge pieces
    (White's turned 180°), promoted types in red, the last move's origin, path and captures
    marked and its path drawn, a caption (:func:`caption_lines`) and a legend; the text
    diagram in ``<desc>``."""
    width = MARGIN + SIZE * SQUARE + MARGIN
    doc = SvgDocument(width, width, title=f"Maka-Dai-Dai Shogi: {status_line(position)}",
                      description=text_diagram(position), size=size, background=BOARD_COLOUR)
    fills: dict[int, str] = {}
    if last_move is not None:
        for s in last_move.path:
            fills[s] = LAST_MOVE_TARGET
        for s in last_move.captures:
            fills[s] = LAST_MOVE_CAPTURE
        fills[last_move.origin] = LAST_MOVE_ORIGIN
    # The squares' common paint on their group: a frame is a few lines, not a few kilobytes.
    grid = doc.group("board", fill="none", stroke="#000", stroke_width=1)
    for row in range(SIZE):
        # A rank is drawn once per set of marks on it (most ranks have none).
        marked = tuple(fills.get(sq) for sq in range(row * SIZE, row * SIZE + SIZE))
        doc.cached(grid, ("maka rank", row, marked),
                   partial(_draw_rank, doc, row=row, fills=marked))
    files = [(MARGIN + col * SQUARE + SQUARE // 2, MARGIN * 2 // 3, str(SIZE - col))
             for col in range(SIZE)]
    ranks = [(MARGIN + SIZE * SQUARE + MARGIN // 2, MARGIN + row * SQUARE + SQUARE // 2 + 4,
              RANKS[row]) for row in range(SIZE)]
    doc.coordinates(files + ranks, key="maka")
    if last_move is not None and last_move.path:
        doc.last_move_line(doc.group("last-move"),
                           [_centre(s) for s in (last_move.origin, *last_move.path)], arrow=True)
    layer = doc.group("pieces")
    half = SQUARE * WEDGE
    for sq, code in enumerate(position.board):
        if code:
            doc.cached(layer, ("maka piece", sq, code, half),
                       partial(_draw_piece, doc, sq=sq, code=code, half=half))
    doc.caption(caption_lines(position), margin=MARGIN / 2)
    doc.legend(_mark_legend(last_move is not None), margin=MARGIN / 2,
               key=("maka", last_move is not None))
    return doc.to_string()


def _draw_rank(doc: SvgDocument, grid: Element, row: int, fills: tuple[str | None, ...]
               ) -> None:
    for col, fill in enumerate(fills):
        doc.element(grid, "rect", class_="square " + square_name(row * SIZE + col),
                    x=MARGIN + col * SQUARE, y=MARGIN + row * SQUARE, width=SQUARE,
                    height=SQUARE, fill=fill)


def _draw_piece(doc: SvgDocument, layer: Element, sq: int, code: int, half: float) -> None:
    """One piece: its wedge, its abbreviation (turned with White's wedge, as printed shogi
    diagrams do) and its full name for a pointer resting on it."""
    cx, cy = _centre(sq)
    white = bool(code & 1)
    piece = doc.group("piece " + ("white" if white else "black"), layer,
                      data_square=square_name(sq))
    doc.name(piece, piece_name(code))
    _wedge(doc, piece, cx, cy, half, white)
    text = cell_text(code).removeprefix(WHITE_MARK)
    font_size = label_size(text)
    # The baseline a third of the size below the centre puts the letters' middle on it.
    room = SQUARE * LABEL_WIDTH
    condensed = sum(GLYPH_EMS.get(letter, 0.56) for letter in text) * font_size > room
    doc.label(piece, cx, cy + font_size * 0.35, text, font_size=round(font_size, 1),
              fill=PROMOTED_COLOUR if code >> 1 in PROMOTED_IDS else LIGHT["text"],
              transform=f"rotate(180 {number(cx)} {number(cy)})" if white else None,
              textLength=round(room, 1) if condensed else None,
              lengthAdjust="spacingAndGlyphs" if condensed else None)


def _mark_legend(last_move: bool) -> list[LegendEntry]:
    legend = [LegendEntry("Black (points up)", _legend_wedge(False)),
              LegendEntry("White (points down)", _legend_wedge(True)),
              LegendEntry("red label: promoted", legend_swatch(PROMOTED_COLOUR))]
    if last_move:
        legend += [LegendEntry("last move: origin", legend_swatch(LAST_MOVE_ORIGIN)),
                   LegendEntry("path", legend_swatch(LAST_MOVE_TARGET)),
                   LegendEntry("capture", legend_swatch(LAST_MOVE_CAPTURE))]
    return legend


def legend_svg(position: Position) -> str:
    """A standalone key (SVG) of ``position``'s drawing: each piece type on the board, in
    the order of the piece tables, its abbreviation and full name (red for a promoted type),
    then the wedges, the promoted colour and the last move's marks."""
    present = sorted({code >> 1 for code in position.board if code})
    entries = []
    for type_id in present:
        piece_type = TYPE_OF_ID[type_id]
        assert piece_type is not None
        entries.append(LegendEntry(f"{piece_type.abbr} {piece_type.name}", legend_swatch(
            PROMOTED_COLOUR if type_id in PROMOTED_IDS else LIGHT["fill"])))
    return legend_document("Maka-Dai-Dai Shogi: key", entries + _mark_legend(True),
                           width=MARGIN * 2 + SIZE * SQUARE)
