"""What every square of a record's main line holds, ply by ply, for the square index
(``analyze --index squares``; docs/database.md, "The square index").

:class:`SquareCollector` is the position index's collector
(:class:`~notation_tools.analysis.position_keys.PositionCollector`) that also follows the
squares while ``replay`` plays the main line: per square, the runs of plies during which it
holds one thing (a side's piece, or nothing). It looks at exactly the positions pattern search
checks (every position before a main-line move, and the last one when the whole main line was
replayed), so the runs answer a pattern's square conditions exactly, without a replay.

A record that starts from its game's standard start leaves out the runs that last from its
first position to its last (the squares no move touched): every such record shares them, and
the store keeps the standard start once per game. The runs a move ends or starts are all
that is left, a few per ply.

Does not touch a database; :mod:`notation_tools.storage.square_index` stores these.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from notation_tools.analysis.position_keys import IndexedPositions, PositionCollector
from notation_tools.games.base import Game, Position, Rules, get_game
from notation_tools.records.model import Move, Record

Occupant = tuple[int, str] | None
"""What a square holds: (side, piece), or ``None`` for nothing."""

SquareRun = tuple[str, int | None, str | None, int, int]
"""(square, side, piece, first ply, last ply): the square held that piece of that side (side
and piece ``None``: nothing) at every checked ply from the first to the last."""


@dataclasses.dataclass
class SquareRuns:
    """A record's square runs (what a worker process sends back with its positions)."""

    game: str
    standard: bool = False
    """Whether the record's first position holds what its game's standard start holds, square
    by square (then the runs from the first to the last ply are left out)."""
    last_ply: int = -1
    """The last ply checked (-1: none; every ply from 0 to it is checked)."""
    runs: list[SquareRun] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class SquarePositions(IndexedPositions):
    """A record's indexed positions with its square runs (``None``: the game offers no
    pattern search)."""

    squares: SquareRuns | None = None


@lru_cache(maxsize=None)
def standard_board(game_id: str) -> dict[str, Occupant]:
    """Square → what it holds at ``game_id``'s standard start (default rules), every square
    of the game named (``None``: empty)."""
    game = get_game(game_id)
    assert game.occupants is not None
    return board_of(game, game.start_position(game.parse_rules(None)))


def board_of(game: Game[Any, Any], position: Position[Any]) -> dict[str, Occupant]:
    """Square → what it holds in ``position``, every square of the game named."""
    assert game.occupants is not None
    board: dict[str, Occupant] = dict.fromkeys(game.square_names)
    for square, side, piece in game.occupants(position):
        board[square] = (side, piece)
    return board


class SquareCollector(PositionCollector):
    """The position index's keys and material of the main line, and its square runs."""

    def __init__(self) -> None:
        super().__init__(variations=False)
        self.found: SquarePositions = SquarePositions()
        self._board: dict[str, Occupant] = {}
        self._since: dict[str, int] = {}
        self._held: set[tuple[str, int, str]] = set()

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        super().begin(game, rules, record)
        self.found.squares = SquareRuns(game.id) if game.occupants is not None else None

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        super().visit_move(node, move, before, ply, in_variation)
        if not in_variation and self.found.squares is not None:
            self._look(ply - 1, before)

    def _look(self, ply: int, position: Position[Any]) -> None:
        """The squares at checked ply ``ply`` (the next one): a run ends where a square
        changes. The occupants are compared as sets with the last ply's (most squares keep
        what they hold: only the few that differ are looked at one by one)."""
        runs, game = self.found.squares, self.game
        assert runs is not None and game is not None and game.occupants is not None
        runs.last_ply = ply
        now = set(game.occupants(position))
        if not self._board:
            self._board = board_of(game, position)
            self._since = dict.fromkeys(self._board, ply)
            runs.standard = ply == 0 and self._board == standard_board(game.id)
        else:
            came = {square: (side, piece) for square, side, piece in now - self._held}
            for square, _, _ in self._held - now:
                if square not in came:
                    self._change(square, None, ply)
            for square, held in came.items():
                self._change(square, held, ply)
        self._held = now

    def _change(self, square: str, held: Occupant, ply: int) -> None:
        """``square`` holds ``held`` from ``ply`` on."""
        self._close(square, self._board[square], self._since[square], ply - 1)
        self._board[square], self._since[square] = held, ply

    def _close(self, square: str, held: Occupant, first: int, last: int) -> None:
        assert self.found.squares is not None
        side, piece = held if held is not None else (None, None)
        self.found.squares.runs.append((square, side, piece, first, last))

    def finish(self, position: Position[Any] | None, plies: int,
               complete: bool = True) -> IndexedPositions:
        """The positions found (``PositionCollector.finish``) with the square runs closed at
        the last checked ply."""
        found = super().finish(position, plies, complete)
        runs = self.found.squares
        if runs is None:
            return found
        if position is not None and complete:
            self._look(plies, position)
        for square, held in self._board.items():
            if not (runs.standard and self._since[square] == 0):
                self._close(square, held, self._since[square], runs.last_ply)
        self._board, self._since, self._held = {}, {}, set()
        return found
