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
from collections.abc import Hashable, Mapping
from typing import Any

from notation_tools.analysis.pattern import MaterialSignature, material_of, material_signature
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

    def add_material(self, ply: int, signature: str) -> None:
        """Position ``ply`` (the next of the main line) holds ``signature``."""
        assert self.material is not None
        runs = self.material
        if runs and runs[-1][1] == ply - 1 and runs[-1][2] == signature:
            runs[-1] = (runs[-1][0], ply, signature)
        else:
            runs.append((ply, ply, signature))

    def same_material(self, ply: int) -> bool:
        """Position ``ply`` (the next of the main line) holds the material of the one before
        it: the last run goes on (False when there is no run it continues)."""
        runs = self.material
        if not runs or runs[-1][1] != ply - 1:
            return False
        runs[-1] = (runs[-1][0], ply, runs[-1][2])
        return True

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


_SIGNATURES: dict[Hashable, str] = {}
"""The signature text of each hashable material met in this process (most records of an
archive pass through the same few): bounded, emptied when full."""

_SIGNATURES_KEPT = 4096


def _signature_of(game: Game[Any, Any], position: Position[Any],
                  counts: Mapping[tuple[int, str], int]) -> str:
    if not isinstance(counts, Hashable):
        return signature_text(material_signature(game, position, counts))
    kept = _SIGNATURES.get((game.id, counts))
    if kept is None:
        if len(_SIGNATURES) >= _SIGNATURES_KEPT:
            _SIGNATURES.clear()
        kept = _SIGNATURES[(game.id, counts)] = signature_text(
            material_signature(game, position, counts))
    return kept


class PositionCollector(ReplayVisitor):
    """Keys every position of the main line (and of the variations with ``variations``)."""

    def __init__(self, *, variations: bool = False) -> None:
        self.variations = variations
        self.found = IndexedPositions(variations=variations)
        self.game: Game[Any, Any] | None = None
        self.tracker: KeyTracker[Any] | None = None
        self.line = 0
        self._last_variation_ply = -1
        self._new_line = True
        self._counts: Mapping[tuple[int, str], int] | None = None
        self._signature = ""

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        self.game = game
        self.found.material = [] if game.occupants is not None else None

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        game = self.game
        assert game is not None  # begin() comes first
        if in_variation:
            if self.variations:
                if self._new_line or ply <= self._last_variation_ply:
                    self.line += 1  # a ply no later than the last one: another variation
                self._new_line = False
                self._last_variation_ply = ply
                self.found.add(game.position_key(before), ply - 1, self.line, node.text)
            return
        self._new_line = True
        tracker = self.tracker
        if tracker is None:
            tracker = self.tracker = game.key_tracker(before)
            tracker.before(before)
            key = tracker.key
        else:
            key = tracker.step(before)
        self.found.add(signed64(key), ply - 1, 0, node.text)
        if self.found.material is not None:
            self._add_material(ply - 1, before, tracker.material_same)

    def _add_material(self, ply: int, position: Position[Any], same: bool) -> None:
        """The material at ``ply``: counted only when the tracker cannot say that the move
        kept it (``same``: most moves capture nothing), and sorted into a signature only when
        it changed (comparing two counts is cheaper than sorting one)."""
        if same and self.found.same_material(ply):
            return
        assert self.game is not None
        counts = material_of(self.game, position)
        if counts != self._counts:
            self._counts = counts
            self._signature = _signature_of(self.game, position, counts)
        self.found.add_material(ply, self._signature)

    def finish(self, position: Position[Any] | None, plies: int,
               complete: bool = True) -> IndexedPositions:
        """The positions found, with the main line's last position (``position``, reached
        after ``plies`` plies) added; its material only when ``complete`` (the whole main
        line replayed: pattern search checks the last position only then)."""
        if position is not None and self.game is not None:
            tracker = self.tracker
            key = tracker.after(position) if tracker is not None \
                else self.game.position_keys.key(position)
            self.found.add(signed64(key), plies, 0, None)
            if complete and self.found.material is not None:
                self._add_material(plies, position, tracker is not None
                                   and tracker.material_same)
        return self.found
