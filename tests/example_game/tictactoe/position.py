"""The position string (rules §6): ranks 3 to 1 with runs of empty squares, then the side to
move, ``1X1/1O1/3 x``."""

from __future__ import annotations

from notation_tools.games.base import BadPositionError, Rules, Side, TagConflictError
from notation_tools.games.runs import RankError, decode_rank, encode_rank
from tests.example_game.tictactoe.pieces import (CROSS, LETTER_MARKS, MARK_LETTERS, NOUGHT,
                                                 SIZE)
from tests.example_game.tictactoe.rules import Position

SIDE_LETTERS = "xo"


def start_position(rules: Rules, *, fen: str | None = None,
                   first_player: Side | None = None) -> Position:
    """The empty board with crosses to move, or the set-up ``fen``; ``first_player`` (the
    ``FirstPlayer`` tag) must agree with a set-up's side to move (§6)."""
    start = parse_position(fen or "3/3/3 x", rules)
    if fen is not None and first_player not in (None, start.turn):
        raise TagConflictError("FirstPlayer contradicts the FEN's side to move", rule="§6")
    if fen is None and first_player is not None:
        start.turn = first_player
    return start


def parse_position(text: str, rules: Rules) -> Position:
    """Parse a position string; raises ``BadPositionError`` at the fault's offset.

    >>> from tests.example_game.tictactoe.game import GAME
    >>> format_position(parse_position("X2/1O1/3 x", GAME.parse_rules(None)))
    'X2/1O1/3 x'
    """
    board_text, _, side = text.partition(" ")
    if side not in SIDE_LETTERS or len(side) != 1:
        raise BadPositionError("the side to move is x or o", rule="§6", offset=len(board_text) + 1)
    ranks = board_text.split("/")
    if len(ranks) != SIZE:
        raise BadPositionError(f"{len(ranks)} ranks, not {SIZE}", rule="§6")
    board: list[int] = []
    offset = 0
    for number, rank in enumerate(ranks):
        try:
            cells = decode_rank(rank, LETTER_MARKS, width=SIZE)
        except RankError as error:
            raise BadPositionError(f"rank {SIZE - number}: {error.message}", rule="§6",
                                   offset=offset + error.offset) from None
        board[0:0] = cells  # the text gives rank 3 first
        offset += len(rank) + 1
    if abs(board.count(CROSS) - board.count(NOUGHT)) > 1:
        raise BadPositionError("the sides take turns: the marks differ by at most one",
                               rule="§6")
    return Position(rules, board, SIDE_LETTERS.index(side))


def format_position(position: Position) -> str:
    """The canonical string: ``format_position(parse_position(s)) == s``."""
    ranks = [encode_rank(position.board[r * SIZE:(r + 1) * SIZE], MARK_LETTERS.__getitem__)
             for r in reversed(range(SIZE))]
    return "/".join(ranks) + " " + SIDE_LETTERS[position.turn]
