"""The Shuriken 2D position string (spec §5): parse and format, round trip exact.

``row/row/.../row side``: 19 rows, top first, columns A..S; ``b``/``w`` stones, ``-`` hole
cells, a number for a run of empty cells (maximal runs only, so each position has one
spelling). The frame is implied. This module checks the string's form and the fixed cells
(holes and pre-placed stones); it does not check stone counts or reachability (§5).

>>> text = START_STRING
>>> format_position(parse_position(text)) == text
True
"""

from __future__ import annotations

from notation_tools.games.runs import encode_rank
from notation_tools.games.base import BadPositionError
from notation_tools.games.shuriken.pieces import (
    BLACK, CELL_NAME, EMPTY, HOLE, HOLES, PRE_PLACED, SIDE_NAMES, SIZE, START_BOARD, WHITE,
    index_of)
from notation_tools.games.shuriken.rules import ShurikenPosition

START_STRING = ("19/19/19/12bbb4/11w---w3/11w---w3/11w---w3/12bbb4/19/19/19/4bbb12/3w---w11/"
                "3w---w11/3w---w11/4bbb12/19/19/19 b")
"""The start position (§1.5, §5)."""

_SYMBOL = {BLACK: "b", WHITE: "w", HOLE: "-"}
_CONTENT = {"b": BLACK, "w": WHITE, "-": HOLE}
_SIDE = {"b": 0, "w": 1}


def parse_position(text: str, *, swap_allowed: bool = False) -> ShurikenPosition:
    """The position that ``text`` describes (§5).

    Raises :class:`BadPositionError` (``E-BAD-POSITION``) naming the row and column at fault:
    a malformed row, a row that is not 19 cells, a hole not written ``-`` (or ``-`` off a
    hole), a pre-placed cell without its stone, a bad side, or a position in which both
    players have won.

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
        raise BadPositionError(f"position has {len(rows)} row{'s' * (len(rows) != 1)}, not 19",
                               rule="§5")
    if not space or side_text not in _SIDE:
        raise BadPositionError(f"side to move must be 'b' or 'w' after one space, not "
                               f"{side_text!r}", rule="§5",
                               offset=min(len(board_text) + 1, len(text)))
    board = list(START_BOARD)
    offset = 0
    for row, row_text in enumerate(rows, start=1):
        _parse_row(row, row_text, board, offset)
        offset += len(row_text) + 1
    position = ShurikenPosition(board, _SIDE[side_text], swap_allowed=swap_allowed,
                                standard_start=text == START_STRING)
    if position.ranks[BLACK] >= 2 and position.ranks[WHITE] >= 2:
        raise BadPositionError("both players have two loops, which no board allows",
                               rule="§4.2")
    return position


def _parse_row(row: int, text: str, board: list[int], offset: int) -> None:
    col = 1
    i = 0
    while i < len(text):
        char = text[i]
        if char.isdigit() and char.isascii():
            j = i
            while j < len(text) and text[j].isdigit() and text[j].isascii():
                j += 1
            # A run is 1..19 with no leading zero, so each position has one spelling (§5).
            if text[i] == "0" or j - i > 2 or int(text[i:j]) > SIZE:
                raise BadPositionError(f"row {row}: bad run length {text[i:j][:6]!r}",
                                       rule="§5", offset=offset + i)
            run = int(text[i:j])
            if col + run - 1 > SIZE:
                raise BadPositionError(f"row {row} has more than 19 cells", rule="§5",
                                       offset=offset + i)
            for _ in range(run):
                cell = index_of(row, col)
                _check_fixed(cell, EMPTY, offset + i)
                board[cell] = EMPTY
                col += 1
            i = j
            continue
        content = _CONTENT.get(char)
        if content is None:
            raise BadPositionError(f"row {row}: unexpected {char!r} (b, w, -, or a number)",
                                   rule="§5", offset=offset + i)
        if col > SIZE:
            raise BadPositionError(f"row {row} has more than 19 cells", rule="§5",
                                   offset=offset + i)
        cell = index_of(row, col)
        _check_fixed(cell, content, offset + i)
        board[cell] = content
        col += 1
        i += 1
    if col != SIZE + 1:
        raise BadPositionError(f"row {row} has {col - 1} cells, not 19", rule="§5",
                               offset=offset)


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


def format_position(position: ShurikenPosition) -> str:
    """The canonical position string of ``position`` (§5): maximal runs, frame implied.

    >>> from notation_tools.games.shuriken.rules import Place
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
