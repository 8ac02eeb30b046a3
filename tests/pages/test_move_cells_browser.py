"""The move list's short cells (issue #29, page size): a played move of the main line with
nothing beside it is written ``<i>text</i>`` and the page's script makes its cell and span.
In Chromium, the list the script leaves is exactly the list written in full, for random
records of every game (moves with ``<``, ``>`` and ``&`` in their text too), and the moves
are numbered as before."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import generate_records
from notation_tools.games.base import get_game
from notation_tools.pages.viewer import build_page
from tests.pages.test_viewer_browser import browser  # noqa: F401  (the fixture)
from tests.pages.viewer_support import ILLEGAL, PLAYABLE, first_record, numbered_moves, page_data

GAMES = ["elevation", "game-of-war", "maka-dai-dai-shogi", "shih", "shuriken-2d"]

SHORT_CELL = re.compile(r"<i>([^<]*)</i>")


def written_in_full(page: str) -> str:
    """The page with each short cell written as the other moves' cells are."""
    return SHORT_CELL.sub(r'<div><span class="move played">\1</span></div>', page)


@pytest.fixture(scope="module")
def tab(browser):  # noqa: F811
    page = browser.new_page()
    yield page
    page.close()


def moves_after_script(tab, tmp_path, html: str, name: str) -> tuple[str, list[str]]:
    """The move list's HTML once the page's script has run, and its numbered moves' texts
    in step order."""
    path = tmp_path / name
    path.write_text(html, encoding="utf-8")
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(path.as_uri())
    assert errors == [], errors
    moves = tab.inner_html("#moves")
    steps = tab.evaluate("""() => Array.from(document.querySelectorAll('.move[data-step]'))
        .sort((a, b) => a.getAttribute('data-step') - b.getAttribute('data-step'))
        .map(span => span.textContent)""")
    return moves, steps


def check_page(tab, tmp_path, html: str) -> None:
    short, short_steps = moves_after_script(tab, tmp_path, html, "short.html")
    full, full_steps = moves_after_script(tab, tmp_path, written_in_full(html), "full.html")
    assert "<i>" not in short
    assert short == full
    assert short_steps == full_steps
    assert len(short_steps) == len(page_data(html)["parents"]) - 1
    # and the texts are the moves' own, unescaped
    listed = [re.sub("&lt;|&gt;|&amp;", lambda m: {"&lt;": "<", "&gt;": ">",
                                                   "&amp;": "&"}[m.group()], text)
              for _, text in numbered_moves(html)]
    assert short_steps == listed


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(GAMES), st.integers(0, 10 ** 6), st.integers(2, 30))
def test_short_cells_make_the_list_written_in_full(tab, tmp_path_factory, name, seed, plies):
    game = get_game(name)
    record = next(generate_records(game, game.parse_rules(None), count=1, seed=seed,
                                   max_plies=plies))
    html = build_page(record).html
    assert SHORT_CELL.search(html), "no short cell written"
    check_page(tab, tmp_path_factory.mktemp("cells"), html)


def test_moves_with_nags_comments_and_variations_keep_their_full_cells(tab, tmp_path):
    # Elevation's sample has NAGs, comments and a variation (whose moves are running text)
    # and moves written with ">".
    html = build_page(first_record(PLAYABLE["elevation"])).html
    assert SHORT_CELL.search(html), "no short cell written"
    assert 'title="good move ($1)">!</span>' in html  # a NAG stays beside its move's span
    check_page(tab, tmp_path, html)


@pytest.mark.parametrize("game", sorted(ILLEGAL))
def test_the_move_the_replay_stopped_at_keeps_its_full_cell(tab, tmp_path, game):
    html = build_page(first_record(ILLEGAL[game])).html
    stops = re.findall(r'<div><span class="move stop error">([^<]*)</span>', html)
    assert len(stops) == 1  # written in full: the script numbers it as the stop
    check_page(tab, tmp_path, html)
