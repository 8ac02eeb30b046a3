"""Shuriken 2D rules: the §11 test vectors, the §12 acceptance examples, every rule of §2-§4."""

from __future__ import annotations

import pathlib
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from shuriken_vectors import (  # noqa: E402
    FIGURE_COUNTS, FIGURES, ROTATED_LOOPS, S1_AFTER_K10, S2, S5_AFTER_SWAP, S6, START,
    TRANSPOSED_LOOPS)

from notation_tools.games.base import IllegalMoveError, MoveSyntaxError  # noqa: E402
from notation_tools.games.shuriken import GAME  # noqa: E402
from notation_tools.games.shuriken.pieces import (  # noqa: E402
    BLACK, CELL_INDEX, CELLS, EMPTY, NEIGHBOURS, PORTS, PRE_PLACED, START_BOARD, WHITE, rotate,
    transpose)
from notation_tools.games.shuriken.position import format_position, parse_position  # noqa: E402
from notation_tools.games.shuriken.moves import PLACES, SWAP, Place, Swap  # noqa: E402
from notation_tools.games.shuriken.rules import Position, analyse_ports  # noqa: E402
from notation_tools.analysis.perft import perft
from notation_tools.analysis.generate import random_move

STANDARD = GAME.parse_rules(None)
SWAP_RULES = GAME.parse_rules("swap=yes")


def figure_board(stones: str, *, mapping=None, colour: int = BLACK) -> list[int]:
    board = list(START_BOARD)
    for name in stones.split():
        cell = CELL_INDEX[name]
        board[mapping(cell) if mapping else cell] = colour
    return board


def play(tokens: str, position: Position | None = None) -> Position:
    position = position or GAME.start_position(STANDARD)
    for token in tokens.split():
        position.push(GAME.parse_move(token, position))
    return position


def reference_rank(board: list[int], colour: int) -> int:
    """An independent from-scratch rank: flood-fill groups, then §3.4 on the six ports."""
    group: dict[int, int] = {}
    for cell in range(len(board)):
        if board[cell] == colour and cell not in group:
            group[cell] = cell
            stack = [cell]
            while stack:
                for other in NEIGHBOURS[stack.pop()]:
                    if board[other] == colour and other not in group:
                        group[other] = cell
                        stack.append(other)
    links: dict[int, int] = {}

    def find(x: int) -> int:
        while links.get(x, x) != x:
            x = links[x]
        return x

    rank = 0
    for a, b in PORTS[colour]:
        ra, rb = find(group[a]), find(group[b])
        if ra == rb:
            rank += 1
        else:
            links[ra] = rb
    return rank


# ---- §11.1 the figures -------------------------------------------------------------------


@pytest.mark.parametrize("name, stones, loops, rank", FIGURES, ids=[f[0] for f in FIGURES])
def test_s11_1_figure_loops_and_rank(name, stones, loops, rank):
    """§11.1: each figure's stones give the listed Black loops and rank; White has rank 0."""
    if name in FIGURE_COUNTS:
        assert len(stones.split()) == FIGURE_COUNTS[name]
    position = Position(figure_board(stones), 0)
    assert position.loops(0) == loops
    assert position.rank(0) == rank
    assert position.rank(1) == 0 and position.loops(1) == ()
    assert (position.winner == 0) == (rank >= 2)
    assert reference_rank(position.board, BLACK) == rank


@pytest.mark.parametrize("name, stones, loops, rank", FIGURES, ids=[f[0] for f in FIGURES])
def test_s11_1_figures_built_by_placements_in_any_order(name, stones, loops, rank):
    """§3.4 incremental form: placing the figure's stones one by one, in any order, gives the
    same rank as the from-scratch test; the win is found at the stone that reaches rank 2."""
    cells = [CELL_INDEX[s] for s in stones.split()]
    for seed in range(3):
        random.Random(seed).shuffle(cells)
        position = Position.start()
        previous = 0
        for cell in cells:
            position.turn = 0      # White passes in a figure: only Black stones are added
            position.push(PLACES[cell])
            assert position.rank(0) >= previous   # §4.1 monotonic
            previous = position.rank(0)
            if position.winner is not None:
                break
        if rank >= 2:
            assert position.winner == 0 and position.rank(0) >= 2
        else:
            assert position.winner is None and position.rank(0) == rank


def test_s12_s3_ring_round_one_window_is_not_a_win():
    """§12 S3 / §3.2: V5 surrounds W1 completely, yet only the loop {W1} counts: no win."""
    position = Position(figure_board(FIGURES[5][1]), 0)
    assert position.loops(0) == ("single{W1}",)
    assert position.rank(0) == 1
    assert position.outcome() is None


def test_s12_s4_loop_reports():
    """§12 S4: the loop reports of V6, V7 and V4."""
    reports = {name: " ".join(Position(figure_board(stones), 0).loops(0))
               for name, stones, _, _ in FIGURES}
    assert reports["V6"] == "single{W1} single{W3} double{W1,W3}"
    assert reports["V7"] == "single{W3} double{W1,W2} triple{W1,W2,W3}"
    assert reports["V4"] == "triple{W1,W2,W3}"


# ---- §11.2 symmetry oracles ---------------------------------------------------------------


@pytest.mark.parametrize("name, stones, loops, rank", FIGURES, ids=[f[0] for f in FIGURES])
def test_s11_2_rotation_keeps_rank_and_swaps_w1_w2(name, stones, loops, rank):
    """§11.2: a 180° rotation keeps the rank; W1 <-> W2 in the loop report."""
    position = Position(figure_board(stones, mapping=rotate), 0)
    assert position.rank(0) == rank
    assert position.loops(0) == ROTATED_LOOPS[name]


@pytest.mark.parametrize("name, stones, loops, rank", FIGURES, ids=[f[0] for f in FIGURES])
def test_s11_2_transpose_gives_white_the_mirror_loops(name, stones, loops, rank):
    """§11.2: transposed and made white, a figure gives White the mirrored loops; Black 0."""
    position = Position(figure_board(stones, mapping=transpose, colour=WHITE), 1)
    assert position.rank(1) == rank
    assert position.loops(1) == TRANSPOSED_LOOPS[name]
    assert position.rank(0) == 0
    assert (position.winner == 1) == (rank >= 2)


def test_s11_2_transpose_examples_from_the_text():
    """§11.2: D1 -> A4 and M2 -> B13 under the transpose."""
    assert transpose(CELL_INDEX["D1"]) == CELL_INDEX["A4"]
    assert transpose(CELL_INDEX["M2"]) == CELL_INDEX["B13"]


def _transform_tokens(tokens: list[str], mapping) -> list[str]:
    return [PLACES[mapping(CELL_INDEX[t])].name for t in tokens]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32))
def test_s11_2_random_records_under_both_symmetries(seed):
    """§11.2: any record transformed by rotation, or by transposition from a colour-swapped
    start, gives the transformed result, ply by ply."""
    rng = random.Random(seed)
    position = Position.start()
    tokens = []
    while position.winner is None:
        move = random_move(GAME, position, rng)
        tokens.append(move.name)
        position.push(move)
    rotated = play(" ".join(_transform_tokens(tokens, rotate)))
    assert rotated.winner == position.winner and rotated.ply == position.ply
    # Transposing swaps colours: the original Black's moves become White's. Start White to
    # move from the (self-symmetric) start position.
    transposed = parse_position(START[:-1] + "w")
    for token in _transform_tokens(tokens, transpose):
        transposed.push(GAME.parse_move(token, transposed))
    assert transposed.winner == 1 - position.winner
    assert transposed.ply == position.ply
    assert transposed.rank(1 - position.winner) == position.rank(position.winner)


# ---- §4 properties ------------------------------------------------------------------------


EMPTY_CELLS = [cell for cell in CELLS if START_BOARD[cell] == EMPTY]


FULL_FILLINGS = st.lists(st.booleans(), min_size=len(EMPTY_CELLS), max_size=len(EMPTY_CELLS))


def check_duality(colours: list[bool]) -> None:
    board = list(START_BOARD)
    for cell, black in zip(EMPTY_CELLS, colours):
        board[cell] = BLACK if black else WHITE
    position = Position(board, 0)
    assert position.rank(0) + position.rank(1) == 3
    assert reference_rank(board, BLACK) == position.rank(0)
    assert reference_rank(board, WHITE) == position.rank(1)
    assert position.winner is not None


@settings(max_examples=150, deadline=None)
@given(FULL_FILLINGS)
def test_s4_2_no_draw_duality_on_complete_fillings(colours):
    """§4.2: on any full board rank(Black) + rank(White) == 3: exactly one player has ≥ 2."""
    check_duality(colours)


@pytest.mark.parametrize("seed", range(20))
def test_s4_2_duality_on_evenly_mixed_fillings(seed):
    """§4.2: the same on coin-flip fillings (hypothesis favours lopsided lists)."""
    rng = random.Random(seed)
    check_duality([rng.random() < 0.5 for _ in EMPTY_CELLS])


def test_s4_2_all_four_splits_occur():
    """§4.2: the splits (3,0), (2,1), (1,2), (0,3) all occur on full boards."""
    seen = set()
    rng = random.Random(7)
    for _ in range(400):
        bias = rng.random()
        board = list(START_BOARD)
        for cell in CELLS:
            if board[cell] == EMPTY:
                board[cell] = BLACK if rng.random() < bias else WHITE
        position = Position(board, 0)
        seen.add((position.rank(0), position.rank(1)))
        if len(seen) == 4:
            break
    assert seen == {(3, 0), (2, 1), (1, 2), (0, 3)}


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_s4_random_games_end_with_one_winner_and_monotonic_ranks(seed):
    """§2.3, §4.1-§4.3: ranks never decrease, the incremental rank equals a from-scratch
    one, the game ends with exactly one winner within 319 placements."""
    rng = random.Random(seed)
    position = Position.start()
    last = [0, 0]
    while position.winner is None:
        position.push(random_move(GAME, position, rng))
        ranks = [position.rank(0), position.rank(1)]
        assert ranks[0] >= last[0] and ranks[1] >= last[1]
        assert ranks[0] + ranks[1] <= 3
        last = ranks
    assert position.ply <= 319
    assert reference_rank(position.board, BLACK) == position.rank(0)
    assert reference_rank(position.board, WHITE) == position.rank(1)
    assert position.rank(position.winner) >= 2 and position.rank(1 - position.winner) <= 1
    assert list(position.legal_moves()) == []


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_merges_skip_the_port_analysis_only_when_the_rank_cannot_change(seed, swap):
    """A merge analyses the ports again only when two merged groups hold ports (#14): after
    every placement, swap and pop, each side's kept rank equals the ports analysed anew,
    and only the last placement wins."""
    rng = random.Random(seed)
    position = GAME.start_position(SWAP_RULES if swap else STANDARD)

    def analysed(colour: int) -> int:
        return analyse_ports(tuple(position.label[stone] for pair in PORTS[colour]
                                   for stone in pair))[0]

    while position.winner is None:
        position.push(random_move(GAME, position, rng))
        assert position.ranks[1:] == [analysed(BLACK), analysed(WHITE)]
    assert position.rank(position.winner) >= 2 > position.rank(1 - position.winner)
    while position.ply:
        position.pop()
        assert position.ranks[1:] == [analysed(BLACK), analysed(WHITE)]
        assert position.winner is None


def test_s4_1_one_placement_can_raise_the_rank_by_two():
    """§4.1: a stone touching three port groups makes two unions and raises the rank by 2.

    Group A joins the top edge and W1's top (N1-N3) and runs down to J9; group B is W1's
    bottom with L8; group C runs up from the bottom edge to K10. K9 touches all three."""
    stones = "N1 N2 N3 L4 K5 K6 K7 J8 J9 L8 K10 K11 K12 K13 K14 K15 K16 K17 K18 K19"
    position = Position(figure_board(stones), 0)
    assert position.rank(0) == 0
    position.push(GAME.parse_move("K9", position))
    assert position.rank(0) == 2
    assert position.loops(0) == ("single{W1}", "single{W3}", "double{W1,W3}")
    assert position.winner == 0
    position.pop()
    assert position.rank(0) == 0 and position.winner is None


def test_s3_4_rank_is_independent_of_node_order():
    """§3.4: the result does not depend on the order of the nodes (all 203 partitions)."""
    def partitions(n, start=0, current=()):
        if len(current) == n:
            yield current
            return
        for label in range(max(current, default=-1) + 2):
            yield from partitions(n, start, current + (label,))

    count = 0
    for ports in partitions(6):
        count += 1
        rank, loops = analyse_ports(ports)
        pairs = [ports[0:2], ports[2:4], ports[4:6]]
        for order in ((1, 0, 2), (2, 1, 0), (0, 2, 1)):
            permuted = tuple(x for i in order for x in pairs[i])
            assert analyse_ports(permuted)[0] == rank
        # The rank is the dimension of the loop space: rank 0 no loops, rank 1 one loop,
        # rank >= 2 at least two (§3.3).
        assert (len(loops) == 0) == (rank == 0)
        assert (len(loops) == 1) == (rank == 1)
    assert count == 203


# ---- §11.3 short links --------------------------------------------------------------------


@pytest.mark.parametrize("stones, loops", [
    ("L4 K5 K6 K7 K8 L8", ("single{W1}",)),
    ("P4 Q4 Q5 Q6 Q7 P8", ("single{W1}",)),
    ("D12 C13 C14 C15 C16 D16", ("single{W2}",)),
    ("N1 N2 N3", ()),
    ("F17 F18 F19", ()),
])
def test_s11_3_short_links(stones, loops):
    """§11.3: the example links on the empty board and the loops they give."""
    position = Position(figure_board(stones), 0)
    assert position.loops(0) == loops
    assert position.rank(0) == len(loops)


def test_s11_3_top_edge_to_w1_top_joins_the_groups():
    """§11.3: N1 N2 N3 joins the top edge with W1's top side (one group), without a loop."""
    position = Position(figure_board("N1 N2 N3"), 0)
    assert position.label[CELL_INDEX["N4"]] == position.label[PORTS[BLACK][2][0]]


# ---- §12 acceptance -----------------------------------------------------------------------


def test_s12_s1_k10_from_the_start():
    """§12 S1: K10 is legal and gives the listed position string."""
    position = play("K10")
    assert format_position(position) == S1_AFTER_K10


@pytest.mark.parametrize("token, window", [("N6", "W1"), ("M5", "W1"), ("F14", "W2")])
def test_s12_s1_hole_cells_are_illegal(token, window):
    """§1.2, §12 S1: a hole is not a cell."""
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move(token, GAME.start_position(STANDARD))
    assert caught.value.code == "E-ILLEGAL-MOVE"
    assert caught.value.message == f"inside window {window}, not a cell"
    assert caught.value.rule == "§1.2"


@pytest.mark.parametrize("token, message", [
    ("N4", "occupied (pre-placed black stone, top of W1)"),
    ("L5", "occupied (pre-placed white stone, left of W1)"),
    ("G16", "occupied (pre-placed black stone, bottom of W2)"),
    ("H14", "occupied (pre-placed white stone, right of W2)"),
])
def test_s12_s1_pre_placed_stones_are_occupied(token, message):
    """§1.4, §12 S1: pre-placed stones count as occupied cells."""
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move(token, GAME.start_position(STANDARD))
    assert caught.value.message == message
    assert caught.value.rule == "§1.4"


@pytest.mark.parametrize("token, message", [
    ("T5", "column T is off the board (A–S)"),
    ("A20", "row 20 is off the board (1–19)"),
    ("A0", "row 0 is off the board (1–19)"),
])
def test_s12_s1_off_the_board(token, message):
    """§1.1, §8, §12 S1: cells off the board are E-BAD-SQUARE."""
    with pytest.raises(MoveSyntaxError) as caught:
        GAME.parse_move(token, GAME.start_position(STANDARD))
    assert caught.value.code == "E-BAD-SQUARE"
    assert caught.value.message == message


def test_s12_s1_occupied_cell():
    """§2.2, §12 S1: `1. K10 K10`: the second is illegal (occupied)."""
    position = play("K10")
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move("K10", position)
    assert caught.value.code == "E-ILLEGAL-MOVE"
    assert caught.value.message == "occupied (Black placed there at move 1)"
    position = play("K10 J9 A1")
    with pytest.raises(IllegalMoveError, match=r"occupied \(White placed there at move 1\)"):
        GAME.parse_move("J9", position)


def test_s2_2_occupied_set_up_stone():
    """§2.2: a stone of a set-up position is occupied too."""
    position = GAME.start_position(STANDARD, fen=S2)
    with pytest.raises(IllegalMoveError, match=r"occupied \(black stone of the set-up"):
        GAME.parse_move("D1", position)


@pytest.mark.parametrize("token", ["P4", "L8", "A1", "H12", "D16", "S1", "A19", "S19"])
def test_s12_s1_ring_corner_cells_are_ordinary(token):
    """§1.4, §12 S1: P4, L8, H12, D16 and the board corners are ordinary empty cells."""
    position = play(token)
    assert position.board[CELL_INDEX[token]] == BLACK


def test_s12_s2_winning_placement():
    """§12 S2: from the set-up position B12 completes {W3}: rank 2, Black wins (1-0)."""
    position = GAME.start_position(STANDARD, fen=S2)
    assert position.loops(0) == ("single{W1}",) and position.rank(0) == 1
    assert position.outcome() is None
    position.push(GAME.parse_move("B12", position))
    assert position.loops(0) == ("single{W1}", "single{W3}")
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "two-loops"
    assert GAME.result_text(outcome) == "1-0"
    assert outcome.detail == "Black has two loops: single{W1} single{W3}"


def test_s12_s2_move_after_the_end():
    """§2.3, §8, §12 S2: `1. B12 A1`: A1 is E-MOVE-AFTER-END with the spec's message."""
    position = play("B12", GAME.start_position(STANDARD, fen=S2))
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move("A1", position)
    assert caught.value.code == "E-MOVE-AFTER-END"
    assert caught.value.message == ("the game ended at move 1 (Black has two loops: "
                                    "single{W1} single{W3})")
    assert list(position.legal_moves()) == []


def test_s5_finished_set_up_position_takes_no_move():
    """§5: a set-up position in which a player already has rank ≥ 2 is a finished game."""
    position = play("B12", GAME.start_position(STANDARD, fen=S2))
    finished = GAME.start_position(STANDARD, fen=format_position(position))
    assert finished.outcome().winner == 0
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move("A1", finished)
    assert caught.value.code == "E-MOVE-AFTER-END"
    assert "set-up position" in caught.value.message


def test_s12_s6_white_wins():
    """§12 S6: S2 transposed, White to move: L2 gives White {W2} and {W3}: 0-1."""
    position = GAME.start_position(STANDARD, fen=S6)
    assert position.loops(1) == ("single{W2}",) and position.rank(1) == 1
    position.push(GAME.parse_move("L2", position))
    assert position.loops(1) == ("single{W2}", "single{W3}")
    assert GAME.result_text(position.outcome()) == "0-1"


def test_s12_s6_is_the_transpose_of_s2():
    """§12 S6: the S6 string is exactly S2 transposed with colours swapped."""
    s2 = parse_position(S2)
    board = list(START_BOARD)
    for cell in CELLS:
        if cell not in PRE_PLACED and s2.board[cell] in (BLACK, WHITE):
            board[transpose(cell)] = BLACK + WHITE - s2.board[cell]
    assert format_position(Position(board, 1)) == S6


# ---- §6 swap ------------------------------------------------------------------------------


def test_s12_s5_swap():
    """§6, §12 S5: with swap=yes, `1. K10 swap` puts a white stone on J11; Black to move."""
    position = play("K10 swap", GAME.start_position(SWAP_RULES))
    assert format_position(position) == S5_AFTER_SWAP
    assert position.turn == 0
    assert position.pop() == SWAP
    assert format_position(position) == S1_AFTER_K10
    position.push(SWAP)
    assert format_position(position) == S5_AFTER_SWAP


def test_s6_swap_on_the_diagonal():
    """§6: a black stone on (r, r) is replaced by a white stone on the same cell."""
    position = play("J10 swap", GAME.start_position(SWAP_RULES))
    assert position.board[CELL_INDEX["J10"]] == WHITE   # J10 is (10, 10)
    assert position.placed_stones(0) == 0 and position.placed_stones(1) == 1
    assert position.turn == 0


def test_s6_swap_without_the_option_is_illegal():
    """§6, §12 S5: without swap=yes, swap is E-ILLEGAL-MOVE with the §8 message."""
    position = play("K10")
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move("swap", position)
    assert caught.value.code == "E-ILLEGAL-MOVE"
    assert caught.value.message.startswith("only with swap=yes, and only as White's first")
    assert caught.value.rule == "§6"
    assert SWAP not in list(position.legal_moves())


@pytest.mark.parametrize("tokens", ["", "K10 A1 B2", "K10 A1"])
def test_s6_swap_only_at_ply_2(tokens):
    """§6, §12 S5: swap at ply 1, 3 or 4 is always illegal."""
    position = play(tokens, GAME.start_position(SWAP_RULES))
    with pytest.raises(IllegalMoveError):
        GAME.parse_move("swap", position)
    assert SWAP not in list(position.legal_moves())


def test_s6_swap_is_a_legal_move_at_ply_2_only_from_the_standard_start():
    """§6: swap is listed at ply 2 from the standard start, not from a set-up position."""
    position = play("K10", GAME.start_position(SWAP_RULES))
    assert SWAP in list(position.legal_moves())
    assert sum(1 for _ in position.legal_moves()) == 319
    set_up = GAME.start_position(SWAP_RULES, fen=S1_AFTER_K10)
    assert SWAP not in list(set_up.legal_moves())
    with pytest.raises(IllegalMoveError):
        GAME.parse_move("swap", set_up)


def test_s6_swap_then_play_on_and_pop_everything():
    """§6: after swap the game goes on; popping every move restores the start exactly."""
    position = play("K10 swap A1", GAME.start_position(SWAP_RULES))
    with pytest.raises(IllegalMoveError, match="swap at move 1"):
        GAME.parse_move("J11", position)
    while position.ply:
        position.pop()
    assert format_position(position) == START


# ---- §2 play ------------------------------------------------------------------------------


def test_s2_1_black_moves_first_and_turns_alternate():
    """§2.1-§2.2: Black places first, then the sides alternate, each placing its own colour."""
    position = play("K10 J9 A1")
    assert position.board[CELL_INDEX["K10"]] == BLACK
    assert position.board[CELL_INDEX["J9"]] == WHITE
    assert position.board[CELL_INDEX["A1"]] == BLACK
    assert position.turn == 1


def test_s2_2_placements_available_count():
    """§1.4, §2.2: 319 legal placements at the start; one fewer after each placement."""
    position = GAME.start_position(STANDARD)
    assert sum(1 for _ in position.legal_moves()) == 319
    assert perft(position, 2) == 319 * 318


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(FULL_FILLINGS)
def test_s4_2_no_draw_duality_long_run(colours):
    """§4.2 (slow, deeper run): the duality on many more complete fillings."""
    check_duality(colours)


@pytest.mark.slow
def test_s2_2_perft_depth_3():
    """§2.2: no win is possible in three plies: perft(3) = 319 · 318 · 317."""
    assert perft(GAME.start_position(STANDARD), 3) == 319 * 318 * 317


def test_push_pop_restores_everything():
    """push/pop are exact inverses, through merges and a win."""
    position = GAME.start_position(STANDARD, fen=S2)
    snapshot = (position.board[:], position.label[:], position.ranks[:])
    rng = random.Random(3)
    moves = []
    for _ in range(60):
        if position.winner is not None:
            break
        move = random_move(GAME, position, rng)
        moves.append(move)
        position.push(move)
    while position.ply:
        position.pop()
    assert (position.board, position.label, position.ranks) == snapshot
    assert position.winner is None


def test_legal_moves_filters():
    """Contract: ``legal_moves(*, origin=None, target=None)``; ``target`` keeps the placement
    on that cell (swap names no cell), ``origin`` is ignored (a placement has none)."""
    position = play("K10", GAME.start_position(SWAP_RULES))
    a1 = CELL_INDEX["A1"]
    assert list(position.legal_moves(target=a1)) == [Place(1, 1)]
    assert list(position.legal_moves(target=CELL_INDEX["K10"])) == []     # occupied
    assert list(position.legal_moves(target=CELL_INDEX["N6"])) == []      # a hole
    assert list(position.legal_moves(target=0)) == []                     # the frame
    assert list(position.legal_moves(origin=a1)) == list(position.legal_moves())
    assert list(position.legal_moves(origin=a1, target=a1)) == [Place(1, 1)]
    with pytest.raises(TypeError):
        position.legal_moves(a1)  # type: ignore[misc]  # keyword-only
    finished = play("B12", GAME.start_position(STANDARD, fen=S2))
    assert list(finished.legal_moves(target=a1)) == []


def test_place_target_is_its_cell():
    """A move's square is ``target``: the grid index of the placement's cell."""
    assert Place(10, 11).target == CELL_INDEX["K10"]
    assert all(PLACES[cell].target == cell for cell in PLACES)
    assert not hasattr(Swap(), "target")


@pytest.mark.parametrize("seed", range(4))
def test_count_legal_moves_matches_the_list(seed):
    """perft's counting shortcut agrees with ``legal_moves()``, swap and the end included."""
    rng = random.Random(seed)
    position = GAME.start_position(SWAP_RULES if seed % 2 else STANDARD)
    while True:
        assert position.count_legal_moves() == sum(1 for _ in position.legal_moves())
        move = random_move(GAME, position, rng)
        if move is None:
            break
        position.push(move)
    assert position.count_legal_moves() == 0


def test_copy_is_independent():
    position = play("K10 J9")
    other = position.copy()
    other.push(Place(1, 1))
    other.pop()
    other.pop()
    assert format_position(position) != format_position(other)
    assert position.ply == 2 and other.ply == 1


def test_moves_are_frozen_hashable_and_repr_evaluable():
    """G1: moves are frozen dataclasses whose repr evaluates back to an equal move."""
    for move in (Place(10, 11), SWAP):
        assert eval(repr(move)) == move  # noqa: S307 - the repr contract under test
        assert hash(eval(repr(move))) == hash(move)  # noqa: S307
    with pytest.raises(AttributeError):
        Place(1, 1).row = 2  # type: ignore[misc]
    assert Swap() == SWAP


def test_copies_share_no_mutable_state_through_undo():
    """copy() then popping both the copy and the original back to the start, through group
    merges, leaves both exactly at the start (undo records are shared, never changed)."""
    rng = random.Random(9)
    position = GAME.start_position(STANDARD)
    for _ in range(150):
        position.push(random_move(GAME, position, rng))
    other = position.copy()
    for _ in range(40):
        other.push(random_move(GAME, other, rng))
    for pos in (other, position):
        while pos.ply:
            pos.pop()
        assert format_position(pos) == START
        assert pos.label == Position.start().label
        assert {root: sorted(group) for root, group in pos.members.items()} == {
            root: sorted(group) for root, group in Position.start().members.items()}


def test_s3_5_no_torus_and_sides_count_anywhere():
    """§3.5: opposite edges are not glued: row 1 never touches row 19, column A never S;
    only a chain of stones joins the top and bottom edges."""
    for letter in "ABCDEFGHIJKLMNOPQRS":
        assert CELL_INDEX[f"{letter}19"] not in NEIGHBOURS[CELL_INDEX[f"{letter}1"]]
    for row in range(1, 20):
        assert CELL_INDEX[f"S{row}"] not in NEIGHBOURS[CELL_INDEX[f"A{row}"]]
    # A full column of black stones from A1 to A19 joins the top and bottom edges: one loop.
    column = " ".join(f"A{row}" for row in range(1, 20))
    assert Position(figure_board(column), 0).loops(0) == ("single{W3}",)
    # Half a column touching only the top edge is no loop.
    half = " ".join(f"A{row}" for row in range(1, 19))
    assert Position(figure_board(half), 0).rank(0) == 0


def test_a_start_position_is_not_changed_by_games_played_from_another():
    # Positions on the start board share their first groups through a copy (#14).
    played = Position.start()
    rng = random.Random(14)
    while played.winner is None:
        played.push(rng.choice(list(played.legal_moves())))
    fresh = Position.start()
    rebuilt = Position.start()
    rebuilt._build_groups()
    assert fresh.label == rebuilt.label and fresh.members == rebuilt.members
    assert fresh.ranks == [0, rebuilt._compute_rank(1), rebuilt._compute_rank(2)]
    assert fresh.winner is None
