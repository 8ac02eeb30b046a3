"""The movetext digest: one identity per game played, whatever the notation (#10, #11)."""

from __future__ import annotations

import copy

import pytest

from notation_tools.analysis.convert import Conversion, convert_record
from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import replay
from notation_tools.games.base import all_games
from notation_tools.records import jsonio, pgn

GAMES = {game.id: game for game in all_games()}


def _records(game_id: str, count: int = 3, plies: int = 30):
    game = GAMES[game_id]
    return list(generate_records(game, game.parse_rules(None), count=count, seed=7,
                                 max_plies=plies))


def _digest(record) -> str:
    result = replay(record, digest=True)
    assert result.is_valid, record.diagnostics
    return result.digest


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_notation_gives_one_digest(game_id: str) -> None:
    for record in _records(game_id):
        reference = _digest(copy.deepcopy(record))
        for notation in GAMES[game_id].notations:
            rewritten = copy.deepcopy(record)
            convert_record(rewritten, Conversion("pgn", notation=notation))
            again = pgn.read_records(pgn.write_record(rewritten).splitlines(keepends=True))
            assert _digest(next(iter(again))) == reference, notation


@pytest.mark.parametrize("game_id", sorted(g for g in GAMES if GAMES[g].has_json_moves))
def test_json_moves_give_the_same_digest(game_id: str) -> None:
    for record in _records(game_id, count=2):
        reference = _digest(copy.deepcopy(record))
        rewritten = copy.deepcopy(record)
        convert_record(rewritten, Conversion("json"))
        again = next(iter(jsonio.read_json_records(jsonio.write_json_record(rewritten))))
        for move in again.moves:
            move.text = ""  # only the structured form is left to identify the move
        assert _digest(again) == reference


def test_comments_tags_and_variations_do_not_change_the_digest() -> None:
    record = _records("maka-dai-dai-shogi", count=1)[0]
    reference = _digest(copy.deepcopy(record))
    decorated = copy.deepcopy(record)
    decorated.set_tag("Event", "another event")
    decorated.moves[3].comments.append("a note")
    decorated.moves[5].variations.append(copy.deepcopy(record.moves[5:7]))
    assert _digest(decorated) == reference


def test_other_moves_rules_or_start_change_the_digest() -> None:
    first, second = _records("shuriken-2d", count=2)
    assert _digest(copy.deepcopy(first)) != _digest(copy.deepcopy(second))
    shorter = copy.deepcopy(first)
    del shorter.moves[-1]
    assert _digest(shorter) != _digest(copy.deepcopy(first))


def test_no_digest_unless_asked() -> None:
    assert replay(_records("elevation", count=1)[0]).digest is None
