"""Running a selection over inputs and writing each record where its verdict sends it: the
matches (to one output, or one file per game, result or block of records), the records
that do not match, and the duplicates ``dedupe`` drops (``notation-tools select``).

The criteria and verdicts are :mod:`notation_tools.analysis.select`'s. With nothing to change
(PGN, same notation, every tag), a PGN record that names its game and ends with a result is
written as it was read; every other record is written as ``convert`` writes it, so that it
reads back the same; a record the reader could not read whole is written only as read.

Writes the outputs it is given; does not print.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import BinaryIO, ContextManager, TextIO

from notation_tools.analysis.convert import (REFUSALS, Conversion, convert_record,
                                             write_converted)
from notation_tools.analysis.select import (Selected, Selection, game_of, group_name,
                                            iter_selected, stands_alone, trim_tags)
from notation_tools.parallel.batch import Settings
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Record
from notation_tools.records.writers import RECORD_WRITERS, RecordWriter
from notation_tools.sources import ReadProgress

SUFFIXES = {"pgn": ".pgn", "json": ".json", "jsonl": ".jsonl"}
"""The file suffix of each container, for the files ``split_by`` writes."""

Opener = Callable[..., ContextManager[TextIO]]
"""Opens an output for writing: ``opener(path, append=False)``, ``-`` for standard output."""


@contextlib.contextmanager
def open_text_output(path: str, *, append: bool = False) -> Iterator[TextIO]:
    """The default :data:`Opener`: a UTF-8 file (undecodable text backslash-escaped), or
    standard output for ``-`` (left open)."""
    if path == "-":
        yield sys.stdout
        return
    with open(path, "a" if append else "w", encoding="utf-8", errors="backslashreplace") as out:
        yield out


@dataclasses.dataclass(frozen=True)
class Writing:
    """How the records are written: the ``container`` (``pgn``, ``json``, ``jsonl``), the
    moves re-written in ``notation``, only the tags ``keep_tags`` (and those a record needs
    to be replayed), the tags without the moves (``tags_only``)."""

    container: str = "pgn"
    notation: str | None = None
    keep_tags: Sequence[str] | None = None
    tags_only: bool = False

    @property
    def raw(self) -> bool:
        """Whether a record that stands alone is written as it was read: nothing changes it."""
        return (self.container == "pgn" and self.notation is None and self.keep_tags is None
                and not self.tags_only)


class _Sink:
    """One output: a stream and its container writer. With the writing's ``raw``, a PGN
    record that names its game and ends with a result token is written as it was read
    (nothing about it is to change, and its text reads back the same on its own and beside
    others); that is the only way a record the reader could not read whole is written."""

    def __init__(self, out: TextIO, writing: Writing) -> None:
        self.writer: RecordWriter = RECORD_WRITERS[writing.container](out)
        self.out, self.writing = out, writing
        self.written = 0

    def write(self, item: Selected) -> Diagnostic | None:
        """Write one record; a diagnostic when it cannot be written as the writing asks."""
        record = item.record
        if self.writing.raw and item.text is not None and stands_alone(record):
            self.out.write(item.text + "\n")
            self.written += 1
            return None
        if not item.read_whole:
            return _not_read_whole(record)
        record = record.copy()
        record.diagnostics = []
        convert_record(record, Conversion(self.writing.container,
                                          notation=self.writing.notation))
        # An invalid record is written as it stands (moves after its first illegal one
        # unchanged), as convert does; only a record that cannot be written is refused.
        refused = [d for d in record.diagnostics if d.code in REFUSALS]
        if refused:
            return refused[0]
        if self.writing.keep_tags is not None or self.writing.tags_only:
            record = trim_tags(record, self.writing.keep_tags, moves=not self.writing.tags_only)
        record.diagnostics = []
        if not write_converted(record, self.writer):
            return record.diagnostics[-1]
        self.written += 1
        return None

    def end(self, *, failing: bool) -> None:
        """End the container (a JSON array's ``]``); when the run has already failed, a
        second failure here is not reported over the first."""
        try:
            self.writer.end()
        except Exception:
            if not failing:
                raise


def _not_read_whole(record: Record) -> Diagnostic:
    fault = next(d for d in record.diagnostics if d.is_error)
    return Diagnostic("E-CANNOT-WRITE", f"the record could not be read whole "
                      f"({fault.code} at line {fault.line}: {fault.message}): it is "
                      "written only as read (as pgn, with no option that changes it), "
                      "and only when its text names its game and ends with a result",
                      record.path, record.line, 1, record=record.index)


class _Outputs:
    """Where records go: matches (one stream, or one file per group), rejected, duplicates."""

    def __init__(self, stack: contextlib.ExitStack, opener: Opener, *, output: str,
                 rejected: str | None, duplicates: str | None, split_by: str | None,
                 writing: Writing, append: bool) -> None:
        self.stack, self.opener, self.writing, self.append = stack, opener, writing, append
        self.split_by, self.directory = split_by, output
        self.groups: dict[str, _Sink] = {}
        self.files: dict[str, contextlib.ExitStack] = {}
        self.current_part: str | None = None
        # The files of split_by are closed with the others, also when the run fails.
        stack.push(self._exit)
        self.matches = None if split_by else self._open(output)
        self.rejected = self._open(rejected) if rejected else None
        self.duplicates = self._open(duplicates) if duplicates else None
        self.count = 0

    def _open(self, path: str) -> _Sink:
        out = self.stack.enter_context(self.opener(path, append=self.append))
        sink = _Sink(out, self.writing)
        self.stack.push(lambda kind, *_: sink.end(failing=kind is not None))
        return sink

    def for_item(self, item: Selected) -> _Sink | None:
        """The output of a record by its verdict (``None``: not written)."""
        if not item.verdict.matched:
            return self.rejected
        if item.verdict.duplicate:
            return self.duplicates
        return self._for_match(item)

    def _for_match(self, item: Selected) -> _Sink:
        if self.matches is not None:
            return self.matches
        assert self.split_by is not None
        replayed = item.verdict.replay
        game = replayed.game if replayed is not None and replayed.game is not None \
            else game_of(item.record)
        name = group_name(item.record, self.split_by, self.count,
                          game.id if game is not None else None)
        self.count += 1
        sink = self.groups.get(name)
        if sink is None:
            if self.split_by.isdigit() and self.current_part is not None:
                self._close(self.current_part)  # parts are written in turn: one file open
            path = os.path.join(self.directory, _safe(name) + SUFFIXES[self.writing.container])
            files = contextlib.ExitStack()
            sink = _Sink(files.enter_context(self.opener(path, append=self.append)),
                         self.writing)
            self.groups[name], self.files[name] = sink, files
            self.current_part = name
        return sink

    def _close(self, name: str, *, failing: bool = False) -> None:
        sink, files = self.groups.pop(name), self.files.pop(name)
        try:
            try:
                sink.writer.end()
            finally:
                files.close()
        except Exception:
            if not failing:
                raise  # when the run has already failed, the first failure is the one told

    def end(self) -> None:
        for name in list(self.groups):
            self._close(name)

    def _exit(self, kind: type[BaseException] | None, *_: object) -> None:
        for name in list(self.groups):
            self._close(name, failing=kind is not None)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "_"


@dataclasses.dataclass
class SelectCounts:
    """What a :func:`select` run did: records ``read``, ``matched`` (written to the output),
    ``rejected`` and ``duplicates``; ``failures``: inputs or records not read, judged or
    written (each given to ``on_problem``)."""

    read: int = 0
    matched: int = 0
    rejected: int = 0
    duplicates: int = 0
    failures: int = 0


def _count(counts: SelectCounts, item: Selected) -> None:
    if not item.verdict.matched:
        counts.rejected += 1
    elif item.verdict.duplicate:
        counts.duplicates += 1
    else:
        counts.matched += 1


def select(paths: Sequence[str], selection: Selection, *, output: str = "-",
           rejected: str | None = None, duplicates: str | None = None,
           split_by: str | None = None, writing: Writing = Writing(), append: bool = False,
           settings: Settings | None = None, stdin: BinaryIO | None = None,
           progress: ReadProgress | None = None,
           on_problem: Callable[[Diagnostic], None] | None = None,
           on_item: Callable[[Record | Diagnostic], None] | None = None,
           opener: Opener = open_text_output) -> SelectCounts:
    """Judge every record of ``paths`` by ``selection`` and write it where its verdict sends
    it: a match to ``output`` (with ``split_by`` = ``game``, ``result`` or a number N: into
    the directory ``output``, one file per game, result or block of N records), a record that
    does not match to ``rejected``, a duplicate to ``duplicates`` (each ``None``: not
    written), as ``writing`` says; ``append`` adds to the files. ``on_item`` sees each record
    or unreadable input as it is read, ``on_problem`` each diagnostic that counts as a failure
    (an input not read, a record not judged or not written); ``opener`` opens the outputs."""
    counts = SelectCounts()

    def failed(problem: Diagnostic) -> None:
        counts.failures += 1
        if on_problem is not None:
            on_problem(problem)

    with contextlib.ExitStack() as stack:
        outputs = _Outputs(stack, opener, output=output, rejected=rejected,
                           duplicates=duplicates, split_by=split_by, writing=writing,
                           append=append)
        for item in iter_selected(list(paths), selection, settings=settings, stdin=stdin,
                                  progress=progress):
            if on_item is not None:
                on_item(item if isinstance(item, Diagnostic) else item.record)
            if isinstance(item, Diagnostic):
                failed(item)
                continue
            counts.read += 1
            if item.verdict.problem is not None:
                failed(item.verdict.problem)  # written with the records that do not match
            _count(counts, item)
            sink = outputs.for_item(item)
            problem = sink.write(item) if sink is not None else None
            if problem is not None:
                failed(problem)
        outputs.end()
    return counts
