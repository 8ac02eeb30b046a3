"""The SVG document's own tree and its drawing cache (``SvgDocument.cached``): the text is
what the same drawing gives uncached, whatever was drawn before, and a drawing that touches
the document (a marker, the canvas height) is never reused."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation_tools.render import svg
from notation_tools.render.svg import Element, SvgDocument

texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r\x0b\x0c"
                              "\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\x10\x11\x12\x13\x14"
                              "\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\ufffe\uffff"),
                max_size=12)


def _picture(label: str, colour: str, cache: bool) -> str:
    doc = SvgDocument(100, 60, title=label, description=f"a {label}\nb")
    layer = doc.group("pieces")

    def draw(parent: Element) -> None:
        doc.piece_disc(parent, 30, 30, 12, dark=True, letter=label, name=f"{label} & co",
                       data_colour=colour)
    if cache:
        doc.cached(layer, ("test piece", label, colour), draw)
    else:
        draw(layer)
    doc.caption([label], margin=4)
    return doc.to_string()


@given(st.lists(st.tuples(texts, st.sampled_from(["#fff", "#000", '"q"<&>'])), max_size=6))
def test_a_cached_drawing_reads_as_the_drawing_itself(drawings: list[tuple[str, str]]) -> None:
    for label, colour in drawings:
        cached = _picture(label, colour, cache=True)
        assert cached == _picture(label, colour, cache=False)
        root = ET.fromstring(cached)   # well-formed, escaped, every value as given
        piece = root.find(".//{http://www.w3.org/2000/svg}g[@data-colour]")
        assert piece is not None and piece.get("data-colour") == colour
        assert root.findtext("{http://www.w3.org/2000/svg}title") == label


def test_a_drawing_that_defines_a_marker_is_drawn_but_not_kept() -> None:
    key = ("test arrow", 1)

    def picture() -> str:
        doc = SvgDocument(50, 50, title="t", description="d")
        doc.cached(doc.root, key, lambda parent: doc.last_move_line(
            parent, [(1, 1), (20, 20)], arrow=True))
        return doc.to_string()
    first = picture()
    assert key not in svg._DRAWN
    assert picture() == first and "url(#arrowhead-1)" in first and "<marker" in first


def test_the_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svg, "DRAWN_LIMIT", 5)
    doc = SvgDocument(50, 50, title="t", description="d")
    for number in range(12):
        doc.cached(doc.root, ("test bound", number),
                   lambda parent, number=number: doc.label(parent, 1, 1, str(number)))
        assert len(svg._DRAWN) <= 5
    assert doc.to_string().count("<text") == 12


def test_the_cache_is_bounded_in_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    """A few large drawings (a whole layer kept by what it shows) empty the store as surely
    as many small ones."""
    monkeypatch.setattr(svg, "DRAWN_CHARACTERS", 1_000)
    monkeypatch.setattr(svg, "_drawn_characters", 0)
    monkeypatch.setattr(svg, "_DRAWN", {})
    doc = SvgDocument(50, 50, title="t", description="d")
    for number in range(12):
        doc.cached(doc.root, ("test big", number),
                   lambda parent, number=number: doc.label(parent, 1, 1, str(number) * 300))
        assert sum(map(len, svg._DRAWN.values())) <= 1_000
        assert svg._drawn_characters == sum(map(len, svg._DRAWN.values()))
    assert doc.to_string().count("<text") == 12


@given(st.lists(st.tuples(st.integers(0, 3), st.booleans()), min_size=1, max_size=6))
def test_a_kept_legend_reads_as_the_legend_itself(layouts: list[tuple[int, bool]]) -> None:
    """A legend reused by its key stands where the same legend drawn anew stands, and grows
    the canvas as much, whatever caption (how many lines) comes before it."""
    def picture(lines: int, arrow: bool, key: object) -> str:
        doc = SvgDocument(120, 80, title="t", description="d", background="#fff")
        doc.caption([f"line {n}" for n in range(lines)], margin=4)
        entries = [svg.LegendEntry("a disc", svg.legend_disc(True)),
                   svg.LegendEntry("a rather long text that wraps under its symbol",
                                   svg.legend_line("#123456", arrow=arrow))]
        doc.legend(entries, margin=4, key=key)
        return doc.to_string()
    for lines, arrow in layouts:
        assert picture(lines, arrow, ("test legend", arrow)) == picture(lines, arrow, None)


@given(st.lists(st.tuples(texts, st.sampled_from(["#fff", "#000", '"q"<&>'])), max_size=6))
def test_reuse_adds_what_cached_kept_and_only_that(drawings: list[tuple[str, str]]) -> None:
    for label, colour in drawings:
        key = ("test reused piece", label, colour)
        reused = SvgDocument(100, 60, title="t", description="d")
        layer = reused.group("pieces")

        def draw(parent: Element) -> None:
            reused.piece_disc(parent, 30, 30, 12, dark=True, letter=label, data_colour=colour)
        if not reused.reuse(layer, key):
            assert key not in svg._DRAWN and not layer.children   # nothing added when absent
            reused.cached(layer, key, draw)
            assert reused.reuse(layer, key)   # kept now: added again, as written
        drawn = SvgDocument(100, 60, title="t", description="d")
        direct = drawn.group("pieces")
        for _ in layer.children:
            drawn.piece_disc(direct, 30, 30, 12, dark=True, letter=label, data_colour=colour)
        assert reused.to_string() == drawn.to_string()


def test_legend_entries_given_as_a_function_are_laid_out_once_per_key() -> None:
    calls: list[int] = []

    def entries() -> list[svg.LegendEntry]:
        calls.append(1)
        return [svg.LegendEntry("a long entry that wraps " * 3, svg.legend_swatch("#abcdef"))]

    def picture(given: list[svg.LegendEntry] | Callable[[], list[svg.LegendEntry]]) -> str:
        doc = SvgDocument(120, 40, title="t", description="d")
        doc.legend(given, margin=4, key=("test legend function",))
        return doc.to_string()
    svg.forget_kept()
    first = picture(entries)
    assert picture(entries) == first and len(calls) == 1   # reused: not called again
    svg.forget_kept()
    assert picture(entries()) == first   # the same layout as the entries given as a list


def test_kept_text_joined_into_a_layer_reads_as_the_drawings_themselves() -> None:
    svg.forget_kept()
    joined = SvgDocument(80, 40, title="t", description="d")
    layer = joined.group("labels")
    texts = []
    for number in (1, 2, 1):
        key = ("test kept label", number)
        assert (svg.kept(key) is None) == (len(texts) < 2)   # the second 1 is kept
        texts.append(joined.kept_text(key, lambda parent, number=number: joined.label(
            parent, number, 10, f"<{number}>")))
        assert svg.kept(key) == texts[-1]
    joined.add_text(layer, "".join(texts))
    joined.add_text(joined.group("empty"), "")   # nothing added: the group stays empty
    drawn = SvgDocument(80, 40, title="t", description="d")
    direct = drawn.group("labels")
    for number in (1, 2, 1):
        drawn.label(direct, number, 10, f"<{number}>")
    drawn.group("empty")
    assert joined.to_string() == drawn.to_string()
    assert '<g class="empty" />' in drawn.to_string()


def test_kept_text_refuses_a_drawing_that_defines_a_marker() -> None:
    doc = SvgDocument(50, 50, title="t", description="d")
    with pytest.raises(ValueError):
        doc.kept_text(("test kept arrow",), lambda parent: doc.last_move_line(
            parent, [(1, 1), (20, 20)], arrow=True))
    assert svg.kept(("test kept arrow",)) is None


@given(st.lists(texts, min_size=1, max_size=4), st.integers(0, 3))
def test_a_legend_drawn_afresh_is_the_same_run_as_when_reused(lines: list[str],
                                                              grown: int) -> None:
    # The viewer looks up a drawing's runs of lines: a legend or caption laid out now is
    # written once, as one run, as it is when a later document reuses it.
    svg.forget_kept()

    def drawn() -> tuple[str, ...]:
        doc = SvgDocument(200, 40, title="t", description="d", background="#ffffff")
        doc.grow(grown * 7.5)
        doc.caption(lines, margin=4)
        doc.legend([svg.LegendEntry(line, svg.legend_swatch("#123456")) for line in lines],
                   margin=4, key=("test legend", tuple(lines)))
        return doc.to_runs()

    afresh, reused = drawn(), drawn()
    assert afresh == reused
    text = "".join(afresh)
    root = ET.fromstring(text)
    background = root.find("{http://www.w3.org/2000/svg}rect")
    assert background is not None and background.get("class") == "background"
    # The background is as high as the canvas grown by the caption and the legend.
    assert background.get("height") == root.get("viewBox").split()[3] == root.get("height")
