"""Elevation position string (§3.2), start position (§3.3, §3.4), geometry (§1) and tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.games.base import BadPositionError, BadRulesError, EngineError, TagConflictError
from notation_tools.games.elevation import GAME
from notation_tools.games.elevation.pieces import ADJACENT, check_tables, square_index
from notation_tools.games.elevation.position import format_position, parse_position

RULES = GAME.parse_rules(None)
START = "333333/333333/333333/333333/333333/333333 sfddfs/6/6/6/6/SFDDFS w"
FLAT = "333333/333333/333333/333333/333333/333333"


def test_default_start_position():
    """§3.3: every square 3 tiles, S F D D F S on both home ranks, White to move."""
    pos = GAME.start_position(RULES)
    assert format_position(pos) == START
    assert sum(pos.heights) == 108
    assert pos.turn == 0


def test_first_player_tag():
    """§3.4: FirstPlayer Black makes Black move first."""
    pos = GAME.start_position(RULES, first_player=GAME.parse_side("black"))
    assert format_position(pos).endswith(" b")
    assert GAME.parse_side("WHITE") == 0


def test_fen_and_first_player():
    """§3.4: a FEN gives the side to move; a disagreeing FirstPlayer is E-TAG-CONFLICT."""
    fen = FLAT + " sfddfs/6/6/6/6/SFDDFS b"
    assert GAME.start_position(RULES, fen=fen).turn == 1
    assert GAME.start_position(RULES, fen=fen, first_player=1).turn == 1
    with pytest.raises(TagConflictError) as info:
        GAME.start_position(RULES, fen=fen, first_player=0)
    assert info.value.code == "E-TAG-CONFLICT"


def test_fen_ignores_initial_height():
    """§3.4: a FEN gives its own heights; initial-height only shapes the default start."""
    rules = GAME.parse_rules("initial-height=5")
    assert format_position(GAME.start_position(rules, fen=START)) == START
    assert GAME.format_position(GAME.start_position(rules)).startswith("555555/")


def test_tall_stack():
    """§3.2, §12: ``<12>`` is one square of height 12."""
    pos = parse_position("3<12>3333/" + "333333/" * 4 + "333333 6/6/6/6/6/6 w", RULES)
    assert pos.heights[square_index("b6")] == 12
    assert pos.heights[square_index("a6")] == 3


@pytest.mark.parametrize("text", [
    "3<7>3333/333333/333333/333333/333333/333333 6/6/6/6/6/6 w",      # <n> below 10
    "3<012>333/333333/333333/333333/333333/333333 6/6/6/6/6/6 w",     # leading zero
    "3333333/333333/333333/333333/333333/333333 6/6/6/6/6/6 w",       # a rank of 7 heights
    "33333/333333/333333/333333/333333/333333 6/6/6/6/6/6 w",         # a rank of 5 heights
    "333333/333333/333333/333333/333333/333333 5/6/6/6/6/6 w",        # pieces rank of 5 squares
    "333333/333333/333333/333333/333333/333333 33/6/6/6/6/6 w",       # runs not maximal
    "333333/333333/333333/333333/333333/333333 S5s/6/6/6/6/6 w",      # 7 squares
    "333333/333333/333333/333333/333333/333333 6/6/6/6/6/6 x",        # bad side
    "333333/333333/333333/333333/333333 6/6/6/6/6/6 w",               # 5 ranks
    "333333/333333/333333/333333/333333/333333  6/6/6/6/6/6 w",       # double space
    " " + START,
    START + " ",
    "333333/333333/333333/333333/333333/333333 6/6/6/6/6/6",
    "333333/333333/333333/333333/333333/33333a 6/6/6/6/6/6 w",
    "333333/333333/333333/333333/333333/3333<3 6/6/6/6/6/6 w",
    "333333/333333/333333/333333/333333/333333 k5/6/6/6/6/6 w",
    "333333/333333/333333/333333/333333/333333 06/6/6/6/6/6 w",
    "",
])
def test_bad_position_strings(text):
    """§3.2, §12: anything but the one canonical spelling is E-BAD-POSITION."""
    with pytest.raises(BadPositionError) as info:
        parse_position(text, RULES)
    assert info.value.code == "E-BAD-POSITION"


def test_adjacency_counts():
    """§1, §12: a1 has 3 neighbours, a3 has 5, c3 has 8; never itself."""
    assert len(ADJACENT[square_index("a1")]) == 3
    assert len(ADJACENT[square_index("a3")]) == 5
    assert len(ADJACENT[square_index("c3")]) == 8
    assert all(square not in ADJACENT[square] for square in range(36))


def test_check_tables():
    """G7: the data tables lint clean."""
    assert check_tables() == []
    assert GAME.check_tables() == []


heights_st = st.lists(st.integers(0, 130), min_size=36, max_size=36)
board_st = st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 5, 6, 7]), min_size=36, max_size=36)


@given(heights_st, board_st, st.integers(0, 1))
def test_position_string_round_trip(heights, board, turn):
    """§3.2: format then parse gives the same position; parse then format the same text."""
    from notation_tools.games.elevation.rules import Position
    text = format_position(Position(RULES, heights, board, turn))
    pos = parse_position(text, RULES)
    assert (pos.heights, pos.board, pos.turn) == (heights, board, turn)
    assert format_position(pos) == text


@settings(max_examples=300)
@given(st.text(alphabet="0123456789<>/ sfdSFDwbx-", max_size=90))
def test_garbage_position_raises_only_bad_position(text):
    """§7: no text makes the codec raise anything but E-BAD-POSITION."""
    try:
        pos = parse_position(text, RULES)
    except BadPositionError:
        return
    assert format_position(pos) == text


# ---- rules texts (§9) -----------------------------------------------------------------

def test_profile_standard_is_all_defaults():
    """§9: the standard profile is every default."""
    rules = GAME.parse_rules("standard")
    assert rules == GAME.parse_rules(None)
    assert rules.describe() == "standard"
    assert rules["initial-height"] == 3 and rules["max-height"] is None
    assert rules["capture-height"] == "at-least-2" and rules["dragon-mm-max-captures"] == 2


@pytest.mark.parametrize("text, name, value", [
    ("initial-height=0", "initial-height", 0),
    ("initial-height=99", "initial-height", 99),
    ("capture-height=exactly-2", "capture-height", "exactly-2"),
    ("basic-dig-optional", "basic-dig-optional", True),
    ("basic-move-optional=yes", "basic-move-optional", True),
    ("fish-diag2-model=jump", "fish-diag2-model", "jump"),
    ("fish-diag2-model=two-free-diagonal-steps", "fish-diag2-model", "two-free-diagonal-steps"),
    ("dragon-mm-max-captures=0", "dragon-mm-max-captures", 0),
    ("dragon-mm-forbid-return", "dragon-mm-forbid-return", True),
    ("dragon-c2-requires-climb2", "dragon-c2-requires-climb2", True),
    ("forbid-null-dig-pair", "forbid-null-dig-pair", True),
    ("max-height=12", "max-height", 12),
    ("repetition-rule=off", "repetition-rule", "off"),
    ("two-pieces-per-turn", "two-pieces-per-turn", True),
    ("undermining", "undermining", True),
    ("undermining; samurai-undermine-and-move", "samurai-undermine-and-move", True),
    ("ocean-free-move=climb-capture", "ocean-free-move", "climb-capture"),
])
def test_option_values(text, name, value):
    """§9: every option parses to the value the engine reads."""
    assert GAME.parse_rules(text)[name] == value


@pytest.mark.parametrize("text", [
    "samurai-undermine-and-move",              # §8.2: needs undermining
    "initial-height=100", "initial-height=-1", "max-height=0", "max-height=07",
    "capture-height=3", "fish-diag2-model=hop", "dragon-mm-max-captures=3",
    "repetition-rule=fivefold", "ocean-free-move=on", "no-such-option", "tournament",
    "initial-height",
])
def test_bad_rules(text):
    """§9: bad values, unknown names and bad combinations are E-BAD-RULES."""
    with pytest.raises(BadRulesError) as info:
        GAME.parse_rules(text)
    assert info.value.code == "E-BAD-RULES"


def test_engine_errors_are_value_errors():
    assert issubclass(BadPositionError, EngineError)
