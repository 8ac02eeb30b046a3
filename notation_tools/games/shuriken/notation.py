"""The Shuriken 2D turn token (spec §7): grammar, parse to a move pattern, format.

A token is a cell name, column letter + row number (``K10``, case-insensitive, leading zeros
allowed on input), or ``swap``. The pyparsing grammar :data:`TOKEN` is the definition; because
the same few hundred tokens recur in every record, :func:`parse_pattern` keeps each parsed text
in a dict, so replaying a record costs one dict lookup per token.

This module says whether a text names a board cell; it does not know whether the cell is a
hole, is occupied, or whether the game is over: ``ShurikenPosition.check`` decides that.

>>> parse_pattern("k10"), format_move(parse_pattern("K010"))
(Place(row=10, col=11), 'K10')
"""

from __future__ import annotations

import pyparsing as pp

from notation_tools.games.base import MoveSyntaxError
from notation_tools.games.shuriken.pieces import COLUMNS, SIZE, index_of
from notation_tools.games.shuriken.rules import PLACES, SWAP, Place, Swap

# ---- grammar (spec §7) ---------------------------------------------------------------------

COLUMN = pp.Regex(r"[A-Za-z]")("column")
ROW = pp.Regex(r"[0-9]+")("row")
CELL = pp.Group(COLUMN + ROW).leave_whitespace()("cell")
SWAP_WORD = pp.CaselessKeyword("swap")("swap")
TOKEN = ((SWAP_WORD | CELL) + pp.StringEnd()).leave_whitespace(recursive=True)
"""Grammar of one turn token. Any letter and any number parse; the range is checked after."""

_SYNTAX_HINT = "is not a cell (column A–S, row 1–19)"

_CACHE: dict[str, Place | Swap] = {}
_CACHE_LIMIT = 20_000   # enough for every spelling that occurs; stops garbage from growing it


def _seed_cache() -> None:
    for place in PLACES.values():
        name = place.name
        _CACHE[name] = place
        _CACHE[name.lower()] = place
    _CACHE["swap"] = SWAP


def parse_pattern(text: str) -> Place | Swap:
    """The cell (or ``swap``) that ``text`` names, without looking at any position.

    Raises :class:`MoveSyntaxError`: ``E-SYNTAX`` when the text is not a cell name (§7),
    ``E-BAD-SQUARE`` when the column or row is off the board (§1.1). Never raises anything
    else, whatever the text.

    >>> parse_pattern("T5")
    Traceback (most recent call last):
    ...
    notation_tools.games.base.MoveSyntaxError: column T is off the board (A–S)
    >>> parse_pattern("K-10")
    Traceback (most recent call last):
    ...
    notation_tools.games.base.MoveSyntaxError: 'K-10' is not a cell (column A–S, row 1–19)
    """
    try:
        return _CACHE[text]
    except (KeyError, TypeError):
        pass
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a move is text, not {type(text).__name__}", rule="§7")
    try:
        result = TOKEN.parse_string(text, parse_all=True)
    except pp.ParseBaseException as error:
        raise MoveSyntaxError(f"{_shown(text)} {_SYNTAX_HINT}", rule="§7",
                              offset=min(error.loc, len(text))) from None
    except RecursionError:   # pragma: no cover - pyparsing on pathological input
        raise MoveSyntaxError(f"{_shown(text)} {_SYNTAX_HINT}", rule="§7") from None
    if "swap" in result:
        move = SWAP
    else:
        column_text = result["cell"]["column"].upper()
        row_text = result["cell"]["row"]
        col = COLUMNS.find(column_text) + 1
        if col == 0:
            raise MoveSyntaxError(f"column {column_text} is off the board (A–S)", rule="§1.1",
                                  code="E-BAD-SQUARE", offset=0)
        digits = row_text.lstrip("0") or "0"
        if len(digits) > 2 or not 1 <= int(digits) <= SIZE:
            shown = digits if len(digits) <= 6 else digits[:6] + "…"
            raise MoveSyntaxError(f"row {shown} is off the board (1–19)", rule="§1.1",
                                  code="E-BAD-SQUARE", offset=1)
        row = int(digits)
        move = PLACES[index_of(row, col)]
    if len(_CACHE) < _CACHE_LIMIT:
        _CACHE[text] = move
    return move


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "…")


def format_move(move: Place | Swap) -> str:
    """The canonical token of ``move``: upper-case cell without leading zeros, or ``swap``.

    >>> format_move(Place(19, 19))
    'S19'
    """
    if isinstance(move, Swap):
        return "swap"
    return move.name


_seed_cache()
