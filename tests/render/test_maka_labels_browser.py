"""Maka-Dai-Dai Shogi's piece labels as Chromium draws them (§12: each piece shown by its
abbreviation on its wedge): no abbreviation, however many letters, is wider than the wedge
it stands on, with the browser's own font, for Black's labels and White's turned ones."""

from __future__ import annotations

from notation_tools.games.base import get_game
from tests.pages.test_viewer_browser import browser  # noqa: F401
from tests.render.test_boards import mid_game, start

_MEASURE = """() => [...document.querySelectorAll('g.piece')].map(g => {
    const wedge = g.querySelector('polygon').getBBox();
    const label = g.querySelector('text').getBBox();
    return [g.querySelector('text').textContent, label.width, wedge.width,
            label.x - wedge.x, wedge.x + wedge.width - label.x - label.width];
})"""


def test_every_label_fits_its_wedge(browser):  # noqa: F811
    game = get_game("maka")
    page = browser.new_page(viewport={"width": 800, "height": 900})
    try:
        measured = []
        for position, last in ((start(game), None), mid_game(game)):
            page.set_content("<!DOCTYPE html><body style='margin:0'>"
                             + game.render_svg(position, last_move=last) + "</body>")
            measured += page.evaluate(_MEASURE)
    finally:
        page.close()
    assert len({text for text, *_ in measured}) >= 40
    too_wide = [(text, round(width, 1), round(wedge, 1)) for text, width, wedge, left, right
                in measured if width > 0.85 * wedge or left < 0 or right < 0]
    assert not too_wide
