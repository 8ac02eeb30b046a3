"""Pattern search (docs/pattern.md): squares that must hold a given piece, any piece of a
side, or nothing, and material conditions, that must hold together at some ply of a
record's main line, optionally within a range of plies.

A pattern is read per game (:func:`parse_pattern`): square names and piece names are the
game's own (``Game.occupants`` lists them); sides are the
game's side names. :class:`PatternVisitor` checks it at every position while ``replay``
plays the record. ``select --square/--material/--at`` and
``notation_tools.Database.pattern`` use it.

    --square "10j=Ln"           a Lion Dog of either side on 10j
    --square "10j=White:Ln"     a White Lion Dog; "10j=White": any White piece; "10j=empty"
    --material "Black: Ln>=1, FK=0; White: *<=90"   counts per side (* every piece)
    --at 10..40                 only at plies 10 to 40
"""

from __future__ import annotations

import dataclasses
import operator
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from notation_tools.analysis.replay import Replay, ReplayVisitor
from notation_tools.games.base import Game, Position, Rules
from notation_tools.records.model import Move, Record

_OPERATORS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, "<=": operator.le, "!=": operator.ne, "==": operator.eq,
    "=": operator.eq, ">": operator.gt, "<": operator.lt}
_TERM = re.compile(r"^\s*(\*|[^\s<>=!]+)\s*(>=|<=|!=|==|=|>|<)\s*(\d+)\s*$")
ANY, EMPTY = "any", "empty"


class PatternError(ValueError):
    """A pattern that does not read: ``option`` names the option, the message says why."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option, self.message = option, message


@dataclasses.dataclass(frozen=True)
class SquareTest:
    """What one square must hold: ``side`` (None: either), ``piece`` (None: any), or
    nothing at all (``empty``)."""

    square: str
    side: int | None = None
    piece: str | None = None
    empty: bool = False

    def holds(self, board: dict[str, tuple[int, str]]) -> bool:
        found = board.get(self.square)
        if self.empty or found is None:
            return self.empty and found is None
        side, piece = found
        return (self.side is None or side == self.side) and \
            (self.piece is None or piece == self.piece)


@dataclasses.dataclass(frozen=True)
class MaterialTest:
    """``side`` has ``op`` ``count`` of ``piece`` (``*``: of all its pieces)."""

    side: int
    piece: str
    op: str
    count: int

    def holds(self, material: Mapping[tuple[int, str], int], totals: list[int]) -> bool:
        have = totals[self.side] if self.piece == "*" else material.get((self.side, self.piece), 0)
        return _OPERATORS[self.op](have, self.count)


@dataclasses.dataclass(frozen=True)
class Pattern:
    """Square and material tests of one game, all to hold at one ply in ``plies``."""

    game: str
    squares: tuple[SquareTest, ...] = ()
    material: tuple[MaterialTest, ...] = ()
    plies: tuple[int | None, int | None] = (None, None)

    def holds(self, game: Game[Any, Any], position: Position[Any]) -> bool:
        assert game.occupants is not None  # parse_pattern refused a game without
        if self.squares:
            board = {square: (side, piece) for square, side, piece in game.occupants(position)}
            if not all(test.holds(board) for test in self.squares):
                return False
        return not self.material or self.material_holds(material_of(game, position))

    def material_holds(self, material: Mapping[tuple[int, str], int]) -> bool:
        """Whether the material tests hold of ``material`` ((side, piece) → count). The
        totals per side are summed only for a ``*`` test (pattern search asks this of every
        distinct material of an archive: thousands)."""
        totals = [0, 0]
        if isinstance(material, StoredMaterial):
            totals = material.totals
        elif any(test.piece == "*" for test in self.material):
            for (side, _), count in material.items():
                totals[side] += count
        return all(test.holds(material, totals) for test in self.material)

    def may_hold(self, material: Mapping[tuple[int, str], int]) -> bool:
        """Whether a position with ``material`` may match: the material tests hold, and
        every square that must hold a piece has one of that side and kind to hold (the
        position index's prefilter: a position that matches passes it)."""
        if not self.material_holds(material):
            return False
        for test in self.squares:
            if not test.empty and not any(
                    count > 0 and (test.side is None or side == test.side)
                    and (test.piece is None or piece == test.piece)
                    for (side, piece), count in material.items()):
                return False
        return True

    def in_range(self, ply: int) -> bool:
        low, high = self.plies
        return (low is None or ply >= low) and (high is None or ply <= high)


MaterialSignature = tuple[tuple[int, str, int], ...]
"""A position's material as (side, piece, count) sorted: what the position index stores."""


def material_of(game: Game[Any, Any], position: Position[Any]) -> Mapping[tuple[int, str], int]:
    """(side, piece) → how many of ``position``'s pieces (the game's ``material``, else
    counted from its occupants)."""
    assert game.occupants is not None
    return game.material(position) if game.material is not None else Counter(
        (side, piece) for _, side, piece in game.occupants(position))


def material_signature(game: Game[Any, Any], position: Position[Any],
                       counts: Mapping[tuple[int, str], int] | None = None) -> MaterialSignature:
    """``position``'s material (``counts`` when already counted) as a
    :data:`MaterialSignature` (pieces counted 0 left out)."""
    return counts_signature(material_of(game, position) if counts is None else counts)


def counts_signature(counts: Mapping[tuple[int, str], int]) -> MaterialSignature:
    """A material given as (side, piece) → how many, as a :data:`MaterialSignature`."""
    return tuple(sorted((side, piece, count) for (side, piece), count in counts.items()
                        if count))


class StoredMaterial(dict[tuple[int, str], int]):
    """A material the position index stored: (side, piece) → count, with each side's total
    counted once (``totals``), as pattern search tests every stored material per query."""

    totals: list[int]


def signature_material(signature: MaterialSignature) -> StoredMaterial:
    """The (side, piece) → count mapping of a :data:`MaterialSignature`."""
    material = StoredMaterial(((side, piece), count) for side, piece, count in signature)
    material.totals = [0, 0]
    for side, _, count in signature:
        material.totals[side] += count
    return material


def _side(game: Game[Any, Any], text: str, option: str) -> int:
    for index, name in enumerate(game.sides):
        if name.lower() == text.strip().lower():
            return index
    raise PatternError(option, f"{text.strip()!r} is not a side of {game.name} "
                               f"({', '.join(game.sides)})")


def parse_square(game: Game[Any, Any], text: str) -> SquareTest:
    """``SQUARE=WHAT``: WHAT is ``empty``, ``any``, a side, a piece, or ``SIDE:PIECE``."""
    square, equals, what = (part.strip() for part in text.partition("="))
    if not equals or not square or not what:
        raise PatternError("--square", f"{text!r} is not SQUARE=WHAT (empty, any, a side, a "
                                       "piece or SIDE:PIECE)")
    if square not in game.square_names:
        raise PatternError("--square", f"{square!r} is not a square of {game.name}")
    if what.lower() in (EMPTY, ANY):
        return SquareTest(square, empty=what.lower() == EMPTY)
    side_text, colon, piece = what.partition(":")
    if colon:
        return SquareTest(square, side=_side(game, side_text, "--square"), piece=piece.strip())
    if what.lower() in (name.lower() for name in game.sides):
        return SquareTest(square, side=_side(game, what, "--square"))
    return SquareTest(square, piece=what)


def parse_material(game: Game[Any, Any], text: str) -> list[MaterialTest]:
    """``SIDE: PIECE OP N, ...; SIDE: ...`` (OP one of >= <= = != > <; ``*`` every piece)."""
    tests = []
    for section in filter(str.strip, text.split(";")):
        side_text, colon, terms = section.partition(":")
        if not colon:
            raise PatternError("--material", f"{section.strip()!r} is not SIDE: PIECE>=N, ...")
        side = _side(game, side_text, "--material")
        for term in terms.split(","):
            found = _TERM.match(term)
            if found is None:
                raise PatternError("--material", f"{term.strip()!r} is not PIECE OP COUNT "
                                                 "(e.g. Ln>=1; OP: >= <= = != > <)")
            tests.append(MaterialTest(side, found[1], found[2], int(found[3])))
    if not tests:
        raise PatternError("--material", f"{text!r} holds no condition")
    return tests


def parse_range(text: str) -> tuple[int | None, int | None]:
    """``--at``: ``10..40``, ``10..``, ``..40`` or ``12``."""
    low_text, dots, high_text = text.partition("..")
    try:
        low = int(low_text) if low_text.strip() else None
        high = (int(high_text) if high_text.strip() else None) if dots else low
    except ValueError:
        raise PatternError("--at", f"{text!r} is not a range of plies such as 10..40") from None
    if low is not None and high is not None and high < low:
        raise PatternError("--at", f"{text!r} is an empty range")
    return low, high


def parse_pattern(game: Game[Any, Any], *, squares: Iterable[str] = (),
                  material: str | None = None, at: str | None = None) -> Pattern:
    """A :class:`Pattern` of ``game`` from the command line's texts."""
    if game.occupants is None:
        raise PatternError("--square", f"{game.name} offers no pattern search")
    square_tests = tuple(parse_square(game, text) for text in squares)
    material_tests = tuple(parse_material(game, material)) if material is not None else ()
    if not square_tests and not material_tests:
        raise PatternError("--square", "a pattern needs --square or --material")
    return Pattern(game.id, square_tests, material_tests,
                   parse_range(at) if at is not None else (None, None))


class PatternVisitor(ReplayVisitor):
    """Whether (and first at which ply) a record's main line matches one of ``patterns``
    (game id → pattern)."""

    def __init__(self, patterns: dict[str, Pattern],
                 only: list[tuple[int, int]] | None = None) -> None:
        self.patterns = patterns
        self.pattern: Pattern | None = None
        self.game: Game[Any, Any] | None = None
        self.ply: int | None = None
        self.only = only
        """Runs of plies (first, last; in order) outside which the pattern cannot hold (the
        position index says so), or ``None``: check every ply in the pattern's range."""

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        self.game, self.pattern = game, self.patterns.get(game.id)

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        self._check(before, ply - 1, in_variation)

    def stop_after(self, ply: int) -> bool:
        high = self.pattern.plies[1] if self.pattern is not None else None
        if self.only is not None:
            high = min(high, self.only[-1][1]) if high is not None and self.only \
                else self.only[-1][1] if self.only else -1
        return self.pattern is None or self.ply is not None or (high is not None and ply > high)

    def _check(self, position: Position[Any], ply: int, in_variation: bool) -> None:
        pattern = self.pattern
        if in_variation or pattern is None or self.ply is not None or not pattern.in_range(ply):
            return
        if self.only is not None and not any(first <= ply <= last for first, last in self.only):
            return
        assert self.game is not None
        if pattern.holds(self.game, position):
            self.ply = ply

    def finish(self, result: Replay) -> None:
        """Check the main line's last position too."""
        if result.position is not None and result.complete:
            self._check(result.position, result.plies, False)
