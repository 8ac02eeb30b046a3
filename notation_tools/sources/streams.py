"""Byte streams that end, rather than fail, at a fault, so that every byte before it is read.

A :class:`Stream` never raises for bad data: at a fault (a read error, data that does not
decompress, a stream cut short, a limit) it ends like a stream at its end, and ``fault`` says
why. A ``BufferedReader`` over one therefore keeps every byte the stream gave before the fault
(a raw stream that raises makes it drop the bytes of the read in progress).

:class:`Inflating` decompresses gzip (every member of a multi-member file), bzip2 and xz (every
stream of a multi-stream file) and raw deflate itself, in bounded steps, and gives every byte
decompressed before a fault: a truncated file gives all its data up to the cut (bzip2 up to its
last whole block, the unit bzip2 decodes). :class:`Slice` is part of a stream (an archive
member), :class:`Counted` counts what a reader takes and applies the size limits, and
:func:`spool` copies a stream into a seekable temporary file (a zip archive is read from its
end). Knows no archive format and no record.
"""

from __future__ import annotations

import bz2
import dataclasses
import io
import lzma
import tempfile
import zipfile
import zlib
from typing import IO, Any, BinaryIO, Protocol, Union

_FEED = 1 << 14
"""Compressed bytes given to a decompressor at a time: what a fault in the middle of the data
can take with it (the decompressors drop the output of a call that fails)."""
SPOOL_MEMORY = 16 << 20
"""How much of a spooled stream stays in memory; the rest goes to a temporary file."""

Source = Union[IO[bytes], io.RawIOBase]
"""What a stream here reads: an open file, another stream of this module."""

GZIP_MAGIC = b"\x1f\x8b"
XZ_MAGIC = b"\xfd7zXZ\x00"
BZ2_MAGIC = b"BZh"
# What decompressing bad data can raise.
DECODE_ERRORS = (zlib.error, lzma.LZMAError, EOFError, OSError, ValueError)


@dataclasses.dataclass(slots=True)
class Fault:
    """Why a stream ended early: ``code`` is ``E-IO`` (the data breaks) or ``E-LIMIT``, and
    ``reason`` says what happened in words. ``reported`` is set by the reader that turned it
    into a diagnostic, so that the layers above it stop without reporting it again."""

    code: str
    reason: str
    reported: bool = False


def fault_of(stream: Any) -> Fault | None:
    """The fault that ended ``stream`` (or the stream a ``BufferedReader`` reads), if any."""
    fault = getattr(stream, "fault", None)
    if fault is None and isinstance(stream, io.BufferedReader):
        fault = getattr(stream.raw, "fault", None)
    return fault


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


def describe(error: BaseException) -> str:
    """An exception as the end of a diagnostic's message."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


class Stream(io.RawIOBase):
    """A raw byte stream that ends at a fault instead of raising."""

    fault: Fault | None = None

    def readable(self) -> bool:
        return True

    def buffered(self, size: int = 1 << 16) -> io.BufferedReader:
        """This stream behind a buffer (``peek``, and fewer calls into Python)."""
        return io.BufferedReader(self, size)


class Counted(Stream):
    """``source`` as a stream that counts the bytes it gives (:attr:`count`), ends at
    ``max_bytes`` with an ``E-LIMIT`` fault, and ends with an ``E-IO`` fault instead of
    raising when reading ``source`` fails. ``compressed`` (the size of the data ``source``
    decompresses, for a zip member) turns on the ratio check of ``ratio`` and ``floor``.
    ``piece`` bounds each read of ``source``: a zip member's reader raises at a bad checksum
    and drops the bytes of that read."""

    def __init__(self, source: Source, *, max_bytes: int | None = None,
                 limit_text: str = "", compressed: int | None = None, ratio: int = 0,
                 floor: int = 0, ratio_text: str = "", piece: int | None = None) -> None:
        self.source = source
        self.max_bytes, self.limit_text = max_bytes, limit_text
        self.compressed, self.ratio, self.floor, self.ratio_text = (
            compressed, ratio, floor, ratio_text)
        self.piece = piece
        self.count = 0

    def readinto(self, buffer: Any) -> int:
        if self.fault is not None:
            return 0
        try:
            data = self.source.read(min(len(buffer), self.piece or len(buffer))) or b""
        except DECODE_ERRORS + (RuntimeError, NotImplementedError,
                                zipfile.BadZipFile) as error:
            # zipfile raises BadZipFile at a bad checksum, RuntimeError for an encrypted
            # member and NotImplementedError for a compression method it lacks; the rest
            # is bad data or a read error.
            self.fault = Fault("E-IO", describe(error))
            return 0
        if not data:
            self.fault = fault_of(self.source)
            return 0
        self.count += len(data)
        if self.max_bytes is not None and self.count > self.max_bytes:
            self.fault = Fault("E-LIMIT", self.limit_text)
            return 0
        if self.compressed and self.count > self.floor \
                and self.count > self.ratio * self.compressed:
            self.fault = Fault("E-LIMIT", self.ratio_text)
            return 0
        buffer[: len(data)] = data
        return len(data)


class Slice(Stream):
    """The next ``size`` bytes of ``source`` (all the rest when ``size`` is None), as a stream;
    it ends with a fault when ``source`` ends or fails first. :meth:`skip` reads past what the
    reader left."""

    def __init__(self, source: Source, size: int | None, what: str) -> None:
        self.source, self.remaining, self.what = source, size, what
        self.count = 0

    def readinto(self, buffer: Any) -> int:
        if self.fault is not None or self.remaining == 0:
            return 0
        want = len(buffer) if self.remaining is None else min(len(buffer), self.remaining)
        try:
            data = self.source.read(want) or b""
        except DECODE_ERRORS as error:
            self.fault = Fault("E-IO", describe(error))
            return 0
        if not data:
            if self.remaining is not None:
                self.fault = fault_of(self.source) or Fault(
                    "E-IO", f"the archive ends inside {self.what} (cut short?)")
            return 0
        self.count += len(data)
        if self.remaining is not None:
            self.remaining -= len(data)
        buffer[: len(data)] = data
        return len(data)

    def skip(self) -> None:
        """Read what is left (a fault, if any, is then in :attr:`fault`)."""
        while self.readinto(_SKIP_BUFFER):
            pass


_SKIP_BUFFER = bytearray(1 << 16)


class _Decoder(Protocol):
    @property
    def eof(self) -> bool: ...

    @property
    def unused_data(self) -> bytes: ...

    @property
    def needs_input(self) -> bool: ...

    def decompress(self, data: bytes, max_length: int = -1) -> bytes: ...


class _Zlib:
    """A zlib decompressor with the interface of the bz2 and lzma ones (``needs_input``)."""

    def __init__(self, wbits: int) -> None:
        self.decoder = zlib.decompressobj(wbits)

    @property
    def eof(self) -> bool:
        return self.decoder.eof

    @property
    def unused_data(self) -> bytes:
        return self.decoder.unused_data

    @property
    def needs_input(self) -> bool:
        return not self.decoder.unconsumed_tail

    def decompress(self, data: bytes, max_length: int = -1) -> bytes:
        tail = self.decoder.unconsumed_tail
        return self.decoder.decompress(tail + data if tail else data, max(max_length, 0))


KINDS = {"gz": ("gzip", GZIP_MAGIC), "bz2": ("bzip2", BZ2_MAGIC), "xz": ("xz", XZ_MAGIC),
         "deflate": ("deflate", b"")}
"""The compressions :class:`Inflating` reads: name and the first bytes of a stream."""


def _decoder(kind: str) -> _Decoder:
    if kind == "gz":
        return _Zlib(16 + zlib.MAX_WBITS)
    if kind == "deflate":
        return _Zlib(-zlib.MAX_WBITS)
    if kind == "bz2":
        return bz2.BZ2Decompressor()
    return lzma.LZMADecompressor(lzma.FORMAT_AUTO)


class Inflating(Stream):
    """The decompressed data of ``source`` (``kind``: ``gz``, ``bz2``, ``xz`` or raw
    ``deflate``). Every member or stream of a concatenated file is read, and zero padding
    between and after them is skipped; other data after the last one is a fault.

    Each step decompresses at most what the reader asked for from at most 16 KiB of input, so
    memory stays bounded whatever the ratio. Once ``floor`` bytes are out, more than ``ratio``
    times the compressed size (``compressed``, else the bytes read so far) is an ``E-LIMIT``
    fault (``ratio_text`` says it). ``single`` stops at the end of the first stream (a zip
    member, whose data ends there): :attr:`leftover` is then what was read past it.
    """

    def __init__(self, source: Source, kind: str, *, ratio: int = 0, floor: int = 0,
                 compressed: int | None = None, ratio_text: str = "",
                 single: bool = False) -> None:
        self.source, self.kind, self.single = source, kind, single
        self.name, self.magic = KINDS[kind]
        self.decoder = _decoder(kind)
        self.ratio, self.floor, self.compressed, self.ratio_text = (
            ratio, floor, compressed, ratio_text)
        self.consumed = 0
        """Compressed bytes read from ``source``."""
        self.produced = 0
        self.finished = False
        self.pending = b""
        """Input read but not yet given to the decoder (the start of the next stream)."""
        self.leftover = b""

    @property
    def count(self) -> int:
        """Decompressed bytes given so far."""
        return self.produced

    def readinto(self, buffer: Any) -> int:
        # The buffer is filled as far as the data goes (a reader that peeks, to know what
        # the data is, gets a whole buffer); a fault after some bytes ends the next call.
        view = memoryview(buffer).cast("B")
        filled = 0
        while filled < len(view) and self.fault is None and not self.finished:
            try:
                data = self._inflate(len(view) - filled)
            except _ReadFailed as error:
                self.fault = Fault("E-IO", str(error))
                break
            except DECODE_ERRORS as error:
                self.fault = Fault("E-IO", f"bad {self.name} data: {describe(error)}")
                break
            except _Truncated:
                self.fault = fault_of(self.source) or Fault("E-IO", self._truncated())
                break
            if not data:
                self.finished = True
                break
            self.produced += len(data)
            if self.ratio and self.produced > self.floor and \
                    self.produced > self.ratio * max(self.compressed or 0, self.consumed):
                self.fault = Fault("E-LIMIT", self.ratio_text)
                break
            view[filled: filled + len(data)] = data
            filled += len(data)
        return filled

    def _truncated(self) -> str:
        reason = f"the {self.name} data ends before the end of its stream (cut short?)"
        if self.kind == "bz2":
            # bzip2 decodes whole blocks (up to 900 kB of data): the block the cut falls in
            # cannot be decoded at all.
            reason += "; the bzip2 block it cuts, up to 900 kB of data, cannot be decoded"
        return reason

    def _read(self) -> bytes:
        try:
            data = self.source.read(_FEED) or b""
        except OSError as error:
            raise _ReadFailed(describe(error)) from None
        self.consumed += len(data)
        return data

    def _inflate(self, size: int) -> bytes:
        """Up to ``size`` decompressed bytes; ``b""`` at the end of the data."""
        while True:
            decoder = self.decoder
            if decoder.eof:
                if self.single:
                    self.leftover = decoder.unused_data
                    return b""
                if not self._next_stream(decoder.unused_data + self.pending):
                    return b""
                continue
            if decoder.needs_input:
                data, self.pending = self.pending or self._read(), b""
                if not data:
                    data = decoder.decompress(b"", size)  # what a decoder still holds
                    if data:
                        return data
                    raise _Truncated
            else:
                data = b""
            data = decoder.decompress(data, size)
            if data:
                return data

    def _next_stream(self, rest: bytes) -> bool:
        """Start the next stream of a concatenated file with ``rest`` (the bytes read past
        the last one); False at the end of the data."""
        self.pending = b""
        rest = rest.lstrip(b"\0")
        while len(rest) < len(self.magic):
            more = self._read()
            if not more:
                if not rest and fault_of(self.source) is None:
                    return False
                if not rest or fault_of(self.source) is not None and \
                        self.magic.startswith(rest):
                    # the start of the next stream, cut with what holds it: the cut is the
                    # one fault (an archive cut inside the member), not data of another kind
                    raise _Truncated
                break
            rest = (rest + more).lstrip(b"\0")
        if not rest.startswith(self.magic):
            raise _ReadFailed(f"what follows byte {self.consumed - len(rest):,} of the "
                              f"compressed data is not {self.name} data: it is not read")
        self.decoder = _decoder(self.kind)
        self.pending = rest
        return True


class ArchiveBroken(Exception):
    """An archive cannot be read past ``offset`` (a byte offset in its data): ``fault`` says
    why (it may have been reported already, by the reader of a member's data)."""

    def __init__(self, offset: int, fault: Fault) -> None:
        super().__init__(fault.reason)
        self.offset, self.fault = offset, fault


class _Truncated(Exception):
    """The compressed data ends before its stream does."""


class _ReadFailed(Exception):
    """The compressed data cannot be read on (an I/O error, data after the last stream that
    is not another stream); the message says why."""


def spool(source: Source, limit: int) -> tuple[BinaryIO, int]:
    """``source`` copied into a seekable temporary file (in memory up to
    :data:`SPOOL_MEMORY`), at most ``limit`` bytes: the file, rewound, and how many bytes were
    copied (``limit + 1`` when the source holds more)."""
    copy = tempfile.SpooledTemporaryFile(SPOOL_MEMORY)
    size = 0
    while size <= limit and (data := source.read(min(1 << 16, limit + 1 - size)) or b""):
        copy.write(data)
        size += len(data)
    copy.seek(0)
    return copy, size  # type: ignore[return-value]
