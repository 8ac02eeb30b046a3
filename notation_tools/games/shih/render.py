"""Shih pictures (§15): the text diagram, its reading back, and the SVG drawing.

The text diagram is one line per row, each space two characters: the piece (``b``, ``r``,
``.``) then the wall's direction (``-`` H, ``/`` S, ``\\`` B), rows indented so the hexagon
shows (§15.1). Marks (the game's ``render_options``): ``regions`` adds a second drawing in
which every enclosed region (no empty space inside, so sealed and full) carries a letter, with
a list of them; ``coordinates`` draws wider cells that carry each space's name; ``maze`` draws
the lattice itself. The SVG follows §15.2's lattice through the shared
:class:`~notation_tools.render.svg.SvgDocument`, and each mark changes it too (see
:func:`svg`). Pure functions returning strings; nothing here prints or knows a rule beyond
asking the position for its regions and walled edges.

>>> from notation_tools.games.shih import GAME
>>> print(text_diagram(GAME.start_position(GAME.parse_rules("standard"))).splitlines()[0])
a       b/b/b/b/b/b/b/b/b/
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cache, partial
from typing import Any, TypeVar

from notation_tools.games.base import Style
from notation_tools.games.shih.moves import Move, Step
from notation_tools.games.shih.pieces import (BLUE, COUNT, EMPTY, HEX_SIDE, IS_UP,
                                              LATTICE_LINES, MAX_WIDTH, MIDDLE, NAMES,
                                              PIECE_LETTERS, PIECE_NAMES, RED, ROW_COUNT, ROW_START, ROWS,
                                              SIDE_NAMES, WIDTHS, B, H, S)
from notation_tools.games.shih.rules import Position
from notation_tools.render.svg import (LAST_MOVE_ORIGIN, LAST_MOVE_TARGET, TEXT_COLOUR,
                                       Element, LegendEntry, SvgDocument, legend_document,
                                       kept, legend_swatch, number)

_WALL_ASCII = "-/\\"
_WALL_UNICODE = "―╱╲"
_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CELL = 2
"""Characters per space in the diagram: the piece mark and the wall (§15.1)."""
_WIDE_CELL = 6
"""Characters per space with ``coordinates``: the name right-aligned in three, the two
characters of :data:`_CELL`, a space."""


def status_line(position: Position) -> str:
    """The §15.1 status line (side to move, Power Spins left, captures), plus the result."""
    spins, score = position.spins, position.score
    text = (f"{SIDE_NAMES[position.turn]} to move; Power Spins left: Blue {spins[BLUE]}, "
            f"Red {spins[RED]}; captured: by Blue {score[BLUE]}, by Red {score[RED]}")
    outcome = position.outcome()
    if outcome is not None:
        winner = "draw" if outcome.winner is None else f"{SIDE_NAMES[outcome.winner]} wins"
        text += f"; game over: {winner} ({outcome.detail})"
    return text


def _grid(cells: list[str], width_of_cell: int) -> list[str]:
    lines = []
    for row, width in enumerate(WIDTHS):
        start = ROW_START[row]
        indent = " " * ((MAX_WIDTH - width) // 2 * width_of_cell)
        lines.append(f"{ROWS[row]} {indent}{''.join(cells[start:start + width])}".rstrip())
    return lines


def enclosed_regions(position: Position) -> list[list[int]]:
    """The regions with no empty space (sealed and full: the shape a capture takes, §9.2)."""
    board = position.board
    return [region for region in position.regions()
            if all(board[space] != EMPTY for space in region)]


def text_diagram(position: Position, *, style: Style = Style.ASCII,
                 marks: frozenset[str] = frozenset()) -> str:
    """The §15.1 text diagram with its status line.

    ``style=Style.UNICODE`` draws empty spaces as ``▲``/``▼`` and walls as ``―╱╲``. Marks:
    ``coordinates`` widens each cell to carry the space's name; ``maze`` draws the lattice
    itself instead (walled edges drawn, open edges blank, pieces in their triangles);
    ``regions`` appends a second drawing in which each enclosed region carries a letter, and
    lists them.
    """
    coordinates, maze = "coordinates" in marks, "maze" in marks
    if maze:
        lines = _maze_lines(position, style, None)
    else:
        lines = _grid(_cells(position, style, coordinates, None),
                      _WIDE_CELL if coordinates else _CELL)
    lines.append(status_line(position))
    if "regions" in marks:
        lines.extend(_region_drawing(position, style, coordinates, maze))
    return "\n".join(lines)


def _cells(position: Position, style: Style, coordinates: bool,
           labels: dict[int, str] | None) -> list[str]:
    walls_of = _WALL_UNICODE if style == Style.UNICODE else _WALL_ASCII
    cells = []
    for space in range(COUNT):
        piece = position.board[space]
        if labels is not None:
            mark = labels.get(space, ".")
        elif piece != EMPTY:
            mark = PIECE_LETTERS[piece]
        elif style == Style.UNICODE:
            mark = "▲" if IS_UP[space] else "▼"
        else:
            mark = "."
        cell = mark + walls_of[position.walls[space]]
        if coordinates:
            cell = f"{NAMES[space]:>3}{cell} "
        cells.append(cell)
    return cells


def _region_drawing(position: Position, style: Style, coordinates: bool,
                    maze: bool) -> list[str]:
    found = enclosed_regions(position)
    labels: dict[int, str] = {}
    listing = []
    for index, region in enumerate(found):
        label = _LABELS[index] if index < len(_LABELS) else "*"
        blue = sum(1 for space in region if position.board[space] == BLUE)
        red = len(region) - blue
        holders = ", ".join(f"{count} {name}" for count, name in ((blue, "Blue"), (red, "Red"))
                            if count)
        listing.append(f"{label} = {' '.join(NAMES[space] for space in region)}: {holders}")
        for space in region:
            labels[space] = label
    if maze:
        drawing = _maze_lines(position, style, labels)
    else:
        drawing = _grid(_cells(position, style, coordinates, labels),
                        _WIDE_CELL if coordinates else _CELL)
    head = (f"regions: {len(position.regions())} in all, {len(found)} enclosed (no empty "
            "space inside), lettered:")
    return ["", head, *drawing, *listing]


# -------------------------------------------------------------------------------------------
# SVG (§15.2)

_UNIT = 40.0
_HEIGHT = _UNIT * math.sqrt(3) / 2
_MARGIN = 26.0
"""Room around the hexagon for the row letters at both ends of each row."""
_WALL_PULL = 0.14
"""How far a wall is drawn towards its own triangle's centre, so a double wall shows twice."""
_DISC = 0.17
"""A piece's radius, in units."""
_NAME_SIZE = 6.4
"""The font size of a space's name (``coordinates``): three characters fit inside the
triangle's walls and on a disc."""
_NUMBER_SIZE = 8.0
"""The font size of a space's number along its row, drawn on every space by default."""
PIECE_COLOURS = ({"fill": "#1e5bc6", "stroke": "#0b2456", "text": "#ffffff"},
                 {"fill": "#c62828", "stroke": "#4a0a0a", "text": "#ffffff"})
"""Blue's and Red's discs (indexed by ``BLUE``, ``RED``): the sides' own colours, each dark
enough to carry a white number."""
DISPLAY_SCALE = 1.5
"""Pixels per user unit of the picture's natural size (its viewBox scales to any width)."""
_WALL_COLOUR = "#222222"
_REGION_TINTS = ("#e67e22", "#8e44ad", "#16a085", "#c0392b", "#2980b9", "#7f8c8d")
"""One tint a region, in turn: enclosed regions (``regions``)."""


def _segments(line: int) -> int:
    """Unit segments on lattice line ``line`` (§15.2: ``n_k = 4 + min(k, 8 − k)``)."""
    return HEX_SIDE + min(line, ROW_COUNT - line)


def _point(line: int, index: int) -> tuple[float, float]:
    count = _segments(line)
    return ((2 * HEX_SIDE - count) * _UNIT / 2 + index * _UNIT + _MARGIN,
            line * _HEIGHT + _MARGIN)


@cache
def lattice_corners(space: int) -> dict[int, tuple[tuple[int, int], tuple[int, int]]]:
    """The two end points ``(line, point)`` of each side (H, S, B) of a space (§15.2)."""
    row = next(r for r in range(ROW_COUNT) if ROW_START[r] <= space < ROW_START[r] + WIDTHS[r])
    c = space - ROW_START[row]
    if row < MIDDLE:
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


@cache
def corners(space: int) -> dict[int, tuple[tuple[float, float], tuple[float, float]]]:
    """The two end points (SVG user units) of each side of a space."""
    return {side: (_point(*ends[0]), _point(*ends[1]))
            for side, ends in lattice_corners(space).items()}


@cache
def centroid(space: int) -> tuple[float, float]:
    """The centre of a space's triangle (SVG user units): where its piece and name go."""
    sides = corners(space)
    points = {*sides[H], *sides[S]}
    return sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3


def rim_points() -> list[tuple[float, float]]:
    """The hexagon's six corners (SVG user units), clockwise from the top left."""
    return [_point(0, 0), _point(0, HEX_SIDE), _point(MIDDLE, 2 * HEX_SIDE),
            _point(ROW_COUNT, HEX_SIDE), _point(ROW_COUNT, 0), _point(MIDDLE, 0)]


@cache
def _draw_rim(doc: SvgDocument, parent: Element) -> None:
    doc.element(parent, "polygon", class_="rim", points=_rim_text(), fill="none",
                stroke="#888888", stroke_width=4)


def _rim_text() -> str:
    """The rim's corners as a polygon's ``points``."""
    return _points(rim_points())


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{number(x)},{number(y)}" for x, y in points)


def caption_lines(position: Position) -> list[str]:
    """The caption under the SVG: the side to move and the move number (turns counted from the
    position they were pushed on), or the result; Power Spins left; captures; pieces left."""
    outcome = position.outcome()
    if outcome is None:
        first = (f"{SIDE_NAMES[position.turn]} to move "
                 f"(move {position.turns_played // 2 + 1})")
    else:
        winner = "Draw" if outcome.winner is None else f"{SIDE_NAMES[outcome.winner]} wins"
        first = f"{winner} ({outcome.detail})"
    spins, score, counts = position.spins, position.score, position.counts
    return [first,
            f"Power Spins left: Blue {spins[BLUE]}, Red {spins[RED]}",
            f"Captured: by Blue {score[BLUE]}, by Red {score[RED]}; "
            f"pieces left: Blue {counts[BLUE]}, Red {counts[RED]}"]


def svg(position: Position, *, last_move: Move | None = None,
        marks: frozenset[str] = frozenset()) -> str:
    """An SVG drawing (§15.2): 96 triangles, the walls, the rim outline, one disc per piece
    (Blue light, Red dark, the shared colours), the row letters at both ends of every row,
    a caption (:func:`caption_lines`), a legend, and the text diagram in ``<desc>``.
    ``last_move`` colours the spaces its actions touched: where a Step left, where it went
    or what a rotation turned.

    Each mark draws in its own ``mark-<name>`` group (``regions`` in two, under and over the
    pieces): ``maze`` draws the lattice itself
    (every walled edge on its line, open edges dotted) instead of each space's own wall;
    ``coordinates`` writes every space's name at its centre (on a piece, in the piece's
    text colour); ``regions`` tints each enclosed region, letters its pieces (unless the
    names are there) and lists it in the legend.
    """
    return svgs(position, last_move=last_move, mark_sets=[marks])[0]


def svgs(position: Position, *, last_move: Move | None = None,
         mark_sets: Sequence[frozenset[str]] = (frozenset(),)) -> list[str]:
    """:func:`svg` of ``position`` under each set of marks in ``mark_sets``: what they all
    show the same (the title, the text diagram, the caption, the enclosed regions, every
    layer two sets draw alike) is worked out and written once (:func:`_drawings`)."""
    return _drawings(position, last_move, mark_sets, SvgDocument.to_string)


def svg_runs(position: Position, *, last_move: Move | None = None,
             mark_sets: Sequence[frozenset[str]] = (frozenset(),)) -> list[tuple[str, ...]]:
    """:func:`svgs`, each drawing as its runs of whole lines
    (:meth:`~notation_tools.render.svg.SvgDocument.to_runs`), not joined into one text."""
    return _drawings(position, last_move, mark_sets, SvgDocument.to_runs)


_Drawing = TypeVar("_Drawing")


def _drawings(position: Position, last_move: Move | None,
              mark_sets: Sequence[frozenset[str]],
              written: Callable[[SvgDocument], _Drawing]) -> list[_Drawing]:
    """The drawing of ``position`` under each set of marks, each as ``written`` writes the
    document. One document is built: each layer (the spaces, the walls or the maze, the
    pieces, the numbers or the names, the region tints and letters, the caption) is drawn
    and written once, when a set first needs it, and each set's drawing is the layers it
    shows, in their order, with its own legend (which sets the canvas's height)."""
    width = 2 * HEX_SIDE * _UNIT + 2 * _MARGIN
    height = ROW_COUNT * _HEIGHT + 2 * _MARGIN
    doc = SvgDocument(width, height, title=f"Shih: {status_line(position)}",
                      description=text_diagram(position), background="#ffffff",
                      size=width * DISPLAY_SCALE)
    origins, targets = _last_move_spaces(last_move)
    board, walls = tuple(position.board), tuple(position.walls)
    # The title and the text diagram written once, the background kept an element (its
    # height follows each set's legend).
    head = doc.written_layers(doc.root.children)
    layers: dict[Hashable, list[Any]] = {}

    def layer(name: Hashable, draw: Callable[[], object]) -> list[Any]:
        """The root's children ``draw()`` adds, written once (kept under ``name``)."""
        found = layers.get(name)
        if found is None:
            doc.root.children = []
            draw()
            found = layers[name] = doc.written_layers(doc.root.children)
        return found

    # Each layer is also kept whole by what it shows, so the drawings of the positions of a
    # game (the viewer draws all of them) draw it once.
    spaces = layer("spaces", partial(
        doc.cached, doc.root, ("shih spaces", frozenset(origins), frozenset(targets)),
        partial(_draw_spaces, doc, origins=origins, targets=targets)))
    # The caption goes under the board in every set (the legend under it differs): drawn
    # once at the board's foot, and each set's canvas returns to its end.
    caption = layer("caption", lambda: doc.caption(
        caption_lines(position), margin=_MARGIN / 2,
        dark_to_move=position.turn == RED if position.outcome() is None else None))
    below_caption = doc.height
    regions: list[list[int]] | None = None
    # The enclosed regions' spaces and their pieces: what a legend that lists them shows.
    held: tuple[tuple[tuple[int, int], ...], ...] | None = None
    drawings: list[_Drawing] = []
    for marks in mark_sets:
        maze, named, lettering = "maze" in marks, "coordinates" in marks, "regions" in marks
        if lettering and regions is None:
            regions = enclosed_regions(position)
        shown = regions if lettering and regions is not None else []
        children = head + spaces
        if lettering:
            children += layer("region tints", lambda: _draw_region_tints(
                doc, doc.mark_group("regions"), shown))
        if maze:
            children += layer("maze", partial(doc.cached, doc.root, ("shih maze", walls),
                                              partial(_draw_maze, doc, position=position)))
        else:
            children += layer("walls", partial(doc.cached, doc.root, ("shih walls", walls),
                                               partial(_draw_walls, doc, position=position)))
        children += layer("board", partial(_draw_board, doc, board))
        if named:
            # A name's colour is that of the piece under it: the layer is kept by the board.
            children += layer("names", lambda: doc.cached(
                doc.mark_group("coordinates"), ("shih space names", board),
                partial(_draw_space_names, doc, board=board)))
        else:
            lettered = frozenset(space for region in shown for space in region)
            children += layer(("numbers", lettered), lambda: doc.cached(
                doc.root, ("shih numbers", board, lettered),
                partial(_draw_space_numbers, doc, position=position, skip=lettered)))
            if shown:
                # The region's letter on each of its pieces (the names take that place
                # otherwise).
                children += layer("region letters", lambda: _draw_region_letters(
                    doc, doc.mark_group("regions"), board, shown))
        doc.root.children = children + caption
        doc.height = below_caption  # each variant's caption starts where the shared layers end
        if lettering and held is None:
            held = tuple(tuple((space, board[space]) for space in region) for region in shown)
        doc.legend(partial(_legend, position, marks, bool(origins), bool(targets), shown),
                   margin=_MARGIN / 2,
                   key=("shih", maze, bool(origins), bool(targets), lettering and held))
        drawings.append(written(doc))
    return drawings


def _draw_board(doc: SvgDocument, board: tuple[int, ...]) -> None:
    """The rim, the pieces and the row letters: drawn alike under every set of marks."""
    doc.cached(doc.root, ("shih rim",), partial(_draw_rim, doc))
    doc.cached(doc.group("pieces"), ("shih pieces", board),
               partial(_draw_pieces, doc, board=board))
    doc.coordinates(_row_labels(), font_size=11, key="shih")


def _legend(position: Position, marks: frozenset[str], origins: bool, targets: bool,
            regions: list[list[int]]) -> list[LegendEntry]:
    """The legend under a drawing with ``marks``; ``origins`` and ``targets``: whether the
    last turn left and reached spaces."""
    maze = "maze" in marks
    legend = _side_legend() + [
        LegendEntry("wall (drawn inside the space that owns it)" if not maze
                    else "walled edge", _legend_wall)]
    if maze:
        legend.append(LegendEntry("open edge", _legend_open_edge))
    if origins:
        legend.append(LegendEntry("left by the last turn", legend_swatch(LAST_MOVE_ORIGIN)))
    if targets:
        legend.append(LegendEntry("reached or turned by the last turn",
                                  legend_swatch(LAST_MOVE_TARGET)))
    if "regions" in marks:
        legend += _region_legend(position, regions)
    return legend


def _last_move_spaces(last_move: Move | None) -> tuple[set[int], set[int]]:
    """The spaces the last move's Steps left, and those its actions reached or turned."""
    origins: set[int] = set()
    targets: set[int] = set()
    if last_move is not None:
        for action in last_move.actions:
            targets.add(action.target)
            if isinstance(action, Step):
                origins.add(action.origin)
    return origins, targets


def _draw_spaces(doc: SvgDocument, parent: Element, origins: set[int], targets: set[int]
                 ) -> None:
    """The 96 triangles, those the last move touched in its colours."""
    spaces = doc.group("spaces", parent)
    texts = []
    for space in range(COUNT):
        if space in targets:
            fill = LAST_MOVE_TARGET
        elif space in origins:
            fill = LAST_MOVE_ORIGIN
        else:
            fill = "#f4f1ea" if IS_UP[space] else "#e9e4d8"
        key = ("shih space", space, fill)
        text = kept(key)
        texts.append(text if text is not None
                     else doc.kept_text(key, partial(_draw_space, doc, space=space, fill=fill)))
    doc.add_text(spaces, "".join(texts))


def _draw_space(doc: SvgDocument, spaces: Element, space: int, fill: str) -> None:
    sides = corners(space)
    doc.element(spaces, "polygon", points=_points(sorted({*sides[H], *sides[S]})), fill=fill,
                stroke="#b9b2a2", stroke_width=0.6, data_space=NAMES[space])


def _draw_pieces(doc: SvgDocument, discs: Element, board: tuple[int, ...]) -> None:
    for space, piece in enumerate(board):
        if piece != EMPTY:
            key = ("shih piece", space, piece)
            if not doc.reuse(discs, key):
                doc.cached(discs, key, partial(_draw_piece, doc, space=space, piece=piece))


def _draw_piece(doc: SvgDocument, discs: Element, space: int, piece: int) -> None:
    cx, cy = centroid(space)
    doc.piece_disc(discs, cx, cy, _UNIT * _DISC, dark=piece == RED, data_space=NAMES[space],
                   name=PIECE_NAMES[piece], colours=PIECE_COLOURS[piece])


def _draw_space_names(doc: SvgDocument, layer: Element, board: tuple[int, ...]) -> None:
    """The ``coordinates`` mark: every space's name at its centre, on a piece in the
    piece's text colour."""
    for space in range(COUNT):
        piece = board[space]
        colour = TEXT_COLOUR if piece == EMPTY else PIECE_COLOURS[piece]["text"]
        key = ("shih space name", space, colour)
        if not doc.reuse(layer, key):
            doc.cached(layer, key, partial(_label_space, doc, space=space,
                                           text=NAMES[space], size=_NAME_SIZE,
                                           colour=colour, css_class="space-name"))


def _label_space(doc: SvgDocument, layer: Element, space: int, text: str, size: float,
                 colour: str, css_class: str) -> None:
    """``text`` at the centre of ``space`` (its name or its number)."""
    cx, cy = centroid(space)
    doc.label(layer, cx, cy + size * 0.35, text, font_size=size, fill=colour,
              class_=css_class)


def _draw_region_letters(doc: SvgDocument, layer: Element, board: tuple[int, ...],
                         regions: list[list[int]]) -> None:
    """The ``regions`` mark without the names: the region's letter on each of its pieces."""
    texts = []
    for index, region in enumerate(regions):
        for space in region:
            ink = PIECE_COLOURS[board[space]]["text"]
            key = ("shih region letter", space, index, ink)
            text = kept(key)
            texts.append(text if text is not None else doc.kept_text(key, partial(
                _draw_region_letter, doc, space=space, index=index, ink=ink)))
    doc.add_text(layer, "".join(texts))


def _draw_region_letter(doc: SvgDocument, layer: Element, space: int, index: int,
                        ink: str) -> None:
    cx, cy = centroid(space)
    doc.label(layer, cx, cy + _NAME_SIZE * 0.35, _region_label(index), font_size=_NAME_SIZE,
              font_weight="bold", fill=ink, class_="region-letter")


def _draw_region_tints(doc: SvgDocument, layer: Element, regions: list[list[int]]) -> None:
    """The ``regions`` mark under the pieces: each enclosed region's spaces tinted."""
    texts = []
    for index, region in enumerate(regions):
        for space in region:
            key = ("shih region tint", space, index)
            text = kept(key)
            texts.append(text if text is not None
                         else doc.kept_text(key, partial(_draw_region_tint, doc, space=space,
                                                         index=index)))
    doc.add_text(layer, "".join(texts))


def _draw_region_tint(doc: SvgDocument, layer: Element, space: int, index: int) -> None:
    sides = corners(space)
    doc.element(layer, "polygon", class_="region",
                points=_points(sorted({*sides[H], *sides[S]})),
                fill=_REGION_TINTS[index % len(_REGION_TINTS)], fill_opacity=0.35,
                data_space=NAMES[space], data_region=_region_label(index))


def _draw_walls(doc: SvgDocument, parent: Element, position: Position) -> None:
    """Each space's wall, drawn a little inside the space that owns it."""
    walls = doc.group("walls", parent)
    texts = []
    for space in range(COUNT):
        wall = position.walls[space]
        key = ("shih wall", space, wall)
        text = kept(key)
        texts.append(text if text is not None
                     else doc.kept_text(key, partial(_draw_wall, doc, space=space, wall=wall)))
    doc.add_text(walls, "".join(texts))


def _draw_wall(doc: SvgDocument, walls: Element, space: int, wall: int) -> None:
    cx, cy = centroid(space)
    (x1, y1), (x2, y2) = corners(space)[wall]
    doc.element(walls, "line", x1=x1 + (cx - x1) * _WALL_PULL, y1=y1 + (cy - y1) * _WALL_PULL,
                x2=x2 + (cx - x2) * _WALL_PULL, y2=y2 + (cy - y2) * _WALL_PULL,
                stroke=_WALL_COLOUR, stroke_width=3.5, stroke_linecap="round",
                data_space=NAMES[space])


def _region_legend(position: Position, regions: list[list[int]]) -> list[LegendEntry]:
    """The ``regions`` mark's legend rows: each region's spaces and whose pieces hold it."""
    legend = []
    if not regions:
        legend.append(LegendEntry("no enclosed region", legend_swatch("#ffffff")))
    for index, region in enumerate(regions):
        blue = sum(1 for space in region if position.board[space] == BLUE)
        holders = ", ".join(f"{count} {name}" for count, name in
                            ((blue, "Blue"), (len(region) - blue, "Red")) if count)
        legend.append(LegendEntry(
            f"{_region_label(index)}: {' '.join(NAMES[space] for space in region)} "
            f"({holders})",
            legend_swatch(_REGION_TINTS[index % len(_REGION_TINTS)], opacity=0.35)))
    return legend


def _region_label(index: int) -> str:
    return _LABELS[index] if index < len(_LABELS) else f"R{index + 1}"


@cache
def _row_labels() -> list[tuple[float, float, str]]:
    """Each row's letter left and right of the rim, half a unit clear of it."""
    labels = []
    for row in range(ROW_COUNT):
        y = (row + 0.5) * _HEIGHT + _MARGIN + 4
        left = (_point(row, 0)[0] + _point(row + 1, 0)[0]) / 2
        right = (_point(row, _segments(row))[0] + _point(row + 1, _segments(row + 1))[0]) / 2
        labels += [(left - _UNIT / 3, y, ROWS[row]), (right + _UNIT / 3, y, ROWS[row])]
    return labels


def _draw_maze(doc: SvgDocument, parent: Element, position: Position) -> None:
    """The ``maze`` mark: every lattice edge once, walled ones solid on the line, open ones
    dotted, and the lattice points."""
    layer = doc.group("mark-maze", parent)
    texts = []
    for space, side, ends in _lattice_edges():
        walled = position.is_walled(space, side)
        key = ("shih edge", ends, walled)
        text = kept(key)
        texts.append(text if text is not None
                     else doc.kept_text(key, partial(_draw_edge, doc, ends=ends, walled=walled)))
    doc.add_text(layer, "".join(texts))
    doc.cached(layer, ("shih lattice points",), partial(_draw_lattice_points, doc))


@cache
def _lattice_edges() -> list[tuple[int, int, tuple[tuple[int, int], tuple[int, int]]]]:
    """Every lattice edge once, as (the first space that has it, its side, its ends), in
    space order."""
    edges = []
    drawn: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for space in range(COUNT):
        for side, ends in lattice_corners(space).items():
            key = (min(ends), max(ends))
            if key not in drawn:
                drawn.add(key)
                edges.append((space, side, ends))
    return edges


def _draw_edge(doc: SvgDocument, layer: Element,
               ends: tuple[tuple[int, int], tuple[int, int]], walled: bool) -> None:
    (x1, y1), (x2, y2) = _point(*ends[0]), _point(*ends[1])
    if walled:
        doc.element(layer, "line", class_="walled", x1=x1, y1=y1, x2=x2, y2=y2,
                    stroke=_WALL_COLOUR, stroke_width=3, stroke_linecap="round")
    else:
        doc.element(layer, "line", class_="open", x1=x1, y1=y1, x2=x2, y2=y2,
                    stroke="#9a9284", stroke_width=0.8, stroke_dasharray="2,3")


def _draw_lattice_points(doc: SvgDocument, layer: Element) -> None:
    for line in range(LATTICE_LINES):
        for index in range(_segments(line) + 1):
            x, y = _point(line, index)
            doc.element(layer, "circle", class_="lattice-point", cx=x, cy=y, r=1.6,
                        fill=_WALL_COLOUR)


def _legend_wall(doc: SvgDocument, parent: Element, x: float, y: float, size: float) -> None:
    doc.element(parent, "line", x1=x + 1, y1=y + size / 2, x2=x + size - 1, y2=y + size / 2,
                stroke=_WALL_COLOUR, stroke_width=3.5, stroke_linecap="round")


def _legend_open_edge(doc: SvgDocument, parent: Element, x: float, y: float,
                      size: float) -> None:
    doc.element(parent, "line", x1=x + 1, y1=y + size / 2, x2=x + size - 1, y2=y + size / 2,
                stroke="#9a9284", stroke_width=0.8, stroke_dasharray="2,3")


# -------------------------------------------------------------------------------------------
# The maze drawing: the triangular lattice itself, walled edges drawn, open edges left blank.

_MAZE_UNIT = 4
"""Characters per lattice unit in the maze drawing."""


def _maze_x(line: int, index: int) -> int:
    return (2 * HEX_SIDE - _segments(line)) * _MAZE_UNIT // 2 + _MAZE_UNIT * index


def _maze_lines(position: Position, style: Style, labels: dict[int, str] | None) -> list[str]:
    """The maze rows: lattice points ``.``, every walled edge drawn (``---``, ``/``, ``\\``;
    the rim too, since it is a wall, §5), open edges blank, pieces ``b``/``r`` in their
    triangles and empty triangles ``'`` (up) or ``,`` (down); ``labels`` (space → letter)
    replaces the piece marks when given. Which space owns a wall is not shown (the §15.1
    diagram shows it); what a person sees is where pieces can step and which regions are
    sealed."""
    unicode = style == Style.UNICODE
    canvas = [[" "] * (2 * HEX_SIDE * _MAZE_UNIT + 1) for _ in range(2 * ROW_COUNT + 1)]
    for line in range(LATTICE_LINES):
        for index in range(_segments(line) + 1):
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
                for offset in range(_MAZE_UNIT - 1):
                    canvas[2 * line1][left + 1 + offset] = horizontal[offset]
            else:
                canvas[line1 + line2][(x1 + x2) // 2] = slant[side]
        (line1, index1), (line2, index2) = ends[S]
        middle = line1 + line2
        if IS_UP[space]:
            column = _maze_x(min(line1, line2), index1 if line1 < line2 else index2)
        else:
            column = _maze_x(max(line1, line2), index1 if line1 > line2 else index2)
        piece = position.board[space]
        if labels is not None:
            mark = labels.get(space, " ")
        elif piece != EMPTY:
            mark = PIECE_LETTERS[piece]
        elif unicode:
            mark = "▵" if IS_UP[space] else "▿"
        else:
            mark = "'" if IS_UP[space] else ","
        canvas[middle][column] = mark
    lines = []
    for text_line, row in enumerate(canvas):
        label = ROWS[text_line // 2] if text_line % 2 else " "
        lines.append(f"{label} {''.join(row)}".rstrip())
    return lines


def _draw_space_numbers(doc: SvgDocument, parent: Element, position: Position,
                        skip: frozenset[int]) -> None:
    """Every space's number along its row (spaces count from 1 at the row's left end,
    §1.2): with the row letters at the rim, ``g5`` is found by its letter and its number
    (on a piece in the piece's text colour; left out where a region letter stands)."""
    layer = doc.group("space-numbers", parent)
    texts = []
    for space in range(COUNT):
        if space in skip:
            continue
        piece = position.board[space]
        colour = "#6b6455" if piece == EMPTY else PIECE_COLOURS[piece]["text"]
        key = ("shih space number", space, colour)
        text = kept(key)
        texts.append(text if text is not None else doc.kept_text(key, partial(
            _label_space, doc, space=space, text=NAMES[space][1:], size=_NUMBER_SIZE,
            colour=colour, css_class="space-number")))
    doc.add_text(layer, "".join(texts))


def _legend_piece(piece: int) -> Any:
    def draw(doc: SvgDocument, parent: Element, x: float, y: float, box: float) -> None:
        doc.piece_disc(parent, x + box / 2, y + box / 2, box * 0.4, dark=piece == RED,
                       colours=PIECE_COLOURS[piece], css_class="legend-piece")
    return draw


def _side_legend() -> list[LegendEntry]:
    return [LegendEntry(SIDE_NAMES[BLUE], _legend_piece(BLUE)),
            LegendEntry(SIDE_NAMES[RED], _legend_piece(RED)),
            LegendEntry("a letter: the row, at both ends; a number: the space along its row "
                        "from the left (g5)", lambda doc, parent, x, y, box: None)]


def legend_svg(position: Position) -> str:
    """A standalone key (SVG): the two sides' colours, how a space's name is read off the
    board, walls, the last turn's colours."""
    entries = _side_legend() + [
        LegendEntry("wall (drawn inside the space that owns it)", _legend_wall),
        LegendEntry("left by the last turn", legend_swatch(LAST_MOVE_ORIGIN)),
        LegendEntry("reached or turned by the last turn", legend_swatch(LAST_MOVE_TARGET))]
    return legend_document("Shih: key", entries, width=2 * HEX_SIDE * _UNIT + 2 * _MARGIN)
