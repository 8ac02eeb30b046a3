"""Reading a Shih text diagram back into a position: a test helper for the round trip of
:func:`notation_tools.games.shih.render.text_diagram` (G9, §15.1)."""

from __future__ import annotations

from notation_tools.games.base import BadPositionError, Rules
from notation_tools.games.shih.pieces import EMPTY, PIECE_LETTERS, ROW_COUNT, ROWS, SIDE_NAMES, WIDTHS
from notation_tools.games.shih.render import _CELL, _WALL_ASCII, text_diagram
from notation_tools.games.shih.rules import Position

_PIECE_OF_MARK = {".": EMPTY, **{letter: side for side, letter in enumerate(PIECE_LETTERS)}}


def position_from_diagram(text: str, rules: Rules) -> Position:
    """Read a §15.1 ASCII diagram (rows a–h then the status line) back into a position (G9).

    Raises BadPositionError when a row or the status line does not fit.

    >>> from notation_tools.games.shih import GAME
    >>> rules = GAME.parse_rules("standard")
    >>> start = GAME.start_position(rules)
    >>> position_from_diagram(text_diagram(start), rules) == start
    True
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < ROW_COUNT + 1:
        raise BadPositionError("a diagram has 8 rows and a status line", rule="§15.1")
    walls: list[int] = []
    board: list[int] = []
    for row, line in enumerate(lines[:ROW_COUNT]):
        if not line.startswith(ROWS[row]):
            raise BadPositionError(f"diagram row {row + 1} does not start with {ROWS[row]}",
                                   rule="§15.1")
        body = line[1:].strip()
        if len(body) != _CELL * WIDTHS[row]:
            raise BadPositionError(f"diagram row {ROWS[row]} has {len(body) // _CELL} spaces, "
                                   f"not {WIDTHS[row]}", rule="§15.1")
        for index in range(0, len(body), _CELL):
            mark, wall = body[index], body[index + 1]
            if mark not in _PIECE_OF_MARK or wall not in _WALL_ASCII:
                raise BadPositionError(f"diagram row {ROWS[row]}: bad cell "
                                       f"{body[index:index + _CELL]!r}", rule="§15.1")
            board.append(_PIECE_OF_MARK[mark])
            walls.append(_WALL_ASCII.index(wall))
    status = lines[ROW_COUNT]
    try:
        side_text, spins_text, captured_text = status.split(";")[:3]
        turn = SIDE_NAMES.index(side_text.split()[0])
        spins = [int(spins_text.split("Blue")[1].split(",")[0]),
                 int(spins_text.split("Red")[1])]
        score = [int(captured_text.split("by Blue")[1].split(",")[0]),
                 int(captured_text.split("by Red")[1])]
    except (ValueError, IndexError):
        raise BadPositionError(f"status line {status!r} does not fit §15.1",
                               rule="§15.1") from None
    return Position(rules, walls, board, spins, turn, score)
