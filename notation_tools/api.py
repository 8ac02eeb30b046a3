"""The Python API: read records, replay them, write them back, from a program.

:func:`read` yields :class:`GameRecord` objects from anything the command line reads (paths,
directories, archives, ``archive:member``, standard input) and from open files and record
text; :func:`read_text` and :func:`parse` read text only, and :func:`read_game`,
:func:`read_headers` and :func:`skip_game` an open file a record at a time, as python-chess
does. :func:`record_from_moves` builds a record from moves played in Python.
:meth:`GameRecord.replay` gives a :class:`ReplayedGame`; :func:`write` and
:meth:`GameRecord.write` write records in a container and notation. The ``docs/api.md``
tutorial shows them at work.

How faults are reported, as python-chess's ``read_game`` does: a fault *inside* a record (a
syntax error, an illegal move, a tag that contradicts the moves) never raises; it is a
:class:`~notation_tools.records.diagnostics.Diagnostic` on ``record.diagnostics`` (what
reading found) or ``replayed.diagnostics`` (that, then what replay found). A fault that loses
input (a path that does not exist, an unreadable file, archive or member, a file over a size
limit) raises :class:`ReadError` when the reader reaches it, after every record before it.

The layering (``tests/test_layering.py``) keeps ``records/`` from importing ``analysis/``, so
the record class that can replay and write itself is defined here, in the layer above both:
:class:`GameRecord` is the container's :class:`~notation_tools.records.model.Record` with
those methods added, and :func:`read` hands out nothing else.

Does not print; the rules live in the games, the formats in ``records/``.
"""

from __future__ import annotations

import collections
import dataclasses
import errno
import html
import io
import os
import sys
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, Any, BinaryIO, TextIO, cast

from notation_tools.analysis.foreign import foreign_record
from notation_tools.parallel.batch import Settings, records_of_chunk, records_of_units, units_of
from notation_tools.analysis.convert import Conversion, convert_record, write_converted
from notation_tools.analysis.foreign import claim_format, game_suffixes
from notation_tools.analysis.overrides import OverrideError, check_rules
from notation_tools.analysis.replay import ReplayVisitor, replay, resolve_game
from notation_tools.pages.viewer import viewer_page
# The replay driver's diagnostics sink, so that finding a record's game (which may report
# E-UNKNOWN-VARIANT) runs the driver's own code on a scratch record.
from notation_tools.analysis.replay import _Context as _ReplayContext
from notation_tools.games import get_game
from notation_tools.games.base import BadRulesError, Game, Outcome, Position, Rules
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move as MoveNode
from notation_tools.records.model import Record, Tag, Tags
from notation_tools.records.pgn import chunk_tags, may_hold_several
from notation_tools.records.writers import RECORD_WRITERS
from notation_tools.sources import (ForeignText, InputNotFound, PgnChunk, Unit, check_paths,
                                    iter_stream)

Source = str | os.PathLike[str] | IO[str] | IO[bytes]
"""What :func:`read` accepts: a path or an open file (text or binary)."""
Ply = tuple[int, Any, Position[Any], Position[Any]]
"""``(ply, move, position_before, position_after)``, as :meth:`ReplayedGame.positions`
yields them; ``ply`` counts from 1."""


class ReadError(OSError):
    """Input that could not be read: a missing path, an unreadable file, archive or member,
    or text over a size limit. ``diagnostic`` says where (its code is ``E-IO``, ``E-LIMIT``
    or ``E-ENCODING``)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


class NoRecordError(ValueError):
    """:func:`read_one` found no record in its source."""


class CannotWriteError(ValueError):
    """A record that cannot be written as asked: it was not read whole, or the container
    cannot hold it so that it reads back the same. ``diagnostics`` say why."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(str(d) for d in diagnostics))
        self.diagnostics = diagnostics


# --------------------------------------------------------------------------------------------
# Records


@dataclasses.dataclass(slots=True)
class GameRecord(Record):
    """A record as :func:`read` gives it: tags (``tags``, ``tag(name)``), the move tree
    (``moves``, each move with its comments, NAGs and variations), comments, the reading's
    diagnostics, its location (``path``, ``line``, ``offset`` in bytes, and ``index`` within
    its file) and its game (:attr:`game`).

    ``game_name`` and ``rules_text`` are the overrides given to :func:`read` (``--game`` and
    ``--rules`` on the command line); replay and writing use them over the tags.
    """

    game_name: str | None = None
    rules_text: str | None = None

    @classmethod
    def from_record(cls, record: Record, *, game: str | None = None,
                    rules: str | None = None) -> GameRecord:
        """The container's ``record`` as a :class:`GameRecord` (its parts shared, not
        copied)."""
        parts = {field.name: getattr(record, field.name) for field in dataclasses.fields(Record)}
        return cls(**parts, game_name=game, rules_text=rules)

    @property
    def game(self) -> Game[Any, Any] | None:
        """The record's game: the override, else its ``Variant`` (or ``Game``) tag, else the
        game whose records look like its untagged movetext; ``None`` when none is known."""
        scratch = Record(self.path, self.index, self.line, self.tags, self.moves)
        found: Game[Any, Any] | None = resolve_game(scratch, self.game_name,
                                                    _ReplayContext(scratch))
        return found

    def replay(self, rules: Rules | str | None = None) -> ReplayedGame:
        """Replay the record against its game's rules (``rules``, a ``Rules`` tag text or a
        :class:`~notation_tools.games.base.Rules`, over the override and the tag). Never
        raises for a bad record: see
        :attr:`ReplayedGame.diagnostics`. The record itself is not changed.

        >>> text = '[Variant "elevation"]\\n\\n1. c1:c2>b2,c1-c2 c6:c5>b5,c6-c5 *\\n'
        >>> game = parse(text).replay()
        >>> game.is_valid, len(game.moves), game.outcome
        (True, 2, None)
        """
        if isinstance(rules, Rules):
            rules = rules.describe()
        return ReplayedGame(self, rules if rules is not None else self.rules_text)

    def add_variation(self, ply: int, moves: Sequence[Any],
                      notation: str | None = None) -> list[MoveNode]:
        """Add ``moves`` (the engine's move objects) as a variation of the main line's
        ``ply``-th move (counted from 1): played from the position before that move instead
        of it. Their texts are written in ``notation`` (default: the game's first). Returns
        the variation's move nodes, which the record now holds.

        Raises ``ValueError`` when the main line does not replay up to that move, and the
        game's :class:`~notation_tools.games.base.IllegalMoveError` for a move that is not
        legal where it is played (the record is then unchanged).
        """
        replayed = self.replay()
        if not 1 <= ply <= len(self.moves) or replayed.start is None or ply > len(
                replayed.moves):
            raise ValueError(f"the main line does not replay up to move {ply}")
        position = replayed.start.copy()
        for move in replayed.moves[:ply - 1]:
            position.push(move)
        variation = _move_nodes(replayed.game, position, moves, notation)
        self.moves[ply - 1].variations.append(variation)
        return variation

    def write(self, notation: str | None = None, container: str = "pgn") -> str:
        """The record's text in ``container`` (``pgn``, ``json`` or ``jsonl``), its moves
        re-written in ``notation`` when given (else as they were written). As ``convert``
        does, an invalid record is written as it stands: moves after the first illegal one
        keep their text (:meth:`replay` says what is wrong).

        Raises :class:`CannotWriteError` when the record cannot be written so that it reads
        back the same or its game has no such notation (``E-BAD-NOTATION``), and ``KeyError``
        for an unknown container. The record is not changed.
        """
        out = io.StringIO()
        writer = RECORD_WRITERS[container](out)
        _write_one(self, writer, notation)
        writer.end()
        return out.getvalue()


def _write_one(record: Record, writer: Any, notation: str | None) -> None:
    work = record.copy()  # conversion re-writes moves in place
    game = getattr(record, "game_name", None)
    rules = getattr(record, "rules_text", None)
    convert_record(work, Conversion(writer.name, notation=notation, game=game, rules=rules))
    unknown = [d for d in work.diagnostics if d.code == "E-BAD-NOTATION"]
    if unknown:  # convert writes the moves as they were; a program asked for another notation
        raise CannotWriteError(unknown)
    if not write_converted(work, writer):
        raise CannotWriteError([d for d in work.diagnostics if d.code == "E-CANNOT-WRITE"])


# --------------------------------------------------------------------------------------------
# Replay


class _MainLineMoves(ReplayVisitor):
    def __init__(self) -> None:
        self.moves: list[Any] = []

    def visit_move(self, node: MoveNode, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        if not in_variation:
            self.moves.append(move)


class ReplayedGame:
    """A record replayed against its game's rules.

    ``game``, ``rules`` and ``start`` are ``None`` when the record names no known game,
    carries bad rules or an impossible start position (its diagnostics say which); ``start``
    and ``final`` are the replayed game's own positions, to read, not to change.
    ``moves`` are the main line's moves as the engine's move objects, as far as the replay
    went (to the first illegal move); ``final`` is the position after the last of them;
    ``outcome`` is how the game ended when the main line played to its end and the rules say
    it is over, else ``None``; ``result`` is the record's result text (the ``Result`` tag, or
    the movetext's result); ``complete`` says whether every main-line move was replayed;
    ``record`` is the record replayed.
    """

    def __init__(self, record: GameRecord, rules: str | None = None) -> None:
        self.record = record
        self._rules_text = rules
        work = dataclasses.replace(record, diagnostics=list(record.diagnostics))
        line = _MainLineMoves()
        found = replay(work, game_name=record.game_name, rules_text=rules, visitor=line,
                       keep_start=True)
        self.game: Game[Any, Any] | None = found.game
        self.rules: Rules | None = found.rules
        self.start: Position[Any] | None = found.start
        self.final: Position[Any] | None = found.position
        self.moves: list[Any] = line.moves
        self.outcome: Outcome | None = found.outcome
        self.result: str | None = found.result
        self.complete: bool = found.complete
        self.diagnostics: list[Diagnostic] = work.diagnostics
        """What reading the record found, then what replaying it found."""
        self._figures: dict[str, Any] | None = None

    @property
    def is_valid(self) -> bool:
        """Whether no diagnostic is an error (as ``notation-tools validate`` judges)."""
        return not any(d.is_error for d in self.diagnostics)

    def positions(self, *, copy: bool = False) -> Iterator[Ply]:
        """``(ply, move, position_before, position_after)`` for every main-line move.

        Without ``copy``, the two positions are two live boards that the iterator moves on:
        each is right until the next step, and must not be changed; keep one with
        ``position.copy()``. With ``copy=True`` every position is a copy of its own (the
        ``position_after`` of one ply is the ``position_before`` of the next).

        >>> text = '[Variant "elevation"]\\n\\n1. c1:c2>b2,c1-c2 c6:c5>b5,c6-c5 *\\n'
        >>> game = parse(text).replay()
        >>> [(ply, before.text(move), after.turn) for ply, move, before, after in game.positions()]
        [(1, 'c1:c2>b2,c1-c2', 1), (2, 'c6:c5>b5,c6-c5', 0)]
        """
        if self.start is None:
            return
        before = self.start.copy()
        if copy:
            for ply, move in enumerate(self.moves, start=1):
                after = before.copy()
                after.push(move)
                yield ply, move, before, after
                before = after
            return
        after = self.start.copy()
        for ply, move in enumerate(self.moves, start=1):
            after.push(move)
            yield ply, move, before, after
            before.push(move)

    def mainline(self, *, copy: bool = False) -> Iterator[Ply]:
        """The same as :meth:`positions` (python-chess's spelling)."""
        return self.positions(copy=copy)

    def figures(self) -> dict[str, Any]:
        """The game's statistics of the main line, as ``notation-tools stats`` shows them
        (``captures`` and the game's own figures); empty when there is no game."""
        if self._figures is None:
            self._figures = {}
            if self.game is not None and self.rules is not None and self.start is not None:
                collector = self.game.new_stats(self.rules)
                position = self.start.copy()
                for move in self.moves:
                    collector.before_move(position, move)
                    position.push(move)
                    collector.after_move(position)
                self._figures = collector.summary(position, self.outcome)
        return dict(self._figures)

    def _repr_html_(self) -> str:
        return replayed_html(self)

    def __repr__(self) -> str:
        game = self.game.id if self.game is not None else None
        return (f"<ReplayedGame {game} {len(self.moves)} plies "
                f"{'valid' if self.is_valid else 'invalid'}>")


def replayed_html(replayed: ReplayedGame) -> str:
    """HTML for a notebook: the record's replay viewer page (``notation-tools html``), in an
    ``iframe`` of its own so that its script and style stay apart from the notebook's."""
    record = replayed.record
    work = dataclasses.replace(record, diagnostics=list(record.diagnostics))
    page = viewer_page(work, game_name=record.game_name, rules_text=replayed._rules_text)
    return (f'<iframe srcdoc="{html.escape(page, quote=True)}" title="game viewer" '
            'style="width: 100%; height: 720px; border: 0"></iframe>')


# --------------------------------------------------------------------------------------------
# Reading and writing


game = get_game
"""The registered game whose id or alias is ``name`` (case-insensitive); raises
:class:`~notation_tools.games.base.UnknownGameError`. Typed: ``game("maka")`` gives a type
checker Maka-Dai-Dai Shogi's position and move types (``notation_tools.games.get_game``).

>>> game("maka").id
'maka-dai-dai-shogi'
"""


def read(source: Source, *, game: str | None = None, rules: str | None = None,
         encoding: str | None = None) -> Iterator[GameRecord]:
    """The records of ``source``, lazily, in order.

    ``source`` is a path (``str`` or ``os.PathLike``: a file, a directory, an archive, an
    ``archive:member``, compressed files, ``-`` for standard input) or an open file, text or
    binary; a ``str`` is always a path (record text goes to :func:`read_text` or
    :func:`parse`).
    ``game`` and ``rules`` override every record's ``Variant`` and ``Rules`` tags;
    ``encoding`` overrides UTF-8 (a byte-order mark is always obeyed).

    Raises :class:`ReadError` when input cannot be read (see the module's introduction),
    :class:`~notation_tools.games.base.UnknownGameError` for an unknown ``game``, and
    :class:`~notation_tools.games.base.BadRulesError` at once for ``rules`` that suit no game
    (or not ``game``); a path that does not exist raises ``FileNotFoundError`` at once.

    >>> text = '[Variant "elevation"]\\n\\n1. c1:c2>b2,c1-c2 *\\n'
    >>> [(record.line, record.tag("Variant")) for record in read(io.StringIO(text))]
    [(1, 'elevation')]
    """
    _check_overrides(game, rules)
    settings = Settings(encoding=encoding)
    return _records(_units(source, settings), settings, game, rules)


def _check_overrides(game: str | None, rules: str | None) -> None:
    if game is not None:
        get_game(game)
    try:
        check_rules(rules, None if game is None else (get_game(game),))
    except OverrideError as error:
        raise BadRulesError(error.message) from None


def _records(units: Iterator[Any], settings: Settings, game: str | None,
             rules: str | None) -> Iterator[GameRecord]:
    for found in records_of_units(units, settings.limits):
        if isinstance(found, Diagnostic):
            raise ReadError(found)
        yield GameRecord.from_record(found, game=game, rules=rules)


def read_one(source: Source, *, game: str | None = None, rules: str | None = None,
             encoding: str | None = None) -> GameRecord:
    """The first record of ``source`` (as :func:`read`); raises :class:`NoRecordError` when
    it holds none.

    >>> read_one(io.StringIO("1. c1:c2>b2,c1-c2 *\\n"), game="elevation").moves[0].text
    'c1:c2>b2,c1-c2'
    """
    for record in read(source, game=game, rules=rules, encoding=encoding):
        return record
    raise NoRecordError(f"no record in {_name(source)}")


def read_text(text: str, *, game: str | None = None,
              rules: str | None = None) -> Iterator[GameRecord]:
    """The records of record ``text`` (never a path), lazily, as :func:`read` gives them;
    their ``path`` is ``<string>``.

    >>> [record.moves[0].text for record in read_text("1. c1:c2>b2,c1-c2 *", game="elevation")]
    ['c1:c2>b2,c1-c2']
    """
    _check_overrides(game, rules)
    settings = Settings()
    return _records(_text_units(text, settings), settings, game, rules)


def parse(text: str, *, game: str | None = None, rules: str | None = None) -> GameRecord:
    """The first record of record ``text`` (never a path); raises :class:`NoRecordError`
    when the text holds none.

    >>> parse("1. c1:c2>b2,c1-c2 *", game="elevation").replay().is_valid
    True
    """
    for record in read_text(text, game=game, rules=rules):
        return record
    raise NoRecordError("no record in the text given")


# --------------------------------------------------------------------------------------------
# An open file read a record at a time, as python-chess's read_game reads one


class _OpenFile:
    """What :func:`read_game` and its kin have read of one open file: the file's units not
    yet handed out, and the records of a unit that held several."""

    def __init__(self, units: Iterator[Unit], settings: Settings) -> None:
        self.units = units
        self.limits = settings.limits
        self.records: collections.deque[Record] = collections.deque()

    def next_unit(self) -> Record | PgnChunk | ForeignText | None:
        """The next record or unparsed unit, ``None`` at the end; raises :class:`ReadError`
        where input cannot be read, as :func:`read` does."""
        if self.records:
            return self.records.popleft()
        unit = next(self.units, None)
        if isinstance(unit, Diagnostic):
            raise ReadError(unit)
        return unit

    def record_of(self, unit: Record | PgnChunk | ForeignText) -> Record:
        """The unit's (first) record; a chunk's later records wait for the next call."""
        if isinstance(unit, PgnChunk):
            first, *later = records_of_chunk(unit, self.limits)
            self.records.extend(later)
            return first
        if isinstance(unit, ForeignText):
            return foreign_record(unit)
        return unit


_OPEN_FILES: weakref.WeakKeyDictionary[Any, _OpenFile] = weakref.WeakKeyDictionary()
"""Open file → what has been read of it; forgotten with the file."""


def _open_file(stream: IO[str] | IO[bytes], encoding: str | None) -> _OpenFile:
    if isinstance(stream, (str, os.PathLike)) or not callable(getattr(stream, "read", None)):
        raise TypeError(f"takes an open file, not {type(stream).__name__} (read() reads "
                        "paths, read_text() reads text)")
    state = _OPEN_FILES.get(stream)
    if state is None:
        settings = Settings(encoding=encoding)
        state = _OPEN_FILES[stream] = _OpenFile(_units(stream, settings), settings)
    return state


def read_game(stream: IO[str] | IO[bytes], *, game: str | None = None,
              rules: str | None = None, encoding: str | None = None) -> GameRecord | None:
    """The next record of the open file ``stream`` (text or binary), ``None`` at its end:
    python-chess's ``read_game``. Each call reads on from where the last one stopped; the
    records, their tags, moves and diagnostics are those :func:`read` gives for the same
    file, and faults raise as there.

    Memory holds one record: the file is read a block (64 KiB) and a record ahead, so once
    one of these functions has read a file, read the rest of it with them alone.
    ``encoding`` counts at the first call on a binary file.

    >>> stream = io.StringIO("1. c1:c2>b2,c1-c2 *\\n\\n[Round \\"2\\"]\\n\\n*\\n")
    >>> read_game(stream, game="elevation").moves[0].text, read_game(stream).tags["Round"]
    ('c1:c2>b2,c1-c2', '2')
    >>> read_game(stream) is None
    True
    """
    _check_overrides(game, rules)
    state = _open_file(stream, encoding)
    unit = state.next_unit()
    if unit is None:
        return None
    return GameRecord.from_record(state.record_of(unit), game=game, rules=rules)


def read_headers(stream: IO[str] | IO[bytes], *, encoding: str | None = None) -> Tags | None:
    """The tags of the next record of ``stream`` (as :func:`read_game` reads it), its moves
    not read; ``None`` at the end of the file.

    >>> stream = io.StringIO('[White "Steere"]\\n\\n*\\n\\n[White "Becker"]\\n\\n*\\n')
    >>> [tags["White"] for tags in iter(lambda: read_headers(stream), None)]
    ['Steere', 'Becker']
    """
    state = _open_file(stream, encoding)
    unit = state.next_unit()
    if unit is None:
        return None
    if isinstance(unit, PgnChunk) and not may_hold_several(unit.chunk):
        return chunk_tags(unit.path, unit.chunk)
    return state.record_of(unit).tags


def skip_game(stream: IO[str] | IO[bytes], *, encoding: str | None = None) -> bool:
    """Pass over the next record of ``stream``, its moves not read: ``False`` at the end of
    the file, else ``True``."""
    state = _open_file(stream, encoding)
    unit = state.next_unit()
    if unit is None:
        return False
    if not isinstance(unit, PgnChunk) or may_hold_several(unit.chunk):
        state.record_of(unit)
    return True


# --------------------------------------------------------------------------------------------
# Records built from moves played in Python


def record_from_moves(game: Game[Any, Any] | str, moves: Sequence[Any], *,
                      start: Position[Any] | None = None, rules: Rules | str | None = None,
                      tags: Mapping[str, str] | None = None,
                      notation: str | None = None) -> GameRecord:
    """A record of ``moves`` (the engine's move objects) played from ``start`` (by default
    the start position under ``rules``; a ``start`` of other rules needs them given too):
    python-chess's ``Game.from_board``. Its tags are ``Variant``, ``Rules``, ``SetUp`` and
    ``FEN`` when ``start`` is given, then ``tags``, then ``Result`` (what the rules say of
    the last position, else ``*``); the move texts are in ``notation`` (default: the game's
    first). Write it with :meth:`GameRecord.write` or :func:`write`.

    Raises the game's :class:`~notation_tools.games.base.IllegalMoveError` for a move that
    is not legal where it is played.

    >>> elevation = game("elevation")
    >>> position = elevation.start()
    >>> played = [position.push_text("c1:c2>b2,c1-c2")]
    >>> record = record_from_moves(elevation, played, tags={"White": "Ada"})
    >>> print(record.write(), end="")
    [Variant "elevation"]
    [Rules "standard"]
    [White "Ada"]
    [Result "*"]
    <BLANKLINE>
    1. c1:c2>b2,c1-c2 *
    <BLANKLINE>
    """
    found = get_game(game) if isinstance(game, str) else game
    played_rules = found.rules_of(rules)
    position = start.copy() if start is not None else found.start_position(played_rules)
    entries = [Tag("Variant", found.id), Tag("Rules", played_rules.describe())]
    if start is not None:
        entries += [Tag("SetUp", "1"), Tag("FEN", found.format_position(start))]
    entries += [Tag(name, value) for name, value in (tags or {}).items()]
    nodes = _move_nodes(found, position, moves, notation)
    for move in moves:
        position.push(move)
    outcome = position.outcome()
    result = found.result_text(outcome) if outcome is not None else "*"
    entries.append(Tag("Result", result))
    return GameRecord(tags=Tags(entries), moves=nodes, result=result)


def _move_nodes(game: Game[Any, Any] | None, start: Position[Any], moves: Sequence[Any],
                notation: str | None) -> list[MoveNode]:
    """Move nodes for ``moves`` played from ``start`` (not changed). Each text is read back
    by the game where it is played, as replay will read it, which raises for a move that is
    not legal there (a game whose turns are too many to list, as Game of War's, can only
    check a move so)."""
    if game is None:
        raise ValueError("the record names no known game")
    position = start.copy()
    nodes = []
    for move in moves:
        text = game.format_move(move, position, notation)
        position.push(game.parse_move(text, position, notation))
        nodes.append(MoveNode(text))
    return nodes


def write(records: Iterable[Record], destination: str | os.PathLike[str] | TextIO, *,
          notation: str | None = None, container: str | None = None) -> int:
    """Write ``records`` to a file (a path, replaced) or an open text stream, in
    ``container`` (``pgn``, ``json``, ``jsonl``; by default from the file name's ending, else
    ``pgn``), their moves re-written in ``notation`` when given. Returns how many were
    written.

    Raises :class:`CannotWriteError` at the first record that cannot be written (those
    before it are written), and ``KeyError`` for an unknown container.

    >>> out = io.StringIO()
    >>> write(read_text("1. c1:c2>b2,c1-c2 *\\n", game="elevation"), out, container="jsonl")
    1
    >>> parse(out.getvalue()).moves[0].text
    'c1:c2>b2,c1-c2'
    """
    if isinstance(destination, (str, os.PathLike)):
        path = os.fspath(destination)
        chosen = container or _container_of(path)
        # a lone surrogate (from a JSON record) is written as its escape, as the CLI does
        with open(path, "w", encoding="utf-8", errors="backslashreplace",
                  newline="\n") as out:
            return _write_all(records, out, chosen, notation)
    return _write_all(records, destination, container or "pgn", notation)


def _write_all(records: Iterable[Record], out: TextIO, container: str,
               notation: str | None) -> int:
    writer = RECORD_WRITERS[container](out)
    try:
        for record in records:
            _write_one(record, writer, notation)
    finally:
        writer.end()
    return writer.count


def _container_of(path: str) -> str:
    lower = path.lower()
    if lower.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    return "json" if lower.endswith(".json") else "pgn"


def _name(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        return text
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else "the stream given"


def _units(source: Source, settings: Settings) -> Iterator[Unit]:
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        try:
            check_paths([path])
        except InputNotFound:
            raise FileNotFoundError(errno.ENOENT, "no such file or directory", path) from None
        return units_of([path], settings, stdin=sys.stdin.buffer if path == "-" else None)
    if not callable(getattr(source, "read", None)):
        raise TypeError(f"read() takes a path or an open file, not "
                        f"{type(source).__name__}")
    name = _name(source)
    # A text stream reaches the reader as UTF-8 whatever ``encoding`` says: it is already
    # decoded.
    if isinstance(source.read(0), str):
        return _stream_units(io.BufferedReader(_EncodedText(cast(IO[str], source))), name,
                             settings, "utf-8")
    return _stream_units(cast(BinaryIO, source), name, settings, settings.encoding)


def _text_units(text: str, settings: Settings) -> Iterator[Unit]:
    return _stream_units(io.BytesIO(text.encode("utf-8")), "<string>", settings, "utf-8")


def _stream_units(stream: BinaryIO, name: str, settings: Settings,
                  encoding: str | None) -> Iterator[Unit]:
    return iter_stream(stream, name, claim=claim_format, suffixes=game_suffixes,
                       limits=settings.limits, encoding=encoding)


class _EncodedText(io.RawIOBase):
    """A text stream read as UTF-8 bytes, a block at a time."""

    def __init__(self, text: IO[str]) -> None:
        self.text = text
        self.pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self.pending:
            block = self.text.read(1 << 14)
            if not block:
                return 0
            self.pending = block.encode("utf-8")
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        self.pending = self.pending[size:]
        return size
