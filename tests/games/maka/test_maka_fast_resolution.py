"""Moves found from their destination backwards (issue #14) are the moves the general
resolution of §9.2 finds, with the same warnings, and its errors where it raises."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.games.base import EngineError
from notation_tools.games.maka import GAME
from notation_tools.games.maka.notation import (NOTATIONS, _resolve, parse_pattern,
                                                resolve_pattern)
from notation_tools.games.maka.pieces import NSQ, TYPES, square_name
from notation_tools.games.maka.rules import Position
from tests.games.maka.test_maka_properties import random_board_position, random_rules


def outcome(call):
    try:
        return "ok", call()
    except EngineError as error:
        return "error", (type(error).__name__, error.code, error.message, error.rule,
                         error.offset)


def texts_for(pos: Position, rng: random.Random) -> list[str]:
    """Tokens of legal moves in every notation, and near misses: other designations, other
    targets, the other capture mark, a promotion mark, an origin that holds something else."""
    moves = list(pos.legal_moves())
    texts = []
    captures = [move for move in moves if move.captures]
    chosen = rng.sample(moves, min(len(moves), 12)) + rng.sample(captures, min(len(captures), 12))
    for move in chosen:
        for notation in NOTATIONS:
            text = GAME.format_move(move, pos, notation)
            texts += [text, text.rstrip("+=")]
    for _ in range(25):
        designation = rng.choice(TYPES).abbr if rng.random() < 0.7 else "G"
        origin = square_name(rng.randrange(NSQ)) if rng.random() < 0.3 else ""
        target = square_name(rng.randrange(NSQ))
        texts.append(f"{designation}{origin}{rng.choice('-x')}{target}{rng.choice(['', '+', '='])}")
        texts.append(f"{square_name(rng.randrange(NSQ))}{target}")
    for text in list(texts[:24]):
        texts.append(text.replace("-", "x", 1) if "-" in text else text.replace("x", "-", 1))
        texts.append(text + "+")
    return texts


def check(pos: Position, texts: list[str]) -> int:
    compared = 0
    for text in texts:
        fast = outcome(lambda: _resolve(text, pos))
        general = outcome(lambda: resolve_pattern(text, parse_pattern(text), pos))
        if general[0] == "error" and fast[0] == "error" and general[1][1] == "E-SYNTAX":
            continue  # both refuse the token before any position is read
        assert fast == general, text
        compared += 1
    return compared


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_backward_resolution_agrees_on_positions_of_random_games(seed):
    rng = random.Random(seed)
    rules = GAME.parse_rules(random_rules(rng))
    pos = GAME.start_position(rules)
    for _ in range(rng.randrange(0, 120)):
        moves = list(pos.legal_moves())
        if not moves or pos.outcome() is not None:
            break
        pos.push(rng.choice(moves))
    if pos.outcome_unless_stuck() is None:
        assert check(pos, texts_for(pos, rng))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_backward_resolution_agrees_on_random_crowded_boards(seed):
    rng = random.Random(seed)
    pos = random_board_position(rng, GAME.parse_rules(random_rules(rng)))
    assert check(pos, texts_for(pos, rng))


def test_possible_origins_are_the_squares_that_reach_each_target_on_an_empty_board():
    from notation_tools.games.maka.pieces import (KNIGHT_TARGETS, NCODES, RAYS,
                                                  possible_origins)
    for profile in ("tsa", "modern; lion-dog=linear; teaching-king=2"):
        t = Position([0] * NSQ, 0, 1, GAME.parse_rules(profile)).t
        for code in range(2, NCODES):
            origins = possible_origins(t, code)
            if origins is None:
                continue
            reach = [set() for _ in range(NSQ)]
            for o in range(NSQ):
                for d, run in t.slides[code]:
                    for s in RAYS[o][d][:run]:
                        reach[s].add(o)
                for d in t.jumps[code]:
                    if len(RAYS[o][d]) > 1:
                        reach[RAYS[o][d][1]].add(o)
                if t.knight[code]:
                    for s in KNIGHT_TARGETS[code & 1][o]:
                        reach[s].add(o)
            assert list(origins) == [frozenset(found) for found in reach], code
