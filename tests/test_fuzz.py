"""The bounded fuzz run: every target of the fuzz harness (the library's, fuzz/targets.py, and
the commands', fuzz/cases.py) on inputs hypothesis draws, in about a minute. No input may
raise anything but the toolkit's own refusals, and no command may end in an internal error,
an E-INTERNAL diagnostic, a traceback, an exit status outside 0-2 or a failed check of its
case. Then the harness itself: each kind of finding is found, a finding shrinks to a small
reproducer, and the campaign reports hangs and runaway memory. The long campaign is
``python -m fuzz.campaign`` (README: Fuzzing)."""

from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from fuzz import campaign
from fuzz.cases import ALL_TARGETS, CASES
from fuzz.cli import (LAST_RESORT, Case, Finding, faults, run, shrink, work_directory,
                      write_reproducer)

EXAMPLES = {"move": 80, "json-move": 40, "position": 80, "rules": 40, "pgn": 40, "json": 40,
            "nested": 10, "bytes": 30, "convert": 30, "batch": 15, "select": 20, "svar": 40,
            "foreign": 25, "json-types": 40,
            "cli-read": 12, "cli-round-trip": 8, "cli-json-types": 8, "cli-archive": 8,
            "cli-position": 8, "cli-options": 8, "cli-database": 5, "cli-viewer": 3,
            "cli-files": 3, "cli-output": 3, "cli-store": 3, "cli-subprocess": 2}


def test_every_target_has_a_bounded_run_and_a_weight():
    assert set(EXAMPLES) == set(ALL_TARGETS)
    assert set(campaign.WEIGHTS) == set(ALL_TARGETS)


@pytest.mark.parametrize("name", sorted(ALL_TARGETS))
def test_no_input_makes_a_finding(name):
    # A seed has nothing to shrink: a failure is reported as drawn, with its command.
    @settings(max_examples=EXAMPLES[name], derandomize=False, deadline=None, database=None,
              phases=(Phase.explicit, Phase.generate))
    @given(seed=st.integers(0, 2**48))
    def run_target(seed):
        try:
            ALL_TARGETS[name](random.Random(seed))
        except Finding as found:
            case = getattr(found, "case", None)
            command = f"\ncommand: {case.command()}" if case is not None else ""
            raise AssertionError(f"{found.signature}{command}\n{found.detail[:3000]}") from None

    run_target()


# ---- the harness finds what it must ---------------------------------------------------------

def _outcome(argv, files=None):
    case = Case(argv, files or {})
    return case, run(case, work_directory() / "case")


def test_a_clean_run_is_no_finding():
    case, outcome = _outcome(["validate", "in.pgn"], {"in.pgn": b'[Variant "shih"]\n\n*\n'})
    assert outcome.status in (0, 1)
    assert faults(case, outcome) is None


def _plant(monkeypatch, callback):
    import click

    from notation_tools.cli import main

    monkeypatch.setitem(main.commands, "planted", click.Command("planted", callback=callback))


def test_an_exception_out_of_a_command_is_an_internal_error(monkeypatch):
    def fails():
        raise ZeroDivisionError("planted")

    _plant(monkeypatch, fails)
    case, outcome = _outcome(["planted"])
    found = faults(case, outcome)
    assert found is not None and found.kind == "internal-error"
    assert "ZeroDivisionError" in found.signature


def test_an_exception_the_collector_ignores_is_a_finding(monkeypatch):
    # A generator left unfinished in a reference cycle, whose clean-up fails when the
    # collector closes it: Python prints "Exception ignored" and goes on.
    def leaves_a_generator():
        def lines():
            try:
                yield 1
            finally:
                raise OSError("planted: no space left on device")
        holder = {"gen": lines()}
        holder["self"] = holder
        next(holder["gen"])

    _plant(monkeypatch, leaves_a_generator)
    case, outcome = _outcome(["planted"])
    found = faults(case, outcome)
    assert found is not None and found.kind == "exception-ignored"


@pytest.mark.parametrize("stderr, kind", [
    (LAST_RESORT + "KeyError: 'x'); please report it\n", "internal-error"),
    ("Traceback (most recent call last):\n  File \"x\", line 1\nValueError: bad\n",
     "traceback"),
    ("Exception ignored in: <generator object open_output at 0x1>\nOSError: full\n",
     "exception-ignored"),
    ("in.pgn:1:1: error[E-INTERNAL]: internal error in the shih engine\n", "E-INTERNAL"),
])
def test_what_a_run_prints_can_be_a_finding(stderr, kind):
    from fuzz.cli import Outcome

    outcome = Outcome(2, "", stderr, None, [], 0.0, 0, work_directory() / "case")
    found = faults(Case([]), outcome)
    assert found is not None and found.kind == kind


def test_an_exit_status_outside_0_to_2_is_a_finding():
    from fuzz.cli import Outcome

    for status, finding in ((0, False), (2, False), (3, True), (-9, True)):
        outcome = Outcome(status, "", "", None, [], 0.0, 0, work_directory() / "case")
        assert (faults(Case([]), outcome) is not None) == finding


def test_a_real_subprocess_reports_its_status_and_memory():
    case = Case(["validate", "missing.pgn"], subprocess=True)
    outcome = run(case, work_directory() / "case")
    assert outcome.status == 2 and "no such file" in outcome.stderr
    assert outcome.peak_rss > 0


def test_a_finding_shrinks_to_a_small_reproducer(tmp_path):
    # A case whose own check fails while the input holds the word "needle": shrinking keeps
    # the line with it and drops the rest.
    lines = [f'[Event "filler {n}"]\n'.encode() for n in range(40)]
    lines.insert(17, b'[Site "needle"]\n')
    data = b"".join(lines) + b"\n*\n"

    def check(outcome):
        text = (outcome.directory / "in.pgn").read_bytes()
        return "the needle is there" if b"needle" in text else None

    case = Case(["validate", "-q", "in.pgn"], {"in.pgn": data}, check=check)
    found = faults(case, run(case, work_directory() / "case"))
    assert found is not None and found.kind == "check"
    small = shrink(case, found.signature, work_directory() / "case", runs=400, seconds=60)
    assert b"needle" in small.files["in.pgn"]
    assert len(small.files["in.pgn"]) < 20
    folder = write_reproducer(small, found, tmp_path / "out", target="test", seed=1)
    assert "notation-tools validate" in (folder / "command.sh").read_text()
    assert (folder / "files" / "in.pgn").read_bytes() == small.files["in.pgn"]


def test_every_case_builder_writes_a_reproducer_it_can_lay_out(tmp_path):
    for name, build in sorted(CASES.items()):
        case = build(random.Random(7))
        folder = write_reproducer(case, "planted", tmp_path / name, target=name, seed=7)
        assert (folder / "command.sh").read_text().count("notation-tools") >= 1


def test_the_campaign_reports_a_hang_and_runaway_memory(tmp_path, monkeypatch, capsys):
    # Two planted targets: one never ends, one holds memory past the bound. The supervisor
    # kills the worker each time, writes what it can and goes on; the campaign exits 1.
    import fuzz.cases

    def hangs(rng):
        while True:
            pass

    def eats(rng):
        hoard = bytearray(300 << 20)
        hoard[::4096] = b"x" * len(hoard[::4096])
        return len(hoard)

    monkeypatch.setitem(fuzz.cases.ALL_TARGETS, "planted-hang", hangs)
    monkeypatch.setitem(fuzz.cases.ALL_TARGETS, "planted-memory", eats)
    monkeypatch.setattr(campaign, "OUT", tmp_path)
    status = campaign.main(["--only", "planted-hang,planted-memory", "--seconds", "12",
                            "--timeout", "2", "--memory-mib", "200", "--no-shrink"])
    printed = capsys.readouterr().out
    assert status == 1
    assert "planted-hang seed" in printed and "hangs:" in printed
    assert "memory: planted-memory seed" in printed
    assert any(path.name.startswith("hang-planted-hang-") for path in tmp_path.iterdir())
