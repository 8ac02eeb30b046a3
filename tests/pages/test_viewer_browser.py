"""The HTML replay viewer in a real headless Chromium (Debian's ``chromium``, driven by
Playwright): for every game, stepping with the buttons, the keys and by clicking a move shows
the engine's own drawing of that position and highlights that move; an illegal move stops the
replay with its message; the display options change the board; every game's board renders to
a picture that is not blank.

Never skipped: without the browser these tests fail and say how to install it."""

from __future__ import annotations

import base64
import os
import shutil

import pytest

from notation_tools.analysis.replay import replay
from notation_tools.pages.viewer import viewer_page
from notation_tools.games.base import all_games, get_game
from tests.pages.viewer_support import (
    ILLEGAL,
    PLAYABLE,
    SAMPLES,
    expected_drawings,
    first_record,
    page_data,
)

CHROMIUM = os.environ.get("NOTATION_TOOLS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
GAMES = sorted(PLAYABLE)


def launch_chromium(playwright):
    """Debian's Chromium under Playwright, or a failure that says how to get it."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.fail(f"{CHROMIUM} not found: the viewer tests need Chromium "
                    "(apt-get update && apt-get install -y chromium)", pytrace=False)
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is missing: pip install '.[test]' (and apt-get install -y "
                    "chromium)", pytrace=False)
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser, tmp_path):
    """Open ``html`` from a file:// URL; the page must raise no script error."""
    pages = []

    def opener(html: str, name: str = "page.html", size: tuple[int, int] = (1280, 900),
               fragment: str = ""):
        path = tmp_path / name
        path.write_text(html, encoding="utf-8")
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(path.as_uri() + fragment)
        pages.append((page, errors))
        return page

    yield opener
    for page, errors in pages:
        assert errors == [], errors
        page.close()


def board(page) -> str:
    return page.inner_html("#board")


def as_parsed(page, svg: str) -> str:
    """``svg`` as the browser serialises it once parsed, to compare with the board."""
    return page.evaluate("svg => { const d = document.createElement('div'); "
                         "d.innerHTML = svg; return d.innerHTML; }", svg)


def current_move(page) -> str:
    return page.inner_text(".move.current") if page.query_selector(".move.current") else ""


def main_line(page) -> list:
    return page.query_selector_all("#moves .moverows > div:not(.extra) > .move.played")


@pytest.mark.parametrize("game", GAMES)
def test_stepping_with_buttons_keys_and_clicks_shows_each_position(open_page, game):
    record = first_record(PLAYABLE[game])
    expected = expected_drawings(PLAYABLE[game])
    texts = [node.text for node in record.moves][:len(expected) - 1]
    page = open_page(viewer_page(first_record(PLAYABLE[game])))
    drawings = [as_parsed(page, svg) for svg in expected]
    assert board(page) == drawings[0] and current_move(page) == ""
    page.click("#forward")
    assert board(page) == drawings[1] and current_move(page) == texts[0]
    page.keyboard.press("ArrowRight")
    assert board(page) == drawings[2] and current_move(page) == texts[1]
    page.keyboard.press("ArrowRight")
    assert board(page) == drawings[3] and current_move(page) == texts[2]
    page.keyboard.press("ArrowLeft")
    assert board(page) == drawings[2] and current_move(page) == texts[1]
    page.click("#back")
    assert board(page) == drawings[1]
    moves = main_line(page)
    assert [move.inner_text() for move in moves] == texts
    moves[-2].click()
    assert board(page) == drawings[-2] and current_move(page) == texts[-1 - 1]
    page.keyboard.press("Home")
    assert board(page) == drawings[0] and current_move(page) == ""
    page.keyboard.press("End")
    assert board(page) == drawings[-1] and current_move(page) == texts[-1]
    page.click("#first")
    assert board(page) == drawings[0]
    page.click("#last")
    assert board(page) == drawings[-1]
    assert f"ply {len(texts)}" in page.inner_text("#status")


def test_a_variation_move_shows_its_position_and_its_line_goes_on(open_page):
    page = open_page(viewer_page(first_record(PLAYABLE["elevation"])))
    main = expected_drawings(PLAYABLE["elevation"])
    variation = page.query_selector(".variation .move.played")
    assert variation.inner_text() == "d1:c2>e2,e2>c2"
    variation.click()
    assert current_move(page) == "d1:c2>e2,e2>c2"
    shown = board(page)
    assert shown not in (as_parsed(page, main[0]), as_parsed(page, main[1]))
    page.keyboard.press("ArrowRight")  # the variation has one move: its line ends there
    assert board(page) == shown
    page.keyboard.press("ArrowLeft")  # back to the position the variation starts from
    assert board(page) == as_parsed(page, main[0])
    page.keyboard.press("ArrowRight")  # and forward again along the main line
    assert board(page) == as_parsed(page, main[1])
    nag = page.query_selector(".nag")
    assert nag.inner_text() == "!" and "good move" in nag.get_attribute("title")


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_move_shows_its_diagnostic_and_stops_the_replay(open_page, game):
    record = first_record(ILLEGAL[game])
    expected = expected_drawings(ILLEGAL[game])
    page = open_page(viewer_page(record))
    error = next(d for d in record.diagnostics if d.is_error)
    stop = page.query_selector(".move.stop")
    assert stop.inner_text() == error.move
    assert error.message in page.inner_text(".diagnostic.error")
    page.keyboard.press("End")
    assert current_move(page) == error.move
    assert page.inner_text("#status") == f"{error.code}: {error.message}"
    assert "stop" in page.get_attribute("#status", "class")
    assert board(page) == as_parsed(page, expected[-1])  # the last legal position
    page.keyboard.press("ArrowRight")
    assert current_move(page) == error.move  # nothing after it can be played
    page.keyboard.press("ArrowLeft")
    assert board(page) == as_parsed(page, expected[-1])
    assert page.query_selector(".move.stop.current") is None


def test_moves_after_an_illegal_one_are_greyed_and_do_nothing(open_page):
    from notation_tools.records.pgn import read_records

    text = ('[Variant "elevation"]\n\n1. c1:c2>b2,c1-c2 d6:d5>c5,d6-d5 2. a1:a1-a2 '
            'e6:f6>e5,e6-f5 *\n')
    page = open_page(viewer_page(next(read_records(text.splitlines()))))
    page.keyboard.press("Home")
    before = board(page)
    later = page.query_selector(".move.unplayed")
    assert later.inner_text() == "e6:f6>e5,e6-f5"
    assert later.evaluate("e => getComputedStyle(e).color") == "rgb(153, 153, 153)"
    later.click()
    assert board(page) == before and current_move(page) == ""


@pytest.mark.parametrize("game", [g for g in GAMES if get_game(g).render_options])
def test_each_display_option_shows_the_engines_drawing_with_that_option(open_page, game):
    record = first_record(PLAYABLE[game])
    page = open_page(viewer_page(record))
    page.keyboard.press("End")
    plain = expected_drawings(PLAYABLE[game])[-1]
    names = [box.get_attribute("name") for box in page.query_selector_all("#options input")]
    assert names
    for name in names:
        marked = expected_drawings(PLAYABLE[game], (name,))[-1]
        page.check(f'#options input[name="{name}"]')
        assert board(page) == as_parsed(page, marked)
        page.keyboard.press("Home")  # the option stays on while stepping
        assert board(page) == as_parsed(page, expected_drawings(PLAYABLE[game], (name,))[0])
        page.keyboard.press("End")
        page.uncheck(f'#options input[name="{name}"]')
        assert board(page) == as_parsed(page, plain)


SHOWS_OPTIONS = {"gow": PLAYABLE["gow"], "shih": PLAYABLE["shih"],
                 "shuriken": SAMPLES / "shuriken-2d" / "setup-figure-1-finishing-move.pgn"}
"""Records whose last position looks different with the game's first display option."""


@pytest.mark.parametrize("game", sorted(SHOWS_OPTIONS))
def test_toggling_an_option_changes_the_board(open_page, game):
    page = open_page(viewer_page(first_record(SHOWS_OPTIONS[game])))
    page.keyboard.press("End")
    before = board(page)
    page.check("#options input >> nth=0")
    assert board(page) != before
    page.uncheck("#options input >> nth=0")
    assert board(page) == before


COLOURS = """async (png) => {
  const image = new Image();
  image.src = "data:image/png;base64," + png;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.width; canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  const seen = new Set();
  for (let i = 0; i < pixels.length; i += 4) {
    seen.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
  }
  return [image.width, image.height, seen.size];
}"""


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_every_games_board_renders_to_a_picture_that_is_not_blank(open_page, game):
    engine = next(g for g in all_games() if g.id == game)
    svg = engine.render_svg(engine.start_position(engine.parse_rules(None)))
    page = open_page(f"<!DOCTYPE html><html><body style='margin:0;background:#fff'>"
                     f"<div id='board'>{svg}</div></body></html>", f"{game}.html")
    png = page.locator("#board svg").screenshot(type="png")
    assert png.startswith(b"\x89PNG")
    width, height, colours = page.evaluate(COLOURS, base64.b64encode(png).decode())
    assert width > 100 and height > 100
    assert colours >= 4, f"{game}'s board renders as {colours} colours"


HOSTILE = ["<!--<script>", "</script><script>window.pwned=1</script>", "<!--", "]]>",
           "&amp;<b>", "x\u2028\u2029y", "</SCRIPT >", "<script>", "-->"]


@pytest.mark.parametrize("text", HOSTILE)
def test_text_that_could_end_or_hide_the_script_leaves_the_page_working(open_page, text):
    # Issue #25: "<!--<script>" in a move's text (the page's data holds it, as the move's
    # label and in its diagnostic) left the page without its script: the HTML parser never
    # closed the JSON data element. Every tag, comment and the second move's text hold the
    # text; the page must still step through the moves and show the diagnostic.
    # Shih's message for a move it cannot read repeats the move's text.
    record = first_record(PLAYABLE["shih"])
    for tag in record.tags.entries():
        if tag.name not in ("Variant", "Rules", "SetUp", "FEN"):
            tag.value = text
    record.set_tag("Event", text)
    record.moves[0].comments.append(text)
    record.initial_comments.append(text)
    record.moves[1].text = text
    expected = expected_drawings(PLAYABLE["shih"])
    page_html = viewer_page(record)
    page = open_page(page_html)
    assert board(page) == as_parsed(page, expected[0])
    page.click("#forward")
    assert board(page) == as_parsed(page, expected[1])
    page.keyboard.press("End")
    assert page.inner_text("#status").startswith("E-")  # the illegal move's diagnostic
    message = page_data(page_html)["messages"][-1]  # (line separators are shown escaped)
    assert "stop" in page.get_attribute("#status", "class")
    assert text in message or ascii(text)[1:-1] in message
    assert page.evaluate("typeof window.pwned") == "undefined"  # nothing ran from the text


@pytest.mark.parametrize("name", ["Rules", "Variant"])
def test_a_bad_variant_or_rules_tag_with_script_text_still_shows_its_diagnostic(open_page,
                                                                                name):
    record = first_record(PLAYABLE["elevation"])
    record.set_tag(name, "<!--<script>")
    page = open_page(viewer_page(record))
    code = "E-BAD-RULES" if name == "Rules" else "E-UNKNOWN-VARIANT"
    assert code in page.inner_text("body")
    assert page.evaluate("document.getElementById('status') !== null")
    assert page.inner_text("#status") != ""  # the script ran and wrote the status line


SHOWN_ALONG_THE_LINE = """names => {
  document.querySelectorAll("#options input").forEach(box => {
    box.checked = names.includes(box.name);
    box.dispatchEvent(new Event("change"));
  });
  document.getElementById("first").click();
  const shown = [document.getElementById("board").innerHTML];
  document.querySelectorAll("#moves .moverows > div:not(.extra) > .move.played")
    .forEach(move => { move.click(); shown.push(document.getElementById("board").innerHTML); });
  return shown;
}"""


@pytest.mark.parametrize("game", ["elevation", "shuriken", "gow", "shih"])
def test_the_script_decodes_every_step_in_every_mark_set(open_page, game):
    # Issue #29: a drawing with display options on is stored as its layer over the same
    # step's drawing with one option fewer (or none), each layer as the edits of its
    # parent's; one game per number of options (0 to 3), every step of the main line in
    # every combination.
    assert len(get_game(game).render_options) == ["elevation", "shuriken", "gow",
                                                  "shih"].index(game)
    page = open_page(viewer_page(first_record(PLAYABLE[game])))
    for marks in page_data(page.content())["marks"]:
        expected = [as_parsed(page, svg) for svg in expected_drawings(PLAYABLE[game],
                                                                        tuple(marks))]
        assert page.evaluate(SHOWN_ALONG_THE_LINE, marks) == expected, marks


@pytest.mark.parametrize("game", GAMES)
def test_the_script_decodes_every_position_string(open_page, game):
    # Issue #29: position strings are stored as token edits of the one before (Maka's
    # squares are commas apart); the field shows the engine's own string at every ply.
    result = replay(first_record(PLAYABLE[game]), keep_start=True)
    engine = result.game
    position = result.start.copy()
    expected = [engine.format_position(position)]
    for text in [node.text for node in first_record(PLAYABLE[game]).moves][:result.plies]:
        position.push(engine.parse_move(text, position))
        expected.append(engine.format_position(position))
    page = open_page(viewer_page(first_record(PLAYABLE[game])))
    shown = page.evaluate("""() => {
      document.getElementById("first").click();
      const shown = [document.getElementById("fen").value];
      document.querySelectorAll("#moves .moverows > div:not(.extra) > .move.played")
        .forEach(move => { move.click(); shown.push(document.getElementById("fen").value); });
      return shown;
    }""")
    assert shown == expected
