"""Random archives whose content the builder counts itself, for the conservation law of the
readers: records read + records reported unreadable = records present.

:func:`build_archive` takes a ``random.Random`` and returns a :class:`BuiltArchive`: the bytes
of one input (a tar, a compressed tar, a zip or a compressed file, holding archives and
compressed files in turn), its file name, the ``archive-depth`` limit to read it with, and the
:class:`Expected` counts. Members hold generated records (PGN or JSON Lines, some with bytes
that are not UTF-8), binary data, nothing, or text a walk does not read (by its name);
member names may hold bytes that are not UTF-8; a compressed member may be cut short, and the
whole input may be cut at a random byte.

The counts come from what the builder put where, and where a cut falls: the records whose text
ends before the cut, the record the cut falls in, one diagnostic per unreadable member and per
break. Where a cut falls in compressed data, the length of the data before it is what the
standard decompressor gives for the bytes before the cut (bzip2 gives nothing of the block a
cut falls in). The reader's own code is never asked. :func:`read_back` reads an input with the
library, as counts to compare (``read_back(built) == built.expected``).
"""

from __future__ import annotations

import bz2
import dataclasses
import functools
import gzip
import io
import lzma
import os
import random
import tarfile
import tempfile
import zipfile
import zlib
from typing import Any

from notation_tools.parallel.batch import Settings, iter_records
from notation_tools.analysis.generate import generate_records
from notation_tools.games.base import all_games
from notation_tools.limits import Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.jsonio import write_json_record
from notation_tools.records.pgn import write_record

COMPRESSIONS = ("gz", "bz2", "xz")
TAR_SUFFIXES = {None: ".tar", "gz": ".tar.gz", "bz2": ".tar.bz2", "xz": ".tar.xz"}


@dataclasses.dataclass
class Expected:
    """What a reader must give for an input: ``records`` (whole records read), ``diagnostics``
    (one per unreadable member, per archive nested too deep, per break of the data) and
    ``cut`` (records a break cut short, each named by the diagnostic of its break)."""

    records: int = 0
    diagnostics: int = 0
    cut: int = 0

    def __add__(self, other: Expected) -> Expected:
        return Expected(self.records + other.records, self.diagnostics + other.diagnostics,
                        self.cut + other.cut)


@dataclasses.dataclass
class BuiltArchive:
    """One input: its bytes, its file name, the ``archive-depth`` to read it with, the counts
    a reader must give, the records the builder put in it (reachable or not), and a summary
    of its shape."""

    data: bytes
    name: str
    archive_depth: int
    expected: Expected
    placed: int
    shape: str


BREAK = Expected(diagnostics=1)


@functools.lru_cache(maxsize=1)
def material() -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """Generated records of every game (short games, fixed seeds): as PGN and as JSON
    Lines."""
    pgn, jsonl = [], []
    for game in all_games():
        rules = game.parse_rules(None)
        for record in generate_records(game, rules, count=4, seed=11, max_plies=14):
            pgn.append(write_record(record).encode("utf-8"))
            jsonl.append(write_json_record(record).encode("utf-8"))
    return tuple(pgn), tuple(jsonl)


# ---- the parts of an input -----------------------------------------------------------------

class Node:
    """One file's data in an input; :meth:`expect` counts what a reader gives for it."""

    data: bytes
    suffix: str
    records: int  # records placed in it, reachable or not

    def expect(self, available: int | None, depth: int, limit: int, *,
               clean: bool = False) -> Expected:
        """The counts when the first ``available`` bytes of the data can be read and then the
        data breaks (``None``: all of it, no break), for data held by ``depth`` archives and
        compressed files, read with ``archive-depth=limit``. ``clean``: the data simply ends
        there (a file on disk cut short) rather than breaking (a member of an archive cut
        short), which tells apart the ends that are whole without the rest (an archive cut
        in the zero blocks after its end, a compressed file cut between two streams)."""
        raise NotImplementedError


class Text(Node):
    """Records as text: ``spans`` are where each record starts and where its text ends (its
    result, its closing brace)."""

    def __init__(self, data: bytes, spans: list[tuple[int, int]], suffix: str) -> None:
        self.data, self.spans, self.suffix = data, spans, suffix
        self.records = len(spans)

    def expect(self, available: int | None, depth: int, limit: int, *,
               clean: bool = False) -> Expected:
        if available is None:
            return Expected(records=len(self.spans))
        whole = sum(end <= available for _, end in self.spans)
        cut = any(start < available < end for start, end in self.spans)
        return Expected(records=whole, diagnostics=1, cut=int(cut))

    def clean_prefix(self, available: int) -> Expected:
        """The counts when the data simply ends after ``available`` bytes (a compressed file
        cut exactly between two of its streams: a shorter file, nothing broken)."""
        return Expected(records=sum(end <= available for _, end in self.spans))


class Binary(Node):
    """Bytes that are not text (a NUL first): one diagnostic, plus one for a break inside."""

    suffix = ".pgn"
    records = 0

    def __init__(self, rng: random.Random) -> None:
        self.data = b"\0" + rng.randbytes(rng.randint(0, 3000))

    def expect(self, available: int | None, depth: int, limit: int, *,
               clean: bool = False) -> Expected:
        if available is None:
            return Expected(diagnostics=1)
        return Expected(diagnostics=2 if available else 1)  # nothing read is no binary data


class Empty(Node):
    suffix = ".pgn"
    records = 0
    data = b""

    def expect(self, available: int | None, depth: int, limit: int, *,
               clean: bool = False) -> Expected:
        return Expected() if available is None else BREAK


class Unread(Node):
    """A file a walk passes over by its name (text, no records): only a break inside it
    counts."""

    records = 0

    def __init__(self, rng: random.Random) -> None:
        self.suffix = rng.choice([".md", ".png", ".html"])
        self.data = bytes(rng.choice(b"abc \n") for _ in range(rng.randint(0, 2000)))

    def expect(self, available: int | None, depth: int, limit: int, *,
               clean: bool = False) -> Expected:
        return Expected() if available is None else BREAK


def _too_deep(available: int | None) -> Expected:
    # one diagnostic names it; a break inside it is one more
    return Expected(diagnostics=1 if available is None else 2)


def decompressed_prefix(kind: str, data: bytes) -> int:
    """How many bytes the standard decompressor gives for ``data``, the start of one stream
    (``deflate``: raw deflate, as in a zip)."""
    if kind == "bz2":
        return len(bz2.BZ2Decompressor().decompress(data))
    if kind == "xz":
        return len(lzma.LZMADecompressor().decompress(data))
    decoder = zlib.decompressobj(31 if kind == "gz" else -zlib.MAX_WBITS)
    return len(decoder.decompress(data) + decoder.flush())


def compress(kind: str, data: bytes) -> bytes:
    if kind == "gz":
        return gzip.compress(data, mtime=0)
    return bz2.compress(data) if kind == "bz2" else lzma.compress(data)


class Compressed(Node):
    """A text compressed (gzip, bzip2 or xz), in one stream or several (split between
    records), and maybe cut short after ``keep`` bytes."""

    def __init__(self, kind: str, inner: Text, rng: random.Random) -> None:
        self.kind, self.inner = kind, inner
        self.records = inner.records
        cuts = sorted({0, len(inner.data), *(end for _, end in rng.sample(
            inner.spans, min(len(inner.spans), rng.randint(0, 2))))})
        # each stream from one record end (or the start) to another; no text is one empty
        # stream
        bounds = list(zip(cuts, cuts[1:])) or [(0, 0)]
        self.parts = [(compress(kind, inner.data[a:b]), b - a) for a, b in bounds]
        self.data = b"".join(part for part, _ in self.parts)
        self.keep: int | None = None
        if rng.random() < 0.3 and self.data:
            self.keep = rng.randrange(len(self.data))
            self.data = self.data[: self.keep]
        self.suffix = inner.suffix + {"gz": ".gz", "bz2": ".bz2", "xz": ".xz"}[kind]

    def expect(self, available: int | None, depth: int, limit: int, *,
               clean: bool = False) -> Expected:
        if depth >= limit:
            return _too_deep(available)
        if available is None:
            if self.keep is None:
                return self.inner.expect(None, depth + 1, limit)
            available, clean = self.keep, True
        start = plain = 0
        for part, size in self.parts:
            if available == start and clean:
                # a shorter file, whole: only a file of no stream at all is broken
                return self.inner.clean_prefix(plain) + (BREAK if start == 0 else Expected())
            if available < start + len(part):
                plain += decompressed_prefix(self.kind, part[: available - start])
                return self.inner.expect(plain, depth + 1, limit)
            start, plain = start + len(part), plain + size
        # every stream is whole, then the data that holds them breaks (a zip member whose
        # compressed stream lost only its end): the reader looking past the last stream meets
        # that break, one diagnostic, as text cut at its very end has
        return self.inner.expect(None, depth + 1, limit) + (Expected() if clean else BREAK)


@dataclasses.dataclass
class _Member:
    node: Node
    name: str
    header: int = 0  # where its header starts
    start: int = 0  # where its data starts
    size: int = 0  # the size of its data as stored
    method: int = zipfile.ZIP_STORED
    described: bool = False  # a zip member whose sizes follow its data

    @property
    def wanted(self) -> bool:
        return not isinstance(self.node, Unread)

    def full(self, depth: int, limit: int) -> Expected:
        return self.node.expect(None, depth, limit) if self.wanted else Expected()

    def cut(self, stored: bytes, depth: int, limit: int) -> Expected:
        """The counts when only ``stored`` (the start of its stored data) can be read."""
        if not self.wanted:
            return BREAK
        if self.method == zipfile.ZIP_STORED:
            return self.node.expect(len(stored), depth, limit)
        kind = "deflate" if self.method == zipfile.ZIP_DEFLATED else "bz2"
        return self.node.expect(decompressed_prefix(kind, stored), depth, limit)


class _Archive(Node):
    """An archive: its members, each read as a file is."""

    members: list[_Member]

    def expect(self, available: int | None, depth: int, limit: int, *,
               clean: bool = False) -> Expected:
        if depth >= limit:
            return _too_deep(available)
        if available is None:
            return sum((m.full(depth + 1, limit) for m in self.members), Expected())
        return self.cut(available, depth + 1, limit, clean)

    def cut(self, available: int, depth: int, limit: int, clean: bool) -> Expected:
        """The counts when the archive's data breaks after ``available`` bytes (its members
        at ``depth``)."""
        raise NotImplementedError


class Tar(_Archive):
    """A tar archive, maybe compressed (one stream)."""

    def __init__(self, members: list[tuple[str, Node]], compression: str | None,
                 rng: random.Random) -> None:
        self.compression = compression
        self.suffix = TAR_SUFFIXES[compression]
        self.records = sum(node.records for _, node in members)
        out = io.BytesIO()
        fmt = rng.choice([tarfile.GNU_FORMAT, tarfile.PAX_FORMAT])
        self.members: list[_Member] = []
        with tarfile.open(fileobj=out, mode="w", format=fmt, encoding="utf-8",
                          errors="surrogateescape") as archive:
            for name, node in members:
                header = archive.offset
                info = tarfile.TarInfo(name)
                info.size = len(node.data)
                archive.addfile(info, io.BytesIO(node.data))
                start = archive.offset - (-(-len(node.data) // 512) * 512)
                self.members.append(_Member(node, name, header, start, len(node.data)))
            self.end = archive.offset
        self.plain = out.getvalue()
        self.data = compress(compression, self.plain) if compression else self.plain

    def cut(self, available: int, depth: int, limit: int, clean: bool) -> Expected:
        length = (decompressed_prefix(self.compression, self.data[:available])
                  if self.compression else available)
        found = Expected()
        for member in self.members:
            if length >= member.start + member.size:
                found += member.full(depth, limit)
            elif length < member.start:
                return found + BREAK  # cut in its header
            else:
                return found + member.cut(self.plain[member.start:length], depth, limit)
        # every member is whole; the end-of-archive block (or the data after it) is cut
        whole = clean and not self.compression and length >= self.end + 512
        return found + (Expected() if whole else BREAK)


class Zip(_Archive):
    """A zip archive; written to a stream that cannot seek, its members' sizes follow their
    data (data descriptors)."""

    suffix = ".zip"

    def __init__(self, members: list[tuple[str, Node]], rng: random.Random) -> None:
        self.records = sum(node.records for _, node in members)
        seekable = rng.random() < 0.6
        out = io.BytesIO()
        sink: Any = out if seekable else _Unseekable(out)
        self.members = []
        with zipfile.ZipFile(sink, "w") as archive:
            for name, node in members:
                method = rng.choice([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED,
                                     zipfile.ZIP_BZIP2])
                archive.writestr(zipfile.ZipInfo(name), node.data, compress_type=method)
                info = archive.infolist()[-1]
                start = info.header_offset + 30 + len(info.filename.encode("utf-8"))
                self.members.append(_Member(node, name, info.header_offset, start,
                                            info.compress_size, method,
                                            bool(info.flag_bits & 0x08)))
        self.data = out.getvalue()

    def cut(self, available: int, depth: int, limit: int, clean: bool) -> Expected:
        if available >= len(self.data):
            # the whole archive, its list of members too (the data holding it breaks just
            # after it: a zip member whose compressed stream lost only its end)
            whole = sum((m.full(depth, limit) for m in self.members), Expected())
            return whole + (Expected() if clean else BREAK)
        # without its end, the archive is read from its members' own headers
        found = Expected()
        for member in self.members:
            if available < member.start:
                return found + BREAK  # cut before or in its header
            if member.described and member.method == zipfile.ZIP_STORED:
                return found + BREAK  # its end cannot be found
            end = member.start + member.size
            if available < end:
                return found + member.cut(self.data[member.start:available], depth, limit)
            found += member.full(depth, limit)
            if member.described and available < end + 16:
                return found + BREAK  # cut in the sizes after its data
        return found + BREAK  # the list of members at the end is cut


class _Unseekable(io.RawIOBase):
    """A stream zipfile cannot seek in: it then writes each member's sizes after its data."""

    def __init__(self, out: io.BytesIO) -> None:
        self.out = out

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return self.out.write(data)

    def tell(self) -> int:
        return self.out.tell()

    def seekable(self) -> bool:
        return False


# ---- building ------------------------------------------------------------------------------

def _text(rng: random.Random) -> Text:
    pgn, jsonl = material()
    json = rng.random() < 0.3
    pool = jsonl if json else pgn
    latin = not json and rng.random() < 0.2
    data, spans = b"", []
    for _ in range(rng.randint(0, 4)):
        record = rng.choice(pool)
        if latin:  # a tag value with a byte that is not UTF-8: read, with E-ENCODING
            record = b'[Event "Caf\xe9"]\n' + record
        start = len(data)
        data += record
        spans.append((start, start + len(record.rstrip())))
    return Text(data, spans, ".jsonl" if json else ".pgn")


def _name(rng: random.Random, index: int, suffix: str, tar: bool) -> str:
    stems = ["games", "club/round 3/board", "p\u00e4iv\u00e4", "x" * 120]
    if tar:
        stems.append("caf\udce9")  # a byte that is not UTF-8 (tar names are bytes)
    return f"{index:02d}-{rng.choice(stems)}{suffix}"


def _node(rng: random.Random, levels: int) -> Node:
    roll = rng.random()
    if levels > 0 and roll < 0.25:
        return _archive(rng, levels - 1)
    if roll < 0.35:
        return Binary(rng)
    if roll < 0.42:
        return Empty()
    if roll < 0.50:
        return Unread(rng)
    if roll < 0.65:
        return Compressed(rng.choice(COMPRESSIONS), _text(rng), rng)
    return _text(rng)


def _archive(rng: random.Random, levels: int) -> Node:
    tar = rng.random() < 0.6
    members = []
    for index in range(rng.randint(0, 5)):
        node = _node(rng, levels)
        members.append((_name(rng, index, node.suffix, tar), node))
    if tar:
        return Tar(members, rng.choice([None, *COMPRESSIONS]), rng)
    return Zip(members, rng)


def build_archive(rng: random.Random) -> BuiltArchive:
    """One random input and what a reader must give for it (see the module's introduction).
    Read it with ``Limits(max_archive_depth=built.archive_depth)``."""
    top = (Compressed(rng.choice(COMPRESSIONS), _text(rng), rng) if rng.random() < 0.15
           else _archive(rng, rng.randint(0, 3)))
    limit = rng.choice([2, 3, 4, 4, 4])
    data = top.data
    cut: int | None = None
    if data and rng.random() < 0.4:
        cut = rng.randrange(len(data))
        data = data[:cut]
    expected = top.expect(cut, 0, limit, clean=True)
    shape = f"{type(top).__name__}{top.suffix} cut at {cut}" if cut is not None else \
        f"{type(top).__name__}{top.suffix}"
    return BuiltArchive(data, f"input{top.suffix}", limit, expected, top.records, shape)


def read_back(built: BuiltArchive) -> tuple[Expected, list[Diagnostic], str]:
    """Read ``built`` with ``iter_records`` (from a temporary file of its name): the counts
    (whole records, diagnostics, diagnostics that name a record they cut), the diagnostics,
    and the path it was read from."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, built.name)
        with open(path, "wb") as out:
            out.write(built.data)
        settings = Settings(limits=Limits(max_archive_depth=built.archive_depth))
        items = list(iter_records([path], settings=settings))
    diagnostics = [item for item in items if isinstance(item, Diagnostic)]
    found = Expected(len(items) - len(diagnostics), len(diagnostics),
                     sum(d.record is not None for d in diagnostics))
    return found, diagnostics, path
