"""The Record model: tag pairs and a movetext tree whose every element keeps its location.

Does not know any game: moves are texts with positions; replay gives them meaning.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, MutableMapping
from typing import Any

from notation_tools.records.diagnostics import Diagnostic


@dataclasses.dataclass(slots=True)
class Tag:
    """One tag pair as written, with where it was read (``line`` 0 when it was not)."""

    name: str
    value: str
    line: int = 0
    column: int = 0


class Tags(MutableMapping[str, str]):
    """A record's tags: a mapping of name to value (``tags["White"]``, ``.get``, ``in``,
    ``tags["Event"] = "x"``, ``del``) over the ordered :class:`Tag` entries the container
    holds, duplicates and locations included (:meth:`entries`).

    A name written twice reads as its first value; setting a name changes its first entry (or
    appends one), and deleting it removes every entry of that name. Iterating gives each name
    once, in the order of first appearance.

    >>> tags = Tags([Tag("Event", "club"), Tag("White", "Steere")])
    >>> tags["White"], tags.get("Black"), "Event" in tags
    ('Steere', None, True)
    >>> tags["Result"] = "1-0"
    >>> del tags["Event"]
    >>> dict(tags)
    {'White': 'Steere', 'Result': '1-0'}
    """

    __slots__ = ("_entries",)

    def __init__(self, entries: Iterable[Tag] = ()) -> None:
        self._entries: list[Tag] = list(entries)

    def entries(self) -> list[Tag]:
        """The tag pairs in order, duplicates and locations included: the list itself, so
        that a reader or a converter can insert, append or remove entries in place."""
        return self._entries

    def __getitem__(self, name: str) -> str:
        for tag in self._entries:
            if tag.name == name:
                return tag.value
        raise KeyError(name)

    def __setitem__(self, name: str, value: str) -> None:
        for tag in self._entries:
            if tag.name == name:
                tag.value = value
                return
        self._entries.append(Tag(name, value))

    def __delitem__(self, name: str) -> None:
        kept = [tag for tag in self._entries if tag.name != name]
        if len(kept) == len(self._entries):
            raise KeyError(name)
        self._entries[:] = kept

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(tag.name for tag in self._entries))

    def __len__(self) -> int:
        return len({tag.name for tag in self._entries})

    def __bool__(self) -> bool:
        return bool(self._entries)

    def __contains__(self, name: object) -> bool:
        return any(tag.name == name for tag in self._entries)

    def __eq__(self, other: object) -> bool:
        """Tags equal tags with the same entries in the same order (a mapping compares
        as a mapping)."""
        if isinstance(other, Tags):
            return self._entries == other._entries
        return super().__eq__(other)

    def __repr__(self) -> str:
        return f"Tags({self._entries!r})"

    def copy(self) -> Tags:
        """A copy whose entries are copies."""
        return Tags([dataclasses.replace(tag) for tag in self._entries])


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
    tags: Tags = dataclasses.field(default_factory=Tags)
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

    def __post_init__(self) -> None:
        if not isinstance(self.tags, Tags):  # a plain list of Tag entries is taken too
            self.tags = Tags(self.tags)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-sensitive, as PGN)."""
        for tag in self.tags.entries():
            if tag.name == name:
                return tag.value
        return default

    def find_tag(self, name: str) -> Tag | None:
        """The first entry called ``name``, with its location, or ``None``."""
        for tag in self.tags.entries():
            if tag.name == name:
                return tag
        return None

    def set_tag(self, name: str, value: str) -> None:
        """Replace the first tag called ``name``, or append it."""
        self.tags[name] = value

    def remove_tag(self, name: str) -> None:
        """Remove every tag called ``name`` (none is no fault)."""
        self.tags.pop(name, None)

    def copy(self) -> Record:
        """A deep copy (tags, moves at any depth, comments, diagnostics list) made without
        recursion, for a writer that changes a record it must not change for others."""
        return dataclasses.replace(
            self, tags=self.tags.copy(),
            moves=copy_line(self.moves), initial_comments=list(self.initial_comments),
            final_comments=list(self.final_comments), diagnostics=list(self.diagnostics))

    def same_as(self, other: Record) -> bool:
        """Equal in content: tags, moves, comments, NAGs, variations and result."""
        return ([(t.name, t.value) for t in self.tags.entries()]
                == [(t.name, t.value) for t in other.tags.entries()]
                and _same_line(self.moves, other.moves)
                and self.initial_comments == other.initial_comments
                and self.final_comments == other.final_comments
                and self.result == other.result)

    def to_summary(self) -> dict[str, Any]:
        return {"path": self.path, "index": self.index, "line": self.line}
