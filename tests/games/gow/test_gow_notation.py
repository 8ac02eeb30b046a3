"""The turn token (spec §13.2) and its diagnostics (spec §15): syntax, specific codes, offsets,
the grammar/fast-path agreement, and that garbage raises only EngineError subclasses."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.games.base import EngineError, IllegalMoveError, MoveSyntaxError
from notation_tools.games.gow import GAME, notation
from notation_tools.games.gow.moves import Attack, EndTurn, Step, Turn
from notation_tools.games.gow.pieces import NAMES, SQUARE


def start():
    return GAME.start_position(GAME.parse_rules(None))


@pytest.mark.parametrize("token, code, offset, hint", [
    ("", "E-SYNTAX", 0, "empty"),
    ("g8-H9", "E-SYNTAX", 0, "upper case"),
    ("G08-H9", "E-SYNTAX", 1, "leading zero"),
    ("XL8", "E-SYNTAX", 0, "lower-case x"),
    ("xL8=O", "E-SYNTAX", 3, "digit zero"),
    ("xL8=d", "E-SYNTAX", 3, "upper case"),
    ("G8-H9,,G6-G5", "E-SYNTAX", 6, "empty action"),
    ("G8 H9", "E-SYNTAX", 2, "no spaces"),
    (" G8-F8", "E-SYNTAX", 0, "no spaces"),
    ("G8 - F8", "E-SYNTAX", 2, "no spaces"),
    ("1.G8-H9", "E-SYNTAX", 0, "digit"),
    ("--,G8-H9", "E-SYNTAX", 0, "stands alone"),
    ("U3-U4", "E-SQUARE", 0, "rows are A to T"),
    ("A26-A25", "E-SQUARE", 0, "columns 1 to 25"),
    ("G8-A0", "E-SQUARE", 3, "columns 1 to 25"),
    ("xL8,G8-H9", "E-ATTACK-NOT-LAST", 4, "ends the turn"),
    ("xL8,xL9", "E-TWO-ATTACKS", 4, "at most one attack"),
    ("A1-A2,A2-A3,A3-A4,A4-A5,A5-A6,A6-A7", "E-TOO-MANY-MOVES", 30, "at most 5"),
])
def test_syntax_errors_s13_2_s15(token, code, offset, hint):
    with pytest.raises(MoveSyntaxError) as info:
        GAME.parse_move(token, start())
    assert info.value.code == code
    assert info.value.offset == offset
    assert hint in info.value.message


@pytest.mark.parametrize("token, code", [
    ("K15-J15", "E-NOT-OWN-UNIT"),
    ("A1-A2", "E-NO-UNIT"),
    ("G8-F8,F8-E8", "E-UNIT-MOVED-TWICE"),
    ("G9-G10", "E-DEST-MOUNTAIN"),
    ("G8-G7", "E-DEST-OCCUPIED"),
    ("G8-G10", "E-DEST-MOUNTAIN"),
    ("G8-E8", "E-TOO-FAR"),
    ("G3-G1", None),
    ("xK15", "E-ATTACK-NO-OFFENCE"),
    ("xG8", "E-ATTACK-NO-TARGET"),
    ("xB15", "E-ATTACK-NO-TARGET"),
])
def test_rule_errors_from_book_opening_s15(token, code):
    position = start()
    if code is None:
        GAME.parse_move(token, position)
        return
    with pytest.raises(IllegalMoveError) as info:
        GAME.parse_move(token, position)
    assert info.value.code == code
    assert info.value.rule and info.value.rule.startswith("§")


def test_error_offset_points_at_the_action_s15():
    with pytest.raises(IllegalMoveError) as info:
        GAME.parse_move("G8-F8,G8-G7", start())
    assert info.value.offset == 6 and info.value.code == "E-NO-UNIT"


def test_parse_leaves_position_unchanged_s13_2():
    position = start()
    before = GAME.format_position(position)
    GAME.parse_move("H3-J2,G3-I3,H6-I7,I6-I5,F10-F11", position)
    with pytest.raises(EngineError):
        GAME.parse_move("H3-J2,G3-I3,xK15", position)
    assert GAME.format_position(position) == before
    assert not position.started and position.history == []


def test_all_token_forms_s13_2():
    position = start()
    for token in ("--", "G8-F8", "H3-J2,G3-I3,H6-I7,I6-I5,F10-F11"):
        move = GAME.parse_move(token, position)
        assert GAME.format_move(move, position) == token
        assert eval(repr(move)) == move
    assert notation.parse_token("K8-K9,J8-J9,xL12=R")[1] == (SQUARE["L12"], "R", 12)
    assert notation.parse_token("T1-T2,xS2=0")[1][1] == "0"


def test_action_notation_s17():
    position = start()
    assert GAME.parse_move("G8-F8", position, "action") == Step.of("G8", "F8")
    assert GAME.parse_move("--", position, "action") == EndTurn()
    position.push(Step.of("G8", "F8"))
    with pytest.raises(IllegalMoveError):
        GAME.parse_move("F8-E8", position, "action")
    assert GAME.format_move(EndTurn(), position) == "--"
    assert eval(repr(Attack.of("L8", "D"))) == Attack(SQUARE["L8"], "D")


def _grammar(part: str):
    try:
        return notation._parse_with_grammar(part, 0)
    except MoveSyntaxError as error:
        return error.code


def _fast(part: str):
    try:
        return notation._parse_action(part, 0)
    except MoveSyntaxError as error:
        return error.code


_square_text = st.builds(lambda r, c: f"{r}{c}", st.sampled_from("ABCDEFGHIJKLMNOPQRSTUZab"),
                         st.sampled_from(["0", "1", "9", "10", "19", "25", "26", "05", "100"]))
_part = st.one_of(
    st.builds(lambda a, b: f"{a}-{b}", _square_text, _square_text),
    st.builds(lambda a, m: f"x{a}{m}", _square_text, st.sampled_from(["", "=D", "=R", "=0", "=O", "=X"])),
    st.text(max_size=8))


@given(_part)
@settings(deadline=None)
def test_fast_path_agrees_with_grammar_s13_2(part):
    assert _fast(part) == _grammar(part)


def test_squares_named_as_in_the_book_s2():
    assert NAMES[0] == "A1" and NAMES[499] == "T25" and SQUARE["B15"] == 39
    assert Turn((), None).text() == "--"
