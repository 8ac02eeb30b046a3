"""An open document as an editor sees it: its records, each read and replayed once per text.

A document is split into records the way files are (:func:`records.pgn.split_chunks`); each
record's text is read and replayed with its lines counted from the record's first line, and
kept under that text. When the document changes, a record whose text did not change keeps its
reading and diagnostics, wherever it moved: only the edited record is replayed again.

Locations here are 0-based document lines and 0-based columns counted in code points;
:func:`utf16_column` and :func:`codepoint_column` convert columns for LSP clients, which count
UTF-16 code units. Does not speak LSP and does not print.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from notation_tools.analysis.replay import Replay, replay
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move, Record, Tag
from notation_tools.records.pgn import parse_chunk, split_chunks


def utf16_column(line: str, column: int) -> int:
    """The UTF-16 offset of code-point column ``column`` (0-based) of ``line``.

    >>> utf16_column("{é𝄞} a", 4)
    5
    """
    head = line[:column]
    return len(head) + sum(1 for char in head if ord(char) > 0xFFFF)


def codepoint_column(line: str, utf16: int) -> int:
    """The code-point column of UTF-16 offset ``utf16`` of ``line`` (the inverse of
    :func:`utf16_column`; an offset inside a surrogate pair counts as the character's end).

    >>> codepoint_column("{é𝄞} a", 5)
    4
    """
    units = 0
    for index, char in enumerate(line):
        if units >= utf16:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)


@dataclasses.dataclass(frozen=True)
class Span:
    """A range of a document: 0-based lines, code-point columns, end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int

    def contains(self, line: int, column: int) -> bool:
        """Whether the place lies in the span or at its end (where a cursor after a word is)."""
        return (self.line, self.column) <= (line, column) <= (self.end_line, self.end_column)


@dataclasses.dataclass
class RecordCheck:
    """One record read and replayed, its lines counted from 1 at the record's first line."""

    record: Record
    replay: Replay


@dataclasses.dataclass
class RecordText:
    """One record's text in the document (``first_line`` 0-based) and what checking it found;
    ``checks`` has one entry per record the text holds (text after a result starts another)."""

    first_line: int
    lines: list[str]
    checks: list[RecordCheck]

    @property
    def end_line(self) -> int:
        """The 0-based document line after the record's last line."""
        return self.first_line + len(self.lines)

    def document_line(self, line: int) -> int:
        """The 0-based document line of the record's 1-based line ``line``."""
        return self.first_line + line - 1

    def line_text(self, line: int) -> str:
        """The text of the record's 1-based line ``line`` ("" outside the record)."""
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def word_span(self, line: int, column: int) -> Span:
        """The span of the word at the record's 1-based ``line:column``: up to the next space,
        or to the closing ``]`` of a tag pair."""
        line = min(max(line, 1), len(self.lines))  # a record-wide finding may say line 0
        text = self.line_text(line)
        start = min(max(column - 1, 0), len(text))
        end = start
        if text[start:start + 1] == "[":
            close = text.find("]", start)
            end = close + 1 if close != -1 else len(text)
        else:
            while end < len(text) and not text[end].isspace():
                end += 1
        row = self.document_line(line)
        return Span(row, start, row, end)


def check_text(lines: list[str]) -> list[RecordCheck]:
    """Read and replay the records of one record's ``lines`` (numbered from 1)."""
    checks = []
    for index, chunk in enumerate(split_chunks(lines), start=1):
        for record in parse_chunk("-", chunk, index):
            checks.append(RecordCheck(record, replay(record, keep_start=True)))
    return checks


def split_records(lines: list[str]) -> Iterator[tuple[int, list[str]]]:
    """Each record's 0-based first line and its lines, from its first tag or move line to its
    last non-blank line."""
    for _, tag_lines, movetext_lines in split_chunks(lines):
        numbered = tag_lines + [entry for entry in movetext_lines if entry[1].strip()]
        first, last = numbered[0][0], numbered[-1][0]
        yield first - 1, lines[first - 1:last]


class EditorDocument:
    """A document's records, each checked once per text (see the module's docstring)."""

    def __init__(self, text: str = "") -> None:
        self.lines: list[str] = []
        self.records: list[RecordText] = []
        self.replayed = 0
        """How many record texts the last :meth:`update` read and replayed anew."""
        self.update(text)

    def update(self, text: str) -> None:
        """Take the document's new text: records whose text is unchanged keep their checks."""
        self.lines = text.split("\n")
        known = {"\n".join(record.lines): record.checks for record in self.records}
        records, replayed = [], 0
        for first_line, lines in split_records(self.lines):
            checks = known.get("\n".join(lines))
            if checks is None:
                checks = check_text(lines)
                replayed += 1
            records.append(RecordText(first_line, lines, checks))
        self.records, self.replayed = records, replayed

    def record_at(self, line: int) -> RecordText | None:
        """The record whose lines hold the 0-based document line ``line``, or, on a blank
        line after a record (where its next move or result is typed), that record."""
        found = None
        for record in self.records:
            if record.first_line > line:
                break
            found = record
        return found

    def check_at(self, line: int) -> tuple[RecordText, RecordCheck] | None:
        """The record text and the record (of those it holds) at document line ``line``."""
        text = self.record_at(line)
        if text is None or not text.checks:
            return None
        relative = line - text.first_line + 1
        chosen = text.checks[0]
        for check in text.checks:
            if check.record.line <= relative:
                chosen = check
        return text, chosen

    def diagnostics(self) -> Iterator[tuple[RecordText, Diagnostic]]:
        """Every record's diagnostics, with the record text that locates them."""
        for text in self.records:
            for check in text.checks:
                for diagnostic in check.record.diagnostics:
                    yield text, diagnostic


def flatten_moves(moves: list[Move]) -> list[tuple[Move, list[Move], Move | None]]:
    """Every move node of a line and its variations, in document order: the node, the line it
    is in, and the node its variation is an alternative to (``None`` on the main line)."""
    found: list[tuple[Move, list[Move], Move | None]] = []
    pending: list[tuple[list[Move], Move | None]] = [(moves, None)]
    while pending:
        line, parent = pending.pop()
        for node in line:
            found.append((node, line, parent))
            pending.extend((variation, node) for variation in node.variations)
    found.sort(key=lambda entry: (entry[0].line, entry[0].column))
    return found


def move_span(text: RecordText, node: Move) -> Span:
    """Where a move's text stands in the document."""
    row = text.document_line(node.line)
    return Span(row, node.column - 1, row, node.column - 1 + len(node.text))


def tag_span(text: RecordText, tag: Tag) -> Span:
    """Where a tag pair stands in the document, ``[`` to ``]``."""
    return text.word_span(tag.line, tag.column)


def node_at(text: RecordText, check: RecordCheck, line: int,
            column: int) -> tuple[Move, list[Move], Move | None] | None:
    """The move node whose text holds (or ends at) the 0-based ``line:column``."""
    for entry in flatten_moves(check.record.moves):
        if entry[0].text and move_span(text, entry[0]).contains(line, column):
            return entry
    return None


def tag_at(text: RecordText, check: RecordCheck, line: int, column: int) -> Tag | None:
    """The tag pair that holds the 0-based ``line:column``."""
    for tag in check.record.tags.entries():
        if tag.line and tag_span(text, tag).contains(line, column):
            return tag
    return None


def game_of(check: RecordCheck) -> Any:
    """The record's game, when its replay found one."""
    return check.replay.game
