"""Shih geometry (§1, §16 test vectors) and the position string (§3.2, §3.4)."""

from __future__ import annotations

import pytest

from notation_tools.games.base import BadPositionError
from notation_tools.games.shih import GAME
from notation_tools.games.shih.pieces import (ADJACENT, CCW, COUNT, CW, INDEX, IS_UP, NAMES,
                                              NEIGHBOURS, RIM, SIDE_LETTERS, WIDTHS, B, H, S,
                                              check_tables, reflect, rotate180)
from notation_tools.games.shih.position import DEFAULT_START, format_position, parse_position

RULES = GAME.parse_rules("standard")


def neighbours(name: str) -> dict[str, str]:
    space = INDEX[name]
    return {SIDE_LETTERS[side]: (NAMES[other] if other != RIM else "rim")
            for side, other in enumerate(NEIGHBOURS[space])}


def test_counts_of_section_1_1():
    """§1.1/§16: 96 spaces, 48 up, 24 rim sides, 132 shared edges."""
    assert COUNT == 96 and sum(IS_UP) == 48
    rim = sum(1 for space in range(COUNT) for other in NEIGHBOURS[space] if other == RIM)
    shared = sum(1 for space in range(COUNT) for other in NEIGHBOURS[space] if other > space)
    assert (rim, shared) == (24, 132)
    assert WIDTHS == (9, 11, 13, 15, 15, 13, 11, 9)


@pytest.mark.parametrize(("name", "up", "expected"), [
    ("a1", True, {"H": "b2", "S": "rim", "B": "a2"}),
    ("a2", False, {"H": "rim", "S": "a3", "B": "a1"}),
    ("d8", False, {"H": "c7", "S": "d9", "B": "d7"}),
    ("e1", False, {"H": "d1", "S": "e2", "B": "rim"}),
    ("h9", False, {"H": "g10", "S": "rim", "B": "h8"}),
    ("d1", True, {"H": "e1", "S": "rim", "B": "d2"}),
    ("e2", True, {"H": "f1", "S": "e1", "B": "e3"}),
])
def test_neighbour_table_of_section_1_4(name, up, expected):
    """§1.4 and §16 examples."""
    assert IS_UP[INDEX[name]] is up
    assert neighbours(name) == expected


def test_every_interior_edge_has_one_side_letter_from_both_spaces():
    """§1.3/§16: the two spaces of an edge name it alike."""
    for space in range(COUNT):
        for other, side in ADJACENT[space].items():
            assert ADJACENT[other][space] == side
    assert check_tables() == []


def test_rotation_cycles_of_section_1_5():
    """§1.5: cw is H→S→B→H and ccw its inverse."""
    assert [CW[H], CW[S], CW[B]] == [S, B, H]
    assert all(CCW[CW[side]] == side for side in (H, S, B))


def test_symmetries_map_a1():
    """§1.5: 180° maps a1 to h9; reflection maps a1 to a9."""
    assert NAMES[rotate180(INDEX["a1"])] == "h9"
    assert NAMES[reflect(INDEX["a1"])] == "a9"
    assert NAMES[rotate180(INDEX["d8"])] == "e8"


def test_regions_of_default_start():
    """§16: 8 regions of sizes 9, 9, 11, 11, 13, 13, 15, 15; the 15s hold both colours."""
    pos = GAME.start_position(RULES)
    regions = pos.regions()
    assert sorted(len(region) for region in regions) == [9, 9, 11, 11, 13, 13, 15, 15]
    for region in regions:
        pieces = [pos.board[space] for space in region]
        blue, red = pieces.count(0), pieces.count(1)
        if len(region) == 15:
            assert sorted((blue, red)) == [2, 3]
        else:
            assert blue + red == 3 and 0 in (blue, red)


def test_default_start_string_round_trips():
    """§3.4/§16."""
    pos = GAME.start_position(RULES)
    assert format_position(pos) == DEFAULT_START
    assert format_position(parse_position(DEFAULT_START, RULES)) == DEFAULT_START
    assert pos.counts == [14, 14] and pos.spins == [2, 2] and pos.turn == 0


def test_default_start_is_180_symmetric_with_colours_swapped():
    """§3.4: the layout maps onto itself under 180° rotation with colours swapped."""
    pos = GAME.start_position(RULES)
    for space in range(COUNT):
        image = rotate180(space)
        assert pos.walls[image] == pos.walls[space]
        piece = pos.board[space]
        assert pos.board[image] == (piece if piece < 0 else 1 - piece)


def test_non_canonical_wall_runs_are_read():
    """§3.2/§16: SSSSSSSSS reads as 9S; 3S2S reads as 5S."""
    text = "SSSSSSSSS/11S/13S/15S/15S/13S/11S/9S" + DEFAULT_START[DEFAULT_START.index(" "):]
    assert format_position(parse_position(text, RULES)) == DEFAULT_START
    text = "3S2S4S/11S/13S/15S/15S/13S/11S/9S" + DEFAULT_START[DEFAULT_START.index(" "):]
    assert format_position(parse_position(text, RULES)) == DEFAULT_START


def test_score_field():
    """§3.2: score omitted at 0-0, written otherwise; 0-0 is read."""
    pos = parse_position(DEFAULT_START + " 3-1", RULES)
    assert pos.score == [3, 1] and format_position(pos) == DEFAULT_START + " 3-1"
    assert format_position(parse_position(DEFAULT_START + " 0-0", RULES)) == DEFAULT_START


BAD = [
    ("row h expands to 8", DEFAULT_START.replace("11S/9S ", "11S/8S "), "row h expands to 8"),
    ("seven wall rows", DEFAULT_START.replace("9S/11S/", "11S/", 1), "has 7 rows"),
    ("bad wall letter", DEFAULT_START.replace("9S/11S", "9X/11S", 1), "not a wall"),
    ("bad piece letter", DEFAULT_START.replace("bbbbbbbbb", "bbbbxbbbb"),
     "pieces row a: unexpected 'x'"),
    ("fifty-six", DEFAULT_START.replace("/13/15/", "/13/56/"), "bad run of empty squares '56'"),
    ("leading zero", DEFAULT_START.replace("/13/15/", "/13/015/"),
     "bad run of empty squares '015'"),
    ("spin count above option", DEFAULT_START.replace(" 22 ", " 23 "), "above power-spins"),
    ("score above 14", DEFAULT_START + " 15-0", "above 14"),
    ("bad side", DEFAULT_START.replace(" 22 b", " 22 x"), "side to move"),
    ("missing field", DEFAULT_START.replace(" 22 b", " 22"), "4 or 5 fields"),
    ("three-digit spins", DEFAULT_START.replace(" 22 ", " 222 "), "two digits"),
    ("upper-case piece", DEFAULT_START.replace("bbbbbbbbb", "Bbbbbbbbb"), "unexpected 'B'"),
    ("lower-case wall", DEFAULT_START.replace("9S/11S", "9s/11S", 1), "not a wall"),
    ("too many pieces", DEFAULT_START.replace("/13/15/", "/13/bbbbbbbbbbbbbbb/"),
     "above pieces-per-player"),
    ("bad score", DEFAULT_START + " 1:0", "not N-N"),
]


@pytest.mark.parametrize(("case", "text", "message"), BAD, ids=[row[0] for row in BAD])
def test_bad_position_strings(case, text, message):
    """§3.2 errors: E-BAD-POSITION naming the fault."""
    with pytest.raises(BadPositionError) as caught:
        parse_position(text, RULES)
    assert caught.value.code == "E-BAD-POSITION"
    assert message in caught.value.message
