"""The crosstable page in a real headless Chromium: on a phone (390x844) and a laptop
(1366x768) the page never scrolls sideways, however many players the event has (the table
scrolls in its own box), and every player's row is there. Never skipped: without the browser
these tests fail and say how to install it."""

from __future__ import annotations

import io

import pytest

from notation_tools.pages.crosstable import write_crosstable_page
from notation_tools.storage.events import event_table
from tests.pages.test_viewer_browser import browser  # noqa: F401 - the fixture
from tests.storage.results_support import write_database

PLAYERS = [f"Player with a rather long name {number}" for number in range(12)]


@pytest.fixture(scope="module")
def page_html(tmp_path_factory):
    games = [(PLAYERS[i], PLAYERS[j], ("1-0", "0-1", "1/2-1/2")[(i + j) % 3])
             for i in range(len(PLAYERS)) for j in range(i + 1, len(PLAYERS))]
    path = write_database(tmp_path_factory.mktemp("db") / "r.sqlite", games,
                          event="A long event name without any space in it to wrap" * 2)
    table = event_table(path, "A long event name without any space in it to wrap" * 2)
    out = io.StringIO()
    write_crosstable_page(table.event, table.kind, table.columns, table.rows, out)
    return out.getvalue()


@pytest.mark.parametrize("width,height", [(390, 844), (1366, 768)])
def test_no_horizontal_overflow(browser, tmp_path, page_html, width, height):  # noqa: F811
    path = tmp_path / "crosstable.html"
    path.write_text(page_html, encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls {overflow}px sideways at {width}x{height}"
    assert page.evaluate("document.querySelectorAll('tbody tr').length") == len(PLAYERS)
    if width == 390:  # the table is wider than a phone: it scrolls inside its box
        box = page.evaluate("(() => { const b = document.querySelector('.scroll'); "
                            "return [b.scrollWidth, b.clientWidth]; })()")
        assert box[0] > box[1]
    assert errors == []
    page.close()
