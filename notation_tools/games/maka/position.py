"""The Maka-Dai-Dai Shogi position string codec (§5) and the start of a record (§4, §6.15).

``board side move-number``: 19 comma-separated rank fields (a..s, files 19..1), ``v`` marks
White, ``+G`` is a gold-promoted Gold. Exactly one string per position: each rank is read
and written by the shared run-length codec (``games.runs``).

This module does not judge whether a position could arise in play.

>>> from notation_tools.games.maka import GAME
>>> rules = GAME.parse_rules(None)
>>> text = "18,vK/" + "19/" * 17 + "K,18 b 1"
>>> format_position(parse_position(text, rules)) == text
True
"""

from __future__ import annotations

import functools

from notation_tools.games.base import BadPositionError, Rules, Side, TagConflictError
from notation_tools.games.maka.pieces import RANKS, SIDE_NAMES, SIZE, ABBR_OF_ID, TYPE_ID, TYPES
from notation_tools.games.maka.rules import ZOBRIST_WHITE, Position
from notation_tools.games.runs import RankError, decode_rank, encode_rank

INITIAL = (
    "vL,vEa,vSt,vT,vI,vC,vS,vG,vDSp,vK,vDV,vG,vS,vC,vI,vT,vSt,vEa,vL/"
    "vRC,1,vCSw,1,vOM,1,vRD,vFL,vBT,vDE,vBT,vFL,vCS,1,vCC,1,vCSw,1,vRC/"
    "1,vOR,1,vAB,1,vBB,1,vEW,vPh,vLn,vKy,vEW,1,vBB,1,vAB,1,vOR,1/"
    "vDo,1,vN,1,vVO,1,vFD,vSD,vGG,vLD,vWr,vBDe,vFD,1,vVO,1,vN,1,vDo/"
    "vR,vRCh,vSM,vSF,vVM,vB,vDH,vDK,vHM,vFK,vCa,vDK,vDH,vB,vVM,vSF,vSM,vLCh,vR/"
    "vP,vP,vP,vP,vP,vP,vP,vP,vP,vP,vP,vP,vP,vP,vP,vP,vP,vP,vP/5,vGB,7,vGB,5/19/19/19/19/19/"
    "5,GB,7,GB,5/P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P/"
    "R,LCh,SM,SF,VM,B,DH,DK,Ca,FK,HM,DK,DH,B,VM,SF,SM,RCh,R/"
    "Do,1,N,1,VO,1,FD,BDe,Wr,LD,GG,SD,FD,1,VO,1,N,1,Do/"
    "1,OR,1,AB,1,BB,1,EW,Ky,Ln,Ph,EW,1,BB,1,AB,1,OR,1/"
    "RC,1,CSw,1,CC,1,CS,FL,BT,DE,BT,FL,RD,1,OM,1,CSw,1,RC/"
    "L,Ea,St,T,I,C,S,G,DV,K,DSp,G,S,C,I,T,St,Ea,L b 1")
"""The initial position (§4)."""

SEPARATOR = ","
"""Between the cells of a rank (designations have several letters, §5)."""
WHITE_MARK = "v"
"""Before a White piece's designation (§5)."""
SIDE_LETTERS = "bw"
"""The side-to-move field, indexed by side (§5)."""


def cell_text(code: int) -> str:
    """The position-string cell of a piece code (``vFK``, ``+G``)."""
    return (WHITE_MARK if code & 1 else "") + ABBR_OF_ID[code >> 1]


CELL_CODES = {cell_text(TYPE_ID[t.abbr] * 2 + side): TYPE_ID[t.abbr] * 2 + side
              for t in TYPES for side in (0, 1)}
"""Every piece cell of a rank field and its piece code (no aliases, §5)."""


def _bad(message: str, offset: int = 0) -> BadPositionError:
    return BadPositionError(message, rule="§5", offset=offset)


def parse_board(text: str) -> list[int]:
    """The 361 cells of a board field; raises :class:`BadPositionError` (E-BAD-POSITION)
    naming the rank and cell, at the fault's offset in ``text``.

    >>> try:
    ...     parse_board("19/" * 4 + "vL,vEa,vSt,Fg,15/" + "19/" * 13 + "19")
    ... except BadPositionError as error:
    ...     print(error.message, "at", error.offset)
    rank e, cell 4: unexpected 'Fg' at 23
    """
    ranks = text.split("/")
    if len(ranks) != SIZE:
        raise _bad(f"the board has {len(ranks)} ranks, not {SIZE}")
    board: list[int] = []
    offset = 0
    for letter, field in zip(RANKS, ranks):
        try:
            board.extend(decode_rank(field, CELL_CODES, width=SIZE, separator=SEPARATOR))
        except RankError as error:
            cell = field.count(SEPARATOR, 0, error.offset) + 1
            where = f"rank {letter}" if error.whole else f"rank {letter}, cell {cell}"
            raise _bad(f"{where}: {error.message}", offset + error.offset) from None
        offset += len(field) + 1
    return board


def parse_position(text: str, rules: Rules) -> Position:
    """Parse a position string (§5); raises :class:`BadPositionError` (E-BAD-POSITION)."""
    if not isinstance(text, str):
        raise _bad("a position string is text")
    parts = text.split(" ")
    if len(parts) != 3:
        raise _bad("a position string is: board, side to move (b/w), move number")
    board_text, side, number = parts
    board = parse_board(board_text)
    if side not in SIDE_LETTERS or len(side) != 1:
        raise _bad(f'side to move must be "b" or "w", not "{side}"', len(board_text) + 1)
    if not number.isdigit() or number[0] == "0" or not number.isascii():
        raise _bad(f'move number "{number}" is not a positive number without leading zeros',
                   len(board_text) + len(side) + 2)
    return Position(board, SIDE_LETTERS.index(side), int(number), rules)


def format_board(board: list[int]) -> str:
    """The board field of a position string."""
    return "/".join(encode_rank(board[row * SIZE:(row + 1) * SIZE], cell_text,
                                separator=SEPARATOR) for row in range(SIZE))


def format_position(position: Position) -> str:
    """The canonical position string (§5)."""
    return f"{format_board(position.board)} {SIDE_LETTERS[position.turn]} {position.move_number}"


@functools.lru_cache(maxsize=16)
def _initial(rules: Rules) -> Position:
    """The initial position under ``rules``, read once: a record starts from a copy."""
    return parse_position(INITIAL, rules)


def start_position(rules: Rules, fen: str | None = None,
                   first_player: Side | None = None) -> Position:
    """The initial position (§4), or the ``FEN`` one; a handicap record (§6.15) starts with
    White (its ``FirstPlayer`` tag, which must agree with the FEN's side to move)."""
    position = parse_position(fen, rules) if fen else _initial(rules).copy()
    if first_player is not None and first_player != position.turn:
        if fen is not None:
            raise TagConflictError(
                f"FirstPlayer says {SIDE_NAMES[first_player]} but the FEN has "
                f"{SIDE_NAMES[position.turn]} to move", rule="§6.15")
        position.turn = first_player
        position.key ^= ZOBRIST_WHITE
        position.counts = {position.key: 1}
    return position
