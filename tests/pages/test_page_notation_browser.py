"""The page's script reads the data's dense notation as Python wrote it (issue #29): viewer.js's
own readers run in Chromium on random numbers (up to the largest a script's number holds
exactly), frames and changed pieces, compared with what was written."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.pages.drawings import encode_pieces, split_changes
from notation_tools.pages.number_text import write_numbers, zigzag
from notation_tools.pages.page_notation import (
    write_drawing,
    write_frames,
    write_pieces,
    write_text_edits,
)
from tests.pages.piece_lines import drawn_lines
from tests.pages.script_functions import script_functions
from tests.pages.test_page_notation import POSITION_TEXT, changed_pieces, frames
from tests.pages.test_viewer_browser import browser  # noqa: F401  (the fixture)

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def blank_page(browser):  # noqa: F811
    page = browser.new_page()
    yield page
    page.close()


def run(page, call: str, argument):
    return page.evaluate("(argument) => {\n%s\nreturn %s;\n}" % (script_functions(), call),
                         argument)


@SETTINGS
@given(numbers=st.lists(st.one_of(st.integers(0, 100), st.integers(0, 2**53 - 1)), max_size=20))
def test_the_script_reads_numbers_as_written(blank_page, numbers):
    assert run(blank_page, "readNumbers(argument)", write_numbers(numbers)) == numbers


@SETTINGS
@given(numbers=st.lists(st.integers(-(2**52), 2**52 - 1), max_size=20))
def test_the_script_reads_signed_numbers_as_written(blank_page, numbers):
    text = write_numbers(map(zigzag, numbers))
    assert run(blank_page, "readNumbers(argument).map(unzigzag)", text) == numbers


@SETTINGS
@given(made=frames())
def test_the_script_reads_frames_as_written(blank_page, made):
    assert run(blank_page, "readFrames(argument)", write_frames(made)) == made


@SETTINGS
@given(pieces=st.lists(st.text(max_size=30), max_size=10), data=st.data())
def test_the_script_reads_changed_pieces_as_written(blank_page, pieces, data):
    bases = {number: data.draw(st.sets(st.integers(0, max(number - 1, 0)), max_size=3))
             for number in range(1, len(pieces))}
    texts, heads = write_pieces(encode_pieces(pieces, bases), pieces)
    assert run(blank_page, "readPieces(argument[0], argument[1], [])", [texts, heads]) == pieces


@SETTINGS
@given(before=POSITION_TEXT, after=POSITION_TEXT)
def test_the_script_reads_position_strings_as_written(blank_page, before, after):
    written = write_text_edits(before, after)
    assert run(blank_page, "readTextEdits(argument[0], argument[1])", [before, written]) == after


@SETTINGS
@given(lines=drawn_lines())
def test_the_script_reads_a_drawing_alone_as_written(blank_page, lines):
    svg = "<svg>\n" + "\n".join([*lines, *lines[:2]]) + "\n</svg>"
    assert run(blank_page, "readDrawing(argument)", write_drawing(svg)) == svg


@SETTINGS
@given(pieces=changed_pieces())
def test_the_script_reads_pieces_changed_in_places_as_written(blank_page, pieces):
    bases = {number: range(max(number - 3, 0), number) for number in range(1, len(pieces))}
    texts, heads = write_pieces(split_changes(encode_pieces(pieces, bases), pieces), pieces)
    assert run(blank_page, "readPieces(argument[0], argument[1], [])", [texts, heads]) == pieces
