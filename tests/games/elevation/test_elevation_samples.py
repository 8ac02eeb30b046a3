"""Elevation sample records: the valid ones replay legally to their result; each broken one
fails for the fault its name gives. A minimal reader stands in for the container here, so the
samples are checked against the engine alone."""

from __future__ import annotations

import pytest

from notation_tools.games.elevation import GAME
from tests.sample_records import SAMPLES as SAMPLE_ROOT
from tests.sample_records import first_error, replay_file

SAMPLES = SAMPLE_ROOT / "elevation"


VALID = sorted(p for p in SAMPLES.glob("*.pgn") if not p.name.startswith("broken-"))
BROKEN = {
    "broken-illegal-move.pgn": "E-ILLEGAL-MOVE",
    "broken-capture-mark.pgn": "E-CAPTURE-MARK",
    "broken-bad-fen.pgn": "E-BAD-POSITION",
    "broken-move-after-end.pgn": "E-MOVE-AFTER-END",
    "broken-result-mismatch.pgn": "E-RESULT-MISMATCH",
    "broken-tag-conflict.pgn": "E-TAG-CONFLICT",
    "broken-bad-rules.pgn": "E-BAD-RULES",
    "broken-syntax.pgn": "E-SYNTAX",
    "broken-two-pieces-without-option.pgn": "E-ILLEGAL-MOVE",
}


def test_samples_exist():
    assert len(VALID) >= 8
    assert {p.name for p in SAMPLES.glob("broken-*.pgn")} == set(BROKEN)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_sample_replays(path):
    """Valid samples: every token legal, the result consistent with the end (§5)."""
    for result in replay_file(path):
        assert result.game is GAME and result.record.result == result.record.tag("Result")
        assert result.diagnostics == [], [str(d) for d in result.diagnostics]


@pytest.mark.parametrize("name, code", sorted(BROKEN.items()))
def test_broken_sample_fails_for_its_fault(name, code):
    """Broken samples: each fails with the code its name promises (§7)."""
    assert first_error(SAMPLES / name) == code


def test_finished_samples_end_as_their_result_says():
    """§5: the club games end with all pieces captured; the set-ups as the spec says."""
    ends = {}
    for path in VALID:
        for result in replay_file(path):
            ends[(path.name, result.record.tag("Round"))] = result.outcome
    assert ends[("setup-no-legal-turn.pgn", "1")].reason == "no-legal-turn"
    assert ends[("setup-repetition-draw.pgn", "1")].reason == "repetition"
    assert ends[("club-league-round1-capture-win.pgn", "1")].reason == "all-pieces-captured"
