"""The inputs named on a command line: which exist, what a directory walk reads, how an
``archive:member`` path splits, and the file a record's path comes from. Opens no file (it
looks at names, sizes and directory listings only)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator

from notation_tools.records.diagnostics import Diagnostic
from notation_tools.sources.streams import shown

CONTAINER_SUFFIXES = (".pgn", ".json", ".jsonl", ".ndjson")
"""Files a directory walk picks up (besides archives), with the endings the caller adds (the
games' own: ``iter_units(..., suffixes=...)``); a path named directly is always read."""
COMPRESSED = {".gz": "gz", ".bz2": "bz2", ".xz": "xz"}
"""Compressed files by their ending (the name inside is the name without it)."""
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")

Suffixes = tuple[str, ...] | Callable[[], tuple[str, ...]]
"""File name endings a walk reads beside the container's, or a function giving them when a
walk first needs them (so that reading a named file never has to ask every game)."""


class InputNotFound(Exception):
    """A path named on the command line does not exist (a usage error, not a record fault)."""


def io_error(path: str, message: str, code: str = "E-IO") -> Diagnostic:
    """A diagnostic about a whole input (no line or column), its path shown printable."""
    return Diagnostic(code, message, shown(path), 0, 0)


def is_archive(name: str) -> bool:
    """Whether ``name`` ends as a tar or zip archive does."""
    lower = name.lower()
    return lower.endswith(TAR_SUFFIXES) or lower.endswith(".zip")


def wanted_in_walk(name: str, suffixes: Suffixes) -> bool:
    """Whether a directory walk reads the file ``name``: an archive, a record file (perhaps
    compressed), or one ending in ``suffixes``."""
    lower = name.lower()
    if is_archive(lower):
        return True
    for suffix in COMPRESSED:
        if lower.endswith(suffix):
            lower = lower[: -len(suffix)]
            break
    if lower.endswith(CONTAINER_SUFFIXES) or is_archive(lower):
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
        if member and is_archive(head) and os.path.isfile(head):
            return head, member
        start = colon + 1
    return None


def check_paths(paths: Iterable[str]) -> None:
    """Raise :class:`InputNotFound` for the first path that does not exist (``-`` is stdin);
    an ``archive:member`` path counts when its archive exists."""
    for path in paths:
        if path != "-" and not os.path.exists(path) and split_member(path) is None:
            raise InputNotFound(shown(path))


def walk(path: str, suffixes: Suffixes,
         problems: list[Diagnostic]) -> Iterator[str]:
    """The files a directory walk reads, sorted; unreadable directories become diagnostics."""
    def unreadable(error: OSError) -> None:
        where = error.filename if isinstance(error.filename, str) else path
        problems.append(io_error(where, f"cannot read directory {shown(where)}: "
                                  f"{error.strerror or error}"))

    for root, dirs, files in os.walk(path, onerror=unreadable):
        dirs.sort()
        for name in sorted(files):
            if wanted_in_walk(name, suffixes):
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
            files += walk(path, suffixes, problems if problems is not None else [])
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
