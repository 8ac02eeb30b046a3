"""The page's script decodes templated pieces to exactly Python's text (issue #29): the
script's own functions (from viewer.js) run in Chromium on random lines, compared byte for
byte with the lines themselves."""

from __future__ import annotations

import re

import pytest

from hypothesis import HealthCheck, given, settings

from notation_tools.pages.assets import asset
from notation_tools.pages.piece_templates import template_pieces
from tests.pages.piece_lines import drawn_lines
from tests.pages.test_viewer_browser import browser  # noqa: F401  (the fixture)

DECODE = """([templates, items]) => {
  %s
  return items.map(item => typeof item === "string" ? item : fromTemplate(templates, item));
}"""


def script_functions() -> str:
    """viewer.js's formatMilli and fromTemplate, as the page runs them."""
    source = asset("viewer.js")
    found = [re.search(r"  function %s\(.*?\n  }\n" % name, source, re.S)
             for name in ("formatMilli", "fromTemplate")]
    assert all(found), "viewer.js lost its template decoder"
    return "".join(match.group(0) for match in found if match)


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
    assert blank_page.evaluate(DECODE % script_functions(), [templates, encoded]) == lines
