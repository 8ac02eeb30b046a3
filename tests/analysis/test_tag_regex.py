"""``select --tag NAME~REGEX`` is bounded (issue #25): re2 (linear time) runs the expression
when it is installed; Python's backtracking engine, the fallback, is stopped at a time limit
and the record is reported (E-LIMIT) instead of hanging the run. Both paths are tested: re2 is
made missing by putting ``None`` in ``sys.modules``, as an absent package is."""

from __future__ import annotations

import signal
import sys
import threading
import time

import pytest
from hypothesis import given, settings, strategies as st

from notation_tools.analysis import select
from notation_tools.analysis.select import (MatchTimeout, bounded_search, compile_pattern,
                                            parse_selection, parse_tag_test)
from notation_tools.records.model import Record, Tag
from tests.conftest import invoke

# Catastrophic for a backtracking engine: (a+)+$ tries every split of the a's before the '!'.
NESTED = "White~(a+)+$"
NESTED_TEXT = "a" * 40 + "!"
LONG_TEXT = "a" * 200_000  # a*b scans from every start: quadratic in Python's engine


@pytest.fixture
def without_re2(monkeypatch):
    monkeypatch.setitem(sys.modules, "re2", None)
    assert select.linear_engine() is None


def _record(value: str) -> Record:
    return Record(tags=[Tag("Variant", "elevation"), Tag("White", value)], path="x.pgn")


def test_re2_is_used_when_installed_and_bounds_any_pattern():
    assert select.linear_engine() is not None, "the test extra installs google-re2"
    for text, value, expected in ((NESTED, NESTED_TEXT, False), ("White~a*b", LONG_TEXT, False),
                                  (NESTED, "a" * 200_000, True)):
        test = parse_tag_test(text)
        assert test.engine == "re2"
        start = time.process_time()
        assert test.matches(_record(value)) is expected
        assert time.process_time() - start < 0.5


def test_re2_refuses_backreferences_and_python_runs_them():
    test = parse_tag_test(r"White~(ab)\1")
    assert test.engine == "re"
    assert test.matches(_record("xxababx")) and not test.matches(_record("abba"))


def test_without_re2_python_runs_and_is_stopped_at_the_time_limit(without_re2):
    test = parse_tag_test(NESTED, time_limit=0.2)
    assert test.engine == "re"
    assert parse_tag_test("White~^Stee").matches(_record("Steere"))
    for value in (NESTED_TEXT, "a" * 100_000 + "!"):
        start = time.process_time()
        with pytest.raises(MatchTimeout) as stopped:
            test.matches(_record(value))
        assert time.process_time() - start < 1  # 0.2 s asked; the rest is signal latency
        assert stopped.value.tag.value == value
    quadratic = parse_tag_test("White~a*b", time_limit=0.2)
    start = time.process_time()
    with pytest.raises(MatchTimeout):
        quadratic.matches(_record(LONG_TEXT))
    assert time.process_time() - start < 1  # a single search() ran 2 s past its alarm


def test_a_stopped_search_is_a_verdict_with_a_diagnostic(without_re2):
    selection = parse_selection(tags=[NESTED], match_seconds=0.1)
    verdict = selection.judge(_record(NESTED_TEXT))
    assert not verdict.matched and verdict.problem is not None
    assert verdict.problem.code == "E-LIMIT" and verdict.problem.path == "x.pgn"
    assert "--limit match-ms" in verdict.problem.message
    assert selection.judge(_record("Steere")).problem is None


def test_the_alarm_leaves_an_earlier_timer_and_handler_as_they_were():
    handler = signal.getsignal(signal.SIGPROF)
    signal.setitimer(signal.ITIMER_PROF, 100)
    try:
        compiled, _ = compile_pattern("a")
        assert bounded_search(compiled, "cat", 1.0)
        assert signal.getitimer(signal.ITIMER_PROF)[0] > 90
        assert signal.getsignal(signal.SIGPROF) is handler
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def test_off_the_main_thread_the_search_runs_without_an_alarm():
    import re

    found = []
    worker = threading.Thread(target=lambda: found.append(
        bounded_search(re.compile("b+"), "abba", 0.1)))
    worker.start()
    worker.join()
    assert found == [True]


_ATOMS = st.sampled_from(["a", "b", "ab", "[ab]", "."])


@st.composite
def _patterns(draw, depth: int = 3):
    """Expressions both engines read alike: literals, classes, groups, alternation and the
    repetitions, no anchors or escapes."""
    if depth == 0 or draw(st.booleans()):
        return draw(_ATOMS)
    kind = draw(st.sampled_from(["cat", "alt", "star", "plus", "opt"]))
    inner = draw(_patterns(depth - 1))
    if kind == "cat":
        return inner + draw(_patterns(depth - 1))
    if kind == "alt":
        return f"(?:{inner}|{draw(_patterns(depth - 1))})"
    return f"(?:{inner}){ {'star': '*', 'plus': '+', 'opt': '?'}[kind]}"


@settings(max_examples=60)
@given(_patterns(), st.text(alphabet="abc", max_size=30))
def test_re2_and_python_agree_on_what_matches(pattern, text):
    import re

    with_re2 = parse_tag_test(f"White~{pattern}")
    assert with_re2.engine == "re2"
    assert with_re2.matches(_record(text)) == (re.search(pattern, text) is not None)


def test_select_command_reports_the_stopped_record_and_goes_on(runner, tmp_path, monkeypatch):
    path = tmp_path / "players.pgn"
    path.write_text("".join(f'[Event "{n}"]\n[Variant "elevation"]\n[White "{white}"]\n\n*\n\n'
                            for n, white in enumerate([NESTED_TEXT, "aaa", "Steere"])))
    rejected = tmp_path / "rejected.pgn"
    fast = invoke(runner, ["select", "--tag", NESTED, str(path), "--rejected", str(rejected)])
    assert fast.exit_code == 0 and fast.stdout.count("[Event") == 1
    monkeypatch.setitem(sys.modules, "re2", None)
    slow = invoke(runner, ["select", "--tag", NESTED, "--limit", "match-ms=100", str(path),
                           "--rejected", str(rejected)])
    assert slow.exit_code == 2
    assert ":3:1: error[E-LIMIT]: tag test White~(a+)+$: the regular expression searched the " \
        "White tag (41 characters) for 0.1 s" in slow.stderr
    assert '[White "aaa"]' in slow.stdout
    assert rejected.read_text().count("[Event") == 2  # the stopped record and "Steere"
    assert "3 records read: 1 matched, 2 rejected" in slow.stderr


@settings(max_examples=60)
@given(_patterns(), st.sampled_from(["", "^", "(?<=a)", "\\b"]), st.sampled_from(["", "$"]),
       st.text(alphabet="abc", max_size=30))
def test_searching_one_start_at_a_time_is_search(pattern, head, tail, text):
    """A long tag is tried start by start so that the alarm is seen between starts: the
    answer is search()'s, anchors and lookbehind included."""
    import re

    compiled = re.compile(head + pattern + tail)
    assert select._search(compiled, text, whole=0) == (compiled.search(text) is not None)
