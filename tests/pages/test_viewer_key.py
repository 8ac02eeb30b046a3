"""The game's key on a viewer page (issue #29, page size): stored in the page's data as the
drawings are, and drawn by the page's script; it is the game's own ``legend_svg``, in Python
and in Chromium."""

from __future__ import annotations

import pytest

from notation_tools.analysis.replay import replay
from notation_tools.pages.viewer import build_page
from tests.pages.test_viewer_browser import browser, open_page  # noqa: F401  (the fixtures)
from tests.pages.viewer_support import PLAYABLE, first_record, page_data

GAMES = sorted(PLAYABLE)


def own_key(game: str) -> str:
    result = replay(first_record(PLAYABLE[game]), keep_start=True)
    return result.game.legend_svg(result.start)


@pytest.mark.parametrize("game", GAMES)
def test_the_page_data_holds_the_games_own_key(game):
    page = build_page(first_record(PLAYABLE[game])).html
    key = own_key(game)
    assert key, f"{game} has no key"
    assert page_data(page)["legend"] == key
    assert key not in page  # not written twice: only the data holds it


@pytest.mark.parametrize("game", GAMES)
def test_the_script_draws_the_games_own_key(open_page, game):  # noqa: F811
    page = open_page(build_page(first_record(PLAYABLE[game])).html)
    shown, expected = page.evaluate("""(key) => {
      const made = document.createElement("div");
      made.innerHTML = key;
      const details = document.querySelector("details.legend");
      return [details.querySelector("svg").outerHTML, made.querySelector("svg").outerHTML];
    }""", own_key(game))
    assert shown == expected
    assert page.locator("details.legend summary").inner_text() == "Key"
