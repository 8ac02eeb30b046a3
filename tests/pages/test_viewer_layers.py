"""Issue #29: a display option costs the page what its layer changes, not a drawing per
position. Each mark set's drawing is stored as its layer, the edits from the drawing of the
plain set (or of a set with one option fewer) to its own, and each layer as the edits of
the same set's layer one step before. Whatever the game and the moves, every step composed
so, with the page's own decoder, is the game's own ``render_svg`` with those options on."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.games.base import all_games, get_game
from notation_tools.pages.viewer import build_page, mark_sets
from notation_tools.records.model import Record
from tests.pages.viewer_support import page_data, rebuilt

GAMES = [game.id for game in all_games()]


class _Drawn(ReplayVisitor):
    """Each position the main line reaches, with the move that reached it."""

    def __init__(self) -> None:
        self.after: list[tuple[Any, Any]] = []

    def visit_move(self, node, move, before, ply, in_variation):
        after = before.copy()
        after.push(move)
        self.after.append((after, move))


def own_drawings(record: Record, marks: tuple[str, ...]) -> list[str]:
    """The game's own drawing of every step of ``record`` (a main line only) with ``marks``."""
    visitor = _Drawn()
    result = replay(record, visitor=visitor, keep_start=True)
    keywords = {name.replace("-", "_"): True for name in marks}
    return [result.game.render_svg(result.start, **keywords)] + [
        result.game.render_svg(position, last_move=move, **keywords)
        for position, move in visitor.after]


def random_record(game_id: str, seed: int, plies: int) -> Record:
    game = get_game(game_id)
    return next(generate_records(game, game.parse_rules(None), count=1, seed=seed,
                                 max_plies=plies))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 24))
def test_every_mark_set_composes_to_the_games_own_drawing(game, seed, plies):
    record = random_record(game, seed, plies)
    data = page_data(build_page(record).html)
    assert [tuple(marks) for marks in data["marks"]] == mark_sets(get_game(game))
    for variant, marks in enumerate(data["marks"]):
        expected = own_drawings(record, tuple(marks))
        assert [rebuilt(data, step, variant) for step in range(len(expected))] == expected, marks


def test_a_set_of_options_is_stored_over_a_set_with_one_fewer():
    # Shih's three options: with all three on, the drawing differs least from the one with
    # two of them (the coordinates relabel the same lines with and without the maze), so
    # its layers are stored over that set's drawing, not over the plain one.
    data = page_data(build_page(random_record("shih", 7, 30)).html)
    marks = [tuple(names) for names in data["marks"]]
    bases = data["layer_bases"]
    assert [bases[marks.index((name,)) - 1] for name in ("coordinates", "maze", "regions")] \
        == [0, 0, 0]
    every = marks.index(("coordinates", "maze", "regions"))
    assert len(marks[bases[every - 1]]) == 2
    assert all(set(marks[base]) < set(marks[variant])
               for variant, base in enumerate(bases, 1))


def test_a_layer_is_stored_as_what_changes_from_the_step_before():
    # Game of War's lines of communication cover dozens of squares; a move changes a few:
    # after the first step, a step's layer frame adds a fraction of what the first adds.
    data = page_data(build_page(random_record("gow", 5, 60)).html)
    for marks, frames in zip(data["marks"][1:], data["layers"]):
        added = [sum(len(edit) - 2 for edit in frame) for frame in frames]
        assert len(added) > 40
        assert sum(added[1:]) / len(added[1:]) < added[0] / 5, (marks, added[:8])
