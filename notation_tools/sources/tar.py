"""Tar archives read as a stream, one member at a time, each member's data a
:class:`~notation_tools.sources.streams.Slice` of the archive.

:func:`tar_members` reads the headers itself (``tarfile.TarInfo.frombuf`` parses one block;
GNU long names and pax headers are read here), so that a member's data reaches its reader byte
for byte, a fault included: ``tarfile``'s own stream reading drops the bytes of a read that
meets the end of the data, and ends the archive without a word at a damaged header. The end of
the data is where the archive ends: zero blocks (the end-of-archive marker, and the padding
after it) are passed over, and a member after them (archives joined end to end) is read. Knows
no record.
"""

from __future__ import annotations

import dataclasses
import re
import tarfile
from collections.abc import Iterator
from typing import BinaryIO

from notation_tools.sources.streams import ArchiveBroken, Fault, Slice, fault_of, shown

BLOCK = tarfile.BLOCKSIZE
_MAX_HEADER_DATA = 1 << 20
"""The largest GNU long name or pax header read; a larger one is a damaged archive."""
_DATA_TYPES = tarfile.REGULAR_TYPES
_NO_DATA = frozenset(tarfile.SUPPORTED_TYPES) - frozenset(tarfile.REGULAR_TYPES)
_KINDS = {tarfile.DIRTYPE: "a directory", tarfile.SYMTYPE: "a symbolic link",
          tarfile.LNKTYPE: "a hard link", tarfile.CHRTYPE: "a character device",
          tarfile.BLKTYPE: "a block device", tarfile.FIFOTYPE: "a FIFO"}
_PAX_RECORD = re.compile(rb"(\d+) ")


@dataclasses.dataclass
class TarMember:
    """One member: its name (bytes that are not UTF-8 kept as lone surrogates), what it is
    (``file``, ``sparse`` or one of the kinds that hold no data: ``a directory``, ``a hard
    link``, ...), the offset of its header in the archive, and its data."""

    name: str
    kind: str
    offset: int
    data: Slice
    target: str = ""
    """What a link links to (a path inside the archive, or outside it)."""


def _read(stream: BinaryIO, size: int) -> bytes:
    """``size`` bytes, fewer only at the end of the data or a fault."""
    data = stream.read(size)
    while len(data) < size and (more := stream.read(size - len(data))):
        data += more
    return data


def _broken(stream: BinaryIO, offset: int, reason: str) -> ArchiveBroken:
    """The archive ends at ``offset``: a fault of the stream, or ``reason``."""
    return ArchiveBroken(offset, fault_of(stream) or Fault("E-IO", reason))


def tar_members(stream: BinaryIO) -> Iterator[TarMember]:
    """The members of the tar archive ``stream`` (a stream that ends at a fault rather than
    raising: :mod:`notation_tools.sources.streams`), in order. After a member is yielded, the
    data its reader left is skipped. Raises :class:`ArchiveBroken` where the archive breaks: a
    damaged header, or data that ends (or fails) anywhere but after an end-of-archive block.
    """
    offset = 0
    ended = False  # an end-of-archive (zero) block has been read
    extensions = _Extensions()
    while True:
        block = _read(stream, BLOCK)
        if len(block) < BLOCK:
            if fault_of(stream) is None and ended and not block.strip(b"\0"):
                return
            raise _broken(stream, offset + len(block),
                          "the archive ends inside a member's header (cut short?)" if block
                          else "the archive ends without its end-of-archive marker (cut "
                          "short?)")
        header_at = offset
        offset += BLOCK
        if not block.strip(b"\0"):
            ended = True
            continue
        try:
            info = tarfile.TarInfo.frombuf(block, "utf-8", "surrogateescape")
        except tarfile.HeaderError as error:
            what = ("not a tar archive" if header_at == 0 else "data after the end of the "
                    "archive is not a tar header" if ended else "a damaged member header")
            raise ArchiveBroken(header_at, Fault("E-IO", f"{what} at byte {header_at:,} "
                                             f"({error})")) from None
        ended = False
        fields = {**extensions.global_pax, **extensions.pax}
        size = int(fields["size"]) if fields.get("size", "").isdigit() else info.size
        if size < 0:
            raise ArchiveBroken(header_at, Fault("E-IO", f"a damaged member header at byte "
                                                 f"{header_at:,} (a negative size)"))
        if info.type in _EXTENSION_TYPES:
            offset += extensions.read(stream, info.type, size, header_at, offset)
            continue
        name, target = extensions.names_of(info)
        if info.type == tarfile.GNUTYPE_SPARSE or "GNU.sparse.major" in fields \
                or "GNU.sparse.map" in fields or "GNU.sparse.size" in fields:
            kind = "sparse"
            if info.type == tarfile.GNUTYPE_SPARSE and block[482]:
                offset += _skip_sparse_headers(stream, offset)
        elif info.type in _NO_DATA:
            kind, size = _KINDS.get(info.type, "not a file"), 0
        else:  # a regular file; an unknown type is read as one, as POSIX says
            kind = "file"
        data_slice = Slice(stream, size, f"member {shown(name)}")
        yield TarMember(name, kind, header_at, data_slice, target)
        data_slice.skip()
        if data_slice.fault is not None:
            raise ArchiveBroken(offset + data_slice.count, data_slice.fault)
        offset += size
        padding = (-size) % BLOCK
        if len(_read(stream, padding)) < padding:
            raise _broken(stream, offset, f"the archive ends inside the padding after member "
                          f"{shown(name)} (cut short?)")
        offset += padding


_EXTENSION_TYPES = (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE,
                    tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE)


@dataclasses.dataclass
class _Extensions:
    """What GNU long-name and pax extension headers say: of the member after them, and
    (global pax headers) of every later member."""

    long_name: str | None = None
    long_link: str | None = None
    pax: dict[str, str] = dataclasses.field(default_factory=dict)
    global_pax: dict[str, str] = dataclasses.field(default_factory=dict)

    def read(self, stream: BinaryIO, kind: bytes, size: int, header_at: int,
             offset: int) -> int:
        """Read the data of the extension header of type ``kind`` at ``header_at`` (the
        data starts at ``offset``); the bytes read."""
        if size > _MAX_HEADER_DATA:
            raise ArchiveBroken(header_at, Fault("E-IO", f"a damaged member header at byte "
                                             f"{header_at:,} (its extension is "
                                             f"{size:,} bytes long)"))
        data = _read(stream, size + (-size) % BLOCK)
        if len(data) < size + (-size) % BLOCK:
            raise _broken(stream, offset + len(data), "the archive ends inside a "
                          "member's header (cut short?)")
        read = len(data)
        data = data[:size]
        if kind in (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK):
            text = data.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
            if kind == tarfile.GNUTYPE_LONGNAME:
                self.long_name = text
            else:
                self.long_link = text
        elif kind == tarfile.XGLTYPE:
            self.global_pax.update(_pax_fields(data, header_at))
        else:
            self.pax = _pax_fields(data, header_at)
        return read

    def names_of(self, info: tarfile.TarInfo) -> tuple[str, str]:
        """The name and link target of the member ``info`` heads, the extensions before it
        applied (and then forgotten, but for the global ones)."""
        pax = self.pax
        name = pax.get("GNU.sparse.name") or pax.get("path") or self.long_name or info.name
        target = pax.get("linkpath") or self.long_link or info.linkname
        self.long_name, self.long_link, self.pax = None, None, {}
        return name, target


def _skip_sparse_headers(stream: BinaryIO, offset: int) -> int:
    """Read the extension blocks of an old GNU sparse header; their size."""
    skipped = 0
    while True:
        block = _read(stream, BLOCK)
        if len(block) < BLOCK:
            raise _broken(stream, offset + skipped + len(block), "the archive ends inside a "
                          "member's header (cut short?)")
        skipped += BLOCK
        if not block[504]:
            return skipped


def _pax_fields(data: bytes, header_at: int) -> dict[str, str]:
    """The ``key=value`` records of a pax header (``"%d %s=%s\\n"``)."""
    fields: dict[str, str] = {}
    position = 0
    while position < len(data) and data[position:].strip(b"\0"):
        match = _PAX_RECORD.match(data, position)
        length = int(match.group(1)) if match else 0
        record = data[position:position + length]
        if match is None or length <= len(match.group(0)) or not record.endswith(b"\n") \
                or b"=" not in record:
            raise ArchiveBroken(header_at, Fault("E-IO", f"a damaged pax header at byte "
                                             f"{header_at:,}"))
        key, _, value = record[match.end() - position:-1].partition(b"=")
        fields[key.decode("utf-8", "surrogateescape")] = value.decode("utf-8",
                                                                      "surrogateescape")
        position += length
    return fields
