"""Maka-Dai-Dai Shogi property tests (§14.2): random legal games, round trips, symmetry, garbage."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.games.maka import GAME
from notation_tools.games.maka.pieces import NSQ, SIZE, TYPES
from notation_tools.games.maka.rules import Position
from notation_tools.analysis.generate import random_move

OPTION_VALUES = {o.name: o.values for o in GAME.options}


def random_rules(rng: random.Random) -> str:
    profile = rng.choice(["tsa", "modern"])
    parts = [profile]
    for name, values in OPTION_VALUES.items():
        if rng.random() < 0.3:
            parts.append(f"{name}={rng.choice(values)}")
    return "; ".join(parts)


def random_board_position(rng: random.Random, rules) -> Position:
    """A random middle-game-like position: both Kings plus a random crowd of pieces."""
    board = [0] * NSQ
    squares = rng.sample(range(NSQ), 60)
    board[squares[0]] = 1 * 2  # Black King (type id 1)
    board[squares[1]] = 1 * 2 + 1
    for sq in squares[2:]:
        board[sq] = (rng.randrange(len(TYPES)) + 1) * 2 + rng.randrange(2)
    return Position(board, rng.randrange(2), rng.randrange(1, 50), rules)


def play_random(pos: Position, rng: random.Random, plies: int) -> list:
    moves = []
    for _ in range(plies):
        move = random_move(GAME, pos, rng)
        if move is None:
            break
        moves.append(move)
        pos.push(move)
    return moves


def check_round_trips(pos: Position, move) -> None:
    for notation in GAME.notations:
        text = GAME.format_move(move, pos, notation)
        res = GAME.resolve_move(text, pos, notation)
        back = res.move
        if notation == "tsa" and move in res.alternatives:
            from notation_tools.games.maka.notation import output_is_ambiguous
            assert output_is_ambiguous(move, pos)
            continue  # the Gold case (§9.2 step 6), reported as W-AMBIGUOUS-OUTPUT by convert
        if move.is_pass and notation == "tsa":
            # §9.4: `!` never carries an origin; any pass of the same type gives the same position
            assert back.is_pass and pos.board[back.origin] == pos.board[move.origin]
            continue
        assert back == move, (notation, text)
        if notation == "tsa-full":
            assert GAME.parse_move(text, pos) == move
    data = GAME.move_to_json(move, pos)
    assert GAME.move_from_json(data, pos) == move


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_games_replay_in_every_notation(seed):
    """§14.2: random legal games (random options) replay; every notation round-trips."""
    rng = random.Random(seed)
    rules = GAME.parse_rules(random_rules(rng))
    pos = GAME.start_position(rules)
    start = pos.copy()
    moves = play_random(pos, rng, 60)
    replay = start
    for move in moves:
        # the canonical TSA token resolves to its own move (or the Gold case keeps it as a reading)
        res = GAME.resolve_move(GAME.format_move(move, replay), replay)
        assert move in (res.move, *res.alternatives) or move.is_pass and res.move.is_pass
        check_round_trips(replay, move)
        replay.push(move)
    assert GAME.format_position(replay) == GAME.format_position(pos)
    text = GAME.format_position(pos)
    assert GAME.format_position(GAME.parse_position(text, rules)) == text


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_crowded_random_positions(seed):
    """§14.2 on crowded random positions (Lions, hook movers, Emperors among pieces)."""
    rng = random.Random(seed)
    rules = GAME.parse_rules(random_rules(rng))
    pos = random_board_position(rng, rules)
    text = GAME.format_position(pos)
    assert GAME.format_position(GAME.parse_position(text, rules)) == text
    moves = list(pos.legal_moves())
    assert len(moves) == len(set(moves))
    for move in rng.sample(moves, min(25, len(moves))):
        check_round_trips(pos, move)
        before = GAME.format_position(pos)
        pos.push(move)
        pos.pop()
        assert GAME.format_position(pos) == before


def rotate(pos: Position) -> Position:
    board = [0] * NSQ
    for sq, code in enumerate(pos.board):
        if code:
            board[NSQ - 1 - sq] = code ^ 1
    return Position(board, pos.turn ^ 1, pos.move_number, pos.rules)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_rotation_symmetry(seed):
    """§14.2: a 180° rotation with colours swapped maps legal moves one-to-one."""
    rng = random.Random(seed)
    rules = GAME.parse_rules(random_rules(rng))
    pos = random_board_position(rng, rules)
    turned = rotate(pos)
    a = {(m.origin, m.target, frozenset(m.captures), m.becomes) for m in pos.legal_moves()}
    b = {(NSQ - 1 - m.origin, NSQ - 1 - m.target, frozenset(NSQ - 1 - c for c in m.captures), m.becomes)
         for m in turned.legal_moves()}
    assert a == b


def test_mirror_is_not_a_symmetry():
    """§3.5: a left-right mirror does not preserve the moves (chiral pieces)."""
    fen = "18,vK/19/19/19/19/19/19/19/19/9,DV,9/19/19/19/19/19/19/19/19/K,18 b 1"
    pos = GAME.parse_position(fen, GAME.parse_rules(None))
    dests = {m.target for m in pos.legal_moves(origin=9 * SIZE + 9)}
    mirrored = {(s // SIZE) * SIZE + SIZE - 1 - s % SIZE for s in dests}
    assert dests != mirrored




@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_long_random_games_slow(seed):
    """§14.2, longer: 300-ply random games under random options replay in every notation."""
    rng = random.Random(seed)
    rules = GAME.parse_rules(random_rules(rng))
    pos = GAME.start_position(rules)
    start = pos.copy()
    for move in play_random(pos, rng, 300):
        check_round_trips(start, move)
        start.push(move)


def _pyparsing_accepts(grammar, text):
    import pyparsing as pp
    try:
        grammar.parse_string(text)
    except pp.ParseBaseException:
        return False
    return True


GRAMMAR_ALPHABET = "PLnGKFDxE+=!-01239abcfjsltvwyz"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=GRAMMAR_ALPHABET, min_size=1, max_size=14)
       | st.from_regex(r"\+?[A-Z][a-z]?[0-9]{1,2}[a-s]?([-x][0-9]{1,2}[a-s]){1,3}[+=]?", fullmatch=True))
def test_fast_path_regex_equals_pyparsing_grammar(text):
    """§9.1/§9.6: the compiled fast path and the pyparsing grammar accept the same tokens."""
    from notation_tools.games.maka import notation
    assert (notation.TSA_RE.fullmatch(text) is not None) == _pyparsing_accepts(notation.TSA_GRAMMAR, text)
    assert (notation.COORD_RE.fullmatch(text) is not None) == _pyparsing_accepts(notation.COORD_GRAMMAR, text)
    if notation.TSA_RE.fullmatch(text) is not None:
        fast = notation._split_tsa(text)
        notation.TSA_RE, saved = __import__("re").compile(r"(?!)"), notation.TSA_RE
        try:
            slow = notation._split_tsa(text)
        finally:
            notation.TSA_RE = saved
        assert [fast[0], fast[1] or None, fast[2], [tuple(x) for x in fast[3]], fast[4]] == \
            [slow[0], slow[1] or None, slow[2], [tuple(x) for x in slow[3]], slow[4]]
