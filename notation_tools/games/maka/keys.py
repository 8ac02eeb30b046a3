"""Maka-Dai-Dai Shogi's position keys (rules reference, "Position keys").

The same position is the same pieces on the same squares with the same side to move (the
position §6.13 counts for repetition): captured pieces leave the game, so there are no hands,
and the move number is a counter, not part of the position. The engine already keeps this
Zobrist key up to date as it pushes and pops (``Position.key``); the tracker reads it, and
:meth:`MakaKeys.key` computes it again from the board.
"""

from __future__ import annotations

import json
from collections.abc import ItemsView, Iterator, Mapping

from notation_tools.games.maka.pieces import ABBR_OF_ID, NCODES, NSQ, square_name
from notation_tools.games.maka.rules import ZOBRIST, ZOBRIST_WHITE, Position


class MakaTracker:
    """The engine's own incremental key: ``after`` reads what ``push`` worked out, and whether
    the move pushed captured or changed its piece (the material changes only then)."""

    __slots__ = ("key", "material_same")

    def __init__(self, position: Position) -> None:
        self.key = position.key
        self.material_same = False

    def before(self, position: Position) -> None:
        """Nothing to keep: the engine's push updates the key from the squares it changes."""

    def after(self, position: Position, move: object = None) -> int:
        # ``move`` (step's hint) is not needed: the engine's stack says what it changed.
        self.key = position.key
        stack = position.stack
        if stack:
            move, code, captured, _ = stack[-1]
            self.material_same = not captured and move.becomes * 2 + (code & 1) == code
        else:
            self.material_same = False
        return self.key

    step = after


class MakaKeys:
    """Zobrist keys over (piece code, square) with one more number for White to move."""

    def key(self, position: Position) -> int:
        key = ZOBRIST_WHITE if position.turn else 0
        for square, code in enumerate(position.board):
            if code:
                key ^= ZOBRIST[code][square]
        return key

    def tracker(self, position: Position) -> MakaTracker:
        return MakaTracker(position)

    def history(self, position: Position,
                plies: int) -> tuple[list[int], list[tuple[int, Material]]]:
        """The line of the last ``plies`` moves pushed to reach ``position``, read from the
        engine's stack (each entry keeps the key before its move) instead of followed move by
        move: the keys of its ``plies + 1`` positions, the first first, and the material at
        its first position and after each of its moves that captured or changed its piece
        (``(ply, material)`` in order, counted back from ``position``'s: a move that does
        neither leaves the material as it was)."""
        entries = position.stack[len(position.stack) - plies:] if plies > 0 else []
        keys = [entry[3] for entry in entries]
        keys.append(position.key)
        # The moves that changed the material (the tracker's test), found in one pass; the
        # counts are then taken back through them alone, the last first.
        changed = [ply for ply, (move, code, captured, _) in enumerate(entries, 1)
                   if captured or move.becomes * 2 + (code & 1) != code]
        counts = list(map(len, position.squares))
        changes = []
        for ply in reversed(changed):
            move, code, captured, _ = entries[ply - 1]
            changes.append((ply, Material(tuple(counts))))
            counts[move.becomes * 2 + (code & 1)] -= 1
            counts[code] += 1
            for victim in captured:
                counts[victim] += 1
        changes.append((0, Material(tuple(counts))))
        changes.reverse()
        return keys, changes


KEYS = MakaKeys()


SQUARE_NAMES = tuple(square_name(square) for square in range(NSQ))
"""Every square's name, for pattern search."""


def occupants(position: Position) -> Iterator[tuple[str, int, str]]:
    """(square, side, piece abbreviation) of every piece, for pattern search (from the
    engine's squares by piece code: a position holds far fewer pieces than squares)."""
    names = SQUARE_NAMES
    for code, squares in enumerate(position.squares):
        if squares:
            side, abbr = code & 1, ABBR_OF_ID[code >> 1]
            for square in squares:
                yield names[square], side, abbr


def material(position: Position) -> Material:
    """(side, piece abbreviation) → how many, for pattern search's material conditions (one
    count per piece code, not one step per piece)."""
    return Material(tuple(map(len, position.squares)))


_PIECE_OF_CODE = tuple((code & 1, ABBR_OF_ID[code >> 1]) for code in range(NCODES))


class Material(Mapping[tuple[int, str], int]):
    """A position's material as the count of each piece code: two compare as two tuples of
    counts (the position index compares every ply's with the last one's: a mapping of 158
    pieces would be built and hashed for nothing, as most plies capture nothing)."""

    __slots__ = ("counts",)

    def __init__(self, counts: tuple[int, ...]) -> None:
        self.counts = counts

    def __getitem__(self, piece: tuple[int, str]) -> int:
        code = _CODE_OF_PIECE.get(piece)
        if code is None or not self.counts[code]:
            raise KeyError(piece)
        return self.counts[code]

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return (_PIECE_OF_CODE[code] for code, count in enumerate(self.counts) if count)

    def __len__(self) -> int:
        return len(self.counts) - self.counts.count(0)

    def items(self) -> ItemsView[tuple[int, str], int]:
        pieces = _PIECE_OF_CODE
        return {pieces[code]: count for code, count in enumerate(self.counts) if count}.items()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Material):
            return self.counts == other.counts
        return super().__eq__(other)

    def __hash__(self) -> int:
        # Hashable (by the counts, as it compares), so that the position index can keep the
        # signature of each material met once (sorting 150 pieces takes a fifth of a ms).
        return hash(self.counts)

    def signature_text(self) -> str:
        """The text the position index stores for this material (``signature_text`` of its
        items sorted), written in the order of the pieces worked out once instead of sorting
        a hundred items and encoding them as JSON every time."""
        counts, heads = self.counts, _SIGNATURE_HEADS
        return "[" + ",".join([heads[code] + str(counts[code]) + "]"
                               for code in _SIGNATURE_ORDER if counts[code]]) + "]"


_CODE_OF_PIECE = {piece: code for code, piece in enumerate(_PIECE_OF_CODE)}

_SIGNATURE_ORDER = tuple(sorted(range(NCODES), key=_PIECE_OF_CODE.__getitem__))
"""The piece codes in the order of their (side, piece) (each is one code's)."""

_SIGNATURE_HEADS = tuple(
    json.dumps([side, abbr], ensure_ascii=False, separators=(",", ":"))[:-1] + ","
    for side, abbr in _PIECE_OF_CODE)
"""Each code's item of a signature text up to its count (``[0,"K",``)."""
