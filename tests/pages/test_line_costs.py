"""The page's lines made cheaper to write and to build (issue #29, page size and build time):
a new line is tried as a change of the same line two versions back and of the last line of
its kind; the most used templates get the shortest numbers; and the fast paths (shared ends
compared as whole numbers, a line's coordinates found once per skeleton, its template once
per process, position strings' token edits from their differing middle) give exactly what
the plain computations give."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation_tools.pages import piece_templates
from notation_tools.pages.drawings import (
    TOKENS,
    ascii_numbers,
    base_candidates,
    common_prefix,
    common_suffix,
    decode_pieces,
    decode_text,
    edits,
    encode_pieces,
    piece_kind,
    shared_ascii_ends,
    text_edits,
)
from notation_tools.pages.page_notation import read_pieces, write_pieces
from notation_tools.pages.piece_templates import line_spans, template_pieces
from notation_tools.pages.viewer import build_page
from tests.pages.piece_lines import drawn_lines, shapes, MILLI
from tests.pages.viewer_support import PLAYABLE, first_record

TITLES = [f"<title>Turn {turn}, {side} to move</title>\n"
          for turn in range(3, 7) for side in ("North", "South")]


def test_a_title_is_a_change_of_the_same_sides_title_two_versions_back():
    # Each title replaces the one before it (the frame encoder's base); the title of the
    # same side's last turn differs in the turn's number alone.
    bases = {number: [number - 1] for number in range(1, len(TITLES))}
    encoded = encode_pieces(TITLES, bases)
    for number in range(2, len(TITLES)):
        base, prefix, suffix, middle = encoded[number]
        assert base == number - 2 and len(middle) == 1, encoded[number]
    assert decode_pieces(encoded) == TITLES


def test_a_line_that_replaces_none_is_a_change_of_the_last_line_of_its_kind():
    squares = [f'<g class="piece white" data-square="{rank}{file}">\n'
               for rank in (19, 18) for file in "abcdef"]
    pieces = ['<svg width="600">\n', *squares, "</svg>\n"]
    encoded = encode_pieces(pieces, {})
    for number in range(2, len(squares) + 1):
        assert encoded[number][0] == number - 1, encoded[number]  # the square before
    assert sum(len(item[3]) for item in encoded[2:-1]) <= 2 * len(squares)
    assert decode_pieces(encoded) == pieces


@given(st.lists(st.text(st.sampled_from("<ab 12>"), max_size=12), max_size=10), st.data())
def test_the_bases_tried_are_earlier_pieces_each_once(pieces, data):
    bases = {number: data.draw(st.lists(st.integers(0, number), max_size=3))
             for number in range(len(pieces))}
    for number, candidates in enumerate(base_candidates(pieces, bases)):
        assert all(0 <= base < number for base in candidates)
        assert len(set(candidates)) == len(candidates)
        earlier = [base for base in range(number) if piece_kind(pieces[base])
                   == piece_kind(pieces[number])]
        if earlier:
            assert earlier[-1] in candidates
    texts, heads = write_pieces(encode_pieces(pieces, bases), pieces)
    assert read_pieces(texts, heads, []) == pieces


ASCII = st.text(st.sampled_from("ab<>\"=.0 \n"), max_size=300)


@given(ASCII, ASCII)
def test_shared_ends_as_whole_numbers_are_those_of_the_characters(base, piece):
    prefix = common_prefix(base, piece)
    expected = prefix, common_suffix(base, piece, min(len(base), len(piece)) - prefix)
    assert shared_ascii_ends(ascii_numbers(base), ascii_numbers(piece)) == expected
    # and by their definition, character by character
    assert base[:prefix] == piece[:prefix]
    assert prefix == min(len(base), len(piece)) or base[prefix] != piece[prefix]


@st.composite
def digit_varied_lines(draw):
    """A drawn line and the same line with its digits replaced (another skeleton or the
    same one: 0 kept or not, lengths kept)."""
    line = draw(shapes())(draw(MILLI), draw(MILLI))
    digits = draw(st.lists(st.sampled_from("0123456789"), min_size=len(line),
                           max_size=len(line)))
    varied = "".join(digits[at] if character.isdigit() else character
                     for at, character in enumerate(line))
    return line, varied


@given(digit_varied_lines())
def test_a_lines_spans_are_those_found_in_the_line_itself(lines):
    for line in lines:
        # the skeleton's spans (looked up, perhaps found for the other line) are those of
        # the line's own text
        assert line_spans(line) == piece_templates._find_spans(line)


@given(drawn_lines())
def test_templates_found_with_the_process_caches_are_those_found_without(lines):
    kept = piece_templates._LINES, piece_templates._EXACT, piece_templates._SHAPES, \
        piece_templates._SPANS
    warm = template_pieces(lines, lines)
    for cache in kept:
        cache.clear()
    cold = template_pieces(lines, lines)
    assert json.dumps(warm) == json.dumps(cold)
    assert decode_pieces(*cold) == lines


def test_the_most_used_template_is_numbered_first():
    rare = [f'<circle cx="{x}" cy="{x * 2}" r="4.5" fill="#ffd400" stroke="#000"/>\n'
            for x in range(10, 13)]
    common = [f'<rect x="{x}" y="{y}" width="24" height="24" fill="none" stroke="#b9b09a"/>\n'
              for x in range(20, 140, 24) for y in (20, 44)]
    lines = rare + common
    encoded, templates = template_pieces(lines, lines)
    assert templates[0][1].startswith("<rect") and templates[1][1].startswith("<circle")
    assert all(item[0] == 0 for item in encoded[len(rare):])
    assert decode_pieces(encoded, templates) == lines


def token_edits(before: str, after: str) -> list[list[object]]:
    """The token edits computed over the whole strings, the plain way."""
    words = {}
    numbered = [[words.setdefault(token, len(words)) for token in TOKENS.findall(text)]
                for text in (before, after)]
    texts = list(words)
    return [[at, removed, *(texts[number] for number in added)]
            for at, removed, *added in edits(*numbered)]


POSITION = st.lists(st.sampled_from(["a", "b", "1", "vK", "/", " ", ","]), max_size=40).map("".join)


@given(POSITION, POSITION, st.integers(0, 40), st.integers(0, 40))
def test_token_edits_from_the_differing_middle_are_those_of_the_whole(start, middle, cut,
                                                                      length):
    before = start
    after = start[:cut] + middle + start[cut + length:]
    assert text_edits(before, after) == token_edits(before, after)
    assert decode_text(before, text_edits(before, after)) == after


@pytest.mark.parametrize("game", ["gow", "maka"])
def test_a_page_built_after_another_is_the_page_built_alone(game):
    # An archive's pages are built one after another in a worker process, sharing the
    # caches of lines: a page must not depend on the pages built before it.
    first = first_record(PLAYABLE[game])
    other = first_record(PLAYABLE["shih"])
    build_page(other)
    build_page(first)
    after = build_page(first_record(PLAYABLE[game])).html
    for cache in (piece_templates._LINES, piece_templates._EXACT, piece_templates._SHAPES,
                  piece_templates._SPANS):
        cache.clear()
    assert build_page(first_record(PLAYABLE[game])).html == after
