"""Opening names: catalogues of named move sequences, and the deepest one a record follows.

A catalogue is a file of ordinary records (PGN or JSON, read by the project's own readers),
one per named line: an ``Opening`` tag with the name, the game's ``Variant`` tag, and the moves
(pgn-extract's ``eco.pgn`` is the model). Each game ships one, ``openings.pgn`` beside its
package's modules; a user's catalogue has the same form and is added to the shipped ones (a
user's name for a line a shipped entry also names wins).

A record's opening is the *deepest* entry whose moves are the first moves of its replayed
main line, from the same start position: the moves are compared as the engine's move objects
(their ``repr``), not as texts, so any notation or spelling of a move matches. The match is by
move sequence: a record that reaches an entry's position by another move order (a
transposition) does not match it.

Does not print; reads only the catalogue files it is given and the shipped ones.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import os
from collections.abc import Iterable, Iterator
from typing import Any

from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.games.base import Game, Position, Rules, all_games
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move, Record
from notation_tools.records.pgn import parse_chunk, read_records
from notation_tools.sources import PgnChunk, iter_units

CATALOGUE_FILE = "openings.pgn"
"""The name of the catalogue each game package ships."""
NAME_TAG = "Opening"


@dataclasses.dataclass(frozen=True)
class Opening:
    """A named line of a catalogue: its name, game, length and moves (as the catalogue wrote
    them), and where it was read (``path:line``)."""

    name: str
    game: str
    plies: int
    moves: tuple[str, ...]
    where: str


class CatalogueError(ValueError):
    """A catalogue that cannot be used: its problems, each a diagnostic at its entry."""

    def __init__(self, problems: list[Diagnostic]) -> None:
        super().__init__("; ".join(str(problem) for problem in problems[:5]))
        self.problems = problems


@dataclasses.dataclass
class _Node:
    children: dict[str, _Node] = dataclasses.field(default_factory=dict)
    opening: Opening | None = None


class Catalogue:
    """Named lines by game and start position, as a tree of moves (keyed by the moves'
    ``repr``). :meth:`add` takes one replayed entry; :func:`load_catalogue` builds one."""

    def __init__(self) -> None:
        self.roots: dict[str, dict[str, _Node]] = {}
        self.entries: list[Opening] = []
        self.problems: list[Diagnostic] = []

    def add(self, record: Record, *, replace: bool = False) -> None:
        """Replay ``record`` and add its line under its ``Opening`` name; an entry that does
        not replay legally, has no name or no move, or names a line another entry of the same
        kind named otherwise, is a problem (:attr:`problems`) and is left out. ``replace``: a
        line already named (by a shipped catalogue) takes this entry's name."""
        where = f"{record.path}:{record.line}"
        name = (record.tag(NAME_TAG) or "").strip()
        if not name:
            self._problem(record, f"catalogue entry at {where} has no {NAME_TAG} tag")
            return
        collector = _Collector()
        result = replay(record, visitor=collector)
        errors = [d for d in record.diagnostics if d.is_error]
        if errors or result.game is None:
            self.problems.extend(errors or [Diagnostic(
                "E-SYNTAX", f"catalogue entry {name!r} names no game", record.path,
                record.line, 1, record=record.index)])
            return
        if not collector.moves:
            self._problem(record, f"catalogue entry {name!r} has no move")
            return
        game = result.game
        node = self.roots.setdefault(game.id, {}).setdefault(collector.start or "", _Node())
        for key in collector.moves:
            node = node.children.setdefault(key, _Node())
        entry = Opening(name, game.id, len(collector.moves), tuple(collector.texts), where)
        if node.opening is not None and node.opening.name != name and not replace:
            self._problem(record, f"catalogue entry {name!r} is the line of "
                                  f"{node.opening.name!r} ({node.opening.where})")
            return
        if node.opening is not None:
            self.entries.remove(node.opening)
        node.opening = entry
        self.entries.append(entry)

    def _problem(self, record: Record, message: str) -> None:
        self.problems.append(Diagnostic("E-BAD-TAG", message, record.path, record.line, 1,
                                        record=record.index))

    def depth(self, game: str) -> int:
        """The length of the longest line of ``game`` (0: none)."""
        return max((entry.plies for entry in self.entries if entry.game == game), default=0)

    def match(self, game: str, start: str, moves: Iterable[str]) -> Opening | None:
        """The deepest entry of ``game`` from position ``start`` whose moves (``repr`` of
        the move objects) begin ``moves``."""
        node = self.roots.get(game, {}).get(start)
        found = None
        if node is None:
            return None
        for key in moves:
            node = node.children.get(key)
            if node is None:
                break
            found = node.opening or found
        return found


class _Collector(ReplayVisitor):
    """The main line's start position and moves (``repr`` and text), as replay finds them."""

    def __init__(self) -> None:
        self.start: str | None = None
        self.moves: list[str] = []
        self.texts: list[str] = []

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        if in_variation:
            return
        if ply == 1:
            self.start = before.game.format_position(before)
        self.moves.append(repr(move))
        self.texts.append(node.text)


class OpeningMatcher(ReplayVisitor):
    """A replay visitor that finds a record's opening as its main line is replayed, walking
    the catalogue's tree one move at a time and leaving it at the first move it lacks; after
    the replay, :attr:`opening` is the deepest entry met (``None``: none). ``stop`` makes the
    replay stop there (when nothing but the opening is wanted)."""

    def __init__(self, catalogue: Catalogue, *, stop: bool = False) -> None:
        self.catalogue, self.stop = catalogue, stop
        self.opening: Opening | None = None
        self.node: _Node | None = None
        self.done = False
        self.roots: dict[str, _Node] = {}
        self.start_key: tuple[str, str, str | None] | None = None

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        self.roots = self.catalogue.roots.get(game.id, {})
        self.done = not self.roots
        # A record without a FEN tag starts where every such record of its game, rules and
        # first player starts: that start's position string is written once, not per record
        # (on Maka-Dai-Dai Shogi's 361 squares it cost a tenth of a short record's replay).
        self.start_key = None if record.find_tag("FEN") is not None else (
            game.id, rules.describe(), record.tag("FirstPlayer"))

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        if in_variation or self.done:
            return
        if ply == 1:
            self.node = self.roots.get(self._start(before))
        if self.node is not None:
            self.node = self.node.children.get(repr(move))
        if self.node is None:
            self.done = True
        elif self.node.opening is not None:
            self.opening = self.node.opening

    def stop_after(self, ply: int) -> bool:
        return self.stop and self.done

    @property
    def may_stop(self) -> bool:
        return self.stop

    def _start(self, position: Position[Any]) -> str:
        if self.start_key is None:
            return position.game.format_position(position)
        start = _STARTS.get(self.start_key)
        if start is None:
            start = _STARTS[self.start_key] = position.game.format_position(position)
        return start


_STARTS: dict[tuple[str, str, str | None], str] = {}
"""The position string of the start of the records without a FEN tag, by game, rules and
``FirstPlayer`` tag."""


def _shipped_text(game: Game[Any, Any]) -> tuple[str, str] | None:
    """The shipped catalogue of ``game`` (its package's ``openings.pgn``): its text and the
    name to show for it, or ``None`` when the game ships none."""
    package = game.position_type.__module__.rpartition(".")[0]
    try:
        resource = importlib.resources.files(package).joinpath(CATALOGUE_FILE)
        if not resource.is_file():
            return None
        shown = package.replace(".", "/")
        return resource.read_text(encoding="utf-8"), f"{shown}/{CATALOGUE_FILE}"
    except (ModuleNotFoundError, OSError):
        return None


def shipped_records(game: Game[Any, Any]) -> Iterator[Record]:
    """The records of ``game``'s shipped catalogue (none when it ships none)."""
    shipped = _shipped_text(game)
    if shipped is not None:
        yield from read_records(shipped[0].splitlines(), shipped[1])


def check_catalogue(game: Game[Any, Any]) -> list[Diagnostic]:
    """The problems of ``game``'s shipped catalogue (``games --check``): entries that do not
    replay legally, lack a name or repeat another's line under another name."""
    catalogue = Catalogue()
    for record in shipped_records(game):
        catalogue.add(record)
    return catalogue.problems


def load_catalogue(paths: Iterable[str] = (), *, shipped: bool = True) -> Catalogue:
    """The shipped catalogues of every game (unless ``shipped`` is false) and the catalogue
    files ``paths`` (PGN or JSON records), whose names win over the shipped ones. Raises
    :class:`CatalogueError` when a file cannot be read or an entry does not replay.

    >>> catalogue = load_catalogue()
    >>> sorted({entry.game for entry in catalogue.entries})[:2]
    ['elevation', 'game-of-war']
    """
    catalogue = Catalogue()
    if shipped:
        for game in all_games():
            for record in shipped_records(game):
                catalogue.add(record)
    for path in paths:
        for record in _catalogue_records(path, catalogue.problems):
            catalogue.add(record, replace=True)
    if catalogue.problems:
        raise CatalogueError(catalogue.problems)
    return catalogue


def _catalogue_records(path: str, problems: list[Diagnostic]) -> Iterator[Record]:
    """The records of a catalogue file (PGN or JSON, plain, compressed or archived); what
    cannot be read is added to ``problems``."""
    for unit in iter_units([path]):
        if isinstance(unit, Diagnostic):
            problems.append(unit)
        elif isinstance(unit, PgnChunk):
            yield from parse_chunk(unit.path, unit.chunk, unit.index)
        elif isinstance(unit, Record):
            yield unit
        else:
            problems.append(Diagnostic("E-SYNTAX", "a catalogue holds PGN or JSON records, "
                                       "not a game's own file format", path, 1, 1))


@functools.cache
def cached_catalogue(paths: tuple[str, ...] = ()) -> Catalogue:
    """:func:`load_catalogue` of ``paths``, once per process (a worker process of analyze
    loads it once for all its batches)."""
    return load_catalogue(paths)


def opening_of(record: Record, catalogue: Catalogue | None = None, *,
               game_name: str | None = None, rules_text: str | None = None) -> Opening | None:
    """The deepest named line of ``catalogue`` (default: the shipped ones) that ``record``'s
    main line begins with; ``None`` when none. Replays the record only as far as the
    catalogue's lines go, on a copy of its diagnostics (the record is left as it was).

    >>> from notation_tools.records.pgn import read_records
    >>> [record] = read_records(['[Variant "shuriken-2d"]', '', '1. A1 *'])
    >>> opening_of(record) is None or opening_of(record).game == "shuriken-2d"
    True
    """
    matcher = OpeningMatcher(catalogue or cached_catalogue(), stop=True)
    kept = list(record.diagnostics)
    try:
        replay(record, game_name=game_name, rules_text=rules_text, visitor=matcher)
    finally:
        record.diagnostics[:] = kept
    return matcher.opening


def catalogue_identity(paths: Iterable[str]) -> str:
    """What a results database notes of the user catalogues of a run (their paths, sizes
    and modification times), so that a changed catalogue makes the inputs analysed again."""
    parts = []
    for path in paths:
        try:
            status = os.stat(path)
            parts.append(f"{os.path.abspath(path)}:{status.st_size}:{int(status.st_mtime)}")
        except OSError:
            parts.append(path)
    return ",".join(parts)
