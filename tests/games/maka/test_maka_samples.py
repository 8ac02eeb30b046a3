"""Maka-Dai-Dai Shogi sample records: the valid ones replay, each broken one fails for its fault.

A minimal movetext reader lives here (the toolkit's container parser is not this package's
job); it only strips tags, comments, move numbers and the result.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from notation_tools.games.base import EngineError
from notation_tools.games.maka import GAME
from notation_tools.games.maka.forks import replay_tokens

SAMPLES = pathlib.Path(__file__).parents[3] / "sample_games" / "maka"


def read(path: pathlib.Path):
    text = path.read_text()
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', text, re.M))
    body = re.sub(r"^\[.*\]$", "", text, flags=re.M)
    body = re.sub(r"\{[^}]*\}", " ", body)
    words = body.split()
    result = words[-1]
    tokens = [w for w in words[:-1] if not re.fullmatch(r"\d+\.(\.\.)?", w)]
    return tags, tokens, result


def replay(path: pathlib.Path):
    """(error code or None, result check) for one record, as a validator would judge it."""
    tags, tokens, result = read(path)
    try:
        rules = GAME.parse_rules(tags.get("Rules"))
        pos = GAME.start_position(rules, fen=tags.get("FEN"))
    except EngineError as error:
        return error.code
    if tokens and tokens[0] == GAME.placeholder:
        if pos.turn != 1:
            return "E-PLACEHOLDER"
        tokens = tokens[1:]
    played = replay_tokens(pos, tokens)
    if played.error is not None:
        return played.error[1].code
    pos = played.position
    outcome = pos.outcome()
    if outcome is not None and result != GAME.result_text(outcome):
        return "E-RESULT-MISMATCH"
    return None


VALID = sorted(p for p in SAMPLES.glob("*.pgn") if not p.name.startswith("broken-"))
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
    names = {p.name for p in SAMPLES.glob("*.pgn")}
    assert {n for n in names if n.startswith("broken-")} == set(BROKEN)
    assert len(VALID) >= 8


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_samples_replay(path):
    """§9.8: real-looking records replay without a diagnostic."""
    assert replay(path) is None
    tags, _, _ = read(path)
    assert tags["Variant"] == "maka-dai-dai-shogi"


@pytest.mark.parametrize("name,code", sorted(BROKEN.items()))
def test_broken_samples_fail_for_their_fault(name, code):
    assert replay(SAMPLES / name) == code
