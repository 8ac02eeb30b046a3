"""The Game of War turn token (spec §13.2): pyparsing grammar, parse and format.

A token is split on commas first (spec §15), each action is parsed with the grammar below into
a pattern of squares, and the engine (:meth:`Position.resolve`) checks the pattern against the
rules. This module holds no rule: it knows squares, the action forms and their order. The
syntax parse of a token text is cached, since the same tokens recur across records.

>>> from notation_tools.games.gow import GAME
>>> pos = GAME.start_position(GAME.parse_rules(None))
>>> resolve_move("G8-F8,xL16", pos).move
Traceback (most recent call last):
...
notation_tools.games.base.IllegalMoveError: xL16: no unit can attack L16 (offence 0, defence 63)
>>> format_move(resolve_move("G8-F8,G6-G5", pos).move, pos)
'G8-F8,G6-G5'
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pyparsing as pp

from notation_tools.games.base import Dialect, EngineError, MoveSyntaxError, Resolution
from notation_tools.games.gow.moves import Attack, EndTurn, Step
from notation_tools.games.gow.pieces import COLS, ROW_LETTERS, SQUARE
from notation_tools.games.gow.rules import Position

# The grammar of one action (spec §13.2), kept loose on squares so that a wrong square gets
# E-SQUARE or a precise E-SYNTAX hint instead of a bare parse failure.
NOTATIONS = ("turn",)
"""The one notation: a whole turn as one token (§13.2)."""

_SQUARE = pp.Regex(r"[A-Za-z][0-9]+")
_MOVE = pp.Group(_SQUARE("origin") + pp.Suppress("-") + _SQUARE("dest"))("move")
_MARK = pp.Suppress("=") + pp.Char("DR0")("mark")
_ATTACK = pp.Group(pp.Suppress("x") + _SQUARE("target") + pp.Opt(_MARK))("attack")
# No whitespace skipping: a token has no spaces (spec §13.2).
ACTION = ((_MOVE | _ATTACK) + pp.StringEnd()).leave_whitespace()

Pattern = tuple[tuple[tuple[int, int, int], ...], tuple[int, str | None, int] | None, int]
"""``(steps, attack, end_offset)``: steps ``(origin, dest, offset)``, attack ``(target, mark,
offset)``; offsets are character offsets in the token."""


def _syntax(message: str, offset: int, code: str | None = None) -> MoveSyntaxError:
    return MoveSyntaxError(message, rule="§13.2", offset=offset, code=code)


def _square(text: str, offset: int) -> int:
    row, column = text[0], text[1:]
    if row.islower():
        raise _syntax(f"{text}: row letters are upper case (write {row.upper()}{column})", offset)
    if column.startswith("0") and column != "0":
        raise _syntax(f"{text}: no leading zeros in column numbers (write {row}{int(column)})",
                      offset + 1)
    if row not in ROW_LETTERS or not 1 <= int(column) <= COLS:
        raise _syntax(f"{text} names no square: rows are A to T, columns 1 to 25", offset,
                      code="E-SQUARE")
    return SQUARE[text]


def _hint(part: str, loc: int) -> str:
    if not part:
        return "an empty action (two commas, or a comma at an end)"
    if any(ch.isspace() for ch in part):
        return "a turn token has no spaces"
    if part.startswith("X"):
        return "write an attack with a lower-case x"
    if "=" in part:
        mark = part[part.index("=") + 1:]
        if mark in ("O", "o"):
            return "write =0 with the digit zero"
        if mark in ("d", "r"):
            return f"outcome marks are upper case (={mark.upper()})"
        return "an outcome mark is =D, =R or =0"
    where = repr(part[loc]) if loc < len(part) else "the end"
    return f"unexpected {where}; an action is a move like G8-H9 or an attack like xL8=D"


# The strict canonical forms as regular expressions: a fast path that accepts exactly what the
# grammar accepts with valid squares (a test checks they agree); anything else goes through the
# grammar, which explains the fault.
_SQ = r"([A-T](?:[1-9]|1[0-9]|2[0-5]))"
_FAST_MOVE = re.compile(_SQ + "-" + _SQ + r"\Z")
_FAST_ATTACK = re.compile("x" + _SQ + r"(?:=([DR0]))?\Z")


def _parse_action(part: str, offset: int) -> tuple[str, Any]:
    fast = _FAST_MOVE.match(part)
    if fast:
        return "move", (SQUARE[fast.group(1)], SQUARE[fast.group(2)], offset)
    fast = _FAST_ATTACK.match(part)
    if fast:
        return "attack", (SQUARE[fast.group(1)], fast.group(2), offset)
    return _parse_with_grammar(part, offset)


def _parse_with_grammar(part: str, offset: int) -> tuple[str, Any]:
    try:
        result = ACTION.parse_string(part, parse_all=True)
    except pp.ParseBaseException as error:
        loc = min(error.loc, len(part))
        spaces = [i for i, ch in enumerate(part) if ch.isspace()]
        if spaces:
            loc = spaces[0]
        raise _syntax(f"{part or '(empty)'}: {_hint(part, loc)}", offset + loc)
    if "move" in result:
        group = result["move"]
        origin = _square(group["origin"], offset)
        dest = _square(group["dest"], offset + len(group["origin"]) + 1)
        return "move", (origin, dest, offset)
    group = result["attack"]
    mark = group.get("mark")
    return "attack", (_square(group["target"], offset + 1), mark, offset)


@functools.lru_cache(maxsize=8192)
def parse_token(text: str) -> Pattern:
    """The syntax of a turn token (spec §13.2, §15), without rules.

    Raises MoveSyntaxError with E-SYNTAX, E-SQUARE, E-TOO-MANY-MOVES, E-ATTACK-NOT-LAST or
    E-TWO-ATTACKS.

    >>> parse_token("G8-H9,xL8=D")
    (((157, 183, 0),), (282, 'D', 6), 11)
    """
    if text == "--":
        return (), None, 0
    if not text:
        raise _syntax("an empty turn token (write -- for a turn without action)", 0)
    if text[0].isdigit():
        raise _syntax(f"{text}: a turn token never starts with a digit", 0)
    steps: list[tuple[int, int, int]] = []
    attack: tuple[int, str | None, int] | None = None
    offset = 0
    for part in text.split(","):
        if part == "--":
            raise _syntax("-- stands alone: it is a whole turn without action", offset)
        kind, value = _parse_action(part, offset)
        if attack is not None:
            if kind == "attack":
                raise _syntax(f"{part}: a turn has at most one attack", offset, code="E-TWO-ATTACKS")
            raise _syntax(f"{part}: the attack ends the turn; no move may follow it", offset,
                          code="E-ATTACK-NOT-LAST")
        if kind == "move":
            steps.append(value)
        else:
            attack = value
        offset += len(part) + 1
    if len(steps) > 5:
        raise _syntax(f"{len(steps)} moves: a turn has at most 5", steps[5][2],
                      code="E-TOO-MANY-MOVES")
    return tuple(steps), attack, len(text)


def resolve_move(text: str, position: Position,
                 notation: str | None = None) -> Resolution[Any]:
    """The turn (or, with ``notation="action"``, the single action) ``text`` names, as a
    :class:`Resolution` (a token has one reading and no warning).

    The turn is checked by the engine (:meth:`Position.resolve`), which raises the rule's own
    code (spec §15). ``position`` is not changed.
    """
    if not isinstance(text, str):
        raise _syntax(f"a turn token is text, not {type(text).__name__}", 0)
    if notation == "action":
        return Resolution(_parse_single(text, position))
    if notation not in (None, *NOTATIONS):
        raise _syntax(f"unknown notation {notation!r} (turn, action)", 0)
    steps, attack, end = parse_token(text)
    return Resolution(position.resolve(list(steps), attack, end))


def _parse_single(text: str, position: Position) -> Step | Attack | EndTurn:
    steps, attack, _ = parse_token(text)
    if len(steps) + (attack is not None) > 1:
        raise _syntax(f"{text}: one action expected", 0)
    if steps:
        origin, dest, _ = steps[0]
        action: Step | Attack | EndTurn = Step(origin, dest)
    elif attack is not None:
        action = Attack(attack[0], attack[1])
    else:
        action = EndTurn()
    # resolve() checks the action from the current point of the turn and leaves it unchanged.
    if isinstance(action, Step):
        position.resolve([(action.origin, action.target, 0)], None)
    elif isinstance(action, Attack):
        position.resolve([], (action.target, action.mark, 0))
    else:
        position.resolve([], None)
    return action


def format_move(move: Any, position: Position | None = None, notation: str | None = None) -> str:
    """The text of a turn (its token) or of a single action (spec §13.2, §17)."""
    text: str = move.text()
    return text


class GowDialect(Dialect):
    """How Game of War records are written (§13.2, §15)."""

    move_number_code = ("W-MOVE-NUMBER", "warning")  # §15: numbers are informative only

    def sniff(self, move_texts: Any) -> bool:
        """Tokens like ``G8-H9,xL8=D`` or ``--`` (spec §13.2)."""
        texts = [t for t in move_texts if t]
        if not texts:
            return False
        for text in texts:
            try:
                parse_token(text)
            except EngineError:
                return False
        return any(text != "--" for text in texts)

    def first_move_number(self, position: Any) -> int:
        """The move number before the first turn of a record starting at ``position`` (§5.3)."""
        turn_number: int = position.turn_number
        return (turn_number + 1) // 2


DIALECT = GowDialect()
