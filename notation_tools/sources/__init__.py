"""Where records come from: files, directories, archives, compressed files and stdin.

``iter_units(paths)`` walks the inputs lazily and yields, in order, the units a consumer needs:
``PgnChunk`` (one PGN record's raw lines, not yet parsed, so that parsing can happen in a worker
process), ``Record`` (JSON records, parsed here) and ``Diagnostic`` (an input that could not be
read: ``E-IO``, or text that is not UTF-8: ``E-ENCODING``). Archives are read as streams, one
member at a time, so memory stays flat whatever the archive's size.

Does not parse movetext or know any game.
"""

from __future__ import annotations

import bz2
import dataclasses
import gzip
import io
import lzma
import os
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO

from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.jsonio import read_json_records
from notation_tools.records.model import Record
from notation_tools.records.pgn import Chunk, split_chunks

CONTAINER_SUFFIXES = (".pgn", ".json", ".jsonl", ".ndjson")
"""Files a directory walk picks up (besides archives), with the endings the caller adds (the
games' own: ``iter_units(..., suffixes=...)``); a path named directly is always read."""
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
_COMPRESSED = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}
_TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
_READ_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, tarfile.TarError,
                zipfile.BadZipFile, ValueError)
_SNIFF_BYTES = 8192


@dataclasses.dataclass(frozen=True, slots=True)
class PgnChunk:
    """One PGN record's lines, with where they came from and the record's index in its file."""

    path: str
    index: int
    chunk: Chunk
    problems: tuple[Diagnostic, ...] = ()
    """Faults of the raw text (bad UTF-8) in the chunk's lines; they belong to its record."""

    @property
    def last_line(self) -> int:
        _, tag_lines, movetext_lines = self.chunk
        lines = movetext_lines or tag_lines
        return lines[-1][0] if lines else self.chunk[0]


@dataclasses.dataclass(frozen=True, slots=True)
class ForeignText:
    """A whole file in a format some game claimed (``claim`` of :func:`iter_units`)."""

    path: str
    format_key: str
    text: str
    problems: tuple[Diagnostic, ...] = ()


Unit = PgnChunk | Record | Diagnostic | ForeignText
Claim = Callable[[str], "str | None"]
"""Given a file's first 8 KiB as text, the key of a format that reads it, or ``None``."""


class InputNotFound(Exception):
    """A path named on the command line does not exist (a usage error, not a record fault)."""


def _io_error(path: str, message: str) -> Diagnostic:
    return Diagnostic("E-IO", message, path, 0, 0)


def _is_archive(name: str) -> bool:
    lower = name.lower()
    return lower.endswith(_TAR_SUFFIXES) or lower.endswith(".zip")


def _wanted_in_walk(name: str, suffixes: tuple[str, ...]) -> bool:
    lower = name.lower()
    if _is_archive(lower):
        return True
    for suffix in _COMPRESSED:
        if lower.endswith(suffix):
            lower = lower[: -len(suffix)]
            break
    return lower.endswith(CONTAINER_SUFFIXES + suffixes)


def check_paths(paths: Iterable[str]) -> None:
    """Raise :class:`InputNotFound` for the first path that does not exist (``-`` is stdin)."""
    for path in paths:
        if path != "-" and not os.path.exists(path):
            raise InputNotFound(path)


def input_files(paths: Iterable[str], suffixes: tuple[str, ...] = ()) -> list[str]:
    """The files ``iter_units`` will open, in order (``-`` for stdin); archives count once.

    >>> input_files(["-"])
    ['-']
    """
    files = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs.sort()
                files += [os.path.join(root, name) for name in sorted(names)
                          if _wanted_in_walk(name, suffixes)]
        else:
            files.append(path)
    return files


def top_file(unit_path: str, files: set[str]) -> str:
    """The input file a unit's path comes from (``archive.zip:member.pgn`` → ``archive.zip``)."""
    if unit_path in files:
        return unit_path
    head, _, _ = unit_path.rpartition(":")
    while head and head not in files:
        head, _, _ = head.rpartition(":")
    return head or unit_path


def iter_units(paths: Iterable[str], *, stdin: BinaryIO | None = None,
               claim: Claim | None = None, suffixes: tuple[str, ...] = ()) -> Iterator[Unit]:
    """Units from every input, in order: files, directories (sorted walk), archives, ``-``.

    ``claim`` lets a caller that knows other formats take a whole file before it is read
    as PGN or JSON, and ``suffixes`` names the files of those formats that directory walks
    and archives should read (this module knows no format but the container's).
    """
    for path in paths:
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer
            yield from _units_from_stream(stream, "-", "-", claim)
        elif os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if _wanted_in_walk(name, suffixes):
                        yield from _units_from_file(os.path.join(root, name), claim, suffixes)
        else:
            yield from _units_from_file(path, claim, suffixes)


def _units_from_file(path: str, claim: Claim | None = None,
                     suffixes: tuple[str, ...] = ()) -> Iterator[Unit]:
    lower = path.lower()
    try:
        if lower.endswith(".zip"):
            yield from _units_from_zip(path, claim, suffixes)
        elif lower.endswith(_TAR_SUFFIXES):
            yield from _units_from_tar(path, claim, suffixes)
        else:
            opener = next((open_ for suffix, open_ in _COMPRESSED.items()
                           if lower.endswith(suffix)), None)
            inner = path[: path.rfind(".")] if opener else path
            with (opener or open)(path, "rb") as stream:
                yield from _units_from_stream(stream, path, inner, claim)
    except _READ_ERRORS as error:
        yield _io_error(path, f"cannot read {path}: {_describe(error)}")


def _describe(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def _units_from_zip(path: str, claim: Claim | None, suffixes: tuple[str, ...]) -> Iterator[Unit]:
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if info.is_dir() or not _wanted_in_walk(info.filename, suffixes):
                continue
            name = f"{path}:{info.filename}"
            try:
                with archive.open(info) as member:
                    yield from _units_from_stream(member, name, info.filename, claim)
            except _READ_ERRORS as error:
                yield _io_error(name, f"cannot read archive member {name}: {_describe(error)}")


def _units_from_tar(path: str, claim: Claim | None, suffixes: tuple[str, ...]) -> Iterator[Unit]:
    # "r|*" reads the archive as a stream: members strictly in order, nothing kept in memory.
    with tarfile.open(path, "r|*") as archive:
        for info in archive:
            if not info.isfile() or not _wanted_in_walk(info.name, suffixes):
                continue
            name = f"{path}:{info.name}"
            member = archive.extractfile(info)
            if member is None:
                continue
            yield from _units_from_stream(member, name, info.name, claim)


def _units_from_stream(stream: BinaryIO, path: str, inner_name: str,
                       claim: Claim | None = None) -> Iterator[Unit]:
    """Units from one byte stream; the format comes from the name, else from the content."""
    head = stream.read(_SNIFF_BYTES)
    if b"\x00" in head:
        yield _io_error(path, f"{path} holds binary data, not text records")
        return
    chained = _Chained(head, stream)
    key = claim(head.decode("utf-8", "replace")) if claim is not None else None
    if key is not None:
        text, problems = _decode_all(chained.read(), path)
        yield ForeignText(path, key, text, tuple(problems))
        return
    start = head.lstrip()[:1]
    if inner_name.lower().endswith(JSON_SUFFIXES) or start == b"{" or (
            start == b"[" and head.lstrip()[1:].lstrip()[:1] in (b"{", b"]")):
        data = chained.read()
        text, problems = _decode_all(data, path)
        yield from problems
        yield from read_json_records(text, path)
        return
    lines = _DecodedLines(chained, path)
    pending: list[Diagnostic] = []
    for index, chunk in enumerate(split_chunks(lines), start=1):
        unit = PgnChunk(path, index, chunk)
        pending += lines.take_problems()
        if pending:
            mine = tuple(d for d in pending if d.line <= unit.last_line)
            pending = [d for d in pending if d.line > unit.last_line]
            unit = dataclasses.replace(unit, problems=mine)
        yield unit
    # Bad bytes on blank trailing lines belong to no record.
    yield from pending + lines.take_problems()


class _Chained(io.RawIOBase):
    """The sniffed head followed by the rest of the stream."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        if self.head:
            size = min(len(buffer), len(self.head))
            buffer[:size], self.head = self.head[:size], self.head[size:]
            return size
        data = self.rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _bad_byte(error: UnicodeDecodeError, line: int, path: str, line_bytes: bytes) -> Diagnostic:
    column = len(line_bytes[: error.start].decode("utf-8", "replace")) + 1
    return Diagnostic("E-ENCODING", f"not UTF-8: byte 0x{line_bytes[error.start]:02x} "
                      "(records must be UTF-8 text)", path, line, column)


def _decode_all(data: bytes, path: str) -> tuple[str, list[Diagnostic]]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        line_start = data.rfind(b"\n", 0, error.start) + 1
        local = UnicodeDecodeError(error.encoding, error.object, error.start - line_start,
                                   error.end - line_start, error.reason)
        return data.decode("utf-8", "replace"), [_bad_byte(local, line, path, data[line_start:])]


class _DecodedLines:
    """Iterate a byte stream as text lines; bad UTF-8 is replaced and reported."""

    def __init__(self, raw: io.RawIOBase, path: str) -> None:
        self.stream = io.BufferedReader(raw, 1 << 16)
        self.path = path
        self.problems: list[Diagnostic] = []

    def __iter__(self) -> Iterator[str]:
        first = True
        for number, data in enumerate(self.stream, start=1):
            if first:
                first = False
                if data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
            try:
                yield data.decode("utf-8")
            except UnicodeDecodeError as error:
                self.problems.append(_bad_byte(error, number, self.path, data))
                yield data.decode("utf-8", "replace")

    def take_problems(self) -> list[Diagnostic]:
        problems, self.problems = self.problems, []
        return problems
