"""Elevation property tests: generation agrees with checking, round trips, symmetry (§12)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from notation_tools.games.base import EngineError, IllegalMoveError
from notation_tools.games.elevation import GAME, Dig, Path, PieceTurn, Turn
from notation_tools.games.elevation.notation import parse_pattern
from notation_tools.games.elevation.pieces import ADJACENT, MIRROR_FILE, MIRROR_RANK, SQUARE_NAMES
from notation_tools.games.elevation.rules import Position
from notation_tools.analysis.generate import random_move

# One rules text per value of every option (§9), plus a few mixes.
OPTION_TEXTS = [
    "standard",
    "initial-height=1", "initial-height=5",
    "capture-height=exactly-2",
    "basic-dig-optional", "basic-move-optional", "basic-dig-optional; basic-move-optional",
    "fish-diag2-model=jump", "fish-diag2-model=two-free-diagonal-steps",
    "dragon-mm-max-captures=0", "dragon-mm-max-captures=1",
    "dragon-mm-forbid-return", "dragon-c2-requires-climb2", "forbid-null-dig-pair",
    "max-height=3", "max-height=5",
    "repetition-rule=consecutive-undo-6-plies", "repetition-rule=off",
    "undermining", "undermining; samurai-undermine-and-move",
    "undermining; samurai-undermine-and-move; basic-move-optional; basic-dig-optional",
    "ocean-free-move=climb", "ocean-free-move=climb-capture",
    "ocean-free-move=climb-capture; fish-diag2-model=two-free-diagonal-steps; capture-height=exactly-2",
]

PIECES = [0] * 10 + [1, 2, 3, 5, 6, 7]


@st.composite
def positions(draw, rules_texts=OPTION_TEXTS):
    """Set-up positions with uneven terrain (oceans, towers) so captures and climbs occur."""
    rules = GAME.parse_rules(draw(st.sampled_from(rules_texts)))
    heights = draw(st.lists(st.integers(0, 7), min_size=36, max_size=36))
    board = draw(st.lists(st.sampled_from(PIECES), min_size=36, max_size=36))
    return Position(rules, heights, board, draw(st.integers(0, 1)))


def _relevant(pos: Position) -> bool:
    return pos.outcome() is None


COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@settings(max_examples=60, **COMMON)
@given(positions())
def test_generation_count_and_any_agree(pos):
    """§4: the counter, the early-exit check and the generator agree; no turn twice."""
    moves = list(pos.legal_moves())
    assert len(set(moves)) == len(moves)
    if pos.outcome() is None:
        assert pos.count_legal_moves() == len(moves)
        assert pos.has_legal_turn() == bool(moves)


@settings(max_examples=40, **COMMON)
@given(positions(), st.randoms(use_true_random=False))
def test_format_then_parse_gives_the_move(pos, rng):
    """§6, G8: for both notations, parse(format(m)) == m and the compact text is canonical."""
    moves = list(pos.legal_moves())
    sample = moves if len(moves) <= 40 else rng.sample(moves, 40)
    for move in sample:
        for notation in GAME.notations:
            text = GAME.format_move(move, pos, notation)
            assert GAME.parse_move(text, pos, notation) == move
            assert GAME.parse_move(text, pos) == move
            assert GAME.format_move(GAME.parse_move(text, pos), pos) == GAME.format_move(move, pos)


def _random_token(pos: Position, rng: random.Random) -> str:
    """A token of a random shape near the pieces: mostly illegal, sometimes legal."""
    occupied = [s for s in range(36) if pos.board[s]] or list(range(36))
    at = rng.choice(occupied)
    head = SQUARE_NAMES[at]
    if rng.random() < 0.2:
        head += "=" + rng.choice(["B", "F", "DD", "MM", "C2", "U"])
    actions = []
    for part in rng.choice(["d1", "1d", "d2", "2d", "dd", "1", "2", "d"]):
        if part == "d":
            actions.append(f"{SQUARE_NAMES[rng.choice(ADJACENT[at])]}>{SQUARE_NAMES[rng.choice(ADJACENT[at])]}")
        else:
            text = SQUARE_NAMES[at]
            for _ in range(int(part)):
                at = rng.choice(ADJACENT[at])
                text += rng.choice("-x") + SQUARE_NAMES[at]
            actions.append(text)
    return head + ":" + ",".join(actions)


def _check_random_tokens(pos: Position, rng: random.Random, count: int) -> None:
    """Random tokens parse exactly when they spell a legal turn (with its option written, or
    with no marker when the option is the implied one)."""
    if pos.outcome() is not None:
        return
    spellings = set()
    for move in pos.legal_moves():
        canonical = GAME.format_move(move, pos)
        head, _, actions = canonical.partition(":")
        spellings.add(f"{SQUARE_NAMES[move.origin]}={move.option}:{actions}")
        if "=" not in head:
            spellings.add(canonical)
    for _ in range(count):
        text = _random_token(pos, rng)
        try:
            move = GAME.parse_move(text, pos)
        except IllegalMoveError as error:
            assert error.code in ("E-ILLEGAL-MOVE", "E-CAPTURE-MARK") and error.rule
            assert text not in spellings, (text, error.message)
            continue
        except EngineError as error:
            assert error.code == "E-SYNTAX"
            assert text not in spellings
            continue
        assert text in spellings, text


@settings(max_examples=60, **COMMON)
@given(positions(), st.randoms(use_true_random=False))
def test_checker_accepts_exactly_the_generated_turns(pos, rng):
    """§4, §6.1, §7: the direct checker accepts a token exactly when it spells a generated
    legal turn, so the two paths through the rules cannot drift apart."""
    _check_random_tokens(pos, rng, 60)


@settings(max_examples=15, **COMMON)
@given(st.sampled_from(OPTION_TEXTS), st.integers(0, 2**32 - 1))
def test_random_games_replay(rules_text, seed):
    """G11: a random legal game, written in each notation, replays to the same end."""
    rules = GAME.parse_rules(rules_text)
    rng = random.Random(seed)
    pos = GAME.start_position(rules)
    texts = {notation: [] for notation in GAME.notations}
    for _ in range(30):
        move = random_move(GAME, pos, rng)
        if move is None:
            break
        for notation in GAME.notations:
            texts[notation].append(GAME.format_move(move, pos, notation))
        pos.push(move)
    final = GAME.format_position(pos)
    for notation, tokens in texts.items():
        replay = GAME.start_position(rules)
        for token in tokens:
            replay.push(GAME.parse_move(token, replay))
        assert GAME.format_position(replay) == final
    while pos.move_stack:
        pos.pop()
    assert GAME.format_position(pos) == GAME.format_position(GAME.start_position(rules))


@settings(max_examples=6, **COMMON)
@given(st.integers(0, 2**32 - 1))
def test_random_two_piece_games_replay(seed):
    """§8.1: random two-piece turns format, parse back and replay."""
    rules = GAME.parse_rules("two-pieces-per-turn")
    rng = random.Random(seed)
    pos = GAME.start_position(rules)
    for _ in range(8):
        move = random_move(GAME, pos, rng)
        if move is None:
            break
        assert isinstance(move, Turn)
        for notation in GAME.notations:
            assert GAME.parse_move(GAME.format_move(move, pos, notation), pos) == move
        pos.push(move)


# ---- symmetry oracles (§12) -------------------------------------------------------------

def _map_move(move, table, turn_map=None):
    if isinstance(move, Turn):
        return Turn(tuple(_map_move(part, table) for part in move.parts))
    actions = []
    for action in move.actions:
        if isinstance(action, Dig):
            actions.append(Dig(table[action.source], table[action.target]))
        else:
            actions.append(Path(tuple(table[s] for s in action.squares), action.captures))
    return PieceTurn(table[move.origin], move.option, tuple(actions))


def _mirror_files(pos: Position) -> Position:
    heights = [pos.heights[MIRROR_FILE[s]] for s in range(36)]
    board = [pos.board[MIRROR_FILE[s]] for s in range(36)]
    return Position(pos.rules, heights, board, pos.turn)


def _mirror_ranks_and_colours(pos: Position) -> Position:
    heights = [pos.heights[MIRROR_RANK[s]] for s in range(36)]
    board = [pos.board[MIRROR_RANK[s]] ^ 4 if pos.board[MIRROR_RANK[s]] else 0 for s in range(36)]
    return Position(pos.rules, heights, board, pos.turn ^ 1)


@settings(max_examples=40, **COMMON)
@given(positions())
def test_left_right_symmetry(pos):
    """§12: reflecting a position a↔f maps legal turns to legal turns."""
    mirrored = _mirror_files(pos)
    assert {_map_move(m, MIRROR_FILE) for m in pos.legal_moves()} == set(mirrored.legal_moves())


@settings(max_examples=40, **COMMON)
@given(positions())
def test_top_bottom_colour_symmetry(pos):
    """§12: reflecting rank r↔7−r with colours and side to move swapped maps legal turns."""
    mirrored = _mirror_ranks_and_colours(pos)
    assert {_map_move(m, MIRROR_RANK) for m in pos.legal_moves()} == set(mirrored.legal_moves())


def test_symmetry_of_the_start_perft():
    """§12: mirrored pieces of the start have the same number of turns."""
    pos = GAME.start_position(GAME.parse_rules(None))
    counts = {}
    for move in pos.legal_moves():
        counts[move.origin] = counts.get(move.origin, 0) + 1
    assert all(counts[s] == counts[MIRROR_FILE[s]] for s in counts)


def test_pattern_cache_returns_same_object():
    """Replay speed: the syntax parse of a token is cached."""
    assert parse_pattern("c3:d4>b2,c3-d4") is parse_pattern("c3:d4>b2,c3-d4")


@pytest.mark.slow
@settings(max_examples=400, **COMMON)
@given(positions(), st.randoms(use_true_random=False))
def test_checker_agrees_deep(pos, rng):
    """Slow: the checker/generator agreement on many more positions."""
    _check_random_tokens(pos, rng, 200)


def _parse_with(grammar, text):
    import pyparsing as pp
    try:
        return tuple(grammar.parse_string(text))
    except pp.ParseBaseException:
        return None


TOKEN_PARTS = st.lists(st.sampled_from(
    ["a", "c", "f", "g", "1", "3", "6", "7", "S", "F", "D", "=", "B", "DD", "MM", "C2", "U", ":", ">",
     "-", "x", ",", "&", "c3", "d4", "e5", "b2", "c3-d4", "d4>b2", " "]), max_size=14).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.one_of(TOKEN_PARTS, st.text(alphabet="abcdef123456SFDBUMC=:>,-x&", max_size=30)))
@example("c1:c2>b2,c1-c2&d1:d2>e2,d1-d2")
@example("Dc1=MM:c1-c2xc3&Sd1=B:d1-d2,e2>e1")
@example("c1:c2>b2,c1-c2&")
@example("c1:c2>b2,c1-c2&d1:d2>e2,d1-d2&a1:a2>b2,a1-b1")
@example("c1:c2>b2,c1-c2-")
@example("c1:c2>b2,c1-c2 ")
@example("c1:c2>b2,c1-c2\t")
def test_fast_and_detailed_grammars_agree(text):
    """§6.1: the regular-expression matcher used for speed accepts exactly the language of
    the detailed grammar and yields the same patterns."""
    from notation_tools.games.elevation import notation
    assert notation._match_turn(text) == _parse_with(notation._TURN, text)


@settings(max_examples=200, deadline=None)
@given(positions(), st.randoms(use_true_random=False))
def test_grammars_agree_on_legal_tokens(pos, rng):
    from notation_tools.games.elevation import notation
    moves = list(pos.legal_moves())
    for move in (moves if len(moves) <= 5 else rng.sample(moves, 5)):
        for name in GAME.notations:
            text = GAME.format_move(move, pos, name)
            assert notation._match_turn(text) == _parse_with(notation._TURN, text) is not None
