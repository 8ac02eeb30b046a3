"""One SVG document helper for every game's picture (G9): the document with its title and
text-diagram description, groups, coordinate labels, piece discs and last-move marks, in one
visual language (font, the two sides' colours, the last-move colours).

A game's ``render.py`` computes where things go; this module writes them. Attribute names are
given as Python keywords with ``_`` for ``-`` (``stroke_width``, ``data_square``; ``class_``
for ``class``), numbers are written with at most two decimals. Pure functions and objects:
nothing here reads, prints or knows a game.

>>> doc = SvgDocument(100, 60, title="Example", description="a diagram")
>>> print(doc.to_string())
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="100" height="60" viewBox="0 0 100 60"><title>Example</title><desc>a diagram</desc></svg>
>>> piece = doc.piece_disc(doc.group("pieces"), 30, 30, 12, dark=True, letter="K")
>>> doc.to_string().count("<circle")
1
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
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


def number(value: float) -> str:
    """A coordinate as SVG text: integers plain, other values with at most two decimals.

    >>> number(12), number(12.0), number(3.14159), number(-0.001)
    ('12', '12', '3.14', '0')
    """
    if isinstance(value, int):
        return str(value)
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attributes(attributes: dict[str, Any]) -> dict[str, str]:
    written = {}
    for key, value in attributes.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        written[name] = number(value) if isinstance(value, (int, float)) and not isinstance(
            value, bool) else str(value)
    return written


class SvgDocument:
    """An SVG document under construction: ``width`` × ``height`` user units (drawn at
    ``size`` pixels wide when given), a ``<title>`` and the text diagram as ``<desc>``, and an
    optional background rectangle."""

    def __init__(self, width: float, height: float, *, title: str, description: str,
                 size: float | None = None, background: str | None = None) -> None:
        scale = (size / width) if size else 1
        self.root = ET.Element("svg", _attributes({
            "xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
            "width": width * scale, "height": height * scale,
            "viewBox": f"0 0 {number(width)} {number(height)}"}))
        ET.SubElement(self.root, "title").text = title
        ET.SubElement(self.root, "desc").text = description
        self.width, self.height = width, height
        self._defs: ET.Element | None = None
        self._markers: dict[str, str] = {}
        if background is not None:
            self.element(self.root, "rect", class_="background", x=0, y=0, width=width,
                         height=height, fill=background)

    def element(self, parent: ET.Element, tag: str, text: str | None = None,
                **attributes: Any) -> ET.Element:
        """A child ``tag`` of ``parent`` with ``attributes`` (and ``text``)."""
        child = ET.SubElement(parent, tag, _attributes(attributes))
        if text is not None:
            child.text = text
        return child

    def group(self, css_class: str, parent: ET.Element | None = None,
              **attributes: Any) -> ET.Element:
        """A ``<g>`` of class ``css_class`` (a layer: board, pieces, marks, ...)."""
        return self.element(self.root if parent is None else parent, "g", class_=css_class,
                            **attributes)

    def label(self, parent: ET.Element, x: float, y: float, text: str, *,
              font_size: float = 12, anchor: str = "middle", **attributes: Any) -> ET.Element:
        """A text label centred (by default) on ``x``, with its baseline at ``y``."""
        attributes.setdefault("font_family", FONT_FAMILY)
        return self.element(parent, "text", text, x=x, y=y, font_size=font_size,
                            text_anchor=anchor, **attributes)

    def coordinates(self, labels: Iterable[tuple[float, float, str]], *,
                    font_size: float = 12) -> ET.Element:
        """The board's coordinate labels, each ``(x, y, text)``, in one group."""
        layer = self.group("coordinates")
        for x, y, text in labels:
            self.label(layer, x, y, text, font_size=font_size, class_="coordinate")
        return layer

    def piece_disc(self, parent: ET.Element, cx: float, cy: float, radius: float, *,
                   dark: bool, letter: str | None = None, font_size: float | None = None,
                   css_class: str = "piece", ring: str | None = None,
                   **attributes: Any) -> ET.Element:
        """A piece as a disc in its side's colours with an optional letter on it; ``ring``
        is a stroke colour that marks the piece (a loop, a selected unit)."""
        colours = DARK if dark else LIGHT
        piece = self.group(f"{css_class} {'dark' if dark else 'light'}", parent, **attributes)
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
            if self._defs is None:
                self._defs = ET.Element("defs")
                self.root.insert(2, self._defs)  # after <title> and <desc>
            marker_id = f"arrowhead-{len(self._markers) + 1}"
            marker = self.element(self._defs, "marker", id=marker_id, markerWidth=8,
                                  markerHeight=8, refX=6, refY=4, orient="auto")
            self.element(marker, "path", d="M0,0 L8,4 L0,8 z", fill=colour)
            self._markers[colour] = f"url(#{marker_id})"
        return self._markers[colour]

    def last_move_line(self, parent: ET.Element, points: Sequence[tuple[float, float]], *,
                       colour: str = LAST_MOVE_LINE, width: float = 4, arrow: bool = False,
                       dashed: bool = False, css_class: str = "path") -> ET.Element:
        """A last move's path through ``points`` (a line with an arrowhead when ``arrow``)."""
        return self.element(
            parent, "polyline", class_=css_class,
            points=" ".join(f"{number(x)},{number(y)}" for x, y in points), fill="none",
            stroke=colour, stroke_width=width, stroke_linejoin="round",
            stroke_linecap="round", stroke_dasharray="6,4" if dashed else None,
            marker_end=self.arrow_marker(colour) if arrow else None)

    def to_string(self) -> str:
        """The document as one line of SVG text."""
        return ET.tostring(self.root, encoding="unicode")
