"""The sample records under sample_games/game-of-war: valid ones replay legally (spec §13) and
each broken one fails with the diagnostic its name announces (spec §15).

The records are split with a minimal reader here (tags, comments, move numbers, result), so
that this test does not depend on the container parser."""

from __future__ import annotations

import pathlib
import re

import pytest

from notation_tools.games.base import EngineError
from notation_tools.games.gow import GAME

SAMPLES = pathlib.Path(__file__).resolve().parents[3] / "sample_games" / "game-of-war"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def records(path: pathlib.Path) -> list[tuple[dict[str, str], list[str]]]:
    out = []
    for chunk in re.split(r"\n\s*\n(?=\[)", path.read_text()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', chunk, re.M))
        body = re.sub(r"^\[.*\]$", "", chunk, flags=re.M)
        body = re.sub(r"\{[^}]*\}", " ", body)
        tokens = [t for t in body.split() if not re.fullmatch(r"[0-9]+\.(\.\.)?", t) and t not in RESULTS]
        out.append((tags, tokens))
    return out


def replay(tags: dict[str, str], tokens: list[str]) -> str | None:
    """None if the record is valid, else the first diagnostic code."""
    try:
        rules = GAME.parse_rules(tags.get("Rules"))
        first = GAME.parse_side(tags["FirstPlayer"]) if "FirstPlayer" in tags else None
        position = GAME.start_position(rules, fen=tags.get("FEN"), first_player=first)
        for token in tokens:
            position.push(GAME.parse_move(token, position))
    except EngineError as error:
        return error.code
    outcome = position.outcome()
    if outcome is not None and tags.get("Result") != GAME.result_text(outcome):
        return "E-RESULT-MISMATCH" if tags.get("Result") != "*" else "W-RESULT-UNSTATED"
    return None


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
    for tags, tokens in records(SAMPLES / name):
        assert tags.get("Variant") in ("game-of-war", *GAME.aliases)
        assert replay(tags, tokens) is None, (name, tags.get("Round"))


@pytest.mark.parametrize("name, code", sorted(BROKEN.items()))
def test_broken_samples_fail_as_named_s15(name, code):
    (tags, tokens), = records(SAMPLES / name)
    assert replay(tags, tokens) == code
