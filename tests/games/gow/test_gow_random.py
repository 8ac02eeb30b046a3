"""Random legal games (spec §17): generated turns replay through the notation, every notation
round-trips, push/pop restore positions, and the turn checker agrees with the generator."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.games.base import EngineError
from notation_tools.games.gow import GAME
from notation_tools.games.gow.moves import EndTurn, Step
from notation_tools.analysis.perft import perft
from notation_tools.analysis.generate import random_move

RULE_SETS = [None, "rsg", "book",
             "charge-directions=single; fire-blocked-by=enemy; offline-units-block=no; "
             "retreat-range=one; offline-retreat=move; retreat-to-enemy-arsenal=destroy; "
             "attack-minimum=any; moves-after-arsenal=forbid; relay-status=always; "
             "adjacency-via-relays=yes; terrain-bonus-scope=target"]


def random_game(seed: int, turns: int, rule_text: str | None = None):
    rules = GAME.parse_rules(rule_text)
    rng = random.Random(seed)
    position = GAME.start_position(rules)
    played = []
    for _ in range(turns):
        move = random_move(GAME, position, rng)
        if move is None:
            break
        played.append((GAME.format_position(position), move, GAME.format_move(move, position)))
        position.push(move)
    return rules, position, played


@pytest.mark.parametrize("rule_text", RULE_SETS)
def test_random_games_replay_s17(rule_text):
    rules, final, played = random_game(7, 120, rule_text)
    replay = GAME.start_position(rules)
    for fen_before, move, token in played:
        assert GAME.format_position(replay) == fen_before
        parsed = GAME.parse_move(token, replay)
        assert parsed == move
        assert GAME.format_move(parsed, replay) == token
        assert eval(repr(parsed), vars(__import__("notation_tools.games.gow.moves", fromlist=["x"]))) == parsed
        replay.push(parsed)
    assert GAME.format_position(replay) == GAME.format_position(final)
    while replay.history:
        replay.pop()
    assert GAME.format_position(replay) == played[0][0]


@given(st.integers(0, 10_000), st.sampled_from(RULE_SETS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_hypothesis_round_trips_s5_4_s13_2(seed, rule_text):
    rules, final, played = random_game(seed, 40, rule_text)
    for fen_before, move, token in played:
        position = GAME.parse_position(fen_before, rules)
        assert GAME.format_position(position) == fen_before
        assert GAME.parse_move(token, position) == move
    text = GAME.format_position(final)
    assert GAME.format_position(GAME.parse_position(text, rules)) == text


@given(st.integers(0, 10_000))
@settings(max_examples=10, deadline=None)
def test_checker_agrees_with_generator_s17(seed):
    """Every generated step passes the checker; every other step of an own unit is refused."""
    rules, position, _ = random_game(seed, 30)
    rng = random.Random(seed)
    position._begin()
    legal = {(s.origin, s.target) for s in position.legal_steps()}
    origins = sorted(position.units[position.turn])
    for origin in rng.sample(origins, min(5, len(origins))):
        for dest in range(500):
            token = f"{Step(origin, dest).text()}"
            try:
                GAME.parse_move(token, position)
                accepted = True
            except EngineError:
                accepted = False
            assert accepted == ((origin, dest) in legal), token


def test_action_level_push_pop_s17():
    rules, position, _ = random_game(3, 20)
    before = GAME.format_position(position)
    actions = list(position.legal_moves())
    assert isinstance(actions[-1], EndTurn) or position._retreat_now()
    for action in actions[:30]:
        position.push(action)
        position.pop()
        assert GAME.format_position(position) == before
    assert perft(position, 1) == len(actions)


def test_random_move_none_when_decided_s10():
    fen = ("25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/19iI4/21C3/2r22/25 "
           "N B15,D8,T23 - 31")
    position = GAME.parse_position(fen, GAME.parse_rules(None))
    position.push(GAME.parse_move("R22-T23", position))
    assert position.outcome() is not None
    assert random_move(GAME, position, random.Random(0)) is None
    assert list(position.legal_moves()) == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_long_random_games_slow(seed):
    rules, final, played = random_game(seed, 400, RULE_SETS[seed % len(RULE_SETS)])
    replay = GAME.start_position(rules)
    for _, move, token in played:
        replay.push(GAME.parse_move(token, replay))
    assert GAME.format_position(replay) == GAME.format_position(final)
