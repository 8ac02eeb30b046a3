"""Where records come from: files, directories, archives, compressed files and stdin.

``iter_units(paths)`` walks the inputs lazily and yields, in order, the units a consumer needs:
``PgnChunk`` (one PGN record's raw lines, not yet parsed, so that parsing can happen in a worker
process), ``Record`` (JSON records, parsed here), ``ForeignText`` (a whole file some game's own
format claimed) and ``Diagnostic`` (an input that could not be read: ``E-IO``, text that is not
in its encoding: ``E-ENCODING``, input beyond a limit: ``E-LIMIT``).

Memory stays bounded whatever the input (``notation_tools.limits``): files and archive members
are read as streams, a line or record beyond its limit is skipped with a diagnostic, and a
compressed file that inflates too far is stopped. A truncated compressed file gives every record
before the break, then ``E-IO``. Special files (FIFOs, devices, sockets) are skipped, since
reading one can block forever; a pipe is read as standard input (``-``).

Text is UTF-8 unless a byte-order mark (UTF-8, UTF-16) or the caller's ``encoding`` says
otherwise; ``\\n``, ``\\r\\n`` and a lone ``\\r`` all end a line. A file name that is not valid
UTF-8 is shown with its bad bytes escaped (``\\xff``), so every report can be written.

Does not parse movetext or know any game.
"""

from __future__ import annotations

import bz2
import codecs
import dataclasses
import gzip
import io
import itertools
import lzma
import os
import stat
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO

from notation_tools.limits import DEFAULT, Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.jsonio import read_json_records
from notation_tools.records.model import Record
from notation_tools.records.pgn import Chunk, split_chunks

CONTAINER_SUFFIXES = (".pgn", ".json", ".jsonl", ".ndjson")
"""Files a directory walk picks up (besides archives), with the endings the caller adds (the
games' own: ``iter_units(..., suffixes=...)``); a path named directly is always read."""
JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
_COMPRESSED: dict[str, Callable[[BinaryIO], BinaryIO]] = {
    ".gz": lambda raw: gzip.GzipFile(fileobj=raw), ".bz2": bz2.BZ2File, ".xz": lzma.LZMAFile}
_TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
_TAR_COMPRESSION: dict[str, Callable[[BinaryIO], BinaryIO]] = {
    ".tar.gz": _COMPRESSED[".gz"], ".tgz": _COMPRESSED[".gz"], ".tar.bz2": bz2.BZ2File,
    ".tbz2": bz2.BZ2File, ".tar.xz": lzma.LZMAFile, ".txz": lzma.LZMAFile}
# What reading an archive or a compressed stream can raise for bad data: encrypted zip members
# (RuntimeError), compression methods zipfile lacks (NotImplementedError), and the rest.
_READ_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, tarfile.TarError,
                zipfile.BadZipFile, ValueError, RuntimeError, NotImplementedError)
_SNIFF_BYTES = 8192
_MAX_OFFSETS = 65536
_BLOCK = 1 << 16
_MAGIC = ((b"\x1f\x8b", _COMPRESSED[".gz"]), (b"BZh", _COMPRESSED[".bz2"]),
          (b"\xfd7zXZ\x00", _COMPRESSED[".xz"]))
"""Compressed data on standard input, known by its first bytes."""


@dataclasses.dataclass(frozen=True, slots=True)
class PgnChunk:
    """One PGN record's lines, with where they came from and the record's index in its file."""

    path: str
    index: int
    chunk: Chunk
    problems: tuple[Diagnostic, ...] = ()
    """Faults of the raw text (bad bytes, a line too long) in the chunk's lines; they belong to
    its record."""
    offset: int = -1
    """The byte offset of the chunk's first line in its file or archive member (after
    decompression), or -1 when unknown."""

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
Suffixes = tuple[str, ...] | Callable[[], tuple[str, ...]]
"""File name endings a walk reads beside the container's, or a function giving them when a
walk first needs them (so that reading a named file never has to ask every game)."""
Claim = Callable[[str, str], "str | None"]
"""Given a file's first 8 KiB as text and its name (an archive member's name inside the
archive), the key of a format that reads it, or ``None``."""


class InputNotFound(Exception):
    """A path named on the command line does not exist (a usage error, not a record fault)."""


class ReadProgress:
    """How many bytes of the input files have been read, for a progress bar: the sizes of the
    files finished, plus the position reached in the file being read (of its compressed
    bytes, for a compressed file or an archive). Standard input is not counted.

    >>> progress = ReadProgress()
    >>> progress.bytes_done
    0
    """

    def __init__(self) -> None:
        self.finished = 0
        self._current: BinaryIO | None = None

    def reading(self, raw: BinaryIO) -> None:
        self._current = raw

    def finished_file(self, path: str) -> None:
        self._current = None
        try:
            self.finished += os.path.getsize(path)
        except OSError:
            pass

    @property
    def bytes_done(self) -> int:
        current = self._current
        if current is None or current.closed:
            return self.finished
        try:
            return self.finished + current.tell()
        except (OSError, ValueError):
            return self.finished


@dataclasses.dataclass(frozen=True)
class Reading:
    """How inputs are read: the formats a caller adds (``claim``, ``suffixes``), the limits,
    and the text encoding (``None``: UTF-8 unless a byte-order mark says otherwise)."""

    claim: Claim | None = None
    suffixes: Suffixes = ()
    limits: Limits = DEFAULT
    encoding: str | None = None
    member: str | None = None
    """Read only this archive member (or the members under this folder)."""
    progress: ReadProgress | None = None
    """Told which file is being read, for a progress bar."""

    def wants_member(self, name: str) -> bool:
        """Whether an archive member is read: one named is read whatever its ending; in a
        walk (the whole archive, or a folder of it) only the endings a walk reads."""
        member = self.member
        if member is not None and name == member:
            return True
        if member is not None and not name.startswith(member.rstrip("/") + "/"):
            return False
        return _wanted_in_walk(name, self.suffixes)


def shown(path: str) -> str:
    """A path as reports show it: bytes that are not UTF-8 (kept by the file system as lone
    surrogates) are written ``\\xff``, so the text can always be encoded.

    >>> shown("ok.pgn"), shown("bad\\udcff.pgn")
    ('ok.pgn', 'bad\\\\xff.pgn')
    """
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def encodable(text: str) -> str:
    """``text`` as UTF-8 can hold it: a lone surrogate (a JSON ``"\\udcff"``, a file name's
    bad byte) is written as its backslash escape, so a database or a Parquet file can store
    the text and JSON reads the escape back as the same character.

    >>> encodable("ok"), encodable("bad\\udcff")
    ('ok', 'bad\\\\udcff')
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _io_error(path: str, message: str, code: str = "E-IO") -> Diagnostic:
    return Diagnostic(code, message, shown(path), 0, 0)


def _is_archive(name: str) -> bool:
    lower = name.lower()
    return lower.endswith(_TAR_SUFFIXES) or lower.endswith(".zip")


def _wanted_in_walk(name: str, suffixes: Suffixes) -> bool:
    lower = name.lower()
    if _is_archive(lower):
        return True
    for suffix in _COMPRESSED:
        if lower.endswith(suffix):
            lower = lower[: -len(suffix)]
            break
    if lower.endswith(CONTAINER_SUFFIXES):
        return True
    return lower.endswith(suffixes() if callable(suffixes) else suffixes)


def split_member(path: str) -> tuple[str, str] | None:
    """``club.tar.gz:evening/board3.pgn`` → ``("club.tar.gz", "evening/board3.pgn")``: the
    archive and member of a path as diagnostics print it, when ``path`` itself is no file and
    its head is an archive that exists; ``None`` otherwise.

    >>> split_member("no-such.zip:a.pgn") is None
    True
    """
    if path == "-" or os.path.exists(path):
        return None
    start = 0
    while (colon := path.find(":", start)) > 0:
        head, member = path[:colon], path[colon + 1:]
        if member and _is_archive(head) and os.path.isfile(head):
            return head, member
        start = colon + 1
    return None


def check_paths(paths: Iterable[str]) -> None:
    """Raise :class:`InputNotFound` for the first path that does not exist (``-`` is stdin);
    an ``archive:member`` path counts when its archive exists."""
    for path in paths:
        if path != "-" and not os.path.exists(path) and split_member(path) is None:
            raise InputNotFound(shown(path))


def _walk(path: str, suffixes: Suffixes,
          problems: list[Diagnostic]) -> Iterator[str]:
    """The files a directory walk reads, sorted; unreadable directories become diagnostics."""
    def unreadable(error: OSError) -> None:
        where = error.filename if isinstance(error.filename, str) else path
        problems.append(_io_error(where, f"cannot read directory {shown(where)}: "
                                  f"{error.strerror or error}"))

    for root, dirs, files in os.walk(path, onerror=unreadable):
        dirs.sort()
        for name in sorted(files):
            if _wanted_in_walk(name, suffixes):
                yield os.path.join(root, name)


def input_files(paths: Iterable[str], suffixes: Suffixes = (),
                problems: list[Diagnostic] | None = None) -> list[str]:
    """The files ``iter_units`` will open, in order (``-`` for stdin); archives count once.
    Directories that cannot be read are added to ``problems`` when it is given.

    >>> input_files(["-"])
    ['-']
    """
    files: list[str] = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            files += _walk(path, suffixes, problems if problems is not None else [])
        else:
            files.append(path)
    return files


def input_size(path: str) -> int | None:
    """The size in bytes of an input file (of its archive, for ``archive:member``), or
    ``None`` for standard input and what cannot be read."""
    parts = split_member(path)
    try:
        return os.path.getsize(parts[0] if parts else path) if path != "-" else None
    except OSError:
        return None


def top_file(unit_path: str, files: set[str]) -> str:
    """The input file a unit's path comes from (``archive.zip:member.pgn`` → ``archive.zip``)."""
    if unit_path in files:
        return unit_path
    head, _, _ = unit_path.rpartition(":")
    while head and head not in files:
        head, _, _ = head.rpartition(":")
    return head or unit_path


def iter_units(paths: Iterable[str], *, stdin: BinaryIO | None = None,
               claim: Claim | None = None, suffixes: Suffixes = (),
               limits: Limits = DEFAULT, encoding: str | None = None,
               progress: ReadProgress | None = None) -> Iterator[Unit]:
    """Units from every input, in order: files, directories (sorted walk), archives, ``-``.

    ``claim`` lets a caller that knows other formats take a whole file before it is read
    as PGN or JSON, and ``suffixes`` names the files of those formats that directory walks
    and archives should read (this module knows no format but the container's).
    """
    reading = Reading(claim, suffixes, limits, encoding, progress=progress)
    for path in paths:
        if path == "-":
            yield from _units_from_stdin(stdin if stdin is not None else sys.stdin.buffer,
                                         reading)
        elif os.path.isdir(path):
            problems: list[Diagnostic] = []
            for name in _walk(path, suffixes, problems):
                yield from problems
                problems.clear()
                yield from _units_from_file(name, reading)
            yield from problems
        elif (parts := split_member(path)) is not None:
            archive, member = parts
            found = False
            for unit in _units_from_file(archive, dataclasses.replace(reading, member=member)):
                found = True
                yield unit
            if not found:
                yield _io_error(path, f"{shown(archive)} has no member {shown(member)}")
        else:
            yield from _units_from_file(path, reading)


def _special(path: str) -> str | None:
    """What kind of special file ``path`` is (``a FIFO``), or ``None`` for a regular file."""
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return None
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def _units_from_file(path: str, reading: Reading) -> Iterator[Unit]:
    lower = path.lower()
    progress = reading.progress
    try:
        kind = _special(path)
        if kind is not None:
            yield _io_error(path, f"{shown(path)} is {kind}, not a file: skipped (to read a "
                            "pipe, give '-' and send it to standard input)")
            return
        with open(path, "rb") as raw:
            if progress is not None:
                progress.reading(raw)
            if lower.endswith(".zip"):
                yield from _units_from_zip(raw, path, reading)
            elif lower.endswith(_TAR_SUFFIXES):
                # A compressed tar is decompressed here, in bounded reads, and tarfile sees a
                # plain tar stream: its own decompression inflates a whole block at once, and
                # a block of a repetitive archive can inflate to hundreds of megabytes.
                opener = next((open_ for suffix, open_ in _TAR_COMPRESSION.items()
                               if lower.endswith(suffix)), None)
                stream = opener(raw) if opener else raw
                yield from _units_from_tar_stream(stream, path, reading)
            else:
                opener = next((open_ for suffix, open_ in _COMPRESSED.items()
                               if lower.endswith(suffix)), None)
                inner = path[: path.rfind(".")] if opener else path
                stream: BinaryIO = opener(raw) if opener else raw
                size = os.fstat(raw.fileno()).st_size if opener else None
                yield from _units_from_stream(stream, path, inner, reading, size)
    except _READ_ERRORS as error:
        yield _io_error(path, f"cannot read {shown(path)}: {_describe(error)}")
    finally:
        if progress is not None:
            progress.finished_file(path)


def _describe(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error) or type(error).__name__
    if text == "empty file":  # what tarfile says of a compressed tar cut short
        return "truncated or empty archive"
    return text


def iter_stream(stream: BinaryIO, name: str = "-", *, claim: Claim | None = None,
                suffixes: Suffixes = (), limits: Limits = DEFAULT,
                encoding: str | None = None) -> Iterator[Unit]:
    """Units from one open byte stream, read as standard input is (text, or compressed data
    or a tar archive known by its first bytes); reports name it ``name``. The Python API
    reads open files and record text with it."""
    return _units_from_stdin(stream, Reading(claim, suffixes, limits, encoding), name)


def _units_from_stdin(stream: BinaryIO, reading: Reading, name: str = "-") -> Iterator[Unit]:
    """Standard input: text, or compressed data or a tar archive known by its first bytes."""
    buffered = stream if isinstance(stream, io.BufferedReader) else io.BufferedReader(
        _Raw(stream), _BLOCK)
    what = "standard input" if name == "-" else shown(name)
    try:
        head = buffered.peek(512)[:512]
        opener = next((open_ for magic, open_ in _MAGIC if head.startswith(magic)), None)
        if opener is not None:
            buffered = io.BufferedReader(_Raw(opener(buffered)), _BLOCK)
            head = buffered.peek(512)[:512]
        if len(head) >= 262 and head[257:262] == b"ustar":
            yield from _units_from_tar_stream(buffered, name, reading)
        elif head.startswith(b"PK\x03\x04"):
            yield _io_error(name, f"a zip archive cannot be read from {what} (it is "
                            "read from its end): give its file name")
        else:
            yield from _units_from_stream(buffered, name, name, reading, None)
    except _READ_ERRORS as error:
        yield _io_error(name, f"cannot read {what}: {_describe(error)}")


def _units_from_zip(raw: BinaryIO, path: str, reading: Reading) -> Iterator[Unit]:
    with zipfile.ZipFile(raw) as archive:
        for info in archive.infolist():
            if info.is_dir() or not reading.wants_member(info.filename):
                continue
            name = f"{path}:{info.filename}"
            try:
                with archive.open(info) as member:
                    yield from _units_from_stream(member, name, info.filename, reading,
                                                  info.compress_size)
            except _READ_ERRORS as error:
                yield _io_error(name, f"cannot read archive member {shown(name)}: "
                                f"{_describe(error)}")


def _units_from_tar_stream(raw: BinaryIO, path: str, reading: Reading) -> Iterator[Unit]:
    # "r|*" reads the archive as a stream: members strictly in order, nothing kept in memory.
    with tarfile.open(fileobj=raw, mode="r|*") as archive:  # type: ignore[call-overload]
        for info in archive:
            if not info.isfile() or not reading.wants_member(info.name):
                continue
            name = f"{path}:{info.name}"
            member = archive.extractfile(info)
            if member is None:
                continue
            broken = False
            for unit in _units_from_stream(member, name, info.name, reading, None):
                broken = broken or (isinstance(unit, Diagnostic) and unit.code == "E-IO")
                yield unit
            if broken:
                return  # the archive's stream broke inside this member: nothing follows


class _Raw(io.RawIOBase):
    """A byte stream as a raw stream, for a BufferedReader."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        data = self.stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _Guarded(io.RawIOBase):
    """A stream that stops, rather than fails, at a decompression error or a limit: the data
    before the fault is read as usual, and :attr:`fault` says what stopped it."""

    def __init__(self, stream: BinaryIO, path: str, limits: Limits,
                 compressed_size: int | None) -> None:
        self.stream, self.path, self.limits = stream, path, limits
        self.compressed_size = compressed_size
        self.count = 0
        self.fault: Diagnostic | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        if self.fault is not None:
            return 0
        try:
            data = self.stream.read(len(buffer))
        except _READ_ERRORS as error:
            self.fault = _io_error(self.path, f"cannot read {shown(self.path)} past byte "
                                   f"{self.count:,}: {_describe(error)}")
            return 0
        self.count += len(data)
        limits = self.limits
        if self.count > limits.max_file_bytes:
            self.fault = _io_error(self.path, f"{shown(self.path)} is larger than "
                                   f"{limits.describe('max_file_bytes')} bytes: the rest is "
                                   "not read", "E-LIMIT")
            return 0
        if self.compressed_size and self.count > limits.ratio_floor_bytes \
                and self.count > limits.max_ratio * self.compressed_size:
            self.fault = _io_error(self.path, f"{shown(self.path)} inflates more than "
                                   f"{limits.describe('max_ratio')} times: the rest is not "
                                   "read (a compression bomb?)", "E-LIMIT")
            return 0
        buffer[: len(data)] = data
        return len(data)


def _units_from_stream(stream: BinaryIO, path: str, inner_name: str, reading: Reading,
                       compressed_size: int | None) -> Iterator[Unit]:
    """Units from one byte stream; the format comes from the name, else from the content."""
    guarded = _Guarded(stream, path, reading.limits, compressed_size)
    buffered = io.BufferedReader(guarded, _BLOCK)
    head = buffered.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]
    if b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        yield _io_error(path, f"{shown(path)} holds binary data, not text records")
        return
    lines = _TextLines(buffered, shown(path), reading)
    key = reading.claim(lines.head_text(), inner_name) if reading.claim is not None else None
    if key is not None:
        text = lines.read_all(reading.limits.max_record_bytes)
        yield ForeignText(shown(path), key, text, tuple(lines.take_problems()))
    elif _is_json(inner_name, lines.head_text()):
        # A record is held back until the next one starts, so that a fault of the text (a
        # bad byte, a line too long) joins the record whose lines hold it.
        held: Record | None = None
        problems: list[Diagnostic] = []
        for record in read_json_records(lines.pieces(), shown(path), limits=reading.limits):
            record.offset = lines.offset_of(record.line)
            problems += lines.take_problems()
            if held is not None:
                held.diagnostics += [dataclasses.replace(d, record=held.index)
                                     for d in problems if d.line < record.line]
                problems = [d for d in problems if d.line >= record.line]
                yield held
            held = record
        problems += lines.take_problems()
        if held is not None:
            held.diagnostics += [dataclasses.replace(d, record=held.index) for d in problems]
            yield held
        else:
            yield from problems
    else:
        pending: list[Diagnostic] = []

        def overflow(line: int) -> None:
            pending.append(Diagnostic(
                "E-LIMIT", f"the record is larger than "
                f"{reading.limits.describe('max_record_bytes')} bytes: its text after this "
                "line is not read", shown(path), line, 1))

        chunks = split_chunks(lines, max_bytes=reading.limits.max_record_bytes,
                              overflow=overflow)
        # A chunk is held back until the next one starts: a fault of the text (a bad byte, a
        # line too long) between the two belongs to the first.
        held: PgnChunk | None = None
        for index, chunk in enumerate(chunks, start=1):
            pending += lines.take_problems()
            if held is not None:
                mine = tuple(d for d in pending if d.line < chunk[0])
                pending = [d for d in pending if d.line >= chunk[0]]
                yield dataclasses.replace(held, problems=mine) if mine else held
            held = PgnChunk(shown(path), index, chunk, offset=lines.offset_of(chunk[0]))
        pending += lines.take_problems()
        if held is not None:
            yield dataclasses.replace(held, problems=tuple(pending)) if pending else held
        else:
            yield from pending  # text faults in a file that holds no record
    if guarded.fault is not None:
        yield guarded.fault


def _is_json(inner_name: str, head: str) -> bool:
    start = head.lstrip()[:1]
    return inner_name.lower().endswith(JSON_SUFFIXES) or start == "{" or (
        start == "[" and head.lstrip()[1:].lstrip()[:1] in ("{", "]"))


class _TextLines:
    """A byte stream as numbered text lines, each at most ``max_line_bytes`` long.

    Iterating gives the lines (without their ends); bytes that do not decode are replaced and
    reported (``E-ENCODING``, at their line and column), and a line that is too long is given
    as an empty line and reported (``E-LIMIT``). :meth:`pieces` gives the text in blocks
    instead, for JSON.
    """

    def __init__(self, stream: io.BufferedReader, path: str, reading: Reading) -> None:
        self.stream, self.path, self.limits = stream, path, reading.limits
        self.problems: list[Diagnostic] = []
        self.position = 0
        """Bytes of the stream given as lines so far (of its UTF-8 form when it is UTF-16)."""
        self.offsets: dict[int, int] = {}
        """Line number → byte offset of the line's start, for the lines not yet released
        (:meth:`offset_of` releases the lines before the one asked for)."""
        head = stream.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]
        self.encoding = reading.encoding or "utf-8"
        self.transcode = None
        if reading.encoding is None and head.startswith((codecs.BOM_UTF16_LE,
                                                          codecs.BOM_UTF16_BE)):
            self.encoding = "utf-16"
        elif head.startswith(codecs.BOM_UTF8) and self.encoding.replace("_", "-").lower() in (
                "utf-8", "utf8", "utf-8-sig"):
            self.encoding = "utf-8-sig"
        try:
            self.ascii_based = codecs.lookup(self.encoding).name not in (
                "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be")
        except LookupError:  # the CLI checks the name; this is for library callers
            self.ascii_based, self.encoding = True, "utf-8"
        self._head = head

    def head_text(self) -> str:
        """The first 8 KiB as text, for recognising the format."""
        if self.ascii_based:
            return self._head.decode(self.encoding, "replace")
        return self._head.decode(self.encoding, "replace")

    def _blocks(self) -> Iterator[bytes]:
        """The stream's bytes in blocks, as UTF-8-compatible bytes when the encoding is not
        ASCII-based (UTF-16): lines can then be split on their bytes."""
        if self.ascii_based:
            while block := self.stream.read(_BLOCK):
                yield block
            return
        decoder = codecs.getincrementaldecoder(self.encoding)("replace")
        while block := self.stream.read(_BLOCK):
            yield decoder.decode(block).encode("utf-8", "surrogatepass")
        yield decoder.decode(b"", final=True).encode("utf-8", "surrogatepass")

    def _raw_lines(self) -> Iterator[tuple[bytes | None, int]]:
        """Lines as bytes without their ends (``None`` for a line over the limit), each with
        its size in the stream, line end included."""
        limit = self.limits.max_line_bytes
        pending = b""
        skipping = False
        skipped = 0
        for block in self._blocks():
            data = pending + block if pending else block
            parts = data.splitlines(keepends=True)
            last = parts[-1] if parts else b""
            # an unfinished last line, or a "\r" whose "\n" may be in the next block
            if last and (not last.endswith((b"\n", b"\r")) or last.endswith(b"\r")):
                pending = parts.pop()
            else:
                pending = b""
            for part in parts:
                if skipping:
                    skipping = False
                    skipped += len(part)
                    yield b"", -skipped  # the end of a line already reported as too long
                    skipped = 0
                    continue
                if len(part) > limit + 2:
                    yield None, len(part)
                else:
                    yield part.rstrip(b"\r\n"), len(part)
            if len(pending) > limit + 1:
                if not skipping:
                    yield None, 0
                skipped += len(pending)
                skipping, pending = True, b""
        if pending and not skipping:
            yield (None if len(pending) > limit + 1 else pending.rstrip(b"\r\n")), len(pending)

    def __iter__(self) -> Iterator[str]:
        encoding = "utf-8" if not self.ascii_based else self.encoding
        number = 0
        offsets = self.offsets
        for data, size in self._raw_lines():
            if size < 0:  # the rest of an overlong line: not a line of its own
                self.position -= size
                continue
            number += 1
            offsets[number] = self.position
            if len(offsets) > _MAX_OFFSETS:
                # A record of very many lines: forget the oldest half (its start is then
                # unknown) rather than let memory grow with the record.
                for old in list(itertools.islice(offsets, _MAX_OFFSETS // 2)):
                    del offsets[old]
            self.position += size
            if data is None:
                self.problems.append(Diagnostic(
                    "E-LIMIT", f"line {number} is longer than "
                    f"{self.limits.describe('max_line_bytes')} bytes: it is not read",
                    self.path, number, 1))
                yield ""
                continue
            if number == 1 and encoding == "utf-8-sig":
                data = data.removeprefix(codecs.BOM_UTF8)
            try:
                yield data.decode(encoding)
            except UnicodeDecodeError as error:
                column = len(data[: error.start].decode(encoding, "replace")) + 1
                self.problems.append(Diagnostic(
                    "E-ENCODING", f"not {self._name()}: byte 0x{data[error.start]:02x} "
                    f"(records must be {self._name()} text; see --encoding)", self.path,
                    number, column))
                yield data.decode(encoding, "replace")

    def offset_of(self, line: int) -> int:
        """The byte offset where ``line`` starts (-1 if unknown), forgetting earlier lines."""
        offset = self.offsets.get(line, -1)
        for number in [n for n in self.offsets if n < line]:
            del self.offsets[number]
        return offset

    def _name(self) -> str:
        return {"utf-8-sig": "UTF-8", "utf-8": "UTF-8"}.get(self.encoding, self.encoding)

    def pieces(self) -> Iterator[str]:
        """The whole text in blocks, line ends kept (lone ``\\r`` as ``\\n``)."""
        lines: list[str] = []
        size = 0
        for line in self:
            lines.append(line)
            size += len(line) + 1
            if size >= _BLOCK:
                yield "\n".join(lines) + "\n"
                lines, size = [], 0
        if lines:
            yield "\n".join(lines) + "\n"

    def read_all(self, limit: int) -> str:
        """The whole text, up to ``limit`` characters (more is reported as ``E-LIMIT``)."""
        text: list[str] = []
        size = 0
        for number, line in enumerate(self, start=1):
            size += len(line) + 1
            if size > limit:
                self.problems.append(Diagnostic(
                    "E-LIMIT", f"the file is larger than "
                    f"{self.limits.describe('max_record_bytes')} bytes: its text after line "
                    f"{number - 1} is not read", self.path, number, 1))
                break
            text.append(line)
        return "\n".join(text) + ("\n" if text else "")

    def take_problems(self) -> list[Diagnostic]:
        problems, self.problems = self.problems, []
        return problems
