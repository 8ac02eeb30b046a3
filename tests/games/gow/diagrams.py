"""Reading a Game of War text diagram back into a position: a test helper for the round trip
of :func:`notation_tools.games.gow.render.text_diagram` (G9, §16.1)."""

from __future__ import annotations

from notation_tools.games.base import BadPositionError, Rules
from notation_tools.games.gow.pieces import COLS, LETTER_CODE, ROW_LETTERS, ROWS, SIZE
from notation_tools.games.gow.position import format_board, parse_position
from notation_tools.games.gow.render import _CIRCLED
from notation_tools.games.gow.rules import Position

_UNCIRCLED = {v: k.lower() for k, v in _CIRCLED.items()}


def position_from_diagram(text: str, rules: Rules) -> Position:
    """Read a diagram written by :func:`text_diagram` back into a position (G9).

    Raises BadPositionError when the text is not such a diagram.
    """

    board = [0] * SIZE
    rows_seen = 0
    status = None
    retreat = "-"
    for line in text.splitlines():
        if len(line) > 4 and line[:2] == "  " and line[2] in ROW_LETTERS and line[3] == " ":
            r = ROW_LETTERS.index(line[2])
            cells = line[4:].ljust(3 * COLS)
            for c in range(COLS):
                ch = cells[3 * c + 1]
                if ch in _UNCIRCLED:
                    ch = _UNCIRCLED[ch]
                if ch in LETTER_CODE:
                    board[r * COLS + c] = LETTER_CODE[ch]
            rows_seen += 1
        elif line.startswith("turn "):
            status = line
    if rows_seen != ROWS or status is None:
        raise BadPositionError("not a Game of War diagram (20 rows and a status line needed)",
                               rule="§16.1")
    try:
        head, arsenal_part, retreat_part = status.split("; ")
        turn = head.split(",")[0].split()[1]
        side = "N" if "North to move" in head else "S"
        arsenals = ",".join(arsenal_part.split()[1:]).replace("-", "") or "-"
        retreat = retreat_part.split()[1]
    except (ValueError, IndexError):
        raise BadPositionError(f"unreadable status line {status!r}", rule="§16.1") from None
    return parse_position(f"{format_board(board)} {side} {arsenals} {retreat} {turn}", rules)
