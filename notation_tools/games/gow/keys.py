"""Game of War's position keys (rules reference, "Position keys").

The same position, between turns, is the same units on the same squares, the same arsenals
standing, the same side to act and the same pending forced retreat. Lines of communication
are worked out from these, so they are not part of it; the turn number is a counter and is
left out.
"""

from __future__ import annotations


from collections.abc import Iterator, Sequence
from typing import Protocol, cast

from notation_tools.compiled import load as load_compiled
from notation_tools.games.base import KeyTracker, StateKeys, bytes_row_changes
from notation_tools.games.gow.pieces import CODE_LETTER, NAMES, SIDE_OF
from notation_tools.games.gow.moves import Attack, Step, Turn
from notation_tools.games.gow.rules import Position

SEED = 0x474F57  # "GOW"


def key_state(position: Position) -> tuple[Sequence[int], ...]:
    """The rows the key is made of: the board's unit codes, the arsenals standing, and the
    side to act with the square of the pending retreat (-1: none). The arsenals are a row of
    bytes (0 or 1, the same values as a list of them: the same key), which the tracker
    compares in one step."""
    retreat = -1 if position.retreat is None else position.retreat
    return (position.board, bytes(position.alive), [position.turn, retreat])


class _CompiledKeys(Protocol):
    """What the compiled ``_keys`` module exports (``_keys.c``; :func:`load_compiled` checks
    that the name is there): :class:`GowTracker`'s step in C, over the same rows, giving the
    same keys and ``material_same``."""

    def Tracker(self, seed: int, key: int, position: Position, /) -> KeyTracker[Position]: ...


# load_compiled returns a plain module; the name it checked is that of _CompiledKeys
_compiled_keys = cast("_CompiledKeys | None", load_compiled("games.gow._keys", "Tracker"))


class GowKeys(StateKeys[Position]):
    """The keys of :func:`key_state`, with a tracker that knows its three rows: the compiled
    one (``_keys.c``) when it was built, else :class:`GowTracker`, its reference."""

    def tracker(self, position: Position) -> KeyTracker[Position]:  # type: ignore[override]
        if _compiled_keys is not None:
            return _compiled_keys.Tracker(self.seed, self.key(position), position)
        return GowTracker(self, position)

    def board_entries(self) -> BoardEntries:
        """The board's entries by ``cell << 8 | code``, made as they are first asked for."""
        found: BoardEntries | None = getattr(self, "_board_entries", None)
        if found is None:
            found = self._board_entries = BoardEntries(self)
        return found


class BoardEntries(dict[int, int]):
    """The key part of each board cell and unit code (``cell << 8 | code`` → entry), made by
    :meth:`~notation_tools.games.base.StateKeys.entry` the first time it is asked for: one
    subscript a cell for the tracker, which looks up a dozen per turn."""

    def __init__(self, keys: StateKeys[Position]) -> None:
        super().__init__()
        self.state_keys = keys

    def __missing__(self, code: int) -> int:
        found: int = self.state_keys.entry(0, code >> 8, code & 255)
        self[code] = found
        return found


class GowTracker:
    """The incremental key of :class:`GowKeys` (the reference of the compiled tracker that
    :meth:`GowKeys.tracker` gives when ``pip install .`` built it; the tests compare the two):
    what :class:`StateTracker` works out for any
    rows, for these three (the board and the arsenals as bytes, the side to act and the
    retreat as two numbers) without the walk over rows of any kind: a replay steps it once
    per turn. The material is the same when the board cells that changed hold the same units.

    Told the turn that was played (``step(position, move)``), it looks at the squares the
    turn names (its steps' origins and targets, the square attacked) instead of finding the
    changed cells over the whole board, and checks that no other cell changed (one
    comparison of the two boards); when another did, it finds them all as without the hint.
    The key is the same either way."""

    __slots__ = ("keys", "key", "material_same", "_entries", "_board", "_alive", "_turn",
                 "_retreat")

    def __init__(self, keys: GowKeys, position: Position) -> None:
        self.keys = keys
        self._entries = keys.board_entries()
        self.key = keys.key(position)
        self.material_same = False
        self.before(position)

    def before(self, position: Position) -> None:
        # The arsenals as a list (four flags): compared as they are every turn, made bytes
        # only when one fell.
        self._board, self._alive = bytes(position.board), list(position.alive)
        self._turn = position.turn
        self._retreat = -1 if position.retreat is None else position.retreat

    def after(self, position: Position) -> int:
        board, alive = self._board, self._alive
        turn, retreat = self._turn, self._retreat
        key = self.step(position)
        self._board, self._alive, self._turn, self._retreat = board, alive, turn, retreat
        return key

    def step(self, position: Position, move: object = None) -> int:
        keys, key = self.keys, self.key
        board = bytes(position.board)
        self.material_same = True
        if board != self._board:
            found = None
            if move is not None:
                # The named squares swapped on a copy of the old board, which must then be
                # the new one: else another cell changed too (found over the whole board).
                made = bytearray(self._board)
                found = _swapped(key, _named_squares(move), made, board, self._entries)
                if made != board:
                    found = None
            key, self.material_same = found if found is not None \
                else _board_changes(key, self._board, board, self._entries)
            self._board = board
        alive = position.alive
        if alive != self._alive:
            key = bytes_row_changes(key, 1, bytes(self._alive), bytes(alive), keys)
            self._alive = list(alive)
        turn = position.turn
        if turn != self._turn:
            key ^= keys.entry(2, 0, self._turn) ^ keys.entry(2, 0, turn)
            self._turn = turn
        retreat = -1 if position.retreat is None else position.retreat
        if retreat != self._retreat:
            key ^= keys.entry(2, 1, self._retreat) ^ keys.entry(2, 1, retreat)
            self._retreat = retreat
        self.key = key
        return key


def _named_squares(move: object) -> list[int]:
    """The squares a turn (or one action of it) names: where its units moved from and to,
    and the square it attacked."""
    if type(move) is Turn:
        squares = [square for step in move.steps for square in (step.origin, step.target)]
        if move.attack is not None:
            squares.append(move.attack.target)
        return squares
    if type(move) is Step:
        return [move.origin, move.target]
    if type(move) is Attack:
        return [move.target]
    return []


def _board_changes(key: int, old: bytes, new: bytes, entries: BoardEntries
                   ) -> tuple[int, bool]:
    """``key`` with the board cells that changed swapped (as :func:`bytes_row_changes` does
    for any row), and whether they hold the same units as before (the material is the same):
    the cells found over the whole board, by XORing the two boards as numbers."""
    changed = (int.from_bytes(old, "little") ^ int.from_bytes(new, "little")).to_bytes(
        len(old), "little").translate(_NONZERO)
    cells: list[int] = []
    cell = changed.find(1)
    while cell >= 0:
        cells.append(cell)
        cell = changed.find(1, cell + 1)
    return _swapped(key, cells, bytearray(old), new, entries)


def _swapped(key: int, cells: list[int], made: bytearray, new: bytes,
             entries: BoardEntries) -> tuple[int, bool]:
    """``key`` with each of ``cells`` where ``made`` and ``new`` differ swapped from what
    ``made`` holds to what ``new`` holds (``made`` takes it, so that a cell named twice is
    swapped once), and whether the cells swapped hold the same units before and after: the
    key, the cells that changed and the material in one pass, as a replay does this once per
    turn."""
    gone: list[int] = []
    came: list[int] = []
    for cell in cells:
        now, was = new[cell], made[cell]
        if was != now:
            made[cell] = now
            gone.append(was)
            came.append(now)
            key ^= entries[cell << 8 | was] ^ entries[cell << 8 | now]
    gone.sort()
    came.sort()
    return key, gone == came


_NONZERO = bytes([0] + [1] * 255)
"""``bytes.translate`` table: 0 stays 0, any other byte becomes 1."""


KEYS = GowKeys(SEED, key_state, material_row=0)
"""The material counts the units of the board (row 0) by code."""


SQUARE_NAMES = NAMES
"""Every square's name, for pattern search."""


def occupants(position: Position) -> Iterator[tuple[str, int, str]]:
    """(square, side, unit letter as North writes it) of every unit, for pattern search."""
    for square, code in enumerate(position.board):
        if code:
            yield NAMES[square], SIDE_OF[code], CODE_LETTER[code].upper()


_MATERIAL_OF_CODE = tuple((code, (SIDE_OF[code], CODE_LETTER[code].upper()))
                          for code in sorted(CODE_LETTER) if code)


def material(position: Position) -> dict[tuple[int, str], int]:
    """(side, piece) → how many, for pattern search's material conditions (the index keeps
    it per ply: one count over the board per unit code, not one step per square)."""
    board = position.board
    return {piece: found for code, piece in _MATERIAL_OF_CODE if (found := board.count(code))}
