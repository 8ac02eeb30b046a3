"""The opening explorer page (explore --html) in a real headless Chromium, opened from
file://: it shows the start position drawn by the game's own SVG, its moves with their counts;
a click on a move shows the position it leads to and that position's moves; back returns.

Never skipped: without the browser these tests fail and say how to install it."""

from __future__ import annotations

import functools

import pytest

from notation_tools.pages.explorer import explorer_page, explorer_tree
from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.storage.game_database import Database
from tests.pages.test_viewer_browser import as_parsed, board, browser, open_page  # noqa: F401
from tests.storage.index_support import archive_text

GAMES = ("elevation", "shuriken")


@pytest.fixture(scope="module", params=GAMES)
def explored(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(request.param)
    path = folder / "archive.pgn"
    path.write_text(archive_text(request.param, count=12, seed=5), encoding="utf-8")
    settings = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings, jobs=1, database=str(folder / "r.sqlite")) as session:
        list(session.reports([str(path)]))
    with Database(str(folder / "r.sqlite")) as db:
        game, start = db.position()
        tree = explorer_tree(game, start, db.explore_position, depth=2, max_positions=40)
        first = db.explore_position(game, start)
        after = start.copy()
        after.push(game.resolve_move(first["moves"][0]["spellings"][0], start).move)
        second = db.explore_position(game, after)
    return game, start, after, first, second, explorer_page(tree, title="Explorer test")


def _rows(page):
    return [[cell.inner_text() for cell in row.query_selector_all("td")]
            for row in page.query_selector_all("#next-moves tbody tr")]


def test_clicking_a_move_goes_deeper_and_back_returns(open_page, explored):
    game, start, after, first, second, html = explored
    page = open_page(html)
    assert board(page) == as_parsed(page, game.render_svg(start))
    rows = _rows(page)
    assert [(r[0], int(r[1])) for r in rows] == [(m["move"], m["games"]) for m in first["moves"]]
    page.click("#next-moves tbody tr:first-child td.move")
    assert board(page) == as_parsed(page, game.render_svg(after))
    assert [(r[0], int(r[1])) for r in _rows(page)] == [
        (m["move"], m["games"]) for m in second["moves"]]
    assert page.inner_text("#trail").strip() == first["moves"][0]["move"]
    page.click("#back")
    assert board(page) == as_parsed(page, game.render_svg(start))
    assert page.is_disabled("#back")


def test_a_limited_page_says_how_many_moves_it_leaves_out(open_page, tmp_path):
    path = tmp_path / "archive.pgn"
    path.write_text(archive_text("shuriken", count=12, seed=5), encoding="utf-8")
    settings = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings, jobs=1, database=str(tmp_path / "r.sqlite")) as session:
        list(session.reports([str(path)]))
    with Database(str(tmp_path / "r.sqlite")) as db:
        game, start = db.position()
        everything = db.explore_position(game, start)["moves"]
        tree = explorer_tree(game, start, functools.partial(db.explore_position, limit=1),
                             depth=1, max_positions=10)
    assert len(everything) > 1
    rows = _rows(open_page(explorer_page(tree, title="Limited")))
    assert [(r[0], int(r[1])) for r in rows[:1]] == [(everything[0]["move"],
                                                       everything[0]["games"])]
    left = sum(move["games"] for move in everything[1:])
    assert rows[1:] == [[f"{len(everything) - 1} more moves ({left} records) not listed: "
                         "explore --top"]]
