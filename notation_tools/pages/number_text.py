"""Whole numbers written densely as text, for the viewer page's data: a notation, not a
compression (no bytes, no deflate: each number is a few printable characters the page's
script reads back one by one).

A number ``n >= 0`` is written as zero or more *more* digits and one *last* digit, so that
numbers follow each other with no separator: the last digit ends a number. The 46 last
digits are ``0-9``, ``A-Z`` and ``!#$%&'()*+``; the 45 more digits are ``a-z`` and
``,-./:;=>?@[]^_`{|}~``. None of them is ``"``, ``\\`` or ``<``, so the text needs no escape
in a JSON string and can never form ``</`` (or ``<!--``) inside the page's ``<script>``.

Read: ``value = 0``; for each more digit ``m`` (first to last) ``value = value * 45 + m +
1``; then for the last digit ``l``, ``value = value * 46 + l``. So ``0`` to ``45`` take one
character, up to 2,115 two, up to 95,265 three: every number has exactly one writing
(bijective), and small numbers are short.

A signed number is written zig-zag (:func:`zigzag`): ``0, -1, 1, -2, ...`` as ``0, 1, 2,
3, ...``. A number of thousandths (a coordinate) is written :func:`milli_code`: twice its
whole units, zig-zag, when it is whole, else twice its thousandths, zig-zag, plus one.

The page's script (``viewer.js``) holds the same two digit strings and reads numbers as
:func:`read_numbers` does, exactly up to 2 ** 53 (a script's number; a page's numbers are
piece counts and coordinates, far below); tests check that the two agree.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable

LAST_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&'()*+"
"""The digit that ends a number (46 of them): its value is its index."""

MORE_DIGITS = "abcdefghijklmnopqrstuvwxyz,-./:;=>?@[]^_`{|}~"
"""A digit that another follows (45 of them): its value is its index."""

_LAST_BASE = len(LAST_DIGITS)
_MORE_BASE = len(MORE_DIGITS)
_VALUES = {character: (index, True) for index, character in enumerate(LAST_DIGITS)}
_VALUES.update((character, (index, False)) for index, character in enumerate(MORE_DIGITS))


def write_number(value: int) -> str:
    """``value`` (>= 0) in the notation.

    >>> [write_number(n) for n in (0, 9, 10, 45, 46, 2115, 2116)]
    ['0', '9', 'A', '+', 'a0', '~+', 'aa0']
    """
    if value < 0:
        raise ValueError(f"write_number takes no negative number: {value}")
    value, last = divmod(value, _LAST_BASE)
    more = []
    while value > 0:
        value, digit = divmod(value - 1, _MORE_BASE)
        more.append(MORE_DIGITS[digit])
    return "".join(reversed(more)) + LAST_DIGITS[last]


_SHORT = [write_number(value) for value in range(_LAST_BASE * (_MORE_BASE + 1))]
"""The writing of every number of one or two digits (most of a page's), looked up."""


def write_numbers(values: Iterable[int]) -> str:
    """The numbers ``values`` (each >= 0), one after the other.

    >>> write_numbers([3, 0, 100, 12])
    '30b8C'
    """
    short = _SHORT
    return "".join([short[value] if 0 <= value < len(short) else write_number(value)
                    for value in values])


def read_numbers(text: str) -> list[int]:
    """The numbers :func:`write_numbers` wrote in ``text``.

    >>> read_numbers('30b8C')
    [3, 0, 100, 12]
    """
    numbers = []
    value = 0
    for character in text:
        found = _VALUES.get(character)
        if found is None:
            raise ValueError(f"{character!r} is no digit of the notation")
        digit, last = found
        if last:
            numbers.append(value * _LAST_BASE + digit)
            value = 0
        else:
            value = value * _MORE_BASE + digit + 1
    if value:  # a more digit adds at least one: none is left after a last digit
        raise ValueError("the text ends inside a number")
    return numbers


def read_number(text: str, index: int) -> tuple[int, int]:
    """The number written at ``index`` of ``text`` and the index after it (for a text that
    mixes numbers with other text whose length they give).

    >>> read_number("xb8Cyz", 1)
    (100, 3)
    """
    value = 0
    for end in range(index, len(text)):
        found = _VALUES.get(text[end])
        if found is None:
            raise ValueError(f"{text[end]!r} is no digit of the notation")
        digit, last = found
        if last:
            return value * _LAST_BASE + digit, end + 1
        value = value * _MORE_BASE + digit + 1
    raise ValueError("the text ends inside a number")


def zigzag(value: int) -> int:
    """A signed number as one >= 0: ``0, -1, 1, -2, 2`` are ``0, 1, 2, 3, 4``.

    >>> [zigzag(n) for n in (0, -1, 1, -2, 2)]
    [0, 1, 2, 3, 4]
    """
    return -2 * value - 1 if value < 0 else 2 * value


def unzigzag(code: int) -> int:
    """The signed number :func:`zigzag` wrote as ``code``.

    >>> [unzigzag(n) for n in range(5)]
    [0, -1, 1, -2, 2]
    """
    return -(code + 1) // 2 if code % 2 else code // 2


def milli_code(value: int) -> int:
    """A number of thousandths as one >= 0, short when it is whole: ``2 * zigzag(value //
    1000)`` if it is, else ``2 * zigzag(value) + 1``.

    >>> milli_code(42000), milli_code(-3000), milli_code(42500), milli_code(0)
    (168, 10, 170001, 0)
    """
    whole, fraction = divmod(value, 1000)
    return 2 * zigzag(whole) if fraction == 0 else 2 * zigzag(value) + 1


def from_milli_code(code: int) -> int:
    """The thousandths :func:`milli_code` wrote as ``code``.

    >>> from_milli_code(168), from_milli_code(170001)
    (42000, 42500)
    """
    return unzigzag(code // 2) * (1 if code % 2 else 1000)
