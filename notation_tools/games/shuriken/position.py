"""The Shuriken 2D position string (§5): parse and format, round trip exact; the start of a
record (§1.5, §2.1).

``row/row/.../row side``: 19 rows, top first, columns A..S; ``b``/``w`` stones, ``-`` hole
cells, a number for a run of empty cells (maximal runs only, so each position has one
spelling). The frame is implied. Rows are read and written by the shared run-length codec
(``games.runs``); this module adds the checks of the fixed cells (holes and pre-placed
stones). It does not check stone counts or reachability (§5).

>>> text = START_STRING
>>> format_position(parse_position(text)) == text
True
"""

from __future__ import annotations

import re

from notation_tools.games.base import BadPositionError, Side, TagConflictError
from notation_tools.games.runs import RankError, decode_rank, encode_rank
from notation_tools.games.shuriken.options import STANDARD_OPTIONS, Options
from notation_tools.games.shuriken.pieces import (
    BLACK, CELL_NAME, EMPTY, HOLE, HOLES, PRE_PLACED, SIDE_NAMES, SIZE, START_BOARD, WHITE,
    WIN_RANK, index_of)
from notation_tools.games.shuriken.rules import Position

START_STRING = ("19/19/19/12bbb4/11w---w3/11w---w3/11w---w3/12bbb4/19/19/19/4bbb12/3w---w11/"
                "3w---w11/3w---w11/4bbb12/19/19/19 b")
"""The start position (§1.5, §5)."""

_SYMBOL = {BLACK: "b", WHITE: "w", HOLE: "-"}
_CONTENT = {"b": BLACK, "w": WHITE, "-": HOLE}
_SIDE = {"b": 0, "w": 1}
_FIELD = re.compile(r"[0-9]+|.", re.DOTALL)
"""One field of a row as ``decode_rank`` reads it: a run of ASCII digits, or one character."""


def start_position(options: Options, *, fen: str | None = None,
                   first_player: Side | None = None) -> Position:
    """The standard start (§1.5) or the set-up position ``fen``, under ``options``.

    Black always places first (§2.1): a ``FirstPlayer`` of White without a ``FEN``, or one
    that contradicts the ``FEN``'s side to move, is :class:`TagConflictError`.

    >>> start_position(STANDARD_OPTIONS, first_player=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    notation_tools.games.base.TagConflictError: Shuriken 2D: Black always places first (§2.1); ...
    """
    if fen is None:
        if first_player not in (None, 0):
            raise TagConflictError("Shuriken 2D: Black always places first (§2.1); a "
                                   "FirstPlayer of White needs a FEN with White to move",
                                   rule="§2.1")
        return Position.start(options=options)
    position = parse_position(fen, options=options)
    if first_player is not None and first_player != position.turn:
        raise TagConflictError(f"FirstPlayer {SIDE_NAMES[first_player]} contradicts the "
                               f"FEN ({SIDE_NAMES[position.turn]} to move)", rule="§5")
    return position


def parse_position(text: str, *, options: Options = STANDARD_OPTIONS) -> Position:
    """The position that ``text`` describes (§5), played under ``options``.

    Raises :class:`BadPositionError` (``E-BAD-POSITION``) naming the row and column at fault:
    a malformed row, a row that is not 19 cells, a hole not written ``-`` (or ``-`` off a
    hole), a pre-placed cell without its stone, a bad side, or a position in which both
    players have won. Within a row the leftmost fault is reported, a fixed cell's included.

    >>> parse_position(START_STRING).turn
    0
    >>> parse_position("19 b")
    Traceback (most recent call last):
    ...
    notation_tools.games.base.BadPositionError: position has 1 row, not 19
    """
    if not isinstance(text, str):
        raise BadPositionError(f"a position string is text, not {type(text).__name__}",
                               rule="§5")
    board_text, space, side_text = text.partition(" ")
    rows = board_text.split("/")
    if len(rows) != SIZE:
        raise BadPositionError(f"position has {len(rows)} row{'s' * (len(rows) != 1)}, "
                               f"not {SIZE}", rule="§5")
    if not space or side_text not in _SIDE:
        raise BadPositionError(f"side to move must be 'b' or 'w' after one space, not "
                               f"{side_text!r}", rule="§5",
                               offset=min(len(board_text) + 1, len(text)))
    board = list(START_BOARD)
    offset = 0
    for row, row_text in enumerate(rows, start=1):
        for col, content in enumerate(_parse_row(row, row_text, offset), start=1):
            board[index_of(row, col)] = content
        offset += len(row_text) + 1
    position = Position(board, _SIDE[side_text], options=options,
                        standard_start=text == START_STRING)
    if position.ranks[BLACK] >= WIN_RANK and position.ranks[WHITE] >= WIN_RANK:
        raise BadPositionError("both players have two loops, which no board allows",
                               rule="§4.2")
    return position


def _parse_row(row: int, text: str, offset: int) -> list[int]:
    """The 19 cells of row ``row`` written ``text`` (at ``offset`` in the position string).

    ``decode_rank`` reads the row; the fixed cells are checked on the fields before its first
    fault, so that the leftmost fault of the row is the one reported."""
    try:
        cells = decode_rank(text, _CONTENT, width=SIZE, empty=EMPTY)
    except RankError as error:
        _check_fixed_cells(row, text, offset)
        raise BadPositionError(f"row {row}: {error.message}", rule="§5",
                               offset=offset + error.offset) from None
    _check_fixed_cells(row, text, offset)
    return cells


def _check_fixed_cells(row: int, text: str, offset: int) -> None:
    """Check the holes and pre-placed stones of the well-formed fields at the start of
    ``text`` (all of them when ``decode_rank`` read the row), each at its field's offset."""
    col = 1
    for match in _FIELD.finditer(text):
        field = match.group()
        if field[0] in "0123456789":
            if field[0] == "0" or len(field) > len(str(SIZE)) or col + int(field) - 1 > SIZE:
                return   # a bad run, or one past the row's end: decode_rank's fault
            contents = [EMPTY] * int(field)
        elif field in _CONTENT and col <= SIZE:
            contents = [_CONTENT[field]]
        else:
            return       # an unknown symbol, or one past the row's end
        for content in contents:
            _check_fixed(index_of(row, col), content, offset + match.start())
            col += 1


def _check_fixed(cell: int, content: int, offset: int) -> None:
    name = CELL_NAME[cell]
    if cell in HOLES:
        if content != HOLE:
            raise BadPositionError(f"{name} is a hole of window {HOLES[cell]} and must be "
                                   "written '-'", rule="§1.2", offset=offset)
    elif content == HOLE:
        raise BadPositionError(f"{name} is not a hole cell, '-' is not allowed there",
                               rule="§1.2", offset=offset)
    elif cell in PRE_PLACED and PRE_PLACED[cell][0] != content:
        colour, window, side = PRE_PLACED[cell]
        raise BadPositionError(f"{name} must hold its pre-placed {SIDE_NAMES[colour - 1].lower()} "
                               f"stone ({side} of {window})", rule="§1.4", offset=offset)


def format_position(position: Position) -> str:
    """The canonical position string of ``position`` (§5): maximal runs, frame implied.

    >>> from notation_tools.games.shuriken.moves import Place
    >>> pos = parse_position(START_STRING)
    >>> pos.push(Place(10, 11))
    >>> format_position(pos).split("/")[9:11]
    ['10b8', '19']
    """
    board = position.board
    rows = []
    for row in range(1, SIZE + 1):
        cells = (board[index_of(row, col)] for col in range(1, SIZE + 1))
        rows.append(encode_rank(cells, _SYMBOL.__getitem__, empty=EMPTY))
    return "/".join(rows) + " " + "bw"[position.turn]


def check_start_string() -> list[str]:
    """Problems with :data:`START_STRING`: it must parse and round-trip (``check_data``).

    >>> check_start_string()
    []
    """
    try:
        start = parse_position(START_STRING)
    except BadPositionError as error:   # pragma: no cover - only if the tables are broken
        return [f"start string: {error.message}"]
    if format_position(start) != START_STRING:
        return ["start string does not round-trip"]
    return []
