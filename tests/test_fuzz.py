"""The bounded fuzz run: every target of the fuzz harness (fuzz/targets.py) on inputs hypothesis
draws, in seconds. No input may raise anything but the toolkit's own refusals. The long
campaign is ``python -m fuzz.campaign`` (README: Fuzzing)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz.targets import TARGETS

EXAMPLES = {"move": 80, "json-move": 40, "position": 80, "rules": 40, "pgn": 40, "json": 40,
            "nested": 10, "bytes": 30, "convert": 30, "batch": 15, "select": 20, "svar": 40}


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_no_input_raises_anything_but_a_diagnostic(name):
    @settings(max_examples=EXAMPLES[name], derandomize=False)
    @given(seed=st.integers(0, 2**48))
    def run(seed):
        import random
        TARGETS[name](random.Random(seed))

    run()
