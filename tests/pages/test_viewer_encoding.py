"""The viewer's compact encodings (issue #29, page size and build time): whatever the drawings,
the page's data decodes back to them. Random drawings and trees of steps, in Python; that the
page's script decodes the same way is checked in Chromium (test_viewer_browser.py)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.pages.drawings import (
    PieceTable,
    apply_edits,
    apply_spans,
    changed_spans,
    common_prefix,
    common_suffix,
    decode_pieces,
    decode_text,
    edits,
    encode_pieces,
    layer_edits,
    layer_numbers,
    svg_pieces,
    text_edits,
)
from notation_tools.pages.viewer import (
    _layer_pieces,
    _page_data,
    _Step,
    frame_numbers,
    read_page_data,
)

LINES = st.sampled_from(['<svg viewBox="0 0 9 9">\n', "<g>\n", "</g>\n", '<rect x="1"/>\n',
                         '<rect x="2"/>\n', "<text>a</text>\n", "<text>b > c</text>\n",
                         "desc line\n", "\n", "</svg>"])
DRAWINGS = st.lists(LINES, max_size=30).map("".join)


@given(st.lists(st.integers(0, 6), max_size=40), st.lists(st.integers(0, 6), max_size=40))
def test_edits_make_the_second_list_from_the_first(before, after):
    found = edits(before, after)
    assert apply_edits(before, found) == after
    assert [edit[0] for edit in found] == sorted(edit[0] for edit in found)
    # Apart: an edit starts after the pieces the one before it removes.
    assert all(a[0] + a[1] <= b[0] for a, b in zip(found, found[1:]))


# Piece numbers up to 3000: a page's pieces go past one byte and past the surrogates' start
# is far off, but the counts and places of a layer mix with them as code points.
@given(st.lists(st.integers(0, 3000), max_size=60), st.lists(st.integers(0, 3000), max_size=60))
def test_a_layer_reads_back_as_its_edits_and_lists_what_they_add(before, after):
    found = edits(before, after)
    layer = layer_numbers(found)
    assert isinstance(layer, str)
    assert layer_edits(layer) == found
    assert apply_edits(before, layer_edits(layer)) == after
    assert list(map(ord, _layer_pieces(layer))) == [number for edit in found
                                                    for number in edit[2:]]


@given(st.lists(st.integers(0, 1000), min_size=50, max_size=200, unique=True), st.data())
def test_a_few_changes_far_apart_give_a_few_small_edits(drawing, data):
    # A move changes a few lines of a long drawing: the edits are those lines, not the
    # span from the first to the last. (The lines between them must be found once in the
    # drawing to tell where they went: in a drawing of one repeated line, a change anywhere
    # could be anywhere, and one edit from the first change to the last is all there is.)
    changed = sorted(data.draw(st.sets(st.integers(0, len(drawing) - 1), max_size=4)))
    after = list(drawing)
    for index in changed:
        after[index] = 2000 + index  # a piece found nowhere else
    found = edits(drawing, after)
    assert apply_edits(drawing, found) == after
    assert sum(len(edit) - 2 for edit in found) == len(changed)


@given(st.text(max_size=12), st.text(max_size=12))
def test_common_ends_are_what_both_strings_share(a, b):
    prefix = common_prefix(a, b)
    assert a[:prefix] == b[:prefix] and (prefix == min(len(a), len(b)) or a[prefix] != b[prefix])
    limit = min(len(a), len(b)) - prefix
    suffix = common_suffix(a, b, limit)
    assert suffix <= limit and a[len(a) - suffix:] == b[len(b) - suffix:]
    assert suffix == limit or a[len(a) - suffix - 1] != b[len(b) - suffix - 1]


@given(st.lists(st.text(max_size=40), max_size=12), st.data())
def test_pieces_decode_to_themselves_whatever_bases_they_get(pieces, data):
    bases = {number: data.draw(st.sets(st.integers(0, max(number - 1, 0)), max_size=3))
             for number in range(1, len(pieces))}
    assert decode_pieces(encode_pieces(pieces, bases)) == pieces


@given(st.text(st.sampled_from("ab/ ,1"), max_size=30),
       st.text(st.sampled_from("ab/ ,1"), max_size=30))
def test_position_strings_decode_to_themselves(before, after):
    assert decode_text(before, text_edits(before, after)) == after


@given(DRAWINGS)
def test_a_drawing_is_its_pieces_and_its_numbers(svg):
    table = PieceTable()
    assert "".join(svg_pieces(svg)) == svg
    numbers = table.numbers(svg)
    assert "".join(table.pieces[ord(n)] for n in numbers) == svg
    assert table.numbers(svg) == numbers  # nothing new the second time


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(0, 2))
def test_every_step_in_every_mark_set_decodes_to_its_drawing(data, options):
    # A tree of steps (each step's parent an earlier one), a drawing per step and mark set;
    # a mark set's drawings often differ from the plain one by a layer, as an option's do.
    marks = [combination for size in range(options + 1)
             for combination in itertools.combinations([f"option-{n}" for n in range(options)],
                                                       size)]
    variants = len(marks)
    count = data.draw(st.integers(1, 8))
    parents = [-1] + [data.draw(st.integers(0, step - 1)) for step in range(1, count)]
    table = PieceTable()
    drawings = []
    for _ in range(count):
        plain = data.draw(DRAWINGS)
        layers = [data.draw(st.one_of(DRAWINGS, st.just(""))) for _ in range(variants - 1)]
        drawings.append([plain] + [plain[:len(plain) // 2] + layer + plain[len(plain) // 2:]
                                   for layer in layers])
    steps = [_Step(parent, [table.numbers(svg) for svg in drawn], "", "a/b")
             for parent, drawn in zip(parents, drawings)]
    page = read_page_data(_page_data(table, steps, marks))
    pieces = page["pieces"]
    for step, drawn in enumerate(drawings):
        for variant, svg in enumerate(drawn):
            assert "".join(pieces[n] for n in frame_numbers(page, step, variant)) == svg


@given(st.text(st.sampled_from("ab .<>\U0001f600"), max_size=40),
       st.text(st.sampled_from("ab .<>\U0001f600"), max_size=40))
def test_changed_spans_make_the_piece_from_its_base(base, piece):
    spans = changed_spans(base, piece)
    assert apply_spans(base, spans) == piece
    assert all(kept >= 0 and removed >= 0 for kept, removed, _ in spans)
