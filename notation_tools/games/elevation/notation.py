"""Elevation's turn tokens (§6): the pyparsing grammar, parse/format for both notations, and
the :data:`DIALECT` for untagged movetext.

``elevation`` (compact: no piece letter, ``=CODE`` only when not implied) and
``elevation-explicit`` (piece letter and option code always). Parsing turns the text into a
pattern (cached per text: the same tokens recur across records) and asks the engine
(:meth:`.rules.Position.resolve_turn`) for the legal turn it names, or why it is illegal. This
module holds no rule of play.

>>> from notation_tools.games.elevation import GAME
>>> pos = GAME.start_position(GAME.parse_rules(None))
>>> move = resolve_move("c1:c2>b2,c1-c2", pos).move
>>> format_move(move, pos), format_move(move, pos, "elevation-explicit")
('c1:c2>b2,c1-c2', 'Dc1=B:c2>b2,c1-c2')
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import pyparsing as pp

from notation_tools.games.base import (Dialect, EngineError, IllegalMoveError, MoveSyntaxError,
                                      Resolution)
from notation_tools.games.elevation.moves import (
    Dig, DigSpec, Move, Path, PathSpec, PieceTurn, PieceTurnSpec)
from notation_tools.games.elevation.pieces import KIND_BY_LETTER, PIECE_KINDS, SQUARE_INDEX, SQUARE_NAMES
from notation_tools.games.elevation.rules import Position

NOTATIONS = ("elevation", "elevation-explicit")
MAX_TOKEN = 200  # longer than any valid turn token; stops pathological input early


def _grammar() -> pp.ParserElement:
    """The detailed grammar, one element per symbol of §6.1: it names the exact character
    where a token goes wrong."""
    square = pp.Regex(r"[a-f][1-6]").set_parse_action(lambda t: SQUARE_INDEX[t[0]])
    dig = (square + pp.Suppress(">") + square).set_parse_action(
        lambda s, loc, t: DigSpec(t[0], t[1], loc))
    step = pp.one_of("- x") + square
    path = (square + step + pp.Opt(step)).set_parse_action(
        lambda s, loc, t: PathSpec((t[0], *t[2::2]), tuple(mark == "x" for mark in t[1::2]), loc))
    action = dig | path
    option = pp.one_of("DD MM C2 B F U")
    piece = pp.one_of("S F D").set_parse_action(lambda t: KIND_BY_LETTER[t[0]])
    piece_turn = (pp.Opt(piece, default=None) + square + pp.Opt(pp.Suppress("=") + option, default=None)
                  + pp.Suppress(":") + action + pp.Opt(pp.Suppress(",") + action))
    piece_turn.set_parse_action(_piece_turn_spec)
    turn = piece_turn + pp.Opt(pp.Suppress("&") + piece_turn) + pp.StringEnd()
    turn.leave_whitespace()
    return turn


def _piece_turn_spec(text: str, loc: int, tokens: pp.ParseResults) -> PieceTurnSpec:
    kind, origin, option, *actions = tokens
    end = text.find("&", loc)
    piece_text = text[loc:end if end >= 0 else len(text)]
    head = piece_text[:piece_text.index(":")]
    return PieceTurnSpec(origin, kind, option, tuple(actions), head, piece_text, loc)


_SQUARE = "[a-f][1-6]"
_ACTION = rf"{_SQUARE}(?:>{_SQUARE}|(?:[-x]{_SQUARE}){{1,2}})"
_PIECE_TURN = re.compile(
    rf"(([SFD])?({_SQUARE})(?:=(DD|MM|C2|B|F|U))?):({_ACTION})(?:,({_ACTION}))?")
"""One piece-turn of :func:`_grammar`; groups: head, piece letter, square, option, actions."""

_ACTION_PARTS: dict[tuple[str, int], DigSpec | PathSpec] = {}
"""(action text, offset in the token) → its spec (immutable). Replay meets a few thousand
action texts (the digs and paths of a 6×6 board) at a handful of offsets, in tokens that are
mostly new."""
_ACTION_PARTS_LIMIT = 50_000  # every action between neighbours fits; stops garbage from growing it


def _action_spec(text: str, offset: int) -> DigSpec | PathSpec:
    spec = _ACTION_PARTS.get((text, offset))
    if spec is None:
        if text[2] == ">":
            spec = DigSpec(SQUARE_INDEX[text[:2]], SQUARE_INDEX[text[3:5]], offset)
        else:
            spec = PathSpec(tuple([SQUARE_INDEX[text[i:i + 2]] for i in range(0, len(text), 3)]),
                            tuple([text[i] == "x" for i in range(2, len(text), 3)]), offset)
        if len(_ACTION_PARTS) < _ACTION_PARTS_LIMIT:
            _ACTION_PARTS[text, offset] = spec
    return spec


def _piece_turn_at(text: str, loc: int) -> PieceTurnSpec | None:
    match = _PIECE_TURN.match(text, loc)
    if match is None:
        return None
    head, letter, origin, option, first, second = match.groups()
    start = match.start(5)
    if second is None:
        actions: tuple[DigSpec | PathSpec, ...] = (_action_spec(first, start),)
    else:
        actions = (_action_spec(first, start), _action_spec(second, start + len(first) + 1))
    return PieceTurnSpec(SQUARE_INDEX[origin], KIND_BY_LETTER[letter] if letter else None, option,
                         actions, head, match.group(0), loc)


def _match_turn(text: str) -> tuple[PieceTurnSpec, ...] | None:
    """The same language as :func:`_grammar`, matched with one regular expression per
    piece-turn and no pyparsing call (replay parses one token per ply, most of them seen
    once); ``None`` when the text is not a turn token, whose fault the detailed grammar
    then locates."""
    first = _piece_turn_at(text, 0)
    if first is None:
        return None
    end = len(first.text)
    if end == len(text):
        return (first,)
    if text[end] != "&":
        return None
    second = _piece_turn_at(text, end + 1)
    if second is None or end + 1 + len(second.text) != len(text):
        return None
    return (first, second)


_TURN = _grammar()


@functools.lru_cache(maxsize=8192)
def parse_pattern(text: str) -> tuple[PieceTurnSpec, ...]:
    """The syntax of a turn token: one or two :class:`PieceTurnSpec` (§6.1). Cached per text.

    Raises :class:`MoveSyntaxError` (``E-SYNTAX``) with the offset of the fault.

    >>> [spec.text for spec in parse_pattern("c1:c2>b2,c1-c2&d1:d2>e2,d1-d2")]
    ['c1:c2>b2,c1-c2', 'd1:d2>e2,d1-d2']
    """
    if len(text) > MAX_TOKEN:
        raise MoveSyntaxError(f"not an Elevation turn token: longer than {MAX_TOKEN} characters",
                              rule="§6.1")
    specs = _match_turn(text)
    if specs is None:
        try:
            _TURN.parse_string(text)
        except pp.ParseBaseException as error:
            raise _syntax_error(text, error) from None
        raise MoveSyntaxError(f"not an Elevation turn token: {text!r}", rule="§6.1")  # pragma: no cover
    for spec in specs:
        actions = spec.actions
        if len(actions) == 2 and actions[0].__class__ is PathSpec and actions[1].__class__ is PathSpec:
            raise MoveSyntaxError(
                f"{spec.text}: a two-square move is written as one path "
                f"({SQUARE_NAMES[actions[0].squares[0]]}-..-..), never as two move actions",
                rule="§6.1", offset=actions[1].offset)
    return specs


def _syntax_error(text: str, error: pp.ParseBaseException) -> MoveSyntaxError:
    offset = max(0, min(error.loc, len(text)))
    found = repr(text[offset]) if offset < len(text) else "the end"
    return MoveSyntaxError(
        f"not an Elevation turn token: unexpected {found} at character {offset + 1} "
        "(expected [piece]square[=option]:action[,action], e.g. c3:d4>b2,c3-d4)",
        rule="§6.1", offset=offset)


def resolve_move(text: str, position: Position,
                 notation: str | None = None) -> Resolution[Move]:
    """The legal turn that ``text`` names in ``position`` (§6), as a :class:`Resolution` (a
    token has one reading and no warning).

    Accepts both notations unless ``notation`` narrows it. Raises :class:`MoveSyntaxError`
    (``E-SYNTAX``) or :class:`IllegalMoveError` (``E-ILLEGAL-MOVE``, ``E-CAPTURE-MARK``). Does
    not change ``position`` and does not check whether the game is already over.
    """
    if not isinstance(text, str):
        raise MoveSyntaxError(f"an Elevation turn token is text, not {type(text).__name__}", rule="§6.1")
    specs = parse_pattern(text)
    if notation is not None:
        if notation not in NOTATIONS:
            raise MoveSyntaxError(f"unknown Elevation notation {notation!r} (known: {', '.join(NOTATIONS)})")
        for spec in specs:
            if notation == "elevation-explicit" and (spec.kind is None or spec.option is None):
                raise MoveSyntaxError(f"{spec.head}: the elevation-explicit notation writes the piece "
                                      "letter and the option code (e.g. Sc3=B)", rule="§6.3",
                                      offset=spec.offset)
            if notation == "elevation" and spec.kind is not None:
                raise MoveSyntaxError(f"{spec.head}: the elevation notation writes no piece letter",
                                      rule="§6.3", offset=spec.offset)
    return Resolution(position.resolve_turn(specs))


def _action_text(action: Dig | Path) -> str:
    if isinstance(action, Dig):
        return f"{SQUARE_NAMES[action.source]}>{SQUARE_NAMES[action.target]}"
    squares = action.squares
    text = SQUARE_NAMES[squares[0]]
    for square, captures in zip(squares[1:], action.captures):
        text += ("x" if captures else "-") + SQUARE_NAMES[square]
    return text


def format_piece_turn(move: PieceTurn, position: Position, notation: str | None = None) -> str:
    """One piece-turn's text; ``position`` is the position it is played from."""
    explicit = notation == "elevation-explicit"
    if notation is not None and notation not in NOTATIONS:
        raise MoveSyntaxError(f"unknown Elevation notation {notation!r} (known: {', '.join(NOTATIONS)})")
    square = SQUARE_NAMES[move.origin]
    if explicit:
        letter = PIECE_KINDS[position.board[move.origin] & 3].letter
        head = f"{letter}{square}={move.option}"
    elif position.implied_option(move) != move.option:
        head = f"{square}={move.option}"
    else:
        head = square
    return head + ":" + ",".join(_action_text(action) for action in move.actions)


def format_move(move: Move, position: Position, notation: str | None = None) -> str:
    """The text of ``move`` (legal in ``position``) in ``notation`` (default ``elevation``).

    Raises ``IllegalMoveError`` if the acting square is empty (the move cannot belong here).
    """
    if isinstance(move, PieceTurn):
        _require_piece(move, position)
        return format_piece_turn(move, position, notation)
    texts = []
    for index, part in enumerate(move.parts):
        before = position if index == 0 else position.piece_turn_position(move, index)
        _require_piece(part, before)
        texts.append(format_piece_turn(part, before, notation))
    return "&".join(texts)


def _require_piece(move: PieceTurn, position: Position) -> None:
    if not position.board[move.origin]:
        raise IllegalMoveError(f"{SQUARE_NAMES[move.origin]}: no piece there to make this move", rule="§6.1")


class ElevationDialect(Dialect):
    """How Elevation movetext looks without tags: turn tokens only."""

    def sniff(self, move_texts: Sequence[str]) -> bool:
        """Whether the tokens look like Elevation turns (every one parses as a turn token).

        >>> DIALECT.sniff(["c1:c2>b2,c1-c2", "d6:d5>c5,d6-d5"]), DIALECT.sniff(["e4", "e5"])
        (True, False)
        """
        if not move_texts:
            return False
        for text in move_texts:
            try:
                parse_pattern(text)
            except EngineError:
                return False
        return True


DIALECT = ElevationDialect()
