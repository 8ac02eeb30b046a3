"""One conformance suite for every registered game (STYLE G11, after OpenSpiel's random sims).

For each game: random legal games written as records replay cleanly through the container;
every notation formats and parses back to the same move; position strings round-trip; the
diagrams render; mutated tokens give diagnostics, never an engine fault.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import replay
from notation_tools.games.base import EngineError, Game, Style, all_games
from notation_tools.records.jsonio import read_json_records, write_json_record
from notation_tools.records.pgn import read_records, write_record
from notation_tools.analysis.generate import random_move

GAMES = all_games()
ids = [game.id for game in GAMES]


def random_line(game: Game, seed: int, plies: int):
    """(position before, move) pairs of one random legal game."""
    rng = random.Random(seed)
    position = game.start_position(game.parse_rules(None))
    line = []
    for _ in range(plies):
        if position.outcome() is not None:
            break
        move = random_move(game, position, rng)
        if move is None:
            break
        line.append((position.copy(), move))
        position.push(move)
    return line, position


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_identity_is_complete(game):
    assert game.id and game.name and len(game.sides) == 2 and game.notations
    assert game.default_profile in game.profiles
    assert len(game.results) == 2 and set(game.results) == {"1-0", "0-1"}
    assert game.check_tables() == []
    for option in game.options:
        assert option.spec, option.name
        game.parse_rules(f"{option.name}={option.default}")


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_generated_records_replay_cleanly_through_both_containers(game):
    rules = game.parse_rules(None)
    for record in generate_records(game, rules, count=3, seed=11, max_plies=40):
        for reread in (list(read_records(write_record(record).splitlines(), "gen.pgn")),
                       list(read_json_records(write_json_record(record), "gen.jsonl"))):
            (copy,) = reread
            result = replay(copy)
            assert result.is_valid, [str(d) for d in result.diagnostics]
            assert result.plies == len(record.moves)


@pytest.mark.parametrize("game", GAMES, ids=ids)
@settings(max_examples=12)
@given(seed=st.integers(0, 10**6))
def test_every_notation_round_trips_on_random_games(game, seed):
    line, _ = random_line(game, seed, 25)
    for before, move in line:
        for notation in game.notations:
            text = game.format_move(move, before, notation)
            assert game.parse_move(text, before) == move, (notation, text)
            assert game.format_move(game.parse_move(text, before), before, notation) == text
        data = game.move_to_json(move, before)
        assert game.move_from_json(data, before) == move


@pytest.mark.parametrize("game", GAMES, ids=ids)
@settings(max_examples=12)
@given(seed=st.integers(0, 10**6))
def test_position_strings_round_trip_on_random_positions(game, seed):
    rules = game.parse_rules(None)
    _, position = random_line(game, seed, 30)
    text = game.format_position(position)
    again = game.parse_position(text, rules)
    assert game.format_position(again) == text
    assert sorted(map(repr, again.legal_moves())) == sorted(map(repr, position.legal_moves()))


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_diagrams_render_for_random_positions(game):
    _, position = random_line(game, 5, 20)
    for style in Style:
        text = game.render_text(position, style=style)
        assert isinstance(text, str) and text.count("\n") >= 3
    for name in game.render_options:
        assert game.render_text(position, **{name.replace("-", "_"): True})
        assert game.render_svg(position, **{name.replace("-", "_"): True}).startswith("<svg")
    root = ET.fromstring(game.render_svg(position))
    assert root.tag.endswith("svg")
    assert any(child.tag.endswith("desc") for child in root)


@pytest.mark.parametrize("game", GAMES, ids=ids)
@settings(max_examples=40)
@given(data=st.data())
def test_mutated_tokens_raise_only_engine_errors(game, data):
    line, _ = random_line(game, data.draw(st.integers(0, 1000)), 10)
    if not line:
        return
    before, move = data.draw(st.sampled_from(line))
    text = game.format_move(move, before)
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 3))):
        operation = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        index = data.draw(st.integers(0, max(len(chars) - 1, 0)))
        char = data.draw(st.sampled_from(list(set(text)) + ["x", "-", ":", "!", "0", "9", " "]))
        if operation == "delete" and chars:
            del chars[index]
        elif operation == "insert":
            chars.insert(index, char)
        elif chars:
            chars[index] = char
    try:
        game.parse_move("".join(chars), before)
    except EngineError:
        pass


@pytest.mark.parametrize("game", GAMES, ids=ids)
@given(text=st.text(max_size=60))
def test_garbage_position_strings_raise_only_bad_position(game, text):
    try:
        game.parse_position(text, game.parse_rules(None))
    except EngineError as error:
        assert error.code in ("E-BAD-POSITION", "E-TAG-CONFLICT")


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_statistics_are_the_same_from_replay_and_from_the_collector_alone(game):
    # Replay drives the collector around each push; driving it by hand over the same moves
    # must give the same figures, and every game reports its captures.
    rules = game.parse_rules(None)
    (record,) = generate_records(game, rules, count=1, seed=3, max_plies=60)
    via_replay = replay(record, collect_stats=True).stats
    position = game.start_position(rules)
    collector = game.new_stats(rules)
    for node in record.moves:
        move = game.parse_move(node.text, position)
        collector.before_move(position, move)
        position.push(move)
        collector.after_move(position)
    assert collector.summary(position, position.outcome()) == via_replay
    assert isinstance(via_replay["captures"], int)
