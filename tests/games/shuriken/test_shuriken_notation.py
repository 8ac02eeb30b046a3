"""Shuriken 2D turn tokens (§7) and their diagnostics (§8); format/parse round trips."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.games.base import EngineError, MoveSyntaxError
from notation_tools.games.shuriken import GAME
from notation_tools.games.shuriken import notation
from notation_tools.games.shuriken.notation import TOKEN, format_move, parse_pattern
from notation_tools.games.shuriken.pieces import CELL_NAME, COLUMNS
from notation_tools.games.shuriken.moves import PLACES, SWAP, Place
from notation_tools.analysis.generate import random_move

RULES = GAME.parse_rules(None)


@pytest.mark.parametrize("text, move", [
    ("K10", Place(10, 11)), ("A1", Place(1, 1)), ("S19", Place(19, 19)), ("I9", Place(9, 9)),
    ("k10", Place(10, 11)), ("s19", Place(19, 19)), ("K010", Place(10, 11)),
    ("A01", Place(1, 1)), ("swap", SWAP), ("SWAP", SWAP), ("Swap", SWAP),
])
def test_s7_cell_tokens(text, move):
    """§7: column letter + row number, case-insensitive; ``swap``; leading zeros accepted."""
    assert parse_pattern(text) == move


@pytest.mark.parametrize("move, text", [
    (Place(10, 11), "K10"), (Place(1, 1), "A1"), (Place(19, 19), "S19"), (SWAP, "swap")])
def test_s7_canonical_output(move, text):
    """§7: canonical output is upper case without leading zeros."""
    assert format_move(move) == text
    assert GAME.format_move(move, GAME.start_position(RULES)) == text


@pytest.mark.parametrize("text, offset", [
    ("K-10", 1), ("", 0), ("10K", 0), ("KK10", 1), ("K10x", 3), (" K10", 0), ("K10 ", 3),
    ("K 10", 1), ("K1.0", 2), ("swa", 1), ("swapK10", 4), ("ä1", 0), ("K", 1),
])
def test_s8_syntax_errors(text, offset):
    """§8: a text that is not a cell name is E-SYNTAX with the spec's message."""
    with pytest.raises(MoveSyntaxError) as caught:
        parse_pattern(text)
    assert caught.value.code == "E-SYNTAX"
    assert caught.value.message == f"{text!r} is not a cell (column A–S, row 1–19)"
    assert caught.value.rule == "§7"
    assert 0 <= caught.value.offset <= len(text)
    assert caught.value.offset == offset


def test_s8_syntax_message_of_the_spec():
    """§8: `K-10` gives the spec's message."""
    message = "'K-10' is not a cell \\(column A–S, row 1–19\\)"
    with pytest.raises(MoveSyntaxError, match=message):
        GAME.parse_move("K-10", GAME.start_position(RULES))


@pytest.mark.parametrize("text, message, offset", [
    ("T5", "column T is off the board (A–S)", 0),
    ("z1", "column Z is off the board (A–S)", 0),
    ("A20", "row 20 is off the board (1–19)", 1),
    ("A0", "row 0 is off the board (1–19)", 1),
    ("A000", "row 0 is off the board (1–19)", 1),
    ("A" + "9" * 5000, "row 999999… is off the board (1–19)", 1),
])
def test_s8_off_the_board(text, message, offset):
    """§1.1, §8: E-BAD-SQUARE names the column or row that is off the board."""
    with pytest.raises(MoveSyntaxError) as caught:
        parse_pattern(text)
    assert caught.value.code == "E-BAD-SQUARE"
    assert caught.value.message == message
    assert caught.value.offset == offset


def test_s7_every_cell_name_round_trips():
    """§7, G8: every board name parses to its Place and formats back."""
    for cell, name in CELL_NAME.items():
        move = parse_pattern(name)
        assert move == PLACES[cell]
        assert format_move(move) == name
        assert parse_pattern(name.lower()) == move


def test_grammar_is_the_definition_and_the_cache_agrees():
    """The pyparsing grammar accepts exactly what the cache was seeded with (§7)."""
    for name in ("K10", "a1", "swap", "S19"):
        result = TOKEN.parse_string(name, parse_all=True)
        assert ("swap" in result) == (name == "swap")
    assert parse_pattern("q7") is parse_pattern("Q7")


def test_cache_does_not_grow_without_bound():
    """Garbage texts are not cached; valid odd spellings are cached only up to a limit."""
    size = len(notation._CACHE)
    for i in range(50):
        with pytest.raises(MoveSyntaxError):
            parse_pattern(f"?{i}")
    assert len(notation._CACHE) == size
    assert notation._CACHE_LIMIT <= 100_000


def test_non_text_moves_raise_engine_errors():
    """parse_move never raises anything but EngineError, whatever it is given."""
    for value in (None, 5, ["K10"], b"K10"):
        with pytest.raises(MoveSyntaxError):
            parse_pattern(value)  # type: ignore[arg-type]
    with pytest.raises(MoveSyntaxError):
        GAME.move_from_json(["K10"], GAME.start_position(RULES))


def test_unknown_notation_is_an_engine_error():
    with pytest.raises(MoveSyntaxError, match="no notation"):
        GAME.parse_move("K10", GAME.start_position(RULES), notation="sgf")
    assert GAME.parse_move("K10", GAME.start_position(RULES), notation="cell") == Place(10, 11)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_garbage_raises_only_engine_errors(text):
    """G8/brief: no text makes parse_move raise anything but an EngineError."""
    position = GAME.start_position(RULES)
    try:
        move = GAME.parse_move(text, position)
    except EngineError as error:
        assert error.code in ("E-SYNTAX", "E-BAD-SQUARE", "E-ILLEGAL-MOVE")
        assert 0 <= error.offset <= len(text)
    else:
        assert parse_pattern(GAME.format_move(move, position)) == move


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(COLUMNS + COLUMNS.lower()), st.integers(0, 25), st.integers(0, 2))
def test_cell_texts_parse_or_name_the_fault(column, row, zeros):
    """§7, §8: letter+number texts parse to that cell, or are E-BAD-SQUARE for the row."""
    text = f"{column}{'0' * zeros}{row}"
    if 1 <= row <= 19:
        move = parse_pattern(text)
        assert (move.row, move.col) == (row, COLUMNS.index(column.upper()) + 1)
        assert format_move(move) == f"{column.upper()}{row}"
    else:
        with pytest.raises(MoveSyntaxError) as caught:
            parse_pattern(text)
        assert caught.value.code == "E-BAD-SQUARE"


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_random_games_format_parse_round_trip(seed):
    """G8: on random legal games, parse(format(m)) == m for every move, swap included."""
    rng = random.Random(seed)
    rules = GAME.parse_rules("swap=yes")
    position = GAME.start_position(rules)
    while position.outcome() is None:
        move = random_move(GAME, position, rng)
        text = GAME.format_move(move, position)
        assert GAME.parse_move(text, position) == move
        assert GAME.parse_move(text.lower(), position) == move
        assert GAME.move_from_json(GAME.move_to_json(move, position), position) == move
        position.push(move)
