"""Run-length encoding of one rank of a position string, shared by the games' codecs.

Every game's position string writes a rank as its pieces with each run of empty squares
replaced by the run's length (FEN's convention): :func:`encode_rank` writes one, and
:func:`decode_rank` reads it back with the checks every codec needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping


def encode_rank(cells: Iterable[int], symbol: Callable[[int], str], *, empty: int = 0,
                separator: str = "") -> str:
    """The rank's text: ``symbol(cell)`` for occupied cells, the length of each empty run.

    >>> encode_rank([0, 0, 3, 0, 1], "?AbC".__getitem__)
    '2C1A'
    >>> encode_rank([5, 0, 0], {5: "Ln"}.__getitem__, separator=",")
    'Ln,2'
    """
    parts: list[str] = []
    run = 0
    for cell in cells:
        if cell == empty:
            run += 1
            continue
        if run:
            parts.append(str(run))
            run = 0
        parts.append(symbol(cell))
    if run:
        parts.append(str(run))
    return separator.join(parts)


class RankError(ValueError):
    """A rank text that :func:`decode_rank` cannot read; ``offset`` is the character offset
    of the fault inside the rank text, and ``whole`` says the fault is the rank's length
    (``offset`` is then the rank's end). A game's codec turns it into its
    ``BadPositionError``."""

    def __init__(self, message: str, offset: int = 0, *, whole: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.whole = whole


def decode_rank(text: str, symbols: Mapping[str, int], *, width: int, empty: int = 0,
                separator: str = "", runs_may_touch: bool = False) -> list[int]:
    """The cells of one rank written by :func:`encode_rank`: the inverse, with its checks.

    Without ``separator`` a symbol is one character and a run is the longest string of ASCII
    digits; with one, every field between separators is a symbol or a run. A run is a whole
    number from 1 to ``width`` without a leading zero; two runs side by side are refused
    unless ``runs_may_touch`` (each rank then has one spelling). Raises :class:`RankError`
    for an unknown symbol, a bad run, two touching runs, or a rank that is not ``width``
    cells long.

    >>> decode_rank("2C1A", {"A": 1, "b": 2, "C": 3}, width=5)
    [0, 0, 3, 0, 1]
    >>> decode_rank("Ln,2", {"Ln": 5}, width=3, separator=",")
    [5, 0, 0]
    >>> try:
    ...     decode_rank("1x", {"a": 1}, width=2)
    ... except RankError as error:
    ...     print(error.message, "at", error.offset)
    unexpected 'x' at 1
    """
    cells: list[int] = []
    previous_run = False
    for field, at in _fields(text, separator):
        if field[:1].isascii() and field[:1].isdigit():
            if not (field.isascii() and field.isdigit()) or field[0] == "0" \
                    or len(field) > len(str(width)) or int(field) > width:
                raise RankError(f"bad run of empty squares {field[:6]!r} (1 to {width})", at)
            if previous_run and not runs_may_touch:
                raise RankError("two runs of empty squares side by side", at)
            cells.extend([empty] * int(field))
            previous_run = True
        elif field in symbols:
            cells.append(symbols[field])
            previous_run = False
        else:
            raise RankError(f"unexpected {field[:12]!r}", at)
        if len(cells) > width:
            raise RankError(f"more than {width} squares", at)
    if len(cells) != width:
        raise RankError(f"{len(cells)} squares, not {width}", len(text), whole=True)
    return cells


def _fields(text: str, separator: str) -> Iterator[tuple[str, int]]:
    """``(field, offset)`` pairs: separated fields, or single characters and digit runs."""
    if separator:
        offset = 0
        for field in text.split(separator):
            yield field, offset
            offset += len(field) + len(separator)
        return
    i = 0
    while i < len(text):
        j = i + 1
        if text[i].isascii() and text[i].isdigit():
            while j < len(text) and text[j].isascii() and text[j].isdigit():
                j += 1
        yield text[i:j], i
        i = j
