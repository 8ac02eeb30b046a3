"""Pieces stored as templates moved to a place (issue #29, page size): whatever the lines,
the stored pieces decode to exactly the same text, in Python here and in the page's script
(test_piece_templates_browser.py)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from notation_tools.pages.drawings import decode_pieces
from notation_tools.pages.piece_templates import (
    format_milli,
    from_json_number,
    is_use,
    json_number,
    line_parts,
    join_parts,
    parse_milli,
    template_pieces,
)
from tests.pages.piece_lines import drawn_lines, number, shapes, MILLI


@given(st.integers(-10 ** 12, 10 ** 12))
def test_thousandths_are_written_and_read_back_exactly(milli):
    assert format_milli(milli) == number(milli)
    assert parse_milli(number(milli)) == milli
    # Through the page's JSON, as the script reads it.
    assert from_json_number(json.loads(json.dumps(json_number(milli)))) == milli


@given(st.sampled_from(["1.50", "-0", "1e3", "0.1234", "007", ".5", "2.", "-0.0", "+1", "1,5"]))
def test_numbers_written_another_way_are_no_coordinates(text):
    assert parse_milli(text) is None


@given(drawn_lines())
def test_lines_cut_into_parts_join_to_themselves(lines):
    for line in lines:
        assert join_parts(line_parts(line)) == line


@given(drawn_lines())
def test_templated_pieces_decode_to_themselves(lines):
    encoded, templates = template_pieces(lines, lines)
    through_json = json.loads(json.dumps([encoded, templates]))
    assert decode_pieces(*through_json) == lines


@given(shapes(), st.lists(st.tuples(MILLI, MILLI), min_size=4, max_size=8, unique=True))
def test_a_line_drawn_at_several_places_is_stored_once(shape, places):
    lines = [shape(dx, dy) for dx, dy in places]
    encoded, templates = template_pieces(lines, lines)
    assert decode_pieces(encoded, templates) == lines
    if any(part for part in line_parts(lines[0]) if not isinstance(part, str)) and \
            len(lines[0]) > 40:
        # Long lines with coordinates: all places from one template.
        assert len(templates) == 1
        assert all(isinstance(item, list) and is_use(item) for item in encoded)


def test_a_line_whose_template_would_not_give_it_back_stays_as_it_is():
    # The coordinates of the second are the first's moved, but its radius is written
    # differently: it is another template; with one use each nothing is templated.
    lines = ['<circle cx="10" cy="20" r="5" fill="#123456" stroke="#000"/>\n',
             '<circle cx="30" cy="40" r="5.0" fill="#123456" stroke="#000"/>\n']
    encoded, templates = template_pieces(lines, lines)
    assert encoded == lines and templates == []


def test_several_coordinate_kinds_in_one_line_all_move():
    lines = [f'<g transform="rotate(45 {x} {y})"><line x1="{x}" y1="{y}" x2="{x + 5}" '
             f'y2="{y - 2.5}"/><polygon points="{x},{y} {x + 1},{y}"/></g>\n'
             for x, y in [(10, 20), (110, 40), (-30, 7.25)]]
    encoded, templates = template_pieces(lines, lines)
    assert [item[1:] for item in encoded] == [[10, 20], [110, 40], [-30, 7.25]]
    assert templates[0][0] == "xy" * 5  # rotate, line, two points
    assert decode_pieces(encoded, templates) == lines


def test_names_in_a_line_are_given_by_each_use():
    # A square's class and a label's text differ from line to line; the rest is one template.
    lines = [f'<text class="square {file}{rank}" x="{x}" y="{y}" font-size="11" '
             f'fill="#111111">{file}{rank}</text>\n'
             for file, rank, x, y in [("a", 1, 10, 20), ("b", 12, 46, 20), ("c", 3, 82, 56)]]
    encoded, templates = template_pieces(lines, lines)
    assert encoded == [[-1, 10, 20, "square a1", "a1"], [-1, 46, 20, "square b12", "b12"],
                       [-1, 82, 56, "square c3", "c3"]]
    assert templates[0][0] == "sxys"
    assert decode_pieces(encoded, templates) == lines
