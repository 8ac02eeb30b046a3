"""Run-length encoding of one rank of a position string, shared by the games' codecs.

Every game's position string writes a rank as its pieces with each run of empty squares
replaced by the run's length (FEN's convention). Does not parse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


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
