"""The compiled lines of communication (``_lines.c``, issue #14) against their Python reference:
the same counts on any bit sets under every option that changes them (§6.2), the same
statistics along generated games (§18), and clear errors for arguments the engine never
passes. The compiled module is imported directly, so that these tests compare it even when
``NOTATION_TOOLS_PURE_PYTHON`` keeps the library on the Python path."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools import compiled
from notation_tools.games.gow import GAME
from notation_tools.games.gow import rules as gow_rules
from notation_tools.games.gow import stats as gow_stats
from notation_tools.games.gow.pieces import ARSENALS, NEIGHBOURS, RAYS, SIZE
from notation_tools.games.gow.rules import sides_online_python
from tests.games.gow.test_gow_fast_paths import _positions
from tests.games.gow.test_gow_rules_status import STATUS_OPTIONS

RELAY_STATUSES = ("covered-or-adjacent", "covered", "always")


@pytest.fixture(scope="module")
def lines():
    """The compiled module, set up as :mod:`notation_tools.games.gow.rules` sets it up."""
    try:
        module = importlib.import_module("notation_tools.games.gow._lines")
    except ImportError as error:  # pragma: no cover - only on a machine without a compiler
        pytest.fail(f"the compiled part was not built ({error}); pip install . needs a C "
                    "compiler and Python's headers for it (see docs/development.md)")
    module.setup(RAYS, NEIGHBOURS)
    return module


def test_the_library_uses_the_compiled_part_unless_told_not_to(lines):
    assert (gow_rules.sides_online is None) == compiled.PURE_PYTHON
    assert compiled.in_use()["games.gow._lines"] is not compiled.PURE_PYTHON


def test_a_module_without_the_names_asked_for_is_not_used():
    assert compiled.load("games.gow._lines", "no_such_function") is None
    assert compiled.load("games.gow.no_such_module") is None
    assert not compiled.in_use()["games.gow.no_such_module"]
    compiled.load("games.gow._lines", "setup", "sides_online")  # as rules.py asks for it


def _bits(squares):
    bits = 0
    for square in squares:
        bits |= 1 << square
    return bits


squares = st.sets(st.integers(0, SIZE - 1), max_size=20).map(_bits)
sources = st.sets(st.sampled_from(ARSENALS), max_size=2).map(_bits)


@settings(max_examples=400, deadline=None)
@given(sources0=sources, sources1=sources, relays0=squares, relays1=squares, fighting0=squares,
       fighting1=squares, via_relays=st.booleans(), relay_adjacent=st.booleans(),
       relay_status=st.sampled_from(RELAY_STATUSES),
       counted=st.lists(squares, max_size=4).map(tuple))
def test_compiled_counts_are_the_python_references_s6_2(lines, sources0, sources1, relays0,
                                                         relays1, fighting0, fighting1,
                                                         via_relays, relay_adjacent,
                                                         relay_status, counted):
    """§6.2 on any bit sets (units overlapping, sources anywhere on the arsenals), with each
    value of adjacency-via-relays, relay-activation and relay-status."""
    args = ((sources0, sources1), [relays0, relays1], [fighting0, fighting1],
            (via_relays, relay_adjacent, relay_status), counted)
    assert lines.sides_online(*args) == sides_online_python(*args)


@settings(max_examples=100, deadline=None)
@given(fighting0=squares, fighting1=squares, relays0=squares, relays1=squares)
def test_compiled_counts_stay_right_when_it_remembers_the_last_call_s6_2(lines, fighting0,
                                                                         fighting1, relays0,
                                                                         relays1):
    """The compiled part keeps the ints and the lines of its last call; asking again with the
    same objects, with other objects of the same values, or after another question answers as
    afresh."""
    arsenals = (_bits(ARSENALS[:2]), _bits(ARSENALS[2:]))
    first = (arsenals, [relays0, relays1], [fighting0, fighting1], (False, False, "covered"),
             (fighting0,))
    second = (arsenals, [relays1, relays0], [fighting1, fighting0], (True, True, "always"),
              (relays0, fighting1))
    again = (tuple(arsenals), [relays0 + 0, relays1], [fighting0, fighting1 | 0],
             (False, False, "covered"), (fighting0,))
    for args in (first, second, first, first, again, second):
        assert lines.sides_online(*args) == sides_online_python(*args)


@pytest.mark.parametrize("rules_text", STATUS_OPTIONS)
def test_compiled_counts_along_generated_games_are_the_positions_statuses_s6_2(lines,
                                                                             rules_text):
    """Along random legal games (mid-turn positions too), under each combination of the
    options that change lines of communication: the compiled counts are what
    :meth:`Position.status` says."""
    checked = 0
    for position, _rng in _positions(7, rules_text, actions=120):
        opts = position.options
        got = lines.sides_online((position._source_bits(0), position._source_bits(1)),
                                 position.relay_bits, position.fighting_bits,
                                 (opts.adjacency_via_relays, opts.relay_adjacent,
                                  opts.relay_status), (position.fighting_bits[0],))
        for side in (0, 1):
            status = position.status(side)
            units = position.fighting_bits[side] | position.relay_bits[side]
            assert got[side] == (status.online_bits.bit_count(),
                                 status.relays_online_bits.bit_count(), status.fighting,
                                 (units & position.fighting_bits[0]).bit_count())
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("rules_text", [None, "rsg", "book", *STATUS_OPTIONS[1::2]])
def test_statistics_are_the_same_on_the_compiled_and_the_python_path_s18(monkeypatch,
                                                                        rules_text):
    """§18: the figures the compiled path gives (both sides afresh after every turn) are those
    the Python path gives (:class:`OnlineFollower`, following the changes)."""
    from notation_tools.analysis.generate import generate_records
    from notation_tools.analysis.replay import replay

    if compiled.PURE_PYTHON:  # the library would not use it: make it
        monkeypatch.setattr(gow_stats, "sides_online",
                            importlib.import_module("notation_tools.games.gow._lines")
                            .sides_online)
    rules = GAME.parse_rules(rules_text)
    assert gow_stats.Stats(rules)._sides_online is not None
    records = list(generate_records(GAME, rules, count=8, seed=21, max_plies=150))
    compiled_path = [replay(record, collect_stats=True).stats for record in records]
    assert any(int(value) for stats in compiled_path
               for value in stats["offline_north_series"].split(","))
    monkeypatch.setattr(gow_stats, "sides_online", None)
    assert gow_stats.Stats(rules)._sides_online is None
    for record in records:
        record.diagnostics.clear()
    assert [replay(record, collect_stats=True).stats for record in records] == compiled_path


def test_offline_units_block_no_takes_the_python_path_s6_2():
    """Under offline-units-block=no a side's cutting squares are the enemy's online units,
    which the compiled part does not read: the statistics ask the position's status."""
    assert gow_stats.Stats(GAME.parse_rules("offline-units-block=no"))._sides_online is None


@pytest.mark.parametrize("bad, error", [
    (-1, ValueError), (1 << SIZE, ValueError), (1 << 511, ValueError), (1 << 512, ValueError),
    (1 << 600, ValueError), (1.0, TypeError), ("A1", TypeError), (True, TypeError)])
def test_ints_the_engine_never_passes_raise_a_python_error(lines, bad, error):
    options = (False, False, "covered")
    with pytest.raises(error):
        lines.sides_online((bad, 0), [0, 0], [0, 0], options, ())
    with pytest.raises(error):
        lines.sides_online((0, 0), [0, 0], [0, bad], options, ())
    with pytest.raises(error):
        lines.sides_online((0, 0), [0, 0], [0, 0], options, (0, bad))
    assert lines.sides_online((0, 0), [0, 0], [0, 0], options, ()) == ((0, 0, 0), (0, 0, 0))


@pytest.mark.parametrize("args", [
    ((0, 0), [0, 0], [0, 0], (False, False, "covered")),
    ((0, 0), [0, 0], [0, 0], (False, False, "covered"), (), ()),
    ((0,), [0, 0], [0, 0], (False, False, "covered"), ()),
    ((0, 0), {0, 1}, [0, 0], (False, False, "covered"), ()),
    ((0, 0), [0, 0], [0, 0, 0], (False, False, "covered"), ()),
    ((0, 0), [0, 0], [0, 0], (False, False), ()),
    ((0, 0), [0, 0], [0, 0], (False, False, 2), ()),
    ((0, 0), [0, 0], [0, 0], (False, False, "covered"), (0, 0, 0, 0, 0)),
    ((0, 0), [0, 0], [0, 0], (False, False, "covered"), [0])])
def test_arguments_of_the_wrong_shape_raise_type_error(lines, args):
    with pytest.raises(TypeError):
        lines.sides_online(*args)


def test_setup_refuses_a_table_of_the_wrong_shape(lines):
    with pytest.raises(ValueError):
        lines.setup(RAYS[:10], NEIGHBOURS)
    with pytest.raises((ValueError, TypeError)):
        lines.setup([((),) * 7] * SIZE, NEIGHBOURS)
    with pytest.raises(RuntimeError):  # not set up: no answer from half a table
        lines.sides_online((0, 0), [0, 0], [0, 0], (False, False, "covered"), ())
    lines.setup(RAYS, NEIGHBOURS)  # and answers again once set up
    args = ((_bits(ARSENALS[:2]), _bits(ARSENALS[2:])), [0, 0], [1 << 60, 1 << 400],
            (False, False, "covered"), ())
    assert lines.sides_online(*args) == sides_online_python(*args)
