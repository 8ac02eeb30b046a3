"""The Shih position string (§3.2): parse and format, and a record's start (§3.3, §3.4).

``walls pieces spins side [score]``, e.g. the default start::

    9S/11S/13S/15S/15S/13S/11S/9S bbbbbbbbb/1b1b1b1b1b1/13/15/15/13/1r1r1r1r1r1/rrrrrrrrr 22 b

This module reads and writes text only; it does not judge whether a position could arise in
play (beyond the limits §3.2 names). Each rank of the pieces field is read by the shared
:func:`~notation_tools.games.runs.decode_rank`; the walls field has its own reader, since its
counts repeat a letter instead of counting empty spaces.

>>> from notation_tools.games.shih import GAME
>>> rules = GAME.parse_rules("standard")
>>> format_position(parse_position(DEFAULT_START, rules)) == DEFAULT_START
True
>>> format_position(parse_position("SSSSSSSSS/11S/13S/15S/15S/13S/11S/9S 9/11/13/15/15/13/11/9 00 r 1-0", rules))
'9S/11S/13S/15S/15S/13S/11S/9S 9/11/13/15/15/13/11/9 00 r 1-0'
"""

from __future__ import annotations

from notation_tools.games.base import (BadPositionError, Rules, Side, TagConflictError,
                                       options_of)
from notation_tools.games.runs import RankError, decode_rank, encode_rank
from notation_tools.games.shih.options import Options
from notation_tools.games.shih.pieces import (BLUE, EMPTY, MAX_WIDTH, PIECE_LETTERS,
                                              PIECES_PER_PLAYER, RED, ROW_COUNT, ROWS,
                                              SIDE_LETTERS, SIDE_NAMES, SIDE_OF_LETTER, WIDTHS)
from notation_tools.games.shih.rules import Position

DEFAULT_START = ("9S/11S/13S/15S/15S/13S/11S/9S "
                 "bbbbbbbbb/1b1b1b1b1b1/13/15/15/13/1r1r1r1r1r1/rrrrrrrrr 22 b")
"""The reconstructed default start of §3.4 (all walls on ``S``), Blue to move."""

_SPINS_FIELD = " 22 "
"""The spins field of :data:`DEFAULT_START`, replaced by ``power-spins-per-player``."""

_PIECE_OF_LETTER = {letter: side for side, letter in enumerate(PIECE_LETTERS)}
_LETTER_OF_SIDE = tuple(name[0].lower() for name in SIDE_NAMES)
"""The side-to-move field: ``b`` or ``r`` (§3.2)."""
_SIDE_OF_LETTER = {letter: side for side, letter in enumerate(_LETTER_OF_SIDE)}
_DIGITS = frozenset("0123456789")
_WALLS, _PIECES, _SPINS, _SIDE, _SCORE = range(5)
"""The fields of a position string, in order (§3.2)."""
_FIELDS = (_SCORE, _SCORE + 1)
"""A position string has four fields, or five with the score (§3.2)."""


def start_position(rules: Rules, *, fen: str | None = None,
                   first_player: Side | None = None) -> Position:
    """The record's start (§3.3): its FEN, or the reconstructed default start (§3.4).

    Raises BadPositionError for a bad FEN or ``pieces-per-player=16`` without one, and
    TagConflictError when a FirstPlayer tag contradicts the FEN's side to move.
    """
    if fen is not None:
        start = parse_position(fen, rules)
        if first_player is not None and first_player != start.turn:
            raise TagConflictError(f"FirstPlayer {SIDE_NAMES[first_player]} contradicts the "
                                   f"FEN, which has {SIDE_NAMES[start.turn]} to move",
                                   rule="§3.3")
        return start
    options = options_of(Options, rules)
    if options.pieces_per_player != PIECES_PER_PLAYER:
        raise BadPositionError(f"no default start for {options.pieces_per_player} pieces; give "
                               "SetUp/FEN", rule="§3.3")
    spins = options.power_spins_per_player
    start = parse_position(DEFAULT_START.replace(_SPINS_FIELD, f" {spins}{spins} "), rules)
    turn = first_player if first_player is not None else options.first_side
    # A new position, not start.turn = turn: the position notes its key for repetitions.
    return Position(rules, start.walls, start.board, start.spins, turn)


def _count(text: str, at: int, base: int, field: str) -> tuple[int, int]:
    """A wall ``count`` (1..15, no leading zero) starting at ``text[at]``; returns
    (value, end)."""
    end = at
    while end < len(text) and text[end] in _DIGITS:
        end += 1
    digits = text[at:end]
    if digits[0] == "0" or int(digits) > MAX_WIDTH:
        raise BadPositionError(f"{field}: count {digits!r} is not 1..{MAX_WIDTH}", rule="§3.2",
                               offset=base + at)
    return int(digits), end


def _rows(field: str, name: str, base: int) -> list[tuple[str, int]]:
    rows = field.split("/")
    if len(rows) != ROW_COUNT:
        raise BadPositionError(f"{name} field has {len(rows)} rows, not {ROW_COUNT}",
                               rule="§3.2", offset=base)
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
    """The pieces field: each rank through the shared run-length reader (runs of empty
    spaces, 1 to the row's width, never two side by side)."""
    board: list[int] = []
    for row, (text, at) in enumerate(_rows(field, "pieces", base)):
        try:
            board.extend(decode_rank(text, _PIECE_OF_LETTER, width=WIDTHS[row], empty=EMPTY))
        except RankError as error:
            raise BadPositionError(f"pieces row {ROWS[row]}: {error.message}", rule="§3.2",
                                   offset=at + error.offset) from None
    return board


def _number(text: str, offset: int) -> int:
    if not text or not set(text) <= _DIGITS or (len(text) > 1 and text[0] == "0"):
        raise BadPositionError(f"score: {text!r} is not a number", rule="§3.2", offset=offset)
    return int(text)


def parse_position(text: str, rules: Rules) -> Position:
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
    if len(fields) not in _FIELDS or "" in fields:
        raise BadPositionError(f"a position has 4 or 5 fields separated by single spaces "
                               f"(walls pieces spins side [score]), not {len(fields)}",
                               rule="§3.2")
    starts = [0]
    for field in fields[:-1]:
        starts.append(starts[-1] + len(field) + 1)
    walls = _parse_walls(fields[_WALLS], starts[_WALLS])
    board = _parse_pieces(fields[_PIECES], starts[_PIECES])
    spins_text = fields[_SPINS]
    options = options_of(Options, rules)
    limit = options.power_spins_per_player
    if len(spins_text) != len(SIDE_NAMES) or not set(spins_text) <= _DIGITS:
        raise BadPositionError(f"spins field {spins_text!r} is not two digits (Blue, Red)",
                               rule="§3.2", offset=starts[_SPINS])
    spins = [int(digit) for digit in spins_text]
    for side, count in enumerate(spins):
        if count > limit:
            raise BadPositionError(f"spins field: {SIDE_NAMES[side]} has {count} Power "
                                   f"Spins, above power-spins-per-player={limit}",
                                   rule="§3.2", offset=starts[_SPINS] + side)
    turn = _SIDE_OF_LETTER.get(fields[_SIDE])
    if turn is None:
        raise BadPositionError(f"side to move {fields[_SIDE]!r} is not b or r", rule="§3.2",
                               offset=starts[_SIDE])
    score = [0, 0]
    pieces = options.pieces_per_player
    if len(fields) > _SCORE:
        at = starts[_SCORE]
        first, dash, second = fields[_SCORE].partition("-")
        if not dash:
            raise BadPositionError(f"score {fields[_SCORE]!r} is not N-N", rule="§3.2",
                                   offset=at)
        score = [_number(first, at), _number(second, at + len(first) + 1)]
        for side, count in enumerate(score):
            if count > pieces:
                raise BadPositionError(f"score: {count} captured by {SIDE_NAMES[side]} is "
                                       f"above {pieces}", rule="§3.2", offset=at)
    for side in (BLUE, RED):
        on_board = board.count(side)
        if on_board > pieces:
            raise BadPositionError(f"{SIDE_NAMES[side]} has {on_board} pieces on the "
                                   f"board, above pieces-per-player={pieces}", rule="§2",
                                   offset=starts[_PIECES])
    return Position(rules, walls, board, spins, turn, score)


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


def format_position(position: Position) -> str:
    """The canonical §3.2 string: maximal runs, score left out when it is ``0-0``."""
    text = (f"{_format_walls(position.walls)} {_format_pieces(position.board)} "
            f"{position.spins[BLUE]}{position.spins[RED]} {_LETTER_OF_SIDE[position.turn]}")
    if position.score[BLUE] or position.score[RED]:
        text += f" {position.score[BLUE]}-{position.score[RED]}"
    return text
