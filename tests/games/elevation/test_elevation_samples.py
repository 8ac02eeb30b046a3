"""Elevation sample records: the valid ones replay legally to their result; each broken one
fails for the fault its name gives. A minimal reader stands in for the container here, so the
samples are checked against the engine alone."""

from __future__ import annotations

import pathlib
import re

import pytest

from notation_tools.games.base import EngineError
from notation_tools.games.elevation import GAME

SAMPLES = pathlib.Path(__file__).resolve().parents[3] / "sample_games" / "elevation"
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def read_records(path: pathlib.Path) -> list[tuple[dict[str, str], list[str], str]]:
    text = path.read_text(encoding="utf-8")
    records = []
    for chunk in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', chunk, flags=re.M))
        movetext = re.sub(r"^\[.*\]$", "", chunk, flags=re.M)
        movetext = re.sub(r"\{[^}]*\}", " ", movetext)
        words = [w for w in movetext.split() if not re.fullmatch(r"\d+\.(\.\.)?", w)]
        result = words.pop() if words and words[-1] in RESULTS else "*"
        records.append((tags, words, result))
    return records


def replay(tags: dict[str, str], tokens: list[str], result: str) -> str:
    """Replay one record; return ``"ok"`` or the diagnostic code of the first fault."""
    try:
        rules = GAME.parse_rules(tags.get("Rules"))
        first = GAME.parse_side(tags["FirstPlayer"]) if "FirstPlayer" in tags else None
        pos = GAME.start_position(rules, fen=tags.get("FEN") if tags.get("SetUp") == "1" else None,
                                  first_player=first)
        for token in tokens:
            if pos.outcome() is not None:
                return "E-MOVE-AFTER-END"
            pos.push(GAME.parse_move(token, pos))
    except EngineError as error:
        return error.code
    outcome = pos.outcome()
    if outcome is not None and result != GAME.result_text(outcome):
        return "E-RESULT-MISMATCH"
    return "ok"


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
    for tags, tokens, result in read_records(path):
        assert tags["Variant"] == "elevation" and tags["Result"] == result
        assert replay(tags, tokens, result) == "ok"


@pytest.mark.parametrize("name, code", sorted(BROKEN.items()))
def test_broken_sample_fails_for_its_fault(name, code):
    """Broken samples: each fails with the code its name promises (§7)."""
    (tags, tokens, result), = read_records(SAMPLES / name)
    assert replay(tags, tokens, result) == code


def test_finished_samples_end_as_their_result_says():
    """§5: the club games end with all pieces captured; the set-ups as the spec says."""
    ends = {}
    for path in VALID:
        for tags, tokens, result in read_records(path):
            first = GAME.parse_side(tags["FirstPlayer"]) if "FirstPlayer" in tags else None
            pos = GAME.start_position(GAME.parse_rules(tags.get("Rules")), fen=tags.get("FEN"),
                                      first_player=first)
            for token in tokens:
                pos.push(GAME.parse_move(token, pos))
            ends[(path.name, tags.get("Round"))] = pos.outcome()
    assert ends[("setup-no-legal-turn.pgn", "1")].reason == "no-legal-turn"
    assert ends[("setup-repetition-draw.pgn", "1")].reason == "repetition"
    assert ends[("club-league-round1-capture-win.pgn", "1")].reason == "all-pieces-captured"
