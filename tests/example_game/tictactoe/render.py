"""Pictures (rules §7): the text diagram and the SVG board, pure functions returning strings."""

from __future__ import annotations

from notation_tools.games.base import Style
from notation_tools.render.svg import SvgDocument
from tests.example_game.tictactoe.moves import Move
from tests.example_game.tictactoe.pieces import EMPTY, FILES, MARK_LETTERS, NOUGHT, SIZE
from tests.example_game.tictactoe.position import format_position
from tests.example_game.tictactoe.rules import Position

CELL = 60
MARGIN = 24
TURN_NAMES = ("X", "O")


def status_line(position: Position) -> str:
    outcome = position.outcome()
    if outcome is None:
        return f"{TURN_NAMES[position.turn]} to move"
    return f"over: {outcome.detail}"


def text_diagram(position: Position, *, style: Style = Style.ASCII,
                 marks: frozenset[str] = frozenset()) -> str:
    """Ranks 3 to 1, files a to c, then the status line.

    >>> from tests.example_game.tictactoe.game import GAME
    >>> print(text_diagram(GAME.start_position(GAME.parse_rules(None))))
    3 . . .
    2 . . .
    1 . . .
      a b c
    X to move
    """
    empty = "·" if style is Style.UNICODE else "."
    lines = []
    for rank in reversed(range(SIZE)):
        cells = position.board[rank * SIZE:(rank + 1) * SIZE]
        lines.append(f"{rank + 1} " + " ".join(MARK_LETTERS.get(c, empty) for c in cells))
    lines.append("  " + " ".join(FILES))
    lines.append(status_line(position))
    return "\n".join(lines)


def svg(position: Position, *, last_move: Move | None = None,
        marks: frozenset[str] = frozenset()) -> str:
    """The board with coordinates, the marks as discs, the last move's square shaded, and the
    status line as the caption under it (``SvgDocument.caption`` wraps it to the width)."""
    full = 2 * MARGIN + SIZE * CELL
    doc = SvgDocument(full, full, title=f"Tic-tac-toe {format_position(position)}",
                      description=text_diagram(position), background="#f4efe1")
    board = doc.group("board")
    for square in range(SIZE * SIZE):
        x, y = MARGIN + (square % SIZE) * CELL, MARGIN + (SIZE - 1 - square // SIZE) * CELL
        last = last_move is not None and last_move.target == square
        doc.element(board, "rect", class_="square", x=x, y=y, width=CELL, height=CELL,
                    fill="#b7d7f0" if last else "none", stroke="#333333")
    doc.coordinates([(MARGIN + f * CELL + CELL / 2, MARGIN - 8, FILES[f]) for f in range(SIZE)]
                    + [(MARGIN / 2, MARGIN + (SIZE - 1 - r) * CELL + CELL / 2 + 4, str(r + 1))
                       for r in range(SIZE)])
    pieces = doc.group("pieces")
    for square, mark in enumerate(position.board):
        if mark != EMPTY:
            cx = MARGIN + (square % SIZE) * CELL + CELL / 2
            cy = MARGIN + (SIZE - 1 - square // SIZE) * CELL + CELL / 2
            doc.piece_disc(pieces, cx, cy, CELL * 0.35, dark=mark == NOUGHT,
                           letter=MARK_LETTERS[mark])
    doc.caption([status_line(position)], margin=MARGIN / 2)
    return doc.to_string()
