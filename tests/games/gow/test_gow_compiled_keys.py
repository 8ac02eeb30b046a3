"""The compiled key tracker (``_keys.c``, issue #27) against its Python reference
(:class:`~notation_tools.games.gow.keys.GowTracker`): the same 64-bit keys and the same
``material_same`` along random Game of War games and over arbitrary changes of the rows a key
is made of, the library's choice between the two (``NOTATION_TOOLS_PURE_PYTHON``), and Python
errors for positions the engine never makes. The compiled module is imported directly, so
these tests compare it even when the environment keeps the library on the Python path."""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools import compiled
from notation_tools.games.gow import GAME
from notation_tools.games.gow import keys as gow_keys
from notation_tools.games.gow.keys import KEYS, GowTracker
from notation_tools.games.gow.pieces import CODE_LETTER, SIZE
from tests.games.gow.test_gow_fast_paths import _positions
from tests.games.gow.test_gow_rules_status import STATUS_OPTIONS
from tests.games.test_position_keys import _walk


@pytest.fixture(scope="module")
def keys_module():
    """The compiled module, as :mod:`notation_tools.games.gow.keys` loads it."""
    try:
        return importlib.import_module("notation_tools.games.gow._keys")
    except ImportError as error:  # pragma: no cover - only on a machine without a compiler
        pytest.fail(f"the compiled part was not built ({error}); pip install . needs a C "
                    "compiler and Python's headers for it (see docs/development.md)")


def _pair(keys_module, position):
    """A compiled and a Python tracker started at ``position``, as a replay starts one."""
    made = keys_module.Tracker(KEYS.seed, KEYS.key(position), position)
    reference = GowTracker(KEYS, position)
    made.before(position)
    reference.before(position)
    assert made.key == reference.key
    return made, reference


def test_the_library_uses_the_compiled_tracker_unless_told_not_to(keys_module):
    tracker = KEYS.tracker(GAME.start_position(GAME.parse_rules(None)))
    assert isinstance(tracker, GowTracker) == compiled.PURE_PYTHON
    assert isinstance(tracker, keys_module.Tracker) != compiled.PURE_PYTHON
    assert compiled.in_use()["games.gow._keys"] is not compiled.PURE_PYTHON


@pytest.mark.parametrize("pure", ["1", "0", ""])
def test_the_pure_python_switch_chooses_the_tracker(keys_module, pure):
    """``NOTATION_TOOLS_PURE_PYTHON=1`` gives the Python tracker; unset or 0, the compiled
    one (built here); the keys are the same either way."""
    script = ("from notation_tools.games.gow import GAME\n"
              "from notation_tools.games.gow.keys import KEYS\n"
              "from notation_tools import compiled\n"
              "p = GAME.start_position(GAME.parse_rules(None))\n"
              "t = KEYS.tracker(p)\n"
              "t.before(p)\n"
              "for move in list(p.legal_moves())[:1]:\n"
              "    p.push(move)\n"
              "print(type(t).__name__, compiled.in_use()['games.gow._keys'], t.step(p))\n")
    env = dict(os.environ, NOTATION_TOOLS_PURE_PYTHON=pure)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    position = GAME.start_position(GAME.parse_rules(None))
    reference = GowTracker(KEYS, position)
    reference.before(position)
    position.push(next(iter(position.legal_moves())))
    expected_type = ("GowTracker", "False") if pure == "1" else ("Tracker", "True")
    assert out == [*expected_type, str(reference.step(position))]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), hinted=st.booleans())
def test_compiled_keys_along_random_games_are_the_python_trackers(keys_module, seed, hinted):
    """Turn by turn along a random game: each turn keyed first as a branch (``after``, the
    explorer's call), then, from the parent's key again, as a replay keys it (``step``, with
    or without the turn as a hint): the same keys and material answers, and the key computed
    from scratch."""
    _, played = _walk(GAME, seed, 60)
    position = GAME.start_position(GAME.parse_rules(None))
    made, reference = _pair(keys_module, position)
    for move in played:
        parent = made.key
        position.push(move)
        hint = move if hinted else None
        assert made.after(position) == reference.after(position) == KEYS.key(position)
        assert made.material_same == reference.material_same
        made.key = reference.key = parent
        assert made.step(position, hint) == reference.step(position, hint) == KEYS.key(position)
        assert made.material_same == reference.material_same


@pytest.mark.parametrize("rules_text", [None, "rsg", *STATUS_OPTIONS[1::2]])
def test_compiled_keys_action_by_action_are_the_python_trackers(keys_module, rules_text):
    """Mid-turn positions too (a retreat pending, the side to act changing at the turn's
    end), with takebacks and copies on the way: the same keys and material answers."""
    steps = 0
    for seed in range(4):
        made = reference = None
        for position, _rng in _positions(seed, rules_text, actions=150, takebacks=True):
            if made is None:
                made, reference = _pair(keys_module, position)
                continue
            assert made.step(position) == reference.step(position) == KEYS.key(position)
            assert made.material_same == reference.material_same
            steps += 1
    assert steps > 100


# Rows a key is made of, changed freely: units of any code on any cells (as a takeback, a
# jump to another position or a capture makes them), the arsenals falling or standing again,
# the side to act and the retreat.
codes = st.sampled_from(sorted(CODE_LETTER))
changes = st.lists(st.tuples(st.integers(0, SIZE - 1), codes), max_size=12)
states = st.tuples(changes, st.lists(st.booleans(), min_size=4, max_size=4),
                   st.integers(0, 1), st.one_of(st.none(), st.integers(0, SIZE - 1)),
                   st.booleans())


def _state(board, alive, turn, retreat):
    return SimpleNamespace(board=bytearray(board), alive=list(alive), turn=turn,
                           retreat=retreat)


@settings(max_examples=300, deadline=None)
@given(start=st.integers(0, 10**6), moves=st.lists(states, min_size=1, max_size=8))
def test_compiled_keys_of_any_changes_are_the_python_trackers(keys_module, start, moves):
    """Any cells changed (some swapped among themselves, so that the material stays), any
    arsenal, side or retreat: each step and each branch gives the Python tracker's key and
    material answer."""
    board = bytearray(GAME.start_position(GAME.parse_rules(None)).board)
    random.Random(start).shuffle(board)
    position = _state(board, [True] * 4, 0, None)
    made, reference = _pair(keys_module, position)
    for cells, alive, turn, retreat, swap in moves:
        for cell, code in cells:
            board[cell] = code
        if swap and cells:  # a unit moved: two cells exchange what they hold
            a, b = cells[0][0], cells[-1][0] ^ 1
            board[a], board[b] = board[b], board[a]
        position = _state(board, alive, turn, retreat)
        parent = made.key
        assert made.after(position) == reference.after(position) == KEYS.key(position)
        assert made.material_same == reference.material_same
        made.key = reference.key = parent
        assert made.step(position) == reference.step(position) == KEYS.key(position)
        assert made.material_same == reference.material_same


def test_the_material_answer_is_a_comparison_of_the_changed_cells(keys_module):
    """Two units exchanging squares keep the material; a unit replaced by another, or one
    more on the board, changes it."""
    board = bytearray(SIZE)
    board[10], board[20] = 1, 2
    made = keys_module.Tracker(KEYS.seed, KEYS.key(_state(board, [1] * 4, 0, None)),
                               _state(board, [1] * 4, 0, None))
    board[10], board[20] = 2, 1
    made.step(_state(board, [1] * 4, 0, None))
    assert made.material_same
    board[10] = 3
    made.step(_state(board, [1] * 4, 0, None))
    assert not made.material_same
    board[30] = 1
    made.step(_state(board, [1] * 4, 0, None))
    assert not made.material_same
    made.step(_state(board, [0] * 4, 1, 7))  # no cell of the board changed
    assert made.material_same


@pytest.mark.parametrize("field, bad, error", [
    ("board", bytearray(SIZE - 1), ValueError), ("board", [0] * SIZE + [0], ValueError),
    ("board", [256] + [0] * (SIZE - 1), ValueError), ("alive", [True] * 3, ValueError),
    ("alive", [True, True, True, 300], ValueError), ("alive", [1.0] * 4, TypeError),
    ("turn", None, TypeError), ("turn", "north", TypeError), ("retreat", 1.5, TypeError)])
def test_positions_the_engine_never_makes_raise_a_python_error(keys_module, field, bad, error):
    good = GAME.start_position(GAME.parse_rules(None))
    made = keys_module.Tracker(KEYS.seed, KEYS.key(good), good)
    rows = {"board": bytearray(good.board), "alive": list(good.alive), "turn": good.turn,
            "retreat": good.retreat}
    position = SimpleNamespace(**{**rows, field: bad})
    for call in (made.step, made.after, made.before):
        with pytest.raises(error):
            call(position)
    with pytest.raises(error):
        keys_module.Tracker(KEYS.seed, 0, position)
    with pytest.raises(TypeError):
        made.key = "0"
    assert made.step(good) == KEYS.key(good)  # and it answers again


def test_a_build_without_the_tracker_leaves_the_python_one(monkeypatch):
    """When ``_keys`` was not built (no compiler), :meth:`GowKeys.tracker` gives the Python
    tracker, whose keys are those of a position keyed from scratch."""
    monkeypatch.setattr(gow_keys, "_compiled_keys", None)
    position = GAME.start_position(GAME.parse_rules(None))
    tracker = KEYS.tracker(position)
    assert isinstance(tracker, GowTracker)
    tracker.before(position)
    for move in _walk(GAME, 3, 10)[1]:
        position.push(move)
        assert tracker.step(position, move) == KEYS.key(position)


@pytest.mark.parametrize("cell", [0, 7, 8, SIZE - 9, SIZE - 8, SIZE - 5, SIZE - 4, SIZE - 1])
def test_a_change_in_any_word_of_the_board_or_past_the_last_whole_word_is_keyed(
        keys_module, cell):
    """The board is compared eight cells at a time, then cell by cell past the last whole
    word (500 is not a multiple of 8): a unit placed on a cell at either end of a word, or
    in the tail, is keyed, and is a change of material."""
    board = bytearray(GAME.start_position(GAME.parse_rules(None)).board)
    position = _state(board, [True] * 4, 0, None)
    made, reference = _pair(keys_module, position)
    board[cell] = 1 if board[cell] != 1 else 2
    changed = _state(board, [True] * 4, 0, None)
    assert made.step(changed) == reference.step(changed) == KEYS.key(changed)
    assert not made.material_same
