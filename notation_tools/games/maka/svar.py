"""ShogiVar's save file (``.svar``, Game > Save Game), read into a record (§9.9).

ShogiVar (Steve Evans' Shogi Variants, 1.55b) saves a game as plain ASCII, one value or one
comma-separated record per line. What this reader relies on:

* line 1 ``"Maka",0,<move number>,"<side to move>",0,0,<plies>,...``: the 7th value is the
  number of plies; another variant's name is ``E-UNKNOWN-VARIANT``;
* line 2, the status-bar text of the last move; line 3, two clock strings and the handicap
  flag;
* one move record per ply, and one more: ``"<text>",<piece before>,<piece after>,<from>,
  <to>``, a line with the number n of captures, then n pairs of lines ``<square>`` and
  ``<piece>``. The text runs one record behind the numbers: ply k's text is in record k+1
  (the first record's text is ``""``) and its numbers in record k. The last record repeats
  the last ply's text with numbers left over from an earlier move (zeros, or a move taken
  back), which are not read;
* end records: ShogiVar ends a game when a move captures a side's last royal piece (its
  "Checkmate!", the toolkit's royal capture, §6.10). It writes that move's text as
  ``"<move number>. <move> mate"`` (``"16. FKx8a mate"``). When the computer made the move,
  it adds an extra ply, counted in line 1, whose text is ``"<move number>. <bytes> mate"``
  (``"14. ?? mate"``, ``"399. ??? mate"``: ``?`` is how it prints a byte it cannot print) and
  whose numbers are left over from an earlier game or move, but for "piece after", the
  capturer's promoted form: its promotion is made by that ply, so the move's own text has no
  ``+``. Take Back of the extra ply is the only way to play on after the end; it leaves the
  marked move between moves and changes the board on the squares that ply's numbers name;
* the final board, 361 piece codes, rank a first and within a rank file 19 first;
* the description in quotes, which sides the computer played, two numbers and ``"Off"``.

Squares are ``20 * (rank index + 1) + (20 - file)``; piece codes are the line numbers of the
piece table of ShogiVar's ``Maka.dat`` (:data:`PIECE_CODES`), positive for Black and negative
for White. The start position is not stored: it is rebuilt by undoing every move from the saved
board (the move records name each mover and what it captured; a "piece after" that is not the
mover's promoted form, and a capture entry of the mover's own side, are ShogiVar's quirks and
are ignored). A start other than the normal one (a handicap) becomes ``SetUp``/``FEN``. The
record's moves are the plies' texts, ShogiVar's TSA notation, and replaying them must end on
the saved board: ``E-SVAR-BOARD`` when it does not (``W-SVAR-TAKEN-BACK`` when they differ
only where Take Back of the extra ply changed it). An end record that closes the game gives
``Termination`` (ShogiVar's word) and the ``Result`` the replay finds (the capturer wins);
every end record is told in the record's closing comment.
"""

from __future__ import annotations

import csv
import dataclasses
import re
from collections.abc import Sequence

from notation_tools.games.base import EngineError, MoveSyntaxError
from notation_tools.games.file_formats import ForeignRecord
from notation_tools.games.maka.notation import format_move, resolve_move
from notation_tools.games.maka.options import DEFAULT_RULES
from notation_tools.games.maka.pieces import SIZE, TYPE_ID, square_name
from notation_tools.games.maka.position import format_board, parse_position, start_position
from notation_tools.games.maka.rules import Position

PIECE_CODES: tuple[tuple[int, str, str], ...] = (
    (1, "K", "King"), (2, "P", "Pawn"), (3, "L", "Lance"), (4, "S", "Silver General"),
    (5, "G", "Gold General"), (6, "C", "Copper General"), (7, "B", "Bishop"),
    (8, "R", "Rook"), (9, "AB", "Angry Boar"), (10, "DH", "Dragon Horse"),
    (11, "DK", "Dragon King"), (12, "BB", "Blind Bear"), (13, "FL", "Ferocious Leopard"),
    (14, "FK", "Free King"), (15, "BT", "Blind Tiger"), (16, "Ky", "Kylin"),
    (17, "Ph", "Phoenix"), (18, "Ln", "Lion"), (19, "RC", "Reverse Chariot"),
    (20, "SM", "Side Mover"), (21, "VM", "Vertical Mover"), (22, "BDe", "Buddhist Devil"),
    (23, "CSw", "Cat Sword"), (24, "Ca", "Capricorn"), (25, "CC", "Chinese Cock"),
    (26, "CS", "Coiled Serpent"), (27, "DSp", "Dark Spirit"), (28, "EW", "Evil Wolf"),
    (29, "DV", "Deva"), (30, "FD", "Flying Dragon"), (31, "Do", "Donkey"),
    (32, "DE", "Drunk Elephant"), (33, "Ea", "Earth General"), (34, "GB", "Go-Between"),
    (35, "GG", "Guardian of the Gods"), (36, "N", "Knight"), (37, "HM", "Hook Mover"),
    (38, "OM", "Old Monkey"), (39, "I", "Iron General"), (40, "LCh", "Left Chariot"),
    (41, "RD", "Reclining Dragon"), (42, "LD", "Lion Dog"), (43, "SF", "Side Flyer"),
    (44, "T", "Tile General"), (45, "Wr", "Wrestler"), (46, "RCh", "Right Chariot"),
    (47, "SD", "She-Devil"), (48, "St", "Stone General"), (49, "VO", "Violent Ox"),
    (50, "OR", "Old Rat"), (51, "FF", "Furious Fiend"), (52, "Bt", "Bat"),
    (53, "BSp", "Buddhist Spirit"), (54, "E", "Emperor"), (55, "FBe", "Free Bear"),
    (56, "FBo", "Free Boar"), (57, "FC", "Free Cat"), (58, "FCo", "Free Copper"),
    (59, "FDr", "Free Dragon"), (60, "FEa", "Free Earth"), (61, "FG", "Free Goer"),
    (62, "FGo", "Free Gold"), (63, "FIr", "Free Iron"), (64, "FLp", "Free Leopard"),
    (65, "FSe", "Free Serpent"), (66, "FSi", "Free Silver"), (67, "FSt", "Free Stone"),
    (68, "FT", "Free Tiger"), (69, "FTi", "Free Tile"), (70, "FW", "Free Wolf"),
    (71, "GBd", "Golden Bird"), (72, "GD", "Great Dragon"), (73, "MW", "Mountain Witch"),
    (74, "Pr", "Prince"), (75, "+P", "Tokin"), (76, "TK", "Teaching King"),
    (77, "WS", "Wizard Stork"), (78, "+G", "Gold General (promoted)"),
)
"""ShogiVar's piece code (the line of its ``Maka.dat`` piece table), the abbreviation this
toolkit uses for that piece (ShogiVar's own, but ``+G`` for its second Gold General, the
promoted form of many pieces), and ShogiVar's name."""

_TYPE_OF_CODE = {code: TYPE_ID[abbr] for code, abbr, _ in PIECE_CODES}
_CELLS = SIZE * SIZE
_HEADER = re.compile(r'^"([^"]*)",-?\d+,(\d+),"(Black|White)",')
_END_RECORD = re.compile(r"^(?P<number>\d+)\. (?P<move>.*) (?P<word>[A-Za-z]+)$")
"""ShogiVar's end record, ``"<move number>. <text> <word>"``: the mating move's text
(``"16. FKx8a mate"``), then an extra ply's (``"16. ? ?v?GV mate"``, ``"399. ??? mate"``).
ShogiVar 1.55b's only word is ``mate``."""
_RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
"""The result of an outcome, by its winner."""
_MAX_CAPTURES = 12
"""The capture entries one move record can hold: ShogiVar's slot has room for 12, and Take
Back does not empty it, so a capture taken back stays listed beside the next move's own."""


def sniff_svar(head: str) -> bool:
    """Whether a file's head is a ShogiVar save (of any variant: another one is refused by
    name when read)."""
    return _HEADER.match(head) is not None


class _Lines:
    """The file's lines, each read as CSV when it is reached, with where a fault is (the
    line number). A line is read on its own: ShogiVar writes no field across lines, and a
    quote left open must not swallow the lines after it."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.number = 0

    def next(self, what: str) -> list[str]:
        if self.number >= len(self.lines):
            raise _bad(f"the file ends before {what} (line {self.number + 1})")
        self.number += 1
        line = self.lines[self.number - 1]
        try:
            # csv.Error: a stray quote, or a field past csv's bound (131,072 characters).
            return next(csv.reader([line]), [])
        except csv.Error as error:
            raise _bad(f"line {self.number}: {what} is not a CSV line ({error})") from None

    def first_value(self, what: str) -> str:
        """The next line's first value; ``""`` past the end or for an empty line (the
        trailer's lines are optional)."""
        if self.number >= len(self.lines):
            return ""
        row = self.next(what)
        return row[0] if row else ""

    def integers(self, what: str, count: int) -> list[int]:
        row = self.next(what)
        try:
            values = [int(v) for v in row[:count]]
        except ValueError:
            raise _bad(f"line {self.number}: {what} should be {count} numbers, not "
                       f"{','.join(row)[:60]!r}") from None
        if len(values) < count:
            raise _bad(f"line {self.number}: {what} should be {count} numbers")
        return values


def _bad(message: str) -> EngineError:
    return MoveSyntaxError(message, rule="§9.9", code="E-SVAR")


def _cell(value: int, line: int) -> int:
    """Our board cell for ShogiVar piece code ``value`` (0 empty)."""
    if value == 0:
        return 0
    kind = _TYPE_OF_CODE.get(abs(value))
    if kind is None:
        raise _bad(f"line {line}: {value} is no piece code of Maka-Dai-Dai Shogi")
    return kind * 2 + (0 if value > 0 else 1)


def _square(value: int, line: int) -> int:
    """Our square number for ShogiVar square ``value``."""
    rank, column = divmod(value, 20)
    file = 20 - column
    if not (1 <= rank <= SIZE and 1 <= file <= SIZE):
        raise _bad(f"line {line}: {value} is no square of the 19x19 board")
    return (rank - 1) * SIZE + (SIZE - file)


@dataclasses.dataclass(frozen=True)
class _MoveRecord:
    """One move record as stored: its text, its numbers, its capture entries and the line it
    starts on."""

    text: str
    before: int
    origin: int
    target: int
    captures: tuple[tuple[int, int], ...]
    line: int


@dataclasses.dataclass(frozen=True)
class _Ply:
    """A ply that is a move: its text, and the record that holds its numbers (the one before
    the record that holds its text)."""

    text: str
    numbers: _MoveRecord


@dataclasses.dataclass(frozen=True)
class _End:
    """A ply whose text is ShogiVar's end record (``"16. FKx8a mate"``, ``"399. ??? mate"``):
    the text, ShogiVar's word, the line that holds it and how many moves stand up to it."""

    text: str
    word: str
    line: int
    after_moves: int
    is_move: bool
    """Whether the end record is a move (``"16. FKx8a mate"``), else an extra ply."""
    ply: int
    """The ply it is (1 = the first)."""


def read_svar(text: str) -> ForeignRecord:
    """The record a ShogiVar save holds: its moves as TSA tokens, its start (``SetUp``/``FEN``
    when it is not the normal one), its clocks, description and computer sides as tags, and
    how ShogiVar ended the game (``Termination``, ``Result``, a comment).

    Raises ``EngineError``: ``E-UNKNOWN-VARIANT`` for another variant's save, ``E-SVAR`` for
    a file that does not have the layout above.
    """
    lines = _Lines(text)
    header = lines.next("the header")
    if len(header) < 7 or header[3] not in ("Black", "White"):
        raise _bad("line 1 is not a ShogiVar header (\"Maka\",0,<move>,\"<side>\",...)")
    if header[0] != "Maka":
        raise EngineError(f"a ShogiVar save of the variant {header[0]!r}, not of Maka-Dai-Dai "
                          "Shogi (\"Maka\"): no other ShogiVar variant is read", rule="§9.9",
                          code="E-UNKNOWN-VARIANT")
    try:
        plies = int(header[6])
    except (IndexError, ValueError):
        raise _bad("line 1: the number of plies (its 7th value) is missing") from None
    if not 0 <= plies <= 100_000:
        raise _bad(f"line 1: {plies} plies")
    lines.next("the status line")
    clocks = lines.next("the clocks")
    handicap = clocks[2].strip() if len(clocks) > 2 else "0"
    records = [_read_move_record(lines) for _ in range(plies + 1)]
    board = []
    for _ in range(_CELLS):
        (value,) = lines.integers("a square of the final board", 1)
        board.append(_cell(value, lines.number))
    description = lines.first_value("the description")
    computer = lines.first_value("the computer's side")

    moves, ends = _plies(records)
    start = _undo(board, moves)
    if moves:
        first = 0 if moves[0].numbers.before > 0 else 1
    else:
        first = 0 if header[3] == "Black" else 1
    tags: dict[str, str] = {}
    normal = start_position(DEFAULT_RULES)
    fen = f"{format_board(start)} {'b' if first == 0 else 'w'} 1"
    if start != normal.board or first != 0:
        tags["SetUp"] = "1"
        tags["FEN"] = fen
    if first == 1:
        tags["FirstPlayer"] = "White"
    tags["Clocks"] = ", ".join(clocks[:2])
    if handicap not in ("", "0"):
        tags["Handicap"] = handicap
    if description:
        tags["Description"] = description
    if computer:
        tags["Computer"] = computer
    tokens, notes, final = _replayed(fen, moves, ends, board, records[-1])
    comment = None
    if ends:
        told = [_describe(end, plies=len(moves)) for end in ends]
        if ends[-1].after_moves == len(moves):  # nothing was played after it: the game ended
            tags["Termination"] = ends[-1].word
            outcome = final.outcome() if final is not None else None
            if outcome is not None:
                # ShogiVar's mate is the rules' own end (§6.10): the result is the replay's.
                tags["Result"] = _RESULTS[outcome.winner]
            elif final is not None:
                told.append("the rules see the game going on")
        comment = "; ".join(told)
    return ForeignRecord(tags, tokens, tuple(notes), comment)


def _read_move_record(lines: _Lines) -> _MoveRecord:
    """The next move record: ``"text",before,after,from,to``, the number of captures, and the
    captures' square and piece lines."""
    lines.next("a move record")
    line = lines.number
    # Read from the right: an end record's text may hold any printable character, quotes and
    # commas included (the bytes ShogiVar prints as they are).
    fields = lines.lines[line - 1].rsplit(",", 4)
    if len(fields) < 5 or len(fields[0]) < 2 or fields[0][0] != '"' or fields[0][-1] != '"':
        raise _bad(f"line {line}: a move record is \"text\",before,after,from,to")
    try:
        before, _after, origin, target = (int(v) for v in fields[1:5])
    except ValueError:
        raise _bad(f"line {line}: a move record's numbers are not numbers") from None
    (count,) = lines.integers("the number of captures", 1)
    if not 0 <= count <= _MAX_CAPTURES:
        raise _bad(f"line {lines.number}: {count} captures in one move")
    captures = []
    for _ in range(count):
        (square,) = lines.integers("a captured square", 1)
        (piece,) = lines.integers("a captured piece", 1)
        captures.append((square, piece))
    return _MoveRecord(fields[0][1:-1], before, origin, target, tuple(captures), line)


def _plies(records: Sequence[_MoveRecord]) -> tuple[list[_Ply], list[_End]]:
    """The moves and the end records of ``records`` (one per ply and one more).

    Ply k's text is record k's and its numbers are record k-1's (the text runs one record
    behind); the last record's numbers are left over from an earlier move and are not read.
    A ply whose text is an end record ``"N. <text> <word>"`` is the move ``<text>`` when its
    numbers name a move and ``<text>`` can be one (no ``?``, which ShogiVar writes for each
    byte it cannot print, and no space); otherwise it is no move (ShogiVar's extra ply after
    the end, ``"399. ??? mate"``).
    """
    moves: list[_Ply] = []
    ends: list[_End] = []
    for ply in range(1, len(records)):
        holder, numbers = records[ply], records[ply - 1]
        mark = _END_RECORD.match(holder.text)
        if mark is None:
            moves.append(_move(ply, holder.text, numbers, holder, moves, ends))
            continue
        text = mark.group("move")
        # The extra ply follows the marked move; its numbers may be left over from any
        # earlier move, so only its place, or a text or numbers that are no move, tell it.
        is_move = (not (ends and ends[-1].ply == ply - 1)
                   and bool(text) and not any(c == "?" or c.isspace() for c in text)
                   and numbers.before != 0 and numbers.origin != 0 and numbers.target != 0)
        if is_move:
            moves.append(_move(ply, text, numbers, holder, moves, ends))
        ends.append(_End(holder.text, mark.group("word"), holder.line, len(moves), is_move,
                         ply))
    return moves, ends


def _move(ply: int, text: str, numbers: _MoveRecord, holder: _MoveRecord,
          moves: Sequence[_Ply], ends: Sequence[_End]) -> _Ply:
    """Ply ``ply`` as a move: ``text`` (from ``holder``) played as ``numbers`` say, after
    ``moves`` and ``ends``."""
    if not text:
        raise _bad(f"line {holder.line}: ply {ply} has no move text")
    if numbers.before == 0 or numbers.origin == 0 or numbers.target == 0:
        raise _bad(f"line {numbers.line}: ply {ply} ({text}) has no piece or square in its "
                   "move record")
    if moves and (moves[-1].numbers.before > 0) == (numbers.before > 0):
        side = "Black" if numbers.before > 0 else "White"
        between = [end for end in ends if end.after_moves == len(moves) and not end.is_move]
        after = f", then ShogiVar's end record on line {between[-1].line}" if between else ""
        raise _bad(f"line {numbers.line}: ply {ply} ({text}) is {side}'s move, and so is the "
                   f"move before it ({moves[-1].text}{after}): a record holds no two moves "
                   "in a row by one side")
    return _Ply(text, numbers)


def _describe(end: _End, *, plies: int) -> str:
    """A comment's words for ShogiVar's end record ``end`` in a record of ``plies`` moves."""
    if end.is_move:
        where = f"ply {end.after_moves}"
    else:
        where = (f"an extra ply after ply {end.after_moves}" if end.after_moves
                 else "an extra ply before any move")
    went_on = "" if end.after_moves == plies else "; the game went on"
    return f"ShogiVar: {end.text!r} ({where}, line {end.line}){went_on}"


def _undo(board: list[int], moves: Sequence[_Ply]) -> list[int]:
    """The board before ``moves``, undone one by one from ``board`` (the final one)."""
    start = list(board)
    for move in reversed(moves):
        numbers = move.numbers
        line = numbers.line
        mover = _cell(numbers.before, line)
        side = 0 if numbers.before > 0 else 1
        source, dest = _square(numbers.origin, line), _square(numbers.target, line)
        start[dest] = 0
        start[source] = mover
        for square, piece in numbers.captures:
            if piece == 0 or (piece > 0) == (side == 0):
                continue  # the mover itself, listed when it returns to its square
            start[_square(square, line)] = _cell(piece, line)
    return start


def _replayed(fen: str, moves: Sequence[_Ply], ends: Sequence[_End], saved: list[int],
              last: _MoveRecord) -> tuple[tuple[str, ...], list[tuple[str, str]],
                                          Position | None]:
    """The moves' tokens, ``E-SVAR-BOARD`` when they, replayed from the rebuilt start, do not
    end on the saved board, and the position they end on (``None`` when a move does not
    replay: that is left to the replay's own diagnostic).

    A text that fits an original and a gold-promoted Gold (the Gold case, §9.2 step 6:
    ShogiVar writes both ``G``) is read as the one on the square the save's numbers give, and
    written with that origin (``G11lx12k``), so the record holds the game the save does. A
    marked move (``"14. Px10a mate"``) that promotes gets its ``+``: ShogiVar's computer writes
    the text before its extra ply promotes the capturer.

    When the last move is marked and no extra ply follows, that ply was taken back, and
    ShogiVar's Take Back changed the board where the ply's numbers (left in ``last``) and the
    move's target point: a board that differs only there is ``W-SVAR-TAKEN-BACK``.
    """
    tokens = [move.text for move in moves]
    marked = {end.after_moves - 1 for end in ends if end.is_move}
    try:
        position = parse_position(fen, DEFAULT_RULES)
        for index, move in enumerate(moves):
            found = resolve_move(move.text, position)
            played = found.move
            if found.alternatives:
                origin = _square(move.numbers.origin, move.numbers.line)
                played = next((reading for reading in (played, *found.alternatives)
                               if reading.origin == origin), played)
                tokens[index] = format_move(played, position, "tsa-full")
            elif (index in marked and played.becomes != position.board[played.origin] >> 1
                  and any(code == "W-PROMOTION-MARK" for code, _, _ in found.warnings)):
                tokens[index] = format_move(played, position)
            position.push(played)
    except EngineError:
        return tuple(tokens), [], None
    if position.board == saved:
        return tuple(tokens), [], position
    differ = [sq for sq, (ours, theirs) in enumerate(zip(position.board, saved))
              if ours != theirs]
    touched = _taken_back(moves, ends, last)
    if set(differ) <= touched:
        names = ", ".join(square_name(sq) for sq in differ)
        return tuple(tokens), [("W-SVAR-TAKEN-BACK", (
            f"the saved board differs from the replayed one on {names}: ShogiVar's extra ply "
            f"after the mate was taken back (its numbers stay on line {last.line}), which "
            "changed the board there"))], position
    return tuple(tokens), [("E-SVAR-BOARD", f"the moves replayed from the start do not end "
                            f"on the board the file saved ({len(differ)} squares differ)")], \
        position


def _taken_back(moves: Sequence[_Ply], ends: Sequence[_End], last: _MoveRecord) -> set[int]:
    """The squares Take Back of ShogiVar's extra ply may have changed: none unless the last
    move is marked with no extra ply after it; then its target and the squares the extra
    ply's numbers (left in the last record, ``last``) name."""
    if not (moves and ends and ends[-1].is_move and ends[-1].after_moves == len(moves)):
        return set()
    numbers = moves[-1].numbers
    touched = {_square(numbers.target, numbers.line)}
    for value in (last.origin, last.target):
        rank, column = divmod(value, 20)
        if 1 <= rank <= SIZE and 1 <= 20 - column <= SIZE:
            touched.add(_square(value, last.line))
    return touched
