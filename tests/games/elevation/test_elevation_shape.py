"""Elevation in the one-package shape: the typed Options (§9), the position string's pieces
ranks read through games.runs.decode_rank (§3.2), the legal_moves filters, the start (§3.3,
§3.4), the sampler and the dialect."""

from __future__ import annotations

import dataclasses
import random

import pytest

from notation_tools.games.base import BadPositionError, options_of
from notation_tools.games.elevation import GAME, Options, PieceTurn, Position, Turn
from notation_tools.games.elevation import options as options_module
from notation_tools.games.elevation.notation import DIALECT
from notation_tools.games.elevation.pieces import SQUARE_COUNT, START_BOARD, square_index
from notation_tools.games.elevation.position import parse_position, start_position
from notation_tools.games.elevation.sampling import SAMPLER

FLAT = "333333/333333/333333/333333/333333/333333"


# ---- Options (§9) ---------------------------------------------------------------------------

DEFAULTS = dict(
    initial_height=3, capture_height="at-least-2", basic_dig_optional=False,
    basic_move_optional=False, fish_diag2_model="through-empty", dragon_mm_max_captures=2,
    dragon_mm_forbid_return=False, dragon_c2_requires_climb2=False, forbid_null_dig_pair=False,
    max_height=None, repetition_rule="threefold", two_pieces_per_turn=False, undermining=False,
    samurai_undermine_and_move=False, ocean_free_move="off",
    capture_exactly_2=False, ocean_climb=False, ocean_capture=False)


def test_default_options():
    """§9: the standard profile reads as every default; the derived fields follow."""
    options = options_of(Options, GAME.parse_rules(None))
    assert dataclasses.asdict(options) == DEFAULTS


@pytest.mark.parametrize("text, changes", [
    ("initial-height=0", {"initial_height": 0}),
    ("initial-height=99", {"initial_height": 99}),
    ("capture-height=at-least-2", {}),
    ("capture-height=exactly-2", {"capture_height": "exactly-2", "capture_exactly_2": True}),
    ("basic-dig-optional=no", {}),
    ("basic-dig-optional=yes", {"basic_dig_optional": True}),
    ("basic-move-optional=no", {}),
    ("basic-move-optional=yes", {"basic_move_optional": True}),
    ("fish-diag2-model=through-empty", {}),
    ("fish-diag2-model=jump", {"fish_diag2_model": "jump"}),
    ("fish-diag2-model=two-free-diagonal-steps", {"fish_diag2_model": "two-free-diagonal-steps"}),
    ("dragon-mm-max-captures=0", {"dragon_mm_max_captures": 0}),
    ("dragon-mm-max-captures=1", {"dragon_mm_max_captures": 1}),
    ("dragon-mm-max-captures=2", {}),
    ("dragon-mm-forbid-return=no", {}),
    ("dragon-mm-forbid-return=yes", {"dragon_mm_forbid_return": True}),
    ("dragon-c2-requires-climb2=no", {}),
    ("dragon-c2-requires-climb2=yes", {"dragon_c2_requires_climb2": True}),
    ("forbid-null-dig-pair=no", {}),
    ("forbid-null-dig-pair=yes", {"forbid_null_dig_pair": True}),
    ("max-height=none", {}),
    ("max-height=1", {"max_height": 1}),
    ("max-height=12", {"max_height": 12}),
    ("repetition-rule=threefold", {}),
    ("repetition-rule=consecutive-undo-6-plies", {"repetition_rule": "consecutive-undo-6-plies"}),
    ("repetition-rule=off", {"repetition_rule": "off"}),
    ("two-pieces-per-turn=no", {}),
    ("two-pieces-per-turn=yes", {"two_pieces_per_turn": True}),
    ("undermining=no", {}),
    ("undermining=yes", {"undermining": True}),
    ("undermining; samurai-undermine-and-move=no", {"undermining": True}),
    ("undermining; samurai-undermine-and-move=yes",
     {"undermining": True, "samurai_undermine_and_move": True}),
    ("ocean-free-move=off", {}),
    ("ocean-free-move=climb", {"ocean_free_move": "climb", "ocean_climb": True}),
    ("ocean-free-move=climb-capture",
     {"ocean_free_move": "climb-capture", "ocean_climb": True, "ocean_capture": True}),
])
def test_options_field_per_option_value(text, changes):
    """§9: every value of every option lands in its field (and the derived fields)."""
    options = options_of(Options, GAME.parse_rules(text))
    assert dataclasses.asdict(options) == {**DEFAULTS, **changes}


def test_options_cover_every_option_and_are_cached_and_frozen():
    """The Options fields are exactly the option names; one object per rules; immutable."""
    assert GAME.options_type is Options and GAME.check_tables() == []
    assert {field.name for field in dataclasses.fields(Options) if field.init} == {
        option.field_name for option in GAME.options}
    rules = GAME.parse_rules("max-height=4")
    position = GAME.start_position(rules)
    assert position.options is options_of(Options, GAME.parse_rules("standard; max-height=4"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.options.max_height = 5  # type: ignore[misc]


def test_game_shares_the_option_tables():
    """§9: the game declares the rows and the profile of options.py."""
    assert GAME.options is options_module.OPTIONS
    assert GAME.profiles == {"standard": {}} and GAME.default_profile == "standard"


# ---- the pieces ranks through decode_rank (§3.2) ---------------------------------------------

HEIGHTS = FLAT + " "


@pytest.mark.parametrize("pieces, offset, words", [
    ("k5/6/6/6/6/6", 0, "piece rank 6: unexpected 'k'"),
    ("6/6/7/6/6/6", 4, "piece rank 4: bad run of empty squares '7'"),
    ("06/6/6/6/6/6", 0, "piece rank 6: bad run of empty squares '06'"),
    ("33/6/6/6/6/6", 0, "piece rank 6: bad run of empty squares '33'"),
    ("6/6/6/6/6/sS12", 12, "piece rank 1: bad run of empty squares '12'"),
    ("S5s/6/6/6/6/6", 2, "piece rank 6: more than 6 squares"),
    ("6/5/6/6/6/6", 3, "piece rank 5: 5 squares, not 6"),  # a short rank: at its end
    ("6/6/6/6/6/", 10, "piece rank 1: 0 squares, not 6"),
    ("6/6/6/6/6/SSSSSSS", 16, "piece rank 1: more than 6 squares"),
    ("1٣2/6/6/6/6/6", 1, "piece rank 6: unexpected '٣'"),
])
def test_pieces_rank_errors(pieces, offset, words):
    """§3.2: a pieces rank is decoded by the shared run-length reader; its faults become
    E-BAD-POSITION at the offset of the fault in the whole position string."""
    with pytest.raises(BadPositionError) as info:
        parse_position(HEIGHTS + pieces + " w", GAME.parse_rules(None))
    error = info.value
    assert error.code == "E-BAD-POSITION" and error.rule == "§3.2"
    assert words in error.message and error.message.startswith("bad Elevation position: ")
    assert error.offset == len(HEIGHTS) + offset


def test_pieces_ranks_decode():
    """§3.2: pieces and runs in every rank, rank 6 first."""
    pos = parse_position(HEIGHTS + "s4S/1f4/2d3/3D2/4F1/5s w", GAME.parse_rules(None))
    cells = {name: pos.board[square_index(name)] for name in ("a6", "f6", "b5", "c4", "d3", "e2", "f1")}
    assert cells == {"a6": 5, "f6": 1, "b5": 6, "c4": 7, "d3": 3, "e2": 2, "f1": 5}


# ---- positions: start, filters, repr ---------------------------------------------------------

def test_start_position():
    """§3.3, §3.4: the default start is built from the tables; a FEN replaces it."""
    rules = GAME.parse_rules("initial-height=4")
    start = Position.start(rules)
    assert start.heights == [4] * SQUARE_COUNT and start.board == list(START_BOARD)
    assert start.turn == 0 and Position.start(rules, 1).turn == 1
    assert GAME.format_position(start_position(rules)) == (
        "444444/444444/444444/444444/444444/444444 sfddfs/6/6/6/6/SFDDFS w")
    fen = FLAT + " 6/6/6/6/6/S5 b"
    assert GAME.format_position(start_position(rules, fen=fen, first_player=1)) == fen


def test_legal_moves_filters_are_keyword_only():
    """G1: ``origin`` and ``target`` keep the turns from and to a square."""
    pos = GAME.start_position(GAME.parse_rules(None))
    every = list(pos.legal_moves())
    c2 = square_index("c2")
    to_c2 = list(pos.legal_moves(target=c2))
    assert to_c2 == [move for move in every if move.target == c2] and to_c2
    from_c1 = list(pos.legal_moves(origin=square_index("c1"), target=c2))
    assert from_c1 == [move for move in to_c2 if move.origin == square_index("c1")]
    assert {move.option for move in from_c1} == {"B", "MM", "C2"}
    with pytest.raises(TypeError):
        pos.legal_moves(square_index("c1"))  # type: ignore[misc]


def test_legal_moves_filters_with_two_pieces_per_turn():
    """§8.1: the filters apply to the first piece-turn of a whole turn."""
    pos = GAME.parse_position(FLAT + " 5s/6/6/2S3/6/1D4 w", GAME.parse_rules("two-pieces-per-turn"))
    b1, c3, d4 = (square_index(name) for name in ("b1", "c3", "d4"))
    turns = list(pos.legal_moves(origin=c3, target=d4))
    assert turns and all(isinstance(turn, Turn) for turn in turns)
    assert all(turn.parts[0].origin == c3 and turn.parts[0].target == d4 for turn in turns)
    assert all(turn.parts[1].origin == b1 for turn in turns)


def test_repr_is_the_position_string_and_str_the_diagram():
    text = "<12>33333/" + "333333/" * 4 + "333333 S5/6/6/6/6/s5 b"
    pos = GAME.parse_position(text, GAME.parse_rules(None))
    assert repr(pos) == f"elevation.Position({text!r})"
    assert str(pos) == GAME.render_text(pos)


def test_is_over_is_the_one_spelling():
    pos = GAME.parse_position("333333/333333/333333/333333/333333/033333 6/6/6/6/df4/Ss4 w",
                              GAME.parse_rules(None))
    assert pos.is_over() and not hasattr(pos, "is_game_over")


# ---- sampler and dialect ---------------------------------------------------------------------

def test_sampler_draws_legal_turns():
    """The sampler's turns are legal turns, whole turns under two-pieces-per-turn (§8.1)."""
    rng = random.Random(5)
    pos = GAME.start_position(GAME.parse_rules(None))
    move = SAMPLER.sample(pos, rng)
    assert isinstance(move, PieceTurn) and move in set(pos.legal_moves())
    pos = GAME.start_position(GAME.parse_rules("two-pieces-per-turn"))
    turn = SAMPLER.sample(pos, rng)
    assert isinstance(turn, Turn) and len(turn.parts) == 2
    assert GAME.parse_move(GAME.format_move(turn, pos), pos) == turn
    over = GAME.parse_position("333333/333333/333333/333333/333333/033333 6/6/6/6/df4/Ss4 w",
                               GAME.parse_rules(None))
    assert SAMPLER.sample(over, rng) is None
    assert GAME.sampler is SAMPLER


def test_dialect():
    assert GAME.dialect is DIALECT
    assert DIALECT.sniff(["c1:c2>b2,c1-c2"]) and not DIALECT.sniff(["c1:c2>b2,c1-c2", "1-0x"])
