"""Reading a Shuriken 2D text diagram back into a position: a test helper for the round trip
of :func:`notation_tools.games.shuriken.render.text_diagram` (G9, §10.1)."""

from __future__ import annotations

from notation_tools.games.base import BadPositionError, Rules, options_of
from notation_tools.games.runs import encode_rank
from notation_tools.games.shuriken.options import Options
from notation_tools.games.shuriken.pieces import BLACK, COLUMNS, EMPTY, HOLE, SIZE, WHITE
from notation_tools.games.shuriken.position import parse_position
from notation_tools.games.shuriken.render import INDENT, NUMBER_END, text_diagram
from notation_tools.games.shuriken.rules import Position

_READ = {"x": BLACK, "X": BLACK, "●": BLACK, "◉": BLACK,
         "o": WHITE, "O": WHITE, "○": WHITE, "◎": WHITE,
         ".": EMPTY, "·": EMPTY, " ": HOLE}


def position_from_diagram(text: str, rules: Rules) -> Position:
    """Read a :func:`text_diagram` (either style, marks allowed) back into a position.

    Rows are found by their left number; the side to move comes from the status line
    (``… to move``, or the loser of ``… wins``); Black if there is none. Raises
    :class:`BadPositionError` as ``parse_position`` does for the board it finds.

    >>> from notation_tools.games.shuriken import GAME
    >>> from notation_tools.games.shuriken.position import format_position, START_STRING
    >>> rules = GAME.parse_rules(None)
    >>> diagram = text_diagram(GAME.start_position(rules))
    >>> format_position(position_from_diagram(diagram, rules)) == START_STRING
    True
    """
    cells: dict[int, list[str]] = {}
    turn = "b"
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        head = stripped.split(" ")[0]
        indent = len(line) - len(stripped)
        if (head.isascii() and head.isdigit() and 1 <= int(head) <= SIZE
                and indent + len(head) - 1 == int(head) + NUMBER_END):
            r = int(head)
            row = []
            for c in range(1, SIZE + 1):
                at = 2 * c + r + INDENT
                char = line[at] if at < len(line) else " "
                if char not in _READ:
                    raise BadPositionError(f"diagram row {r}, column {COLUMNS[c - 1]}: "
                                           f"unknown symbol {char!r}", rule="§10.1")
                row.append(char)
            cells[r] = row
        elif line.startswith(("Black to move", "White wins")):
            turn = "b"
        elif line.startswith(("White to move", "Black wins")):
            turn = "w"
    if sorted(cells) != list(range(1, SIZE + 1)):
        raise BadPositionError("diagram does not have the 19 numbered rows", rule="§10.1")
    letters = {BLACK: "b", WHITE: "w", HOLE: "-"}
    rows = [encode_rank((_READ[char] for char in cells[r]), letters.__getitem__, empty=EMPTY)
            for r in range(1, SIZE + 1)]
    return parse_position("/".join(rows) + " " + turn, options=options_of(Options, rules))
