"""The Game of War position string (spec §5.4): parse and format, and the book opening (§5.2).

``board side arsenals retreat turn``, e.g. the book opening below. Terrain is implied by the
standard map. :func:`parse_position` validates everything §5.4 and §5.1 demand and raises
:class:`BadPositionError` naming the first violated rule; :func:`format_position` writes the
canonical form. This module does not apply moves and does not read foreign formats (see
``kfen.py`` and ``ebarjou.py``).

>>> from notation_tools.games.gow.options import DEFAULT_RULES
>>> format_position(parse_position(BOOK_OPENING, DEFAULT_RULES)) == BOOK_OPENING
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from notation_tools.games.base import BadPositionError, Rules, TagConflictError
from notation_tools.games.runs import RankError, decode_rank, encode_rank
from notation_tools.games.gow.pieces import (
    ROW_LETTERS, ARSENAL_OWNER, ARSENALS, CODE_LETTER, COLS, IS_FIGHTING, KIND_OF, LETTER_CODE, MOUNTAIN, NAMES,
    ROSTER, ROWS, SIDE_NAMES, SIDE_OF, SIZE, SQUARE, TERRAIN, UNIT_TYPES, territory)
from notation_tools.games.gow.rules import Position

BOOK_OPENING = ("25/25/25/2R22/25/4M4I15/2CC1IIAI16/2CCIHIII16/5I19/25/14iiiac6/14iiicc6/"
                "14iiic7/16m8/15h6r2/25/25/25/25/25 N B15,D8,T3,T23 - 1")
"""The deployment of the Becker-Ho/Debord game, North to move (spec §5.2)."""

_TURN = re.compile(r"[1-9][0-9]*\Z")


def _bad(message: str, code: str | None = None) -> BadPositionError:
    return BadPositionError(message, rule="§5.4", code=code)


def _parse_board(text: str) -> list[int]:
    ranks = text.split("/")
    if len(ranks) != ROWS:
        raise _bad(f"the board needs {ROWS} ranks (A to T), not {len(ranks)}")
    board: list[int] = []
    for row, rank in zip(ROW_LETTERS, ranks):
        if not rank:
            raise _bad(f"rank {row} is empty; write {COLS} for a rank without units")
        try:
            board += decode_rank(rank, LETTER_CODE, width=COLS)
        except RankError as error:
            hint = " (IiCcAaHhRrMm, or a count of empty squares)" \
                if error.message.startswith("unexpected") else ""
            raise _bad(f"rank {row}: {error.message}{hint}") from None
    return board


def parse_position(text: str, rules: Rules) -> Position:
    """Parse a position string (spec §5.4); raises BadPositionError (E-BAD-POSITION,
    E-SETUP-TERRITORY). Turn-1 positions with missing units get the note W-SETUP-INCOMPLETE
    in ``position.notes``.

    >>> from notation_tools.games.gow.options import DEFAULT_RULES
    >>> parse_position("25/" * 19 + "12i12 N B15,D8,T3,T23 - 11", DEFAULT_RULES).turn_number
    11
    """
    if not isinstance(text, str):
        raise _bad("a position string is text")
    fields = text.split(" ")
    if len(fields) != 5:
        raise _bad(f"a position string has 5 fields separated by single spaces "
                   f"(board side arsenals retreat turn), not {len(fields)}")
    board_text, side_text, arsenal_text, retreat_text, turn_text = fields
    board = _parse_board(board_text)
    counts = _unit_counts(board)
    if side_text not in ("N", "S"):
        raise _bad(f"side to move is N or S, not {side_text!r}")
    turn = 0 if side_text == "N" else 1
    alive = _parse_arsenals(arsenal_text, board)
    retreat = _parse_retreat(retreat_text, board, turn)
    if not _TURN.match(turn_text):
        raise _bad(f"turn {turn_text!r} is not a whole number from 1")
    turn_number = int(turn_text)
    notes: list[tuple[str, str]] = []
    if turn_number == 1:
        notes += _deployment_notes(board, counts, alive, retreat)
    defeated = [not any(alive[i] for i, a in enumerate(ARSENALS) if ARSENAL_OWNER[a] == side)
                or not any(IS_FIGHTING[v] and SIDE_OF[v] == side for v in board if v)
                for side in (0, 1)]
    if all(defeated):
        raise _bad("both sides are already defeated (no arsenal or no fighting unit left)")
    position = Position(rules, board, alive, turn, turn_number, retreat)
    position.notes = tuple(notes)
    return position


def _unit_counts(board: list[int]) -> list[dict[int, int]]:
    """How many units of each kind each side has on ``board``; raises when a unit stands on a
    mountain or a side has more of a kind than the roster allows."""
    for s, v in enumerate(board):
        if v and TERRAIN[s] == MOUNTAIN:
            raise _bad(f"{CODE_LETTER[v]} on {NAMES[s]}: no unit may stand on a mountain")
    counts = [dict.fromkeys(ROSTER, 0), dict.fromkeys(ROSTER, 0)]
    for v in board:
        if v:
            counts[SIDE_OF[v]][KIND_OF[v]] += 1
    for side in (0, 1):
        for kind, limit in ROSTER.items():
            if counts[side][kind] > limit:
                unit = UNIT_TYPES[kind]
                assert unit is not None
                raise _bad(f"{SIDE_NAMES[side]} has {counts[side][kind]} {unit.name} units; "
                           f"the roster allows {limit}")
    return counts


def _parse_arsenals(arsenal_text: str, board: list[int]) -> list[bool]:
    """The arsenals field: which of the four arsenals survive, in the order of ``ARSENALS``."""
    alive = [False] * 4
    if arsenal_text != "-":
        names = arsenal_text.split(",")
        squares = []
        for name in names:
            square = SQUARE.get(name)
            if square is None or square not in ARSENAL_OWNER:
                raise _bad(f"{name!r} is not an arsenal of the map (B15, D8, T3, T23)")
            if square in squares:
                raise _bad(f"arsenal {name} is listed twice")
            squares.append(square)
        if squares != sorted(squares):
            raise _bad("arsenals must be listed in the order B15,D8,T3,T23")
        for square in squares:
            alive[ARSENALS.index(square)] = True
    for index, square in enumerate(ARSENALS):
        v = board[square]
        if alive[index] and v and IS_FIGHTING[v] and SIDE_OF[v] != ARSENAL_OWNER[square]:
            raise _bad(f"a {SIDE_NAMES[SIDE_OF[v]]} fighting unit stands on the surviving enemy "
                       f"arsenal {NAMES[square]} (it would have destroyed it)")
    return alive


def _parse_retreat(retreat_text: str, board: list[int], turn: int) -> int | None:
    """The retreat field: the square of the unit that must retreat, or None for ``-``."""
    if retreat_text == "-":
        return None
    retreat = SQUARE.get(retreat_text)
    if retreat is None:
        raise _bad(f"retreat {retreat_text!r} is not a square (or -)")
    if not board[retreat] or SIDE_OF[board[retreat]] != turn:
        raise _bad(f"the retreat square {retreat_text} holds no unit of the side to move")
    return retreat


def _deployment_notes(board: list[int], counts: list[dict[int, int]], alive: list[bool],
                      retreat: int | None) -> list[tuple[str, str]]:
    """Check a turn-1 position (a deployment, §5.1) and note the units it lacks."""
    for s, v in enumerate(board):
        if v and territory(s) != SIDE_OF[v]:
            raise BadPositionError(
                f"turn 1 is a deployment: the {SIDE_NAMES[SIDE_OF[v]]} unit {CODE_LETTER[v]} on "
                f"{NAMES[s]} is outside its territory", rule="§5.1", code="E-SETUP-TERRITORY")
    if retreat is not None:
        raise _bad("a deployment (turn 1) has no pending retreat")
    if not all(alive):
        raise _bad("a deployment (turn 1) has all four arsenals")
    missing = []
    for side in (0, 1):
        lacking = []
        for kind, limit in ROSTER.items():
            unit = UNIT_TYPES[kind]
            assert unit is not None
            if counts[side][kind] < limit:
                lacking.append(f"{limit - counts[side][kind]} {unit.letter}")
        if lacking:
            missing.append(f"{SIDE_NAMES[side]} lacks {', '.join(lacking)}")
    if missing:
        return [("W-SETUP-INCOMPLETE", "; ".join(missing))]
    return []


def format_board(board: Sequence[int]) -> str:
    """The board field of the position string (also what KFEN readers compare against)."""
    ranks = []
    for r in range(ROWS):
        ranks.append(encode_rank(board[r * COLS:(r + 1) * COLS], CODE_LETTER.__getitem__))
    return "/".join(ranks)


def format_position(position: Position) -> str:
    """The canonical position string of a position between turns (spec §5.4).

    A position inside a turn (only reachable by pushing single actions) is written with the
    board as it stands; the string cannot say which units already moved.
    """
    arsenals = ",".join(NAMES[s] for i, s in enumerate(ARSENALS) if position.alive[i]) or "-"
    retreat = NAMES[position.retreat] if position.retreat is not None else "-"
    side = "N" if position.turn == 0 else "S"
    return f"{format_board(position.board)} {side} {arsenals} {retreat} {position.turn_number}"


def start_position(rules: Rules, *, fen: str | None = None,
               first_player: int | None = None) -> Position:
    """The record's start: its ``FEN``, else the book opening (spec §5.2, §13.1).

    Raises BadPositionError, or TagConflictError (E-FIRST-PLAYER) when ``FirstPlayer``
    contradicts the FEN.
    """
    if fen is None:
        pos = parse_position(BOOK_OPENING, rules)
        if first_player is not None:
            pos.turn = first_player
        return pos
    pos = parse_position(fen, rules)
    if first_player is not None:
        first = pos.turn if pos.turn_number % 2 else 1 - pos.turn
        if first != first_player:
            raise TagConflictError(
                f"FirstPlayer {SIDE_NAMES[first_player]} contradicts the FEN, whose first "
                f"player is {SIDE_NAMES[first]} (side {'N' if pos.turn == 0 else 'S'}, turn "
                f"{pos.turn_number})", code="E-FIRST-PLAYER", rule="§13.1")
    return pos


# ---- the steps foreign formats share to build a position string (§14) ------------------


def foreign_error(message: str, code: str) -> BadPositionError:
    """An unreadable foreign file (E-KFEN, E-EBARJOU), raised as a position error."""
    return BadPositionError(message, code=code, rule="§14")


def map_differences(terrain: dict[int, int], arsenal_marks: dict[int, int]) -> list[int]:
    """Squares whose written terrain differs from the standard map (spec §14.2, §14.4).

    ``terrain`` maps squares to the written terrain kind (absent = plain); ``arsenal_marks``
    maps squares to the owner of a written arsenal. A standard arsenal written as plain is a
    destroyed arsenal, not a difference.
    """
    differ = []
    for s in range(SIZE):
        if terrain.get(s, 0) != TERRAIN[s]:
            differ.append(s)
        elif s in arsenal_marks and ARSENAL_OWNER.get(s) != arsenal_marks[s]:
            differ.append(s)
    return differ


def surviving(arsenal_marks: dict[int, int]) -> list[bool]:
    """The arsenal field from written arsenal marks: standard squares with the right owner."""
    return [arsenal_marks.get(s) == ARSENAL_OWNER[s] for s in ARSENALS]


def assemble(board: list[int], side: int, alive: list[bool], retreat: int | None,
             turn: int) -> str:
    """A position string (spec §5.4) from its parts; validity is checked by its parser."""
    arsenals = ",".join(NAMES[s] for i, s in enumerate(ARSENALS) if alive[i]) or "-"
    return (f"{format_board(board)} {'N' if side == 0 else 'S'} {arsenals} "
            f"{NAMES[retreat] if retreat is not None else '-'} {turn}")


def assumed_turn(board: list[int], side: int, alive: list[bool],
                 retreat: int | None) -> int:
    """The turn number of a position whose format has none (spec §14.4): 1 for a valid North
    deployment, 3 for another North-to-move position, 2 when South is to move."""
    if side == 1:
        return 2
    deployment = (retreat is None and all(alive)
                  and all(territory(s) == SIDE_OF[v] for s, v in enumerate(board) if v))
    return 1 if deployment else 3
