"""The Record model: tag pairs and a movetext tree whose every element keeps its location.

Does not know any game: moves are texts with positions; replay gives them meaning.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from notation_tools.records.diagnostics import Diagnostic


@dataclasses.dataclass(slots=True)
class Tag:
    name: str
    value: str
    line: int = 0
    column: int = 0


@dataclasses.dataclass(slots=True)
class Move:
    """One turn token with what is attached to it.

    ``number`` is the move-number text written before it (``"12."``, ``"12..."``) or ``None``;
    ``comments_before`` stand between the previous element and this move; ``comments`` and
    ``nags`` follow it; ``variations`` are alternatives to this move, each a list of Moves.
    ``text`` is empty when only ``data`` is given.
    """

    text: str
    line: int = 0
    column: int = 0
    number: str | None = None
    number_line: int = 0
    number_column: int = 0
    nags: list[str] = dataclasses.field(default_factory=list)
    comments_before: list[str] = dataclasses.field(default_factory=list)
    comments: list[str] = dataclasses.field(default_factory=list)
    variations: list[list[Move]] = dataclasses.field(default_factory=list)
    data: Any = None
    """A structured move from a JSON record, read by the game's ``move_from_json``."""

    def copy(self) -> Move:
        """A deep copy of the move and of its variations, however deeply they nest (no
        recursion: ``copy.deepcopy`` needs several stack frames a level and fails on a record
        within the depth limit). ``data`` is shared: it is never changed in place."""
        return copy_line([self])[0]

    def same_as(self, other: Move) -> bool:
        """Equal in content, ignoring locations and move-number spelling."""
        return (self.text == other.text and self.nags == other.nags
                and self.comments_before == other.comments_before
                and self.comments == other.comments
                and len(self.variations) == len(other.variations)
                and all(_same_line(a, b) for a, b in zip(self.variations, other.variations)))


def copy_line(moves: list[Move]) -> list[Move]:
    """Deep copies of ``moves`` and their variations, made without recursion."""
    copied = [dataclasses.replace(move) for move in moves]
    pending = [copied]
    while pending:
        for move in pending.pop():
            move.nags = list(move.nags)
            move.comments_before = list(move.comments_before)
            move.comments = list(move.comments)
            move.variations = [[dataclasses.replace(m) for m in line] for line in move.variations]
            pending.extend(move.variations)
    return copied


def _same_line(first: list[Move], second: list[Move]) -> bool:
    return len(first) == len(second) and all(a.same_as(b) for a, b in zip(first, second))


@dataclasses.dataclass(slots=True)
class Record:
    """One game record as read: tags, main line, result, and what the reader found wrong.

    ``path`` and ``index`` (1-based within its file) locate it; ``line`` is where it starts.
    ``final_comments`` follow the last move; ``result`` is the movetext's result token (or
    ``None`` when the movetext has none) and ``result_line``/``result_column`` locate it.
    """

    path: str = "-"
    index: int = 1
    line: int = 1
    tags: list[Tag] = dataclasses.field(default_factory=list)
    moves: list[Move] = dataclasses.field(default_factory=list)
    initial_comments: list[str] = dataclasses.field(default_factory=list)
    final_comments: list[str] = dataclasses.field(default_factory=list)
    result: str | None = None
    result_line: int = 0
    result_column: int = 0
    diagnostics: list[Diagnostic] = dataclasses.field(default_factory=list)
    offset: int = -1
    """The byte offset where the record starts in its file or archive member (after
    decompression), or -1 when unknown."""

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-sensitive, as PGN)."""
        for tag in self.tags:
            if tag.name == name:
                return tag.value
        return default

    def find_tag(self, name: str) -> Tag | None:
        for tag in self.tags:
            if tag.name == name:
                return tag
        return None

    def set_tag(self, name: str, value: str) -> None:
        """Replace the first tag called ``name``, or append it."""
        for tag in self.tags:
            if tag.name == name:
                tag.value = value
                return
        self.tags.append(Tag(name, value))

    def remove_tag(self, name: str) -> None:
        self.tags = [tag for tag in self.tags if tag.name != name]

    def copy(self) -> Record:
        """A deep copy (tags, moves at any depth, comments, diagnostics list) made without
        recursion, for a writer that changes a record it must not change for others."""
        return dataclasses.replace(
            self, tags=[dataclasses.replace(tag) for tag in self.tags],
            moves=copy_line(self.moves), initial_comments=list(self.initial_comments),
            final_comments=list(self.final_comments), diagnostics=list(self.diagnostics))

    def same_as(self, other: Record) -> bool:
        """Equal in content: tags, moves, comments, NAGs, variations and result."""
        return ([(t.name, t.value) for t in self.tags] == [(t.name, t.value) for t in other.tags]
                and _same_line(self.moves, other.moves)
                and self.initial_comments == other.initial_comments
                and self.final_comments == other.final_comments
                and self.result == other.result)

    def to_summary(self) -> dict[str, Any]:
        return {"path": self.path, "index": self.index, "line": self.line}
