"""The limits that bound memory and work whatever the input: line and record size, nesting
depth, moves per record, decompressed bytes and ratio per file, archives nested in archives,
diagnostics per record, the time a ``select --tag`` regular expression may search one tag.

Every reading command takes ``--limit NAME=VALUE`` (repeatable) to change one; input beyond a
limit is refused with an ``E-LIMIT`` diagnostic that names it, and the run goes on. Does not
read, print or know any game.
"""

from __future__ import annotations

import dataclasses
import os

KIB = 1 << 10
MIB = 1 << 20
GIB = 1 << 30


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one, else
    the machine's count): the default number of workers, and what bounds the helper threads
    of SQLite's sorter."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else (os.cpu_count() or 1)


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """The limits of one run. Sizes are bytes of decoded text (lines, records) or of
    decompressed data (files and archive members).

    >>> Limits().max_depth
    100
    >>> Limits.parse(["line-bytes=1MiB", "depth=20"]).max_line_bytes
    1048576
    """

    max_line_bytes: int = 4 * MIB
    """The longest line read; a longer one is skipped (and its record is invalid)."""
    max_record_bytes: int = 8 * MIB
    """The largest record (PGN text or one JSON record); the rest of a larger one is skipped."""
    max_depth: int = 100
    """The deepest nesting of variations, and of JSON arrays and objects."""
    max_moves: int = 1_000_000
    """The most moves in one record, main line and variations together."""
    max_file_bytes: int = 4 * GIB
    """The most bytes read from one file or archive member once decompressed."""
    max_ratio: int = 200
    """The highest decompressed-to-compressed ratio of a file or member, checked once it has
    given ``ratio_floor_bytes``: more is a compression bomb."""
    ratio_floor_bytes: int = 64 * MIB
    """The decompressed size below which the ratio is not checked."""
    max_diagnostics: int = 100
    """The most diagnostics reported for one record; one more line says how many were left."""
    max_archive_depth: int = 4
    """How many archives and compressed files may hold one another (a ``.tar.gz`` is one, a
    ``.pgn.gz`` in it a second); one held deeper is reported and not read."""
    max_match_ms: int = 1000
    """The longest a regular expression of ``select --tag NAME~REGEX`` may search one tag
    value, in milliseconds of processor time, when Python's backtracking engine runs it (a
    linear-time engine, re2, needs no limit)."""

    NAMES = {"line-bytes": "max_line_bytes", "record-bytes": "max_record_bytes",
             "depth": "max_depth", "moves": "max_moves", "file-bytes": "max_file_bytes",
             "ratio": "max_ratio", "ratio-floor-bytes": "ratio_floor_bytes",
             "diagnostics": "max_diagnostics", "archive-depth": "max_archive_depth",
             "match-ms": "max_match_ms"}

    @classmethod
    def parse(cls, items: list[str] | tuple[str, ...]) -> Limits:
        """Limits from ``NAME=VALUE`` texts (sizes may end in KiB, MiB or GiB); raises
        ``ValueError`` naming a bad one."""
        changes = {}
        for item in items:
            name, sep, value = (part.strip() for part in item.partition("="))
            field = cls.NAMES.get(name)
            if field is None or not sep:
                raise ValueError(f"{item!r}: a limit is NAME=VALUE with NAME one of "
                                 f"{', '.join(cls.NAMES)}")
            changes[field] = _number(value, item)
        limits = cls(**changes)
        if limits.max_depth > 200:
            raise ValueError("depth: at most 200 (deeper nesting would exhaust the stack)")
        if limits.max_archive_depth > 32:
            raise ValueError("archive-depth: at most 32")
        return limits

    def describe(self, field: str) -> str:
        """``depth=100``: a limit as the user writes it."""
        name = next(name for name, attribute in self.NAMES.items() if attribute == field)
        return f"{name}={getattr(self, field)}"


def _number(text: str, item: str) -> int:
    scale = 1
    for suffix, factor in (("KiB", KIB), ("MiB", MIB), ("GiB", GIB)):
        if text.endswith(suffix):
            text, scale = text[: -len(suffix)], factor
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError(f"{item!r}: the value is a whole number of at least 1")
    return int(text) * scale


DEFAULT = Limits()
