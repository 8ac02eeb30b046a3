"""The viewer's script as a page carries it (issue #29, page size): its comment lines, blank
lines and indentation left out, every other line kept whole and in order. (That it still runs
and rebuilds every drawing is what the Chromium tests check.)"""

from __future__ import annotations

from notation_tools.pages.assets import asset, script_asset
from notation_tools.pages.viewer import build_page
from tests.pages.viewer_support import PLAYABLE, first_record


def test_the_page_script_is_the_code_lines_of_viewer_js():
    source = asset("viewer.js").splitlines()
    carried = script_asset("viewer.js").splitlines()
    code = [line for line in source if line.strip() and not line.lstrip().startswith("//")]
    assert len(carried) == len(code) and len(code) < len(source)
    for line, kept in zip(code, carried):
        assert kept == line.strip()
    assert len(script_asset("viewer.js")) < 0.8 * len(asset("viewer.js"))


def test_a_page_carries_the_shorter_script():
    page = build_page(first_record(PLAYABLE["elevation"])).html
    assert f"<script>\n{script_asset('viewer.js')}</script>" in page
    assert not any(line.startswith("//") for line in page.split("<script>\n")[-1].splitlines())
