"""Shih in the one-package shape: the typed Options (one field per option value), the pieces
ranks read through the shared decode_rank, the declared codes, the template signatures of the
Position, the drawings and the statistics hooks."""

from __future__ import annotations

import dataclasses
import inspect
import xml.etree.ElementTree as ET

import pytest

from notation_tools.codes import SHARED_CODES
from notation_tools.games.base import (BadPositionError, IllegalMoveError, MoveSyntaxError,
                                       StatsCollector, Style, options_of)
from notation_tools.games.shih import GAME, Move, Options, Position, Stats, Turn
from notation_tools.games.shih import position as position_module
from notation_tools.games.shih import render
from notation_tools.games.shih.notation import DIALECT, NOTATIONS
from notation_tools.games.shih.options import OPTIONS
from notation_tools.games.shih.pieces import (BLUE, COUNT, MAX_WIDTH, RED, RIM_SIDES, ROW_COUNT,
                                              SHARED_EDGES, SPACES, UP_SPACES, WIDTHS)
from notation_tools.games.shih.position import DEFAULT_START

RULES = GAME.parse_rules("standard")
STUCK = "H8S/11S/13S/15S/15S/13S/11S/9S br7/11/13/15/15/13/11/9 22 b"
"""Blue's only piece a1 can neither step nor spin, but Blue still has Power Spins."""


# ---- Options: one typed field per option, every value (§11) ---------------------------------


def options(text: str) -> Options:
    return options_of(Options, GAME.parse_rules(text))


def test_options_has_one_field_per_option_and_is_frozen():
    fields = [field.name for field in dataclasses.fields(Options) if field.init]
    assert fields == [option.field_name for option in OPTIONS]
    standard = options("standard")
    with pytest.raises(dataclasses.FrozenInstanceError):
        standard.win_threshold = 3  # type: ignore[misc]
    assert options("standard") is standard  # cached per rules


@pytest.mark.parametrize(("text", "field", "value"), [
    ("pieces-per-player=14", "pieces_per_player", 14),
    ("pieces-per-player=16", "pieces_per_player", 16),
    ("first-player=blue", "first_side", BLUE),
    ("first-player=red", "first_side", RED),
    ("power-spins-per-player=0", "power_spins_per_player", 0),
    ("power-spins-per-player=9", "power_spins_per_player", 9),
    ("allow-split-mp-between-pieces=yes", "allow_split_mp_between_pieces", True),
    ("allow-split-mp-between-pieces=no", "allow_split_mp_between_pieces", False),
    ("allow-early-end=yes", "allow_early_end", True),
    ("allow-early-end=no", "allow_early_end", False),
    ("spin-directions=both", "cw_only", False),
    ("spin-directions=cw-only", "cw_only", True),
    ("multi-region-capture=all", "far_only", False),
    ("multi-region-capture=far-only", "far_only", True),
    ("already-enclosed=capture", "exempt", False),
    ("already-enclosed=exempt", "exempt", True),
    ("self-capture=no", "self_capture", False),
    ("self-capture=yes", "self_capture", True),
    ("surrender-counts-as-capture=yes", "surrender_counts_as_capture", True),
    ("surrender-counts-as-capture=no", "surrender_counts_as_capture", False),
    ("simultaneous-nine=draw", "simultaneous_nine", "draw"),
    ("simultaneous-nine=mover-wins", "simultaneous_nine", "mover-wins"),
    ("simultaneous-nine=mover-loses", "simultaneous_nine", "mover-loses"),
    ("win-threshold=1", "win_threshold", 1),
    ("win-threshold=14", "win_threshold", 14),
    ("no-legal-action=pass", "lose_if_stuck", False),
    ("no-legal-action=lose", "lose_if_stuck", True),
    ("draw-no-capture-turns=off", "draw_no_capture_turns", None),
    ("draw-no-capture-turns=12", "draw_no_capture_turns", 12),
    ("draw-repetition=off", "threefold", False),
    ("draw-repetition=threefold", "threefold", True),
])
def test_options_field_per_value(text, field, value):
    assert getattr(options(text), field) == value


def test_options_text_fields_keep_the_option_values():
    chosen = options("first-player=red; spin-directions=cw-only; no-legal-action=lose; "
                     "draw-repetition=threefold; multi-region-capture=far-only; "
                     "already-enclosed=exempt")
    assert (chosen.first_player, chosen.spin_directions, chosen.no_legal_action,
            chosen.draw_repetition, chosen.multi_region_capture, chosen.already_enclosed) == \
        ("red", "cw-only", "lose", "threefold", "far-only", "exempt")


def test_position_reads_the_options_of_its_rules():
    rules = GAME.parse_rules("win-threshold=3")
    assert GAME.start_position(rules).options is options_of(Options, rules)


# ---- the pieces ranks through decode_rank (§3.2) ---------------------------------------------

PIECES_AT = DEFAULT_START.index(" ") + 1
"""Offset of the pieces field in DEFAULT_START."""


@pytest.mark.parametrize(("row_text", "replacement", "message", "fault"), [
    ("bbbbbbbbb", "bbbbxbbbb", "pieces row a: unexpected 'x'", 4),
    ("bbbbbbbbb", "Bbbbbbbbb", "pieces row a: unexpected 'B'", 0),
    ("bbbbbbbbb", "bbbbbbbbbb", "pieces row a: more than 9 squares", 9),
    ("bbbbbbbbb", "12", "pieces row a: bad run of empty squares '12' (1 to 9)", 0),
    ("bbbbbbbbb", "b07", "pieces row a: bad run of empty squares '07' (1 to 9)", 1),
    ("bbbbbbbbb", "bbbb", "pieces row a: 4 squares, not 9", 4),  # short: its end
    ("bbbbbbbbb/", "/", "pieces row a: 0 squares, not 9", 0),
])
def test_pieces_rank_errors_come_from_decode_rank(row_text, replacement, message, fault):
    """§3.2: each rank of the pieces field is read by runs.decode_rank; its message and the
    offset of the fault inside the rank come through, cited as §3.2."""
    text = DEFAULT_START.replace(row_text, replacement, 1)
    with pytest.raises(BadPositionError) as caught:
        GAME.parse_position(text, RULES)
    error = caught.value
    assert (error.code, error.rule, error.message) == ("E-BAD-POSITION", "§3.2", message)
    assert error.offset == PIECES_AT + fault


def test_pieces_rank_offset_counts_the_rows_before_it():
    text = DEFAULT_START.replace("/13/15/15/", "/13/15/1x13/", 1)
    with pytest.raises(BadPositionError) as caught:
        GAME.parse_position(text, RULES)
    assert caught.value.message == "pieces row e: unexpected 'x'"
    assert text[caught.value.offset] == "x"


def test_pieces_runs_up_to_the_row_width_are_read():
    """A run may be as long as its row (15 in rows d and e, 9 in row a)."""
    text = DEFAULT_START.replace("bbbbbbbbb/", "9/", 1)
    assert GAME.parse_position(text, RULES).board[:WIDTHS[0]] == [-1] * WIDTHS[0]
    assert MAX_WIDTH == max(WIDTHS) == 15


# ---- codes and names ------------------------------------------------------------------------


def test_codes_declare_bad_square_and_no_shared_code():
    assert [code.code for code in GAME.codes] == ["E-BAD-SQUARE"]
    (code,) = GAME.codes
    assert code.severity == "error" and code.section == "§1.2"
    assert not {c.code for c in GAME.codes} & {c.code for c in SHARED_CODES}
    with pytest.raises(MoveSyntaxError) as caught:
        GAME.parse_move("d16-d15,--", GAME.start_position(RULES))
    assert caught.value.code == "E-BAD-SQUARE" and caught.value.rule == code.section


def test_template_names():
    assert GAME.position_type.game is GAME and GAME.rules_doc == "docs/rules/shih.md"
    assert Move is Turn and GAME.dialect is DIALECT and GAME.notations == NOTATIONS
    assert isinstance(GAME.new_stats(RULES), Stats)
    assert issubclass(Stats, StatsCollector)
    parameters = list(inspect.signature(Position.legal_moves).parameters.values())[1:]
    keyword_only = inspect.Parameter.KEYWORD_ONLY
    assert [(p.name, p.kind) for p in parameters] == [("origin", keyword_only),
                                                      ("target", keyword_only)]
    for gone in ("is_game_over", "game_over", "move_stack", "settings"):
        assert not hasattr(Position, gone), gone


def test_board_counts_are_named():
    assert (COUNT, SPACES, UP_SPACES, RIM_SIDES, SHARED_EDGES, ROW_COUNT) == \
        (96, 96, 48, 24, 132, 8)


def test_is_over_is_the_base_one():
    position = GAME.parse_position(DEFAULT_START + " 9-0", RULES)
    assert position.is_over() and position.outcome().reason == "threshold"
    assert not GAME.start_position(RULES).is_over()


def test_unknown_notation_is_a_syntax_error():
    with pytest.raises(MoveSyntaxError) as caught:
        GAME.parse_move("b2-b1,--", GAME.start_position(RULES), "pgn")
    assert caught.value.code == "E-SYNTAX" and caught.value.rule == "§12.3"


def test_early_end_message_names_a_power_spin_written_by_the_notation():
    """§4: with allow-early-end=no and no 1-MP action left, the example is a Power Spin; the
    rules ask the notation to write it."""
    position = GAME.parse_position(STUCK, GAME.parse_rules("allow-early-end=no"))
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move("--", position)
    assert caught.value.message == "allow-early-end=no: a legal action remains (e.g. Pa2cw)"
    assert caught.value.rule == "§4"


def test_position_repr_is_the_position_string():
    position = GAME.parse_position(STUCK, RULES)
    assert repr(position) == f"shih.Position({GAME.format_position(position)!r})"


# ---- the start position lives in position.py (§3.3, §3.4) -----------------------------------


def test_start_position_is_the_position_modules():
    rules = GAME.parse_rules("first-player=red; power-spins-per-player=5")
    start = position_module.start_position(rules)
    assert GAME.format_position(start) == DEFAULT_START.replace(" 22 b", " 55 r")
    assert GAME.start_position(rules) == start
    assert GAME.start_position(rules, first_player=BLUE).turn == BLUE
    with pytest.raises(BadPositionError, match="no default start for 16 pieces"):
        position_module.start_position(GAME.parse_rules("pieces-per-player=16"))


def test_default_start_with_red_first_counts_repetitions_from_its_own_key():
    """The default start built for Red to move notes Red-to-move as its first occurrence."""
    rules = GAME.parse_rules("first-player=red; draw-repetition=threefold")
    position = GAME.start_position(rules)
    for text in ["g2-g3,g3-g2", "b2-b1,b1-b2", "g2-g3,g3-g2", "b2-b1,b1-b2"]:
        assert position.outcome() is None
        position.push(GAME.parse_move(text, position))
    assert position.outcome() is not None and position.outcome().reason == "repetition"


# ---- drawings: the template signatures ------------------------------------------------------


def test_text_diagram_takes_marks():
    position = GAME.parse_position(STUCK, RULES)
    for marks in ({"regions"}, {"maze"}, {"coordinates"}, {"regions", "maze"},
                  {"regions", "coordinates"}):
        keywords = {name: True for name in marks}
        assert render.text_diagram(position, marks=frozenset(marks)) == \
            GAME.render_text(position, **keywords)
    assert render.text_diagram(position, style=Style.UNICODE) == \
        GAME.render_text(position, style=Style.UNICODE)


def test_svg_marks_each_change_the_picture():
    """§15.2 with the marks: each one draws its own ``mark-<name>`` group, so the three
    pictures differ from the plain one and from each other."""
    position = GAME.start_position(RULES)
    plain = render.svg(position)
    pictures = {plain}
    for name in GAME.render_options:
        marked = render.svg(position, marks=frozenset({name}))
        assert GAME.render_svg(position, **{name: True}) == marked
        assert f'class="mark-{name}"' in marked and f'class="mark-{name}"' not in plain
        pictures.add(marked)
    assert len(pictures) == 1 + len(GAME.render_options)
    root = ET.fromstring(plain)
    assert root.tag.endswith("svg") and root[0].tag.endswith("title")


# ---- statistics hooks (§14) ------------------------------------------------------------------


def test_stats_hooks_leave_the_position_alone_and_match_replay_figures():
    collector = GAME.new_stats(RULES)
    position = GAME.start_position(RULES)
    for text in ["Pg4cw/a1/a2/a3", "g3cw,--"]:
        move = GAME.parse_move(text, position)
        before = GAME.format_position(position)
        collector.before_move(position, move)
        assert GAME.format_position(position) == before
        position.push(move)
        collector.after_move(position)
    figures = collector.summary(position, position.outcome())
    assert figures["captures"] == 3 and figures["red_spins"] == 1
    assert [entry["action"] for entry in collector.actions] == ["Pg4cw/a1/a2/a3", "g3cw"]
