"""The save file of ebarjou/JeuDeLaGuerre (spec §14.4), read and written as a string.

Lines of ``;``-separated fields: the board size, the player to move and actions left, terrain
lines ``kind;x;y;owner`` and unit lines ``type;x;y;mustRetreat;canMove;lastMoved;canAttack;owner``
(x = column, y = row, both from 1). The file holds no turn number, so the reader assumes one
(``I-TURN-ASSUMED``). Unreadable input raises BadPositionError with code ``E-EBARJOU``. This
module opens no file.

>>> from notation_tools.games.gow import GAME
>>> text = write_ebarjou(GAME.start_position(GAME.parse_rules(None)))
>>> text.splitlines()[:3]
['25;20', '1;5', 'F;8;2;1']
>>> read_ebarjou(text).fen.endswith(" N B15,D8,T3,T23 - 1")
True
"""

from __future__ import annotations

from notation_tools.games.base import BadPositionError
from notation_tools.games.file_formats import ForeignPosition
from notation_tools.games.gow.options import DEFAULT_RULES
from notation_tools.games.gow.pieces import (
    ARSENAL_OWNER, ARSENALS, COLS, FORT, KIND_OF, MOUNTAIN, NAMES, PASS, ROWS, SIDE_OF, SIZE,
    TERRAIN, UNIT_TYPES, code, territory)
from notation_tools.games.gow.position import (
    assemble, assumed_turn, foreign_error, map_differences, parse_position, surviving)
from notation_tools.games.gow.rules import Position

_TERRAIN_NAMES = {"M": MOUNTAIN, "CO": PASS, "F": FORT}
_TYPE_TO_KIND = {t.ebarjou: k for k, t in enumerate(UNIT_TYPES) if t is not None}
_KIND_TO_TYPE = {k: t.ebarjou for k, t in enumerate(UNIT_TYPES) if t is not None}


def _error(message: str) -> BadPositionError:
    return foreign_error(message, "E-EBARJOU")


def _xy(square: int) -> str:
    return f"{square % COLS + 1};{square // COLS + 1}"


def write_ebarjou(position: Position) -> str:
    """The save file of ``position`` (spec §14.4); ends with a newline."""
    lines = ["25;20", f"{position.turn + 1};5"]
    for side in (0, 1):
        def mine(squares: list[int], side: int = side) -> list[int]:
            return [s for s in squares if territory(s) == side]
        terrain = {kind: mine([s for s in range(SIZE) if TERRAIN[s] == kind])
                   for kind in (MOUNTAIN, PASS, FORT)}
        lines += [f"F;{_xy(s)};{side + 1}" for s in terrain[FORT]]
        lines += [f"AR;{_xy(s)};{side + 1}" for i, s in enumerate(ARSENALS)
                  if position.alive[i] and ARSENAL_OWNER[s] == side]
        lines += [f"M;{_xy(s)};{side + 1}" for s in terrain[MOUNTAIN]]
        lines += [f"CO;{_xy(s)};{side + 1}" for s in terrain[PASS]]
    for side in (0, 1):
        for s in range(SIZE):
            v = position.board[s]
            if v and SIDE_OF[v] == side:
                flags = ("true;true;false;false" if s == position.retreat
                         else "false;true;false;true")
                lines.append(f"{_KIND_TO_TYPE[KIND_OF[v]]};{_xy(s)};{flags};{side + 1}")
    return "\n".join(lines) + "\n"


def _int(text: str, line_no: int, what: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise _error(f"line {line_no}: {what} {text!r} is not a number")
    return int(text)


def _square(x_text: str, y_text: str, line_no: int) -> int:
    x, y = _int(x_text, line_no, "x"), _int(y_text, line_no, "y")
    if not (1 <= x <= COLS and 1 <= y <= ROWS):
        raise _error(f"line {line_no}: ({x};{y}) is off the 25x20 board")
    return (y - 1) * COLS + x - 1


def _bool(text: str, line_no: int) -> bool:
    if text not in ("true", "false"):
        raise _error(f"line {line_no}: {text!r} is not true or false")
    return text == "true"


def read_ebarjou(text: str) -> ForeignPosition:
    """Read an ebarjou save file (spec §14.4) into a position string with notes.

    Raises BadPositionError (E-EBARJOU; E-BAD-POSITION for an impossible position).
    """
    if not isinstance(text, str):
        raise _error("an ebarjou save is text")
    lines = [line.strip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if len(lines) < 2 or lines[0] != "25;20":
        raise _error("line 1: the board size must be 25;20")
    head = lines[1].split(";")
    if len(head) != 2 or head[0] not in ("1", "2"):
        raise _error("line 2: <player 1|2>;<actions left> expected")
    side = int(head[0]) - 1
    actions_left = _int(head[1], 2, "actions left")
    if actions_left > 5:
        raise _error(f"line 2: {actions_left} actions left (0..5)")
    terrain: dict[int, int] = {}
    marks: dict[int, int] = {}
    board = [0] * SIZE
    retreat = None
    mid_turn = actions_left < 5
    units_started = False
    for line_no, line in enumerate(lines[2:], 3):
        fields = line.split(";")
        if len(fields) > 4:
            units_started = True
        if not units_started:
            if len(fields) != 4:
                raise _error(f"line {line_no}: a terrain line has 4 fields")
            kind, x, y, owner = fields
            s = _square(x, y, line_no)
            if owner not in ("1", "2"):
                raise _error(f"line {line_no}: owner {owner!r} is not 1 or 2")
            if kind == "AR":
                marks[s] = int(owner) - 1
            elif kind in _TERRAIN_NAMES:
                terrain[s] = _TERRAIN_NAMES[kind]
            else:
                raise _error(f"line {line_no}: unknown terrain {kind!r} (M CO F AR)")
            continue
        if len(fields) != 8:
            raise _error(f"line {line_no}: a unit line has 8 fields")
        kind_text, x, y, must, can_move, _last, _attack, owner = fields
        unit_kind = _TYPE_TO_KIND.get(kind_text)
        if unit_kind is None:
            raise _error(f"line {line_no}: unknown unit {kind_text!r} (I C A AC R RC)")
        if owner not in ("1", "2"):
            raise _error(f"line {line_no}: owner {owner!r} is not 1 or 2")
        s = _square(x, y, line_no)
        if board[s]:
            raise _error(f"line {line_no}: two units on {NAMES[s]}")
        if TERRAIN[s] == MOUNTAIN:
            raise _error(f"line {line_no}: a unit on {NAMES[s]}, a mountain of the standard map")
        board[s] = code(int(owner) - 1, unit_kind)
        if _bool(must, line_no):
            if retreat is not None or int(owner) - 1 != side:
                raise _error(f"line {line_no}: the pending retreat must be one unit of the side to move")
            retreat = s
        if not _bool(can_move, line_no) and s != retreat:
            mid_turn = True
        _bool(_last, line_no)
        _bool(_attack, line_no)
    notes = []
    differ = map_differences(terrain, marks)
    if differ:
        notes.append(("W-MAP-DIFFERS", "terrain differs from the standard map on "
                      + " ".join(NAMES[s] for s in differ) + "; the standard map is used"))
    if mid_turn:
        notes.append(("W-MID-TURN", f"saved inside a turn ({actions_left} actions left); "
                      "a fresh turn is assumed"))
    alive = surviving(marks)
    turn = assumed_turn(board, side, alive, retreat)
    notes.append(("I-TURN-ASSUMED", f"the save file has no turn number: turn {turn} assumed"))
    fen = assemble(board, side, alive, retreat, turn)
    parse_position(fen, DEFAULT_RULES)
    return ForeignPosition(fen, tuple(notes))
