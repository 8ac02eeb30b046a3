"""The page's script decodes templated pieces to exactly Python's text (issue #29): the
script's own functions (from viewer.js) run in Chromium on random lines, written as the page
writes them, compared byte for byte with the lines themselves."""

from __future__ import annotations

import pytest

from hypothesis import HealthCheck, given, settings

from notation_tools.pages.page_notation import write_pieces
from notation_tools.pages.piece_templates import template_pieces
from tests.pages.piece_lines import drawn_lines
from tests.pages.script_functions import script_functions
from tests.pages.test_viewer_browser import browser  # noqa: F401  (the fixture)

DECODE = """([texts, heads, templates]) => {
  %s
  return readPieces(texts, heads, templates);
}"""


@pytest.fixture(scope="module")
def blank_page(browser):  # noqa: F811
    page = browser.new_page()
    yield page
    page.close()


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=drawn_lines())
def test_the_script_decodes_templated_lines_to_the_same_bytes(blank_page, lines):
    encoded, templates = template_pieces(lines, lines)
    texts, heads = write_pieces(encoded, lines)
    assert blank_page.evaluate(DECODE % script_functions(), [texts, heads, templates]) == lines
