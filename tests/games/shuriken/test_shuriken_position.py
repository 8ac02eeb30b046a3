"""Shuriken 2D position strings (§5) and board geometry (§1)."""

from __future__ import annotations

import pathlib
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from shuriken_vectors import S1_AFTER_K10, S2, S5_AFTER_SWAP, S6, START  # noqa: E402

from notation_tools.games.base import BadPositionError  # noqa: E402
from notation_tools.games.runs import decode_rank  # noqa: E402
from notation_tools.games.shuriken import GAME, pieces  # noqa: E402
from notation_tools.games.shuriken.pieces import (  # noqa: E402
    BLACK, CELL_INDEX, CELL_NAME, CELLS, EMPTY, HOLES, NEIGHBOURS, PRE_PLACED, START_BOARD,
    WHITE)
from notation_tools.games.shuriken.position import (  # noqa: E402
    START_STRING, format_position, parse_position)
from notation_tools.games.shuriken.rules import Position  # noqa: E402

# ---- §1 geometry --------------------------------------------------------------------------


def test_s1_1_neighbours_of_n3():
    """§1.1: N3's neighbours are M3 O3 N2 O2 M4 N4."""
    assert {CELL_NAME[n] for n in NEIGHBOURS[CELL_INDEX["N3"]]} == set("M3 O3 N2 O2 M4 N4".split())


def test_s1_2_holes_are_nobodys_neighbour():
    """§1.2: the 18 hole cells are not cells and are nobody's neighbour."""
    assert sorted(CELL_NAME[c] for c in HOLES if HOLES[c] == "W1") == sorted(
        "M5 N5 O5 M6 N6 O6 M7 N7 O7".split())
    assert sorted(CELL_NAME[c] for c in HOLES if HOLES[c] == "W2") == sorted(
        "E13 F13 G13 E14 F14 G14 E15 F15 G15".split())
    for neighbours in NEIGHBOURS:
        assert not set(neighbours) & set(HOLES)


def test_s1_3_frame_touches_edge_cells():
    """§1.3: every row-1 cell touches the black top, every column-A cell the white left."""
    for col in range(1, 20):
        touching = [pieces.FRAME.get(n) for n in NEIGHBOURS[pieces.index_of(1, col)]]
        assert (BLACK, "top") in touching
    for row in range(1, 20):
        touching = [pieces.FRAME.get(n) for n in NEIGHBOURS[pieces.index_of(row, 1)]]
        assert (WHITE, "left") in touching
    # The corners do not exist: A1 has the top frame and the left frame, nothing more.
    assert len(NEIGHBOURS[CELL_INDEX["A1"]]) == 6


def test_s1_4_pre_placed_stones_and_counts():
    """§1.4: 24 pre-placed stones with the listed colours; 343 cells, 319 empty."""
    expected = {
        "M4 N4 O4 M8 N8 O8 E12 F12 G12 E16 F16 G16": BLACK,
        "L5 L6 L7 P5 P6 P7 D13 D14 D15 H13 H14 H15": WHITE,
    }
    for names, colour in expected.items():
        for name in names.split():
            assert PRE_PLACED[CELL_INDEX[name]][0] == colour
    assert len(PRE_PLACED) == 24 and len(CELLS) == 343 and len(pieces.EMPTY_AT_START) == 319


def test_s1_6_start_is_symmetric():
    """§1.6 and G7: the tables pass check_tables (symmetries of the start included)."""
    assert pieces.check_tables() == []
    assert GAME.check_tables() == []


def test_check_tables_names_the_row_at_fault(monkeypatch):
    """G7: a broken table is reported naming the window and side."""
    broken = pieces.Window("W1", pieces.WINDOWS[0].holes,
                           {**pieces.WINDOWS[0].sides, "top": pieces.WINDOWS[0].sides["top"][:2]})
    monkeypatch.setattr(pieces, "WINDOWS", (broken, pieces.WINDOWS[1]))
    assert any(problem.startswith("W1 top: 2 stones") for problem in pieces.check_tables())


# ---- §5 position string ---------------------------------------------------------------------


def test_s5_start_string():
    """§5: the start position's string."""
    assert START_STRING == START
    assert format_position(Position.start()) == START
    assert parse_position(START).board == list(START_BOARD)


@pytest.mark.parametrize("text", [START, S1_AFTER_K10, S2, S5_AFTER_SWAP, S6])
def test_s5_round_trip(text):
    """§5: one spelling per position: format(parse(s)) == s."""
    assert format_position(parse_position(text)) == text


@pytest.mark.parametrize("text, fragment", [
    ("19/19", "2 rows, not 19"),
    (START[:-2], "side to move"),
    (START[:-1] + "x", "side to move"),
    (START + " ", "side to move"),
    (START.replace("12bbb4", "12bbb5", 1), "row 4: more than 19 squares"),
    (START.replace("12bbb4", "12bbb3", 1), "row 4: 18 squares, not 19"),
    (START.replace("12bbb4", "12bwb4", 1), "N4 must hold its pre-placed black stone (top of W1)"),
    (START.replace("12bbb4", "15b3", 1), "M4 must hold its pre-placed black stone"),
    (START.replace("11w---w3", "11w-b-w3", 1), "N5 is a hole of window W1"),
    (START.replace("11w---w3", "11w5w1", 1), "M5 is a hole of window W1"),
    (START.replace("19/19/19", "-18/19/19", 1), "A1 is not a hole cell"),
    (START.replace("19/19/19", "019/19/19", 1), "row 1: bad run of empty squares '019'"),
    (START.replace("19/19/19", "20/19/19", 1), "row 1: bad run of empty squares '20'"),
    (START.replace("19/19/19", "9x9/19/19", 1), "row 1: unexpected 'x'"),
    (START.replace("19/19/19", "B18/19/19", 1), "row 1: unexpected 'B'"),
    ("", "1 row, not 19"),
])
def test_s5_bad_positions(text, fragment):
    """§5: malformed strings and misplaced fixed cells are E-BAD-POSITION, naming the fault."""
    with pytest.raises(BadPositionError) as caught:
        parse_position(text)
    assert caught.value.code == "E-BAD-POSITION"
    assert fragment in caught.value.message
    assert 0 <= caught.value.offset <= len(text)


ROW4 = len("19/19/19/")   # where row 4 ("12bbb4", W1's top side) starts in START


@pytest.mark.parametrize("row_text, offset, message, rule", [
    # A row's form, read by the shared games.runs.decode_rank: its wording, our offsets.
    ("12bbb5", ROW4 + 5, "row 4: more than 19 squares", "§5"),
    ("12bbb3", ROW4 + len("12bbb3"), "row 4: 18 squares, not 19", "§5"),  # short: its end
    ("12bbbx4", ROW4 + 5, "row 4: unexpected 'x'", "§5"),
    ("012bbb4", ROW4, "row 4: bad run of empty squares '012' (1 to 19)", "§5"),
    ("12bbb04", ROW4 + 5, "row 4: bad run of empty squares '04' (1 to 19)", "§5"),
    # The leftmost fault of a row wins, a fixed cell's included (as before decode_rank).
    ("12bwb5", ROW4 + 3, "N4 must hold its pre-placed black stone (top of W1)", "§1.4"),
    ("12bwb3", ROW4 + 3, "N4 must hold its pre-placed black stone (top of W1)", "§1.4"),
    ("12bwbx4", ROW4 + 3, "N4 must hold its pre-placed black stone (top of W1)", "§1.4"),
    ("13bb5", ROW4, "M4 must hold its pre-placed black stone (top of W1)", "§1.4"),
    ("1x11bwb4", ROW4 + 1, "row 4: unexpected 'x'", "§5"),
    ("12b020", ROW4 + 3, "row 4: bad run of empty squares '020' (1 to 19)", "§5"),
])
def test_s5_row_faults_name_the_row_and_the_offset(row_text, offset, message, rule):
    """§5: each fault of a row is E-BAD-POSITION at the offset of the field at fault; the
    faults of the row's form come from the shared run reader, RankError turned into
    BadPositionError with the row's number, §5 and the offset in the whole string."""
    text = START.replace("12bbb4", row_text, 1)
    with pytest.raises(BadPositionError) as caught:
        parse_position(text)
    assert (caught.value.message, caught.value.offset, caught.value.rule) == (
        message, offset, rule)
    assert caught.value.code == "E-BAD-POSITION"


def test_s5_the_rows_are_read_by_the_shared_run_codec():
    """§5: every row of a valid string is what games.runs.decode_rank reads."""
    position = parse_position(S2)
    rows = S2.split(" ")[0].split("/")
    for row, text in enumerate(rows, start=1):
        cells = decode_rank(text, {"b": BLACK, "w": WHITE, "-": pieces.HOLE}, width=19,
                            empty=EMPTY)
        assert cells == [position.board[pieces.index_of(row, col)] for col in range(1, 20)]


def test_s5_stone_counts_are_not_checked():
    """§5: figures need not be reachable: a board of only black stones is accepted."""
    board = list(START_BOARD)
    for cell in CELLS[:30]:
        if board[cell] == EMPTY:
            board[cell] = BLACK
    text = format_position(Position(board, 1))
    assert format_position(parse_position(text)) == text


def test_s5_side_to_move():
    assert parse_position(START[:-1] + "w").turn == 1
    assert GAME.parse_position(START, GAME.parse_rules(None)).turn == 0


def _random_board_string(rng: random.Random, fill: float) -> str:
    board = list(START_BOARD)
    for cell in CELLS:
        if board[cell] == EMPTY and rng.random() < fill:
            board[cell] = rng.choice((BLACK, WHITE))
    return format_position(Position(board, rng.randrange(2)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.floats(0, 1))
def test_s5_random_positions_round_trip(seed, fill):
    """§5, G8: random boards (any fill) round-trip through the string exactly."""
    text = _random_board_string(random.Random(seed), fill)
    position = parse_position(text)
    assert format_position(position) == text
    assert position.rank(0) + position.rank(1) <= 3   # §4.2


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="bw-0123456789/ x", max_size=80))
def test_s5_garbage_raises_only_bad_position(text):
    """Brief: parse_position raises only BadPositionError, whatever the text."""
    try:
        position = parse_position(text)
    except BadPositionError:
        return
    assert format_position(position) == text

