"""Shih sample records replay as their names say: valid ones cleanly, broken ones with the
named fault. A minimal PGN reader lives here so these tests do not depend on the shared
container while it is being built."""

from __future__ import annotations

import pathlib
import re

import pytest

from notation_tools.games.base import EngineError
from notation_tools.games.shih import GAME

SAMPLES = pathlib.Path(__file__).resolve().parents[3] / "sample_games" / "shih"
TAG = re.compile(r'^\[(\w+)\s+"([^"]*)"\]\s*$')
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def read_records(text: str):
    records = []
    tags: dict[str, str] = {}
    moves: list[str] = []
    for line in text.splitlines():
        match = TAG.match(line)
        if match:
            if moves:
                records.append((tags, moves))
                tags, moves = {}, []
            tags[match.group(1)] = match.group(2)
        elif line.strip():
            moves.append(line)
    if tags:
        records.append((tags, moves))
    parsed = []
    for tags, lines in records:
        body = re.sub(r"\{[^}]*\}", " ", " ".join(lines))
        words = [w for w in body.split() if not re.fullmatch(r"\d+\.(\.\.)?", w)]
        result = words.pop() if words and words[-1] in RESULTS else None
        parsed.append((tags, words, result))
    return parsed


def replay(tags, tokens, result):
    """Replay one record; return the diagnostic code of its first fault, or None."""
    try:
        rules = GAME.parse_rules(tags.get("Rules"))
        position = GAME.start_position(rules, fen=tags.get("FEN") if tags.get("SetUp") == "1" else None)
        for token in tokens:
            if position.outcome() is not None:
                return "E-MOVE-AFTER-END"
            position.push(GAME.parse_move(token, position))
    except EngineError as error:
        return error.code
    outcome = position.outcome()
    if outcome is not None and result != GAME.result_text(outcome):
        return "E-RESULT-MISMATCH"
    if tags.get("Result") != result:
        return "E-RESULT-MISMATCH"
    return None


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
    records = read_records((SAMPLES / name).read_text())
    assert records
    for tags, tokens, result in records:
        assert tags["Variant"] == "shih"
        assert replay(tags, tokens, result) is None, name


@pytest.mark.parametrize(("name", "code"), sorted(BROKEN.items()))
def test_broken_samples_fail_for_their_named_reason(name, code):
    [(tags, tokens, result)] = read_records((SAMPLES / name).read_text())
    assert replay(tags, tokens, result) == code
