"""What makes a viewer page quicker to build (issue #29, build time) changes no output: a
drawing cut run by run is cut as its whole text, the edit search's helpers answer as their
plain definitions do, a layer shared by the drawings of one call reads as drawn afresh, and
the worker processes' head start does not depend on the records being readable."""

from __future__ import annotations

from xml.etree import ElementTree

from hypothesis import given
from hypothesis import strategies as st

from notation_tools.pages.drawings import (
    PieceTable,
    common_prefix,
    common_suffix,
)
from notation_tools.pages.viewer import write_pages
from notation_tools.records.pgn import read_records
from notation_tools.render.svg import Element, SvgDocument, SvgText, runs_of

# Line breaks of every kind str.splitlines knows, so that a run ending in "\r" before one
# starting with "\n" (one break in the whole text, two if cut run by run) is tried.
RUN_TEXTS = st.lists(st.sampled_from(["a", "<g>", "\n", "\r", "\u2028", "\x85", "x" * 700]),
                     max_size=6).map("".join)


@given(st.lists(RUN_TEXTS, min_size=1, max_size=8))
def test_a_drawing_cut_run_by_run_is_cut_as_its_whole_text(runs):
    text = SvgText.of(runs)
    assert "".join(text.parts) == text == "".join(runs)
    by_runs, whole = PieceTable(), PieceTable()
    numbers = by_runs.numbers(text)
    assert numbers == whole.numbers(str(text))
    assert by_runs.pieces == whole.pieces
    assert by_runs.numbers(text) == numbers  # the second time from the kept runs


@given(st.lists(RUN_TEXTS, min_size=1, max_size=8))
def test_a_drawing_given_as_its_runs_is_cut_as_its_whole_text(runs):
    # The viewer takes drawings as runs (Game.render_svg_runs), never joined.
    parts = runs_of(runs)
    assert parts == SvgText.of(runs).parts
    by_runs, whole = PieceTable(), PieceTable()
    numbers = by_runs.run_numbers(parts)
    assert numbers == whole.numbers("".join(runs))
    assert by_runs.pieces == whole.pieces
    assert by_runs.run_numbers(parts) == numbers


def test_runs_that_do_not_end_lines_are_kept_as_one():
    assert SvgText.of(["<a>\r", "\n<b>"]).parts == ("<a>\r\n<b>",)
    assert SvgText.of(["<a>\n", "<b>\n", "</svg>"]).parts == ("<a>\n", "<b>\n", "</svg>")
    assert runs_of(["<a>\r", "\n<b>"]) == ("<a>\r\n<b>",)


def test_escaped_texts_are_what_an_xml_reader_reads_back():
    # Escaping by replace, "&" first: a text already holding entities keeps them as text.
    text = 'a < b & c > "d" &amp; e'
    attribute = text + "\t\r\n"   # kept as written only in an attribute, escaped
    doc = SvgDocument(10, 10, title=text, description=text)
    doc.element(doc.root, "text", text, data_note=attribute)
    root = ElementTree.fromstring(doc.to_string())
    assert root.find("{http://www.w3.org/2000/svg}title").text == text
    assert root.find("{http://www.w3.org/2000/svg}desc").text == text
    written = root.find("{http://www.w3.org/2000/svg}text")
    assert written.text == text and written.get("data-note") == attribute


SHARED = st.text(st.sampled_from("ab"), max_size=300)


@given(SHARED, SHARED, SHARED, SHARED)
def test_common_ends_of_long_strings_are_what_both_share(start, a, b, end):
    # Long shared starts and ends: the windows that grow fourfold and the halving in them.
    first, second = start + a + end, start + b + end
    prefix = common_prefix(first, second)
    assert first[:prefix] == second[:prefix]
    assert prefix == min(len(first), len(second)) or first[prefix] != second[prefix]
    limit = min(len(first), len(second)) - prefix
    suffix = common_suffix(first, second, limit)
    assert suffix <= limit and first[len(first) - suffix:] == second[len(second) - suffix:]
    assert suffix == limit or first[-suffix - 1] != second[-suffix - 1]


def _document(shared_store: dict | None, labels: list[str]) -> str:
    doc = SvgDocument(100, 60, title="T", description="d")

    def draw(layer: Element) -> None:
        for index, label in enumerate(labels):
            doc.label(layer, 10 * index, 20, label, class_="mark")
    layer = doc.group("last-move")
    if shared_store is None:
        draw(layer)
    else:
        doc.shared(layer, shared_store, "last move", draw)
    return doc.to_string()


@given(st.lists(st.text(st.sampled_from("ab<&\n"), max_size=4), max_size=3))
def test_a_layer_shared_by_the_drawings_of_one_call_reads_as_drawn_afresh(labels):
    store: dict = {}
    fresh = _document(None, labels)
    assert _document(store, labels) == fresh  # drawn, and kept
    assert _document(store, labels) == fresh  # read back
    if not labels:
        assert '<g class="last-move" />' in fresh


def test_workers_start_whatever_the_first_record_names(tmp_path):
    # The first record names no known game: the head start is skipped, the pages are made.
    text = ['[Variant "no such game"]', "", "1. a *", "", '[Variant "elevation"]', "", "*"]
    records = list(read_records(text, "two.pgn"))
    entries = write_pages(records, str(tmp_path), jobs=2)
    assert [entry.game for entry in entries] == [None, "elevation"]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        [entry.file for entry in entries] + ["index.html"])
