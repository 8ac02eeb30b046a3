"""Reading an Elevation text diagram back into a position: a test helper for the round trip
of :func:`notation_tools.games.elevation.render.text_diagram` (§11.1)."""

from __future__ import annotations

from notation_tools.games.base import BadPositionError, Rules
from notation_tools.games.elevation.pieces import FILES, PIECE_CODES, RANKS, SIZE, SQUARE_COUNT
from notation_tools.games.elevation.render import _EMPTY, text_diagram
from notation_tools.games.elevation.rules import Position

def position_from_diagram(text: str, rules: Rules) -> Position:
    """Read a §11.1 diagram back (either style). The side to move comes from its
    ``White to move``/``Black to move`` status line.

    Raises :class:`BadPositionError`.

    >>> from notation_tools.games.elevation import GAME
    >>> rules = GAME.parse_rules(None)
    >>> start = GAME.start_position(rules)
    >>> position_from_diagram(text_diagram(start), rules) == start
    True
    """
    lines = [line for line in text.splitlines() if line.strip()]
    heights = [0] * SQUARE_COUNT
    board = [0] * SQUARE_COUNT
    seen = set()
    side = None
    for line in lines:
        words = line.split()
        if line.strip() in ("White to move", "Black to move"):
            side = 0 if line.startswith("White") else 1
            continue
        if words == list(FILES):
            continue
        if len(words) != SIZE + 1 or words[0] not in RANKS or len(words[0]) != 1:
            raise BadPositionError(f"diagram line {line!r} is not a rank of six fields", rule="§11.1")
        rank = int(words[0]) - 1
        seen.add(rank)
        for file, field in enumerate(words[1:]):
            number, mark = field[:-1], field[-1]
            if not number.isdigit() or not number.isascii():
                raise BadPositionError(f"diagram field {field!r} has no height", rule="§11.1")
            square = rank * SIZE + file
            heights[square] = int(number)
            if mark in PIECE_CODES:
                board[square] = PIECE_CODES[mark]
            elif mark not in _EMPTY.values():
                raise BadPositionError(f"diagram field {field!r}: unknown piece {mark!r}", rule="§11.1")
    if len(seen) != SIZE:
        raise BadPositionError("a diagram needs the six ranks 1-6", rule="§11.1")
    if side is None:
        raise BadPositionError("the diagram has no 'White to move'/'Black to move' line", rule="§11.1")
    return Position(rules, heights, board, side)
