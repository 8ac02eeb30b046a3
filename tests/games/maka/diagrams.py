"""Reading a Maka-Dai-Dai Shogi text diagram back into a position: a test helper for the
round trip of :func:`notation_tools.games.maka.render.text_diagram` (G9, §12)."""

from __future__ import annotations

from notation_tools.games.base import BadPositionError, Rules
from notation_tools.games.maka.pieces import NSQ, RANKS, SIDE_NAMES, SIZE, TYPE_BY_ABBR, TYPE_ID
from notation_tools.games.maka.position import WHITE_MARK
from notation_tools.games.maka.render import UNICODE_WHITE
from notation_tools.games.maka.rules import Position

def position_from_diagram(text: str, rules: Rules) -> Position:
    """Read a diagram of :func:`text_diagram` (ASCII or Unicode) back into a position.

    Raises :class:`BadPositionError` (E-BAD-POSITION) for a malformed diagram.
    """
    board: list[int] = []
    turn, number = 0, 1
    for line in text.splitlines():
        words = line.replace("│", " ").split()
        if len(words) == SIZE + 1 and words[-1] in RANKS:
            for word in words[:-1]:
                if word == ".":
                    board.append(0)
                    continue
                side = 1 if word[0] in (WHITE_MARK, UNICODE_WHITE) else 0
                abbr = word[1:] if side else word
                if abbr not in TYPE_BY_ABBR:
                    raise BadPositionError(f"unknown piece {word!r} in the diagram", rule="§12")
                board.append(TYPE_ID[abbr] * 2 + side)
        elif len(words) >= 5 and words[1:3] == ["to", "move"]:
            turn = SIDE_NAMES.index(words[0]) if words[0] in SIDE_NAMES else 0
            count = words[4].rstrip(")")
            number = int(count) if count.isascii() and count.isdigit() else 1
    if len(board) != NSQ:
        raise BadPositionError(f"a diagram has {SIZE} ranks of {SIZE} cells", rule="§12")
    return Position(board, turn, number, rules)
