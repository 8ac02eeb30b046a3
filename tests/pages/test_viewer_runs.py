"""Issue #29, build time: a display option's layer is found among the runs of lines two
drawings do not share (``Game.render_svg_runs`` hands the drawings over as runs, the runs two
sets of options draw alike the same text), not by searching two whole drawings. Whatever the
game, the moves and the sets of options, the layer so found makes the drawing of the one
set from the other's exactly as the layer found by searching the whole drawings does, and
the page built from such layers decodes to every drawing."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import replay
from notation_tools.games.base import all_games, get_game
from notation_tools.pages.drawings import (
    PieceTable,
    apply_edits,
    edits,
    layer_edits,
    layer_numbers,
    numbers_of_runs,
)
from notation_tools.pages.viewer import (
    _Builder,
    _FrameEncoder,
    _page_data,
    _Recorder,
    _spans_hold,
    _Step,
    frame_numbers,
    mark_sets,
    read_page_data,
)
from notation_tools.records.model import Record

GAMES = [game.id for game in all_games()]


def recorded_steps(record: Record, marks: list[tuple[str, ...]]) -> tuple[list[_Step], PieceTable]:
    """The viewer's steps of ``record`` (a main line) drawn under ``marks``, as runs."""

    class Recorder(_Recorder):
        def begin(self, game: Any, rules: Any, record: Record) -> None:
            super().begin(game, rules, record)
            self.marks = marks

    table = PieceTable()
    recorder = Recorder(table)
    result = replay(record, visitor=recorder, keep_start=True)
    builder = _Builder(record, recorder, recorder.draw(result.start, None),
                       result.game.format_position(result.start))
    builder.rows(record.moves, len(result.game.sides))
    return builder.steps, table


def game_steps(game_id: str, seed: int, plies: int,
               marks: list[tuple[str, ...]] | None = None
               ) -> tuple[list[_Step], PieceTable, list[tuple[str, ...]]]:
    """The viewer's steps of a random record of ``plies`` plies, drawn under ``marks`` (by
    default every set of the game's options), and those sets."""
    game = get_game(game_id)
    record = next(generate_records(game, game.parse_rules(None), count=1, seed=seed,
                                   max_plies=plies))
    marks = mark_sets(game) if marks is None else marks
    return (*recorded_steps(record, marks), marks)


def searched_layer(step: _Step, base: int, variant: int) -> str:
    """The layer found by searching the two whole drawings."""
    return layer_numbers(edits(step.drawing[base], step.drawing[variant]))


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 20))
def test_a_layer_found_among_runs_makes_the_drawing_as_the_searched_one_does(
        game_id, data, seed, plies):
    game = get_game(game_id)
    every = mark_sets(game)
    chosen = data.draw(st.lists(st.sampled_from(every[1:]), unique=True, max_size=4)) \
        if len(every) > 1 else []
    steps, table, marks = game_steps(game_id, seed, plies, [()] + chosen)
    encoder = _FrameEncoder(steps, table.pieces, table.runs)
    for step in steps:
        assert step.runs is not None
        assert [numbers_of_runs(table.runs, runs) for runs in step.runs] == step.drawing
        for base, variant in itertools.permutations(range(len(marks)), 2):
            layer = encoder.layer(step, base, variant)
            searched = searched_layer(step, base, variant)
            under = list(map(ord, step.drawing[base]))
            made = apply_edits(under, layer_edits(layer))
            assert made == apply_edits(under, layer_edits(searched))
            assert made == list(map(ord, step.drawing[variant]))
            assert (layer == "") == (step.drawing[base] == step.drawing[variant])


@pytest.mark.parametrize("game_id", ["shih", "gow"])
def test_layer_frames_hold_the_same_edits_whichever_way_layers_are_found(game_id):
    # Over a whole game, each step's stored layer rebuilds the same drawing as the layer
    # searched between whole drawings (the parent's spans of runs carried over or not).
    steps, table, marks = game_steps(game_id, 3, 60)
    page = read_page_data(_page_data(table, steps, marks))
    for index, step in enumerate(steps):
        for variant in range(len(marks)):
            assert frame_numbers(page, index, variant) == list(map(ord, step.drawing[variant]))


# --------------------------------------------------------------------------------------------
# Drawings made of runs, without a game: runs shared, replaced, added and removed between
# the sets and from a step to the next, lines shared between different runs.

LINES = ["<g>\n", "</g>\n", "<a/>\n", "<b/>\n", "<c x='1'/>\n", "<c x='2'/>\n", "<t>1</t>\n",
         "<t>2</t>\n", "<svg h='1'>\n", "<svg h='2'>\n"]
RUNS = st.lists(st.sampled_from(LINES), min_size=1, max_size=4).map("".join)
DRAWING = st.lists(RUNS, min_size=1, max_size=7)


@st.composite
def variant_of(draw: Any, plain: list[str]) -> list[str]:
    """``plain`` with a few of its runs replaced, removed, or new runs put in."""
    runs = list(plain)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(runs)))
        removed = draw(st.integers(0, min(2, len(runs) - at)))
        runs[at:at + removed] = draw(st.lists(RUNS, max_size=2))
    return runs or plain


@settings(max_examples=150, deadline=None)
@given(st.data(), st.integers(1, 3))
def test_every_step_drawn_as_runs_decodes_to_its_drawing(data, sets):
    marks = [()] + [(f"option-{number}",) for number in range(1, sets)]
    count = data.draw(st.integers(1, 8))
    parents = [-1] + [data.draw(st.integers(0, step - 1)) for step in range(1, count)]
    table = PieceTable()
    steps = []
    drawings = []
    for parent in parents:
        # A step's drawings are mostly its parent's (a move changes a few runs).
        plain = (data.draw(variant_of(drawings[parent][0])) if parent >= 0
                 and data.draw(st.booleans()) else data.draw(DRAWING))
        drawn = [plain] + [
            data.draw(variant_of(plain)) if parent < 0 or data.draw(st.booleans())
            else data.draw(variant_of(drawings[parent][variant]))
            for variant in range(1, sets)]
        drawings.append(drawn)
        runs = [table.run_codes(tuple(runs)) for runs in drawn]
        steps.append(_Step(parent, [table.numbers_of_runs(codes) for codes in runs], "",
                           "a/b", runs=runs))
    page = read_page_data(_page_data(table, steps, marks))
    pieces = page["pieces"]
    for index, drawn in enumerate(drawings):
        for variant, runs in enumerate(drawn):
            assert "".join(pieces[number] for number in frame_numbers(page, index, variant)) \
                == "".join(runs)


@given(st.text("abc", max_size=8), st.text("abc", max_size=8),
       st.lists(st.tuples(st.integers(0, 8), st.integers(0, 3), st.integers(0, 3)),
                max_size=3))
def test_spans_hold_only_where_the_runs_outside_them_are_the_same(under, variant, spans):
    spans = sorted(spans)
    assume(all(first[0] + first[1] <= second[0] for first, second in zip(spans, spans[1:])))
    if _spans_hold(spans, under, variant):
        # Putting the variant's runs of each span in place of the under's gives the variant.
        rebuilt, done, shift = [], 0, 0
        for at, removed, added in spans:
            rebuilt += [under[done:at], variant[at + shift:at + shift + added]]
            done = at + removed
            shift += added - removed
        rebuilt.append(under[done:])
        assert "".join(rebuilt) == variant
        assert spans[-1][0] + spans[-1][1] <= len(under) if spans else under == variant


def as_runs(text: str) -> str:
    """``text`` of the letters a to d as the run numbers 0 to 3."""
    return "".join(chr(ord(letter) - ord("a")) for letter in text)


@given(st.text("abcd", max_size=10), st.text("abcd", max_size=10))
def test_the_spans_found_between_two_drawings_hold(under, variant):
    encoder = _FrameEncoder([], [], ["1", "22", "333", "4"])  # runs of 1 to 3 pieces
    spans = encoder._run_spans(as_runs(under), as_runs(variant))
    assert _spans_hold(spans, as_runs(under), as_runs(variant))
    assert (spans == []) == (under == variant)


@pytest.mark.parametrize("game_id", ["shih", "gow", "shuriken"])
def test_every_piece_a_layer_adds_has_its_likely_bases_noted(game_id):
    # The pieces' bases make the page's pieces small (encode_pieces): a layer's new piece
    # is noted when the edits between runs that add it are first met, and only then.
    steps, table, marks = game_steps(game_id, 11, 40)
    encoder = _FrameEncoder(steps, table.pieces, table.runs)
    encoder.plain_frames()
    for variant in range(1, len(marks)):
        base = encoder.base_of(variant, marks)
        encoder.layer_frames(variant, base)
        added = {number for step in steps
                 for edit in layer_edits(encoder.layer(step, base, variant))
                 for number in edit[2:]}
        assert added <= set(encoder.bases), marks[variant]
