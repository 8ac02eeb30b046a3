"""Where records come from: files, directories, archives, compressed files and stdin.

``iter_units(paths)`` walks the inputs lazily and yields, in order, the units a consumer needs:
``PgnChunk`` (one PGN record's raw lines, not yet parsed, so that parsing can happen in a worker
process), ``Record`` (JSON records, parsed here), ``ForeignText`` (a whole file some game's own
format claimed) and ``Diagnostic`` (an input that could not be read: ``E-IO``, text that is not
in its encoding: ``E-ENCODING``, input beyond a limit: ``E-LIMIT``).

Nothing is lost without a word: every record present is read or reported. A member of an
archive that cannot be read is one diagnostic, and reading goes on with the next member; an
archive or compressed file inside an archive is read as one (to ``archive-depth`` levels), its
kind known by its first bytes or its name. Where data breaks (a file cut short, data that does
not decompress), every whole record before the break is read, then one diagnostic says where
it broke and names the record the break cut (:func:`iter_units`).

Memory stays bounded whatever the input (``notation_tools.limits``): files and archive members
are read as streams, a line or record beyond its limit is skipped with a diagnostic, and a
compressed file that inflates too far is stopped. Special files (FIFOs, devices, sockets) are
skipped, since reading one can block forever; a pipe is read as standard input (``-``).

Text is UTF-8 unless a byte-order mark (UTF-8, UTF-16) or the caller's ``encoding`` says
otherwise; ``\\n``, ``\\r\\n`` and a lone ``\\r`` all end a line. A file name that is not valid
UTF-8 is shown with its bad bytes escaped (``\\xff``), so every report can be written.

Does not parse movetext or know any game.
"""

from __future__ import annotations

import codecs
import dataclasses
import io
import itertools
import os
import posixpath
import re
import stat
import sys
import zipfile
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO

from notation_tools.limits import DEFAULT, Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.jsonio import read_json_records
from notation_tools.records.model import Record
from notation_tools.records.pgn import Chunk, split_chunks
from notation_tools.sources.paths import COMPRESSED, TAR_SUFFIXES, io_error, is_archive, walk
from notation_tools.sources.paths import CONTAINER_SUFFIXES as CONTAINER_SUFFIXES
from notation_tools.sources.paths import InputNotFound as InputNotFound
from notation_tools.sources.paths import Suffixes as Suffixes
from notation_tools.sources.paths import check_paths as check_paths
from notation_tools.sources.paths import input_files as input_files
from notation_tools.sources.paths import input_size as input_size
from notation_tools.sources.paths import split_member as split_member
from notation_tools.sources.paths import top_file as top_file
from notation_tools.sources.paths import wanted_in_walk as wanted_in_walk
from notation_tools.sources.streams import (
    XZ_MAGIC, ArchiveBroken, Counted, Fault, Inflating, describe, fault_of, shown, spool)
from notation_tools.sources.tar import TarMember, tar_members
from notation_tools.sources.zipscan import local_members

JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
_SHORT_TAR = {".tgz": "gz", ".tbz2": "bz2", ".txz": "xz"}
_SNIFF_BYTES = 8192
_MAX_OFFSETS = 65536
_BLOCK = 1 << 16
_LINKS = ("a hard link", "a symbolic link")
_ZIP_PIECE = 1 << 13
"""Bytes read from a zip member at a time: what a bad checksum at its end can take with it."""
_BZ2_START = re.compile(rb"BZh[1-9](1AY&SY|\x17rE8P\x90)")
_RESULTS = frozenset(("1-0", "0-1", "1/2-1/2", "*"))
_COMMENT = re.compile(r"\{[^}]*\}")


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
Claim = Callable[[str, str], "str | None"]
"""Given a file's first 8 KiB as text and its name (an archive member's name inside the
archive), the key of a format that reads it, or ``None``."""



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
        """Whether an archive member is read: one named is read whatever its ending (and an
        archive holding the one named); in a walk (the whole archive, or a folder of it) only
        the endings a walk reads."""
        member = self.member
        if member is not None and (name == member or member.startswith(name + ":")):
            return True
        if member is not None and not name.startswith(member.rstrip("/") + "/"):
            return False
        return wanted_in_walk(name, self.suffixes)

    def inside(self, name: str) -> Reading:
        """How the members of the archive member ``name`` are read: all of them, or the one
        ``member`` names inside it (``outer.tar:inner.zip:games.pgn``)."""
        member = self.member
        if member is None:
            return self
        inner = member[len(name) + 1:] if member.startswith(name + ":") else None
        return dataclasses.replace(self, member=inner)


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


def text_encoding(name: str | None) -> str | None:
    """``name`` when it names a text encoding (``None`` too: UTF-8 or a byte-order mark);
    ``ValueError`` for an unknown name and for codecs that are not text encodings (``rot13``,
    ``base64``, ``zlib``: they turn bytes into bytes or text into text).

    >>> text_encoding("latin-1")
    'latin-1'
    >>> text_encoding("rot13")
    Traceback (most recent call last):
    ...
    ValueError: 'rot13' is not a text encoding
    """
    if name is None:
        return None
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise ValueError(f"unknown encoding {name!r}") from None
    if not getattr(info, "_is_text_encoding", True):
        raise ValueError(f"{name!r} is not a text encoding")
    return name


def iter_units(paths: Iterable[str], *, stdin: BinaryIO | None = None,
               claim: Claim | None = None, suffixes: Suffixes = (),
               limits: Limits = DEFAULT, encoding: str | None = None,
               progress: ReadProgress | None = None) -> Iterator[Unit]:
    """Units from every input, in order: files, directories (sorted walk), archives, ``-``.

    ``claim`` lets a caller that knows other formats take a whole file before it is read
    as PGN or JSON, and ``suffixes`` names the files of those formats that directory walks
    and archives should read (this module knows no format but the container's). An
    ``encoding`` that is not a text encoding raises ``ValueError`` here, before any reading.

    Every record present is given or reported: a member that cannot be read is one
    diagnostic naming it, and where the data breaks the records before the break are given,
    then one ``E-IO`` (``E-LIMIT`` at a limit) saying where; when the break cuts a record,
    that diagnostic names it (``record``, ``line``) and the record is not given.
    """
    reading = Reading(claim, suffixes, limits, text_encoding(encoding), progress=progress)
    return _units_of_paths(paths, stdin, reading)


def _units_of_paths(paths: Iterable[str], stdin: BinaryIO | None,
                    reading: Reading) -> Iterator[Unit]:
    for path in paths:
        if path == "-":
            yield from _units_from_stdin(stdin if stdin is not None else sys.stdin.buffer,
                                         reading)
        elif os.path.isdir(path):
            problems: list[Diagnostic] = []
            for name in walk(path, reading.suffixes, problems):
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
                yield io_error(path, f"{shown(archive)} has no member {shown(member)}")
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
    progress = reading.progress
    try:
        kind = _special(path)
        if kind is not None:
            yield io_error(path, f"{shown(path)} is {kind}, not a file: skipped (to read a "
                            "pipe, give '-' and send it to standard input)")
            return
        with open(path, "rb", buffering=0) as file, io.BufferedReader(file, _BLOCK) as raw:
            if progress is not None:
                progress.reading(raw)
            yield from _units_from_data(raw, path, path, reading, 0,
                                        os.fstat(raw.fileno()).st_size, seekable=True)
    except (OSError, ValueError, EOFError, RuntimeError, zipfile.BadZipFile) as error:
        yield io_error(path, f"cannot read {shown(path)}: {describe(error)}")
    finally:
        if progress is not None:
            progress.finished_file(path)


def iter_stream(stream: BinaryIO, name: str = "-", *, claim: Claim | None = None,
                suffixes: Suffixes = (), limits: Limits = DEFAULT,
                encoding: str | None = None) -> Iterator[Unit]:
    """Units from one open byte stream, read as standard input is (text, or compressed data
    or an archive known by its first bytes or by ``name``); reports name it ``name``. The
    Python API reads open files and record text with it. ``ValueError`` for an ``encoding``
    that is not a text encoding."""
    reading = Reading(claim, suffixes, limits, text_encoding(encoding))
    return _units_from_stdin(stream, reading, name)


def _units_from_stdin(stream: BinaryIO, reading: Reading, name: str = "-") -> Iterator[Unit]:
    """Standard input: text, or compressed data or an archive known by its first bytes."""
    buffered = (stream if isinstance(stream, io.BufferedReader)
                else io.BufferedReader(_Raw(stream), _BLOCK))
    what = "standard input" if name == "-" else shown(name)
    try:
        yield from _units_from_data(buffered, name, name, reading, 0, None)
    except (OSError, ValueError, EOFError, RuntimeError, zipfile.BadZipFile) as error:
        yield io_error(name, f"cannot read {what}: {describe(error)}")


def _container(head: bytes, name: str) -> str | None:
    """What holds the data that starts with ``head`` (and is named ``name``): ``gz``, ``bz2``
    or ``xz`` compression, a ``tar`` or ``zip`` archive; ``None`` for anything else. The first
    bytes decide, the name only when they say nothing (an old tar has no mark)."""
    if head.startswith(b"\x1f\x8b\x08"):
        return "gz"
    if head.startswith(XZ_MAGIC):
        return "xz"
    if _BZ2_START.match(head):
        return "bz2"
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head[257:262] == b"ustar":
        return "tar"
    lower = name.lower()
    if lower.endswith(".zip"):
        return "zip"
    for suffix, kind in {**COMPRESSED, **_SHORT_TAR}.items():
        if lower.endswith(suffix):
            return kind
    return "tar" if lower.endswith(".tar") else None


def _inner_name(name: str) -> str:
    """The name of what a compressed file holds: ``a.pgn.gz`` → ``a.pgn``, ``a.tgz`` →
    ``a.tar``."""
    lower = name.lower()
    for suffix in _SHORT_TAR:
        if lower.endswith(suffix):
            return name[: -len(suffix)] + ".tar"
    for suffix in COMPRESSED:
        if lower.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _position(stream: BinaryIO) -> int:
    """How many bytes of a stream have been read, when it counts them (-1 otherwise)."""
    raw = stream.raw if isinstance(stream, io.BufferedReader) else stream
    return getattr(raw, "count", -1)


def _fault_diagnostic(path: str, position: int, fault: Fault,
                      cut: tuple[int, int, int] | None = None) -> Diagnostic:
    """The one diagnostic of a fault; ``cut`` (index, line, byte offset) names the record it
    cut, which is then not read."""
    fault.reported = True
    if fault.code == "E-IO":
        where = f" past byte {position:,}" if position >= 0 else ""
        message = f"cannot read {shown(path)}{where}: {fault.reason}"
    else:
        message = f"{shown(path)} {fault.reason}"
    if cut is None:
        return Diagnostic(fault.code, message, shown(path), 0, 0)
    index, line, offset = cut
    at = f" (byte {offset:,})" if offset >= 0 else ""
    return Diagnostic(fault.code, f"{message}; record {index}, from line {line}{at}, is cut "
                      "there and not read", shown(path), line, 1, record=index)


def _units_from_data(stream: io.BufferedReader[Any], path: str, name: str, reading: Reading,
                     depth: int,
                     size: int | None, *, seekable: bool = False,
                     decompressed: bool = False) -> Iterator[Unit]:
    """Units from the data of one file or member (``stream``, buffered), shown as ``path``;
    ``name`` is its own name (a member's name inside its archive), ``depth`` how many
    archives and compressed files hold it (a compressed tar counts once: ``decompressed``
    says the data comes straight out of a compressed file), ``size`` its size when known (of
    compressed data: for the ratio limit). A fault of ``stream`` that no reader reported is
    reported here."""
    head = stream.peek(_SNIFF_BYTES)[:_SNIFF_BYTES]
    kind = _container(head, name)
    limits = reading.limits
    if kind is None:
        yield from _units_from_text(stream, path, name, reading, head)
    elif depth >= limits.max_archive_depth and not (decompressed and kind == "tar"):
        yield io_error(path, f"{shown(path)} is an archive or compressed file nested deeper "
                        f"than {limits.describe('max_archive_depth')}: not read", "E-LIMIT")
    elif kind == "tar":
        yield from _units_from_tar(stream, path, reading, depth if decompressed else depth + 1)
    elif kind == "zip":
        yield from _units_from_zip(stream, path, reading, depth, seekable)
    else:
        inflating = Inflating(stream, kind, ratio=limits.max_ratio,
                              floor=limits.ratio_floor_bytes, compressed=size,
                              ratio_text=_ratio_text(limits))
        yield from _units_from_data(inflating.buffered(_BLOCK), path, _inner_name(name),
                                    reading, depth + 1, None, decompressed=True)
    fault = fault_of(stream)
    if fault is not None and not fault.reported:
        yield _fault_diagnostic(path, _position(stream), fault)


def _ratio_text(limits: Limits) -> str:
    return (f"inflates more than {limits.describe('max_ratio')} times: the rest is not read "
            "(a compression bomb?)")


def _units_from_tar(stream: BinaryIO, path: str, reading: Reading,
                    depth: int) -> Iterator[Unit]:
    """The members of a tar archive (each at ``depth``), each read as a file is. A member
    that is no file is passed over (a directory, a device; a link when the member it links to
    is read where it stands, and reported otherwise); a sparse file is reported. Where the
    archive's data breaks, one diagnostic says where."""
    counted = Counted(stream)  # counts the offset, and a read error becomes a fault
    try:
        for member in tar_members(counted.buffered(_BLOCK)):
            if not reading.wants_member(member.name):
                continue
            name = f"{path}:{member.name}"
            if member.kind == "file":
                yield from _units_from_data(member.data.buffered(_BLOCK), name, member.name,
                                            reading.inside(member.name), depth,
                                            member.data.remaining)
            elif member.kind == "sparse":
                yield io_error(name, f"{shown(name)} is a sparse file (holes left out): not "
                                "read")
            elif member.kind in _LINKS and not _read_here(member, reading):
                yield io_error(name, f"{shown(name)} is {member.kind} to "
                                f"{shown(member.target)}, which is not read here: not read")
    except ArchiveBroken as broken:
        if not broken.fault.reported:
            yield _fault_diagnostic(path, broken.offset, broken.fault)


def _read_here(link: TarMember, reading: Reading) -> bool:
    """Whether the member a link in a tar links to is read where it stands: a path inside the
    archive that a walk of it reads (a hard link's target is a member's name; a symbolic
    link's is relative to the link's folder)."""
    target = link.target
    if link.kind == "a symbolic link":
        target = posixpath.normpath(posixpath.join(posixpath.dirname(link.name), target))
    inside = not posixpath.isabs(target) and target != ".." and not target.startswith("../")
    return inside and reading.wants_member(target)


def _units_from_zip(stream: BinaryIO, path: str, reading: Reading, depth: int,
                    seekable: bool) -> Iterator[Unit]:
    """The members of a zip archive. A zip is read from its end, so one that is not a file
    on disk (inside another archive, on standard input) is first copied into a temporary
    file, in memory up to 16 MiB, at most ``file-bytes``. One whose central directory cannot
    be read is read from its members' own headers (:mod:`~notation_tools.sources.zipscan`)."""
    limits = reading.limits
    file = stream
    cut: Fault | None = None  # the fault that cut the copy short
    if not seekable:
        file, size = spool(stream, limits.max_file_bytes)
        cut = fault_of(stream)
        if size > limits.max_file_bytes:
            file.close()
            yield io_error(path, f"{shown(path)} is larger than "
                            f"{limits.describe('max_file_bytes')} bytes: not read", "E-LIMIT")
            return
    ratio_text = _ratio_text(limits)
    try:
        archive = _zip_directory(file)
        if archive is None:
            yield from _units_from_zip_headers(file, path, reading, depth, ratio_text)
            if cut is not None:
                cut.reported = True  # the end of the copy is where its members stop
            return
        with archive:
            for info in archive.infolist():
                if info.is_dir() or not reading.wants_member(info.filename):
                    continue  # a directory entry holds no data
                name = f"{path}:{info.filename}"
                try:
                    member = archive.open(info)
                except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError,
                        NotImplementedError) as error:
                    yield io_error(name, f"cannot read archive member {shown(name)}: "
                                    f"{describe(error)}")
                    continue
                with member:
                    counted = Counted(member, compressed=info.compress_size,
                                      ratio=limits.max_ratio, floor=limits.ratio_floor_bytes,
                                      ratio_text=ratio_text, piece=_ZIP_PIECE)
                    yield from _units_from_data(counted.buffered(_BLOCK), name, info.filename,
                                                reading.inside(info.filename), depth + 1,
                                                info.compress_size)
    finally:
        if file is not stream:
            file.close()


def _zip_directory(file: BinaryIO) -> zipfile.ZipFile | None:
    """The zip archive in ``file`` as its central directory lists it, or ``None`` when that
    cannot be read. A zip cut short has lost its directory, but ``zipfile`` looks for one in
    the last 64 KiB and may find the directory of a zip stored inside it (and read that zip's
    members as this one's): a directory that does not list the member at byte 0 of an
    archive that starts with a member is not this archive's."""
    try:
        archive = zipfile.ZipFile(file)
    except Exception:  # noqa: BLE001 - whatever a damaged directory makes zipfile raise
        return None
    file.seek(0)
    if file.read(4) == b"PK\x03\x04" and not any(
            info.header_offset == 0 for info in archive.infolist()):
        archive.close()
        return None
    return archive


def _units_from_zip_headers(file: BinaryIO, path: str, reading: Reading, depth: int,
                            ratio_text: str) -> Iterator[Unit]:
    """A zip whose central directory cannot be read, from its members' local headers: the
    members before the damage, then one diagnostic where it is."""
    limits = reading.limits
    try:
        for member in local_members(file, ratio=limits.max_ratio,
                                    floor=limits.ratio_floor_bytes, ratio_text=ratio_text):
            if member.name.endswith("/") or not reading.wants_member(member.name):
                continue
            name = f"{path}:{member.name}"
            if member.data is None:
                yield io_error(name, f"cannot read archive member {shown(name)}: "
                                f"{member.problem}")
                continue
            yield from _units_from_data(member.data.buffered(_BLOCK), name, member.name,
                                        reading.inside(member.name), depth + 1,
                                        member.compressed)
    except ArchiveBroken as broken:
        if not broken.fault.reported:
            yield _fault_diagnostic(path, -1, broken.fault)


class _Raw(io.RawIOBase):
    """A byte stream as a raw stream, for a BufferedReader."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _whole_pgn(chunk: Chunk) -> bool:
    """Whether a PGN record's text is whole: its movetext ends with a result (outside a
    comment). Only asked of the last record before a break."""
    _, _, movetext_lines = chunk
    text = _COMMENT.sub(" ", " ".join(line for _, line in movetext_lines))
    tokens = text.split()
    return "{" not in text and bool(tokens) and tokens[-1] in _RESULTS


def _cut_json(record: Record) -> bool:
    """Whether a JSON record is one the JSON reader could not decode (text cut short), not
    the unclosed array of a file cut between records."""
    return (not record.moves and not record.tags and len(record.diagnostics) == 1
            and record.diagnostics[0].code == "E-SYNTAX"
            and "not closed" not in record.diagnostics[0].message)


def _units_from_text(source: BinaryIO, path: str, inner_name: str, reading: Reading,
                     head: bytes) -> Iterator[Unit]:
    """Units from one stream of text; the format comes from the name, else from the content.
    Where the stream breaks or stops at a limit, the record the break cut is not given: the
    diagnostic of the break names it."""
    limits = reading.limits
    counted = Counted(source, max_bytes=limits.max_file_bytes,
                      limit_text=f"is larger than {limits.describe('max_file_bytes')} bytes: "
                      "the rest is not read")
    buffered = counted.buffered(_BLOCK)
    if b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        yield io_error(path, f"{shown(path)} holds binary data, not text records")
        return
    lines = _TextLines(buffered, shown(path), reading)
    cut: tuple[int, int, int] | None = None
    key = reading.claim(lines.head_text(), inner_name) if reading.claim is not None else None
    if key is not None:
        text = lines.read_all(limits.max_record_bytes)
        if counted.fault is None:
            yield ForeignText(shown(path), key, text, tuple(lines.take_problems()))
        else:
            cut = (1, 1, 0)  # a file in a game's own format is one record
    elif _is_json(inner_name, lines.head_text()):
        # A record is held back until the next one starts, so that a fault of the text (a
        # bad byte, a line too long) joins the record whose lines hold it.
        held: Record | None = None
        problems: list[Diagnostic] = []
        json_lines = inner_name.lower().endswith((".jsonl", ".ndjson"))
        for record in read_json_records(lines.pieces(), shown(path), limits=limits,
                                        json_lines=json_lines):
            record.offset = lines.offset_of(record.line)
            problems += lines.take_problems()
            if held is not None:
                held.diagnostics += [dataclasses.replace(d, record=held.index)
                                     for d in problems if d.line < record.line]
                problems = [d for d in problems if d.line >= record.line]
                yield held
            held = record
        problems += lines.take_problems()
        if held is not None and counted.fault is not None and _cut_json(held):
            cut, held = (held.index, held.line, held.offset), None
        if held is not None:
            held.diagnostics += [dataclasses.replace(d, record=held.index) for d in problems]
            yield held
        elif cut is None:
            yield from problems
    else:
        pending: list[Diagnostic] = []

        def overflow(line: int) -> None:
            pending.append(Diagnostic(
                "E-LIMIT", f"the record is larger than "
                f"{limits.describe('max_record_bytes')} bytes: its text after this "
                "line is not read", shown(path), line, 1))

        chunks = split_chunks(lines, max_bytes=limits.max_record_bytes, overflow=overflow)
        # A chunk is held back until the next one starts: a fault of the text (a bad byte, a
        # line too long) between the two belongs to the first.
        last: PgnChunk | None = None
        for index, chunk in enumerate(chunks, start=1):
            pending += lines.take_problems()
            if last is not None:
                mine = tuple(d for d in pending if d.line < chunk[0])
                pending = [d for d in pending if d.line >= chunk[0]]
                yield dataclasses.replace(last, problems=mine) if mine else last
            last = PgnChunk(shown(path), index, chunk, offset=lines.offset_of(chunk[0]))
        pending += lines.take_problems()
        if last is not None and counted.fault is not None and not _whole_pgn(last.chunk):
            cut, last = (last.index, last.chunk[0], last.offset), None
        if last is not None:
            yield dataclasses.replace(last, problems=tuple(pending)) if pending else last
        elif cut is None:
            yield from pending  # text faults in a file that holds no record
    if counted.fault is not None and not counted.fault.reported:
        yield _fault_diagnostic(path, counted.count, counted.fault, cut)


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
