"""Pictures of a Game of War position: the text diagram (spec §16.1) and SVG (spec §16.2).

Pure functions returning strings (tests read a diagram back with their own reader, so that
they can state positions as pictures). This module computes no rule beyond asking the
position which units are offline and which squares are covered.

>>> from notation_tools.games.gow import GAME
>>> print(text_diagram(GAME.start_position(GAME.parse_rules(None))).splitlines()[4])
  D  .  .  R  .  .  .  . <*> .  ^  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

from notation_tools.games.base import Style
from notation_tools.games.gow.moves import Attack, Step, Turn
from notation_tools.games.gow.pieces import (
    SIDE_NAMES,
    ARSENAL_OWNER, ARSENALS, CODE_LETTER, COLS, FORT, IS_FIGHTING, MOUNTAIN, NAMES,
    PASS, ROW_LETTERS, ROWS, SIDE_OF, SIZE, TERRAIN, UNIT_TYPES, unit_name)
from notation_tools.games.gow.rules import Position, SquareBits
from notation_tools.render.svg import (LAST_MOVE_LINE, LAST_MOVE_ORIGIN, LAST_MOVE_TARGET,
                                       MARK_LINE, LegendEntry, SvgDocument, kept,
                                       legend_document, legend_line, legend_swatch, number)

_Drawing = TypeVar("_Drawing")

_CIRCLED = {"I": "\u24be", "C": "\u24b8", "A": "\u24b6", "H": "\u24bd", "R": "\u24c7", "M": "\u24c2"}
_ARSENAL_INDEX = {s: i for i, s in enumerate(ARSENALS)}


def _letter(v: int, unicode: bool) -> str:
    letter = CODE_LETTER[v]
    if unicode and SIDE_OF[v] == 1:
        return _CIRCLED[letter.upper()]
    return letter


_LETTERS = tuple({v: _letter(v, unicode) for v in CODE_LETTER} for unicode in (False, True))
"""Each unit code's letter in a text diagram: ASCII, and Unicode (South's circled)."""
_TEXT_TERRAIN: tuple[tuple[str, str] | None, ...] = tuple(
    (" ^ ", " \u25b2 ") if terrain == MOUNTAIN else ("=", "=") if terrain == PASS
    else ("[", "]") if terrain == FORT else None for terrain in TERRAIN)
"""A square's feature in a text diagram, by square: a mountain's two drawings (ASCII,
Unicode), or the marks round a pass's or a fort's unit; None on the plain."""


_ROW_TEXT: dict[tuple[bool, int, bytes, tuple[bool, ...]], str] = {}
"""The text of a diagram's row without marks, by style, row, its units and the arsenals
standing (:func:`text_diagram`)."""
_ROW_TEXT_LIMIT = 20_000
"""How many rows :data:`_ROW_TEXT` keeps before it is emptied (a few megabytes)."""


def _row_text(r: int, board: bytearray, alive: list[bool], letters: dict[int, str],
              covered: list[SquareBits | None]) -> str:
    """Row ``r`` of the text diagram (``letters``: the style's unit letters; ``covered``:
    the squares each side's lines cover, when marked), without trailing spaces."""
    unicode = letters is _LETTERS[True]
    unmarked = covered[0] is None and covered[1] is None
    cells = []
    for s in range(r * COLS, (r + 1) * COLS):
        v = board[s]
        terrain = _TEXT_TERRAIN[s]
        if terrain is not None:  # a mountain, a pass or a fort
            cells.append(terrain[unicode] if terrain[0] == " ^ "
                         else f"{terrain[0]}{letters[v] if v else ' '}{terrain[1]}")
        elif s in _ARSENAL_INDEX and alive[_ARSENAL_INDEX[s]]:
            cells.append(f"<{letters[v] if v else '*'}>")
        elif v:
            cells.append(f" {letters[v]} ")
        elif unmarked:
            cells.append(" . ")
        else:
            lined = [bits is not None and bits[s] for bits in covered]   # by side
            mark = "#" if all(lined) else "+" if lined[0] else "-" if lined[1] else "."
            cells.append(f" {mark} ")
    return (f"  {ROW_LETTERS[r]} " + "".join(cells)).rstrip()


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
    unmarked = covered[0] is None and covered[1] is None
    lines = ["    " + "".join(f"{c:>3}" for c in range(1, COLS + 1))]
    letters = _LETTERS[unicode]
    alive = position.alive
    alive_key = tuple(alive)
    for r in range(ROWS):
        if r == _FRONTIER_ROW:
            lines.append("    " + "-" * (3 * COLS))
        if unmarked:
            # A row drawn before with the same units (and arsenals) is the same text: most
            # rows of one position are those of the last.
            key = (unicode, r, bytes(board[r * COLS:(r + 1) * COLS]), alive_key)
            row = _ROW_TEXT.get(key)
            if row is None:
                row = _ROW_TEXT[key] = _row_text(r, board, alive, letters, covered)
                if len(_ROW_TEXT) > _ROW_TEXT_LIMIT:
                    _ROW_TEXT.clear()
            lines.append(row)
        else:
            lines.append(_row_text(r, board, alive, letters, covered))
    arsenals = _squares([s for i, s in enumerate(ARSENALS) if position.alive[i]])
    retreat = NAMES[position.retreat] if position.retreat is not None else "-"
    lines.append(f"turn {position.turn_number}, {_to_move(position)}; arsenals {arsenals}; "
                 f"retreat {retreat}")
    off = [position.offline_units(side) for side in (0, 1)]
    lines.append(f"offline North: {_squares(off[0][0])}; South: {_squares(off[1][0])}")
    lines.append(f"offline relays North: {_squares(off[0][1])}; South: {_squares(off[1][1])}")
    if covered[0] is not None or covered[1] is not None:
        lines.append("covered empty squares: + North, - South, # both")
    return "\n".join(lines)


# ---- SVG -----------------------------------------------------------------------------------

_CELL = 24
_MARGIN = 20
_HALF = _CELL // 2
_SIDE_COLOURS = ("#c0392b", "#1f4e8c")
"""North's and South's colour: units, arsenals, covered squares and combat lines."""
_TERRAIN_COLOUR = "#5b5146"
_RETREAT_COLOUR = "#e67e22"
_OFFLINE_INK = "#000000"
"""The dashed outline and the badge's rim of an offline unit: black on the cream map."""
_OFFLINE_BADGE = "#ffd400"
"""The fill of an offline unit's badge: yellow, unlike either side's colour or the map."""
_UNIT_SIZE = 15
"""The font size of a unit's letter (of a 24-unit square)."""
_COORDINATE_SIZE = 11
_ARROW_WIDTH = 1.8
"""The stroke of a last-turn arrow; its head is :meth:`SvgDocument.arrow_marker`'s, eight
strokes long."""
_FRONTIER_ROW = ROWS // 2
"""The dashed line between the two territories runs above this row (K)."""


def _covered(position: Position, marks: frozenset[str]) -> list[SquareBits | None]:
    return [position.status(0).covered if "north-lines" in marks else None,
            position.status(1).covered if "south-lines" in marks else None]


def _to_move(position: Position) -> str:
    """``North to move``, or once the game is over who won and how (``South wins (...)``)."""
    outcome = position.outcome()
    if outcome is None:
        return f"{SIDE_NAMES[position.turn]} to move"
    winner = "Draw" if outcome.winner is None else f"{SIDE_NAMES[outcome.winner]} wins"
    return f"{winner} ({outcome.detail})" if outcome.detail else winner


def caption_lines(position: Position) -> list[str]:
    """The caption under the SVG: the side to move and the turn (or the result), the
    surviving arsenals and a pending retreat, and each side's offline units and relays."""
    first = _to_move(position)
    if position.outcome() is None:
        first = f"{first} (turn {position.turn_number})"
    arsenals = _squares([s for i, s in enumerate(ARSENALS) if position.alive[i]])
    retreat = NAMES[position.retreat] if position.retreat is not None else "none"
    off = [position.offline_units(side) for side in (0, 1)]
    return [first, f"Arsenals: {arsenals}; retreat due: {retreat}",
            f"Offline units: North {_squares(off[0][0])}; South {_squares(off[1][0])}",
            f"Offline relays: North {_squares(off[0][1])}; South {_squares(off[1][1])}"]


def _draw_terrain(doc: SvgDocument, parent: Any, terrain: str, x: float, y: float,
                  cell: float, colour: str = "#333") -> None:
    """One map feature in the ``cell``-sized square at ``(x, y)``: on the map and in the
    legend alike."""
    k = cell / _CELL
    if terrain == "mountain":
        doc.element(parent, "rect", class_="mountain", x=x, y=y, width=cell, height=cell,
                    fill=_TERRAIN_COLOUR)
        doc.element(parent, "polygon", points=f"{number(x + 4 * k)},{number(y + 19 * k)} "
                    f"{number(x + 12 * k)},{number(y + 5 * k)} {number(x + 20 * k)},"
                    f"{number(y + 19 * k)}", fill="#a89c8c")
    elif terrain == "pass":
        doc.element(parent, "polyline", class_="pass", points=f"{number(x + 3 * k)},"
                    f"{number(y + 4 * k)} {number(x + 12 * k)},{number(y + 10 * k)} "
                    f"{number(x + 21 * k)},{number(y + 4 * k)}", fill="none",
                    stroke=_TERRAIN_COLOUR, stroke_width=1.5)
    elif terrain == "fort":
        doc.element(parent, "rect", class_="fort", x=x + 2 * k, y=y + 2 * k,
                    width=cell - 4 * k, height=cell - 4 * k, fill="none", stroke=colour,
                    stroke_width=2)
    else:
        doc.element(parent, "rect", class_="arsenal", x=x + 2 * k, y=y + 2 * k,
                    width=cell - 4 * k, height=cell - 4 * k, fill="none", stroke=colour,
                    stroke_width=2)
        doc.element(parent, "path", d=f"M{number(x + 2 * k)},{number(y + 2 * k)}"
                    f"L{number(x + cell - 2 * k)},{number(y + cell - 2 * k)}"
                    f"M{number(x + cell - 2 * k)},{number(y + 2 * k)}"
                    f"L{number(x + 2 * k)},{number(y + cell - 2 * k)}", stroke=colour,
                    stroke_width=1)


def _draw_unit(doc: SvgDocument, parent: Any, side: int, letter: str, fighting: bool,
               x: float, y: float, cell: float) -> None:
    colour = _SIDE_COLOURS[side]
    font_size = max(_UNIT_SIZE * cell / _CELL, 10)   # a legend's small box keeps it legible
    if side == 1:
        doc.element(parent, "circle", cx=x + cell / 2, cy=y + cell / 2,
                    r=max(9 * cell / _CELL, 7), fill="none", stroke=colour, stroke_width=1.2)
    doc.label(parent, x + cell / 2, y + cell / 2 + font_size / 3, letter, font_size=font_size,
              font_weight="bold" if fighting else "normal", fill=colour)


def _legend(last_move: Any, marks: frozenset[str]) -> list[LegendEntry]:
    def terrain(kind: str, colour: str = "#333") -> Any:
        return lambda doc, parent, x, y, box: _draw_terrain(doc, parent, kind, x, y, box, colour)

    def unit(side: int, letter: str, **attributes: Any) -> Any:
        def draw(doc: SvgDocument, parent: Any, x: float, y: float, box: float) -> None:
            _draw_unit(doc, doc.group("legend-unit", parent, **attributes), side, letter,
                       True, x, y, box)
        return draw

    def frontier(doc: SvgDocument, parent: Any, x: float, y: float, box: float) -> None:
        doc.element(parent, "line", x1=x, y1=y + box / 2, x2=x + box, y2=y + box / 2,
                    stroke="#000", stroke_width=1.5, stroke_dasharray="6,4")

    def retreat(doc: SvgDocument, parent: Any, x: float, y: float, box: float) -> None:
        doc.element(parent, "circle", cx=x + box / 2, cy=y + box / 2, r=box * 0.45,
                    fill="none", stroke=_RETREAT_COLOUR, stroke_width=2)

    def offline(doc: SvgDocument, parent: Any, x: float, y: float, box: float) -> None:
        _draw_offline(doc, parent, x, y, box)
        _draw_unit(doc, parent, 0, "C", True, x, y, box)

    entries = [LegendEntry("North unit", unit(0, "C")),
               LegendEntry("South unit (ringed)", unit(1, "C")),
               LegendEntry("offline: out of its lines of communication (hatched, dashed "
                           "outline, yellow badge)", offline),
               LegendEntry("retreat due", retreat),
               LegendEntry("mountain", terrain("mountain")),
               LegendEntry("pass", terrain("pass")),
               LegendEntry("fort", terrain("fort")),
               LegendEntry("North arsenal", terrain("arsenal", _SIDE_COLOURS[0])),
               LegendEntry("South arsenal", terrain("arsenal", _SIDE_COLOURS[1])),
               LegendEntry("frontier", frontier),
               LegendEntry("I infantry, C cavalry, A artillery, H horse artillery, "
                           "R relay, M mounted relay (bold: fighting units)",
                           lambda doc, parent, x, y, box: None)]
    for side, name in ((0, "north-lines"), (1, "south-lines")):
        if name in marks:
            entries.append(LegendEntry(f"covered by {SIDE_NAMES[side]}'s lines",
                                       legend_swatch(_SIDE_COLOURS[side], opacity=0.25)))
    if last_move is not None:
        entries += _last_turn_legend()
        entries += [LegendEntry(f"{SIDE_NAMES[side]} unit in the last combat",
                                legend_line(_SIDE_COLOURS[side], width=1.5))
                    for side in (0, 1)]
    return entries


def svg(position: Position, *, last_move: Any = None,
        marks: frozenset[str] = frozenset()) -> str:
    """An SVG picture (§16.2), deterministic, with the text diagram in ``<desc>``: the map
    with its coordinates on all four edges, the units (South's ringed, offline ones faded, a
    unit due to retreat ringed in orange), the last turn's squares and its attack's
    contributing lines, a caption (:func:`caption_lines`) and a legend of the map's
    symbols; ``north-lines`` and ``south-lines`` tint the squares each side's lines of
    communication cover (each in its ``mark-<name>`` group)."""
    return svgs(position, last_move=last_move, mark_sets=[marks])[0]


def svgs(position: Position, *, last_move: Any = None,
         mark_sets: Sequence[frozenset[str]] = (frozenset(),)) -> list[str]:
    """:func:`svg` of ``position`` under each set of marks in ``mark_sets``: what the
    drawings share (all but the lines' tints and the legend) is built once."""
    return _drawings(position, last_move, mark_sets, SvgDocument.to_string)


def svg_runs(position: Position, *, last_move: Any = None,
             mark_sets: Sequence[frozenset[str]] = (frozenset(),)) -> list[tuple[str, ...]]:
    """:func:`svgs`, each drawing as its runs of whole lines (:meth:`SvgDocument.to_runs`),
    not joined into one text."""
    return _drawings(position, last_move, mark_sets, SvgDocument.to_runs)


@dataclasses.dataclass
class _Shared:
    """What every drawing of one position shows alike, whatever its marks: worked out (the
    text diagram, the caption, the offline units) once."""

    description: str
    caption: list[str]
    offline: frozenset[int]
    board: tuple[int, ...]


def _offline(position: Position) -> frozenset[int]:
    """The squares of both sides' offline units and relays."""
    offline: set[int] = set()
    for side in (0, 1):
        fighting, relays = position.offline_units(side)
        offline.update(fighting, relays)
    return frozenset(offline)


def _drawings(position: Position, last_move: Any, mark_sets: Sequence[frozenset[str]],
              written: Callable[[SvgDocument], _Drawing]) -> list[_Drawing]:
    """The drawing of ``position`` under each set of marks, each as ``written`` writes the
    document. One document is built: the layers every set draws alike (the map, the units,
    the last turn, the caption) once, and for each set its lines' tints (under the terrain)
    and its legend (which lists the marks on and sets the canvas's height)."""
    shared = _Shared(text_diagram(position), caption_lines(position), _offline(position),
                     tuple(position.board))
    width = _MARGIN * 2 + COLS * _CELL
    height = _MARGIN * 2 + ROWS * _CELL
    doc = SvgDocument(width, height, title=f"Game of War: {SIDE_NAMES[position.turn]} to move, "
                      f"turn {position.turn_number}",
                      description=shared.description, background="#f4efe1")

    doc.coordinates(_COORDINATE_LABELS, font_size=_COORDINATE_SIZE, key="game-of-war")
    # Every frame defines the same things in the same order (a viewer diffs frames).
    doc.arrow_marker(LAST_MOVE_LINE)
    doc.hatch_pattern(_OFFLINE_INK)
    # The map, a covered square and a unit in a given state are the same drawing in every
    # position: each is drawn once (the viewer draws every position of a game).
    doc.cached(doc.group("board"), ("game-of-war squares",), partial(_draw_squares, doc))
    lower = len(doc.root.children)
    under = doc.written_layers(doc.root.children)   # under the lines' tints
    doc.cached(doc.group("terrain"), ("game-of-war terrain", tuple(position.alive)),
               partial(_draw_map, doc, alive=tuple(position.alive)))
    doc.group("last-move")
    _draw_last_move(doc, doc.root.children[-1], position=position, last_move=last_move)
    _draw_units(doc, position, shared.offline, shared.board)
    doc.group("last-turn")
    _draw_last_turn_arrows(doc, doc.root.children[-1], last_move=last_move)
    doc.caption(shared.caption, margin=_MARGIN / 2, dark_to_move=None)
    # The layers over the tints, down to the caption.
    above = doc.written_layers(doc.root.children[lower:])
    below_legend = doc.height
    drawings: list[_Drawing] = []
    for marks in mark_sets:
        doc.root.children = under[:]
        covered = _covered(position, marks)
        for side, colour in enumerate(_SIDE_COLOURS):
            grid = covered[side]
            if grid is None:
                continue
            bits = grid.bits & ~_MOUNTAIN_BITS  # the squares drawn covered
            doc.cached(doc.mark_group(f"{SIDE_NAMES[side].lower()}-lines"),
                       ("game-of-war lines", side, bits),
                       partial(_draw_lines, doc, side=side, bits=bits))
        doc.root.children += above
        doc.height = below_legend  # each variant's legend starts where the shared layers end
        doc.legend(partial(_legend, last_move, marks), margin=_MARGIN / 2,
                   key=("game-of-war", marks, last_move is not None))
        drawings.append(written(doc))
    return drawings


_COORDINATE_LABELS = tuple(
    [(_MARGIN + c * _CELL + _HALF, y, str(c + 1))
     for c in range(COLS) for y in (_MARGIN - 6, _MARGIN * 2 + ROWS * _CELL - 6)]
    + [(x, _MARGIN + r * _CELL + 15, ROW_LETTERS[r])
       for r in range(ROWS) for x in (_MARGIN // 2, _MARGIN * 2 + COLS * _CELL - _MARGIN // 2)])
"""The map's coordinate labels, ``(x, y, text)``: columns above and below, rows on both
sides (the same in every drawing, drawn once and kept by :meth:`SvgDocument.coordinates`)."""


def _square_corner(s: int) -> tuple[int, int]:
    return _MARGIN + (s % COLS) * _CELL, _MARGIN + (s // COLS) * _CELL


def _draw_squares(doc: SvgDocument, board: Any) -> None:
    for s in range(SIZE):
        x, y = _square_corner(s)
        doc.element(board, "rect", x=x, y=y, width=_CELL, height=_CELL, fill="none",
                    stroke="#b9b09a", stroke_width=0.5)


_MOUNTAIN_BITS = sum(1 << s for s in range(SIZE) if TERRAIN[s] == MOUNTAIN)
_ALL_SQUARES = (1 << SIZE) - 1


def _draw_lines(doc: SvgDocument, layer: Any, side: int, bits: int) -> None:
    """The squares ``side``'s lines of communication cover (the set ``bits`` of squares,
    mountains left out)."""
    texts = []
    bits &= _ALL_SQUARES
    while bits:   # the squares in order, lowest first, met by their bits alone
        lowest = bits & -bits
        bits ^= lowest
        s = lowest.bit_length() - 1
        key = ("game-of-war covered", side, s)
        text = kept(key)
        if text is None:
            text = doc.kept_text(key, partial(_draw_covered, doc, side=side, square=s))
        texts.append(text)
    doc.add_text(layer, "".join(texts))


def _draw_covered(doc: SvgDocument, layer: Any, side: int, square: int) -> None:
    x, y = _square_corner(square)
    doc.element(layer, "rect", class_=f"covered {SIDE_NAMES[side].lower()}", x=x, y=y,
                width=_CELL, height=_CELL, fill=_SIDE_COLOURS[side], fill_opacity=0.12)


def _draw_map(doc: SvgDocument, terrain_layer: Any, alive: tuple[bool, ...]) -> None:
    """The map's features (the arsenals still standing: ``alive``) and the frontier."""
    for s in range(SIZE):
        x, y = _square_corner(s)
        terrain = TERRAIN[s]
        if terrain == MOUNTAIN:
            _draw_terrain(doc, terrain_layer, "mountain", x, y, _CELL)
        elif terrain == PASS:
            _draw_terrain(doc, terrain_layer, "pass", x, y, _CELL)
        elif terrain == FORT:
            _draw_terrain(doc, terrain_layer, "fort", x, y, _CELL)
        elif s in _ARSENAL_INDEX and alive[_ARSENAL_INDEX[s]]:
            _draw_terrain(doc, terrain_layer, "arsenal", x, y, _CELL,
                          _SIDE_COLOURS[ARSENAL_OWNER[s]])
    frontier = _MARGIN + _FRONTIER_ROW * _CELL
    doc.element(terrain_layer, "line", class_="frontier", x1=_MARGIN, y1=frontier,
                x2=_MARGIN + COLS * _CELL, y2=frontier, stroke="#000", stroke_width=1.5,
                stroke_dasharray="6,4")


def _draw_units(doc: SvgDocument, position: Position, offline: frozenset[int],
                board: tuple[int, ...]) -> None:
    """Every unit in square order (``board``: the position's, as a tuple), named, an
    offline one (on a square of ``offline``) marked, the one due to retreat ringed."""
    # The layer is kept whole: a position drawn with each display option draws it once.
    doc.cached(doc.group("pieces"), ("game-of-war units", board, offline, position.retreat),
               partial(_draw_unit_layer, doc, board=board, offline=offline,
                       retreat=position.retreat))


def _draw_unit_layer(doc: SvgDocument, units: Any, board: tuple[int, ...],
                     offline: frozenset[int], retreat: int | None) -> None:
    texts = []
    for s, v in enumerate(board):
        if not v:
            continue
        state = (s in offline, s == retreat)
        key = ("game-of-war unit", s, v, state)
        text = kept(key)
        if text is None:
            text = doc.kept_text(key, partial(_draw_placed_unit, doc, square=s, code=v,
                                              offline=state[0], retreat=state[1]))
        texts.append(text)
    doc.add_text(units, "".join(texts))


def _draw_placed_unit(doc: SvgDocument, units: Any, square: int, code: int, offline: bool,
                      retreat: bool) -> None:
    """The unit ``code`` on ``square``, named, marked when ``offline``, ringed when due to
    ``retreat``."""
    x, y = _square_corner(square)
    side = SIDE_OF[code]
    unit = doc.group(f"unit {SIDE_NAMES[side].lower()}" + (" offline" if offline else ""),
                     units, data_square=NAMES[square])
    doc.name(unit, unit_name(code) + (" (offline)" if offline else ""))
    if offline:
        _draw_offline(doc, unit, x, y, _CELL)
    if retreat:
        doc.element(unit, "circle", class_="retreat", cx=x + _HALF, cy=y + _HALF, r=11,
                    fill="none", stroke=_RETREAT_COLOUR, stroke_width=2)
    _draw_unit(doc, unit, side, CODE_LETTER[code].upper(), IS_FIGHTING[code], x, y, _CELL)


def _draw_last_move(doc: SvgDocument, layer: Any, position: Position, last_move: Any) -> None:
    """Into ``layer``: the squares the last turn left (green) and reached (blue), and its
    attack's contributing lines."""
    marked: set[int] = set()
    if isinstance(last_move, Turn):
        marked = {q for step in last_move.steps for q in (step.origin, step.target)}
        if last_move.attack is not None:
            marked.add(last_move.attack.target)
    elif isinstance(last_move, Step):
        marked = {last_move.origin, last_move.target}
    elif isinstance(last_move, Attack):
        marked = {last_move.target}
    origins = {step.origin for step in _steps(last_move)}
    for s in sorted(marked):
        x, y = _square_corner(s)
        doc.element(layer, "rect", x=x + 1, y=y + 1, width=_CELL - 2, height=_CELL - 2,
                    fill=LAST_MOVE_ORIGIN if s in origins else LAST_MOVE_TARGET)
    attack = last_move.attack if isinstance(last_move, Turn) else last_move
    if not isinstance(attack, Attack):
        return
    # The last attack's contributing lines, from the engine's record of the turn.
    event = next((e for e in position.last_events if e[0] == "attack"
                  and e[1] == attack.target), None)
    if event is None:
        return
    combat = event[3]
    tx, ty = _square_corner(attack.target)
    for parts, colour in ((combat.offence_parts, _SIDE_COLOURS[0]),
                          (combat.defence_parts, _SIDE_COLOURS[1])):
        for s, value, _ in parts:
            if s == attack.target or not value:
                continue
            x, y = _square_corner(s)
            doc.element(layer, "line", class_="combat", x1=x + _HALF, y1=y + _HALF,
                        x2=tx + _HALF, y2=ty + _HALF, stroke=colour, stroke_width=1.5,
                        stroke_opacity=0.7)


def _steps(last_move: Any) -> tuple[Step, ...]:
    """The unit moves of a last turn (a whole turn, or one of its actions)."""
    if isinstance(last_move, Turn):
        return last_move.steps
    return (last_move,) if isinstance(last_move, Step) else ()


def _draw_offline(doc: SvgDocument, parent: Any, x: float, y: float, cell: float) -> None:
    """An offline unit's marks under its letter: hatching, a dashed outline, and a yellow
    badge in the square's top right corner."""
    k = cell / _CELL
    doc.element(parent, "rect", class_="offline-mark", x=x + 1.5 * k, y=y + 1.5 * k,
                width=cell - 3 * k, height=cell - 3 * k, fill=doc.hatch_pattern(_OFFLINE_INK),
                fill_opacity=0.35, stroke=_OFFLINE_INK, stroke_width=1.5 * k,
                stroke_dasharray=f"{number(3 * k)},{number(2 * k)}")
    doc.element(parent, "circle", class_="offline-badge", cx=x + cell - 5 * k, cy=y + 5 * k,
                r=4 * k, fill=_OFFLINE_BADGE, stroke=_OFFLINE_INK, stroke_width=1.2 * k)


def _arrow_ends(origin: tuple[float, float], target: tuple[float, float]
                ) -> tuple[tuple[float, float], tuple[float, float]]:
    """An arrow from square centre to square centre, its ends pulled in so that the head
    stops at the target's letter and the tail clears the origin's."""
    (x1, y1), (x2, y2) = origin, target
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-9)
    pull = min(_CELL * 0.3, length / 3)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    return (x1 + ux * pull, y1 + uy * pull), (x2 - ux * pull, y2 - uy * pull)


def _draw_last_turn_arrows(doc: SvgDocument, layer: Any, last_move: Any) -> None:
    """Into ``layer``, above the units: an arrow from origin to destination for each unit
    the last turn moved, in the order they moved, and a red frame round its attack's
    target."""

    def centre(s: int) -> tuple[float, float]:
        x, y = _square_corner(s)
        return x + _HALF, y + _HALF

    for step in _steps(last_move):
        start, end = _arrow_ends(centre(step.origin), centre(step.target))
        doc.last_move_line(layer, [start, end], width=_ARROW_WIDTH, arrow=True,
                           css_class="step-arrow")
    attack = last_move.attack if isinstance(last_move, Turn) else last_move
    if isinstance(attack, Attack):
        x, y = _square_corner(attack.target)
        doc.element(layer, "rect", class_="attack-target", x=x + 1, y=y + 1, width=_CELL - 2,
                    height=_CELL - 2, fill="none", stroke=MARK_LINE, stroke_width=3)


def _last_turn_legend() -> list[LegendEntry]:
    def target(doc: SvgDocument, parent: Any, x: float, y: float, box: float) -> None:
        doc.element(parent, "rect", x=x + 1, y=y + 1, width=box - 2, height=box - 2,
                    fill="none", stroke=MARK_LINE, stroke_width=2.5)

    return [LegendEntry("last turn: a unit moved (arrow from where it was)",
                        legend_line(LAST_MOVE_LINE, arrow=True, width=_ARROW_WIDTH * 2)),
            LegendEntry("square left", legend_swatch(LAST_MOVE_ORIGIN)),
            LegendEntry("square reached", legend_swatch(LAST_MOVE_TARGET)),
            LegendEntry("attack target", target)]


def legend_svg(position: Position) -> str:
    """A standalone key (SVG) of the drawing: each unit type's letter and name for both
    sides, the offline marks, the map's symbols, the last turn's arrows and attack target
    (the same for every position: drawn once)."""
    return _key()


@functools.lru_cache(maxsize=1)
def _key() -> str:
    entries = [LegendEntry(f"{SIDE_NAMES[side]} {unit_type.name}",
                           _legend_unit(side, unit_type.letter))
               for side in (0, 1) for unit_type in UNIT_TYPES if unit_type is not None]
    entries += _legend(Turn(), frozenset())
    return legend_document("Game of War: key", entries, width=_MARGIN * 2 + COLS * _CELL)


def _legend_unit(side: int, letter: str) -> Any:
    def draw(doc: SvgDocument, parent: Any, x: float, y: float, box: float) -> None:
        _draw_unit(doc, parent, side, letter, True, x, y, box)
    return draw
