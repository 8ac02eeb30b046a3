"""Issue #29, in headless Chromium: the page's script composes a mark set's drawing from the
plain drawing and the set's layers (the layer over a set with one option fewer, that one's
over the plain one), and shows the game's own ``render_svg`` with those options on, whatever
the order in which the options are toggled and the steps visited (the script keeps what it
rebuilt: a plain drawing, a layer)."""

from __future__ import annotations

import pytest

from notation_tools.pages.viewer import viewer_page
from tests.pages.test_viewer_browser import as_parsed, browser, open_page  # noqa: F401
from tests.pages.test_viewer_layers import own_drawings, random_record
from tests.pages.viewer_support import page_data

SHOW = """([names, step]) => {
  document.querySelectorAll("#options input").forEach(box => {
    if (box.checked !== names.includes(box.name)) { box.click(); }
  });
  window.location.hash = "#ply=" + step;
  window.dispatchEvent(new HashChangeEvent("hashchange"));
  return document.getElementById("board").innerHTML;
}"""


@pytest.mark.parametrize("game", ["gow", "shih", "shuriken"])
def test_toggled_options_show_the_games_own_drawing(open_page, game):
    record = random_record(game, 11, 40)
    page = open_page(viewer_page(record))
    marks = [tuple(names) for names in page_data(page.content())["marks"]]
    drawn = {names: own_drawings(record, names) for names in marks}
    plies = len(drawn[()]) - 1
    assert plies >= 20
    # Forward, then back, then a jump; every set at some of them, the sets in an order that
    # toggles one option, then several at once, then none.
    visits = [(marks[-1], plies // 2), (marks[1], plies // 2 + 1), ((), plies),
              (marks[-1], plies), (marks[len(marks) // 2], 3), (marks[-1], 2), ((), 0),
              (marks[1], plies - 1), (marks[-1], 1)]
    for names, step in visits:
        shown = page.evaluate(SHOW, [list(names), step])
        assert shown == as_parsed(page, drawn[names][step]), (names, step)
