"""Maka-Dai-Dai Shogi sample records: the valid ones replay, each broken one fails for its fault.

The samples go through the toolkit's real pipeline (sources, container, replay driver), as
``notation-tools validate`` reads them.
"""

from __future__ import annotations

import pytest

from notation_tools.games.maka import GAME
from tests.sample_records import SAMPLES as SAMPLE_ROOT
from tests.sample_records import first_error, replay_file

SAMPLES = SAMPLE_ROOT / "maka"


VALID = sorted(p for p in SAMPLES.glob("*") if not p.name.startswith("broken-"))
BROKEN = {
    "broken-illegal-move.pgn": "E-ILLEGAL-MOVE",
    "broken-bad-fen.pgn": "E-BAD-POSITION",
    "broken-move-after-end.pgn": "E-MOVE-AFTER-END",
    "broken-result-mismatch.pgn": "E-RESULT-MISMATCH",
    "broken-shogivar-stale-capture.pgn": "E-MULTI-LEG",
    "broken-capture-mark.pgn": "E-CAPTURE-MARK",
    "broken-ambiguous-origin.pgn": "E-AMBIGUOUS",
    "broken-placeholder.pgn": "E-PLACEHOLDER",
    "broken-bad-rules.pgn": "E-BAD-RULES",
    "broken-unknown-piece.pgn": "E-UNKNOWN-PIECE",
}


def test_every_sample_is_classified():
    names = {p.name for p in SAMPLES.glob("*")}
    assert {n for n in names if n.startswith("broken-")} == set(BROKEN)
    assert len(VALID) >= 8


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_samples_replay(path):
    """§9.8: real-looking records, ShogiVar's text score among them, replay cleanly."""
    for result in replay_file(path):
        assert result.game is GAME
        assert result.diagnostics == [], [str(d) for d in result.diagnostics]


@pytest.mark.parametrize("name,code", sorted(BROKEN.items()))
def test_broken_samples_fail_for_their_fault(name, code):
    assert first_error(SAMPLES / name) == code
