"""The HTML replay viewer's page builder, without a browser: the page's data rebuilds the
engines' own drawings, the move list carries comments, NAGs, variations and diagnostics, and
a page stays small. The real-browser tests are in test_viewer_browser.py."""

from __future__ import annotations

import os
import re

import pytest

from notation_tools.analysis.generate import generate_records
from notation_tools.pages.viewer import (
    build_page,
    edits,
    index_page,
    mark_sets,
    svg_pieces,
    viewer_page,
    write_pages,
)
from notation_tools.games.base import all_games, get_game
from notation_tools.records.pgn import read_records
from tests.pages.viewer_support import (
    ILLEGAL,
    PLAYABLE,
    expected_drawings,
    first_record,
    page_data,
    rebuilt,
    step_at,
)
from tests.conftest import invoke

GAMES = sorted(PLAYABLE)


@pytest.mark.parametrize("game", [game.id for game in all_games()])
def test_pieces_of_a_drawing_put_together_are_the_drawing(game):
    engine = get_game(game)
    svg = engine.render_svg(engine.start_position(engine.parse_rules(None)))
    pieces = svg_pieces(svg)
    assert "".join(pieces) == svg
    assert len(pieces) > 20  # cut finely enough for edits to be small
    assert pieces[0].startswith("<svg") and pieces[-1] == "</svg>"


def test_pieces_are_lines_and_a_long_line_is_cut_between_tags():
    svg = ('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">\n<desc>row 1\nrow 2'
           '</desc>\n<g class="piece">\n<circle r="3"/>\n<text x="1">K&gt;</text>\n</g>\n</svg>')
    pieces = svg_pieces(svg)
    assert "".join(pieces) == svg
    assert pieces[1:] == ['<svg xmlns="http://www.w3.org/2000/svg">\n', "<desc>row 1\n",
                          "row 2</desc>\n", '<g class="piece">\n', '<circle r="3"/>\n',
                          '<text x="1">K&gt;</text>\n', "</g>\n", "</svg>"]
    # A drawing not written a line an element: its long lines are cut after each ">" that
    # a "<" follows, so one element changed is not the whole line new.
    long_line = "<g>" + "".join(f'<text x="{n}">a > b</text>' for n in range(40)) + "</g>"
    pieces = svg_pieces(long_line)
    assert "".join(pieces) == long_line
    assert pieces[:2] == ["<g>", '<text x="0">a > b</text>'] and len(pieces) == 42


def test_edits_turn_one_list_into_the_other():
    before, after = [1, 2, 3, 4, 5, 6], [1, 7, 3, 4, 6, 8, 9]
    result = list(before)
    for at, removed, *added in reversed(edits(before, after)):
        result[at:at + removed] = added
    assert result == after
    assert edits(after, after) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_step_of_the_main_line_rebuilds_the_engines_drawing(game):
    page = build_page(first_record(PLAYABLE[game]))
    data = page_data(page.html)
    expected = expected_drawings(PLAYABLE[game])
    assert len(expected) >= 4
    step, shown = 0, []
    while step >= 0:
        shown.append(rebuilt(data, step))
        step = data["next"][step]
    assert shown == expected
    for variant, marks in enumerate(data["marks"]):
        with_marks = expected_drawings(PLAYABLE[game], tuple(marks))
        assert rebuilt(data, data["next"][0], variant) == with_marks[1]


@pytest.mark.parametrize("game", GAMES)
def test_every_combination_of_display_options_is_offered(game):
    engine = get_game(game)
    page = build_page(first_record(PLAYABLE[game]))
    data = page_data(page.html)
    assert [tuple(marks) for marks in data["marks"]] == mark_sets(engine)
    assert len(data["marks"]) == 2 ** len(engine.render_options)
    for name in engine.render_options:
        assert f'<input type="checkbox" name="{name}">' in page.html


def test_move_list_has_comments_nags_and_playable_variations():
    record = first_record(PLAYABLE["elevation"])
    page = build_page(record)
    data = page_data(page.html)
    assert 'title="good move ($1)">!</span>' in page.html
    assert 'title="poor move ($2)">?</span>' in page.html
    assert '<span class="comment">Digging toward b2 makes a tower for later.</span>' in page.html
    assert '<span class="comment">Both sides start by building a step for a Dragon.</span>' \
        in page.html
    variation = re.search(r'<span class="variation depth1">\(<span class="number">1\.</span> '
                          r'<span class="move played">', page.html)
    assert variation, "the first variation's move is not playable"
    step = step_at(page.html, variation.end())
    assert data["parents"][step] == 0  # played from the start position
    game = get_game("elevation")
    start = game.start_position(game.parse_rules("standard"))
    move = game.parse_move("d1:c2>e2,e2>c2", start)
    start.push(move)
    assert rebuilt(data, step) == game.render_svg(start, last_move=move)
    # the main line goes on from the main move, not from the variation
    assert data["next"][0] != step


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_move_stops_the_replay_with_its_message(game):
    record = first_record(ILLEGAL[game])
    page = build_page(record)
    data = page_data(page.html)
    error = next(d for d in record.diagnostics if d.is_error)
    stop = next(step for step, message in enumerate(data["messages"]) if message)
    assert data["messages"][stop] == f"{error.code}: {error.message}"
    assert data["next"][stop] == -1
    assert rebuilt(data, stop) == rebuilt(data, data["parents"][stop])
    found = re.search(r'<span class="move stop error">', page.html)
    assert found and step_at(page.html, found.end()) == stop
    assert f"[{error.code}]: {error.message}" in page.html.replace("&#x27;", "'")
    assert not page.is_valid


def test_moves_after_the_illegal_one_are_shown_but_not_playable():
    text = ('[Variant "elevation"]\n\n1. c1:c2>b2,c1-c2 d6:d5>c5,d6-d5 2. a1:a1-a2 '
            'e6:f6>e5,e6-f5 3. b1:a1>b2,b1-a2 *\n')
    page = build_page(next(read_records(text.splitlines())))
    assert '<span class="move unplayed">e6:f6&gt;e5,e6-f5</span>' in page.html
    assert '<span class="move unplayed">b1:a1&gt;b2,b1-a2</span>' in page.html
    assert len(page_data(page.html)["parents"]) == 4  # start, two moves, the stop


def test_a_record_that_cannot_be_replayed_still_gets_a_page():
    page = build_page(next(read_records(['[Variant "no-such-game"]', "", "1. a1 *"])))
    assert "E-UNKNOWN-VARIANT" in page.html
    assert page_data(page.html)["parents"] == [-1]


def test_the_page_is_self_contained_and_escapes_what_it_quotes():
    text = ('[Event "</script><script>alert(1)</script>"]\n[Variant "elevation"]\n\n'
            '1. c1:c2>b2,c1-c2 {a <b>bold</b> claim </script>} *\n')
    page = viewer_page(next(read_records(text.splitlines())))
    assert "<script>alert(1)" not in page
    assert page.count("</script>") == 2  # the data's and the script's own
    assert "&lt;b&gt;bold&lt;/b&gt;" in page
    without_namespace = page.replace("http://www.w3.org/2000/svg", "")
    assert not re.search(r"https?:|<link|\bsrc=|@import|url\((?!#)", without_namespace)


def test_a_400_ply_maka_page_stays_under_one_megabyte():
    game = get_game("maka")
    record = next(generate_records(game, game.parse_rules(None), count=1, seed=3,
                                   max_plies=400))
    page = build_page(record)
    assert page.replay.plies == 400 and page.is_valid
    size = len(page.html.encode("utf-8"))
    one_drawing = len(game.render_svg(page.replay.position).encode("utf-8"))
    assert size < 1_000_000
    assert size < 8 * one_drawing  # far from one drawing per ply


def test_write_pages_writes_a_page_per_record_and_an_index(tmp_path):
    path = PLAYABLE["shuriken"]
    with open(path, encoding="utf-8") as stream:
        records = list(read_records(stream, str(path)))
    seen = []
    entries = write_pages(records, str(tmp_path / "site"),
                          on_page=lambda entry, record: seen.append((entry, record)))
    assert len(entries) == len(seen) == 2
    assert [entry for entry, _ in seen] == entries
    assert [record.index for _, record in seen] == [1, 2]
    names = sorted(p.name for p in (tmp_path / "site").iterdir())
    assert names == sorted([entry.file for entry in entries] + ["index.html"])
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    for entry in entries:
        assert f'<a href="{entry.file}">' in index
        assert (tmp_path / "site" / entry.file).read_text(encoding="utf-8").startswith(
            "<!DOCTYPE html>")
    assert "Online casual" in index and "1-0" in index and "2 records: 2 valid" in index
    assert "Termination: White resigned" in index



def test_pages_of_texts_with_a_lone_surrogate_are_written_with_its_escape(runner, tmp_path):
    # found by the fuzz campaign: a JSON record's "\ud800" (a move, a tag) made html -o DIR
    # end in an internal error (UnicodeEncodeError) when the page was written
    lines = ['{"tags": {"Variant": "shuriken-2d", "White": "\\ud800"}, "moves": ["\\ud800"]}',
             '{"tags": {"Variant": "shuriken-2d"}, "moves": []}']
    (tmp_path / "odd.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = invoke(runner, ["html", str(tmp_path / "odd.jsonl"), "-o", str(tmp_path / "site")])
    assert result.exit_code == 1 and "internal error" not in result.stderr
    pages = sorted((tmp_path / "site").glob("*.html"))
    assert len(pages) == 3
    assert any("\\ud800" in page.read_text(encoding="utf-8") for page in pages)

def test_pages_built_in_worker_processes_are_the_same_in_the_same_order(tmp_path):
    paths = [PLAYABLE["elevation"], ILLEGAL["elevation"], PLAYABLE["shuriken"]]
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as stream:
            records += list(read_records(stream, str(path)))
    alone = write_pages(records, str(tmp_path / "one"))
    again = []
    for path in paths:
        with open(path, encoding="utf-8") as stream:
            again += list(read_records(stream, str(path)))
    errors = []
    pooled = write_pages(again, str(tmp_path / "two"), jobs=2,
                         on_page=lambda entry, record: errors.append(len(record.diagnostics)))
    assert pooled == alone and len(pooled) == 5
    assert errors == [len(record.diagnostics) for record in records]
    for entry in alone:
        assert (tmp_path / "one" / entry.file).read_bytes() == \
            (tmp_path / "two" / entry.file).read_bytes()


def test_a_page_that_kills_its_worker_twice_is_lost_alone(tmp_path, monkeypatch):
    from notation_tools.pages import viewer

    records = []
    for path in (PLAYABLE["elevation"], ILLEGAL["elevation"], PLAYABLE["shuriken"]):
        with open(path, encoding="utf-8") as stream:
            records += list(read_records(stream, str(path)))
    doomed = records[1].path
    real = viewer._write_batch

    def dies_on_one(batch, job):
        if batch[0].record.path == doomed:
            os._exit(9)  # as the OOM killer ends a process: no exception, no clean-up
        return real(batch, job)

    # the workers are forked after this, so they run the patched function
    monkeypatch.setattr(viewer, "_write_batch", dies_on_one)
    lost = []
    entries = write_pages(records, str(tmp_path), jobs=2, on_lost=lost.append)
    assert [d.code for d in lost] == ["E-WORKER"] * sum(r.path == doomed for r in records)
    assert [e.path for e in entries] == [r.path for r in records if r.path != doomed]
    assert "index.html" in os.listdir(tmp_path)


def test_index_marks_invalid_records_with_their_first_error(tmp_path):
    record = first_record(ILLEGAL["elevation"])
    entries = write_pages([record], str(tmp_path))
    page = index_page(entries)
    assert 'class="invalid"' in page and "E-ILLEGAL-MOVE" in page
    assert "1 records: 0 valid, 1 invalid" in page
