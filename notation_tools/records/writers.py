"""Record writers, one class per container, found by name in :data:`RECORD_WRITERS` (G6).

A writer writes a stream of records to a text stream: ``begin``, ``write`` for each record,
``end``; the JSON writer needs the first two to open and close its array. ``convert``,
``generate`` and the Python API choose a writer from the table; no command branches on the
container. Does not replay or change records.

>>> import io
>>> from notation_tools.records.model import Record, Tag
>>> out = io.StringIO()
>>> writer = RECORD_WRITERS["json"](out)
>>> for index in (1, 2):
...     writer.write(Record(tags=[Tag("Round", str(index))], result="*"))
>>> writer.end()
>>> import json; [r["tags"]["Round"] for r in json.loads(out.getvalue())]
['1', '2']
"""

from __future__ import annotations

from typing import ClassVar, TextIO

from notation_tools.records.jsonio import write_json_record
from notation_tools.records.model import Record
from notation_tools.records.pgn import pgn_problems, write_record


class RecordWriter:
    """PGN: each record as tag pairs and movetext, separated by a blank line."""

    name: ClassVar[str] = "pgn"
    help: ClassVar[str] = "PGN-style tag pairs and movetext"

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.count = 0

    def write(self, record: Record) -> None:
        """Write one record."""
        self.out.write(self._text(record))
        self.count += 1

    def end(self) -> None:
        """Close the stream's structure (not the stream itself)."""

    def problems(self, record: Record) -> list[str]:
        """What of ``record`` this container cannot hold so that it reads back the same."""
        return pgn_problems(record)

    def _text(self, record: Record) -> str:
        return write_record(record)


class JsonLinesWriter(RecordWriter):
    """JSON Lines: one record object per line."""

    name = "jsonl"
    help = "JSON Lines, one record object a line"

    def problems(self, record: Record) -> list[str]:
        return []  # JSON holds any text

    def _text(self, record: Record) -> str:
        return write_json_record(record)


class JsonWriter(RecordWriter):
    """JSON: one array of record objects."""

    name = "json"
    help = "one JSON array of record objects"

    def problems(self, record: Record) -> list[str]:
        return []

    def write(self, record: Record) -> None:
        self.out.write(("[\n" if not self.count else ",\n") + write_json_record(record).rstrip("\n"))
        self.count += 1

    def end(self) -> None:
        self.out.write("\n]\n" if self.count else "[]\n")


RECORD_WRITERS: dict[str, type[RecordWriter]] = {
    writer.name: writer for writer in (RecordWriter, JsonWriter, JsonLinesWriter)}
"""Container name → writer class."""
