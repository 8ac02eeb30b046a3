"""The engine's fast paths give exactly what the reference paths give (issue #14).

Counting without building (``_count_turns``, ``piece_turn_counts``), building one piece-turn
by its index (``legal_piece_turn_at``), the remembered proof of "has a legal turn", the
sampler's draw and ``pop`` restoring from the repetition keys are each checked against the
plain generator, on set-up positions with uneven terrain and on positions reached by random
legal play, under every option value (§4, §5, §8, §9).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.games.elevation import GAME
from notation_tools.games.elevation.pieces import ADJACENT_BITS, DRAGON
from notation_tools.games.elevation.rules import Position, _Turns
from notation_tools.games.elevation.sampling import SAMPLER

from tests.games.elevation.test_elevation_properties import OPTION_TEXTS, positions

COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def played_positions(draw):
    """A position reached by random legal play from the default start under some rules."""
    rules = GAME.parse_rules(draw(st.sampled_from(OPTION_TEXTS)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    pos = GAME.start_position(rules)
    for _ in range(draw(st.integers(0, 80))):
        if pos.outcome() is not None:
            break
        pos.push(rng.choice(pos.legal_piece_turns()))
    return pos


def _own_pieces(pos: Position) -> list[tuple[int, int]]:
    return [(square, cell) for square, cell in enumerate(pos.board) if cell and cell >> 2 == pos.turn]


def _check_counts_and_picks(pos: Position, rng: random.Random) -> None:
    before = (pos.key(), pos.counts)
    for square, piece in _own_pieces(pos):
        assert pos._count_turns(square, piece) == pos._piece_turns(square, piece, None, False)
    turns = pos.legal_piece_turns()
    counts = pos.piece_turn_counts()
    assert sum(count for _square, count in counts) == len(turns)
    indexes = range(len(turns)) if len(turns) <= 60 else rng.sample(range(len(turns)), 60)
    plain = list(counts)   # without the section sizes counted with them: each is counted again
    for index in indexes:
        assert pos.legal_piece_turn_at(index, counts) == turns[index]
        assert pos.legal_piece_turn_at(index, plain) == turns[index]
    assert (pos.key(), pos.counts) == before   # counting and picking leave the position as it was
    for exclude, _piece in _own_pieces(pos)[:2]:
        rest = pos.legal_piece_turns(exclude)
        assert pos.has_legal_turn(exclude) == bool(rest)
        assert sum(count for _square, count in pos.piece_turn_counts(exclude)) == len(rest)


COMBINED_TEXTS = [
    "undermining; forbid-null-dig-pair; max-height=4",
    "undermining; samurai-undermine-and-move; basic-move-optional; forbid-null-dig-pair; max-height=3",
    "forbid-null-dig-pair; max-height=2; initial-height=1",
]
"""Option sets that change the dig ends and the DD count together (none of OPTION_TEXTS has
two of them)."""


def _bits(squares):
    return sum(1 << square for square in squares)


@settings(max_examples=80, **COMMON)
@given(positions(OPTION_TEXTS + COMBINED_TEXTS))
def test_dig_end_bits_and_dig_twice_sizes_agree_with_the_generator(pos):
    """§4.2, §4.5: the bit sets of the dig ends hold the squares ``_dig_ends`` lists, and the
    DD sizes (and their sum counted term by term) are what the generator builds after each
    first dig."""
    side = pos.turn
    ends = pos._dig_end_bits(side)
    undermining = pos.options.undermining
    for square, piece in _own_pieces(pos):
        near = ADJACENT_BITS[square]
        for undermine in (False, True):
            sources, targets = pos._dig_ends(square, side, undermine)
            if targets:
                assert _bits(sources) == near & ends[undermine]
            assert _bits(targets) == near & ends[2]
        only, _targets = pos._dig_ends(square, side, True, True)
        if only:
            assert _bits(only) == near & ends[1] & ~ends[0]
        if piece & 3 != DRAGON:
            continue
        built = _Turns()
        pos._piece_turns(square, piece, built, False)
        after_first: dict[tuple[int, int], int] = {}
        for turn in built:
            if turn.option == "DD":
                first = turn.actions[0]
                after_first[first.source, first.target] = after_first.get((first.source, first.target), 0) + 1
        size = pos._dig_twice_sizes(square, side)
        assert {dig: size(dig) for dig in pos._digs(square, side, undermining) if size(dig)} == after_first
        assert pos._count_dig_twice(square, side) == pos._count_dig_twice(square, side, ends) == sum(
            after_first.values())


@settings(max_examples=40, **COMMON)
@given(positions(OPTION_TEXTS + COMBINED_TEXTS), st.randoms(use_true_random=False))
def test_fast_counts_and_picks_on_set_up_positions(pos, rng):
    """The counter without building and the one-turn builder agree with the generator."""
    _check_counts_and_picks(pos, rng)
    assert pos.has_legal_turn() == bool(pos.legal_piece_turns())


@settings(max_examples=25, **COMMON)
@given(played_positions(), st.randoms(use_true_random=False))
def test_fast_counts_and_picks_on_played_positions(pos, rng):
    _check_counts_and_picks(pos, rng)


@settings(max_examples=20, **COMMON)
@given(st.sampled_from(OPTION_TEXTS), st.integers(0, 2**32 - 1))
def test_has_legal_turn_with_remembered_proof_along_a_game(rules_text, seed):
    """§5: asked at every ply (so the proof remembered at one ply is tried at the next), the
    quick answer is the generator's, for both sides, and ``outcome`` follows it."""
    rng = random.Random(seed)
    pos = GAME.start_position(GAME.parse_rules(rules_text))
    for _ in range(60):
        turns = pos.legal_piece_turns()
        assert pos.has_legal_turn() == bool(turns)
        if pos.outcome() is not None:
            break
        pos.push(rng.choice(turns))


@settings(max_examples=20, **COMMON)
@given(st.sampled_from(OPTION_TEXTS), st.integers(0, 2**32 - 1))
def test_sampler_draws_what_a_choice_from_the_whole_list_draws(rules_text, seed):
    """The same seed gives the same games as ``rng.choice(legal turns)`` did: the sampler
    draws the index from a range of the same length."""
    if "two-pieces-per-turn" in rules_text:
        return
    pos = GAME.start_position(GAME.parse_rules(rules_text))
    ours, reference = random.Random(seed), random.Random(seed)
    for _ in range(40):
        if pos.outcome() is not None:
            assert SAMPLER.sample(pos, ours) is None
            break
        move = SAMPLER.sample(pos, ours)
        assert move == reference.choice(pos.legal_piece_turns())
        pos.push(move)


def test_sampler_two_pieces_per_turn_draws_halves_as_choices_from_lists():
    """§8.1: under two-pieces-per-turn each half is a choice from its own list."""
    rules = GAME.parse_rules("two-pieces-per-turn")
    pos = GAME.start_position(rules)
    ours, reference = random.Random(3), random.Random(3)
    for _ in range(12):
        turn = SAMPLER.sample(pos, ours)
        first = reference.choice(pos.legal_piece_turns())
        after = pos.piece_turn_position(turn, 1)
        second = reference.choice(after.legal_piece_turns(first.target))
        assert turn.parts == (first, second)
        pos.push(turn)


@settings(max_examples=30, **COMMON)
@given(played_positions(), st.integers(0, 2**32 - 1))
def test_pop_restores_from_the_repetition_keys(pos, seed):
    """``push`` copies nothing and ``pop`` restores heights, board, counts and outcome."""
    rng = random.Random(seed)
    snapshots = []
    for _ in range(6):
        if pos.outcome() is not None:
            break
        snapshots.append((pos.key(), pos.heights[:], pos.board[:], pos.counts, pos.outcome()))
        pos.push(rng.choice(pos.legal_piece_turns()))
    copy = pos.copy()
    end = (pos.key(), len(pos.move_stack))
    while snapshots:
        key, heights, board, counts, outcome = snapshots.pop()
        pos.pop()
        assert (pos.key(), pos.heights, pos.board, pos.counts, pos.outcome()) == (
            key, heights, board, counts, outcome)
    assert (copy.key(), len(copy.move_stack)) == end   # popping the original left the copy alone
