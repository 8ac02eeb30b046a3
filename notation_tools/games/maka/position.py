"""The Maka-Dai-Dai Shogi position string codec (spec §5).

``board side move-number``: 19 comma-separated rank fields (a..s, files 19..1), ``v`` marks
White, ``+G`` is a gold-promoted Gold. Exactly one string per position.

This module does not judge whether a position could arise in play.

>>> from notation_tools.games.maka import GAME
>>> rules = GAME.parse_rules(None)
>>> text = "18,vK/" + "19/" * 17 + "K,18 b 1"
>>> format_position(parse_position(text, rules)) == text
True
"""

from __future__ import annotations

from notation_tools.games.runs import encode_rank
from notation_tools.games.base import BadPositionError, Rules

from .pieces import RANKS, SIZE, TYPE_BY_ABBR, TYPE_ID, TYPE_OF_ID
from .rules import Position

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
"""The initial position (spec §4)."""


def cell_text(code: int) -> str:
    """The position-string cell of a piece code (``vFK``, ``+G``)."""
    return ("v" if code & 1 else "") + TYPE_OF_ID[code >> 1].abbr


def _bad(message: str) -> BadPositionError:
    return BadPositionError(message, rule="§5")


def parse_board(text: str) -> list[int]:
    """The 361 cells of a board field; raises :class:`BadPositionError` (E-BAD-POSITION)."""
    ranks = text.split("/")
    if len(ranks) != SIZE:
        raise _bad(f"the board has {len(ranks)} ranks, not 19")
    board: list[int] = []
    for letter, field in zip(RANKS, ranks):
        covered = 0
        previous_empty = None
        for number, cell in enumerate(field.split(","), start=1):
            if cell.isdigit():
                if cell[0] == "0" or not 1 <= int(cell) <= SIZE:
                    raise _bad(f"bad empty-run {cell!r} in rank {letter}, cell {number}")
                if previous_empty is not None:
                    raise _bad(f'adjacent empty-runs "{previous_empty},{cell}" in rank {letter}')
                previous_empty = cell
                covered += int(cell)
                board.extend([0] * int(cell))
                continue
            previous_empty = None
            side = 0
            abbr = cell
            if abbr.startswith("v"):
                side, abbr = 1, abbr[1:]
            if abbr not in TYPE_BY_ABBR:
                raise _bad(f'unknown piece "{cell}" in rank {letter}, cell {number}')
            covered += 1
            board.append(TYPE_ID[abbr] * 2 + side)
        if covered != SIZE:
            raise _bad(f"rank {letter} covers {covered} squares")
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
    if side not in ("b", "w"):
        raise _bad(f'side to move must be "b" or "w", not "{side}"')
    if not number.isdigit() or number[0] == "0" or not number.isascii():
        raise _bad(f'move number "{number}" is not a positive number without leading zeros')
    return Position(board, 0 if side == "b" else 1, int(number), rules)


def format_board(board: list[int]) -> str:
    """The board field of a position string."""
    ranks = []
    for row in range(SIZE):
        ranks.append(encode_rank(board[row * SIZE:(row + 1) * SIZE], cell_text, separator=","))
    return "/".join(ranks)


def format_position(position: Position) -> str:
    """The canonical position string (§5)."""
    return f"{format_board(position.board)} {'bw'[position.turn]} {position.move_number}"
