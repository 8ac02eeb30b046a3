"""The viewer's pieces stored as templates moved to a place: the same piece drawn at another
square is the same line with every x coordinate moved by one amount and every y by another,
so such a line is stored as ``[template, x, y]``: a template (the line's text around its
coordinates, and each coordinate as its distance from the line's first x or first y) and
where that first x and first y are.

What counts as a coordinate is SVG's own: the attributes ``x``, ``cx``, ``x1``, ``x2``,
``fx`` (and ``y``...), the pairs of ``points``, the absolute commands of a path's ``d`` and
the places of ``translate(x y)`` and ``rotate(angle x y)``. Only a number written the way
:func:`format_milli` writes it (at most three decimals, no useless zero, no exponent) is a
coordinate; any other stays in the template's text. Coordinates are added as integers in
thousandths, so that the page's script (``viewer.js``) gets the very same digits without
floating point; and :func:`template_pieces` keeps a line as it is unless decoding its
template gives it back byte for byte.

Pure: no I/O, no game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Union

Coordinate = tuple[int, int]
"""``(axis, value)``: axis 0 for x and 1 for y, value in thousandths."""

Part = Union[str, Coordinate]

_ATTRIBUTE = re.compile(r'(\s)([\w:-]+)="([^"]*)"')
_X_NAMES = frozenset({"x", "cx", "x1", "x2", "fx"})
_Y_NAMES = frozenset({"y", "cy", "y1", "y2", "fy"})
_NUMBER_TOKEN = re.compile(r"-?[\d.]+(?:[eE][-+]?\d+)?")
_CANONICAL = re.compile(r"-?(?:0|[1-9]\d{0,11})(?:\.\d{0,2}[1-9])?")
_PATH_TOKEN = re.compile(r"[A-Za-z]|-?[\d.]+(?:[eE][-+]?\d+)?")
_FUNCTION = re.compile(r"(\w+)\(([^)]*)\)")

# The axes of a path command's numbers, repeated as often as the command is: None is a
# number that is no coordinate (a radius, a flag, an angle). Relative commands move
# nothing, so none of their numbers is a coordinate.
_PATH_AXES: dict[str, tuple[int | None, ...]] = {
    "M": (0, 1), "L": (0, 1), "T": (0, 1), "H": (0,), "V": (1,),
    "C": (0, 1, 0, 1, 0, 1), "S": (0, 1, 0, 1), "Q": (0, 1, 0, 1),
    "A": (None, None, None, None, None, 0, 1),
}
_FUNCTION_AXES: dict[str, tuple[int | None, ...]] = {
    "translate": (0, 1), "rotate": (None, 0, 1),
}


def format_milli(value: int) -> str:
    """A number of thousandths written as the drawings write numbers (and as the page's
    script writes them).

    >>> format_milli(12500), format_milli(-3000), format_milli(7), format_milli(0)
    ('12.5', '-3', '0.007', '0')
    """
    sign = "-" if value < 0 else ""
    whole, fraction = divmod(abs(value), 1000)
    text = f"{sign}{whole}"
    return f"{text}.{fraction:03d}".rstrip("0") if fraction else text


def parse_milli(text: str) -> int | None:
    """``text`` in thousandths if it is a number :func:`format_milli` writes so, else None.

    >>> parse_milli("-12.25"), parse_milli("12.50"), parse_milli("1e3"), parse_milli("-0")
    (-12250, None, None, None)
    """
    if not _CANONICAL.fullmatch(text) or text == "-0":
        return None
    negative = text.startswith("-")
    whole, _, fraction = text.lstrip("-").partition(".")
    value = int(whole) * 1000 + int(fraction.ljust(3, "0") or 0)
    return -value if negative else value


def line_parts(line: str) -> list[Part]:
    """``line`` cut into its text and its coordinates (joined by :func:`join_parts` they
    give ``line`` again).

    >>> line_parts('<circle cx="12.5" cy="-3" r="4"/>')
    ['<circle cx="', (0, 12500), '" cy="', (1, -3000), '" r="4"/>']
    """
    parts: list[Part] = []
    done = 0
    for match in _ATTRIBUTE.finditer(line):
        name, start = match.group(2), match.start(3)
        for axis, number_start, number_end in _value_coordinates(name, match.group(3)):
            value = parse_milli(match.group(3)[number_start:number_end])
            if value is not None:
                parts += [line[done:start + number_start], (axis, value)]
                done = start + number_end
    parts.append(line[done:])
    return parts


def _value_coordinates(name: str, value: str) -> list[tuple[int, int, int]]:
    """Where the coordinates of attribute ``name``'s value are: ``(axis, start, end)``."""
    if name in _X_NAMES or name in _Y_NAMES:
        return [(0 if name in _X_NAMES else 1, 0, len(value))]
    if name == "points":
        return [(index % 2, number.start(), number.end())
                for index, number in enumerate(_NUMBER_TOKEN.finditer(value))]
    if name == "d":
        return _path_coordinates(value)
    if name == "transform":
        found = []
        for function in _FUNCTION.finditer(value):
            axes = _FUNCTION_AXES.get(function.group(1), ())
            numbers = list(_NUMBER_TOKEN.finditer(function.group(2)))
            if len(numbers) == len(axes):
                at = function.start(2)
                found += [(axis, at + number.start(), at + number.end())
                          for axis, number in zip(axes, numbers) if axis is not None]
        return found
    return []


def _path_coordinates(value: str) -> list[tuple[int, int, int]]:
    found = []
    axes: tuple[int | None, ...] = ()
    count = 0
    for token in _PATH_TOKEN.finditer(value):
        if token.group().isalpha():
            axes, count = _PATH_AXES.get(token.group(), ()), 0
            continue
        if axes:
            axis = axes[count % len(axes)]
            if axis is not None:
                found.append((axis, token.start(), token.end()))
        count += 1
    return found


def join_parts(parts: Sequence[Part]) -> str:
    return "".join(part if isinstance(part, str) else format_milli(part[1]) for part in parts)


class Templates:
    """The templates of a page's pieces, each stored once, by number."""

    def __init__(self) -> None:
        self.stored: list[list[Any]] = []
        self._numbers: dict[tuple[Any, ...], int] = {}

    def key(self, parts: Sequence[Part]) -> tuple[tuple[Any, ...], Coordinate] | None:
        """The template of a line cut into ``parts`` and its origin (its first x and first
        y, 0 for an axis it has none of); None when it has no coordinate."""
        coordinates = [part for part in parts if not isinstance(part, str)]
        if not coordinates:
            return None
        origin = tuple(next((value for axis, value in coordinates if axis == wanted), 0)
                       for wanted in (0, 1))
        shape = tuple(part if isinstance(part, str) else (part[0], part[1] - origin[part[0]])
                      for part in parts)
        return shape, (origin[0], origin[1])

    def number(self, shape: tuple[Any, ...]) -> int:
        """The number of template ``shape`` (stored when new)."""
        number = self._numbers.get(shape)
        if number is None:
            number = self._numbers[shape] = len(self.stored)
            self.stored.append(_stored(shape))
        return number


def _stored(shape: tuple[Any, ...]) -> list[Any]:
    """A template as the page stores it: ``[axes, text, offset, text, ..., text]``, axes a
    string of ``x`` and ``y``, one for each offset, each offset a JSON number."""
    axes = "".join("xy"[part[0]] for part in shape if not isinstance(part, str))
    return [axes, *(part if isinstance(part, str) else json_number(part[1]) for part in shape)]


def json_number(value: int) -> int | float:
    """Thousandths as the JSON number the page holds (its text is :func:`format_milli`'s)."""
    return value // 1000 if value % 1000 == 0 else float(format_milli(value))


def from_json_number(number: float) -> int:
    """A JSON number in thousandths, as the script reads it (``Math.round(n * 1000)``)."""
    return int(round(number * 1000))


def decode_template(template: Sequence[Any], x: float, y: float) -> str:
    """The line template ``template`` (as stored) makes at origin ``(x, y)``, as the page's
    script makes it.

    >>> decode_template(["xy", '<circle cx="', 0, '" cy="', 2.5, '"/>'], 10, 0.25)
    '<circle cx="10" cy="2.75"/>'
    """
    axes, origin = template[0], (from_json_number(x), from_json_number(y))
    text = [template[1]]
    for index, axis in enumerate(axes):
        offset = from_json_number(template[2 + 2 * index])
        text += [format_milli(origin["xy".index(axis)] + offset), template[3 + 2 * index]]
    return "".join(text)


def template_pieces(pieces: Sequence[str], encoded: Sequence[Any]) -> tuple[list[Any],
                                                                            list[list[Any]]]:
    """``encoded`` (the pieces as :func:`~notation_tools.pages.drawings.encode_pieces` stores
    them) with each piece that a template stores in fewer characters as ``[template, x,
    y]``, and the templates: a template is used when what its pieces save pays for it, and
    a piece only when its template gives it back exactly.

    >>> lines = [f'<rect x="{x}" y="{y}" width="24" fill="#fff"/>' for x, y in
    ...          [(10, 20), (34.5, -4)]]
    >>> template_pieces(lines, lines)  # doctest: +ELLIPSIS
    ([[0, 10, 20], [0, 34.5, -4]], [['xy', '<rect x="', 0, '" y="', 0, '" width="24" ...']])
    """
    templates = Templates()
    chosen: dict[tuple[Any, ...], list[tuple[int, Coordinate]]] = {}
    savings: dict[tuple[Any, ...], int] = {}
    for number, piece in enumerate(pieces):
        found = templates.key(line_parts(piece))
        if found is None:
            continue
        shape, origin = found
        saved = _cost(encoded[number]) - _cost(
            [0, json_number(origin[0]), json_number(origin[1])]) - 1
        if saved > 0:
            chosen.setdefault(shape, []).append((number, origin))
            savings[shape] = savings.get(shape, 0) + saved
    result = list(encoded)
    for shape, uses in chosen.items():
        if savings[shape] <= _cost(_stored(shape)):
            continue
        template = templates.number(shape)
        for number, origin in uses:
            item = [template, json_number(origin[0]), json_number(origin[1])]
            if decode_template(templates.stored[template], item[1], item[2]) == pieces[number]:
                result[number] = item
    return result, templates.stored


def _cost(item: Any) -> int:
    """About how many characters ``item`` takes in the page's JSON."""
    if isinstance(item, str):
        return len(item) + 2 + item.count('"') + item.count("\n")
    if isinstance(item, list):
        return 1 + sum(_cost(part) + 1 for part in item)
    return len(str(item))
