"""One conformance suite for every registered game and the template's example game (STYLE G11,
after OpenSpiel's random sims).

For each game: its identity and tables are complete; random legal games written as records
replay cleanly through both containers; every notation formats and parses back to the same
move; position strings round-trip; the position answers the contract's questions
consistently; the drawings render; statistics are the same from replay and from the collector
alone; and no text, however mangled, makes a move or position parser raise anything but an
engine error (the per-game garbage tests, folded here: the alphabets come from each game's
own move and position texts).
"""

from __future__ import annotations

from pathlib import Path

import dataclasses
import functools
import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import generate_records, random_move
from notation_tools.analysis.perft import perft
from notation_tools.analysis.replay import replay
from notation_tools.games import base
from notation_tools.games.base import (BadPositionError, EngineError, Game, Style,
                                       TagConflictError, all_games)
from notation_tools.records.jsonio import read_json_records, write_json_record
from notation_tools.records.pgn import read_records, write_record
from tests.example_game.tictactoe import GAME as EXAMPLE

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"

GAMES = (*all_games(), EXAMPLE)
ids = [game.id for game in GAMES]
every_game = pytest.mark.parametrize("game", GAMES, ids=ids)


@pytest.fixture(autouse=True)
def example_registered(monkeypatch):
    """The example game is not installed: register it for the tests that go through the
    registry (replay finds a record's game by its Variant tag)."""
    installed = base.all_games()
    monkeypatch.setattr(base, "all_games", lambda: (*installed, EXAMPLE))


def random_line(game: Game, seed: int, plies: int, rules_text: str | None = None):
    """(position before, move) pairs of one random legal game, and the final position."""
    rng = random.Random(seed)
    position = game.start_position(game.parse_rules(rules_text))
    line = []
    for _ in range(plies):
        if position.is_over():
            break
        move = random_move(game, position, rng)
        if move is None:
            break
        line.append((position.copy(), move))
        position.push(move)
    return line, position


@functools.cache
def move_alphabet(game: Game) -> str:
    """Every character the game's notations write in a few random games, and separators."""
    chars = set(" -,:;=+!x?")
    for seed in range(3):
        line, _ = random_line(game, seed, 30)
        for before, move in line:
            for notation in game.notations:
                chars.update(game.format_move(move, before, notation))
    return "".join(sorted(chars))


@functools.cache
def position_texts(game: Game) -> tuple[str, ...]:
    """Position strings of the start and of a few random positions."""
    texts = [game.format_position(game.start_position(game.parse_rules(None)))]
    for seed in range(3):
        texts.append(game.format_position(random_line(game, seed, 20)[1]))
    return tuple(texts)


# ---- identity and tables ------------------------------------------------------------------


@every_game
def test_identity_is_complete(game):
    assert game.id and game.name and len(game.sides) == 2 and game.notations
    assert game.default_profile in game.profiles
    assert len(game.results) == 2 and set(game.results) == {"1-0", "0-1"}
    assert game.check_tables() == []
    assert game.rules_doc
    for option in game.options:
        assert option.spec, option.name
        game.parse_rules(f"{option.name}={option.default}")


def test_each_built_in_id_leads_to_its_own_game():
    # get_game's shortcut for a built-in id must give what the scan of every game gives.
    built_in = [game for game in all_games()
                if game.position_type.__module__.startswith("notation_tools.games.")]
    assert sorted(base._BUILTIN_IDS) == sorted(game.id for game in built_in)
    for game in built_in:
        assert base.get_game(game.id.upper()) is game
        assert all(alias not in base._BUILTIN_IDS for other in all_games()
                   for alias in other.aliases)


@every_game
def test_options_dataclass_mirrors_the_option_rows(game):
    # The engine reads one typed frozen dataclass whose fields are the option names.
    assert game.options_type is not None
    options = base.options_of(game.options_type, game.parse_rules(None))
    rules = game.parse_rules(None)
    for option in game.options:
        assert getattr(options, option.field_name) == rules[option.name], option.name
    with pytest.raises(AttributeError):
        setattr(options, game.options[0].field_name, None)


def test_check_tables_finds_an_option_without_its_field():
    lacking = dataclasses.replace(
        EXAMPLE, options=(*EXAMPLE.options, base.RuleOption("extra", "no", "not in Options", "§4")))

    assert lacking.check_tables() == ["rule option extra: no field in Options"]
    assert EXAMPLE.position_type.game is EXAMPLE


# ---- records ---------------------------------------------------------------------------


@every_game
def test_generated_records_replay_cleanly_through_both_containers(game):
    rules = game.parse_rules(None)
    for record in generate_records(game, rules, count=3, seed=11, max_plies=40):
        for reread in (list(read_records(write_record(record).splitlines(), "gen.pgn")),
                       list(read_json_records(write_json_record(record), "gen.jsonl"))):
            (copy,) = reread
            result = replay(copy)
            assert result.is_valid, [str(d) for d in result.diagnostics]
            assert result.plies == len(record.moves)


@every_game
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


@every_game
@settings(max_examples=12)
@given(seed=st.integers(0, 10**6))
def test_position_strings_round_trip_on_random_positions(game, seed):
    rules = game.parse_rules(None)
    _, position = random_line(game, seed, 30)
    text = game.format_position(position)
    again = game.parse_position(text, rules)
    assert game.format_position(again) == text
    assert sorted(map(repr, again.legal_moves())) == sorted(map(repr, position.legal_moves()))


# ---- the position contract -------------------------------------------------------------


@every_game
@settings(max_examples=8)
@given(seed=st.integers(0, 10**6))
def test_position_answers_the_contract(game, seed):
    line, position = random_line(game, seed, 20)
    assert position.is_over() == (position.outcome() is not None)
    moves = list(position.legal_moves())
    assert sorted(map(repr, position.unordered_moves())) == sorted(map(repr, moves))
    assert position.count_legal_moves() == len(moves) == perft(position, 1)
    # A filter narrows the list or, where a game cannot apply it, leaves it whole.
    for move in moves[:20]:
        for name in ("origin", "target"):
            square = getattr(move, name, None)
            if isinstance(square, int):
                assert move in list(position.legal_moves(**{name: square})), (name, move)
    # copy is independent; pop undoes push
    before = game.format_position(position)
    other = position.copy()
    if moves:
        other.push(moves[0])
        assert game.format_position(position) == before
        assert other.pop() == moves[0]
        assert game.format_position(other) == before
    for previous, move in reversed(line[-3:]):
        assert position.pop() == move
        assert game.format_position(position) == game.format_position(previous)


# ---- output ----------------------------------------------------------------------------


@every_game
def test_diagrams_render_for_random_positions(game):
    line, position = random_line(game, 5, 20)
    last = line[-1][1] if line else None
    for style in Style:
        text = game.render_text(position, style=style)
        assert isinstance(text, str) and text.count("\n") >= 3
    for name in game.render_options:
        assert game.render_text(position, **{name.replace("-", "_"): True})
        assert game.render_svg(position, **{name.replace("-", "_"): True}).startswith("<svg")
    root = ET.fromstring(game.render_svg(position, last_move=last))
    assert root.tag.endswith("svg")
    assert any(child.tag.endswith("desc") for child in root)
    with pytest.raises(TypeError):
        game.render_text(position, no_such_mark=True)


@functools.cache
def finished_positions() -> dict[str, object]:
    """A position after the end of a game, for every game: from the sample records (replayed
    to their end), and from random play for the example game."""
    from notation_tools.parallel.batch import iter_records

    found: dict[str, object] = {}
    for item in iter_records([str(SAMPLES)]):
        if hasattr(item, "moves"):
            result = replay(item)
            if result.outcome is not None and result.game is not None:
                found.setdefault(result.game.id, result.position)
    for seed in range(50):
        _, position = random_line(EXAMPLE, seed, 9)
        if position.outcome() is not None:
            found.setdefault(EXAMPLE.id, position)
    return found


@every_game
def test_a_text_diagram_states_the_end_of_the_game_as_the_caption_does(game):
    # Issue #25: Maka's and Game of War's text said "White to move (move 1)" under a game
    # Black had won; the SVG caption said who won. Both now say it in the status line.
    position = finished_positions()[game.id]
    outcome = position.outcome()
    winner = "draw" if outcome.winner is None else f"{game.sides[outcome.winner]} wins".lower()
    caption = ET.fromstring(game.render_svg(position))
    words = " ".join(t.text or "" for t in caption.iter() if t.tag.endswith("text")).lower()
    assert winner in words or outcome.detail.lower() in words  # what the caption says
    for style in Style:
        text = game.render_text(position, style=style).lower()
        assert winner in text or outcome.detail.lower() in text, text[-300:]
        # and no bare "White to move" under it (Shih says "... to move; ...; game over")
        to_move = f"{game.sides[position.turn]} to move".lower()
        assert to_move not in text or "game over" in text, text[-300:]


def collect_by_hand(game, rules, record):
    """A new collector driven around each push of ``record``'s moves, and the final position."""
    position = game.start_position(rules)
    collector = game.new_stats(rules)
    for node in record.moves:
        move = game.parse_move(node.text, position)
        collector.before_move(position, move)
        position.push(move)
        collector.after_move(position)
    return collector, position


@every_game
def test_statistics_are_the_same_from_replay_and_from_the_collector_alone(game):
    # Replay drives the collector around each push; driving it by hand over the same moves
    # must give the same figures, and every game reports its captures.
    rules = game.parse_rules(None)
    (record,) = generate_records(game, rules, count=1, seed=3, max_plies=60)
    via_replay = replay(record, collect_stats=True).stats
    collector, position = collect_by_hand(game, rules, record)
    assert collector.summary(position, position.outcome()) == via_replay
    assert isinstance(via_replay["captures"], int)


@every_game
def test_the_collector_keeps_its_attributes_cheap_to_read(game):
    # The hooks run at every ply: from 30 instance attributes on, CPython 3.11 stops sharing
    # the instances' dictionary keys and every attribute read slows down (docs/development.md).
    rules = game.parse_rules(None)
    (record,) = generate_records(game, rules, count=1, seed=3, max_plies=20)
    collector, position = collect_by_hand(game, rules, record)
    collector.summary(position, position.outcome())
    assert len(getattr(collector, "__dict__", ())) < 30


@every_game
def test_every_numeric_figure_says_how_it_is_summarized(game):
    # Reports summarize a figure by its declared kind: one left undeclared would be read as a
    # count and averaged, which is wrong for a maximum or a ply.
    rules = game.parse_rules(None)
    numeric = set()
    for seed in range(3):
        (record,) = generate_records(game, rules, count=1, seed=seed, max_plies=80)
        figures = replay(record, collect_stats=True).stats
        numeric |= {name for name, value in figures.items()
                    if isinstance(value, (int, float)) and not isinstance(value, bool)}
    assert numeric - set(game.figures) == set()
    assert any(figure.key for figure in game.figures.values())
    assert all(figure.about for figure in game.figures.values())


# ---- no input makes a parser raise anything but an engine error ---------------------------


def mutate(data, text: str, alphabet: str) -> str:
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 3))):
        operation = data.draw(st.sampled_from(["delete", "insert", "replace", "cut"]))
        index = data.draw(st.integers(0, max(len(chars) - 1, 0)))
        char = data.draw(st.sampled_from(alphabet) | st.characters())
        if operation == "delete" and chars:
            del chars[index]
        elif operation == "insert":
            chars.insert(index, char)
        elif operation == "cut":
            del chars[index:]
        elif chars:
            chars[index] = char
    return "".join(chars)


def random_rules(game: Game, data) -> str | None:
    """Rules with each option drawn from its values, or the defaults when the draw is a
    combination the game refuses: the mutated texts then meet every option's code paths."""
    parts = [f"{option.name}={data.draw(st.sampled_from(option.values))}"
             for option in game.options if option.values and data.draw(st.booleans())]
    text = "; ".join(parts) or None
    try:
        game.start_position(game.parse_rules(text))
    except EngineError:  # refused, or rules with no default start (they need a FEN)
        return None
    return text


@every_game
@settings(max_examples=80)
@given(data=st.data())
def test_mutated_and_garbage_move_texts_raise_only_engine_errors(game, data):
    rules_text = random_rules(game, data)
    line, final = random_line(game, data.draw(st.integers(0, 1000)), 10, rules_text)
    positions = [before for before, _ in line] + [final]
    position = data.draw(st.sampled_from(positions))
    alphabet = move_alphabet(game)
    if line and data.draw(st.booleans()):
        before, move = data.draw(st.sampled_from(line))
        text = mutate(data, game.format_move(move, before), alphabet)
        position = before
    else:
        text = data.draw(st.text(alphabet=alphabet, max_size=40) | st.text(max_size=20))
    for notation in (None, *game.notations):
        try:
            move = game.parse_move(text, position, notation)
        except EngineError as error:
            assert 0 <= error.offset <= max(len(text), 1), (text, error.offset)
        else:  # whatever a text names is a legal move
            legal = list(position.legal_moves())
            if legal and type(move) not in {type(m) for m in legal}:
                continue  # a whole turn of several actions (Game of War): checked by its parse
            assert move in legal or not list(position.legal_moves(
                origin=getattr(move, "origin", None))), (text, move)


SAMPLE_GAMES = Path(__file__).resolve().parents[2] / "sample_games"


@every_game
@settings(max_examples=30)
@given(data=st.data())
def test_mutated_file_formats_raise_only_engine_errors(game, data):
    # a game's own file formats (other programs' saves) are read as hostile input too
    if not game.file_formats:
        return
    fmt = data.draw(st.sampled_from(game.file_formats))
    if fmt.write is not None:
        rules = game.parse_rules(None)
        line, final = random_line(game, data.draw(st.integers(0, 1000)), 8)
        start = game.start_position(rules)
        text = fmt.write(start, [move for _, move in line], {"Variant": game.id}, final)
    else:  # a format that is only read: the sample files in it, as the other program wrote
        files = [p for p in sorted(SAMPLE_GAMES.rglob("*")) if p.suffix in fmt.suffixes]
        assert files, f"no sample file of the read-only format {fmt.name}"
        text = data.draw(st.sampled_from(files)).read_text(encoding="utf-8")
    mutated = mutate(data, text, "".join(sorted(set(text))) + "{}[],:;0123456789")
    try:
        fmt.read(mutated)
    except EngineError:
        pass


@every_game
@settings(max_examples=80)
@given(data=st.data())
def test_mutated_and_garbage_position_strings_raise_only_bad_position(game, data):
    texts = position_texts(game)
    alphabet = "".join(sorted(set("".join(texts)) | set("0123456789 /-")))
    choice = data.draw(st.integers(0, 2))
    if choice == 0:
        text = mutate(data, data.draw(st.sampled_from(texts)), alphabet)
    elif choice == 1:
        text = data.draw(st.text(alphabet=alphabet, max_size=120))
    else:
        text = data.draw(st.text(max_size=60))
    rules = game.parse_rules(None)
    try:
        position = game.parse_position(text, rules)
    except (BadPositionError, TagConflictError):
        return
    # what parses has one canonical spelling, which parses to the same position
    canonical = game.format_position(position)
    assert game.format_position(game.parse_position(canonical, rules)) == canonical
