"""The viewer's drawings stored compactly: cut into pieces, each distinct piece stored once,
and each drawing stored as the edits that make it from another drawing.

A drawing is cut into its lines (the games write one element a line), each line a piece.
A drawing is then a sequence of piece numbers, held as a ``str`` of code points (one per
piece) so that comparing, slicing and searching them runs at C speed: the edits between two
drawings are found by stripping their common start and end, then splitting what is left at
a run of pieces found once in both (a move changes a few lines far apart), which costs a few
passes over the drawing instead of difflib's quadratic matching.

Everything here is pure: no I/O, no game. :mod:`notation_tools.pages.viewer` builds the page
from it, and the page's script (``viewer.js``) undoes each encoding the way the ``decode``
functions here do.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Union

from notation_tools.pages.piece_templates import decode_use, is_use
from notation_tools.render.svg import SvgText

LONG_LINE = 600
"""A line longer than this (a drawing not written one element a line) is cut between its
tags, so that a change to one element does not make the whole line a new piece."""

_BETWEEN_TAGS = re.compile(r"(?<=>)(?=<)")

Edit = list[Any]
"""``[at, removed, *added]``: remove ``removed`` pieces at index ``at`` of the drawing edited
and put the pieces numbered ``added`` there."""

Numbers = Union[str, Sequence[int]]
"""A drawing as piece numbers: a ``str`` of code points (as :class:`PieceTable` gives it) or
a sequence of ints."""


def svg_pieces(svg: str) -> list[str]:
    """``svg`` cut into pieces whose concatenation is ``svg`` again: its lines, each with its
    line break, and a line longer than :data:`LONG_LINE` cut after each ``>`` that a ``<``
    follows.

    >>> svg_pieces('<svg>\\n<title>T</title>\\n<desc>a\\nb</desc>\\n</svg>')
    ['<svg>\\n', '<title>T</title>\\n', '<desc>a\\n', 'b</desc>\\n', '</svg>']
    """
    pieces = svg.splitlines(keepends=True)
    if not pieces or max(map(len, pieces)) <= LONG_LINE:
        return pieces
    cut: list[str] = []
    for piece in pieces:
        if len(piece) > LONG_LINE:
            cut.extend(part for part in _BETWEEN_TAGS.split(piece) if part)
        else:
            cut.append(piece)
    return cut


class PieceTable:
    """Every distinct piece of every drawing of a page, each stored once, by number; and
    every distinct run of lines a drawing was given as (:meth:`run_codes`), each cut once,
    by number."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self._numbers: dict[str, str] = {}
        self.runs: list[str] = []
        """Each run's piece numbers, by run number."""
        self._run_codes: dict[str, str] = {}

    def numbers(self, svg: str) -> str:
        """The drawing ``svg`` as piece numbers, one code point each (new pieces are
        added). An :class:`~notation_tools.render.svg.SvgText` is cut run by run, each
        distinct run once: a board or a layer reused from drawing to drawing (the same
        ``str``, its hash kept) costs one lookup instead of one per line."""
        if not isinstance(svg, SvgText) or len(svg.parts) == 1:
            return self._cut(svg)
        return self.run_numbers(svg.parts)

    def run_numbers(self, parts: Sequence[str]) -> str:
        """The drawing whose runs of whole lines are ``parts`` (as
        :meth:`~notation_tools.games.base.Game.render_svg_runs` gives them) as piece
        numbers: :meth:`numbers` of their concatenation, each distinct run cut once."""
        return self.numbers_of_runs(self.run_codes(parts))

    def run_codes(self, parts: Sequence[str]) -> str:
        """The drawing whose runs of whole lines are ``parts`` as run numbers, one code
        point each (:attr:`runs` holds each run's piece numbers; new runs are cut and
        added). Two drawings given as runs share a run number where they share a run's
        text: the drawings of one position under two sets of display options differ in a
        few runs (an option's layer), found by comparing their run numbers instead of their
        hundreds of lines. A drawing given as one run gets a run number of its own, its text
        not kept (a game that draws each picture whole would keep every drawing)."""
        if len(parts) == 1:
            return self._new_run(self._cut(parts[0]))
        return _numbered(parts, self._run_codes, lambda part: self._new_run(self._cut(part)))

    def numbers_of_runs(self, codes: str) -> str:
        """The piece numbers of the drawing whose run numbers are ``codes``."""
        return numbers_of_runs(self.runs, codes)

    def _new_run(self, numbers: str) -> str:
        """The run number of a new run whose piece numbers are ``numbers``."""
        self.runs.append(numbers)
        return chr(len(self.runs) - 1)

    def _cut(self, svg: str) -> str:
        """``svg`` (whole lines) cut into pieces, as piece numbers."""
        return _numbered(svg_pieces(svg), self._numbers, self._new_piece)

    def _new_piece(self, piece: str) -> str:
        """The number of the new piece ``piece``."""
        self.pieces.append(piece)
        return chr(len(self.pieces) - 1)


def _numbered(texts: Sequence[str], known: dict[str, str], new: Callable[[str], str]) -> str:
    """The numbers ``known`` gives ``texts``, one code point each, as a ``str``; a text not
    known yet is numbered by ``new`` (and known from then on)."""
    found = list(map(known.get, texts))  # map: the lookups at C speed
    if None in found:
        for index, number in enumerate(found):
            if number is None:
                text = texts[index]
                number = known.get(text)  # the same text met earlier in ``texts``
                if number is None:
                    number = known[text] = new(text)
                found[index] = number
    return "".join(found)  # type: ignore[arg-type]  # no None is left


def numbers_of_runs(runs: Sequence[str], codes: str) -> str:
    """The piece numbers of the runs numbered ``codes``, ``runs`` holding each run's piece
    numbers by run number (:attr:`PieceTable.runs`).

    >>> numbers_of_runs(["ab", "c"], chr(1) + chr(0) + chr(1))
    'cabc'
    """
    return "".join(map(runs.__getitem__, map(ord, codes)))


def as_text(numbers: Numbers) -> str:
    """Piece numbers as a ``str`` of code points (unchanged if they are one)."""
    return numbers if isinstance(numbers, str) else "".join(map(chr, numbers))


# --------------------------------------------------------------------------------------------
# Edits between drawings


def common_prefix(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` share at their start: slices compared at C
    speed, in windows growing fourfold from the start, then by halving the window where they
    first differ (a segment of a drawing split at a shared run starts where its two sides
    already differ, and most shared starts are short).

    >>> common_prefix("abcdef", "abcxef"), common_prefix("ab", "abc"), common_prefix("", "a")
    (3, 2, 0)
    """
    high = min(len(a), len(b))
    if not high or a[0] != b[0]:
        return 0
    # Each comparison slices one side only (``startswith`` at an index reads the other in
    # place): the slices, not the comparisons, are what this costs.
    if a.startswith(b) if len(a) >= len(b) else b.startswith(a):
        return high
    low, window = 1, 8  # a[:low] == b[:low] and a[:high] != b[:high]
    while low + window < high:
        if not a.startswith(b[low:low + window], low):
            high = low + window
            break
        low += window
        window *= 4
    while high - low > 1:
        middle = (low + high) // 2
        if a.startswith(b[low:middle], low):
            low = middle
        else:
            high = middle
    return low


def common_suffix(a: str, b: str, limit: int) -> int:
    """How many characters ``a`` and ``b`` share at their end, at most ``limit`` (found as
    :func:`common_prefix` finds a start, from the end).

    >>> common_suffix("abcdef", "xbcdef", 6), common_suffix("abc", "abc", 1)
    (5, 1)
    """
    end_a, end_b = len(a), len(b)
    high = min(end_a, end_b, limit)
    if high <= 0 or a[-1] != b[-1]:
        return 0
    if a.endswith(b[end_b - high:]):
        return high
    low, window = 1, 8  # the last low characters agree, the last high do not
    while low + window < high:
        if not a.startswith(b[end_b - low - window:end_b - low], end_a - low - window):
            high = low + window
            break
        low += window
        window *= 4
    while high - low > 1:
        middle = (low + high) // 2
        if a.startswith(b[end_b - middle:end_b - low], end_a - middle):
            low = middle
        else:
            high = middle
    return low


def edits(before: Numbers, after: Numbers) -> list[Edit]:
    """The edits that turn ``before`` into ``after``: ``[at, removed, *added]`` each, ``at``
    an index into ``before``, in increasing order and apart (the script applies them last
    first).

    >>> edits([1, 2, 3, 4], [1, 5, 3, 4, 6])
    [[1, 1, 5], [4, 0, 6]]
    """
    found: list[Edit] = []
    # The segments still to compare, the next one last: a segment split at an anchor is
    # replaced by its part before the anchor, then its part after.
    segments = [(as_text(before), as_text(after), 0)]
    while segments:
        before_part, after_part, offset = segments.pop()
        if not (before_part and after_part):
            if before_part or after_part:  # all removed, or all added
                found.append([offset, len(before_part), *map(ord, after_part)])
            continue
        # Most segments (split at an anchor) differ at once at both ends: the first and
        # last pieces are compared here before calling on the searches.
        start = (common_prefix(before_part, after_part)
                 if before_part[0] == after_part[0] else 0)
        end = (common_suffix(before_part, after_part,
                             min(len(before_part), len(after_part)) - start)
               if before_part[-1] == after_part[-1] else 0)
        if start or end:
            before_part = before_part[start:len(before_part) - end]
            after_part = after_part[start:len(after_part) - end]
            offset += start
        if before_part and after_part:
            anchor = _anchor(before_part, after_part)
            if anchor is not None:
                at, to, length = anchor
                segments.append((before_part[at + length:], after_part[to + length:],
                                 offset + at + length))
                segments.append((before_part[:at], after_part[:to], offset))
                continue
        if before_part or after_part:
            found.append([offset, len(before_part), *map(ord, after_part)])
    return found


def _anchor(before: str, after: str) -> tuple[int, int, int] | None:
    """A run of ``after`` found exactly once in ``before``: (where in ``before``, where in
    ``after``, its length), tried from long runs to single pieces and from the middle of
    ``after`` out; None when no piece of ``after`` is in ``before`` at all."""
    length = min(len(after), 8)
    while length >= 1:
        room = len(after) - length
        tried = -1
        # The places in increasing order, each once (they are: 0 <= room // 4 <= ...).
        for to in (0, room // 4, room // 2, room * 3 // 4, room):
            if to == tried:
                continue
            tried = to
            run = after[to:to + length]
            at = before.find(run)
            if at >= 0 and before.find(run, at + 1) < 0:
                return at, to, length
        length //= 2
    return None


def apply_edits(numbers: Sequence[int], found: Sequence[Edit]) -> list[int]:
    """``numbers`` with the edits :func:`edits` found made, last first (as the script
    does)."""
    result = list(numbers)
    for at, removed, *added in reversed(found):
        result[at:at + removed] = added
    return result


# --------------------------------------------------------------------------------------------
# A display option's layer: what it changes in the plain drawing


def layer_numbers(found: Sequence[Edit]) -> str:
    """The edits ``found`` that turn a plain drawing into another (the same position with
    display options on: :func:`edits` between them) as one sequence of numbers, held as a
    ``str`` of code points like a drawing: for each edit, ``at`` minus where the edit before
    it ended (0 for the first), how many pieces it removes, how many it adds, and the added
    piece numbers. A layer drawn at one position is mostly the same layer at the next, at the
    same places counted this way (a move changes few lines before it), so a page stores a
    mark set's layer per position as the :func:`edits` of the layer of the position before
    it.

    >>> list(map(ord, layer_numbers(edits([1, 2, 3, 4], [1, 5, 3, 4, 6]))))
    [1, 1, 1, 5, 2, 0, 1, 6]
    """
    # Written as code points edit by edit, the added pieces at C speed: a layer that
    # replaces a whole layer of the plain drawing (a maze for the walls) adds hundreds.
    parts: list[str] = []
    end = 0
    for edit in found:
        at, removed = edit[0], edit[1]
        parts.append(chr(at - end) + chr(removed) + chr(len(edit) - 2))
        parts.append("".join(map(chr, itertools.islice(edit, 2, None))))
        end = at + removed
    return "".join(parts)


def layer_edits(layer: Numbers) -> list[Edit]:
    """The edits of the plain drawing that :func:`layer_numbers` wrote as ``layer``.

    >>> layer_edits([1, 1, 1, 5, 2, 0, 1, 6])
    [[1, 1, 5], [4, 0, 6]]
    """
    numbers = list(map(ord, layer)) if isinstance(layer, str) else list(layer)
    found: list[Edit] = []
    end = index = 0
    while index < len(numbers):
        at, removed, count = end + numbers[index], numbers[index + 1], numbers[index + 2]
        found.append([at, removed, *numbers[index + 3:index + 3 + count]])
        end = at + removed
        index += 3 + count
    return found


# --------------------------------------------------------------------------------------------
# Pieces stored as changes of others


def encode_pieces(pieces: Sequence[str], bases: Mapping[int, Iterable[int]]) -> list[Any]:
    """``pieces`` as the page stores them: a piece is its text, or, when one of the earlier
    pieces it may be a change of shares enough of its text, ``[base, prefix, suffix,
    middle]``: the base's first ``prefix`` characters, ``middle``, and the base's last
    ``suffix`` characters, when that is shorter (:data:`CHANGE_COST`). A ply changes a few
    lines of a drawing (a caption's move number, a rank of the text diagram, a piece's
    coordinates), so most new pieces are a small change of an earlier one.
    :func:`decode_pieces` (and the page's script) undo this; :func:`split_changes` writes a
    change in places far apart as those places.

    The earlier pieces tried (:func:`base_candidates`): those ``bases`` names (the pieces
    the new piece replaced in a drawing), the first of those pieces' own first base (the
    same line two versions back: a title or caption that names the side to move is closer
    to the one of the same side's last turn), and the last earlier piece of the same kind
    (:func:`piece_kind`: the same text up to its first digit; a piece in a drawing's first
    frame replaces nothing, and the line before it of its kind is a square, a unit or a
    label drawn the same way).

    >>> encode_pieces(["<text>move 12 of the game</text>", "<text>move 13 of the game</text>"],
    ...               {1: [0]})
    ['<text>move 12 of the game</text>', [0, 12, 19, '3']]
    >>> encode_pieces(['<g data-square="a1">', '<g data-square="a2">'], {})
    ['<g data-square="a1">', [0, 17, 2, '2']]
    """
    encoded: list[Any] = []
    # Each ASCII piece as numbers once, for shared_ascii_ends.
    as_numbers = [ascii_numbers(piece) if piece.isascii() else None for piece in pieces]
    for number, (piece, candidates) in enumerate(zip(pieces, base_candidates(pieces, bases))):
        best: Any = piece
        length = len(piece)
        cost = length  # of the text written out; a change costs CHANGE_COST more
        piece_numbers = as_numbers[number]
        for base in candidates:
            text = pieces[base]
            if CHANGE_COST + length - min(len(text), length) >= cost:
                continue  # sharing all it can, it would not be shorter
            base_numbers = as_numbers[base]
            prefix, suffix = (shared_ascii_ends(base_numbers, piece_numbers)
                              if piece_numbers is not None and base_numbers is not None
                              else shared_ends(text, piece))
            if CHANGE_COST + length - prefix - suffix < cost:
                cost = CHANGE_COST + length - prefix - suffix
                best = [base, prefix, suffix, piece[prefix:length - suffix]]
        encoded.append(best)
    return encoded


def base_candidates(pieces: Sequence[str],
                    bases: Mapping[int, Iterable[int]]) -> list[list[int]]:
    """For each piece, the earlier pieces :func:`encode_pieces` tries as its base, without
    repeats: those ``bases`` names, the first of them's own first base, and the last earlier
    piece of the same :func:`piece_kind`.

    >>> base_candidates(["<t>N 1</t>", "<t>S 1</t>", "<t>N 2</t>", "x"], {1: [0], 2: [1]})
    [[], [0], [1, 0], []]
    """
    found: list[list[int]] = []
    last_of_kind: dict[str, int] = {}
    for number, piece in enumerate(pieces):
        candidates = list(bases.get(number, ()))
        if candidates:
            first = bases.get(candidates[0])
            if first:
                candidates.append(next(iter(first)))
        kind = piece_kind(piece)
        earlier = last_of_kind.get(kind)
        if earlier is not None:
            candidates.append(earlier)
        last_of_kind[kind] = number
        found.append([base for base in dict.fromkeys(candidates) if base < number])
    return found


_FIRST_DIGIT = re.compile(r"\d")
KIND_LENGTH = 32
"""At most this many characters of a piece make its kind (:func:`piece_kind`)."""


def piece_kind(piece: str) -> str:
    """What kind of line ``piece`` is, for finding an earlier line like it: its text up to
    its first digit, at most :data:`KIND_LENGTH` characters.

    >>> piece_kind('<rect class="square 19a" x="24"/>'), piece_kind("</g>")
    ('<rect class="square ', '</g>')
    """
    digit = _FIRST_DIGIT.search(piece, 0, KIND_LENGTH)
    return piece[:digit.start() if digit else KIND_LENGTH]


CHANGE_COST = 5
"""About how many characters more than its new text a change of another piece costs in the
page (its head and numbers); a place more of :func:`split_changes` costs 3."""

SPLIT_MIDDLE = 12
"""A change whose middle is shorter than this is not looked into for parts kept."""


def split_changes(encoded: Sequence[Any], pieces: Sequence[str]) -> list[Any]:
    """``encoded`` (:func:`encode_pieces`, perhaps with some pieces as uses of templates)
    with each change ``[base, prefix, suffix, middle]`` whose middle keeps much of the
    base (a rank of the text diagram where a unit left one square for another, a caption's
    side and turn) written as ``[base, [[kept, removed, inserted], ...]]`` when shorter:
    after the previous place (or the start), ``kept`` characters of the base kept,
    ``removed`` left out and ``inserted`` put in their place; the rest of the base kept.

    >>> rows = ["  H  .  .  C  C  I  H  I  .  .  .  .  .  .  . [ ] .  .\\n",
    ...         "  H  .  .  .  C  I  H  I  .  .  .  .  .  .  .  C  .  .\\n"]
    >>> split_changes([rows[0], [0, 10, 6, ".  C  I  H  I  .  .  .  .  .  .  .  C "]], rows)[1]
    [0, [[11, 1, '.'], [34, 1, ''], [1, 1, 'C ']]]
    """
    result = list(encoded)
    for number, item in enumerate(encoded):
        if (isinstance(item, str) or is_use(item) or len(item) != 4
                or len(item[3]) < SPLIT_MIDDLE):
            continue
        base, prefix, suffix, middle = item
        spans = changed_spans(pieces[base], pieces[number])
        if sum(3 + len(inserted) for _, _, inserted in spans) < 2 + len(middle):
            result[number] = [base, spans]
    return result


def changed_spans(base: str, piece: str) -> list[list[Any]]:
    """``piece`` as changes of ``base``: ``[kept, removed, inserted]`` each, ``kept``
    counted from the end of the change before (the edits between the two as strings of
    characters: :func:`edits`).

    >>> changed_spans("  A  .  I  .  .", "  A  .  .  .  I")
    [[8, 3, ''], [4, 0, '  I']]
    """
    spans: list[list[Any]] = []
    end = 0
    for at, removed, *added in edits(base, piece):
        spans.append([at - end, removed, "".join(map(chr, added))])
        end = at + removed
    return spans


def shared_ends(base: str, piece: str) -> tuple[int, int]:
    """How many characters ``piece`` shares with ``base`` at its start and, after those, at
    its end.

    >>> shared_ends("<text>move 12</text>", "<text>move 13</text>")
    (12, 7)
    >>> shared_ends("a\u00e9b", "a\u00e9c"), shared_ends("abc", "abc")
    ((2, 0), (3, 0))
    """
    if base.isascii() and piece.isascii():
        return shared_ascii_ends(ascii_numbers(base), ascii_numbers(piece))
    prefix = common_prefix(base, piece)
    return prefix, common_suffix(base, piece, min(len(base), len(piece)) - prefix)


AsciiNumbers = tuple[int, int, int]
"""An ASCII text as whole numbers, for :func:`shared_ascii_ends`: its bytes read
big-endian, read little-endian, and its length."""


def ascii_numbers(text: str) -> AsciiNumbers:
    """The ASCII text ``text`` as :data:`AsciiNumbers`."""
    as_bytes = text.encode("ascii")
    return int.from_bytes(as_bytes, "big"), int.from_bytes(as_bytes, "little"), len(text)


def shared_ascii_ends(base: AsciiNumbers, piece: AsciiNumbers) -> tuple[int, int]:
    """:func:`shared_ends` of two ASCII texts given as :data:`AsciiNumbers`: their starts
    compared at once as whole numbers (the big-endian numbers shifted down to the shorter
    length), then their ends (the little-endian numbers shifted down to what is left), the
    first byte that differs being the highest byte of their exclusive or. Each text is made
    a number once however many texts it is compared with, and a comparison slices nothing.

    >>> shared_ascii_ends(ascii_numbers("<text>move 12</text>"),
    ...                   ascii_numbers("<text>move 13</text>"))
    (12, 7)
    """
    base_big, base_little, base_length = base
    piece_big, piece_little, piece_length = piece
    length = min(base_length, piece_length)
    different = ((base_big >> ((base_length - length) << 3))
                 ^ (piece_big >> ((piece_length - length) << 3)))
    prefix = length - ((different.bit_length() + 7) >> 3)
    limit = length - prefix
    if not limit:
        return prefix, 0
    different = ((base_little >> ((base_length - limit) << 3))
                 ^ (piece_little >> ((piece_length - limit) << 3)))
    return prefix, limit - ((different.bit_length() + 7) >> 3)


def decode_pieces(encoded: Sequence[Any], templates: Sequence[Any] = ()) -> list[str]:
    """The pieces :func:`encode_pieces` encoded, as the page's script decodes them (and
    a use of a template, :mod:`~notation_tools.pages.piece_templates`, with
    ``templates`` the page's templates).

    >>> decode_pieces(['<text>move 12 of the game</text>', [0, 12, 19, '3']])
    ['<text>move 12 of the game</text>', '<text>move 13 of the game</text>']
    """
    pieces: list[str] = []
    for item in encoded:
        if isinstance(item, str):
            pieces.append(item)
        elif is_use(item):
            pieces.append(decode_use(templates, item))
        elif len(item) == 2:
            base, spans = item
            pieces.append(apply_spans(pieces[base], spans))
        else:
            base, prefix, suffix, middle = item
            text = pieces[base]
            pieces.append(text[:prefix] + middle + text[len(text) - suffix:])
    return pieces


def apply_spans(base: str, spans: Sequence[Sequence[Any]]) -> str:
    """``base`` with the changes :func:`changed_spans` found made.

    >>> apply_spans("  A  .  I  .  .", [[8, 3, ''], [4, 0, '  I']])
    '  A  .  .  .  I'
    """
    parts = []
    end = 0
    for kept, removed, inserted in spans:
        parts += [base[end:end + kept], inserted]
        end += kept + removed
    parts.append(base[end:])
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# Position strings as token edits


TOKENS = re.compile(r"[^/ ,]+|[/ ,]")
"""The tokens of a position string: the runs between ``/``, spaces and commas, and those."""


def text_edits(before: str, after: str) -> list[Any]:
    """``after`` as edits of ``before`` cut into tokens (the runs between ``/``, spaces and
    commas, and those separators): ``[at, removed, *added texts]`` each, ``at`` a token index into
    ``before``. A move changes a few squares far apart of a long position string (two ranks
    of Maka's nineteen), which one changed span from the first change to the last does not
    capture. :func:`decode_text` undoes this.

    >>> text_edits("a/bc/d e", "a/bx/d f"), text_edits("vL,1,P/3 b", "vL,P,1/3 w")
    ([[2, 1, 'bx'], [6, 1, 'f']], [[2, 2], [5, 0, ',', '1'], [8, 1, 'w']])
    """
    # The common start and end are cut off as characters first, at a separator, so that only
    # the few tokens between are numbered and compared: the edits found are the same, since
    # the edits of the tokens strip their common start and end first too.
    start = common_prefix(before, after)
    kept_start = max(before.rfind(separator, 0, start) for separator in _SEPARATORS) + 1
    end = common_suffix(before, after, min(len(before), len(after)) - start)
    separators = [at for at in (before.find(separator, len(before) - end)
                                for separator in _SEPARATORS) if at >= 0]
    kept_end = len(before) - min(separators) if separators else 0
    offset = len(TOKENS.findall(before, 0, kept_start))
    vocabulary: dict[str, int] = {}
    as_numbers = [[vocabulary.setdefault(token, len(vocabulary))
                   for token in TOKENS.findall(text, kept_start, len(text) - kept_end)]
                  for text in (before, after)]
    words = list(vocabulary)
    return [[offset + at, removed, *(words[number] for number in added)]
            for at, removed, *added in edits(*as_numbers)]


_SEPARATORS = "/ ,"


def decode_text(before: str, encoded: Sequence[Any]) -> str:
    """The string :func:`text_edits` encoded against ``before``.

    >>> decode_text("a/bc/d e", [[2, 1, 'bx'], [6, 1, 'f']])
    'a/bx/d f'
    """
    tokens = TOKENS.findall(before)
    for at, removed, *added in reversed(encoded):
        tokens[at:at + removed] = added
    return "".join(tokens)
