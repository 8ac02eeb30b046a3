"""The legal moves of a position as a table (``notation-tools moves``), and the position a
one-game command starts from. Does not print.
"""

from __future__ import annotations

from typing import Any

from notation_tools.analysis.overrides import OverrideError
from notation_tools.games.base import EngineError, Game, Position, Rules
from notation_tools.render.tables import Table, rows_to_table


class TooManyMoves(ValueError):
    """A position with more legal moves than a listing was allowed (``count`` of them)."""

    def __init__(self, count: int, most: int) -> None:
        super().__init__(f"{count} legal moves, more than {most}")
        self.count, self.most = count, most


def start_position(game: Game[Any, Any], rules: Rules, fen: str | None) -> Position[Any]:
    """The game's start under ``rules``, or the position string ``fen``; a fault raises
    :class:`OverrideError` naming the option it comes from (``--rules`` for rules that do not
    fit the position, else ``--fen``)."""
    try:
        position: Position[Any] = game.start_position(rules, fen=fen)
    except EngineError as error:
        option = "--rules" if error.code == "E-BAD-RULES" else "--fen"
        raise OverrideError(option, error.message) from None
    return position


def legal_moves_table(game: Game[Any, Any], position: Position[Any], *,
                      notation: str | None = None, most: int = 0) -> Table:
    """One row per legal move of ``position`` in ``legal_moves()`` order: the move in
    ``notation`` and the game's facts about it (``describe_move``). With ``most``, the moves
    are counted first (as perft counts them, without making them) and a position with more
    raises :class:`TooManyMoves` before any is made.

    >>> from notation_tools.games.base import get_game
    >>> game = get_game("elevation")
    >>> start = game.start_position(game.parse_rules(None))
    >>> table = legal_moves_table(game, start)
    >>> table.title, table.headers[0]
    ('1194 legal moves for White', 'move')
    """
    if most:
        count = position.count_legal_moves()
        if count > most:
            raise TooManyMoves(count, most)
    rows = [{"move": game.format_move(move, position, notation),
             **game.describe_move(move, position)}
            for move in position.legal_moves()]
    table = rows_to_table(f"{len(rows)} legal moves for {game.sides[position.turn]}", rows)
    if not table.headers:
        table.headers = ["move"]
    return table
