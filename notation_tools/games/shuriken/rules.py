"""The rules of Shuriken 2D: the position, legality, and the incremental loop (win) test.

A :class:`Position` keeps the board and one union-find of stone groups for both colours (a
colour's groups never touch the other's), updated on every placement and undone on ``pop``.
The win test is the cycle rank of the port graph (§3.4): after a placement only the mover's six
ports are looked up, and only when the placement merged groups. Sections (§3.4, ...) are those
of the rules reference, ``docs/rules/shuriken-2d.md``.

This module does not parse or format text (see ``notation.py`` and ``position.py``).

>>> pos = Position.start()
>>> pos.push(Place(10, 11)); pos.turn, pos.rank(0), pos.outcome()
(1, 0, None)
>>> pos.pop()
Place(row=10, col=11)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from notation_tools.games import base
from notation_tools.games.base import IllegalMoveError, Outcome, Side
from notation_tools.games.shuriken.moves import PLACES, SWAP, Move, Place, Swap
from notation_tools.games.shuriken.options import STANDARD_OPTIONS, Options
from notation_tools.games.shuriken.pieces import (
    BLACK, CELLS, EMPTY, GRID, HOLE, HOLES, NEIGHBOURS, NODES, PORT_COUNT, PORTS, PRE_PLACED,
    SIDE_NAMES, START_BOARD, WHITE, WIN_RANK, transpose)

# --------------------------------------------------------------------------------------------
# Loops (§3.2-§3.4)

LOOP_TYPES = {1: "single", 2: "double", 3: "triple"}
_SUBSETS = ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2))
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")

_PlaceRecord = tuple[int, int, int, list[tuple[int, list[int]]] | None, int]
"""What undoes a placement (:meth:`Position._place`): the cell, its colour, the root of the
group it joined (-1: a group of its own), the groups merged into it as (root, stones) or None,
and the colour's rank before it."""


def loop_name(nodes: Sequence[str]) -> str:
    """The report form of a loop (§3.4).

    >>> loop_name(("W1", "W3"))
    'double{W1,W3}'
    """
    return f"{LOOP_TYPES[len(nodes)]}{{{','.join(nodes)}}}"


def _canonical(ports: Sequence[int]) -> tuple[int, ...]:
    seen: dict[int, int] = {}
    return tuple([seen.setdefault(group, len(seen)) for group in ports])


_ANALYSIS: dict[tuple[int, ...], tuple[int, tuple[tuple[str, ...], ...]]] = {}


def analyse_ports(ports: Sequence[int]) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """Cycle rank and loops of a port graph (§3.2, §3.4).

    ``ports`` is (a₁, b₁, a₂, b₂, a₃, b₃): the groups of sides s₁ and s₂ of W1, W2, W3.
    Returns the rank (the player has won when it reaches ``WIN_RANK``, 2) and every loop as
    its node set: a non-empty node set whose edges form one connected subgraph with all
    degrees even.
    Only the partition of the six ports matters, so results are cached by it (203 patterns).

    >>> analyse_ports((7, 7, 1, 2, 3, 3))    # W1 and W3 each closed on themselves
    (2, (('W1',), ('W3',)))
    >>> analyse_ports((1, 2, 1, 2, 3, 4))    # W1 top-W2 top and W1 bottom-W2 bottom
    (1, (('W1', 'W2'),))
    """
    key = _canonical(ports)
    known = _ANALYSIS.get(key)
    if known is not None:
        return known
    pairs = [(key[2 * i], key[2 * i + 1]) for i in range(len(NODES))]
    parent = list(range(PORT_COUNT))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    rank = 0
    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra == rb:
            rank += 1          # this window closes a circuit of the port graph
        else:
            parent[ra] = rb
    loops = []
    for subset in _SUBSETS:
        degree = [0] * PORT_COUNT
        link = list(range(PORT_COUNT))

        def root(x: int) -> int:
            while link[x] != x:
                x = link[x]
            return x

        for i in subset:
            a, b = pairs[i]
            degree[a] += 1
            degree[b] += 1     # a self-loop (a == b) counts 2
            link[root(a)] = root(b)
        vertices = {v for i in subset for v in pairs[i]}
        if all(degree[v] % 2 == 0 for v in vertices) and len({root(v) for v in vertices}) == 1:
            loops.append(tuple(NODES[i] for i in subset))
    result = (rank, tuple(loops))
    _ANALYSIS[key] = result
    return result


def _count(n: int) -> str:
    return _COUNT_WORDS[n] if n < len(_COUNT_WORDS) else str(n)


# --------------------------------------------------------------------------------------------
# Position


_PORT_STONES = {colour: tuple(stone for pair in PORTS[colour] for stone in pair)
                for colour in (BLACK, WHITE)}
"""Colour → its six port stones, in the order ``analyse_ports`` takes their groups."""

_START_GROUPS: list[tuple[list[int], list[int], dict[int, list[int]], list[int]]] = []
"""The start board with its groups' labels, members and ranks, once one was built."""


class Position(base.Position[Move]):
    """A Shuriken 2D position: board, side to move, groups, ranks, history, rule options.

    ``turn`` is the side to move (0 Black, 1 White). ``push`` trusts that its move passed
    :meth:`check` (or came from :meth:`legal_moves`); ``pop`` undoes exactly.
    Build one with :meth:`start` or ``position.parse_position``.

    >>> pos = Position.start()
    >>> sum(1 for _ in pos.legal_moves())
    319
    """

    __slots__ = ("board", "label", "members", "turn", "ranks", "winner", "win_ply", "moves",
                 "_undo", "start_turn", "standard_start", "options", "_outcome")

    def __init__(self, board: Sequence[int], turn: Side, *,
                 options: Options = STANDARD_OPTIONS, standard_start: bool = False) -> None:
        """A position with grid contents ``board`` (see ``pieces``) and ``turn`` to move,
        played under ``options`` (``base.options_of(Options, rules)``).

        Does not check that the pre-placed stones and holes are in place (the codec does).
        """
        self.board = list(board)
        self.turn = turn
        self.options = options
        self.standard_start = standard_start
        self.start_turn = turn
        self.moves: list[Move] = []
        self._undo: list[_PlaceRecord] = []
        self._outcome: Outcome | None = None
        if _START_GROUPS and self.board == _START_GROUPS[0][0]:
            # Every game from the start board begins with the same groups: copied, not found
            # again (members' lists grow in place, so each is copied).
            _, label, members, ranks = _START_GROUPS[0]
            self.label = label[:]
            self.members = {root: group[:] for root, group in members.items()}
            self.ranks = ranks[:]
        else:
            self._build_groups()
            self.ranks = [0, self._compute_rank(BLACK), self._compute_rank(WHITE)]
            if not _START_GROUPS and self.board == list(START_BOARD):
                _START_GROUPS.append((self.board[:], self.label[:], {
                    root: group[:] for root, group in self.members.items()}, self.ranks[:]))
        self.winner: Side | None = None
        self.win_ply = 0
        for colour in (BLACK, WHITE):
            if self.ranks[colour] >= WIN_RANK:
                self.winner = colour - 1

    @classmethod
    def start(cls, *, options: Options = STANDARD_OPTIONS) -> Position:
        """The start position of §1.5, Black to move."""
        return cls(START_BOARD, 0, options=options, standard_start=True)

    def _build_groups(self) -> None:
        board = self.board
        label = [-1] * GRID
        members: dict[int, list[int]] = {}
        for cell in range(GRID):
            colour = board[cell]
            if colour not in (BLACK, WHITE) or label[cell] != -1:
                continue
            group = [cell]
            label[cell] = cell
            for stone in group:    # the list grows while it is walked: a breadth-first fill
                for other in NEIGHBOURS[stone]:
                    if board[other] == colour and label[other] == -1:
                        label[other] = cell
                        group.append(other)
            members[cell] = group
        self.label = label
        self.members = members

    # ---- queries -------------------------------------------------------------------------

    def _ports(self, colour: int) -> tuple[int, ...]:
        label = self.label
        return tuple([label[stone] for stone in _PORT_STONES[colour]])

    def _compute_rank(self, colour: int) -> int:
        return analyse_ports(self._ports(colour))[0]

    def rank(self, side: Side) -> int:
        """The cycle rank of ``side``'s port graph (§3.4): it has won at ``WIN_RANK``."""
        return self.ranks[side + 1]

    def loops(self, side: Side) -> tuple[str, ...]:
        """``side``'s loops in report form, by type then nodes (§3.4).

        >>> Position.start().loops(0)
        ()
        """
        if not self.ranks[side + 1]:
            return ()  # a port graph of cycle rank 0 is a forest: no loop
        return tuple(loop_name(nodes) for nodes in analyse_ports(self._ports(side + 1))[1])

    def loop_groups(self, side: Side) -> set[int]:
        """Cells of ``side``'s stones (frame points included) in a group that carries a loop."""
        ports = self._ports(side + 1)
        cells: set[int] = set()
        for nodes in analyse_ports(ports)[1]:
            for node in nodes:
                i = NODES.index(node)
                cells.update(self.members[ports[2 * i]], self.members[ports[2 * i + 1]])
        return cells

    def groups(self, side: Side) -> list[list[int]]:
        """``side``'s groups of stones (frame points and pre-placed stones included)."""
        colour = side + 1
        return [group for root, group in self.members.items() if self.board[root] == colour]

    @property
    def ply(self) -> int:
        """Moves made since this position object was set up."""
        return len(self.moves)

    def move_number(self, ply: int) -> int:
        """The numbered move that ply ``ply`` (1-based) belongs to, Black's turn opening each."""
        return (ply - 1 + self.start_turn) // 2 + 1

    def placed_stones(self, side: Side) -> int:
        """Stones of ``side`` on board cells that are not pre-placed."""
        colour = side + 1
        board = self.board
        return sum(1 for cell in CELLS if board[cell] == colour and cell not in PRE_PLACED)

    def win_detail(self, side: Side) -> str:
        loops = self.loops(side)
        return f"{SIDE_NAMES[side]} has {_count(len(loops))} loops: {' '.join(loops)}"

    def outcome(self) -> Outcome | None:
        """The winner once a player has two distinct loops (§2.3); never a draw (§4.2)."""
        if self.winner is None:
            return None
        if self._outcome is None:
            self._outcome = Outcome(self.winner, "two-loops", self.win_detail(self.winner))
        return self._outcome

    # Nothing but the winner decides the outcome (the board always fills to a win, §4.2), so
    # the replay's question before each move needs no second call through the base class.
    outcome_unless_stuck = outcome

    def opening_cell(self) -> int:
        """The cell of the game's first move, which is always a placement (a swap can only
        answer it, §6)."""
        opening = self.moves[0]
        assert isinstance(opening, Place)
        return opening.target

    def can_swap(self) -> bool:
        """Whether ``swap`` is legal now: option on, ply 2 of a game from the standard start."""
        return (self.options.swap and self.standard_start and len(self.moves) == 1
                and self.winner is None and self.moves[0].__class__ is Place)

    def generate_legal_moves(self, *, origin: int | None = None,
                             target: int | None = None) -> Iterator[Move]:
        """Every legal move: a placement on each empty cell (§2.2), then ``swap`` if legal.

        Nothing once the game is over (§2.3). ``target`` (a grid index) keeps only the
        placement on that cell (``swap`` names no cell); ``origin`` is ignored, a placement
        comes from no square.

        >>> [move.name for move in Position.start().legal_moves(target=Place(10, 11).target)]
        ['K10']
        """
        if self.winner is not None:
            return
        board = self.board
        if target is not None:
            if 0 <= target < GRID and board[target] == EMPTY:
                yield PLACES[target]
            return
        for cell in CELLS:
            if board[cell] == EMPTY:
                yield PLACES[cell]
        if self.can_swap():
            yield SWAP

    def count_legal_moves(self) -> int:
        """How many legal moves there are, without building them (perft's last ply): only
        board cells are ever ``EMPTY``."""
        if self.winner is not None:
            return 0
        return self.board.count(EMPTY) + self.can_swap()

    def empty_cells(self) -> list[int]:
        """Grid indices of the empty cells (none once the game is over)."""
        if self.winner is not None:
            return []
        board = self.board
        return [cell for cell in CELLS if board[cell] == EMPTY]

    def check(self, move: Move) -> Move:
        """Return ``move`` if it is legal here, else raise the error naming the broken rule.

        Raises :class:`IllegalMoveError` with code ``E-MOVE-AFTER-END`` (§2.3) or
        ``E-ILLEGAL-MOVE`` (hole §1.2, pre-placed §1.4, occupied §2.2, swap §6).

        >>> pos = Position.start()
        >>> pos.check(Place(6, 14))
        Traceback (most recent call last):
        ...
        notation_tools.games.base.IllegalMoveError: inside window W1, not a cell
        """
        if self.winner is not None:
            raise self._after_end_error(self.winner)
        if move.__class__ is Place:
            if self.board[move.target] == EMPTY:
                return move
            raise self._occupied_error(move)
        if self.can_swap():
            return move
        raise IllegalMoveError(
            "only with swap=yes, and only as White's first placement (ply 2 of a game from "
            "the standard start)", rule="§6")

    def _after_end_error(self, winner: Side) -> IllegalMoveError:
        detail = self.win_detail(winner)
        if self.win_ply == 0:
            text = f"the game was already over in the set-up position ({detail})"
        else:
            text = f"the game ended at move {self.move_number(self.win_ply)} ({detail})"
        return IllegalMoveError(text, rule="§2.3", code="E-MOVE-AFTER-END")

    def _occupied_error(self, move: Place) -> IllegalMoveError:
        cell = move.target
        if self.board[cell] == HOLE:
            return IllegalMoveError(f"inside window {HOLES[cell]}, not a cell", rule="§1.2")
        colour = self.board[cell]
        if cell in PRE_PLACED and PRE_PLACED[cell][0] == colour:
            _, window, side = PRE_PLACED[cell]
            return IllegalMoveError(
                f"occupied (pre-placed {SIDE_NAMES[colour - 1].lower()} stone, {side} of "
                f"{window})", rule="§1.4")
        for ply in range(len(self.moves), 0, -1):
            earlier = self.moves[ply - 1]
            if earlier.__class__ is Place and earlier.target == cell:
                who = SIDE_NAMES[(self.start_turn + ply - 1) % 2]
                return IllegalMoveError(
                    f"occupied ({who} placed there at move {self.move_number(ply)})",
                    rule="§2.2")
            if earlier.__class__ is Swap and transpose(self.opening_cell()) == cell:
                return IllegalMoveError(
                    f"occupied (White's stone from the swap at move {self.move_number(ply)})",
                    rule="§2.2")
        return IllegalMoveError(
            f"occupied ({SIDE_NAMES[colour - 1].lower()} stone of the set-up position)",
            rule="§2.2")

    # ---- changes -------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move`` (legal here, see :meth:`check`); sets the winner if it wins (§2.3)."""
        if type(move) is Place:
            self._undo.append(self._place(move.target, self.turn + 1))
        else:
            self._push_swap()
        self.moves.append(move)
        self.turn ^= 1

    def _place(self, cell: int, colour: int) -> _PlaceRecord:
        board = self.board
        label = self.label
        board[cell] = colour
        # The groups of the mover's stones next to the cell: ``root`` the first one met,
        # ``roots`` all of them in the order met, once two differ (most placements touch one).
        root = -1
        roots: list[int] | None = None
        for other in NEIGHBOURS[cell]:
            if board[other] == colour:
                found = label[other]
                if root == -1:
                    root = found
                elif found != root:
                    if roots is None:
                        roots = [root, found]
                    elif found not in roots:
                        roots.append(found)
        if root == -1:
            label[cell] = cell
            self.members[cell] = [cell]
            return (cell, colour, -1, None, 0)
        members = self.members
        if roots is None:
            label[cell] = root
            members[root].append(cell)
            return (cell, colour, root, None, 0)
        # The rank depends only on which of the six ports share a group (§3.4): merging
        # groups joins ports that were apart only when two of the merged groups hold ports,
        # so otherwise the rank stands and the ports are not analysed again.
        ports = self._ports(colour)
        rejoins_ports = sum(1 for root in roots if root in ports) > 1
        # Merge into the largest group, relabelling the others: find() is then one lookup.
        roots.sort(key=lambda r: len(members[r]), reverse=True)
        big = roots[0]
        group = members[big]
        label[cell] = big
        group.append(cell)
        merged: list[tuple[int, list[int]]] = []
        for root in roots[1:]:
            # The record keeps the absorbed list unchanged, so that pop can split it off again.
            stones = members.pop(root)
            for stone in stones:
                label[stone] = big
            group.extend(stones)
            merged.append((root, stones))
        ranks = self.ranks
        old_rank = ranks[colour]
        if rejoins_ports:
            rank = analyse_ports(self._ports(colour))[0]
            ranks[colour] = rank
            if rank >= WIN_RANK and self.winner is None:
                self.winner = colour - 1
                self.win_ply = len(self.moves) + 1
        return (cell, colour, big, merged, old_rank)

    def _unplace(self, record: _PlaceRecord) -> None:
        cell, colour, big, merged, old_rank = record
        label = self.label
        members = self.members
        if big == -1:
            del members[cell]
        else:
            group = members[big]
            if merged is not None:
                for root, stones in reversed(merged):
                    del group[-len(stones):]
                    for stone in stones:
                        label[stone] = root
                    # A fresh list: undo records are shared by copies and must stay unchanged.
                    members[root] = stones[:]
                self.ranks[colour] = old_rank
            group.pop()
        label[cell] = -1
        self.board[cell] = EMPTY

    def _push_swap(self) -> None:
        black = self.opening_cell()
        self._unplace(self._undo.pop())
        self._undo.append(self._place(transpose(black), WHITE))

    def pop(self) -> Move:
        """Undo the last move and return it."""
        move = self.moves.pop()
        record = self._undo.pop()
        self._unplace(record)
        if move.__class__ is Swap:
            self._undo.append(self._place(self.opening_cell(), BLACK))
        if self.winner is not None and self.win_ply == len(self.moves) + 1:
            self.winner = None
            self.win_ply = 0
            self._outcome = None
        self.turn ^= 1
        return move

    def copy(self) -> Position:
        """An independent copy (history included, so it can be popped)."""
        other = object.__new__(Position)
        other.board = self.board[:]
        other.label = self.label[:]
        other.members = {root: group[:] for root, group in self.members.items()}
        other.turn = self.turn
        other.ranks = self.ranks[:]
        other.winner = self.winner
        other.win_ply = self.win_ply
        other.moves = self.moves[:]
        other._undo = self._undo[:]   # records are never changed once made
        other.start_turn = self.start_turn
        other.standard_start = self.standard_start
        other.options = self.options
        other._outcome = self._outcome
        return other
