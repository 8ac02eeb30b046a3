"""Position keys (docs/database.md, "The position index"; each rules reference's "Position
keys"): incremental = recomputed, push/pop restores, the same position by two move orders or
from its position string has the same key, and keys are the same in every process."""

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import random_move, random_playout
from notation_tools.games.base import all_games, signed64

GAMES = all_games()
IDS = [game.id for game in GAMES]


def _walk(game, seed, plies):
    """A random game of up to ``plies`` plies: its position and the moves played."""
    position = game.start_position(game.parse_rules(None))
    played = list(random_playout(game, position, random.Random(seed), plies))
    return position, played


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_tracker_stepping_along_a_line_keys_every_position_as_computed_again(game, seed):
    """``step`` (a replay's one call per ply) is ``after`` then ``before``: a branch keyed
    with ``after`` from where the steps stopped is keyed right too."""
    _, played = _walk(game, seed, 30)
    position = game.start_position(game.parse_rules(None))
    tracker = game.key_tracker(position)
    tracker.before(position)
    for move in played:
        position.push(move)
        assert signed64(tracker.step(position)) == game.position_key(position)
    rng = random.Random(seed)
    move = random_move(game, position, rng) if position.outcome() is None else None
    if move is not None:
        parent = tracker.key
        position.push(move)
        assert signed64(tracker.after(position)) == game.position_key(position)
        position.pop()
        tracker.key = parent
        assert signed64(tracker.after(position)) == game.position_key(position)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_incremental_key_equals_the_key_computed_again_and_pop_restores_it(game, seed):
    rng = random.Random(seed)
    position = game.start_position(game.parse_rules(None))
    tracker = game.key_tracker(position)
    keys = [game.position_key(position)]
    assert signed64(tracker.key) == keys[0]
    for _ in range(40):
        if position.outcome() is not None:
            break
        move = random_move(game, position, rng)
        if move is None:
            break
        tracker.before(position)
        position.push(move)
        assert signed64(tracker.after(position)) == game.position_key(position)
        keys.append(game.position_key(position))
    while len(keys) > 1:
        keys.pop()
        position.pop()
        assert game.position_key(position) == keys[-1]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 30))
def test_a_position_read_from_its_string_has_the_key_of_the_position_played(game, seed, plies):
    position, _ = _walk(game, seed, plies)
    again = game.position(game.format_position(position), game.parse_rules(None))
    assert game.position_key(again) == game.position_key(position)


def _transposed(game, seed):
    """Three random moves a, w, b from a random position, played as a-w-b and as b-w-a;
    both positions when the second order is legal, else None."""
    position, _ = _walk(game, seed, random.Random(seed).randrange(0, 12))
    rng = random.Random(seed + 1)
    first = position.copy()
    moves = []
    for _ in range(3):
        if first.outcome() is not None:
            return None
        move = random_move(game, first, rng)
        if move is None:
            return None
        moves.append(move)
        first.push(move)
    second = position.copy()
    for move in reversed(moves):
        if first.outcome() is not None or not second.is_legal(move):
            return None
        second.push(move)
    return first, second


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_same_position_by_two_move_orders_has_the_same_key(game):
    """A transposition (a-w-b and b-w-a) reaching the same position string gives one key;
    different keys mean different position strings."""
    found = 0
    for seed in range(400):
        pair = _transposed(game, seed)
        if pair is None:
            continue
        first, second = pair
        same = game.format_position(first) == game.format_position(second)
        if same:
            found += 1
            assert game.position_key(first) == game.position_key(second)
        else:
            assert game.position_key(first) != game.position_key(second)
        if found >= 3:
            break
    assert found >= 1, "no transposition met: the test proves nothing"


def test_keys_are_the_same_in_another_process_whatever_its_hash_seed():
    code = ("from notation_tools.games.base import all_games\n"
            "print([g.position_key(g.start_position(g.parse_rules(None))) for g in all_games()])")
    here = [g.position_key(g.start_position(g.parse_rules(None))) for g in GAMES]
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={"PYTHONHASHSEED": seed, "PATH": ""}, check=True).stdout
        assert out.strip() == str(here)
    assert len(set(here)) == len(here)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_material_is_the_count_of_the_occupants_and_compares_as_it(game, seed):
    """``Game.material`` (what the position index stores per run of plies) counts what
    ``occupants`` lists, and two positions' materials are equal when the counts are."""
    from collections import Counter

    _, played = _walk(game, seed, 40)
    position = game.start_position(game.parse_rules(None))
    last = game.material(position)
    for move in played:
        position.push(move)
        material = game.material(position)
        counted = Counter((side, piece) for _, side, piece in game.occupants(position))
        assert dict(material.items()) == dict(counted) and len(material) == len(counted)
        assert all(material.get(piece) == count for piece, count in counted.items())
        assert material.get((0, "no such piece"), 0) == 0
        assert (material == last) == (dict(material.items()) == dict(last.items()))
        last = material
