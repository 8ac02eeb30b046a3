"""The viewer page's data written densely: the frames (each step's edits) and the
stored pieces as numbers in :mod:`~notation_tools.pages.number_text`'s notation, instead of
JSON arrays of JSON numbers (a number and its comma took 3.5 to 3.8 characters; here a
frame's numbers take about 1.4 each).

The encoder (:mod:`~notation_tools.pages.drawings`, ``viewer._FrameEncoder``) works on lists
of ints; this is the last step, the page's written form, and ``read_*`` give those lists
back. The page's script (``viewer.js``) reads the page as the ``read_*`` functions here do.

**Frames.** A sequence of frames, one per step in step order (the plain drawings; or one
mark set's layers, :func:`~notation_tools.pages.drawings.layer_numbers`), each the edits of
its parent's (of nothing for the first step), is one string of numbers. A frame is its
number of edits, then each edit ``[at, removed, *added]`` as ``at`` minus where the edit
before it ended (its ``at`` plus its ``removed``; 0 for the first), ``removed``, how many
numbers it adds and each added number as zig-zag of its distance from one more than the
number written before it in the string (from 0 for the first): new pieces come in order, so
a run of them is a run of ``0`` digits.

**Pieces.** The stored pieces are a list of texts and a string of numbers, a head per piece
and what follows it: head 0, a piece written out (the next text); ``1 + 3 * distance``, a
change of the piece ``distance + 1`` before it, followed by how many characters of that
piece's start and end it keeps, the text between being the next text; ``3 * distance``, a
change of the piece ``distance`` before it in several places, followed by how many places
and for each how many characters of that piece it keeps (after the previous place), how
many it leaves out and how many it puts in, the characters put in being the next text, one
place's after the other, and the rest of that piece kept; ``2 + 3 *
template``, a use of that template, followed by its x and y, the names it fills in being
the next texts (as many as the template has gaps). The x is written as its difference
from the x expected, :func:`~notation_tools.pages.number_text.milli_code`: the previous use
of the same template's x plus how far that use moved from the one before it (0 for the
first use; the first use is expected at 0 and moves from 0): a template's uses are
mostly a row of squares or labels drawn one after another at one spacing, so most
differences are 0. The y likewise.

**A drawing alone** (the game's key) is written as a page's drawings are, in little:
``{"templates", "texts", "heads", "lines"}``, its distinct lines stored once (each as a
change of the line before it or a use of a template when that is shorter) and ``lines``
the line numbers in order, each zig-zag of its distance from one more than the line
before it (as a frame's added pieces).

**Position strings.** A step's position string is written whole when it is the first, else
as its token edits of its parent's (:func:`~notation_tools.pages.drawings.text_edits`),
each edit as ``at`` minus where the edit before it ended, ``removed``, the length of the
text it adds (its tokens joined: two tokens that are no separator never stand side by side,
so the text cuts into the same tokens again) and that text.

Pure: no I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from notation_tools.pages.drawings import TOKENS, PieceTable, encode_pieces, text_edits
from notation_tools.pages.number_text import (
    from_milli_code,
    milli_code,
    read_number,
    read_numbers,
    unzigzag,
    write_numbers,
    zigzag,
)
from notation_tools.pages.piece_templates import (
    decode_use,
    from_json_number,
    is_use,
    json_number,
    template_pieces,
)

def write_frames(frames: Sequence[Sequence[Sequence[int]]]) -> str:
    """Frames (each a list of edits ``[at, removed, *added]`` in increasing order and apart,
    as :func:`~notation_tools.pages.drawings.edits` finds them) as one string of numbers.

    >>> write_frames([[[0, 0, 0, 1, 2, 3]], [[2, 1, 4]], [[1, 0, 5]]])
    '100400001211011010'
    """
    numbers: list[int] = []
    previous = -1  # the number added last
    for frame in frames:
        numbers.append(len(frame))
        end = 0
        for at, removed, *added in frame:
            if at < end or removed < 0:
                raise ValueError(f"edits not in increasing order and apart: {frame}")
            numbers += [at - end, removed, len(added)]
            end = at + removed
            for number in added:
                numbers.append(zigzag(number - previous - 1))
                previous = number
    return write_numbers(numbers)


def read_frames(text: str) -> list[list[list[int]]]:
    """The frames :func:`write_frames` wrote as ``text``.

    >>> read_frames('100400001211011010')
    [[[0, 0, 0, 1, 2, 3]], [[2, 1, 4]], [[1, 0, 5]]]
    """
    numbers = read_numbers(text)
    frames: list[list[list[int]]] = []
    previous = -1
    index = 0
    while index < len(numbers):
        count = numbers[index]
        index += 1
        frame: list[list[int]] = []
        end = 0
        for _ in range(count):
            at = end + numbers[index]
            removed, added = numbers[index + 1], numbers[index + 2]
            index += 3
            edit = [at, removed]
            for code in numbers[index:index + added]:
                previous += 1 + unzigzag(code)
                edit.append(previous)
            index += added
            frame.append(edit)
            end = at + removed
        frames.append(frame)
    return frames


def write_pieces(encoded: Sequence[Any], pieces: Sequence[str]) -> tuple[list[str], str]:
    """The stored pieces ``encoded``, the pieces ``pieces`` (each a text, a change of an
    earlier one, ``[base, prefix, suffix, middle]`` or ``[base, spans]``, or a use of a
    template ``[template, x, y]`` or ``[-1 - template, x, y, *names]``, x and y as JSON
    numbers: :func:`~notation_tools.pages.drawings.encode_pieces` and
    :func:`~notation_tools.pages.piece_templates.template_pieces`) as the page's texts and
    heads. A change's kept start and end are counted in UTF-16 code units, as the script
    counts a string (a character beyond U+FFFF is two).

    >>> write_pieces(["<g>", [0, 1, 1, "rect"], [-3, 1.5, 20, "a1"]],
    ...              ["<g>", "<rect>", '<a x="1.5">a1</a>'])
    (['<g>', 'rect', 'a1'], '01118b_LaY')
    """
    texts: list[str] = []
    numbers: list[int] = []
    places = _Places()
    for number, item in enumerate(encoded):
        if isinstance(item, str):
            numbers.append(0)
            texts.append(item)
        elif len(item) == 2:
            base, spans = item
            if not 0 <= base < number:
                raise ValueError(f"piece {number} is a change of piece {base}, not an earlier one")
            numbers += [3 * (number - base), len(spans)]
            text, end = pieces[base], 0
            for kept, removed, inserted in spans:
                numbers += [utf16_length(text[end:end + kept]),
                            utf16_length(text[end + kept:end + kept + removed]),
                            utf16_length(inserted)]
                end += kept + removed
            texts.append("".join(inserted for _, _, inserted in spans))
        elif not is_use(item):
            base, prefix, suffix, middle = item
            if not 0 <= base < number:
                raise ValueError(f"piece {number} is a change of piece {base}, not an earlier one")
            text = pieces[base]
            numbers += [1 + 3 * (number - 1 - base), utf16_length(text[:prefix]),
                        utf16_length(text[len(text) - suffix:])]
            texts.append(middle)
        else:
            template = item[0] if item[0] >= 0 else -1 - item[0]
            expected = places.expected(template)
            place = (from_json_number(item[1]), from_json_number(item[2]))
            places.used(template, place)
            numbers += [2 + 3 * template, milli_code(place[0] - expected[0]),
                        milli_code(place[1] - expected[1])]
            texts += item[3:]
    return texts, write_numbers(numbers)


def _changed(base: str, inserted: str, spans: Sequence[int]) -> str:
    """``base`` changed by ``spans`` (``kept, removed, inserted`` each, in UTF-16 code
    units), the texts inserted being ``inserted`` one after the other."""
    parts = []
    end = at = 0
    length = utf16_length(base)
    for index in range(0, len(spans), 3):
        kept, removed, added = spans[index:index + 3]
        parts += [_utf16_slice(base, end, end + kept), _utf16_slice(inserted, at, at + added)]
        end += kept + removed
        at += added
    parts.append(_utf16_slice(base, end, length))
    return "".join(parts)


class _Places:
    """Where each template was used last and how far that use moved from the one before
    (in thousandths), for the place its next use is expected at."""

    def __init__(self) -> None:
        self._last: dict[int, tuple[int, int, int, int]] = {}

    def expected(self, template: int) -> tuple[int, int]:
        x, y, step_x, step_y = self._last.get(template, (0, 0, 0, 0))
        return x + step_x, y + step_y

    def used(self, template: int, place: tuple[int, int]) -> None:
        x, y, _, _ = self._last.get(template, (0, 0, 0, 0))
        self._last[template] = (place[0], place[1], place[0] - x, place[1] - y)


def utf16_length(text: str) -> int:
    """How many UTF-16 code units ``text`` is (its length in the page's script).

    >>> utf16_length("a\U0001f600"), utf16_length("ab")
    (3, 2)
    """
    if text.isascii():
        return len(text)
    return len(text) + sum(character > "\uffff" for character in text)


def _utf16_slice(text: str, start: int, end: int) -> str:
    """``text[start:end]`` counted in UTF-16 code units (never cutting a character)."""
    if text.isascii():
        return text[start:end]
    return text.encode("utf-16-le")[2 * start:2 * end].decode("utf-16-le")


def read_pieces(texts: Sequence[str], heads: str,
                templates: Sequence[Sequence[Any]]) -> list[str]:
    """The pieces :func:`write_pieces` wrote, as text (as the page's script makes them).

    >>> read_pieces(['<g>', 'rect', 'a1'], '01118b_LaY',
    ...             [[], [], ["xs", '<a x="', 0, '">', 0, "</a>"]])
    ['<g>', '<rect>', '<a x="1.5">a1</a>']
    """
    numbers = read_numbers(heads)
    places = _Places()
    pieces: list[str] = []
    text = 0
    index = 0
    while index < len(numbers):
        rest, kind = divmod(numbers[index], 3)
        if kind == 0 and rest:
            pieces.append(_changed(pieces[len(pieces) - rest], texts[text],
                                   numbers[index + 2:index + 2 + 3 * numbers[index + 1]]))
            text, index = text + 1, index + 2 + 3 * numbers[index + 1]
        elif kind == 0:
            pieces.append(texts[text])
            text, index = text + 1, index + 1
        elif kind == 1:
            base = pieces[len(pieces) - 1 - rest]
            length = utf16_length(base)
            pieces.append(_utf16_slice(base, 0, numbers[index + 1]) + texts[text]
                          + _utf16_slice(base, length - numbers[index + 2], length))
            text, index = text + 1, index + 3
        else:
            names = str(templates[rest][0]).count("s")
            expected = places.expected(rest)
            place = (expected[0] + from_milli_code(numbers[index + 1]),
                     expected[1] + from_milli_code(numbers[index + 2]))
            places.used(rest, place)
            x, y = json_number(place[0]), json_number(place[1])
            pieces.append(decode_use(templates, [-1 - rest if names else rest, x, y,
                                                 *texts[text:text + names]]))
            text, index = text + names, index + 3
    return pieces


def write_text_edits(before: str, after: str) -> str:
    """``after`` as the token edits of ``before``, written densely.

    >>> write_text_edits("a/bc/d e", "a/bx/d f"), write_text_edits("1/2", "1/2")
    ('212bx311f', '')
    """
    written = []
    end = 0
    for at, removed, *added in text_edits(before, after):
        text = "".join(added)
        written += [write_numbers([at - end, removed, len(text)]), text]
        end = at + removed
    return "".join(written)


def read_text_edits(before: str, written: str) -> str:
    """The string :func:`write_text_edits` wrote against ``before``.

    >>> read_text_edits("a/bc/d e", '212bx311f')
    'a/bx/d f'
    """
    tokens = TOKENS.findall(before)
    found = []
    index = end = 0
    while index < len(written):
        at, index = read_number(written, index)
        removed, index = read_number(written, index)
        length, index = read_number(written, index)
        found.append((end + at, removed, TOKENS.findall(written[index:index + length])))
        end += at + removed
        index += length
    for at, removed, added in reversed(found):
        tokens[at:at + removed] = added
    return "".join(tokens)


def write_drawing(svg: str) -> dict[str, Any]:
    """``svg`` (a drawing shown alone, as the game's key) written as the page's drawings are.

    >>> written = write_drawing('<svg>\\n<g>\\n</g>\\n<g>\\n</g>\\n</svg>')
    >>> written["texts"], written["heads"], written["lines"]
    (['<svg>\\n', '<g>\\n', '</g>\\n', '</svg>'], '0000', '000300')
    """
    return dict(_written_drawing(str(svg)))


@functools.lru_cache(maxsize=8)
def _written_drawing(svg: str) -> dict[str, Any]:
    """:func:`write_drawing`, kept: a game's key is the same on every page of a run (the
    dict is copied before it is given out; its lists are not changed by anyone)."""
    table = PieceTable()
    numbers = [ord(number) for number in table.numbers(svg)]
    pieces = table.pieces
    encoded, templates = template_pieces(pieces, encode_pieces(
        pieces, {number: [number - 1] for number in range(1, len(pieces))}))
    texts, heads = write_pieces(encoded, pieces)
    return {"templates": templates, "texts": texts, "heads": heads,
            "lines": write_numbers(zigzag(number - previous - 1)
                                   for previous, number in zip([-1, *numbers], numbers))}


def read_drawing(written: dict[str, Any]) -> str:
    """The drawing :func:`write_drawing` wrote.

    >>> read_drawing(write_drawing('<svg>\\n<g>\\n</g>\\n<g>\\n</g>\\n</svg>'))
    '<svg>\\n<g>\\n</g>\\n<g>\\n</g>\\n</svg>'
    """
    pieces = read_pieces(written["texts"], written["heads"], written["templates"])
    lines = []
    previous = -1
    for code in read_numbers(written["lines"]):
        previous += 1 + unzigzag(code)
        lines.append(pieces[previous])
    return "".join(lines)
