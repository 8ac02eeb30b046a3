"""One SVG document helper for every game's picture (G9): the document with its title and
text-diagram description, groups, coordinate labels, piece discs, last-move marks, the caption
under the board and the legend of its symbols, in one visual language (font, the two sides'
colours, the last-move colours).

Text is measured conservatively (:data:`EM_WIDTH` of its font size a character) so that a
caption or legend wraps, and the canvas grows downwards to hold it, rather than running off the
picture at any board, option or status length.

A game's ``render.py`` computes where things go; this module writes them. Attribute names are
given as Python keywords with ``_`` for ``-`` (``stroke_width``, ``data_square``; ``class_``
for ``class``), numbers are written with at most two decimals. Pure functions and objects:
nothing here reads, prints or knows a game.

The document is written one element a line, in the order it was built: a viewer that keeps
a game's frames as line edits of the previous frame stores only the lines a move changed.

>>> doc = SvgDocument(100, 60, title="Example", description="a diagram")
>>> print(doc.to_string())
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="100" height="60" viewBox="0 0 100 60">
<title>Example</title>
<desc>a diagram</desc>
</svg>
>>> piece = doc.piece_disc(doc.group("pieces"), 30, 30, 12, dark=True, letter="K")
>>> doc.to_string().count("<circle")
1
"""

from __future__ import annotations

import itertools
import re
import textwrap
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

FONT_FAMILY = "sans-serif"
LIGHT = {"fill": "#ffffff", "stroke": "#111111", "text": "#111111"}
"""A light piece: the side that plays the light pieces (White, North's units, Blue, ...)."""
DARK = {"fill": "#111111", "stroke": "#eeeeee", "text": "#ffffff"}
"""A dark piece."""
LAST_MOVE_ORIGIN = "#c8f0b7"
"""The fill of the square a last move left."""
LAST_MOVE_TARGET = "#b7d7f0"
"""The fill of the squares a last move passed through or reached."""
LAST_MOVE_CAPTURE = "#f0b7b7"
"""The fill of a square where the last move captured."""
LAST_MOVE_LINE = "#27ae60"
"""The stroke of a last move's path."""
MARK_LINE = "#c0392b"
"""The stroke of other marks (a dig's arrow, an attack)."""
TEXT_COLOUR = "#111111"
"""Captions, legends and coordinates."""
EM_WIDTH = 0.6
"""The width allowed for one character, as a share of the font size: wider than the average
sans-serif glyph, so that text measured with it fits wherever the font falls back to."""
CAPTION_SIZE = 12
"""The font size of a caption and a legend."""
LINE_SPACING = 1.3
"""A text line's height, as a share of its font size."""
ASCENT = 0.8
DESCENT = 0.25
"""How far a glyph may reach above and below its baseline, as shares of the font size."""


def text_width(text: str, font_size: float) -> float:
    """The width ``text`` may take at ``font_size`` (:data:`EM_WIDTH` a character).

    >>> text_width("Blue to move", 10)
    72.0
    """
    return EM_WIDTH * font_size * len(text)


def wrap(text: str, width: float, font_size: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (by :func:`text_width`);
    a word longer than a line is cut.

    >>> wrap("North to move, turn 12; arsenals B15 D8", 120, 10)
    ['North to move, turn', '12; arsenals B15 D8']
    """
    return list(_wrapped(text, max(1, int(width // (EM_WIDTH * font_size)))))


@lru_cache(maxsize=1024)
def _wrapped(text: str, columns: int) -> tuple[str, ...]:
    """``text`` wrapped at ``columns`` characters, kept: the caption of one position has
    most lines of the one before (its arsenals, its offline units), and wrapping costs more
    than drawing them."""
    return tuple(textwrap.wrap(text, columns, break_on_hyphens=False) or [""])


class Element:
    """An SVG element under construction (what groups and drawing callbacks receive): its
    tag, its attributes as written (names and values as text), its text and its children.

    A small tree of its own rather than ``xml.etree``: a board of 361 squares and 192 pieces
    is over a thousand elements, drawn once per position by the viewer, and building and
    writing them was most of a page's build time."""

    __slots__ = ("tag", "attributes", "text", "children")

    def __init__(self, tag: str, attributes: dict[str, str] | None = None) -> None:
        self.tag = tag
        self.attributes = attributes if attributes is not None else {}
        self.text: str | None = None
        self.children: list[Element | _Written | _WrittenLayers] = []

    def set(self, name: str, value: str) -> None:
        """Set the attribute ``name`` (as written) to ``value``."""
        self.attributes[name] = value

    def write(self, out: list[str]) -> None:
        """Append this element's text to ``out``, one element a line: its children each on
        a line of their own between its opening and closing tags."""
        attributes = self.attributes
        if _ATTRIBUTE_HAZARDS.search("".join(attributes.values())):
            opening = "<" + self.tag + "".join(
                f' {name}="{_escape_attribute(value)}"' for name, value in attributes.items())
        else:  # nothing to escape (nearly always): one search for all the values
            opening = "<" + self.tag + "".join(
                f' {name}="{value}"' for name, value in attributes.items())
        if self.children:
            # A text before the first child keeps it on its line (none of ours has one).
            out.append(opening + ">" + (_escape_text(self.text) if self.text else "\n"))
            for child in self.children:
                if type(child) is _Written:   # text kept from an earlier drawing
                    out.append(child.text)
                elif type(child) is _WrittenLayers:
                    out.extend(child.texts)
                else:
                    child.write(out)
            out.append(f"</{self.tag}>\n")
        elif self.text:
            out.append(f"{opening}>{_escape_text(self.text)}</{self.tag}>\n")
        else:
            out.append(opening + " />\n")


class SvgText(str):
    """An SVG document's text that also keeps the runs of whole lines it was written from
    (``parts``, whose concatenation is the text): a drawing reused from
    :meth:`SvgDocument.cached` is one run, the same object in every document that holds it,
    so a viewer that cuts many drawings into lines cuts each such run once. It is a ``str``
    in every other respect (equal to, and hashed as, the same text)."""

    parts: tuple[str, ...]

    @classmethod
    def of(cls, parts: Sequence[str]) -> SvgText:
        """The text of ``parts``, which keeps them when each but the last ends a line (else
        as one part: a run that ends inside a line is not cut on its own)."""
        text = cls("".join(parts))
        text.parts = tuple(parts) if _ends_lines(parts) else (str(text),)
        return text


def runs_of(parts: Sequence[str]) -> tuple[str, ...]:
    """The runs :meth:`SvgText.of` keeps for ``parts`` (``parts``, or their text as one run),
    without joining them into one text when it need not: a viewer that only cuts drawings
    into lines spares a copy of every drawing (twice the size of the drawing in memory
    allocated and freed, which costs more than the rest of writing it)."""
    return tuple(parts) if _ends_lines(parts) else ("".join(parts),)


def _ends_lines(parts: Sequence[str]) -> bool:
    """Whether each of ``parts`` but the last ends a line."""
    return all(map(str.endswith, itertools.islice(parts, len(parts) - 1),
                   itertools.repeat("\n")))


class _Written:
    """Elements already written as text (a drawing reused from :meth:`SvgDocument.cached`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def write(self, out: list[str]) -> None:
        out.append(self.text)


class _WrittenLayers:
    """Layers written once as text, each its own run (:meth:`SvgDocument.written_layers`)."""

    __slots__ = ("texts",)

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    def write(self, out: list[str]) -> None:
        out.extend(self.texts)


_ATTRIBUTE_HAZARDS = re.compile(r'[&<>"\r\n\t]')
_ATTRIBUTE_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"),
                      ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;"))
_TEXT_HAZARDS = re.compile(r"[&<>]")
_TEXT_ESCAPES = _ATTRIBUTE_ESCAPES[:3]
# Escaped by one ``replace`` a character, "&" first (the others write one): a ``translate``
# with a table of strings goes character by character, some 20 times slower over a text
# diagram in ``<desc>``, escaped anew for every position.


def _escape_attribute(value: str) -> str:
    if _ATTRIBUTE_HAZARDS.search(value):
        for character, escape in _ATTRIBUTE_ESCAPES:
            value = value.replace(character, escape)
    return value


def _escape_text(value: str) -> str:
    if _TEXT_HAZARDS.search(value):
        for character, escape in _TEXT_ESCAPES:
            value = value.replace(character, escape)
    return value


@lru_cache(maxsize=64)
def _description(text: str) -> str:
    """The ``<desc>`` line(s) of ``text`` (a text diagram: escaping it costs more than the
    rest of a drawing whose parts are kept, and the drawings of one position under each set
    of display options share it)."""
    return f"<desc>{_escape_text(text)}</desc>\n"


@dataclass(frozen=True)
class LegendEntry:
    """One symbol of a legend and what it means. ``draw(doc, parent, x, y, size)`` draws the
    symbol in the ``size`` × ``size`` box whose top left corner is ``(x, y)``."""

    text: str
    draw: Callable[[SvgDocument, Element, float, float, float], None]


def number(value: float) -> str:
    """A coordinate as SVG text: integers plain, other values with at most two decimals.

    >>> number(12), number(12.0), number(3.14159), number(-0.001)
    ('12', '12', '3.14', '0')
    """
    if isinstance(value, int):
        return str(value)
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


_NAMES: dict[str, str] = {}
"""Python keyword → SVG attribute name (``stroke_width`` → ``stroke-width``), as met."""


def _attributes(attributes: dict[str, Any]) -> dict[str, str]:
    written = {}
    for key, value in attributes.items():
        if value is None:
            continue
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES[key] = key.rstrip("_").replace("_", "-")
        kind = type(value)
        if kind is str:
            written[name] = value
        elif kind is not bool and isinstance(value, (int, float)):
            written[name] = number(value)
        else:
            written[name] = str(value)
    return written


DRAWN_LIMIT = 50_000
"""How many drawings :meth:`SvgDocument.cached` keeps."""
DRAWN_CHARACTERS = 32_000_000
"""How many characters of text the kept drawings may hold in all (a whole layer kept by
what it shows, a board with one square marked, is tens of kilobytes). All are dropped when
either bound is reached, which bounds the store at some tens of megabytes whatever a process
draws."""
_DRAWN: dict[Hashable, str] = {}
_HEIGHTS: dict[Hashable, float] = {}
"""The canvas's height under a layer kept by :meth:`SvgDocument._below`, by its key."""
_drawn_characters = 0


def kept(key: Hashable) -> str | None:
    """The text kept under ``key`` by :meth:`SvgDocument.cached` or
    :meth:`SvgDocument.kept_text`, None when there is none (a loop asks this before it
    builds a drawing function)."""
    return _DRAWN.get(key)


def forget_kept() -> None:
    """Drop every kept drawing (tests and benchmarks draw afresh with it)."""
    global _drawn_characters
    _DRAWN.clear()
    _HEIGHTS.clear()
    _drawn_characters = 0


def _keep(key: Hashable, text: str) -> None:
    """Keep ``text`` under ``key`` in :data:`_DRAWN`, emptied first when full."""
    global _drawn_characters
    if len(_DRAWN) >= DRAWN_LIMIT or _drawn_characters + len(text) > DRAWN_CHARACTERS:
        forget_kept()
    _DRAWN[key] = text
    _drawn_characters += len(text)


class SvgDocument:
    """An SVG document under construction: ``width`` × ``height`` user units (drawn at
    ``size`` pixels wide when given), a ``<title>`` and the text diagram as ``<desc>``, and an
    optional background rectangle."""

    def __init__(self, width: float, height: float, *, title: str, description: str,
                 size: float | None = None, background: str | None = None) -> None:
        self._scale = (size / width) if size else 1
        self.root = Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1"})
        self.element(self.root, "title", title)
        if description:
            self.root.children.append(_Written(_description(description)))
        else:
            self.element(self.root, "desc", description)
        self.width, self.height = width, height
        self._defs: Element | None = None
        self._markers: dict[str, str] = {}
        self._background: Element | None = None
        if background is not None:
            self._background = self.element(self.root, "rect", class_="background", x=0, y=0,
                                             width=width, height=height, fill=background)

    def grow(self, extra: float) -> float:
        """Add ``extra`` user units at the bottom of the canvas; returns where they start."""
        # The background's height is written with the document (_lines), from this: a
        # caption or a legend grows the canvas a line at a time.
        top = self.height
        self.height += extra
        return top

    def element(self, parent: Element, tag: str, text: str | None = None,
                **attributes: Any) -> Element:
        """A child ``tag`` of ``parent`` with ``attributes`` (and ``text``)."""
        child = Element(tag, _attributes(attributes))
        if text is not None:
            child.text = text
        parent.children.append(child)
        return child

    def cached(self, parent: Element, key: Hashable, draw: Callable[[Element], object]) -> None:
        """Add to ``parent`` what ``draw(parent)`` adds, reusing the text written by an
        earlier call with the same ``key`` (in any document) instead of drawing again.

        ``key`` must name everything the drawing depends on (start it with the drawing's
        kind: ``("maka piece", square, code, size)``), and ``draw`` may only add elements
        under the element it is given: a drawing that defines a marker or grows the canvas
        is drawn, but not kept, since its text would name another document's definitions.
        One that uses a marker or pattern already defined is kept with its name
        (``url(#hatch-2)``), so a game must define its markers in the same order in every
        document (Game of War and Elevation define theirs first). The viewer draws every
        position of a game: its pieces and its empty board are the same from one position
        to the next, and are drawn once."""
        if self.reuse(parent, key):
            return
        text = self._written(parent, draw)
        if text is not None:
            _keep(key, text)
            parent.children.append(_Written(text))

    def reuse(self, parent: Element, key: Hashable) -> bool:
        """Add to ``parent`` the text kept under ``key`` by :meth:`cached`, if any: whether
        it was there. A loop over many small kept drawings (a board's squares, a layer's
        pieces) asks this first and builds the drawing function for :meth:`cached` only
        when it is not."""
        text = _DRAWN.get(key)
        if text is None:
            return False
        parent.children.append(_Written(text))
        return True

    def kept_text(self, key: Hashable, draw: Callable[[Element], object]) -> str:
        """The text of what ``draw`` adds under an element, kept under ``key`` as
        :meth:`cached` keeps it (drawn only when not kept yet), for a loop that joins many
        small drawings into one layer (:meth:`add_text`). ``draw`` may not define a marker
        nor grow the canvas."""
        text = _DRAWN.get(key)
        if text is None:
            text = self._written(Element("g"), draw)
            if text is None:
                raise ValueError(f"the drawing kept as {key!r} changed the document")
            _keep(key, text)
        return text

    def add_text(self, parent: Element, text: str) -> None:
        """Add ``text`` (whole elements, each line ending in a line break, as
        :meth:`kept_text` gives) under ``parent``; an empty text adds nothing."""
        if text:
            parent.children.append(_Written(text))

    def shared(self, parent: Element, store: dict[Hashable, str], key: Hashable,
               draw: Callable[[Element], object]) -> None:
        """:meth:`cached`, the text kept in ``store``, a dict of the caller's, instead of
        the process's store: for what only the documents of one call share (the last
        move's marks, drawn alike under every set of display options), whose ``key`` need
        only tell apart what differs within the call. A drawing that adds nothing adds
        nothing (an empty group stays ``<g ... />``, as when drawn afresh)."""
        text = store.get(key)
        if text is None:
            text = self._written(parent, draw)
            if text is None:
                return
            store[key] = text
        if text:
            parent.children.append(_Written(text))

    def _written(self, parent: Element, draw: Callable[[Element], object]) -> str | None:
        """The text of what ``draw`` adds under an element, or None when it defined a
        marker or grew the canvas (then its elements are added to ``parent`` as they are)."""
        holder = Element("g")
        state = (len(self._markers), self.height)
        draw(holder)
        if (len(self._markers), self.height) != state:
            parent.children.extend(holder.children)
            return None
        out: list[str] = []
        for child in holder.children:
            child.write(out)
        return "".join(out)

    def written_layers(self, children: Sequence[Element | _Written | _WrittenLayers]
                       ) -> list[Element | _Written | _WrittenLayers]:
        """``children`` (of the root) with each run of them but the background written
        as text once: a document drawn again with other layers between (the variants of one
        position under each set of display options) writes the layers they share once.
        The background and the definitions stay elements: the background's height follows
        the canvas's, and a layer drawn later may define a marker."""
        result: list[Element | _Written | _WrittenLayers] = []
        texts: list[str] = []
        for child in children:
            if child is self._background or child is self._defs:
                if texts:
                    result.append(_WrittenLayers(texts))
                    texts = []
                result.append(child)
            else:
                child.write(texts)
        if texts:
            result.append(_WrittenLayers(texts))
        return result

    def group(self, css_class: str, parent: Element | None = None,
              **attributes: Any) -> Element:
        """A ``<g>`` of class ``css_class`` (a layer: board, pieces, marks, ...)."""
        if attributes:
            return self.element(self.root if parent is None else parent, "g",
                                class_=css_class, **attributes)
        layer = Element("g", {"class": css_class})   # the common case, without formatting
        (self.root if parent is None else parent).children.append(layer)
        return layer

    def label(self, parent: Element, x: float, y: float, text: str, *,
              font_size: float = 12, anchor: str = "middle", **attributes: Any) -> Element:
        """A text label centred (by default) on ``x``, with its baseline at ``y``."""
        attributes.setdefault("font_family", FONT_FAMILY)
        return self.element(parent, "text", text, x=x, y=y, font_size=font_size,
                            text_anchor=anchor, **attributes)

    def coordinates(self, labels: Iterable[tuple[float, float, str]], *,
                    font_size: float = 12, css_class: str = "coordinates",
                    key: Hashable | None = None) -> Element:
        """The board's coordinate labels, each ``(x, y, text)``, in one group; drawn once
        for all documents when ``key`` names the labels (a game's fixed board)."""
        layer = self.group(css_class)

        def draw(parent: Element) -> None:
            for x, y, text in labels:
                self.label(parent, x, y, text, font_size=font_size, class_="coordinate",
                           fill=TEXT_COLOUR)
        if key is None:
            draw(layer)
        else:
            self.cached(layer, ("coordinates", key, font_size), draw)
        return layer

    def mark_group(self, option: str) -> Element:
        """The group that holds what the display option ``option`` draws (``mark-<option>``),
        so that a viewer can toggle it and a test can find it."""
        return self.group(f"mark-{option}")

    def caption(self, lines: Sequence[str], *, margin: float, dark_to_move: bool | None = None,
                font_size: float = CAPTION_SIZE) -> None:
        """The caption under the board: ``lines`` (the first one names the side to move),
        each wrapped to the canvas width less ``margin`` on both sides, the canvas grown to
        hold them. ``dark_to_move`` puts a disc in the mover's colours before the first line.
        A caption already written at the same place of a canvas as wide is reused (the
        drawings of one position under each set of display options share theirs)."""
        self._below(("caption", tuple(lines), margin, dark_to_move, font_size),
                    partial(self._caption, lines, margin, dark_to_move, font_size))

    def _caption(self, lines: Sequence[str], margin: float, dark_to_move: bool | None,
                 font_size: float) -> Element:
        layer = self.group("caption")
        step = font_size * LINE_SPACING
        self.grow(font_size * 0.5)
        x, width = margin, self.width - 2 * margin
        for index, line in enumerate(lines):
            indent = 0.0
            if index == 0 and dark_to_move is not None:
                radius = font_size * 0.4
                colours = DARK if dark_to_move else LIGHT
                self.element(layer, "circle", class_="to-move", cx=x + radius,
                             cy=self.height + step / 2, r=radius, fill=colours["fill"],
                             stroke=LIGHT["stroke"], stroke_width=1)
                indent = 2 * radius + font_size * 0.4
            for text in wrap(line, width - indent, font_size):
                baseline = self.grow(step) + step / 2 + font_size * 0.35
                self.label(layer, x + indent, baseline, text,
                           font_size=font_size, anchor="start", fill=TEXT_COLOUR,
                           class_="caption-line")
        self.grow(font_size * 0.5)
        return layer

    def legend(self, entries: Sequence[LegendEntry] | Callable[[], Sequence[LegendEntry]], *,
               margin: float, font_size: float = CAPTION_SIZE,
               key: Hashable | None = None) -> None:
        """A legend under the board: each entry's symbol and text, laid out in rows that wrap
        at the canvas width less ``margin`` (a text too long for one row wraps under its
        symbol); the canvas grows to hold it. With ``key`` naming what the entries depend on
        (the game and its marks), a legend already laid out at the same place of a canvas as
        wide is reused as written (one is drawn under every position). ``entries`` may be a
        function that returns them, called only when the legend is laid out (not when it
        is reused)."""
        draw = partial(self._legend, entries, margin=margin, font_size=font_size)
        if key is None:
            draw()
        else:
            self._below(("legend", key, margin, font_size), draw)

    def _below(self, key: Hashable, draw: Callable[[], Element]) -> None:
        """Add the layer ``draw()`` adds under the board (growing the canvas), reusing the
        text and the height kept under ``key`` by a canvas as wide and as high; a layer that
        defines a marker is drawn but not kept (its text would name this document's)."""
        full_key = (key, self.width, self.height)
        text = _DRAWN.get(full_key)
        if text is not None:
            # The kept text itself (not a copy): a viewer looks each drawing's runs up.
            self.root.children.append(_Written(text))
            self.height = _HEIGHTS[full_key]
            return
        markers = len(self._markers)
        layer = draw()
        if len(self._markers) == markers:
            out: list[str] = []
            layer.write(out)
            text = "".join(out)
            _keep(full_key, text)
            _HEIGHTS[full_key] = self.height
            # Its text in its place, as when it is reused: written once, and one run of
            # lines (SvgDocument.to_runs) whether drawn now or reused.
            children = self.root.children
            if children and children[-1] is layer:
                children[-1] = _Written(text)

    def _legend(self, entries: Sequence[LegendEntry] | Callable[[], Sequence[LegendEntry]], *,
                margin: float, font_size: float) -> Element:
        if callable(entries):
            entries = entries()
        layer = self.group("legend")
        step = font_size * LINE_SPACING
        box = font_size * 1.1
        gap = font_size * 0.5
        room = self.width - 2 * margin
        rows: list[list[tuple[LegendEntry, list[str], float]]] = [[]]
        used = 0.0
        for entry in entries:
            lines = wrap(entry.text, room - box - gap, font_size)
            width = box + gap + max(text_width(line, font_size) for line in lines)
            if rows[-1] and (len(lines) > 1 or used + width > room):
                rows.append([])
                used = 0.0
            rows[-1].append((entry, lines, width))
            used += width + 2 * gap
        self.grow(font_size * 0.25)
        for row in rows:
            height = max(len(lines) for _, lines, _ in row) * step
            top = self.grow(height)
            x = margin
            for entry, lines, width in row:
                item = self.group("legend-entry", layer)
                entry.draw(self, item, x, top + (step - box) / 2, box)
                for number_, line in enumerate(lines):
                    self.label(item, x + box + gap, top + number_ * step + step / 2
                               + font_size * 0.35, line, font_size=font_size, anchor="start",
                               fill=TEXT_COLOUR)
                x += width + 2 * gap
        self.grow(font_size * 0.5)
        return layer

    def name(self, parent: Element, text: str) -> Element:
        """The ``<title>`` of ``parent``: the name a browser shows when the pointer rests on
        it (a piece's full name)."""
        return self.element(parent, "title", text)

    def piece_disc(self, parent: Element, cx: float, cy: float, radius: float, *,
                   dark: bool, letter: str | None = None, font_size: float | None = None,
                   css_class: str = "piece", ring: str | None = None,
                   name: str | None = None, colours: dict[str, str] | None = None,
                   **attributes: Any) -> Element:
        """A piece as a disc in its side's colours (or ``colours``, a game's own) with an
        optional letter on it; ``ring`` is a stroke colour that marks the piece (a loop, a
        selected unit); ``name`` its full name, shown on hover."""
        colours = colours or (DARK if dark else LIGHT)
        piece = self.group(f"{css_class} {'dark' if dark else 'light'}", parent, **attributes)
        if name is not None:
            self.name(piece, name)
        self.element(piece, "circle", cx=cx, cy=cy, r=radius, fill=colours["fill"],
                     stroke=ring or colours["stroke"],
                     stroke_width=max(radius / 6, 1) * (2 if ring else 1))
        if letter:
            size = font_size or radius * 1.1
            self.label(piece, cx, cy + size * 0.35, letter, font_size=size,
                       font_weight="bold", fill=colours["text"], class_="piece-letter")
        return piece

    def arrow_marker(self, colour: str = MARK_LINE) -> str:
        """The ``url(#...)`` of an arrowhead marker in ``colour`` (defined once per colour)."""
        if colour not in self._markers:
            marker_id = f"arrowhead-{len(self._markers) + 1}"
            self._definitions().children.append(_Written(_arrow_marker_text(marker_id, colour)))
            self._markers[colour] = f"url(#{marker_id})"
        return self._markers[colour]

    def hatch_pattern(self, colour: str) -> str:
        """The ``url(#...)`` of a pattern of diagonal hatching in ``colour`` (defined once per
        colour, in ``<defs>``)."""
        key = f"hatch {colour}"
        if key not in self._markers:
            pattern_id = f"hatch-{len(self._markers) + 1}"
            self._definitions().children.append(
                _Written(_hatch_pattern_text(pattern_id, colour)))
            self._markers[key] = f"url(#{pattern_id})"
        return self._markers[key]

    def _definitions(self) -> Element:
        if self._defs is None:
            self._defs = Element("defs")
            self.root.children.insert(2, self._defs)  # after <title> and <desc>
        return self._defs

    def last_move_line(self, parent: Element, points: Sequence[tuple[float, float]], *,
                       colour: str = LAST_MOVE_LINE, width: float = 4, arrow: bool = False,
                       dashed: bool = False, css_class: str = "path") -> Element:
        """A last move's path through ``points`` (a line with an arrowhead when ``arrow``)."""
        return self.element(
            parent, "polyline", class_=css_class,
            points=" ".join(f"{number(x)},{number(y)}" for x, y in points), fill="none",
            stroke=colour, stroke_width=width, stroke_linejoin="round",
            stroke_linecap="round", stroke_dasharray="6,4" if dashed else None,
            marker_end=self.arrow_marker(colour) if arrow else None)

    def to_string(self) -> str:
        """The document as SVG text, one element a line (a group's children on the lines
        between its opening and closing tags)."""
        return SvgText.of(self._lines())

    def to_runs(self) -> tuple[str, ...]:
        """The runs of :meth:`to_string`'s text (:func:`runs_of`), not joined."""
        return runs_of(self._lines())

    def _lines(self) -> list[str]:
        width, height, view_box, background = _size_texts(self.width, self.height,
                                                           self._scale)
        self.root.set("width", width)
        self.root.set("height", height)
        self.root.set("viewBox", view_box)
        if self._background is not None:
            self._background.set("height", background)
        out: list[str] = []
        self.root.write(out)
        out[-1] = out[-1][:-1]  # no line break after </svg>
        return out


@lru_cache(maxsize=256)
def _size_texts(width: float, height: float, scale: float) -> tuple[str, str, str, str]:
    """A canvas's ``width``, ``height`` and ``viewBox`` as the ``<svg>`` element writes
    them, and its background's height (the drawings of one game share a few sizes)."""
    return (number(width * scale), number(height * scale),
            f"0 0 {number(width)} {number(height)}", number(height))


@lru_cache(maxsize=64)
def _arrow_marker_text(marker_id: str, colour: str) -> str:
    """The written ``<marker>`` of an arrowhead (the same text in every document that
    defines it under that id: written once, not built element by element each time)."""
    marker = Element("marker", _attributes({"id": marker_id, "markerWidth": 8,
                                            "markerHeight": 8, "refX": 6, "refY": 4,
                                            "orient": "auto"}))
    marker.children.append(Element("path", _attributes({"d": "M0,0 L8,4 L0,8 z",
                                                        "fill": colour})))
    out: list[str] = []
    marker.write(out)
    return "".join(out)


@lru_cache(maxsize=64)
def _hatch_pattern_text(pattern_id: str, colour: str) -> str:
    """The written ``<pattern>`` of diagonal hatching (as :func:`_arrow_marker_text`)."""
    pattern = Element("pattern", _attributes({"id": pattern_id, "width": 6, "height": 6,
                                              "patternUnits": "userSpaceOnUse",
                                              "patternTransform": "rotate(45)"}))
    pattern.children.append(Element("rect", _attributes({"x": 0, "y": 0, "width": 2.5,
                                                         "height": 6, "fill": colour})))
    out: list[str] = []
    pattern.write(out)
    return "".join(out)


def legend_document(title: str, entries: Sequence[LegendEntry], *, width: float = 360,
                    font_size: float = CAPTION_SIZE) -> str:
    """A standalone SVG key: ``entries`` laid out as :meth:`SvgDocument.legend` lays them
    out under a board, ``width`` user units wide; ``''`` when there is nothing to explain."""
    if not entries:
        return ""
    doc = SvgDocument(width, 0, title=title, description=title, background="#ffffff")
    doc.legend(entries, margin=font_size / 2, font_size=font_size)
    return doc.to_string()


def legend_disc(dark: bool, *, ring: str | None = None) -> Callable[
        [SvgDocument, Element, float, float, float], None]:
    """A legend symbol: a piece disc of one side (ringed in ``ring`` when given)."""
    def draw(doc: SvgDocument, parent: Element, x: float, y: float, size: float) -> None:
        doc.piece_disc(parent, x + size / 2, y + size / 2, size * 0.4, dark=dark, ring=ring,
                       css_class="legend-piece")
    return draw


def legend_swatch(fill: str, *, stroke: str = "#555555", opacity: float | None = None
                  ) -> Callable[[SvgDocument, Element, float, float, float], None]:
    """A legend symbol: a square of ``fill`` (a square colour, a tint)."""
    def draw(doc: SvgDocument, parent: Element, x: float, y: float, size: float) -> None:
        doc.element(parent, "rect", x=x, y=y, width=size, height=size, fill=fill,
                    fill_opacity=opacity, stroke=stroke, stroke_width=0.5)
    return draw



def legend_line(colour: str, *, dashed: bool = False, arrow: bool = False, width: float = 2
                ) -> Callable[[SvgDocument, Element, float, float, float], None]:
    """A legend symbol: a line across the box as a last move's path or a mark is drawn."""
    def draw(doc: SvgDocument, parent: Element, x: float, y: float, size: float) -> None:
        doc.last_move_line(parent, [(x + 1, y + size / 2), (x + size - (4 if arrow else 1),
                                                             y + size / 2)],
                           colour=colour, width=width / 2 if arrow else width, arrow=arrow,
                           dashed=dashed, css_class="legend-line")
    return draw
