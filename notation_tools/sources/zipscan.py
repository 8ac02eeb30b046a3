"""Zip archives whose central directory cannot be read (a download cut short, a damaged end),
read member by member from the local header in front of each member's data.

A zip archive lists its members at its end, so a zip cut short is unreadable to ``zipfile``;
the local headers still say where each member starts, how it is compressed and, unless a data
descriptor follows its data, how long it is. :func:`local_members` walks them in order. A
member compressed with deflate or bzip2 whose size comes after its data is followed through
its compressed stream; a stored one cannot be (its end is unknown), and the walk stops there.
Knows no record.
"""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Iterator
from typing import BinaryIO

from notation_tools.sources.streams import ArchiveBroken, Fault, Inflating, Slice, Stream, shown

_LOCAL = b"PK\x03\x04"
_CENTRAL = (b"PK\x01\x02", b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07")
_DESCRIPTOR = b"PK\x07\x08"
_HEADER = struct.Struct("<4sHHHHHIIIHH")
_ZIP64 = 0x0001
_STORED, _DEFLATED, _BZIP2 = 0, 8, 12
_ENCRYPTED, _DESCRIBED, _UTF8 = 0x1, 0x8, 0x800


@dataclasses.dataclass
class LocalMember:
    """One member: its name, where its header starts, and its data (decompressed), or why it
    cannot be read (``data`` is then None)."""

    name: str
    offset: int
    data: Stream | None
    problem: str = ""
    compressed: int | None = None
    """The size of its stored (compressed) data, when the header gives it."""


def _broken(offset: int, reason: str) -> ArchiveBroken:
    return ArchiveBroken(offset, Fault("E-IO", reason))


def local_members(file: BinaryIO, *, ratio: int = 0, floor: int = 0,
                  ratio_text: str = "") -> Iterator[LocalMember]:
    """The members of the zip archive in the seekable ``file``, read from their local headers,
    in order. It always ends with :class:`ArchiveBroken` (an archive whose central directory
    can be read is not read this way): where the data ends or stops making sense."""
    offset = 0
    while True:
        file.seek(offset)
        header = file.read(_HEADER.size)
        if header[:4] in _CENTRAL:
            raise _broken(offset, f"the archive's central directory, at byte {offset:,}, is "
                          "damaged or cut short")
        if not header:
            raise _broken(offset, f"the archive ends at byte {offset:,}, after its last whole "
                          "member, without its central directory (cut short?)")
        if not header.startswith(_LOCAL[: len(header)]):
            raise _broken(offset, "not a zip archive" if offset == 0 else
                          f"no member header at byte {offset:,} (a damaged archive)")
        if len(header) < _HEADER.size:
            raise _broken(offset, "the archive ends inside a member's header (cut short?)")
        (_, _, flags, method, _, _, _, compressed, size, name_length,
         extra_length) = _HEADER.unpack(header)
        name_bytes = file.read(name_length)
        extra = file.read(extra_length)
        if len(name_bytes) < name_length or len(extra) < extra_length:
            raise _broken(offset, "the archive ends inside a member's header (cut short?)")
        name = (name_bytes.decode("utf-8", "surrogateescape") if flags & _UTF8
                else name_bytes.decode("cp437"))
        wide = False
        if 0xFFFFFFFF in (compressed, size):
            wide, compressed = True, _zip64_compressed(extra, size, compressed)
        data_at = offset + _HEADER.size + name_length + extra_length
        described = bool(flags & _DESCRIBED)
        known = None if described and compressed == 0 else compressed
        problem = ""
        if flags & _ENCRYPTED:
            problem = "it is encrypted"
        elif method not in (_STORED, _DEFLATED, _BZIP2):
            problem = (f"its compression (method {method}) is read only from the archive's "
                       "central directory, which is damaged or missing")
        if known is None and (problem or method == _STORED):
            raise _broken(offset, f"member {shown(name)} at byte {offset:,} gives its size after "
                          "its data, which cannot be found without the archive's central "
                          "directory (damaged or missing)")
        raw = Slice(file, known, f"member {shown(name)}")
        data: Stream | None = None
        if not problem:
            data = raw if method == _STORED else Inflating(
                raw, "deflate" if method == _DEFLATED else "bz2", single=True,
                compressed=known, ratio=ratio, floor=floor, ratio_text=ratio_text)
        yield LocalMember(name, offset, data, problem, known)
        file.seek(data_at + raw.count)
        if known is not None:
            raw.skip()
            if raw.fault is not None:
                raise ArchiveBroken(data_at + raw.count, raw.fault)
            offset = data_at + known
        else:
            assert isinstance(data, Inflating)
            while data.readinto(_DRAIN):
                pass
            if raw.fault is not None:
                raise ArchiveBroken(data_at + raw.count, raw.fault)
            if data.fault is not None:
                # its data is cut or damaged, and with it where the next member starts
                raise ArchiveBroken(data_at + raw.count, data.fault)
            offset = data_at + data.consumed - len(data.leftover)
        if described:
            file.seek(offset)
            offset += (4 if file.read(4) == _DESCRIPTOR else 0) + (20 if wide else 12)


_DRAIN = bytearray(1 << 16)


def _zip64_compressed(extra: bytes, size: int, compressed: int) -> int:
    """The compressed size a zip64 extra field gives (it lists the sizes whose header field
    is 0xFFFFFFFF: the original size first)."""
    position = 0
    while position + 4 <= len(extra):
        key, length = struct.unpack_from("<HH", extra, position)
        if key == _ZIP64:
            fields = extra[position + 4: position + 4 + length]
            index = 8 if size == 0xFFFFFFFF else 0
            if compressed == 0xFFFFFFFF and len(fields) >= index + 8:
                return int.from_bytes(fields[index: index + 8], "little")
            return compressed
        position += 4 + length
    return compressed
