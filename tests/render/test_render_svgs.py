"""``Game.render_svgs``: one position drawn under several sets of display options at once
(what the viewer asks for) gives exactly what ``render_svg`` draws for each set, in every
game, whatever was drawn before (the drawings share kept parts: the text diagram, the
caption, the legend, layers); ``Game.render_svg_runs`` gives the same drawings as runs of
whole lines."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import random_move
from notation_tools.games.base import all_games
from notation_tools.render import svg

GAMES = all_games()


def _all_mark_sets(game: Any) -> list[tuple[str, ...]]:
    names = sorted(game.render_options)
    return [combination for size in range(len(names) + 1)
            for combination in itertools.combinations(names, size)]


def _one_by_one(game: Any, position: Any, mark_sets: list[tuple[str, ...]],
                last_move: Any) -> list[str]:
    return [game.render_svg(position, last_move=last_move,
                            **{name.replace("-", "_"): True for name in marks})
            for marks in mark_sets]


def _played(game: Any, seed: int, plies: int) -> tuple[Any, Any]:
    """The position after up to ``plies`` random moves from the start, and the last move."""
    rng = random.Random(seed)
    position = game.start_position(game.parse_rules(None))
    last_move = None
    for _ in range(plies):
        move = random_move(game, position, rng)
        if move is None:
            break
        position.push(move)
        last_move = move
    return position, last_move


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40), data=st.data())
def test_drawing_many_mark_sets_at_once_gives_each_drawing(game: Any, seed: int, plies: int,
                                                           data: st.DataObject) -> None:
    position, last_move = _played(game, seed, plies)
    every = _all_mark_sets(game)
    mark_sets = data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=len(every) + 1))
    if data.draw(st.booleans(), label="forget kept drawings first"):
        svg.forget_kept()
    together = game.render_svgs(position, mark_sets, last_move=last_move)
    assert together == _one_by_one(game, position, mark_sets, last_move)
    runs = game.render_svg_runs(position, mark_sets, last_move=last_move)
    assert ["".join(drawing) for drawing in runs] == together
    # Each run but the last ends a line: a viewer cuts each into lines on its own.
    assert all(run.endswith("\n") for drawing in runs for run in drawing[:-1])
    svg.forget_kept()   # and drawn afresh, with nothing kept
    assert _one_by_one(game, position, mark_sets, last_move) == together
    assert ["".join(drawing) for drawing in
            game.render_svg_runs(position, mark_sets, last_move=last_move)] == together


def test_an_unknown_display_option_is_refused() -> None:
    game = GAMES[0]
    with pytest.raises(TypeError, match="no render option"):
        game.render_svgs(game.start_position(game.parse_rules(None)), [("no-such-option",)])


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_the_sets_asked_for_are_checked_each_time(game: Any) -> None:
    # The checked sets are kept by the sets asked for (a viewer asks for the same ones at
    # every position): an unknown option is refused however often it is asked for, and
    # the same sets in another order are drawn in that order.
    position = game.start_position(game.parse_rules(None))
    every = _all_mark_sets(game)
    for _ in range(2):
        with pytest.raises(TypeError, match="no render option"):
            game.render_svg_runs(position, every + [("no-such-option",)])
    for mark_sets in (every, every[::-1], every):
        assert ["".join(runs) for runs in game.render_svg_runs(position, mark_sets)] \
            == _one_by_one(game, position, mark_sets, None)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 160), data=st.data())
def test_shih_draws_its_sets_in_any_order_as_each_drawn_alone(seed: int, plies: int,
                                                              data: st.DataObject) -> None:
    # Shih writes each layer once for all the sets it is asked for (the walls or the maze,
    # the numbers or the names, the region tints and letters), whichever set needs it first.
    from notation_tools.games.shih.render import enclosed_regions
    game = next(game for game in GAMES if game.id == "shih")
    position, last_move = _played(game, seed, plies)
    order = data.draw(st.permutations(_all_mark_sets(game)))
    svg.forget_kept()
    together = game.render_svgs(position, order, last_move=last_move)
    alone = []
    for marks in order:
        svg.forget_kept()
        alone.append(_one_by_one(game, position, [marks], last_move)[0])
    assert together == alone
    lettered = bool(enclosed_regions(position))
    for marks, drawing in zip(order, together):
        assert ('class="region-letter"' in drawing) == (
            lettered and "regions" in marks and "coordinates" not in marks)
        assert ('class="mark-maze"' in drawing) == ("maze" in marks)
        assert ('class="walls"' in drawing) == ("maze" not in marks)
        assert ('class="space-name"' in drawing) == ("coordinates" in marks)
