"""Elevation's position string (§3.2): parse and format, with exactly one spelling per
position, and the start of a record (§3.4).

``heights pieces side``, e.g. the default start
``333333/333333/333333/333333/333333/333333 sfddfs/6/6/6/6/SFDDFS w``. Heights of 10 and more
are written ``<n>``; empty runs are maximal. Anything else is rejected, so
``format_position(parse_position(s)) == s`` for every accepted ``s``. This module does not
judge whether a position could arise in play (§3.2 sets no limits on set-up positions).

>>> from notation_tools.games.elevation import GAME
>>> rules = GAME.parse_rules(None)
>>> pos = parse_position("3<12>3333/333333/333333/333333/333333/333333 6/6/6/6/6/S5 b", rules)
>>> pos.heights[31], pos.turn
(12, 1)
>>> format_position(pos)
'3<12>3333/333333/333333/333333/333333/333333 6/6/6/6/6/S5 b'
"""

from __future__ import annotations

from notation_tools.games.base import BadPositionError, Rules, Side, TagConflictError
from notation_tools.games.elevation.pieces import (
    PIECE_CHARS, PIECE_CODES, SIDE_NAMES, SIZE, SQUARE_COUNT, TALL_STACK)
from notation_tools.games.elevation.rules import Position
from notation_tools.games.runs import RankError, decode_rank, encode_rank

_SIDE_CHARS = "wb"


def _fail(message: str, offset: int) -> BadPositionError:
    return BadPositionError(f"bad Elevation position: {message}", rule="§3.2", offset=offset)


def _parse_heights(text: str, start: int) -> list[int]:
    ranks = text.split("/")
    if len(ranks) != SIZE:
        raise _fail(f"the heights need {SIZE} ranks separated by '/', found {len(ranks)}", start)
    heights = [0] * SQUARE_COUNT
    offset = start
    for rank_index, rank in enumerate(ranks):
        row: list[int] = []
        i = 0
        while i < len(rank):
            char = rank[i]
            if "0" <= char <= "9":
                row.append(int(char))
                i += 1
            elif char == "<":
                end = rank.find(">", i)
                number = rank[i + 1:end] if end > 0 else ""
                if end < 0 or not number.isdigit() or not number.isascii():
                    raise _fail("'<' must enclose a whole number and close with '>'", offset + i)
                if number[0] == "0" or int(number) < TALL_STACK:
                    raise _fail(f"<{number}> must be a number of {TALL_STACK} or more without a "
                                f"leading zero (heights below {TALL_STACK} are single digits)",
                                offset + i)
                row.append(int(number))
                i = end + 1
            else:
                raise _fail(f"unexpected {char!r} in the heights", offset + i)
        if len(row) != SIZE:
            raise _fail(f"height rank {SIZE - rank_index} has {len(row)} squares, not {SIZE}", offset)
        base = (SIZE - 1 - rank_index) * SIZE
        heights[base:base + SIZE] = row
        offset += len(rank) + 1
    return heights


def _parse_pieces(text: str, start: int) -> list[int]:
    """The board cells of the pieces field: each rank run-length encoded (``games.runs``)."""
    ranks = text.split("/")
    if len(ranks) != SIZE:
        raise _fail(f"the pieces need {SIZE} ranks separated by '/', found {len(ranks)}", start)
    board = [0] * SQUARE_COUNT
    offset = start
    for rank_index, rank in enumerate(ranks):
        try:
            row = decode_rank(rank, PIECE_CODES, width=SIZE)
        except RankError as error:
            raise _fail(f"piece rank {SIZE - rank_index}: {error.message} "
                        f"(S F D s f d, or 1-{SIZE} empty squares)", offset + error.offset) from None
        base = (SIZE - 1 - rank_index) * SIZE
        board[base:base + SIZE] = row
        offset += len(rank) + 1
    return board


def parse_position(text: str, rules: Rules) -> Position:
    """Parse a position string (§3.2) into a :class:`Position` under ``rules``.

    Raises :class:`BadPositionError` (``E-BAD-POSITION``) for anything but the one canonical
    spelling. Does not check piece counts or heights against ``max-height``.
    """
    if not isinstance(text, str):
        raise _fail(f"expected text, not {type(text).__name__}", 0)
    fields = text.split(" ")
    if len(fields) != 3:
        raise _fail("expected three fields separated by single spaces: heights, pieces, side", 0)
    heights_text, pieces_text, side_text = fields
    heights = _parse_heights(heights_text, 0)
    board = _parse_pieces(pieces_text, len(heights_text) + 1)
    if side_text not in ("w", "b"):
        raise _fail(f"the side to move is 'w' or 'b', not {side_text!r}",
                    len(heights_text) + len(pieces_text) + 2)
    return Position(rules, heights, board, _SIDE_CHARS.index(side_text))


def format_heights(heights: list[int]) -> str:
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        ranks.append("".join(str(h) if h < TALL_STACK else f"<{h}>"
                             for h in heights[rank * SIZE:(rank + 1) * SIZE]))
    return "/".join(ranks)


def format_pieces(board: list[int]) -> str:
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        ranks.append(encode_rank(board[rank * SIZE:(rank + 1) * SIZE], PIECE_CHARS.__getitem__))
    return "/".join(ranks)


def format_position(position: Position) -> str:
    """The canonical position string of ``position`` (§3.2)."""
    return (f"{format_heights(position.heights)} {format_pieces(position.board)} "
            f"{_SIDE_CHARS[position.turn]}")


def start_position(rules: Rules, *, fen: str | None = None,
                   first_player: Side | None = None) -> Position:
    """The start of a record (§3.3, §3.4): the position string ``fen`` when given (a
    disagreeing ``first_player`` is ``E-TAG-CONFLICT``), else the default start with
    ``first_player`` (White by default) to move.

    >>> from notation_tools.games.elevation import GAME
    >>> rules = GAME.parse_rules("initial-height=2")
    >>> format_position(start_position(rules, first_player=1))
    '222222/222222/222222/222222/222222/222222 sfddfs/6/6/6/6/SFDDFS b'
    """
    if fen is None:
        return Position.start(rules, 0 if first_player is None else first_player)
    position = parse_position(fen, rules)
    if first_player is not None and first_player != position.turn:
        raise TagConflictError(
            f"the FEN gives {SIDE_NAMES[position.turn]} to move but FirstPlayer says "
            f"{SIDE_NAMES[first_player]}", rule="§3.4")
    return position
