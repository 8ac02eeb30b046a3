"""Maka-Dai-Dai Shogi rules: the Position class, the generic move generator and attack tests.

One generator reads the compiled piece tables of :mod:`notation_tools.games.maka.pieces` (G7):
slides, jumps, the knight, hook movers (§6.4), Lion power (§6.3), the linear Lion Dog (§6.5)
and the Emperor (§6.6). Moves are identities (§8.1): origin, final square, captured squares,
type after the move; each carries one canonical path (§9.4). The rule options are read from
the position's :class:`~notation_tools.games.maka.options.Options`.

This module does not read or write notation; the notation module asks it for legal moves.

>>> from notation_tools.games.maka import GAME
>>> pos = GAME.start_position(GAME.parse_rules("tsa"))
>>> sum(1 for _ in pos.legal_moves())
75
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from notation_tools.games import base
from notation_tools.games.base import Outcome, Rules
from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.options import Options
from notation_tools.games.maka.pieces import (BSP_ID, COL, DE_ID, DIAGONAL, DIRS, DSP_ID, DV_ID,
                                              EMPEROR_ID, JUMP_DISTANCE, KING_ID, KNIGHT_SOURCES,
                                              KNIGHT_TARGETS, LION_DOG_STEPS, LION_RANGE, NCODES,
                                              NDIRS, NEIGHBOURS, NSQ, OPPOSITE, PERPENDICULAR,
                                              PRINCE_ID, PROMOTED_IDS, RAYS, REPETITION_LIMIT, ROW,
                                              ROYAL_IDS, SIDE_NAMES, SIZE, TK_ID, TK_LION_RANGE,
                                              ZONE2, ZONE3, Tables, compile_tables, distance)


ZOBRIST_SEED = 0x4D414B41  # "MAKA"


def _zobrist() -> tuple[tuple[int, ...], ...]:
    rng = random.Random(ZOBRIST_SEED)
    return tuple(tuple(rng.getrandbits(64) for _ in range(NSQ)) for _ in range(NCODES))


ZOBRIST = _zobrist()
ZOBRIST_WHITE = 0x9E3779B97F4A7C15

_Note = Callable[[int, tuple[int, ...], tuple[int, ...]], None]
"""How a Lion move is noted while they are gathered: its target, captures and path."""


class Position(base.Position[Move]):
    """A Maka-Dai-Dai Shogi position: board, side to move, move number, rules and history.

    ``board[sq]`` is ``0`` or a piece code ``type_id * 2 + side`` (side 0 Black, 1 White).
    ``options`` are the typed rule options of ``rules``. ``push`` trusts that the move came
    from :meth:`legal_moves` (G1).
    """

    __slots__ = ("board", "turn", "move_number", "rules", "t", "squares", "stack", "key",
                 "counts", "options")

    def __init__(self, board: list[int], turn: int, move_number: int, rules: Rules) -> None:
        self.board = board
        self.turn = turn
        self.move_number = move_number
        self.rules = rules
        self.options: Options = base.options_of(Options, rules)
        self.t: Tables = compile_tables(self.options.choices)
        self.squares: list[set[int]] = [set() for _ in range(NCODES)]
        key = ZOBRIST_WHITE if turn else 0
        for sq, code in enumerate(board):
            if code:
                self.squares[code].add(sq)
                key ^= ZOBRIST[code][sq]
        self.key = key
        self.counts: dict[int, int] = {key: 1}
        self.stack: list[tuple[Move, int, list[int], int]] = []  # move, mover, captured, key

    # ---- basic state ----------------------------------------------------------------------

    def copy(self) -> Position:
        """An independent copy with the same history."""
        other = Position.__new__(Position)
        other.board = list(self.board)
        other.turn = self.turn
        other.move_number = self.move_number
        other.rules = self.rules
        other.t = self.t
        other.squares = [set(s) for s in self.squares]
        other.key = self.key
        other.counts = dict(self.counts)
        other.stack = list(self.stack)
        other.options = self.options
        return other

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.board == other.board
                and self.turn == other.turn and self.move_number == other.move_number)

    __hash__ = None  # type: ignore[assignment]

    def royals(self, side: int) -> list[int]:
        """Squares of ``side``'s royal pieces (King, Emperor, Prince; §6.10)."""
        sq = self.squares
        return [*sq[KING_ID * 2 + side], *sq[EMPEROR_ID * 2 + side], *sq[PRINCE_ID * 2 + side]]

    def royals_on_both_sides(self) -> bool:
        """Whether each side still has a royal piece (§6.10): when not, the game has ended and
        there are no moves. Cheap, unlike :meth:`outcome`, which also looks for a legal move."""
        sq = self.squares
        return bool((sq[KING_ID * 2] or sq[EMPEROR_ID * 2] or sq[PRINCE_ID * 2]) and (
            sq[KING_ID * 2 + 1] or sq[EMPEROR_ID * 2 + 1] or sq[PRINCE_ID * 2 + 1]))

    def piece_count(self, side: int) -> int:
        """How many pieces ``side`` has on the board."""
        return sum(map(len, self.squares[side::2]))

    def pieces(self, side: int) -> Iterator[tuple[int, int]]:
        """``(square, code)`` of ``side``'s pieces in position-string order."""
        board = self.board
        for sq in range(NSQ):
            code = board[sq]
            if code and code & 1 == side:
                yield sq, code

    # ---- push / pop -----------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move`` (from :meth:`legal_moves`); captured pieces leave the game (§6.1)."""
        board, squares = self.board, self.squares
        origin, target = move.origin, move.target
        code = board[origin]
        key = self.key
        captured = []
        for c in move.captures:
            victim = board[c]
            captured.append(victim)
            board[c] = 0
            squares[victim].discard(c)
            key ^= ZOBRIST[victim][c]
        board[origin] = 0
        squares[code].discard(origin)
        key ^= ZOBRIST[code][origin]
        new = move.becomes * 2 + (code & 1)
        board[target] = new
        squares[new].add(target)
        key ^= ZOBRIST[new][target] ^ ZOBRIST_WHITE
        self.stack.append((move, code, captured, self.key))
        self.key = key
        self.counts[key] = self.counts.get(key, 0) + 1
        if self.turn:
            self.move_number += 1
        self.turn ^= 1

    def pop(self) -> Move:
        """Take back the last move and return it."""
        move, code, captured, key = self.stack.pop()
        board, squares = self.board, self.squares
        count = self.counts[self.key] - 1
        if count:
            self.counts[self.key] = count
        else:
            del self.counts[self.key]
        self.key = key
        self.turn ^= 1
        if self.turn:
            self.move_number -= 1
        target = move.target
        new = board[target]
        board[target] = 0
        squares[new].discard(target)
        board[move.origin] = code
        squares[code].add(move.origin)
        for c, victim in zip(move.captures, captured):
            board[c] = victim
            squares[victim].add(c)
        return move

    # ---- move generation ------------------------------------------------------------------

    def generate_legal_moves(self, *, origin: int | None = None,
                             target: int | None = None) -> Iterator[Move]:
        """The legal move identities of the side to move (§6, §8.2), optionally filtered,
        in the order of §8.2 (origin, final square, captured squares, resulting type in
        position-string order). Empty when the game is over (§6.10).
        """
        for moves in self._move_lists(origin, target):
            if len(moves) > 1:
                moves.sort(key=_move_order)
            yield from moves

    def unordered_moves(self) -> Iterator[Move]:
        """The legal moves in generation order (for counting, e.g. perft)."""
        for moves in self._move_lists(None, None):
            yield from moves

    def _move_lists(self, origin: int | None, target: int | None) -> Iterator[list[Move]]:
        if not self.royals_on_both_sides():
            return
        side = self.turn
        board = self.board
        sources: Iterable[tuple[int, int]]
        if origin is not None:
            code = board[origin]
            sources = [(origin, code)] if code and code & 1 == side else []
        else:
            # Lazy, so has_legal_move stops at the first piece that can move.
            sources = self.pieces(side)
        check = self.options.filters_moves
        for sq, code in sources:
            moves = self.piece_moves(sq, code, target)
            if check:
                moves = [m for m in moves if self.illegal_reason(m) is None]
            yield moves

    def illegal_reason(self, move: Move) -> str | None:
        """Why a generated move breaks `self-check=forbid` or `repetition=forbidden`, or None."""
        options = self.options
        if options.forbid_repetition and \
                self.counts.get(self.key_after(move), 0) >= REPETITION_LIMIT:
            return "repetition"
        if not options.forbid_self_check:
            return None
        self.push(move)
        try:
            return "self-check" if self.self_check_by(1 - self.turn) is not None else None
        finally:
            self.pop()

    def key_after(self, move: Move) -> int:
        """The position key (§6.13: placement and side to move) after ``move``, without playing it."""
        board = self.board
        code = board[move.origin]
        key = self.key ^ ZOBRIST[code][move.origin] ^ ZOBRIST_WHITE
        for c in move.captures:
            key ^= ZOBRIST[board[c]][c]
        return key ^ ZOBRIST[move.becomes * 2 + (code & 1)][move.target]

    def moves_from(self, sq: int, target: int | None = None) -> list[Move]:
        """The legal moves of the piece on ``sq`` (the caller knows the game is not over),
        only those ending on ``target`` when given."""
        code = self.board[sq]
        moves = self.piece_moves(sq, code, target)
        if self.options.filters_moves:
            moves = [m for m in moves if self.illegal_reason(m) is None]
        return moves

    def has_legal_move(self) -> bool:
        """Whether the side to move has any legal move (early exit)."""
        for moves in self._move_lists(None, None):
            if moves:
                return True
        return False

    def piece_moves(self, sq: int, code: int, target: int | None = None) -> list[Move]:
        """Every move identity of the piece ``code`` on ``sq`` (§6.2-§6.7), before the
        self-check and repetition filters; only those ending on ``target`` when given."""
        t = self.t
        board = self.board
        side = code & 1
        out: list[Move] = []
        finish = self._finish
        if t.emperor[code]:
            self._emperor_moves(sq, code, out, target)
            return out
        if t.lion[code] or t.ldog[code]:
            self._lion_moves(sq, code, out)
            return out if target is None else [m for m in out if m.target == target]
        if target is not None:
            return self.moves_to(sq, code, target)
        for d, run in t.slides[code]:
            for s in RAYS[sq][d][:run]:
                p = board[s]
                if not p:
                    out.append(Move(sq, s, (), code >> 1, (s,)))
                    continue
                if p & 1 != side:
                    finish(sq, s, (s,), (s,), code, out)
                break
        for d in t.jumps[code]:
            ray = RAYS[sq][d]
            if len(ray) < JUMP_DISTANCE:
                continue
            if board[ray[0]] == 0 and t.reach[code][d] >= JUMP_DISTANCE:
                continue  # the slide already reached the 2nd square (∞J)
            s = ray[JUMP_DISTANCE - 1]
            p = board[s]
            if not p:
                out.append(Move(sq, s, (), code >> 1, (s,)))
            elif p & 1 != side:
                finish(sq, s, (s,), (s,), code, out)
        if t.knight[code]:
            for s in KNIGHT_TARGETS[side][sq]:
                p = board[s]
                if not p:
                    out.append(Move(sq, s, (), code >> 1, (s,)))
                elif p & 1 != side:
                    finish(sq, s, (s,), (s,), code, out)
        hook = t.hook[code]
        if hook is not None:
            self._hook_moves(sq, code, hook, out)
        return out

    def moves_to(self, sq: int, code: int, target: int) -> list[Move]:
        """The moves of the ordinary piece ``code`` on ``sq`` that end on ``target`` (the
        rules of :meth:`piece_moves`, before the self-check and repetition filters)."""
        t = self.t
        board = self.board
        side = code & 1
        out: list[Move] = []
        here = board[target]
        if here and here & 1 == side:
            return out
        dr, dc = ROW[target] - ROW[sq], COL[target] - COL[sq]
        n, m = abs(dr), abs(dc)
        if (n == m or not n or not m) and (n or m):
            n = max(n, m)
            d = _DIR_OF[((dc > 0) - (dc < 0), (dr > 0) - (dr < 0))]
            ray = RAYS[sq][d]
            clear = all(not board[s] for s in ray[:n - 1])
            done = False
            if t.reach[code][d] >= n and clear:
                done = True
            elif n == JUMP_DISTANCE and t.jump[code][d]:
                done = True
            if done:
                if here:
                    self._finish(sq, target, (target,), (target,), code, out)
                else:
                    out.append(Move(sq, target, (), code >> 1, (target,)))
                return out
        if t.knight[code] and target in KNIGHT_TARGETS[side][sq]:
            if here:
                self._finish(sq, target, (target,), (target,), code, out)
            else:
                out.append(Move(sq, target, (), code >> 1, (target,)))
            return out
        if t.hook[code] is not None and self._hook_hits(sq, target, t.hook[code] is DIAGONAL):
            if here:
                self._finish(sq, target, (target,), (target,), code, out)
            else:
                out.append(Move(sq, target, (), code >> 1, (target,)))
        return out

    def _finish(self, origin: int, target: int, caps: tuple[int, ...], path: tuple[int, ...],
                code: int, out: list[Move]) -> None:
        """Append the move(s) of one capture with the promotion rules (§6.8) and contagion
        (§6.9)."""
        tid = code >> 1
        options = self.options
        promotion, contagion = options.promotion, options.contagion
        immune = options.contagion_immune
        board = self.board
        if contagion:
            for c in caps:
                vt = board[c] >> 1
                if vt in (DV_ID, TK_ID, DSP_ID, BSP_ID):
                    exempt = (immune != "none" and tid in (KING_ID, EMPEROR_ID, PRINCE_ID)) or (
                        immune == "royals-and-elephant" and tid == DE_ID)
                    if not exempt:
                        out.append(Move(origin, target, caps,
                                        TK_ID if vt in (DV_ID, TK_ID) else BSP_ID, path))
                        return
                    break
        promo = self.t.promotes[code]
        if not promo:
            out.append(Move(origin, target, caps, tid, path))
            return
        out.append(Move(origin, target, caps, promo, path))
        if promotion == "forced":
            return
        if promotion == "forced-if-victim-promoted" and any(
                board[c] >> 1 in PROMOTED_IDS for c in caps):
            return
        out.append(Move(origin, target, caps, tid, path))

    def _hook_moves(self, sq: int, code: int, dirs: tuple[int, ...], out: list[Move]) -> None:
        """Hook Mover / Capricorn (§6.4): a line, optionally one 90° turn on an empty square."""
        board = self.board
        side = code & 1
        tid = code >> 1
        seen = set()
        caps_seen = set()
        for d in dirs:
            for s in RAYS[sq][d]:
                p = board[s]
                if p:
                    if p & 1 != side and s not in caps_seen:
                        caps_seen.add(s)
                        self._finish(sq, s, (s,), (s,), code, out)
                    break
                if s not in seen:
                    seen.add(s)
                    out.append(Move(sq, s, (), tid, (s,)))
                for e in PERPENDICULAR[d]:
                    for u in RAYS[s][e]:
                        q = board[u]
                        if q:
                            if q & 1 != side and u not in caps_seen:
                                caps_seen.add(u)
                                self._finish(sq, u, (u,), (u,), code, out)
                            break
                        if u not in seen and u != sq:
                            seen.add(u)
                            out.append(Move(sq, u, (), tid, (u,)))

    def _lion_moves(self, sq: int, code: int, out: list[Move]) -> None:
        """Lion power (§6.3), linear Lion Dog (§6.5) and the plain moves combined with them."""
        t = self.t
        board = self.board
        side = code & 1
        reach = t.lion[code]
        best: dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        options = self.options
        contagion = options.contagion

        def note(target: int, caps: tuple[int, ...], path: tuple[int, ...]) -> None:
            key: tuple[Any, ...] = (target, frozenset(caps))
            if contagion and len(caps) > 1:
                key += (next((board[c] >> 1 for c in caps
                              if board[c] >> 1 in (DV_ID, TK_ID, DSP_ID, BSP_ID)), 0),)
            old = best.get(key)
            if old is None:
                best[key] = (caps, path)
            elif (len(path), path) < (len(old[1]), old[1]):
                best[key] = (caps, path)

        # plain slides/jumps of the piece (Q3 of FF, Q of BSp/TK) as direct moves
        for d, run in t.slides[code]:
            for s in RAYS[sq][d][:run]:
                p = board[s]
                if not p:
                    note(s, (), (s,))
                    continue
                if p & 1 != side:
                    note(s, (s,), (s,))
                break
        if reach:
            zone = ZONE2[sq] if reach == LION_RANGE else ZONE3[sq]
            for s in zone:
                p = board[s]
                if not p:
                    note(s, (), (s,))
                elif p & 1 != side:
                    note(s, (s,), (s,))
            self._lion_steps(sq, side, reach, note)
        if t.ldog[code]:
            self._lion_dog_lines(sq, side, note)
        if options.pass_always and (sq, frozenset()) not in best:
            best[(sq, frozenset())] = ((), ())
        finish = self._finish
        tid = code >> 1
        for key, (caps, path) in best.items():
            target = key[0]
            if target == sq and not caps:
                out.append(Move(sq, sq, (), tid, ()))
            elif not caps:
                out.append(Move(sq, target, (), tid, (target,)))
            else:
                if caps == (target,):
                    path = (target,)
                finish(sq, target, caps, path, code, out)

    def _lion_dog_lines(self, sq: int, side: int, note: _Note) -> None:
        """The linear Lion Dog's moves from ``sq`` (§6.5), each handed to ``note``: along each
        direction one, two or three steps, with the turn-backs of Lion power, and (with
        ``lion-dog-leaps``) the leaps to the second and third square."""
        board = self.board
        leap = self.options.lion_dog_leaps
        for d in range(NDIRS):
            ray = RAYS[sq][d][:LION_DOG_STEPS]
            if not ray:
                continue
            d1 = ray[0]
            seqs = [(d1,), (d1, sq)]
            if len(ray) > 1:
                seqs += [(d1, ray[1]), (d1, ray[1], d1)]
                if len(ray) > 2:
                    seqs.append((d1, ray[1], ray[2]))
            for seq in seqs:
                caps: tuple[int, ...] = ()
                ok = True
                for s in seq:
                    if s == sq or s in caps:
                        continue
                    p = board[s]
                    if p:
                        if p & 1 == side:
                            ok = False
                            break
                        caps += (s,)
                if ok:
                    note(seq[-1], caps, seq)
            if leap:
                for s in ray[1:]:
                    p = board[s]
                    if not p:
                        note(s, (), (s,))
                    elif p & 1 != side:
                        note(s, (s,), (s,))

    def _lion_steps(self, origin: int, side: int, reach: int, note: _Note) -> None:
        """Step sequences of 2..reach king steps (§6.3 items 2-4)."""
        board = self.board

        def walk(cur: int, caps: tuple[int, ...], path: tuple[int, ...]) -> None:
            for nb in NEIGHBOURS[cur]:
                if nb == origin or nb in caps:
                    new_caps = caps
                else:
                    p = board[nb]
                    if p and p & 1 == side:
                        continue
                    new_caps = caps + (nb,) if p else caps
                new_path = path + (nb,)
                if len(new_path) >= 2:
                    note(nb, new_caps, new_path)
                if len(new_path) < reach:
                    walk(nb, new_caps, new_path)

        walk(origin, (), ())

    def _emperor_moves(self, sq: int, code: int, out: list[Move], target: int | None = None) -> None:
        """The Emperor (§6.6): any square, captures limited by `emperor-capture`."""
        board = self.board
        side = code & 1
        mode = self.options.emperor_capture
        tid = code >> 1
        for s in (range(NSQ) if target is None else (target,)):
            if s == sq:
                continue
            p = board[s]
            if not p:
                if mode == "unattacked" and self.emperor_defended(sq, s) is not None:
                    continue
                out.append(Move(sq, s, (), tid, (s,)))
            elif p & 1 != side:
                if mode != "any" and self.emperor_capture_block(sq, s) is not None:
                    continue
                self._finish(sq, s, (s,), (s,), code, out)

    # ---- attacks and the Emperor ----------------------------------------------------------

    def attacker(self, q: int, side: int, *, skip: int = -1) -> int | None:
        """A square of a non-Emperor piece of ``side`` that attacks ``q`` (§6.6 "Attack"),
        or None. The piece on ``skip`` is ignored."""
        board = self.board
        t = self.t
        reach, jump = t.reach, t.jump
        for e in range(NDIRS):
            ray = RAYS[q][e]
            back = OPPOSITE[e]
            k = 0
            for s in ray:
                k += 1
                p = board[s]
                if p:
                    if p & 1 == side and s != skip and reach[p][back] >= k:
                        return s
                    break
            if len(ray) > 1:
                s = ray[1]
                p = board[s]
                if p and p & 1 == side and s != skip and jump[p][back]:
                    return s
        for s in KNIGHT_SOURCES[side][q]:
            p = board[s]
            if p and p & 1 == side and s != skip and t.knight[p]:
                return s
        squares = self.squares
        for code in t.special[side]:
            for s in squares[code]:
                if s == skip or s == q or board[s] != code:
                    continue
                if t.lion[code] and distance(s, q) <= t.lion[code]:
                    return s
                if t.ldog[code] and self._ldog_hits(s, q, side):
                    return s
                if t.hook[code] is not None and self._hook_hits(s, q, t.hook[code] is DIAGONAL):
                    return s
        return None

    def _ldog_hits(self, s: int, q: int, side: int) -> bool:
        dr, dc = ROW[q] - ROW[s], COL[q] - COL[s]
        n = max(abs(dr), abs(dc))
        if n > LION_DOG_STEPS or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
            return False
        if self.options.lion_dog_leaps or n == 1:
            return True
        step = (dr // n) * SIZE + dc // n
        return all(not (self.board[s + step * i] and self.board[s + step * i] & 1 == side)
                   for i in range(1, n))

    def _clear(self, a: int, b: int) -> bool:
        """Whether every square strictly between ``a`` and ``b`` (on one line) is empty."""
        between = _BETWEEN.get(a * NSQ + b)
        if between is None:
            between = _BETWEEN[a * NSQ + b] = _squares_between(a, b)
        board = self.board
        for s in between:
            if board[s]:
                return False
        return True

    def _hook_hits(self, s: int, q: int, diagonal: bool) -> bool:
        r1, c1, r2, c2 = ROW[s], COL[s], ROW[q], COL[q]
        in_line = abs(r1 - r2) == abs(c1 - c2) if diagonal else r1 == r2 or c1 == c2
        if in_line:
            return self._clear(s, q)
        for corner in _hook_corners(s, q, diagonal):
            if self.board[corner] or corner in (s, q):
                continue
            if self._clear(s, corner) and self._clear(corner, q):
                return True
        return False

    def defender(self, q: int, side: int, mover_emperor: int) -> int | None:
        """A piece of ``side`` protecting ``q`` in the current board (§6.6 "Protected"),
        with ``side``'s Emperor counted per `emperor-as-defender`; ``mover_emperor`` is the
        square of the other side's capturing Emperor (never a recapture threat itself)."""
        found = self.attacker(q, side)
        if found is not None:
            return found
        for e in self.squares[EMPEROR_ID * 2 + side]:
            if e == q:
                continue
            if self.options.emperor_as_defender == "always" or self.attacker(q, 1 - side, skip=mover_emperor) is None:
                return e
        return None

    def emperor_defended(self, origin: int, q: int) -> int | None:
        """The square of a piece of the Emperor's enemy that protects (or attacks) ``q`` in the
        reference position of `emperor-protection` (§6.6), or None."""
        board = self.board
        code = board[origin]
        enemy = 1 - (code & 1)
        if self.options.emperor_protection == "before":
            return self.defender(q, enemy, origin)
        victim = board[q]
        board[origin] = 0
        board[q] = code
        try:
            return self.defender(q, enemy, q)
        finally:
            board[q] = victim
            board[origin] = code

    def emperor_capture_block(self, origin: int, q: int) -> int | None:
        """The protector that forbids the Emperor on ``origin`` to capture on ``q`` (§6.6), or None."""
        mode = self.options.emperor_capture
        if mode == "any":
            return None
        if mode == "royals-only" and self.board[q] >> 1 not in ROYAL_IDS:
            return None
        return self.emperor_defended(origin, q)

    def self_check_by(self, side: int) -> int | None:
        """If ``side`` has exactly one royal and the opponent can capture it (§6.11), the square
        of a capturing piece; else None. Judged in the current position."""
        royals = self.royals(side)
        if len(royals) != 1:
            return None
        q = royals[0]
        found = self.attacker(q, 1 - side)
        if found is not None:
            return found
        for e in self.squares[EMPEROR_ID * 2 + 1 - side]:
            if self.options.emperor_capture == "any" or self.emperor_capture_block(e, q) is None:
                return e
        return None

    def attack_watch(self, q: int, side: int) -> bytearray:
        """Per square, the marks of :func:`_near` for ``q``; :data:`_IN_LINE` on each line from
        ``q`` up to its first piece; :data:`_HOOK_LEG` on the first legs of the hook paths
        (§6.4) from each hook mover of ``side`` to ``q`` whose corner and second leg are empty
        (:meth:`_hook_watch`): what :meth:`may_attack_anew` needs to know of the squares a
        move changes. A fresh copy, which :meth:`may_attack_anew` marks further as hook
        movers move and lines of ``q`` open."""
        watch = bytearray(_near(q))
        board = self.board
        for ray in RAYS[q]:
            for s in ray:
                watch[s] |= _IN_LINE
                if board[s]:
                    break
        hook, squares = self.t.hook, self.squares
        for code in self.t.hooks[side]:
            diagonal = hook[code] is DIAGONAL
            for h in squares[code]:
                self._hook_watch(watch, h, q, diagonal)
        return watch

    def _hook_watch(self, watch: bytearray, h: int, q: int, diagonal: bool) -> bool:
        """Whether the hook mover on ``h`` attacks ``q`` (:meth:`_hook_hits`); if not, marks
        :data:`_HOOK_LEG` on the first leg of each of its hook paths to ``q`` (not in line)
        whose corner and second leg are empty. The second leg runs along a line of q, so a
        path whose second leg is blocked can open only when a square on q's line is vacated
        with a clear path to q, which :meth:`may_attack_anew` tests anyway (and then marks
        the legs again)."""
        r1, c1, r2, c2 = ROW[h], COL[h], ROW[q], COL[q]
        if abs(r1 - r2) == abs(c1 - c2) if diagonal else r1 == r2 or c1 == c2:
            return self._clear(h, q)  # the path is straight (its corners are h and q)
        board = self.board
        for corner in _hook_corners(h, q, diagonal):
            if not board[corner] and self._clear(corner, q):
                if self._clear(h, corner):
                    return True
                for x in _squares_between(h, corner):
                    watch[x] |= _HOOK_LEG
        return False

    def may_attack_anew(self, q: int, side: int, plies: int, watch: bytearray) -> bool:
        """Whether the last ``plies`` moves can have left ``q`` attacked by ``side`` (as
        :meth:`self_check_by` judges it: :meth:`attacker` or an Emperor) when it was not
        attacked before them. ``False`` is exact; ``True`` only asks for the full test.
        ``watch`` is :meth:`attack_watch` of ``q`` and ``side`` in the position before the
        moves, or since then given to this method with ``q`` and ``side`` (it marks there
        what the moves change: see below); the caller knows that q still holds the one royal
        of the other side: none of its royals moved, appeared or was captured (§6.11 needs
        exactly one). A royal of ``side`` is judged like any piece.

        Instead of the full test, a change is judged by the attacks it can open, tested in
        the current position: an emptied square on a line of q (up to its first piece) with
        a clear path to q, by
        the first piece beyond it on that line (:meth:`_line_attacks`) and the hook movers
        (:meth:`_hook_attacks`); an emptied square on a first leg of a hook path, by the hook
        movers; a hook mover that moved or came to be, by its own hook paths. Any of them
        found attacking asks for the full test. So while ``side`` has no Emperor, a move of
        ``side`` whose origin, target and captured squares are unmarked and whose piece is no
        hook mover, and a move of the other side whose captured squares are unmarked and
        whose origin has no :data:`OPENING_MARKS`, change nothing here: a caller that asks
        after every move may skip those.

        Why ``False`` is exact. Every move kind (slides, jumps, hook paths, Lion steps, Lion Dog
        steps, the Emperor's move, igui, pass) changes the board the same way (:meth:`push`):
        its origin is vacated, its captured squares emptied, its target holds the mover, whose
        type changes only there. Let X be the position before the moves and Y the current one;
        V the vacated squares, T the targets of moves by ``side``. No Emperor of ``side`` is on
        the board (refused), so only :meth:`attacker` can find an attack in Y: a piece p of
        ``side`` on s (§6.6 "Attack"). ``watch`` holds for X: on each line from q, the squares
        up to the first one occupied in X are marked in line (M1); the first legs of the hook
        paths whose corner and second leg are empty in X are marked (M2). A hook mover of
        ``side`` that moved (or came to be) is tested from its target, and a square of T is
        refused within distance 3 of q, or marked in line with a clear path. A vacated square
        marked in line with a clear path to q in Y "opens" its line: its test finds a slider
        first on that line beyond it, and tests every hook mover. Then:

        * slides (§3.1 limited and unlimited; ordinary pieces §6.2, the slides of Lion-power
          pieces, the q3 Lion Dog §6.5): p is the first piece on a line from q, with a clear
          path in Y. If a square between them was occupied in X, the one nearest q is marked
          (M1), in V, and opens the line: its test finds p. Else s is marked (M1), so s is not
          in T: p stood there in X with a clear path and attacked q;
        * jumps and the knight (§3.1 ``J``, ``∞J``, ``N``) and Lion power (§6.3, range 2 or
          3) ignore what stands between; s is within distance 3, so not in T: p attacked q
          from s in X;
        * the linear Lion Dog (§6.5) attacks within 3 on a line, blocked only by pieces of
          its own side (``side``) on the squares between, at distance 1 or 2 from q; such a
          blocker of X that left (moved, or captured and replaced) is a vacated origin of a
          move by ``side`` or a square the other side captured on: refused there;
        * hook movers (§6.4): a hook mover that moved or came to be is tested where it
          stands. Any other p did not move. Its path in Y runs straight along a line of q, or
          along a first leg from s to an empty corner on a line of q, then along that line to
          q; every square of it is empty. One occupied in X is in V. If the corner or a square
          of the second leg (or of the straight path) was, the one of them nearest q is marked
          (M1) and opens the line, whose test tests the hook movers. Else the first leg is
          marked (M2), and its vacated square tests the hook movers. Either way the same path
          was open in X.

        The caller keeps ``watch`` for the next moves, so this method makes M1 and M2 hold
        for Y; marks are only added, and a mark too many only asks for a test. A line whose
        first piece in Y lies beyond that of X, and a hook path whose corner and second leg
        are empty in Y and not in X, were opened, as above, by the first piece of X on that
        line; the test of an opened line marks it up to its first piece in Y, and the first
        legs of every hook mover of ``side`` whose second legs run along lines of its kind
        (rook or bishop lines), judged in Y. A hook mover that moved has its first legs
        marked, judged in Y.

        In each case q was attacked in X, which the caller rules out.
        """
        if self.squares[_EMPEROR_CODE + side]:
            return True
        for move, code, _, _ in self.stack[-plies:]:
            if self._move_may_attack(move, code & 1 == side, q, side, watch):
                return True
        return False

    def _move_may_attack(self, move: Move, by_side: bool, q: int, side: int,
                         watch: bytearray) -> bool:
        """One of the moves :meth:`may_attack_anew` judges (``by_side``: a move of ``side``):
        whether it can have opened an attack of ``side`` on ``q``, marking ``watch`` as the
        tests go (``False`` is exact, as argued there)."""
        x = move.origin
        if by_side:
            target = move.target
            kind = self.t.hook[move.becomes * 2 + side]
            if kind is not None and self._hook_watch(watch, target, q, kind is DIAGONAL):
                return True
            mark = watch[target]
            if mark and (mark & _ARRIVAL or mark & _IN_LINE and self._clear(q, target)):
                return True
            # the origin held a piece of ``side``, maybe a Lion Dog's blocker; an igui or a
            # pass leaves it occupied: counting it vacated only asks for more tests
            mark = watch[x]
            if mark and (mark & _VACATED or self._opened(q, x, side, mark, watch)):
                return True
            for x in move.captures:  # the other side's pieces block no Lion Dog of side
                mark = watch[x]
                if mark and self._opened(q, x, side, mark, watch):
                    return True
        else:
            mark = watch[x]
            if mark & OPENING_MARKS and self._opened(q, x, side, mark, watch):
                return True
            for x in move.captures:
                mark = watch[x]
                if mark and (mark & _VACATED or self._opened(q, x, side, mark, watch)):
                    return True
        return False

    def _opened(self, q: int, x: int, side: int, mark: int, watch: bytearray) -> bool:
        """Whether ``side`` attacks ``q`` along a path through the emptied square ``x`` (not
        q), whose ``watch`` marks (:meth:`attack_watch`) are ``mark``: x on a line of q with a
        clear path to q, or on a first leg of a hook path (:meth:`may_attack_anew`). A line
        of q that opened is marked up to its first piece, and the first legs of the hook
        paths whose second legs it may have cleared, for the moves to come."""
        if mark & _IN_LINE and self._clear(q, x):
            if self._line_attacks(q, x, side):
                return True
            board = self.board
            for s in RAYS[x][_direction(q, x)]:
                watch[s] |= _IN_LINE
                if board[s]:
                    break
            return self._hook_attacks(q, side, x, watch)
        return bool(mark & _HOOK_LEG) and self._hook_attacks(q, side, x)

    def _line_attacks(self, q: int, x: int, side: int) -> bool:
        """Whether the first piece on the line from ``q`` through ``x`` is of ``side`` and
        slides to q (:meth:`attacker`'s test of one line; what stands on the line does not
        stop jumps, the knight or Lion power)."""
        board = self.board
        k = 0
        d = _direction(q, x)
        for s in RAYS[q][d]:
            k += 1
            p = board[s]
            if p:
                return p & 1 == side and self.t.reach[p][OPPOSITE[d]] >= k
        return False

    def _hook_attacks(self, q: int, side: int, x: int, watch: bytearray | None = None) -> bool:
        """Whether a hook mover of ``side`` attacks ``q`` along a path through ``x`` (§6.4, as
        :meth:`attacker` judges). Every leg of a hook path runs along a line of its kind
        (rook or bishop lines) through the hook mover or through q, so only the hook movers
        with x on such a line are tested. With ``watch``, x is on a line of q that opened:
        the hook movers of that line's kind (whose second legs run along such lines) are
        tested by :meth:`_hook_watch`, which marks their first legs."""
        hook, squares = self.t.hook, self.squares
        rx, cx = ROW[x], COL[x]
        dq, eq = rx - ROW[q], cx - COL[q]
        for code in self.t.hooks[side]:
            if hook[code] is DIAGONAL:
                if watch is not None and abs(dq) == abs(eq):
                    for h in squares[code]:
                        if self._hook_watch(watch, h, q, True):
                            return True
                    continue
                for h in squares[code]:
                    if (abs(dq) == abs(eq) or abs(rx - ROW[h]) == abs(cx - COL[h])) \
                            and self._hook_hits(h, q, True):
                        return True
            else:
                if watch is not None and (not dq or not eq):
                    for h in squares[code]:
                        if self._hook_watch(watch, h, q, False):
                            return True
                    continue
                for h in squares[code]:
                    if (not dq or not eq or rx == ROW[h] or cx == COL[h]) \
                            and self._hook_hits(h, q, False):
                        return True
        return False

    def promotion_kind(self, move: Move) -> str:
        """What the move did to the piece's type, judged before the move (§6.8, §6.9):
        ``promote``, ``decline`` (could have promoted, did not), ``contagion`` or ``none``."""
        code = self.board[move.origin]
        tid = code >> 1
        if not move.captures:
            return "none"
        if self.options.contagion:
            for c in move.captures:
                vt = self.board[c] >> 1
                if vt in (DV_ID, TK_ID, DSP_ID, BSP_ID):
                    immune = self.options.contagion_immune
                    exempt = (immune != "none" and tid in (KING_ID, EMPEROR_ID, PRINCE_ID)) or (
                        immune == "royals-and-elephant" and tid == DE_ID)
                    if not exempt:
                        return "contagion"
                    break
        promo = self.t.promotes[code]
        if not promo:
            return "none"
        return "promote" if move.becomes == promo else "decline"

    # ---- outcome --------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """Win by capturing every royal (§6.10); no legal move (§6.16); else None."""
        ended = self.outcome_unless_stuck()
        if ended is not None:
            return ended
        if not self.has_legal_move():
            side = self.turn
            if self.options.no_legal_move == "draw":
                return Outcome(None, "no-legal-move", f"{SIDE_NAMES[side]} has no legal move (draw)")
            return Outcome(1 - side, "no-legal-move", f"{SIDE_NAMES[side]} has no legal move")
        return None

    def outcome_unless_stuck(self) -> Outcome | None:
        """The end by capture of every royal (§6.10), the one that needs no move search."""
        if self.royals_on_both_sides():
            return None
        for side in (self.turn, 1 - self.turn):
            if not self.royals(side):
                other = 1 - side
                if not self.royals(other):
                    return Outcome(None, "no-royals", "neither side has a royal piece")
                return Outcome(other, "royal-captured",
                               f"{SIDE_NAMES[other]} captured {SIDE_NAMES[side]}'s last royal piece")
        return None


_DIR_OF = {step: index for index, step in enumerate(DIRS)}
_EMPEROR_CODE = EMPEROR_ID * 2
"""Black's Emperor; White's is the next code."""
_UNBLOCKED_REACH = max(JUMP_DISTANCE, TK_LION_RANGE, LION_DOG_STEPS)
"""The farthest (king distance) a piece attacks whatever stands between: jumps and the knight
(§3.1), Lion power (§6.3), the linear Lion Dog (§6.5)."""
_IN_LINE, _VACATED, _ARRIVAL, _HOOK_LEG = 1, 2, 4, 8
"""Marks of :meth:`Position.attack_watch`: in line with the square; a piece of the attacking
side leaving there always counts (it may have blocked a Lion Dog); a piece of the attacking
side arriving there always counts; on a hook mover's first leg."""
OPENING_MARKS = _IN_LINE | _HOOK_LEG
"""The marks of :meth:`Position.attack_watch` that count on the squares vacated by a piece
of the side whose royal is watched: elsewhere :meth:`Position.may_attack_anew` finds that
such a square opened nothing."""
_BETWEEN: dict[int, tuple[int, ...]] = {}
"""The squares strictly between two squares on one line, by ``a * NSQ + b``, as they are
first asked for (the hook movers' attack test asks for the same few pairs again and again)."""


@functools.cache
def _near(q: int) -> bytes:
    """Per square x, the marks of :meth:`Position.attack_watch` for ``q`` that do not depend on
    the board: a piece of the attacking side leaving x counts when x is in line with q within
    the Lion Dog's blockers' reach (or is q itself); an arrival counts within
    :data:`_UNBLOCKED_REACH`. q itself is in line."""
    marks = bytearray(NSQ)
    for x in range(NSQ):
        n, m = abs(ROW[x] - ROW[q]), abs(COL[x] - COL[q])
        mark = _IN_LINE if not n and not m else 0
        if (n == m or not n or not m) and max(n, m) < LION_DOG_STEPS:
            mark |= _VACATED
        if max(n, m) <= _UNBLOCKED_REACH:
            mark |= _ARRIVAL
        marks[x] = mark
    return bytes(marks)


def _direction(a: int, b: int) -> int:
    """The index in :data:`DIRS` of the line from ``a`` to ``b`` (on one line, not a)."""
    dr, dc = ROW[b] - ROW[a], COL[b] - COL[a]
    return _DIR_OF[((dc > 0) - (dc < 0), (dr > 0) - (dr < 0))]


def _hook_corners(s: int, q: int, diagonal: bool) -> tuple[int, ...]:
    """The squares where a hook path from ``s`` to ``q`` (not in one line) turns (§6.4): where
    the rook (or bishop) lines of ``s`` meet those of ``q``, on the board."""
    r1, c1, r2, c2 = ROW[s], COL[s], ROW[q], COL[q]
    if not diagonal:
        return r2 * SIZE + c1, r1 * SIZE + c2  # the rook lines always meet on the board
    if (r1 + c1 + r2 + c2) % 2:
        return ()
    corners = []
    for a, b in ((c1 - r1, c2 + r2), (c2 - r2, c1 + r1)):
        c, r = (a + b) // 2, (b - a) // 2
        if 0 <= r < SIZE and 0 <= c < SIZE:
            corners.append(r * SIZE + c)
    return tuple(corners)


def _squares_between(a: int, b: int) -> tuple[int, ...]:
    dr, dc = ROW[b] - ROW[a], COL[b] - COL[a]
    n = max(abs(dr), abs(dc))
    step = (dr // n) * SIZE + dc // n
    return tuple(a + step * i for i in range(1, n))


def _move_order(move: Move) -> tuple[Any, ...]:
    return (move.target, tuple(sorted(move.captures)), move.becomes)
