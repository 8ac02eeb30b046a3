"""The viewer as a reader uses it (issue #29), in the real headless Chromium at a laptop's,
a small laptop's and a phone's size: the move shown stays legible under the mouse, no move
wraps, no tag widens the page, the board and its controls fit the first screen (the board
first on a phone), labels stay readable, and what lichess and pgn4web readers expect: a link
to any ply, flip, autoplay, the position string, a board size, numbered move columns, and
keys that act only when the viewer has the focus."""

from __future__ import annotations

import pytest

from notation_tools.analysis.replay import replay
from notation_tools.pages.viewer import viewer_page
from tests.pages.test_viewer_browser import GAMES, browser, open_page  # noqa: F401
from tests.pages.viewer_support import PLAYABLE, expected_drawings, first_record

SIZES = {"laptop": (1366, 768), "small laptop": (1024, 700), "phone": (390, 844)}


@pytest.fixture
def open_at(open_page):  # noqa: F811
    """Open ``html`` from a file:// URL at a viewport size (no script error allowed)."""
    count = iter(range(1000))

    def opener(html: str, size: tuple[int, int] = SIZES["laptop"], fragment: str = ""):
        return open_page(html, f"page{next(count)}.html", size=size, fragment=fragment)

    return opener


def current_move(page) -> str:
    return page.inner_text(".move.current") if page.query_selector(".move.current") else ""


def main_texts(path) -> list[str]:
    return [node.text for node in first_record(path).moves][:len(expected_drawings(path)) - 1]


def test_the_move_shown_stays_legible_under_the_mouse(open_at):
    # Issue #29, point 1: the hover style outranked the current-move style.
    page = open_at(viewer_page(first_record(PLAYABLE["maka"])))
    move = page.query_selector("#moves .move.played")
    move.click()
    move.hover()
    colours = move.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
    assert colours == ["rgb(255, 255, 255)", "rgb(44, 111, 187)"]


@pytest.mark.parametrize("game", GAMES)
def test_no_move_breaks_across_lines_at_a_phone_width(open_at, game):
    # Issue #29, point 2: moves broke at hyphens ("DH5c-/4b").
    page = open_at(viewer_page(first_record(PLAYABLE[game])), SIZES["phone"])
    broken = page.evaluate("""() => Array.from(document.querySelectorAll('#moves .move'))
        .filter(e => e.getClientRects().length > 1).map(e => e.textContent)""")
    assert broken == []


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_long_tag_does_not_widen_the_page(open_at, size):
    # Issue #29, point 3: a FEN tag made the Maka page 5,352 px wide.
    record = first_record(PLAYABLE["maka"])
    record.set_tag("Annotator", "x" * 3000)
    record.set_tag("Site", "/".join(["a-long-path-component"] * 120))
    page = open_at(viewer_page(record), SIZES[size])
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", ["laptop", "small laptop"])
def test_the_board_and_its_controls_fit_the_first_screen(open_at, game, size):
    # Issue #29, point 4: at 1024x700 the first screen was tags and half a board.
    # A board whose labels would fall under 11 px at that size stays large and scrolls in
    # its frame (Maka's 19x19): the frame and the controls fit, and most of the board shows.
    page = open_at(viewer_page(first_record(PLAYABLE[game])), SIZES[size])
    height = SIZES[size][1]
    frame = page.evaluate("document.getElementById('board-frame').getBoundingClientRect()"
                          ".toJSON()")
    board = page.evaluate("document.querySelector('#board svg').getBoundingClientRect()"
                          ".toJSON()")
    controls = page.evaluate("document.getElementById('controls').getBoundingClientRect().bottom")
    assert frame["bottom"] <= height and controls <= height
    assert frame["height"] >= 0.6 * board["height"]


@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_the_board_comes_first_at_full_width(open_at, game):
    page = open_at(viewer_page(first_record(PLAYABLE[game])), SIZES["phone"])
    frame = page.evaluate("document.getElementById('board-frame').getBoundingClientRect()"
                          ".toJSON()")
    moves = page.evaluate("document.getElementById('moves').getBoundingClientRect().top")
    assert frame["width"] >= 390 * 0.9
    assert frame["top"] < moves
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


LABEL_SIZES = """() => {
  const svg = document.querySelector('#board svg');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return Array.from(svg.querySelectorAll('text'))
    .map(t => parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize) * scale);
}"""


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", sorted(SIZES))
def test_board_labels_are_at_least_11_css_pixels(open_at, game, size):
    # Issue #29, point 4: Maka's and Game of War's labels were about 5 px on a phone; the
    # board's frame scrolls rather than shrink them.
    page = open_at(viewer_page(first_record(PLAYABLE[game])), SIZES[size])
    sizes = page.evaluate(LABEL_SIZES)
    assert sizes and min(sizes) >= 11 - 0.05


def test_a_link_to_a_ply_opens_there_and_the_link_follows_the_reader(open_at):
    path = PLAYABLE["gow"]
    texts = main_texts(path)
    page = open_at(viewer_page(first_record(path)), fragment="#ply=3")
    assert current_move(page) == texts[2]
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#ply=4"
    page.evaluate("location.hash = '#ply=1'")
    page.wait_for_function("document.querySelector('.move.current') !== null && "
                           f"document.querySelector('.move.current').textContent === {texts[0]!r}")
    page.keyboard.press("Home")
    assert page.evaluate("location.hash") == "#ply=0"


def test_the_position_string_is_the_games_own_at_every_ply(open_at):
    path = PLAYABLE["shuriken"]
    record = first_record(path)
    result = replay(first_record(path), keep_start=True)
    game = result.game
    position = result.start.copy()
    page = open_at(viewer_page(record))
    assert page.input_value("#fen") == game.format_position(position)
    for text in main_texts(path)[:4]:
        position.push(game.parse_move(text, position))
        page.keyboard.press("ArrowRight")
        assert page.input_value("#fen") == game.format_position(position)


def test_flipping_turns_the_board_and_keeps_its_text_upright(open_at):
    page = open_at(viewer_page(first_record(PLAYABLE["elevation"])))
    plain = page.inner_html("#board")
    page.click("#flip")
    assert "flipped" in page.get_attribute("#board", "class")
    turns = page.evaluate("""() => Array.from(document.querySelectorAll('#board svg text'))
        .map(t => (t.getAttribute('transform') || '').startsWith('rotate(180'))""")
    assert turns and all(turns)
    page.keyboard.press("ArrowRight")  # still flipped after a step
    assert "flipped" in page.get_attribute("#board", "class")
    page.keyboard.press("f")
    page.keyboard.press("ArrowLeft")
    assert "flipped" not in (page.get_attribute("#board", "class") or "")
    assert page.inner_html("#board") == plain


def test_autoplay_steps_on_at_the_chosen_speed_and_stops_at_the_end(open_at):
    path = PLAYABLE["shih"]
    texts = main_texts(path)
    page = open_at(viewer_page(first_record(path)))
    page.select_option("#speed", "250")
    page.click("#play")
    page.wait_for_function("document.querySelector('.move.current') !== null && "
                           f"document.querySelector('.move.current').textContent === "
                           f"{texts[-1]!r}", timeout=250 * len(texts) + 5000)
    page.wait_for_timeout(600)
    assert current_move(page) == texts[-1]
    assert "on" not in (page.get_attribute("#play", "class") or "")


def test_the_board_size_is_chosen_and_remembered(open_at):
    html = viewer_page(first_record(PLAYABLE["elevation"]))
    page = open_at(html)
    full = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    page.fill("#size", "60")
    page.dispatch_event("#size", "input")
    smaller = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    # Never below the size that keeps the labels at 11 px (the board's minimum width).
    floor = page.evaluate("parseFloat(document.getElementById('board').style"
                          ".getPropertyValue('--board-min'))")
    assert smaller < full
    assert smaller == pytest.approx(max(full * 0.6, floor), rel=0.05)
    page.reload()
    assert page.input_value("#size") == "60"


def test_moves_are_listed_in_numbered_columns(open_at):
    path = PLAYABLE["maka"]
    texts = main_texts(path)
    page = open_at(viewer_page(first_record(path)))
    cells = page.evaluate("""() => Array.from(document.querySelectorAll('.moverows > div'))
        .slice(0, 6).map(e => e.textContent.trim())""")
    assert cells == ["1.", texts[0], texts[1], "2.", texts[2], texts[3]]


def test_keys_act_only_while_the_viewer_has_the_focus(open_at):
    page = open_at(viewer_page(first_record(PLAYABLE["gow"])))
    page.keyboard.press("ArrowRight")
    shown = current_move(page)
    assert shown
    page.evaluate("""() => { const box = document.createElement('input');
        box.id = 'host-field'; document.body.appendChild(box); }""")
    page.focus("#host-field")
    page.keyboard.press("ArrowRight")
    assert current_move(page) == shown
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    assert current_move(page) == shown
    page.focus("#viewer")
    page.keyboard.press("ArrowRight")
    assert current_move(page) != shown
