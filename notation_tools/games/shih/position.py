"""The Shih position string (spec §3.2): parse and format, and the default start (§3.4).

``walls pieces spins side [score]``, e.g. the default start::

    9S/11S/13S/15S/15S/13S/11S/9S bbbbbbbbb/1b1b1b1b1b1/13/15/15/13/1r1r1r1r1r1/rrrrrrrrr 22 b

This module reads and writes text only; it does not judge whether a position could arise in
play (beyond the limits §3.2 names).

>>> from notation_tools.games.shih import GAME
>>> rules = GAME.parse_rules("standard")
>>> format_position(parse_position(DEFAULT_START, rules)) == DEFAULT_START
True
>>> format_position(parse_position("SSSSSSSSS/11S/13S/15S/15S/13S/11S/9S 9/11/13/15/15/13/11/9 00 r 1-0", rules))
'9S/11S/13S/15S/15S/13S/11S/9S 9/11/13/15/15/13/11/9 00 r 1-0'
"""

from __future__ import annotations

from notation_tools.games.runs import encode_rank
from ..base import BadPositionError, Rules
from .pieces import EMPTY, PIECE_LETTERS, ROWS, SIDE_LETTERS, SIDE_OF_LETTER, WIDTHS
from .rules import ShihPosition

DEFAULT_START = ("9S/11S/13S/15S/15S/13S/11S/9S "
                 "bbbbbbbbb/1b1b1b1b1b1/13/15/15/13/1r1r1r1r1r1/rrrrrrrrr 22 b")
"""The reconstructed default start of §3.4 (all walls on ``S``), Blue to move."""

_PIECE_OF_LETTER = {"b": 0, "r": 1}
_DIGITS = frozenset("0123456789")


def _count(text: str, at: int, base: int, field: str) -> tuple[int, int]:
    """A ``count`` (1..15, no leading zero) starting at ``text[at]``; returns (value, end)."""
    end = at
    while end < len(text) and text[end] in _DIGITS:
        end += 1
    digits = text[at:end]
    if digits[0] == "0" or int(digits) > 15:
        raise BadPositionError(f"{field}: count {digits!r} is not 1..15", rule="§3.2",
                               offset=base + at)
    return int(digits), end


def _rows(field: str, name: str, base: int) -> list[tuple[str, int]]:
    rows = field.split("/")
    if len(rows) != 8:
        raise BadPositionError(f"{name} field has {len(rows)} rows, not 8", rule="§3.2",
                               offset=base)
    located = []
    for row in rows:
        located.append((row, base))
        base += len(row) + 1
    return located


def _parse_walls(field: str, base: int) -> list[int]:
    walls: list[int] = []
    for row, (text, at) in enumerate(_rows(field, "walls", base)):
        expanded: list[int] = []
        index = 0
        while index < len(text):
            run = 1
            if text[index] in _DIGITS:
                run, index = _count(text, index, at, f"walls row {ROWS[row]}")
                if index == len(text):
                    raise BadPositionError(f"walls row {ROWS[row]}: a count must be followed "
                                           "by H, S or B", rule="§3.2", offset=at + index)
            side = SIDE_OF_LETTER.get(text[index])
            if side is None:
                raise BadPositionError(f"walls row {ROWS[row]}: {text[index]!r} is not a wall "
                                       "(H, S or B)", rule="§3.2", offset=at + index)
            expanded.extend([side] * run)
            index += 1
        if len(expanded) != WIDTHS[row]:
            raise BadPositionError(f"walls row {ROWS[row]} expands to {len(expanded)} spaces, "
                                   f"not {WIDTHS[row]}", rule="§3.2", offset=at)
        walls.extend(expanded)
    return walls


def _parse_pieces(field: str, base: int) -> list[int]:
    board: list[int] = []
    for row, (text, at) in enumerate(_rows(field, "pieces", base)):
        expanded: list[int] = []
        index = 0
        if not text:
            raise BadPositionError(f"pieces row {ROWS[row]} is empty", rule="§3.2", offset=at)
        while index < len(text):
            if text[index] in _DIGITS:
                run, index = _count(text, index, at, f"pieces row {ROWS[row]}")
                expanded.extend([EMPTY] * run)
                continue
            piece = _PIECE_OF_LETTER.get(text[index])
            if piece is None:
                raise BadPositionError(f"pieces row {ROWS[row]}: {text[index]!r} is not a "
                                       "piece (b or r) or a count", rule="§3.2",
                                       offset=at + index)
            expanded.append(piece)
            index += 1
        if len(expanded) != WIDTHS[row]:
            raise BadPositionError(f"pieces row {ROWS[row]} expands to {len(expanded)} "
                                   f"spaces, not {WIDTHS[row]}", rule="§3.2", offset=at)
        board.extend(expanded)
    return board


def _number(text: str, offset: int) -> int:
    if not text or not set(text) <= _DIGITS or (len(text) > 1 and text[0] == "0"):
        raise BadPositionError(f"score: {text!r} is not a number", rule="§3.2", offset=offset)
    return int(text)


def parse_position(text: str, rules: Rules) -> ShihPosition:
    """Parse a §3.2 position string under ``rules``.

    Raises BadPositionError (E-BAD-POSITION) naming the field: wrong field or row count, a row
    that does not expand to its width, a bad letter, a spin count above
    ``power-spins-per-player``, a score above the pieces per player (14 by default), or more
    pieces of one side on the board than ``pieces-per-player``. Does not check that the
    position is reachable from any start.
    """
    if not isinstance(text, str):
        raise BadPositionError("a position string must be text", rule="§3.2")
    fields = text.split(" ")
    if len(fields) not in (4, 5) or "" in fields:
        raise BadPositionError(f"a position has 4 or 5 fields separated by single spaces "
                               f"(walls pieces spins side [score]), not {len(fields)}",
                               rule="§3.2")
    starts = [0]
    for field in fields[:-1]:
        starts.append(starts[-1] + len(field) + 1)
    walls = _parse_walls(fields[0], starts[0])
    board = _parse_pieces(fields[1], starts[1])
    spins_text = fields[2]
    limit = rules["power-spins-per-player"]
    if len(spins_text) != 2 or not set(spins_text) <= _DIGITS:
        raise BadPositionError(f"spins field {spins_text!r} is not two digits (Blue, Red)",
                               rule="§3.2", offset=starts[2])
    spins = [int(spins_text[0]), int(spins_text[1])]
    for side, count in enumerate(spins):
        if count > limit:
            raise BadPositionError(f"spins field: {('Blue', 'Red')[side]} has {count} Power "
                                   f"Spins, above power-spins-per-player={limit}",
                                   rule="§3.2", offset=starts[2] + side)
    if fields[3] not in ("b", "r"):
        raise BadPositionError(f"side to move {fields[3]!r} is not b or r", rule="§3.2",
                               offset=starts[3])
    turn = 0 if fields[3] == "b" else 1
    score = [0, 0]
    pieces = rules["pieces-per-player"]
    if len(fields) == 5:
        first, dash, second = fields[4].partition("-")
        if not dash:
            raise BadPositionError(f"score {fields[4]!r} is not N-N", rule="§3.2",
                                   offset=starts[4])
        score = [_number(first, starts[4]), _number(second, starts[4] + len(first) + 1)]
        for side, count in enumerate(score):
            if count > pieces:
                raise BadPositionError(f"score: {count} captured by {('Blue', 'Red')[side]} is "
                                       f"above {pieces}", rule="§3.2", offset=starts[4])
    for side in (0, 1):
        on_board = board.count(side)
        if on_board > pieces:
            raise BadPositionError(f"{('Blue', 'Red')[side]} has {on_board} pieces on the "
                                   f"board, above pieces-per-player={pieces}", rule="§2",
                                   offset=starts[1])
    return ShihPosition(rules, walls, board, spins, turn, score)


def _format_walls(walls: list[int]) -> str:
    rows = []
    start = 0
    for width in WIDTHS:
        row = walls[start:start + width]
        start += width
        parts = []
        index = 0
        while index < width:
            end = index
            while end < width and row[end] == row[index]:
                end += 1
            run = end - index
            parts.append(f"{run if run > 1 else ''}{SIDE_LETTERS[row[index]]}")
            index = end
        rows.append("".join(parts))
    return "/".join(rows)


def _format_pieces(board: list[int]) -> str:
    rows = []
    start = 0
    for width in WIDTHS:
        rows.append(encode_rank(board[start:start + width], PIECE_LETTERS.__getitem__,
                                empty=EMPTY))
        start += width
    return "/".join(rows)


def format_position(position: ShihPosition) -> str:
    """The canonical §3.2 string: maximal runs, score left out when it is ``0-0``."""
    text = (f"{_format_walls(position.walls)} {_format_pieces(position.board)} "
            f"{position.spins[0]}{position.spins[1]} {'br'[position.turn]}")
    if position.score[0] or position.score[1]:
        text += f" {position.score[0]}-{position.score[1]}"
    return text
