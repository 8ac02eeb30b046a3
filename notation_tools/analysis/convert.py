"""Conversion: a record rewritten for another container, move notation or file format.

:func:`convert_record` replays a record once: on the way it re-writes every move (main line
and variations) in the notation asked for, or adds each move's structured JSON form, or, for
a game's own file format, collects the main line and writes the file's text. Tags, comments,
NAGs and variations survive; what replay finds wrong is on ``record.diagnostics``, and moves
after a line's first illegal move stay as they were written. Does not read files or print:
``convert`` and the Python API hand the result to a :mod:`notation_tools.records.writers`
writer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.games.base import Game, Position, Rules, all_games
from notation_tools.records.diagnostics import WARNING, Diagnostic
from notation_tools.records.model import Move, Record, Tag
from notation_tools.records.pgn import written_result
from notation_tools.records.writers import RECORD_WRITERS, RecordWriter


def notations() -> list[str]:
    """Every move notation of every registered game, in registry order."""
    names: dict[str, None] = {}
    for game in all_games():
        names.update(dict.fromkeys(game.notations))
    return list(names)


def file_format_names() -> list[str]:
    """Every file format name of every registered game that ``convert`` can write (``kfen``,
    ``ebarjou``, ...; a format that is only read is not among them)."""
    names: dict[str, None] = {}
    for game in all_games():
        names.update(dict.fromkeys(fmt.name for fmt in game.file_formats
                                   if fmt.write is not None))
    return list(names)


def targets() -> list[str]:
    """What ``convert --to`` accepts: containers, notations and file formats."""
    return [*RECORD_WRITERS, *notations(), *file_format_names()]


@dataclasses.dataclass(frozen=True)
class Conversion:
    """What to convert to, and how.

    ``target`` is a container (``pgn``, ``json``, ``jsonl``: move texts kept unless
    ``notation`` is given), a move notation (PGN with every move re-written), or a game's own
    file format. ``game``/``rules`` override the records' ``Variant``/``Rules`` tags and are
    written into them; ``ply`` picks the position a one-position format holds (default: the
    end); ``annotate`` writes the claims a notation may carry as the rules compute them.
    """

    target: str
    notation: str | None = None
    game: str | None = None
    rules: str | None = None
    ply: int | None = None
    annotate: bool = False

    @property
    def is_file_format(self) -> bool:
        return self.target not in RECORD_WRITERS and self.target not in notations()

    @property
    def container(self) -> str:
        """The container the records are written in (a file format writes its own text)."""
        return self.target if self.target in RECORD_WRITERS else "pgn"

    @property
    def move_notation(self) -> str | None:
        return self.target if self.target in notations() else self.notation


def file_format_suffix(name: str) -> str:
    """The ending of the files written in file format ``name`` (``.kfen``)."""
    for game in all_games():
        for fmt in game.file_formats:
            if fmt.name == name:
                return fmt.file_suffix
    raise KeyError(name)


def export_file_name(record: Record, number: int, suffix: str) -> str:
    """The file ``convert --to FORMAT -o DIR`` writes the ``number``-th record to: the number,
    then the players when the tags name them, e.g. ``0003-Becker-Ho-Debord.kfen``.

    >>> export_file_name(Record(tags=[Tag("North", "Becker-Ho"), Tag("South", "Debord")]), 3, ".kfen")
    '0003-Becker-Ho-Debord.kfen'
    """
    players = [value for name in ("North", "South", "White", "Black")
               if (value := record.tag(name)) and value not in ("?", "-", "random")]
    words = [f"{number:04d}", *players[:2]]
    safe = "-".join("".join(c if c.isalnum() or c in "-_." else "_" for c in word)
                    for word in words)
    return safe[:120] + suffix


REFUSALS = frozenset({"E-CANNOT-WRITE", "E-BAD-NOTATION"})
"""The codes of a record that is not written: it cannot be written as asked (it was not read
whole, the container cannot hold it, or its game has no such notation)."""


def convert_record(record: Record, conversion: Conversion) -> str | None:
    """Convert ``record`` (replaying it when the conversion needs the moves).

    For a container or a notation, ``record`` is rewritten in place and ``None`` returned:
    write it with :func:`write_converted`. For a game's file format, the file's text is
    returned, or ``None`` (with a diagnostic) when the record cannot be written in it.

    A record written to a container names itself there, whatever it was read from: a record
    known only by its look (another program's score, with no ``Variant`` tag) gets the tag,
    and the other program's title lines become its first comment. Written as PGN, every move
    that PGN numbers gets its number (from the replay: the side to move before it) and every
    move its text (a JSON move given only as ``data`` is written in the game's first
    notation), so the text reads back as the same game.

    A record the reader could not read whole (a syntax error, a limit) is refused with
    ``E-CANNOT-WRITE``: what was read of it would read back as another record. A record whose
    game has no notation ``conversion`` asks for is refused with ``E-BAD-NOTATION``.
    """
    if any(d.is_error for d in record.diagnostics):
        record.diagnostics.append(Diagnostic(
            "E-CANNOT-WRITE", "the record could not be read whole (see above): it is not "
            "written", record.path, record.line, 1, record=record.index))
        return None
    if conversion.game is not None:
        record.set_tag("Variant", conversion.game)
    if conversion.is_file_format:
        return _write_file_format(record, conversion)
    notation = conversion.move_notation
    pgn = conversion.container == "pgn"
    unnamed = record.find_tag("Variant") is None and record.find_tag("Game") is None \
        and bool(record.moves)
    numbering = pgn and not _numbered(record.moves)
    if pgn and notation is None and not conversion.annotate and not unnamed \
            and not numbering and not _textless(record.moves):
        add_result_tag(record)  # a PGN record that names its game, numbered: nothing to replay
        return None
    rewrite = _Rewrite(record, notation, not pgn, conversion.annotate, fill_text=pgn)
    result = replay(record, game_name=conversion.game, rules_text=conversion.rules,
                    visitor=rewrite, keep_start=numbering)
    if rewrite.refused:
        return None
    game = result.game
    if unnamed and game is not None:
        # A record known by its look is known by its tag once written; the title lines of
        # the program that wrote it are no moves (replay skipped them): their words are kept
        # as the record's first comment (a rule of underscores is no words).
        skip = game.dialect.preamble_length([move.text for move in record.moves[:16]])
        title = " ".join(move.text for move in record.moves[:skip] if set(move.text) != {"_"})
        del record.moves[:skip]
        if title:
            record.initial_comments.insert(0, title)
        record.tags.entries().insert(0, Tag("Variant", game.id))
    if numbering:
        start = result.start
        number_moves(record.moves, game, rewrite.sides,
                      game.dialect.first_move_number(start) if game and start else 1,
                      start.turn if start is not None else 0)
    if conversion.rules is not None and result.rules is not None:
        record.set_tag("Rules", result.rules.describe())
    if pgn:
        add_result_tag(record)
    return None


def add_result_tag(record: Record) -> None:
    """PGN's roster of tags has the result: a record without the tag gets it, saying what its
    movetext's result token says (and the token is written from then on)."""
    if record.find_tag("Result") is None:
        record.result = written_result(record)
        record.tags.entries().append(Tag("Result", record.result))


def write_converted(record: Record, writer: RecordWriter) -> bool:
    """Write a converted record, or refuse it: with an ``E-CANNOT-WRITE`` diagnostic when the
    container cannot hold it as it is (it would read back as another record), or when
    :func:`convert_record` refused it already (:data:`REFUSALS`)."""
    if any(d.code in REFUSALS for d in record.diagnostics):
        return False
    problems = writer.problems(record)
    if problems:
        record.diagnostics.append(Diagnostic(
            "E-CANNOT-WRITE", f"not written as {writer.name}: {'; '.join(problems[:3])}",
            record.path, record.line, 1, record=record.index))
        return False
    writer.write(record)
    return True


def _lines(moves: list[Move]) -> Iterator[list[Move]]:
    """The main line and every variation, at any depth (no recursion)."""
    pending = [moves]
    while pending:
        line = pending.pop()
        yield line
        for move in line:
            pending.extend(move.variations)


def _numbered(moves: list[Move]) -> bool:
    """Whether every line is numbered as PGN numbers it: its first move, and at least one of
    any two moves in a row (the sides take turns)."""
    for line in _lines(moves):
        if line and line[0].number is None:
            return False
        if any(a.number is None and b.number is None for a, b in zip(line, line[1:])):
            return False
    return True


def _textless(moves: list[Move]) -> bool:
    return any(not move.text for line in _lines(moves) for move in line)


def number_moves(moves: list[Move], game: Game[Any, Any] | None, sides: dict[int, int],
                  number: int, side: int) -> None:
    """Give a move number to every move PGN numbers and the record does not: the first
    player's moves (``12.``), and the second player's (``12...``) where a line starts or
    follows a comment or variations. ``sides`` holds the side to move before each move the
    replay played; past a line's last legal move the sides take turns. Words the game skips
    (another program's ``mate``, the handicap placeholder) are no turn."""
    skipped = (game.dialect.ignored_words | ({game.dialect.placeholder}
                                             if game.dialect.placeholder else set())
               if game is not None else frozenset())
    pending = [(moves, number, side)]
    while pending:
        line, number, side = pending.pop()
        interrupted = True
        for node in line:
            if node.data is None and node.text in skipped:
                interrupted = True
                continue
            side = sides.get(id(node), side)
            pending.extend((variation, number, side) for variation in node.variations)
            if node.number is None and (side == 0 or interrupted):
                node.number = f"{number}." if side == 0 else f"{number}..."
            interrupted = bool(node.comments or node.variations)
            if side == 1:
                number += 1
            side = 1 - side


class _Rewrite(ReplayVisitor):
    """Re-writes every move it sees (main line and variations) in place, and notes the side to
    move before each (for move numbers)."""

    def __init__(self, record: Record, notation: str | None, with_data: bool,
                 annotate: bool, *, fill_text: bool = False) -> None:
        self.record, self.notation, self.annotate = record, notation, annotate
        self.with_data, self.fill_text = with_data, fill_text
        self.game: Game[Any, Any] | None = None
        self.refused = False
        self.sides: dict[int, int] = {}

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        if self.notation is not None and self.notation not in game.notations:
            record.diagnostics.append(Diagnostic(
                "E-BAD-NOTATION", f"{game.id} has no notation {self.notation!r} "
                f"(it has {', '.join(game.notations)}): the record is not written",
                record.path, record.line, 1, record=record.index))
            self.refused = True
            return  # validated, but not re-written nor written
        self.game = game
        self.with_data = self.with_data and game.has_json_moves
        if self.annotate and self.notation is None:
            self.notation = game.notations[0]

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        game = self.game
        if game is None:
            return
        self.sides[id(node)] = before.turn
        if self.annotate:
            move = game.annotate_move(move, before)
        if self.notation is not None:
            for code, message in game.format_warnings(move, before, self.notation):
                self.record.diagnostics.append(Diagnostic(
                    code, message, self.record.path, node.line, node.column, severity=WARNING,
                    ply=ply, side=game.sides[before.turn], move=node.text,
                    record=self.record.index))
            node.text = game.format_move(move, before, self.notation)
        elif self.fill_text and not node.text:
            node.text = game.format_move(move, before, None)
        if self.with_data:
            node.data = game.move_to_json(move, before)


class _MainLine(ReplayVisitor):
    """Collects the main line's moves, stopping after ``ply`` plies when given."""

    def __init__(self, ply: int | None) -> None:
        self.ply = ply
        self.moves: list[Any] = []

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        if not in_variation:
            self.moves.append(move)

    def stop_after(self, ply: int) -> bool:
        return self.ply is not None and ply >= self.ply


def _write_file_format(record: Record, conversion: Conversion) -> str | None:
    line = _MainLine(conversion.ply)
    result = replay(record, game_name=conversion.game, rules_text=conversion.rules,
                    visitor=line, keep_start=True)
    if result.game is None or result.position is None:
        return None
    write = next((f.write for f in result.game.file_formats
                  if f.name == conversion.target and f.write is not None), None)
    if write is None:
        record.diagnostics.append(Diagnostic(
            "E-BAD-NOTATION", f"{result.game.id} has no file format {conversion.target!r}",
            record.path, record.line, 1, record=record.index))
        return None
    tags = {tag.name: tag.value for tag in record.tags.entries()}
    return write(result.start, line.moves, tags, result.position)
