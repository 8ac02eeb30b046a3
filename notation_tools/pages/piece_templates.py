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
from typing import Any, NamedTuple, Union

Coordinate = tuple[int, int]
"""``(axis, value)``: axis 0 for x and 1 for y, value in thousandths."""



class Slot(NamedTuple):
    """A name in a line (its text, an ``id``, a ``class`` or ``data-`` value with a digit in
    it: a square's or a cell's), which each use of a template gives."""

    text: str


Part = Union[str, Coordinate, Slot]

_ATTRIBUTE = re.compile(r'(\s)([\w:-]+)="([^"]*)"')
_X_NAMES = frozenset({"x", "cx", "x1", "x2", "fx"})
_Y_NAMES = frozenset({"y", "cy", "y1", "y2", "fy"})
_NUMBER_TOKEN = re.compile(r"-?[\d.]+(?:[eE][-+]?\d+)?")
_CANONICAL = re.compile(r"-?(?:0|[1-9]\d{0,11})(?:\.\d{0,2}[1-9])?")
_PATH_TOKEN = re.compile(r"[A-Za-z]|-?[\d.]+(?:[eE][-+]?\d+)?")
_NAME_ATTRIBUTES = frozenset({"id", "class"})
_CONTENT = re.compile(r">([^<>]*)</[\w:-]+>\s*$")
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
    """``line`` cut into its text, its coordinates and its names (joined by
    :func:`join_parts` they give ``line`` again).

    >>> line_parts('<circle cx="12.5" cy="-3" r="4"/>')
    ['<circle cx="', (0, 12500), '" cy="', (1, -3000), '" r="4"/>']
    >>> line_parts('<text id="a1" x="5" class="label">19</text>')
    ['<text id="', Slot(text='a1'), '" x="', (0, 5000), '" class="label">', Slot(text='19'), '</text>']
    """
    parts: list[Part] = []
    done = 0
    for start, end, kind in line_spans(line):
        text = line[start:end]
        parts += [line[done:start], Slot(text) if kind == _NAME else (kind, _milli(text))]
        done = end
    parts.append(line[done:])
    return parts


_NAME = 2
"""The kind of a span that is a name (the others are the axes of coordinates, 0 and 1)."""

_SKELETON = str.maketrans("23456789", "11111111")
"""Every digit but 0 written 1: a line's skeleton, which has its coordinates and names at
the same places (a number keeps its length, its sign, its leading and trailing zeros, so
whether it is written as :func:`format_milli` writes it; a value keeps whether it holds a
digit)."""

_BYTES_SKELETON = bytes.maketrans(b"23456789", b"11111111")
_DIGIT_NAME = re.compile(r"\s(?![xy][12]=)[\w:-]*\d[\w:-]*=")
"""An attribute's name with a digit (but ``x1``, ``x2``, ``y1`` and ``y2``, which the
skeleton makes ``x1`` and ``y1``, coordinates of the same axis): the skeleton of
``x3="5"`` would be a coordinate's ``x1="1"``, so such a line is not looked up by its
skeleton."""
_SPANS: dict[bytes, tuple[tuple[int, int, int], ...]] = {}
_SPANS_KEPT = 50_000
"""At most this many skeletons' spans are kept (then they are forgotten and found again)."""


def line_spans(line: str) -> tuple[tuple[int, int, int], ...]:
    """Where ``line``'s coordinates and names are: ``(start, end, kind)`` each, in order,
    kind 0 or 1 a coordinate's axis and :data:`_NAME` a name. Lines that differ only in
    their digits other than 0 (the same element drawn at another square, the same label
    with another number) have them at the same places: they are found once per skeleton
    (:data:`_SKELETON`), which most lines of a page and of the pages after it share.

    >>> line_spans('<rect id="a1" x="12.5" y="-3"/>')
    ((10, 12, 2), (17, 21, 0), (26, 28, 1))
    """
    if _DIGIT_NAME.search(line):
        return _find_spans(line)  # a name the skeleton could change: found in the line
    # Looked up by the skeleton of the line's UTF-8 bytes (bytes.translate runs at C speed;
    # no byte of a character beyond ASCII is a digit, so it is the skeleton's encoding).
    key = line.encode().translate(_BYTES_SKELETON)
    spans = _SPANS.get(key)
    if spans is None:
        if len(_SPANS) >= _SPANS_KEPT:
            _SPANS.clear()
        spans = _SPANS[key] = _find_spans(line.translate(_SKELETON))
    return spans


def _find_spans(line: str) -> tuple[tuple[int, int, int], ...]:
    spans: list[tuple[int, int, int]] = []
    for match in _ATTRIBUTE.finditer(line):
        name, value, start = match.group(2), match.group(3), match.start(3)
        if name in _NAME_ATTRIBUTES or name.startswith("data-"):
            if any(character.isdigit() for character in value):
                spans.append((start, match.end(3), _NAME))
            continue
        for axis, number_start, number_end in _value_coordinates(name, value):
            if parse_milli(value[number_start:number_end]) is not None:
                spans.append((start + number_start, start + number_end, axis))
    content = _CONTENT.search(line)
    if content and content.group(1):
        spans.append((content.start(1), content.end(1), _NAME))
    return tuple(sorted(spans))


def _milli(text: str) -> int:
    """A number written as :func:`format_milli` writes it, in thousandths."""
    whole, _, fraction = text.partition(".")
    value = abs(int(whole)) * 1000 + (int(fraction.ljust(3, "0")) if fraction else 0)
    return -value if text[0] == "-" else value


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
    return "".join(part if isinstance(part, str) else part.text if isinstance(part, Slot)
                   else format_milli(part[1]) for part in parts)


Use = tuple[Coordinate, tuple[str, ...]]
"""Where a line stands (its first x and first y) and its names: what a use of a template
gives."""


class Templates:
    """The templates of a page's pieces, each stored once, by number."""

    def __init__(self) -> None:
        self.stored: list[list[Any]] = []
        self._numbers: dict[tuple[Any, ...], int] = {}

    @staticmethod
    def key(parts: Sequence[Part]) -> tuple[tuple[Any, ...], Use] | None:
        """The template of a line cut into ``parts`` and its use: its origin (its first x
        and first y, 0 for an axis it has none of) and its names; None when it has no
        coordinate."""
        coordinates = [part for part in parts
                       if not isinstance(part, (str, Slot))]
        if not coordinates:
            return None
        origin = (next((value for axis, value in coordinates if axis == 0), 0),
                  next((value for axis, value in coordinates if axis == 1), 0))
        shape = tuple(part if isinstance(part, str) else None if isinstance(part, Slot)
                      else (part[0], part[1] - origin[part[0]]) for part in parts)
        return shape, (origin, tuple(part.text for part in parts if isinstance(part, Slot)))

    def number(self, shape: tuple[Any, ...]) -> int:
        """The number of template ``shape`` (stored when new)."""
        number = self._numbers.get(shape)
        if number is None:
            number = self._numbers[shape] = len(self.stored)
            self.stored.append(list(stored_template(shape)))
        return number


def _stored(shape: tuple[Any, ...]) -> list[Any]:
    """A template as the page stores it: ``[kinds, text, offset, text, ..., text]``, kinds a
    string of ``x``, ``y`` and ``s``, one for each place between texts: an offset from the
    use's x or y (a JSON number), or a name the use gives (``s``, stored as 0)."""
    kinds = "".join("s" if part is None else "xy"[part[0]] for part in shape
                    if not isinstance(part, str))
    return [kinds, *(part if isinstance(part, str) else 0 if part is None
                     else json_number(part[1]) for part in shape)]


def use_item(template: int, use: Use) -> list[Any]:
    """A piece as the use ``use`` of template number ``template``: ``[template, x, y]``,
    or with names ``[-1 - template, x, y, *names]``."""
    (x, y), names = use
    if names:
        return [-1 - template, json_number(x), json_number(y), *names]
    return [template, json_number(x), json_number(y)]


def json_number(value: int) -> int | float:
    """Thousandths as the JSON number the page holds (its text is :func:`format_milli`'s)."""
    return value // 1000 if value % 1000 == 0 else float(format_milli(value))


def from_json_number(number: float) -> int:
    """A JSON number in thousandths, as the script reads it (``Math.round(n * 1000)``)."""
    return int(round(number * 1000))


def decode_use(templates: Sequence[Sequence[Any]], item: Sequence[Any]) -> str:
    """The line a use of a template (as :func:`use_item` writes it) makes, as the page's
    script makes it.

    >>> decode_use([["xys", '<text x="', 0, '" y="', 2.5, '">', 0, '</text>']],
    ...            [-1, 10, 0.25, "K"])
    '<text x="10" y="2.75">K</text>'
    """
    template = templates[item[0] if item[0] >= 0 else -1 - item[0]]
    origin = {"x": from_json_number(item[1]), "y": from_json_number(item[2])}
    names = iter(item[3:])
    text = [template[1]]
    for index, kind in enumerate(template[0]):
        if kind == "s":
            text.append(next(names))
        else:
            text.append(format_milli(origin[kind] + from_json_number(template[2 + 2 * index])))
        text.append(template[3 + 2 * index])
    return "".join(text)


def is_use(item: Sequence[Any]) -> bool:
    """Whether a stored piece that is no text is a use of a template (else it is a change
    of an earlier piece, ``[base, prefix, suffix, middle]``)."""
    return len(item) == 3 or item[0] < 0


def template_pieces(pieces: Sequence[str], encoded: Sequence[Any]) -> tuple[list[Any],
                                                                            list[list[Any]]]:
    """``encoded`` (the pieces as :func:`~notation_tools.pages.drawings.encode_pieces` stores
    them) with each piece that a template stores in fewer characters as a use of it
    (:func:`use_item`), and the templates: a template is used when what its pieces save pays
    for it, and a piece only when its template gives it back exactly.

    >>> lines = [f'<rect x="{x}" y="{y}" width="24" fill="#fff"/>' for x, y in
    ...          [(10, 20), (34.5, -4)]]
    >>> template_pieces(lines, lines)  # doctest: +ELLIPSIS
    ([[0, 10, 20], [0, 34.5, -4]], [['xy', '<rect x="', 0, '" y="', 0, '" width="24" ...']])
    """
    templates = Templates()
    chosen: dict[tuple[Any, ...], list[tuple[int, Use]]] = {}
    savings: dict[tuple[Any, ...], int] = {}
    for number, piece in enumerate(pieces):
        cost = _cost(encoded[number])
        if cost <= _LEAST_USE_COST + 1:
            continue  # a use of a template would not be shorter
        found = line_template(piece)
        if found is None:
            continue
        shape, use, use_cost = found
        saved = cost - use_cost - 1
        if saved > 0:
            chosen.setdefault(shape, []).append((number, use))
            savings[shape] = savings.get(shape, 0) + saved
    used = [(shape, exact) for shape, uses in chosen.items()
            if savings[shape] > _cost(stored_template(shape))
            for exact in [[(number, use) for number, use in uses if gives_back(pieces[number])]]
            if exact]
    # The most used templates first: their numbers, in each use's head, are the shortest.
    used.sort(key=lambda found: -len(found[1]))
    result = list(encoded)
    for shape, uses in used:
        template = templates.number(shape)
        for number, use in uses:
            result[number] = use_item(template, use)
    return result, templates.stored


_LINES: dict[str, tuple[tuple[Any, ...], Use, int] | None] = {}
_EXACT: dict[str, bool] = {}
_SHAPES: dict[tuple[Any, ...], list[Any]] = {}
_LINES_KEPT = 50_000
"""At most this many lines (and shapes) are kept by :func:`line_template`,
:func:`gives_back` and :func:`stored_template` (then they are forgotten and found again).
Pages built one after the other in a process share most of their lines (a game's board,
its labels, the squares and units of its first position), each found once."""


def line_template(line: str) -> tuple[tuple[Any, ...], Use, int] | None:
    """The template of ``line`` (:meth:`Templates.key`), its use and what the use costs
    (:func:`_cost` of :func:`use_item`), or None when it has no coordinate."""
    found = _LINES.get(line, False)
    if found is False:
        if len(_LINES) >= _LINES_KEPT:
            _LINES.clear()
        key = Templates.key(line_parts(line))
        found = _LINES[line] = None if key is None else (*key, _cost(use_item(0, key[1])))
    return found  # type: ignore[return-value]  # False is never kept


def gives_back(line: str) -> bool:
    """Whether ``line`` is given back byte for byte by its use of its template, read as
    the page's script reads it (through JSON numbers: :func:`decode_use`)."""
    exact = _EXACT.get(line)
    if exact is None:
        if len(_EXACT) >= _LINES_KEPT:
            _EXACT.clear()
        found = line_template(line)
        exact = _EXACT[line] = found is not None and decode_use(
            [stored_template(found[0])], use_item(0, found[1])) == line
    return exact


def stored_template(shape: tuple[Any, ...]) -> list[Any]:
    """The template ``shape`` as the page stores it (:func:`_stored`), made once."""
    stored = _SHAPES.get(shape)
    if stored is None:
        if len(_SHAPES) >= _LINES_KEPT:
            _SHAPES.clear()
        stored = _SHAPES[shape] = _stored(shape)
    return stored


_LEAST_USE_COST = 7
"""What the shortest use of a template costs (:func:`_cost` of ``[0,0,0]``)."""


def _cost(item: Any) -> int:
    """About how many characters ``item`` takes in the page's JSON."""
    if isinstance(item, str):
        return len(item) + 2 + item.count('"') + item.count("\n")
    if isinstance(item, list):
        return 1 + sum(_cost(part) + 1 if isinstance(part, (str, list)) else len(str(part)) + 1
                       for part in item)
    return len(str(item))
