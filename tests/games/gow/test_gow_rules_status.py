"""The engine's lines of communication (bit sets, §6.2) against the square-by-square oracle
of tests/games/gow/reference_status.py, on random positions under every option that changes
them (§6.1, §12.1)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import random_move
from notation_tools.games.base import options_of
from notation_tools.games.gow import GAME
from notation_tools.games.gow.options import Options
from notation_tools.games.gow.pieces import (ARSENALS, LETTER_CODE, MOUNTAIN, SIZE, TERRAIN)
from notation_tools.games.gow.rules import compute_status
from tests.games.gow.reference_status import reference_status

STATUS_OPTIONS = [f"adjacency-via-relays={a}; relay-activation={b}; relay-status={c}"
                  for a, b, c in itertools.product(("no", "yes"), ("line", "line-or-adjacent"),
                                                   ("covered-or-adjacent", "covered", "always"))]


def same(board, side, alive, opts, blockers=None):
    squares = {s for s, v in enumerate(board) if v and _side(v) == side}
    enemy = {s for s, v in enumerate(board) if v and _side(v) != side}
    sources = [a for i, a in enumerate(ARSENALS) if alive[i] and _owner(a) == side]
    got = compute_status(board, squares, enemy, side, sources, opts, blockers)
    covered, online, relays = reference_status(board, squares, side, sources, opts, blockers)
    assert [got.covered[s] for s in range(SIZE)] == list(covered)
    assert got.online == online and got.relays_online == relays


def _side(v):
    from notation_tools.games.gow.pieces import SIDE_OF
    return SIDE_OF[v]


def _owner(square):
    from notation_tools.games.gow.pieces import ARSENAL_OWNER
    return ARSENAL_OWNER[square]


@pytest.mark.parametrize("rules_text", STATUS_OPTIONS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_status_of_random_game_positions_matches_the_oracle(rules_text, seed):
    rules = GAME.parse_rules(rules_text)
    opts = options_of(Options, rules)
    position = GAME.start_position(rules)
    rng = random.Random(seed)
    for _ in range(rng.randint(0, 30)):
        move = random_move(GAME, position, rng)
        if move is None:
            break
        position.push(move)
    for side in (0, 1):
        same(position.board, side, position.alive, opts)
        same(position.board, side, position.alive, opts, blockers=set(rng.sample(range(SIZE), 20)))


@pytest.mark.parametrize("rules_text", STATUS_OPTIONS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_status_of_random_boards_matches_the_oracle(rules_text, seed):
    # scattered units anywhere but on mountains: lines cut and chained in every way
    opts = options_of(Options, GAME.parse_rules(rules_text))
    rng = random.Random(seed)
    board = [0] * SIZE
    free = [s for s in range(SIZE) if TERRAIN[s] != MOUNTAIN]
    for square in rng.sample(free, rng.randint(5, 60)):
        board[square] = LETTER_CODE[rng.choice("IiCcAaHhRrMmRrMm")]
    alive = [rng.random() < 0.8 for _ in ARSENALS]
    for side in (0, 1):
        same(board, side, alive, opts)
