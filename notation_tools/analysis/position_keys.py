"""The keys of the positions a record's replay passes through, for the position index.

:class:`PositionCollector` is a :class:`~notation_tools.analysis.replay.ReplayVisitor`: while
``replay`` plays the main line it follows the game's incremental key
(:meth:`~notation_tools.games.base.Game.key_tracker`), so the keys cost no second replay; a
variation's positions (when asked for) are keyed from scratch. :class:`IndexedPositions` is
what a worker process sends back with the record's report: per position its key (signed
64-bit), its ply, its line (0 the main line, 1, 2, … the variations in the order replay meets
them) and the text of the move played from it (``None`` at the end of the main line).

Does not touch a database; :mod:`notation_tools.storage.position_index` stores these.
"""

from __future__ import annotations

import dataclasses
import json
from array import array
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from notation_tools.analysis.pattern import MaterialSignature, counts_signature, material_of
from notation_tools.analysis.replay import ReplayVisitor
from notation_tools.games.base import Game, KeyTracker, Position, Rules, signed64
from notation_tools.records.model import Move, Record

INDEX_CHOICES = ("positions", "variations", "squares")
"""``analyze --index``: the main lines' positions, or those of the variations too, or the
main lines' positions and what every square holds (the square index,
:mod:`notation_tools.analysis.square_runs`)."""


@dataclasses.dataclass
class IndexedPositions:
    """A record's indexed positions, in compact columns (cheap to send between processes)."""

    keys: array[int] = dataclasses.field(default_factory=lambda: array("q"))
    plies: array[int] = dataclasses.field(default_factory=lambda: array("l"))
    lines: array[int] = dataclasses.field(default_factory=lambda: array("l"))
    moves: list[str | None] = dataclasses.field(default_factory=list)
    variations: bool = False
    """Whether the variations were keyed too."""
    material: list[tuple[int, int, str]] | None = None
    """The main line's material, per run of plies where it does not change: (first ply,
    last ply, signature as the database stores it: :func:`signature_text`), over exactly the
    positions pattern search checks (every position before a main-line move, and the last
    one when the whole main line was replayed); ``None`` when the game offers no pattern
    search."""

    def add(self, key: int, ply: int, line: int, move: str | None) -> None:
        self.keys.append(key)
        self.plies.append(ply)
        self.lines.append(line)
        self.moves.append(move)

    def rows(self) -> list[tuple[int, int, int, str | None]]:
        """``(key, ply, line, move text)`` of every position."""
        return list(zip(self.keys, self.plies, self.lines, self.moves))

    def __len__(self) -> int:
        return len(self.keys)


def signature_text(signature: MaterialSignature) -> str:
    """A material signature as ``material_signatures.counts`` holds it (compact JSON)."""
    return json.dumps(signature, ensure_ascii=False, separators=(",", ":"))


_SIGNATURES: dict[tuple[str, Hashable], str] = {}
"""The signature text of each material met in this process (most records of an archive pass
through the same few), by game and the material (a material that is not hashable, a plain
dict, by the set of its items): bounded, emptied when full."""

_SIGNATURES_KEPT = 4096


def _signature_of(game: Game[Any, Any], counts: Mapping[tuple[int, str], int]) -> str:
    # Hashing a material's twenty-odd items costs far less than sorting them and writing
    # them as JSON, which a capture otherwise costs every time.
    known = (game.id, counts if isinstance(counts, Hashable) else frozenset(counts.items()))
    kept = _SIGNATURES.get(known)
    if kept is None:
        if len(_SIGNATURES) >= _SIGNATURES_KEPT:
            _SIGNATURES.clear()
        # A game's material may write its own text (the same, found faster).
        text_of = getattr(counts, "signature_text", None)
        kept = _SIGNATURES[known] = text_of() if text_of is not None \
            else signature_text(counts_signature(counts))
    return kept


class PositionCollector(ReplayVisitor):
    """Keys every position of the main line (and of the variations with ``variations``).

    A replay calls :meth:`visit_move` once per ply, so it does as little as it can there: the
    main line's keys (unsigned, as the tracker gives them) and move texts go into two lists,
    its plies and line are implied by their order, and its material is looked at only when
    the tracker cannot say that the move kept it, and kept only where it changed;
    :meth:`finish` makes the columns and the material runs of :class:`IndexedPositions` once
    per record. A game whose keys offer ``history`` (:class:`~notation_tools.games.base.
    PositionKeys`) is not followed at all: each ply only keeps its move's text, and
    :meth:`finish` reads the main line's keys and materials from the engine."""

    def __init__(self, *, variations: bool = False) -> None:
        self.variations = variations
        self.found = IndexedPositions(variations=variations)
        self.game: Game[Any, Any] | None = None
        self.tracker: KeyTracker[Any] | None = None
        self._history: Callable[[Position[Any], int], tuple[list[int], list[
            tuple[int, Mapping[tuple[int, str], int]]]]] | None = None
        """The game's ``history`` (the keys as its engine kept them), when it has one."""
        self.line = 0
        self._last_variation_ply = -1
        self._main_plies_then = -1
        """How many main-line moves had been visited at the last variation move: a variation
        move after a main-line one starts another line (not marked per main-line ply)."""
        self._keys: list[int] = []
        """The main line's keys, unsigned, one per ply in order."""
        self._texts: list[str | None] = []
        self._changes: list[tuple[int, str]] | None = None
        """Where the main line's material changed: (first ply, signature), in order
        (``None``: the game offers no pattern search)."""
        self._counts: Mapping[tuple[int, str], int] | None = None
        self._signature = ""
        self._last_move: Any = None
        """The main line's last move visited: the one pushed before the next visit (the
        tracker's hint)."""

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        self.game = game
        self._changes = [] if game.occupants is not None else None
        self._history = getattr(game.position_keys, "history", None)

    def move_visits(self) -> tuple[Callable[[Move, Any, Position[Any], int, bool], None], ...]:
        # A subclass with its own visit_move (the square index's) is called through it.
        if self._history is not None and type(self).visit_move is PositionCollector.visit_move:
            return (self._visit_text,)
        return (self.visit_move,)

    def _visit_text(self, node: Move, move: Any, before: Position[Any], ply: int,
                    in_variation: bool) -> None:
        """:meth:`visit_move` when the game's engine keeps the keys: the text is all a
        main-line ply needs."""
        if in_variation:
            if self.variations:
                self._variation_move(node, before, ply)
            return
        self._texts.append(node.text)

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        if in_variation or self._history is not None:
            self._visit_text(node, move, before, ply, in_variation)
            return
        tracker = self.tracker
        if tracker is None:
            assert self.game is not None  # begin() comes first
            tracker = self.tracker = self.game.key_tracker(before)
            tracker.before(before)
            self._keys.append(tracker.key)
            same = False
        else:
            self._keys.append(tracker.step(before, self._last_move))
            same = tracker.material_same
        self._last_move = move
        self._texts.append(node.text)
        if not same and self._changes is not None:
            self._material(ply - 1, before)

    def _variation_move(self, node: Move, before: Position[Any], ply: int) -> None:
        assert self.game is not None
        main_plies = len(self._texts)
        if main_plies != self._main_plies_then or ply <= self._last_variation_ply:
            self.line += 1  # a ply no later than the last one: another variation
        self._main_plies_then = main_plies
        self._last_variation_ply = ply
        self.found.add(signed64(self.game.position_key(before)), ply - 1, self.line, node.text)

    def _material(self, ply: int, position: Position[Any]) -> None:
        """The material at ``ply``, where the move before it may have changed it: counted
        (most moves capture nothing, and are not looked at), and sorted into a signature only
        when it changed (comparing two counts is cheaper than sorting one)."""
        assert self.game is not None and self._changes is not None
        self._material_counted(ply, material_of(self.game, position))

    def _material_counted(self, ply: int, counts: Mapping[tuple[int, str], int]) -> None:
        assert self.game is not None and self._changes is not None
        if counts == self._counts:
            return
        self._counts = counts
        signature = _signature_of(self.game, counts)
        if signature != self._signature:
            self._signature = signature
            self._changes.append((ply, signature))

    def finish(self, position: Position[Any] | None, plies: int,
               complete: bool = True) -> IndexedPositions:
        """The positions found, with the main line's last position (``position``, reached
        after ``plies`` plies) added; its material only when ``complete`` (the whole main
        line replayed: pattern search checks the last position only then)."""
        keys, texts = self._keys, self._texts
        checked = len(keys)  # the main-line positions whose material was looked at
        if position is not None and self._history is not None:
            # Every move visited was pushed on the way to ``position``: its texts are the
            # line's, one per key before the last.
            found, changes = self._history(position, len(texts))
            keys += found
            texts.append(None)
            if self._changes is not None:
                checked = len(found) if complete else len(found) - 1
                for ply, counts in changes:
                    if ply < checked:
                        self._material_counted(ply, counts)
        elif position is not None and self.game is not None:
            tracker = self.tracker
            keys.append(tracker.after(position) if tracker is not None
                        else self.game.position_keys.key(position))
            texts.append(None)
            if complete and self._changes is not None:
                if tracker is None or not tracker.material_same:
                    self._material(plies, position)
                checked += 1
        self._columns()
        if self._changes is not None:
            self.found.material = _runs(self._changes, checked)
        return self.found

    def _columns(self) -> None:
        """The main line's rows (plies 0, 1, ... in order: the main line starts at ply 0 and
        every move replayed is visited) put before the variations' (if any), as signed keys:
        the unsigned ones reinterpreted in one step, not converted one by one."""
        found, keys = self.found, self._keys
        main = array("q")
        main.frombytes(array("Q", keys).tobytes())
        found.keys = main + found.keys
        found.plies = _first_plies(len(keys)) + found.plies
        found.lines = array("l", [0]) * len(keys) + found.lines
        found.moves = self._texts + found.moves


_PLIES = array("l", range(1024))
"""Plies 0, 1, 2, ...: a main line's ply column is a slice of it (a copy in one step; an
array made from a range counts in Python, ten times as long)."""


def _first_plies(count: int) -> array[int]:
    """``array("l", range(count))``."""
    global _PLIES
    if count > len(_PLIES):
        _PLIES = array("l", range(max(count, 2 * len(_PLIES))))
    return _PLIES[:count]


def _runs(changes: list[tuple[int, str]], checked: int) -> list[tuple[int, int, str]]:
    """Runs of (first ply, last ply, signature) over plies ``0 .. checked - 1`` from where
    the material changed (none when no ply was checked)."""
    ends = [first - 1 for first, _ in changes[1:]] + [checked - 1]
    return [(first, last, signature) for (first, signature), last in zip(changes, ends)
            if last >= first]
