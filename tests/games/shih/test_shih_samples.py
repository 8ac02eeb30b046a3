"""Shih sample records replay as their names say: valid ones cleanly, broken ones with the
named fault. They go through the toolkit's real pipeline, as ``notation-tools validate``
reads them."""

from __future__ import annotations

import pytest

from notation_tools.games.shih import GAME
from tests.sample_records import SAMPLES as SAMPLE_ROOT
from tests.sample_records import first_error, replay_file

SAMPLES = SAMPLE_ROOT / "shih"
VALID = sorted(path.name for path in SAMPLES.glob("shih-*.pgn"))
BROKEN = {
    "broken-illegal-move.pgn": "E-ILLEGAL-MOVE",
    "broken-bad-fen.pgn": "E-BAD-POSITION",
    "broken-move-after-end.pgn": "E-MOVE-AFTER-END",
    "broken-turn-after-end.pgn": "E-MOVE-AFTER-END",
    "broken-result-mismatch.pgn": "E-RESULT-MISMATCH",
    "broken-syntax.pgn": "E-SYNTAX",
    "broken-bad-square.pgn": "E-BAD-SQUARE",
    "broken-missing-end-mark.pgn": "E-ILLEGAL-MOVE",
    "broken-surrender-list.pgn": "E-ILLEGAL-MOVE",
    "broken-power-spin-not-alone.pgn": "E-ILLEGAL-MOVE",
    "broken-bad-rules.pgn": "E-BAD-RULES",
    "broken-16-pieces-without-fen.pgn": "E-BAD-POSITION",
}


def test_every_sample_is_listed():
    names = {path.name for path in SAMPLES.glob("*.pgn")}
    assert names == set(VALID) | set(BROKEN)
    assert len(VALID) >= 5


@pytest.mark.parametrize("name", VALID)
def test_valid_samples_replay(name):
    results = replay_file(SAMPLES / name)
    assert results
    for result in results:
        assert result.game is GAME
        assert [d for d in result.diagnostics if d.is_error] == [], name


@pytest.mark.parametrize(("name", "code"), sorted(BROKEN.items()))
def test_broken_samples_fail_for_their_named_reason(name, code):
    assert first_error(SAMPLES / name) == code
