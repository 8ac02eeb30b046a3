"""The engine's quick answers against its full ones, on positions reached by random legal play
under the rule sets that change them (§6.2, §7, §15, §17): the online test of one unit
against the whole status, the quick yes for a move against the rule-by-rule check, a turn
pushed right after it was read against the same turn played from scratch, and the unit bits
and statuses kept move by move against the oracle's reading of the board."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.games.base import EngineError, options_of
from notation_tools.games.gow import GAME
from notation_tools.games.gow.moves import Step, Turn
from notation_tools.games.gow.options import Options
from notation_tools.games.gow.pieces import IS_FIGHTING, SIDE_OF, SIZE, distance
from notation_tools.games.gow.rules import OnlineFollower, units_online
from tests.games.gow.reference_status import reference_status
from tests.games.gow.test_gow_rules_status import STATUS_OPTIONS
from tests.games.gow.test_gow_random import random_game

RULE_SETS = [None, "rsg", "book", "adjacency-via-relays=yes", "offline-units-block=no",
             "retreat-range=one; offline-retreat=move; moves-after-arsenal=forbid"]


def _positions(seed: int, rule_text: str | None, actions: int = 80, takebacks: bool = False):
    """Positions along a random game played action by action, mid-turn ones included; with
    ``takebacks``, some actions are taken back and some positions copied on the way."""
    rules = GAME.parse_rules(rule_text)
    position = GAME.start_position(rules)
    rng = random.Random(seed)
    for _ in range(actions):
        if position.outcome() is not None:
            return
        choices = list(position.legal_moves())
        if not choices:
            return
        position.push(rng.choice(choices))
        if takebacks and rng.random() < 0.15:
            position.pop()
        if takebacks and rng.random() < 0.1:
            position = position.copy()
        yield position, rng


@pytest.mark.parametrize("rule_text", RULE_SETS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_one_unit_online_agrees_with_the_whole_status_s6_2(rule_text, seed):
    for position, _rng in _positions(seed, rule_text):
        for side in (0, 1):
            for square in sorted(position.units[side]):
                if not IS_FIGHTING[position.board[square]]:
                    continue
                position._touch()  # no status cached: the quick test works it out alone
                quick = position._is_fighting_online(side, square)
                assert quick == bool(position.status(side).online_bits >> square & 1)


@pytest.mark.parametrize("rule_text", RULE_SETS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_quick_yes_for_a_move_agrees_with_the_full_check_s7_s15(rule_text, seed):
    checked = 0
    for position, rng in _positions(seed, rule_text, actions=60):
        work = position.copy()
        work._begin()
        side_units = sorted(work.units[work.turn]) or [0]
        for _ in range(12):
            origin = rng.choice(side_units) if rng.random() < 0.9 else rng.randrange(SIZE)
            near = [s for s in range(SIZE) if distance(origin, s) <= 2 and s != origin]
            dest = rng.choice(near) if rng.random() < 0.95 else rng.randrange(SIZE)
            if not work._is_plain_step(origin, dest):
                continue
            checked += 1
            work._explain_step(Step(origin, dest), 0)  # must not raise
        for step in work.legal_steps():
            plain = work._is_plain_step(step.origin, step.target)
            rare = (work.retreat is not None or work.arsenal_taken is not None
                    or work._enemy_arsenal(step.target, work.turn)
                    or (work.options.two_step_via_online
                        and distance(step.origin, step.target) == 2))
            assert plain or rare, step
    assert checked


@pytest.mark.parametrize("rule_text", RULE_SETS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_pushing_the_turn_just_read_plays_it_as_from_scratch_s17(rule_text, seed):
    """``push`` reuses the steps :meth:`resolve` played; the result, the events, the history
    and every take-back are those of the same turn played anew."""
    rules, _final, played = random_game(seed, 60, rule_text)
    tokens = [token for _fen, _move, token in played]
    reused = GAME.start_position(rules)
    anew = GAME.start_position(rules)
    for token in tokens:
        move = GAME.parse_move(token, reused)
        assert reused._resolved is not None and reused._resolved[0] is move
        reused.push(move)
        anew.push(Turn(move.steps, move.attack))  # equal, not the object resolve kept
        assert GAME.format_position(reused) == GAME.format_position(anew)
        assert reused.last_events == anew.last_events and reused.events == anew.events
        assert reused.outcome() == anew.outcome()
        for side in (0, 1):
            assert reused.status(side).online == anew.status(side).online
    while anew.history:
        assert reused.pop() == anew.pop()
        assert GAME.format_position(reused) == GAME.format_position(anew)


def test_a_changed_position_forgets_the_turn_it_read_s17():
    """A turn read before the position changed is played from scratch, not from the steps
    its reading played."""
    rules = GAME.parse_rules(None)
    position = GAME.start_position(rules)
    move = GAME.parse_move("G8-F8", position)
    position.push(GAME.parse_move("G6-G5", position, "action"))
    assert position._resolved is None
    position.push(move)
    expected = GAME.start_position(rules)
    expected.push(GAME.parse_move("G6-G5,G8-F8", expected))
    assert GAME.format_position(position) == GAME.format_position(expected)


@pytest.mark.parametrize("rules_text", [*STATUS_OPTIONS, *RULE_SETS])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), every=st.sampled_from([1, 3]))
def test_online_follower_reads_what_the_status_worked_out_afresh_says_s6_2(rules_text, seed,
                                                                          every):
    """An :class:`OnlineFollower` shown positions of a game (every action, or every third one,
    with take-backs and copies on the way) answers what each position's status worked out
    from scratch gives its units; a status left in the position's cache is that status."""
    followers = (OnlineFollower(0), OnlineFollower(1))
    reused = 0
    for index, (position, _rng) in enumerate(_positions(seed, rules_text, actions=90,
                                                        takebacks=True)):
        if index % every:
            continue
        fresh = position.copy()
        fresh._touch()
        for side in (0, 1):
            before = followers[side]._online
            online = followers[side].online(position)
            reused += online is before
            expected = fresh.status(side)
            assert online == units_online(expected)
            cached = position._status[side]
            if cached is not None:
                assert (cached.covered_bits, units_online(cached)) == (
                    expected.covered_bits, units_online(expected))
    assert reused


def _position_agrees_with_its_board(position, opts):
    """The unit bits kept move by move equal the board's, and the position's statuses (with
    their cached line coverage) equal the oracle's reading of the board (§6.2)."""
    board = position.board
    for side in (0, 1):
        fighting = relays = 0
        for square, v in enumerate(board):
            if v and SIDE_OF[v] == side:
                if IS_FIGHTING[v]:
                    fighting |= 1 << square
                else:
                    relays |= 1 << square
        assert (position.fighting_bits[side], position.relay_bits[side]) == (fighting, relays)
    squares = [{s for s, v in enumerate(board) if v and SIDE_OF[v] == side} for side in (0, 1)]
    sources = [position.sources(side) for side in (0, 1)]
    first = [reference_status(board, squares[s], s, sources[s], opts) for s in (0, 1)]
    for side in (0, 1):
        blockers = None if opts.offline_units_block else first[1 - side][1]
        covered, online, relays = reference_status(board, squares[side], side, sources[side],
                                                   opts, blockers)
        got = position.status(side)
        assert [got.covered[s] for s in range(SIZE)] == list(covered)
        assert (got.online, got.relays_online) == (online, relays)
        assert got.fighting == sum(1 for s in squares[side] if IS_FIGHTING[board[s]])


@pytest.mark.parametrize("rules_text", [*STATUS_OPTIONS, "offline-units-block=no", "rsg"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_incremental_unit_bits_and_cached_lines_match_the_board_s6_2(rules_text, seed):
    """Action by action, with take-backs and copies, the unit bits and the statuses agree
    with the plain reading of the board."""
    opts = options_of(Options, GAME.parse_rules(rules_text))
    for position, _rng in _positions(seed, rules_text, actions=100, takebacks=True):
        _position_agrees_with_its_board(position, opts)
