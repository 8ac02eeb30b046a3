"""Shih deep checks, marked slow (run with ``-m slow``): perft(2) and long random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.games.shih import GAME
from notation_tools.analysis.perft import perft
from notation_tools.analysis.generate import random_move

RULES = GAME.parse_rules("standard")


@pytest.mark.slow
def test_perft_2_of_default_start():
    """Regression figure computed by this engine (the rules give perft(1) only, §16); the
    counted last level must agree with enumerating it."""
    position = GAME.start_position(RULES)
    assert perft(position, 2) == 7_784_321
    total = 0
    for move in list(position.legal_moves())[::50]:
        position.push(move)
        assert position.count_legal_moves() == sum(1 for _ in position.legal_moves())
        total += 1
        position.pop()
    assert total > 50


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 1_000_000))
def test_long_random_games_replay(seed):
    rng = random.Random(seed)
    position = GAME.start_position(RULES)
    replay = position.copy()
    for _ in range(200):
        move = random_move(GAME, position, rng)
        if move is None:
            break
        text = GAME.format_move(move, position)
        assert GAME.parse_move(text, replay) == move
        position.push(move)
        replay.push(move)
        assert GAME.format_position(GAME.parse_position(GAME.format_position(position), RULES)) \
            == GAME.format_position(position)
    assert position == replay
