"""ShogiVar's save file (``.svar``, Game > Save Game), read into a record (§9.9).

ShogiVar (Steve Evans' Shogi Variants, 1.55b) saves a game as plain ASCII, one value or one
comma-separated record per line. What this reader relies on:

* line 1 ``"Maka",0,<move number>,"<side to move>",0,0,<plies>,...``: another variant's name
  is ``E-UNKNOWN-VARIANT``;
* line 2, the status-bar text of the last move; line 3, two clock strings and the handicap
  flag;
* one record per ply, and one more: ``"<text>",<piece before>,<piece after>,<from>,<to>``, a
  line with the number n of captures, then n pairs of lines ``<square>`` and ``<piece>``. The
  text runs one record behind the numbers: record k holds the numbers of ply k and the text of
  ply k-1 (the first ``""``). A finished game adds a record that is no move (its piece is 0);
* the final board, 361 piece codes, rank a first and within a rank file 19 first;
* the description in quotes, which sides the computer played, two numbers and ``"Off"``.

Squares are ``20 * (rank index + 1) + (20 - file)``; piece codes are the line numbers of the
piece table of ShogiVar's ``Maka.dat`` (:data:`PIECE_CODES`), positive for Black and negative
for White. The start position is not stored: it is rebuilt by undoing every ply from the saved
board (the move records name each mover and what it captured; a "piece after" that is not the
mover's promoted form, and a capture entry of the mover's own side, are ShogiVar's quirks and
are ignored). A start other than the normal one (a handicap) becomes ``SetUp``/``FEN``. The
record's moves are the plies' texts, ShogiVar's TSA notation, and replaying them must end on
the saved board: ``E-SVAR-BOARD`` when it does not.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence

from notation_tools.games.base import EngineError, MoveSyntaxError
from notation_tools.games.file_formats import ForeignRecord
from notation_tools.games.maka.notation import resolve
from notation_tools.games.maka.options import DEFAULT_RULES
from notation_tools.games.maka.pieces import SIZE, TYPE_ID
from notation_tools.games.maka.position import format_board, parse_position, start_position

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


def sniff_svar(head: str) -> bool:
    """Whether a file's head is a ShogiVar save (of any variant: another one is refused by
    name when read)."""
    return _HEADER.match(head) is not None


class _Lines:
    """The file's lines, each read as CSV, with where a fault is (the line number)."""

    def __init__(self, text: str) -> None:
        self.rows = list(csv.reader(text.splitlines()))
        self.number = 0

    def next(self, what: str) -> list[str]:
        if self.number >= len(self.rows):
            raise _bad(f"the file ends before {what} (line {self.number + 1})")
        self.number += 1
        return self.rows[self.number - 1]

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


def read_svar(text: str) -> ForeignRecord:
    """The record a ShogiVar save holds: its moves as TSA tokens, its start (``SetUp``/``FEN``
    when it is not the normal one), and its clocks, description and computer sides as tags.

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
    records: list[tuple[str, int, int, int, int, list[tuple[int, int]], int]] = []
    for _ in range(plies + 1):
        row = lines.next("a move record")
        line = lines.number
        if len(row) < 5:
            raise _bad(f"line {line}: a move record is \"text\",before,after,from,to")
        try:
            before, after, origin, target = (int(v) for v in row[1:5])
        except ValueError:
            raise _bad(f"line {line}: a move record's numbers are not numbers") from None
        (count,) = lines.integers("the number of captures", 1)
        if not 0 <= count <= 4:
            raise _bad(f"line {lines.number}: {count} captures in one move")
        captures = []
        for _ in range(count):
            (square,) = lines.integers("a captured square", 1)
            (piece,) = lines.integers("a captured piece", 1)
            captures.append((square, piece))
        records.append((row[0], before, after, origin, target, captures, line))
    board = []
    for _ in range(_CELLS):
        (value,) = lines.integers("a square of the final board", 1)
        board.append(_cell(value, lines.number))
    trailer = [lines.rows[i] for i in range(lines.number, len(lines.rows))]
    description = trailer[0][0] if trailer and trailer[0] else ""
    computer = trailer[1][0] if len(trailer) > 1 and trailer[1] else ""

    # The plies: the records whose numbers name a move (a finished game's last record does not).
    moves = []
    for number, (_, before, _, origin, target, captures, line) in enumerate(records):
        if before == 0 or origin == 0:
            break
        text = records[number + 1][0] if number + 1 < len(records) else ""
        if not text or "???" in text:
            raise _bad(f"line {records[number + 1][6] if number + 1 < len(records) else line}:"
                       f" ply {number + 1} has no move text")
        moves.append((text, before, origin, target, captures, line))
    start = _undo(board, moves)
    first = 0 if not moves else (0 if moves[0][1] > 0 else 1)
    if not moves:
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
    notes = _check_final(fen, [m[0] for m in moves], board)
    return ForeignRecord(tags, tuple(m[0] for m in moves), tuple(notes))


def _undo(board: list[int], moves: Sequence[tuple[str, int, int, int, list[tuple[int, int]], int]]
          ) -> list[int]:
    """The board before ``moves``, undone one by one from ``board`` (the final one)."""
    start = list(board)
    for _, before, origin, target, captures, line in reversed(moves):
        mover = _cell(before, line)
        side = 0 if before > 0 else 1
        source, dest = _square(origin, line), _square(target, line)
        start[dest] = 0
        start[source] = mover
        for square, piece in captures:
            if piece == 0 or (piece > 0) == (side == 0):
                continue  # the mover itself, listed when it returns to its square
            start[_square(square, line)] = _cell(piece, line)
    return start


def _check_final(fen: str, tokens: Sequence[str], saved: list[int]) -> list[tuple[str, str]]:
    """``E-SVAR-BOARD`` when the moves, replayed from the rebuilt start, do not end on the
    saved board. A move that does not replay is left to the replay's own diagnostic."""
    try:
        position = parse_position(fen, DEFAULT_RULES)
        for token in tokens:
            position.push(resolve(token, position).move)
    except EngineError:
        return []
    if position.board == saved:
        return []
    differ = sum(1 for a, b in zip(position.board, saved) if a != b)
    return [("E-SVAR-BOARD", f"the moves replayed from the start do not end on the board the "
             f"file saved ({differ} squares differ)")]
