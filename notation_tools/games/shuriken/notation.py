"""The Shuriken 2D turn token (§7): grammar, parse, format, and how other programs write
records (:data:`DIALECT`).

A token is a cell name, column letter + row number (``K10``, case-insensitive, leading zeros
allowed on input), or ``swap``. The pyparsing grammar :data:`TOKEN` is the definition; because
the same few hundred tokens recur in every record, :func:`parse_pattern` keeps each parsed text
in a dict, so replaying a record costs one dict lookup per token.

:func:`parse_pattern` says whether a text names a board cell; whether the cell is a hole, is
occupied, or whether the game is over is for ``Position.check`` (:func:`resolve_move` asks it).

>>> parse_pattern("k10"), format_move(parse_pattern("K010"))
(Place(row=10, col=11), 'K10')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from notation_tools.games.base import Dialect, MoveSyntaxError, Resolution
from notation_tools.games.shuriken.moves import PLACES, SWAP, Move, Place, Swap
from notation_tools.games.shuriken.pieces import COLUMNS, SIZE, index_of
from notation_tools.games.shuriken.rules import Position

if TYPE_CHECKING:
    import pyparsing as pp

NOTATIONS = ("cell",)
"""The one move notation (§7): a cell name, or ``swap``."""

# ---- grammar (§7) --------------------------------------------------------------------------

_GRAMMAR: list[pp.ParserElement] = []


def _grammar() -> pp.ParserElement:
    """Grammar of one turn token (:data:`TOKEN`). Any letter and any number parse; the range
    is checked after. Built on first use: a record of well-written tokens never needs it,
    nor pyparsing's import."""
    if _GRAMMAR:
        return _GRAMMAR[0]
    import pyparsing as pp

    column = pp.Regex(r"[A-Za-z]")("column")
    row = pp.Regex(r"[0-9]+")("row")
    cell = pp.Group(column + row).leave_whitespace()("cell")
    swap_word = pp.CaselessKeyword("swap")("swap")
    _GRAMMAR.append(((swap_word | cell) + pp.StringEnd()).leave_whitespace(recursive=True))
    return _GRAMMAR[0]


def __getattr__(name: str) -> Any:
    if name == "TOKEN":
        return _grammar()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_SYNTAX_HINT = "is not a cell (column A–S, row 1–19)"

_CACHE: dict[str, Move] = {}
_CACHE_LIMIT = 20_000   # enough for every spelling that occurs; stops garbage from growing it


def _seed_cache() -> None:
    for place in PLACES.values():
        name = place.name
        _CACHE[name] = place
        _CACHE[name.lower()] = place
    _CACHE["swap"] = SWAP


def parse_pattern(text: str) -> Move:
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
    import pyparsing as pp

    try:
        result = _grammar().parse_string(text, parse_all=True)
    except pp.ParseBaseException as error:
        raise MoveSyntaxError(f"{_shown(text)} {_SYNTAX_HINT}", rule="§7",
                              offset=min(error.loc, len(text))) from None
    except RecursionError:   # pragma: no cover - pyparsing on pathological input
        raise MoveSyntaxError(f"{_shown(text)} {_SYNTAX_HINT}", rule="§7") from None
    move: Move
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
        if len(digits) > len(str(SIZE)) or not 1 <= int(digits) <= SIZE:
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


_RESOLUTIONS: dict[Move, Resolution[Move]] = {}
"""One shared resolution per move (at most one per grid point, and ``swap``)."""
_RESOLVED_TEXTS: dict[str, Resolution[Move]] = {}
"""The shared resolution of each token text already read (its move is still checked in each
position); bounded like :data:`_CACHE`, so that garbage cannot grow it."""
_RESOLVED_TEXTS_LIMIT = 20_000


def resolve_move(text: str, position: Position,
                 notation: str | None = None) -> Resolution[Move]:
    """The legal move ``text`` names in ``position`` (§7): the token's cell, checked by the
    engine (``Position.check``). A cell name has one reading and no warning, so each move's
    resolution is made once and shared (replay asks per ply).

    Raises ``E-SYNTAX``/``E-BAD-SQUARE`` (:class:`MoveSyntaxError`), ``E-ILLEGAL-MOVE``
    or ``E-MOVE-AFTER-END`` (``IllegalMoveError``).

    >>> resolve_move("k10", Position.start()).move
    Place(row=10, col=11)
    """
    if notation is None:
        try:
            resolution = _RESOLVED_TEXTS[text]
        except (KeyError, TypeError):
            pass
        else:
            position.check(resolution.move)
            return resolution
    elif notation not in NOTATIONS:
        raise MoveSyntaxError(f"Shuriken 2D has no notation {notation!r} (only 'cell')")
    move = position.check(parse_pattern(text))
    shared = _RESOLUTIONS.get(move)
    if shared is None:
        shared = _RESOLUTIONS[move] = Resolution(move)
    if notation is None and len(_RESOLVED_TEXTS) < _RESOLVED_TEXTS_LIMIT:
        _RESOLVED_TEXTS[text] = shared
    return shared


def format_move(move: Move, position: Position | None = None, notation: str | None = None) -> str:
    """The canonical token of ``move`` (§7): upper-case cell without leading zeros, or
    ``swap`` (the one notation, whatever the position).

    >>> format_move(Place(19, 19))
    'S19'
    """
    if isinstance(move, Swap):
        return "swap"
    return move.name


_seed_cache()


class ShurikenDialect(Dialect):
    """Untagged Shuriken movetext: cell names only."""

    def sniff(self, move_texts: Sequence[str]) -> bool:
        """Cell names A1..S19 (and ``swap`` as the second token) only.

        >>> DIALECT.sniff(["K10", "swap", "A1"]), DIALECT.sniff(["swap", "K10"])
        (True, False)
        """
        if not move_texts:
            return False
        for i, text in enumerate(move_texts):
            try:
                move = parse_pattern(text)
            except MoveSyntaxError:
                return False
            if isinstance(move, Swap) and i != 1:
                return False
        return True


DIALECT = ShurikenDialect()
"""How other programs write Shuriken records: nothing beyond the container but the sniffing."""
