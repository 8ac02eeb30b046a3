"""The sample records under sample_games/game-of-war: valid ones replay legally (spec §13) and
each broken one fails with the diagnostic its name announces (spec §15).

The samples go through the toolkit's real pipeline (sources, container, replay driver), as
``notation-tools validate`` reads them."""

from __future__ import annotations

import pytest

from notation_tools.games.gow import GAME
from tests.sample_records import SAMPLES as SAMPLE_ROOT
from tests.sample_records import first_error, replay_file

SAMPLES = SAMPLE_ROOT / "game-of-war"


VALID = sorted(p.name for p in SAMPLES.glob("*.pgn") if not p.name.startswith("broken-"))
BROKEN = {
    "broken-illegal-move.pgn": "E-UNIT-OFFLINE",
    "broken-bad-fen.pgn": "E-BAD-POSITION",
    "broken-move-after-end.pgn": "E-MOVE-AFTER-END",
    "broken-result-mismatch.pgn": "E-RESULT-MISMATCH",
    "broken-outcome-mismatch.pgn": "E-OUTCOME-MISMATCH",
    "broken-syntax.pgn": "E-SYNTAX",
    "broken-retreat-first.pgn": "E-RETREAT-FIRST",
    "broken-bad-rules.pgn": "E-BAD-RULES",
    "broken-first-player.pgn": "E-FIRST-PLAYER",
    "broken-too-many-moves.pgn": "E-TOO-MANY-MOVES",
}


def test_sample_inventory():
    assert len(VALID) >= 5
    assert sorted(p.name for p in SAMPLES.glob("broken-*.pgn")) == sorted(BROKEN)


@pytest.mark.parametrize("name", VALID)
def test_valid_samples_replay_s13(name):
    for result in replay_file(SAMPLES / name):
        assert result.game is GAME
        assert [d for d in result.diagnostics if d.is_error] == [], (name, result.record.index)


@pytest.mark.parametrize("name, code", sorted(BROKEN.items()))
def test_broken_samples_fail_as_named_s15(name, code):
    assert first_error(SAMPLES / name) == code
