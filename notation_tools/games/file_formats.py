"""The types of a game's own file formats: formats other programs write beside the PGN
container (a position string, a saved game), which a game lists in ``Game.file_formats``.

``analysis/foreign.py`` recognises such files and reads them into records; ``convert --to
NAME`` writes them. Does not open files or know any format.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any


@dataclasses.dataclass(frozen=True)
class ForeignRecord:
    """A game read from a game's own file format: tags (``SetUp``/``FEN`` for the start),
    turn tokens in the game's notation, notes ``(code, message)`` the reader made, and text
    for a comment after the last move."""

    tags: Mapping[str, str]
    tokens: tuple[str, ...] = ()
    notes: tuple[tuple[str, str], ...] = ()
    comment: str | None = None


@dataclasses.dataclass(frozen=True)
class ForeignPosition:
    """A position read from a one-position format: the game's position string, notes
    ``(code, message)`` the reader made, and text the position string cannot hold (a
    comment after the position)."""

    fen: str
    notes: tuple[tuple[str, str], ...] = ()
    comment: str | None = None

    def as_record(self) -> ForeignRecord:
        """The record of a game set up at this position, with no move yet."""
        return ForeignRecord({"SetUp": "1", "FEN": self.fen}, (), self.notes, self.comment)


@dataclasses.dataclass(frozen=True)
class FileFormat:
    """One file format of one game, for ``convert --to`` and for reading.

    ``sniff(head)`` says whether a file's first 8 KiB are in this format; ``read(text)`` turns
    the whole text into a :class:`ForeignRecord` (raising ``EngineError`` for a file it
    cannot read); ``write(start, moves, tags, final)`` writes a replayed record: ``moves`` are
    the legal main-line moves played from ``start`` (not changed), ``final`` the position
    after them (``None``: a format that is read only, such as another program's save file
    whose every field is not known). A ``positional`` format holds one position: it writes
    ``final``.
    ``suffixes`` are the file name endings a directory walk reads in this format. A file
    holds one game or one position, so ``convert`` writes one file per record.
    """

    name: str
    help: str
    sniff: Callable[[str], bool]
    read: Callable[[str], ForeignRecord]
    write: Callable[[Any, Sequence[Any], Mapping[str, str], Any], str] | None
    positional: bool = False
    suffixes: tuple[str, ...] = ()
    file_suffix: str = ".txt"
    """The ending of the files ``convert`` writes in this format (one record a file: every
    format here holds one game or one position)."""
