"""Save files (.svar) in exactly the layout ShogiVar 1.55b writes, made from games the engine
replays: the tests' model of that layout, checked against the real saves
(``test_maka_svar.py``). The toolkit only reads this format, so the writer lives here.

The layout, as the reader's docstring (``notation_tools.games.maka.svar``) and §9.9 give it:

* a header ``"Maka",0,<move number>,"<side to move>",0,0,<plies>,0,0``, the status line
  ``0,0,0,0,0,0,"<move number>. <last text>"`` and the clocks line with the handicap flag;
* plies + 1 move records; the text runs one record behind the numbers (record k holds ply k's
  text and ply k+1's numbers; the first text is ``""``, the last record's numbers are left
  over from an earlier move);
* a game ShogiVar ended has its last move written ``"<move number>. <move> mate"`` and an
  extra ply ``"<move number>. ??? mate"`` (bytes it cannot print, as ``?``) whose numbers are
  no move; a game played on after that has them between moves;
* "piece after" is the promoted piece on a promotion, the captured piece's code when a piece
  that cannot promote captures on its destination, else "piece before"; the capture list
  names the destination's victim first, and a move that returns to its own square lists the
  mover itself first;
* the final board (361 codes, rank a first, file 19 first) and the trailer.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Sequence

from notation_tools.games.maka import GAME
from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.pieces import ROYAL_IDS, TYPE_ID, TYPE_OF_ID
from notation_tools.games.maka.position import format_board
from notation_tools.games.maka.rules import Position
from notation_tools.games.maka.svar import PIECE_CODES

RULES = GAME.parse_rules(None)
CODE_OF_TYPE = {TYPE_ID[abbr]: code for code, abbr, _ in PIECE_CODES}
ENDINGS = ("stopped", "mate", "mate-continued")
"""How a generated game ends: switched off by the players (no end record), ended by
ShogiVar's mate (an end record last), or mated and played on (an end record between moves)."""


def piece_code(cell: int) -> int:
    """ShogiVar's piece code of one of our board cells (0 empty)."""
    if cell == 0:
        return 0
    code = CODE_OF_TYPE[cell >> 1]
    return -code if cell & 1 else code


def svar_square(square: int) -> int:
    """ShogiVar's square number, ``20 * (rank index + 1) + (20 - file)``, of our square."""
    rank, column = divmod(square, 19)
    return 20 * (rank + 1) + column + 1


@dataclasses.dataclass(frozen=True)
class Played:
    """A game the engine played: its start, its moves with ShogiVar's texts, and each move's
    move record (numbers and captures) as ShogiVar stores it."""

    start: Position
    moves: tuple[Move, ...]
    texts: tuple[str, ...]
    records: tuple[tuple[tuple[int, int, int, int], tuple[tuple[int, int], ...]], ...]
    final: Position


def move_record(move: Move, position: Position
                ) -> tuple[tuple[int, int, int, int], tuple[tuple[int, int], ...]]:
    """The numbers ``before, after, from, to`` and the capture entries ShogiVar stores for
    ``move`` played in ``position``, quirks included."""
    board = position.board
    mover = board[move.origin]
    kind = mover >> 1
    before = piece_code(mover)
    returns = move.origin == move.target
    if move.becomes != kind:
        after = piece_code(move.becomes * 2 + (mover & 1))
    elif move.target in move.captures and not returns and TYPE_OF_ID[kind].promotes is None:
        after = piece_code(board[move.target])  # the quirk: the victim's code
    else:
        after = before
    captures = []
    if returns and move.captures:
        captures.append((svar_square(move.origin), before))  # the mover, listed first
    if move.target in move.captures and not returns:
        captures.append((svar_square(move.target), piece_code(board[move.target])))
    captures += [(svar_square(sq), piece_code(board[sq])) for sq in move.captures
                 if sq != move.target]
    return (before, after, svar_square(move.origin), svar_square(move.target)), tuple(captures)


def replayed(start: Position, moves: Sequence[Move]) -> Played:
    """``moves`` played from ``start``, with their texts and move records."""
    position = start.copy()
    texts, records = [], []
    for move in moves:
        texts.append(GAME.format_move(move, position))
        records.append(move_record(move, position))
        position.push(move)
    return Played(start, tuple(moves), tuple(texts), tuple(records), position)


def handicap_start(rng: random.Random, removed: int) -> Position:
    """The initial position without ``removed`` of White's pieces (never a royal one), White
    to move: ShogiVar's Set Handicap."""
    position = GAME.start_position(RULES)
    board = list(position.board)
    squares = [sq for sq, cell in enumerate(board)
               if cell and cell & 1 and (cell >> 1) not in ROYAL_IDS]
    for square in rng.sample(squares, removed):
        board[square] = 0
    return GAME.parse_position(f"{format_board(board)} w 1", RULES)


SETUP_TYPES = ("Ln", "FF", "LD", "Ln", "FF", "FK", "GBd", "DH", "DK", "G", "Ky", "Ph", "P",
               "S", "C", "B", "R", "HM", "GD", "FD", "+P", "VO", "SD")
"""The pieces a set-up start is drawn from: Lion-type pieces (double captures, captures that
return to their square) and pieces that cannot promote (the "piece after" quirk) first."""

STARTS = ("normal", "handicap", "set-up")
"""The starts a generated game has: ShogiVar's initial position, a handicap (Set-Up > Set
Handicap: White pieces removed, White first), or a board set up by hand (Set-Up > Clear Board,
Add Black/White Pieces, White to Move), where Lions meet in the first plies."""


def setup_start(rng: random.Random) -> Position:
    """Both Kings on their squares and a few pieces of each side in the middle of the board,
    either side to move."""
    board = [0] * 361
    board[18 * 19 + 9] = TYPE_ID["K"] * 2  # Black's King on 10s
    board[9] = TYPE_ID["K"] * 2 + 1  # White's on 10a
    squares = rng.sample(range(6 * 19, 13 * 19), rng.randint(30, 60))
    for index, square in enumerate(squares):
        board[square] = TYPE_ID[rng.choice(SETUP_TYPES)] * 2 + index % 2
    return GAME.parse_position(f"{format_board(board)} {rng.choice('bw')} 1", RULES)


@functools.lru_cache(maxsize=256)
def random_game(seed: int, plies: int, start: str = "normal") -> Played:
    """A random legal game of at most ``plies`` plies from a ``start`` of :data:`STARTS`,
    captures preferred, and double captures and captures that return to their square most
    (so the quirks of capturing moves come up in short games)."""
    rng = random.Random(seed)
    first = (handicap_start(rng, rng.randint(1, 3)) if start == "handicap"
             else setup_start(rng) if start == "set-up" else GAME.start_position(RULES))
    position = first.copy()
    moves = []
    for _ in range(plies):
        if position.outcome() is not None:
            break
        legal = list(position.legal_moves())
        if not legal:
            break
        captures = [m for m in legal if m.captures]
        lion_like = [m for m in captures if len(m.captures) > 1 or m.origin == m.target]
        if lion_like and rng.random() < 0.7:
            move = rng.choice(lion_like)
        else:
            move = rng.choice(captures if captures and rng.random() < 0.6 else legal)
        moves.append(move)
        position.push(move)
    return replayed(first, moves)


def garbage_numbers(rng: random.Random
                    ) -> tuple[tuple[int, int, int, int], tuple[tuple[int, int], ...]]:
    """Numbers that stand for no move: zeros, or a move's worth of piece codes and squares
    (what a left-over or an end record's record may hold, e.g. ``2,2,239,219``)."""
    if rng.random() < 0.3:
        return (0, 0, 0, 0), ()
    code = rng.choice((1, -1)) * rng.randint(1, 78)
    squares = [20 * rng.randint(1, 19) + rng.randint(1, 19) for _ in range(2)]
    captures = tuple((20 * rng.randint(1, 19) + rng.randint(1, 19),
                      rng.choice((1, -1)) * rng.randint(1, 78))
                     for _ in range(rng.randint(0, 2)))
    return (code, rng.choice((code, rng.randint(-78, 78))), *squares), captures


def move_number(ply: int, white_first: bool) -> int:
    """The number of the move pair ply ``ply`` (1 = the first) belongs to, as ShogiVar counts:
    ``1. - P-10g`` makes a White-first game's first ply move 1."""
    return (ply + (2 if white_first else 1)) // 2


GARBAGE = ("???", "? ?v?GV", "????", '?,"v?', "?x?")
"""Texts of ShogiVar's extra ply after the end: bytes it did not set, each it cannot print
written ``?`` (the first as in the issue's saves, the second as in
``tests/data/maka/shogivar-handicap-mate-E.svar``; the fourth has a quote and a comma)."""


@dataclasses.dataclass(frozen=True)
class Save:
    """A generated save and what reading it must give."""

    text: str
    played: Played
    ending: str
    end_after: int | None
    """How many moves stand before the extra ply of the end (``None``: no end)."""
    end_text: str | None
    """The extra ply's text."""
    marked: str | None
    """The last move before the end as ShogiVar rewrote it (``"16. FKx8a mate"``), if it did."""


def write_save(played: Played, *, end_after: int | None = None, word: str = "mate",
               garbage: str = "???", mark_move: bool = True,
               end_numbers: tuple[tuple[int, int, int, int], tuple[tuple[int, int], ...]]
               = ((0, 0, 0, 0), ()),
               stale: tuple[tuple[int, int, int, int], tuple[tuple[int, int], ...]]
               = ((0, 0, 0, 0), ()),
               clocks: tuple[str, str] = ("00:00:00", "00:00:00"), handicap: bool = False,
               description: str = "Saved Game - No Title", computer: str = "None") -> str:
    """The save ShogiVar writes of ``played``. With ``end_after``, the game ended after that
    many moves: the last of them is written ``"N. <move> <word>"`` (``mark_move``) and an
    extra ply ``"N. <garbage> <word>"`` follows, holding ``end_numbers`` as its numbers; moves
    after it are a game played on. The last record holds ``stale`` numbers."""
    white_first = played.start.turn == 1
    texts: list[str] = list(played.texts)
    numbers = list(played.records)
    ended = end_after == len(played.moves)
    if end_after is not None:
        if mark_move and end_after:
            texts[end_after - 1] = (f"{move_number(end_after, white_first)}. "
                                    f"{texts[end_after - 1]} {word}")
        texts.insert(end_after, f"{move_number(end_after + 1, white_first)}. {garbage} {word}")
        numbers.insert(end_after, end_numbers)
    plies = len(texts)
    side = played.start.turn ^ (plies & 1)
    last = texts[-1] if texts else ""
    status = "" if not texts else (last if ended
                                   else f"{move_number(plies, white_first)}. {last}")
    # The last two header values: 1,0 in the save of a game Black ended (which side's King
    # was lost, as far as one save tells); 0,0 in games that did not end.
    lost = [0, 0]
    if ended and end_after:
        lost[(played.start.turn + end_after) % 2] = 1
    lines = [f'"Maka",0,{move_number(max(plies, 1), white_first)},'
             f'"{("Black", "White")[side]}",0,0,{plies},{lost[1]},{lost[0]}',
             f'0,0,0,0,0,0,"{status}"',
             f'"{clocks[0]}","{clocks[1]}",{int(handicap)},0']
    record_texts = ["", *texts]
    for text, (values, captures) in zip(record_texts, [*numbers, stale]):
        lines.append(f'"{text}",{",".join(str(v) for v in values)}')
        lines.append(str(len(captures)))
        for square, piece in captures:
            lines += [str(square), str(piece)]
    lines += [str(piece_code(cell)) for cell in played.final.board]
    lines += [f'"{description}"', f'"{computer}"', "1", "1" if ended else "0", '"Off"']
    return "\n".join(lines) + "\n"


def make_save(seed: int, plies: int, *, start: str, ending: str,
              stale_kind: str = "zeros") -> Save:
    """A save of a random game (``random_game(seed, plies, start)``) ending as ``ending``
    says (one of :data:`ENDINGS`), the last record's numbers zeros or left over
    (``stale_kind`` ``"zeros"`` or ``"left-over"``)."""
    rng = random.Random(seed * 7 + plies)
    played = random_game(seed, plies, start)
    handicap = start == "handicap"
    count = len(played.moves)
    end_after = None
    if ending == "mate" and count:
        end_after = count
    elif ending == "mate-continued" and count >= 2:
        end_after = rng.randint(1, count - 1)
    stale = garbage_numbers(rng) if stale_kind == "left-over" else ((0, 0, 0, 0), ())
    if stale_kind == "left-over" and stale[0][0] == 0:
        stale = ((2, 2, 239, 219), ())  # the example: a Pawn's move taken back
    end_numbers = garbage_numbers(rng)
    garbage = rng.choice(GARBAGE)
    mark_move = rng.random() < 0.7
    text = write_save(played, end_after=end_after, garbage=garbage, mark_move=mark_move,
                      end_numbers=end_numbers, stale=stale, handicap=handicap,
                      clocks=("00:00:02", "00:01:32"))
    end_text = marked = None
    white_first = played.start.turn == 1
    if end_after is not None:
        end_text = f"{move_number(end_after + 1, white_first)}. {garbage} mate"
        if mark_move:
            marked = (f"{move_number(end_after, white_first)}. "
                      f"{played.texts[end_after - 1]} mate")
    return Save(text, played, ending if end_after is not None else "stopped", end_after,
                end_text, marked)
