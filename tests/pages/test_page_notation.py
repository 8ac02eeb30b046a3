"""The page data's dense notation (issue #29, page size): whole numbers written as digits that
say where a number ends, frames and pieces written with them; whatever the numbers, reading
gives them back. That the page's script reads them the same way is checked in Chromium
(test_page_notation_browser.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation_tools.pages.drawings import encode_pieces, split_changes
from notation_tools.pages.number_text import (
    LAST_DIGITS,
    MORE_DIGITS,
    from_milli_code,
    milli_code,
    read_numbers,
    unzigzag,
    write_number,
    write_numbers,
    zigzag,
)
from notation_tools.pages.page_notation import (
    read_drawing,
    read_frames,
    read_pieces,
    read_text_edits,
    write_drawing,
    write_frames,
    write_pieces,
    write_text_edits,
)
from notation_tools.pages.piece_templates import template_pieces
from notation_tools.pages.viewer import script_json
from tests.pages.piece_lines import drawn_lines

NUMBERS = st.one_of(st.integers(0, 100), st.integers(0, 2**53 - 1), st.integers(0, 2**80))
SIGNED = st.one_of(st.integers(-100, 100), st.integers(-(2**52), 2**52))


@st.composite
def frames(draw) -> list[list[list[int]]]:
    """Frames as the encoder makes them: edits in increasing order and apart, adding any
    numbers (runs of consecutive ones among them)."""
    count = draw(st.integers(0, 6))
    made: list[list[list[int]]] = []
    for _ in range(count):
        frame: list[list[int]] = []
        at = 0
        for _ in range(draw(st.integers(0, 4))):
            at += draw(st.one_of(st.integers(0, 3), st.integers(0, 10**6)))
            removed = draw(st.integers(0, 50))
            first = draw(st.integers(0, 10**6))
            added = draw(st.one_of(st.lists(st.integers(0, 10**6), max_size=6),
                                   st.integers(0, 40).map(lambda n: list(range(first, first + n)))))
            frame.append([at, removed, *added])
            at += removed
        made.append(frame)
    return made


@given(st.lists(NUMBERS, max_size=30))
def test_numbers_read_back_the_same(numbers):
    text = write_numbers(numbers)
    assert read_numbers(text) == numbers
    # Each number ends at its one last digit.
    assert sum(character in LAST_DIGITS for character in text) == len(numbers)


@given(NUMBERS)
def test_small_numbers_are_short(number):
    # With k more digits a number reaches 46 * (1 + 45 + ... + 45 ** k) - 1.
    longer = sum(number >= 46 * sum(45**power for power in range(more))
                 for more in range(1, 40))
    assert len(write_number(number)) == 1 + longer


@given(st.text(st.sampled_from(MORE_DIGITS), max_size=8), st.sampled_from(LAST_DIGITS))
def test_every_writing_is_the_one_writing_of_its_number(more, last):
    # Bijective: no two texts read as one number, so the notation wastes no writing.
    (number,) = read_numbers(more + last)
    assert write_number(number) == more + last


def test_the_digits_need_no_escape_and_cannot_close_the_script():
    digits = LAST_DIGITS + MORE_DIGITS
    assert len(set(digits)) == len(digits) == 91
    assert all(" " < character < "\x7f" for character in digits)
    assert not set(digits) & set('"\\<')
    assert script_json(digits) == json.dumps(digits)


def test_a_text_that_ends_inside_a_number_or_holds_no_digit_is_refused():
    with pytest.raises(ValueError):
        read_numbers("a")
    with pytest.raises(ValueError):
        read_numbers("1<")
    with pytest.raises(ValueError):
        write_number(-1)


@given(SIGNED)
def test_signed_numbers_read_back_the_same(number):
    assert unzigzag(zigzag(number)) == number
    assert zigzag(number) >= 0 and zigzag(number) <= 2 * abs(number)


@given(st.integers(-(10**12), 10**12))
def test_thousandths_read_back_the_same(value):
    assert from_milli_code(milli_code(value)) == value
    if value % 1000 == 0:
        assert milli_code(value) == 2 * zigzag(value // 1000)


@given(frames())
def test_frames_read_back_the_same(made):
    assert read_frames(write_frames(made)) == made


def test_frames_out_of_order_are_refused():
    with pytest.raises(ValueError):
        write_frames([[[5, 2, 1], [6, 0, 2]]])
    with pytest.raises(ValueError):
        write_frames([[[5, -1, 1]]])


def test_a_run_of_new_pieces_is_a_run_of_zeros():
    text = write_frames([[[0, 0, *range(40)]], [[3, 1, *range(40, 50)]]])
    assert text.endswith("0" * 10)  # ten new pieces in order: a zero each
    assert read_frames(text) == [[[0, 0, *range(40)]], [[3, 1, *range(40, 50)]]]


@given(st.lists(st.text(max_size=40), max_size=12), st.data())
def test_pieces_read_back_the_same_whatever_bases_they_get(pieces, data):
    # Any text: characters beyond U+FFFF too, which the script counts as two.
    bases = {number: data.draw(st.sets(st.integers(0, max(number - 1, 0)), max_size=3))
             for number in range(1, len(pieces))}
    texts, heads = write_pieces(encode_pieces(pieces, bases), pieces)
    assert read_pieces(texts, heads, []) == pieces


@st.composite
def changed_pieces(draw) -> list[str]:
    """Pieces each a change of an earlier one in a few places (or a new text): a rank of a
    text diagram, a caption; any characters, beyond U+FFFF too."""
    pieces = [draw(st.text(st.sampled_from("  .I[]<>&\U0001f600ab12"), max_size=60))]
    for _ in range(draw(st.integers(0, 8))):
        piece = list(draw(st.sampled_from(pieces)))
        for _ in range(draw(st.integers(0, 4))):
            at = draw(st.integers(0, len(piece)))
            removed = draw(st.integers(0, 3))
            piece[at:at + removed] = draw(st.text(st.sampled_from(" .I\U0001f600x"), max_size=3))
        pieces.append("".join(piece))
    return list(dict.fromkeys(pieces))  # each distinct piece once, as a page stores them


@given(changed_pieces())
def test_changed_pieces_read_back_the_same(pieces):
    bases = {number: range(max(number - 3, 0), number) for number in range(1, len(pieces))}
    encoded = split_changes(encode_pieces(pieces, bases), pieces)
    texts, heads = write_pieces(encoded, pieces)
    texts, heads = json.loads(script_json([texts, heads]))
    assert read_pieces(texts, heads, []) == pieces


def test_a_change_in_places_far_apart_is_written_as_those_places():
    base = "  H  .  .  C  C  I  H  I  I  I  ^  .  .  .  .  .  .  .  .  .  . [ ] .  .  .  .\n"
    moved = base.replace("C  C", ".  C").replace("[ ]", "C  ")
    encoded = split_changes(encode_pieces([base, moved], {1: [0]}), [base, moved])
    assert len(encoded[1]) == 2 and len(encoded[1][1]) >= 2  # places, not one span
    texts, heads = write_pieces(encoded, [base, moved])
    assert sum(map(len, texts)) - len(base) < 8
    assert read_pieces(texts, heads, []) == [base, moved]


@given(drawn_lines())
def test_templated_pieces_read_back_to_the_same_lines(lines):
    encoded, templates = template_pieces(lines, lines)
    texts, heads = write_pieces(encoded, lines)
    # Through JSON, as the page holds them.
    texts, heads, templates = json.loads(script_json([texts, heads, templates]))
    assert read_pieces(texts, heads, templates) == lines


def test_a_change_counts_what_it_keeps_in_utf16_code_units():
    pieces = ["\U0001f600 long enough to be kept <x>", "\U0001f600 long enough to be kept <y>"]
    texts, heads = write_pieces(encode_pieces(pieces, {1: [0]}), pieces)
    assert read_numbers(heads) == [0, 1, 27, 1]  # 26 characters kept, the smiley two units
    assert texts == pieces[:1] + ["y"]
    assert read_pieces(texts, heads, []) == pieces


POSITION_TEXT = st.text(st.sampled_from("ab/ ,1\"\\<09Az+"), max_size=30)


@given(POSITION_TEXT, POSITION_TEXT)
def test_position_strings_read_back_the_same(before, after):
    # Texts holding the notation's own digits, quotes and backslashes among them.
    written = write_text_edits(before, after)
    assert read_text_edits(before, written) == after
    assert read_text_edits(before, json.loads(script_json(written))) == after


@given(drawn_lines())
def test_a_drawing_alone_reads_back_the_same(lines):
    svg = "<svg>\n" + "\n".join([*lines, *lines[:2]]) + "\n</svg>"  # lines repeated too
    assert read_drawing(json.loads(script_json(write_drawing(svg)))) == svg


def test_a_drawing_written_again_is_the_same_and_its_own():
    # A game's key is written once per process and given to every page: what one page
    # does with its copy does not reach the next page's.
    svg = '<svg>\n<g class="legend">\n<text x="1" y="2">K</text>\n</g>\n</svg>'
    first = write_drawing(svg)
    expected = json.loads(json.dumps(first))
    first["texts"] = []
    first.clear()
    assert write_drawing(svg) == expected
    assert read_drawing(write_drawing(svg)) == svg
