"""Save files (.svar) in exactly the layout ShogiVar 1.55b writes, made from games the engine
replays: the tests' model of that layout, checked byte for byte against real saves
(``test_maka_svar.py``). The toolkit only reads this format, so the writer lives here.

The layout, as the reader's docstring (``notation_tools.games.maka.svar``) and §9.9 give it:

* a header ``"Maka",0,<move number>,"<side to move>",0,0,<plies>,<White's King lost>,
  <Black's King lost>``, the status line ``0,0,0,0,0,0,"<move number>. <last text>"`` and the
  clocks line with the handicap flag;
* plies + 1 move records; the text runs one record behind the numbers (record k holds ply k's
  text and ply k+1's numbers; the first text is ``""``, the last record's numbers are left
  over from an earlier move, with their capture entries); Take Back leaves a capture's entry
  in its slot, so the move played instead lists it first;
* a game ShogiVar ended (a move took the last royal piece) has that move written
  ``"<move number>. <move> mate"``; when the computer made it, "piece after" is the victim's
  code, the text has no ``+``, and an extra ply follows, ``"<move number>. ?? mate"`` (bytes it
  cannot print, as ``?``), whose numbers are left over but for "piece after", the capturer's
  promoted form (0 if none); the trailer's 4th value is 1. Take Back of that extra ply
  removes it (its numbers stay in the last record) and empties the capture's square, and the
  game can be played on from there;
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
from collections.abc import Mapping, Sequence

from notation_tools.games.maka import GAME
from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.pieces import ROYAL_IDS, TYPE_ID, TYPE_OF_ID
from notation_tools.games.maka.position import format_board
from notation_tools.games.maka.rules import Position
from notation_tools.games.maka.svar import PIECE_CODES

RULES = GAME.parse_rules(None)
CODE_OF_TYPE = {TYPE_ID[abbr]: code for code, abbr, _ in PIECE_CODES}
ENDINGS = ("stopped", "mate-human", "mate-computer", "mate-taken-back", "mate-continued")
"""How a generated game ends: switched off by the players; a move by a player took the last
royal piece; the computer's did (the extra ply after it); the computer's did and the extra
ply was taken back; the same, then played on."""

Numbers = tuple[tuple[int, int, int, int], tuple[tuple[int, int], ...]]
"""A move record's numbers ``before, after, from, to`` and its capture entries."""


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
    """A game: its start, its moves with ShogiVar's texts, each move's move record (numbers and
    captures) as ShogiVar stores it, and the board ShogiVar ends on. ``mate`` is the number of
    the move that took the last royal piece (``None``: none did); moves after it were played
    on ShogiVar's board after Take Back of its extra ply."""

    start: Position
    moves: tuple[Move, ...]
    texts: tuple[str, ...]
    records: tuple[Numbers, ...]
    final: Position
    mate: int | None = None


def takes_last_royal(move: Move, position: Position) -> bool:
    """Whether ``move`` captures the last royal piece of the side not to move."""
    royals = position.royals(1 - position.turn)
    return bool(royals) and all(square in move.captures for square in royals)


def move_record(move: Move, position: Position, *, computer_mate: bool = False) -> Numbers:
    """The numbers ``before, after, from, to`` and the capture entries ShogiVar stores for
    ``move`` played in ``position``, quirks included (``computer_mate``: the computer's move
    that takes the last royal piece, whose "piece after" is its victim's code)."""
    board = position.board
    mover = board[move.origin]
    kind = mover >> 1
    before = piece_code(mover)
    returns = move.origin == move.target
    if computer_mate and move.target in move.captures:
        after = piece_code(board[move.target])  # promoted only by the extra ply
    elif move.becomes != kind:
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


def replayed(start: Position, moves: Sequence[Move], *, computer: bool = False) -> Played:
    """``moves`` played from ``start``, with their texts and move records; a last move that
    takes the last royal piece is the mate (``computer``: the computer made it)."""
    position = start.copy()
    texts, records = [], []
    mate = None
    for number, move in enumerate(moves, 1):
        texts.append(GAME.format_move(move, position))
        mates = takes_last_royal(move, position)
        records.append(move_record(move, position, computer_mate=computer and mates))
        if mates:
            mate = number
        position.push(move)
    return Played(start, tuple(moves), tuple(texts), tuple(records), position, mate)


def promoted_code(played: Played) -> int:
    """The extra ply's "piece after": the mating piece's promoted form, 0 if it did not
    promote."""
    assert played.mate is not None
    (before, _, _, _), _ = played.records[played.mate - 1]
    move = played.moves[played.mate - 1]
    cell = _cell_of_code(before)
    return piece_code(move.becomes * 2 + (cell & 1)) if move.becomes != cell >> 1 else 0


def _cell_of_code(code: int) -> int:
    kind = next(kind for kind, value in CODE_OF_TYPE.items() if value == abs(code))
    return kind * 2 + (code < 0)


def played_on(played: Played, texts: Sequence[str] = (), *, rng: random.Random | None = None,
              count: int = 0) -> Played:
    """``played`` (a game ended by the computer's mate) after Take Back of the extra ply:
    the capture's square emptied (no piece there, the royal not back), then played on, with
    the moves ``texts`` or up to ``count`` random ones (never taking a royal piece)."""
    assert played.mate == len(played.moves)
    board = list(played.final.board)
    board[played.moves[-1].target] = 0
    side = played.final.turn
    position = GAME.parse_position(f"{format_board(board)} {'bw'[side]} 1", RULES)
    moves, shown, records = list(played.moves), list(played.texts), list(played.records)
    for index in range(len(texts) or count):
        options = [move for sq, cell in enumerate(position.board)
                   if cell and cell & 1 == position.turn for move in position.moves_from(sq)
                   if not any(position.board[c] >> 1 in ROYAL_IDS for c in move.captures)]
        if texts:
            (move,) = [m for m in options if GAME.format_move(m, position) == texts[index]]
        elif not options:
            break  # the side to move has nothing left to move
        else:
            assert rng is not None
            move = rng.choice(options)
        moves.append(move)
        shown.append(GAME.format_move(move, position))
        records.append(move_record(move, position))
        position.push(move)
    return Played(played.start, tuple(moves), tuple(shown), tuple(records), position,
                  played.mate)


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


def _first(rng: random.Random, start: str) -> Position:
    return (handicap_start(rng, rng.randint(1, 3)) if start == "handicap"
            else setup_start(rng) if start == "set-up" else GAME.start_position(RULES))


def _pick(rng: random.Random, legal: list[Move]) -> Move:
    """Captures preferred, and double captures and captures that return to their square
    most (so the quirks of capturing moves come up in short games)."""
    captures = [m for m in legal if m.captures]
    lion_like = [m for m in captures if len(m.captures) > 1 or m.origin == m.target]
    if lion_like and rng.random() < 0.7:
        return rng.choice(lion_like)
    return rng.choice(captures if captures and rng.random() < 0.6 else legal)


@functools.lru_cache(maxsize=256)
def random_game(seed: int, plies: int, start: str = "normal") -> Played:
    """A random legal game of at most ``plies`` plies from a ``start`` of :data:`STARTS`,
    captures preferred, that never takes a side's last royal piece (ShogiVar would have ended
    it: see :func:`mating_game`)."""
    rng = random.Random(seed)
    first = _first(rng, start)
    position = first.copy()
    moves = []
    for _ in range(plies):
        legal = [m for m in position.legal_moves() if not takes_last_royal(m, position)]
        if not legal:
            break
        move = _pick(rng, legal)
        moves.append(move)
        position.push(move)
    return replayed(first, moves)


def _distance(a: int, b: int) -> int:
    (ra, ca), (rb, cb) = divmod(a, 19), divmod(b, 19)
    return max(abs(ra - rb), abs(ca - cb))


@functools.lru_cache(maxsize=256)
def mating_game(seed: int, plies: int, start: str = "normal", *,
                computer: bool = True) -> Played:
    """A random game from a ``start`` of :data:`STARTS`: ``plies`` plies as
    :func:`random_game` plays them, then both sides hunt the other's royal pieces until a
    move takes the last one (the next seed is tried when that takes over 240 plies)."""
    for attempt in range(50):
        rng = random.Random(seed * 50 + attempt)
        prefix = random_game(seed * 50 + attempt, plies, start)
        position = prefix.final.copy()
        moves = list(prefix.moves)
        for _ in range(240):
            legal = list(position.legal_moves())
            if not legal:
                break
            mates = [m for m in legal if takes_last_royal(m, position)]
            if mates:
                moves.append(rng.choice(mates))
                return replayed(prefix.start, moves, computer=computer)
            if rng.random() < 0.8:
                royals = position.royals(1 - position.turn)
                near = {m: min(_distance(m.target, r) for r in royals) for m in legal}
                best = min(near.values())
                move = rng.choice([m for m in legal if near[m] == best])
            else:
                move = _pick(rng, legal)
            moves.append(move)
            position.push(move)
    raise AssertionError(f"no mate from seed {seed}")


def numbers_of_a_move(played: Played, rng: random.Random) -> Numbers:
    """The numbers of a legal move in ``played``'s final position, as a move taken back
    leaves them in the last record (zeros when there is none)."""
    legal = list(played.final.legal_moves())
    if not legal:
        return (0, 0, 0, 0), ()
    return move_record(rng.choice(legal), played.final)


def garbage_numbers(rng: random.Random) -> Numbers:
    """Numbers that stand for no move of this game: zeros, or a move's worth of piece codes
    and squares left over from an earlier game (e.g. ``2,2,239,219``)."""
    if rng.random() < 0.3:
        return (0, 0, 0, 0), ()
    code = rng.choice((1, -1)) * rng.randint(1, 78)
    squares = [20 * rng.randint(1, 19) + rng.randint(1, 19) for _ in range(2)]
    captures = tuple((20 * rng.randint(1, 19) + rng.randint(1, 19),
                      rng.choice((1, -1)) * rng.randint(1, 78))
                     for _ in range(rng.randint(0, 2)))
    return (code, rng.choice((code, rng.randint(-78, 78))), *squares), captures


def stale_entries(played: Played, rng: random.Random) -> dict[int, tuple[tuple[int, int], ...]]:
    """Capture entries a taken-back capture leaves in a ply's slot (ply number → entries):
    an enemy piece standing on its square before that ply, as ShogiVar lists it before the
    entries of the move played instead."""
    if not played.moves or rng.random() < 0.5:
        return {}
    number = rng.randint(1, len(played.moves) if played.mate is None else played.mate)
    position = played.start.copy()
    for move in played.moves[:number - 1]:
        position.push(move)
    enemies = [sq for sq, cell in enumerate(position.board)
               if cell and cell & 1 != position.turn and cell >> 1 not in ROYAL_IDS]
    if not enemies:
        return {}
    square = rng.choice(enemies)
    return {number: ((svar_square(square), piece_code(position.board[square])),)}


def move_number(ply: int, white_first: bool) -> int:
    """The number of the move pair ply ``ply`` (1 = the first) belongs to, as ShogiVar counts:
    ``1. - P-10g`` makes a White-first game's first ply move 1."""
    return (ply + (2 if white_first else 1)) // 2


GARBAGE = ("??", "???", "? ?v?GV", "????", '?,"v?', "?x?")
"""Texts of ShogiVar's extra ply after the end: bytes it did not set, each it cannot print
written ``?`` (``??`` as in ``tests/data/maka/shogivar-*-mate-*.svar``, ``???`` as in the
issue's saves, ``? ?v?GV`` as in ``shogivar-handicap-mate-E.svar``; another has a quote and a
comma)."""


def marked(played: Played, *, computer: bool) -> str:
    """The mating move's text as ShogiVar rewrites it: ``"16. FKx8a mate"`` (the computer's
    without its ``+``: its extra ply promotes the capturer after the text is written)."""
    assert played.mate is not None
    text = played.texts[played.mate - 1]
    if computer:
        text = text.removesuffix("+")
    return f"{move_number(played.mate, played.start.turn == 1)}. {text} mate"


@dataclasses.dataclass(frozen=True)
class Save:
    """A generated save and what reading it must give."""

    text: str
    played: Played
    ending: str
    """One of :data:`ENDINGS`."""
    marked: str | None
    """The mating move's text as ShogiVar wrote it (``"16. FKx8a mate"``)."""
    extra: str | None
    """The extra ply's text after the computer's mate, when the save has it."""


def write_save(played: Played, *, ending: str = "stopped", garbage: str = "??",
               extra: Numbers | None = None, stale: Numbers = ((0, 0, 0, 0), ()),
               entries: Mapping[int, tuple[tuple[int, int], ...]] | None = None,
               clocks: tuple[str, str] = ("00:00:00", "00:00:00"), handicap: bool = False,
               description: str = "Saved Game - No Title", computer: str = "None") -> str:
    """The save ShogiVar writes of ``played`` ending as ``ending`` says (:data:`ENDINGS`):
    the extra ply's text ``"N. <garbage> mate"`` and numbers ``extra`` (by default zeros
    but for "piece after"), the last record's numbers ``stale``, and ``entries`` (ply number
    → capture entries) listed before a ply's own, as a taken-back capture leaves them."""
    white_first = played.start.turn == 1
    texts: list[str] = list(played.texts)
    numbers = [(values, (*(entries or {}).get(number, ()), *captures))
               for number, (values, captures) in enumerate(played.records, 1)]
    mate = played.mate if ending != "stopped" else None
    computer_mate = ending in ("mate-computer", "mate-taken-back", "mate-continued")
    if mate is not None:
        if extra is None:
            extra = ((0, promoted_code(played), 0, 0), ())
        texts[mate - 1] = marked(played, computer=computer_mate)
        if ending == "mate-computer":
            texts.insert(mate, f"{move_number(mate + 1, white_first)}. {garbage} mate")
            numbers.insert(mate, extra)
        elif ending == "mate-taken-back":
            stale = extra  # the extra ply's numbers stay in the last record
    plies = len(texts)
    side = played.start.turn ^ (plies & 1)
    last = texts[-1] if texts else ""
    ended = mate is not None and plies in (mate, mate + 1)  # nothing played after it
    status = "" if not texts else (last if ended
                                   else f"{move_number(plies, white_first)}. {last}")
    lost = [0, 0]  # the last two header values: White's King lost, Black's King lost
    if mate is not None:
        lost[played.start.turn ^ (mate & 1)] = 1  # the side to move after the mate lost
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
    game_over = ending in ("mate-human", "mate-computer")
    lines += [f'"{description}"', f'"{computer}"', "1", str(int(game_over)), '"Off"']
    return "\n".join(lines) + "\n"


def make_save(seed: int, plies: int, *, start: str, ending: str,
              stale_kind: str = "zeros") -> Save:
    """A save of a random game from ``start`` ending as ``ending`` says (one of
    :data:`ENDINGS`): ``plies`` random plies, then (for a mate) the hunt for the last royal
    piece and, for ``mate-continued``, a few more plies. The last record's numbers are zeros,
    ``left-over`` ones of another game, or those of a move ``taken-back`` (``stale_kind``)."""
    rng = random.Random(seed * 7 + plies)
    if ending == "stopped":
        played = random_game(seed, plies, start)
    else:
        played = mating_game(seed, plies, start, computer=ending != "mate-human")
        if ending in ("mate-taken-back", "mate-continued"):
            played = played_on(played, rng=rng, count=rng.randint(1, 4) if
                               ending == "mate-continued" else 0)
            if played.mate == len(played.moves):  # nothing could be played on
                ending = "mate-taken-back"
    stale = {"zeros": ((0, 0, 0, 0), ()), "left-over": garbage_numbers(rng),
             "taken-back": numbers_of_a_move(played, rng)}[stale_kind]
    garbage = rng.choice(GARBAGE)
    extra = None
    if ending == "mate-computer" and rng.random() < 0.5:  # left over, but "piece after"
        (before, _, origin, target), captures = garbage_numbers(rng)
        extra = (before, promoted_code(played), origin, target), captures
    text = write_save(played, ending=ending, garbage=garbage, extra=extra, stale=stale,
                      entries=stale_entries(played, rng), handicap=start == "handicap",
                      clocks=("00:00:02", "00:01:32"))
    mark = extra_text = None
    if ending != "stopped":
        mark = marked(played, computer=ending != "mate-human")
        if ending == "mate-computer":
            assert played.mate is not None
            extra_text = (f"{move_number(played.mate + 1, played.start.turn == 1)}. "
                          f"{garbage} mate")
    return Save(text, played, ending, mark, extra_text)
