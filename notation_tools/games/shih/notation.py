"""Shih turn tokens (§12): the pyparsing grammar, parse/format for both notations, moves as
JSON, and :data:`DIALECT` (how untagged Shih movetext is recognised).

``shih`` writes rotations as ``cw``/``ccw`` (``b2-b1,c2cw``, ``Pa1ccw/d15``); ``shih-wall``
writes the side the wall ends on (``a2=B``, ``Pa1=H/d15``). Both are read in every record.
Parsing is two steps (G2): the grammar turns the text into a pattern of actions with their
character offsets (cached per text, since the same tokens recur), then
:meth:`~notation_tools.games.shih.rules.Position.resolve` checks it against the position and
explains any fault. This module holds no rule of play.

>>> from notation_tools.games.shih import GAME
>>> pos = GAME.start_position(GAME.parse_rules("standard"))
>>> turn = resolve_move("B2-B1,c2CW", pos).move
>>> format_move(turn, pos), format_move(turn, pos, "shih-wall")
('b2-b1,c2cw', 'b2-b1,c2=B')
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import pyparsing as pp

from notation_tools.games.base import Dialect, MoveSyntaxError, Resolution
from notation_tools.games.shih.moves import Action, Move, PowerSpin, Spin, Step
from notation_tools.games.shih.pieces import INDEX, NAMES, ROWS, SIDE_LETTERS, WIDTHS
from notation_tools.games.shih.rules import Position

NOTATIONS = ("shih", "shih-wall")
"""The move notations (§12.3); the first is the default."""

_SQUARE = pp.Regex(r"[a-hA-H][1-9][0-9]?").set_parse_action(
    lambda _s, loc, toks: [(toks[0].lower(), loc)])
_ROTATION = (pp.CaselessLiteral("ccw") | pp.CaselessLiteral("cw")
             | pp.Combine(pp.Literal("=") + pp.one_of("H S B", caseless=True)))
_STEP = pp.Group(pp.Empty().set_parse_action(lambda: "step") + _SQUARE + pp.Suppress("-")
                 + _SQUARE)
_SPIN = pp.Group(pp.Empty().set_parse_action(lambda: "spin") + _SQUARE + _ROTATION)
_POWER = pp.Group(pp.Empty().set_parse_action(lambda: "power") + pp.Suppress(pp.CaselessLiteral("P"))
                  + _SQUARE + _ROTATION
                  + pp.Group(pp.ZeroOrMore(pp.Suppress("/") + _SQUARE)))
_END = pp.Group(pp.Literal("--").set_parse_action(lambda _s, loc, _t: ["end", ("--", loc)]))
_ITEM = _POWER | _END | _STEP | _SPIN
TURN_GRAMMAR = (_ITEM + pp.ZeroOrMore(pp.Suppress(",") + _ITEM) + pp.StringEnd()).leave_whitespace()
"""§12.1 ``turn``, read permissively (any number of comma-separated actions and end marks),
so that the engine can name the broken rule: "a turn has 2 MP: third action …"."""

_HELP = ("expected a Step (b2-b1), a Spin (c2cw, c2ccw, c2=B), a Power Spin (Pa1ccw/d15) or "
         "'--', joined by ','")


def _square(name: str, at: int) -> int:
    index = INDEX.get(name)
    if index is None:
        row = ROWS.index(name[0])
        raise MoveSyntaxError(f"{name}: row {name[0]} has {WIDTHS[row]} spaces", rule="§1.2",
                              code="E-BAD-SQUARE", offset=at)
    return index


EndPattern = tuple[str, int, str]
"""``("end", offset, "--")``."""
StepPattern = tuple[str, int, int, int, str]
"""``("step", origin, target, offset, text)``."""
SpinPattern = tuple[str, int, str, int, str]
"""``("spin", target, rotation, offset, text)``; the rotation is ``cw``, ``ccw`` or a wall
letter."""
PowerPattern = tuple[str, int, str, tuple[tuple[int, int], ...], int, str]
"""``("power", target, rotation, ((surrendered space, offset), ...), offset, text)``."""
ActionPattern = EndPattern | StepPattern | SpinPattern | PowerPattern
"""What one action of a turn token says, before any position is consulted."""


def _rotation_text(rotation: str) -> tuple[str, str]:
    """(pattern value, canonical text) of a rotation: ``cw``/``ccw`` or a wall letter."""
    lowered = rotation.lower()
    if lowered in ("cw", "ccw"):
        return lowered, lowered
    letter = rotation[1].upper()
    return letter, f"={letter}"


# The turn forms as regular expressions, one per action: a fast path for the texts the grammar
# accepts (a test checks on random texts that both give the same pattern or the same error).
# Any text they do not take goes through the grammar, which explains the fault.
_FAST_FLAGS = re.IGNORECASE | re.ASCII  # ASCII case only; other letters go to the grammar
_FAST_SQUARE = r"([a-h][1-9][0-9]?)"
_FAST_ROTATION = r"(ccw|cw|=[hsb])"
_FAST_STEP = re.compile(_FAST_SQUARE + "-" + _FAST_SQUARE + r"\Z", _FAST_FLAGS)
_FAST_SPIN = re.compile(_FAST_SQUARE + _FAST_ROTATION + r"\Z", _FAST_FLAGS)
_FAST_POWER = re.compile("p" + _FAST_SQUARE + _FAST_ROTATION + r"((?:/[a-h][1-9][0-9]?)*)\Z",
                         _FAST_FLAGS)


@functools.lru_cache(maxsize=65536)
def parse_pattern(text: str) -> tuple[ActionPattern, ...]:
    """The syntax of a turn token: a tuple of action patterns for
    :meth:`~notation_tools.games.shih.rules.Position.resolve`, each with its offset and
    canonical text.

    Raises MoveSyntaxError: E-SYNTAX when the text does not fit §12.1, E-BAD-SQUARE for a
    square name that is not on the board. Does not look at any position.

    >>> parse_pattern("b2-b1,--")
    (('step', 10, 9, 0, 'b2-b1'), ('end', 6, '--'))
    """
    if not isinstance(text, str):
        raise MoveSyntaxError("a Shih turn is text", rule="§12.1")
    items = _fast_pattern(text)
    return items if items is not None else _grammar_pattern(text)


def _fast_pattern(text: str) -> tuple[ActionPattern, ...] | None:
    """The pattern of a text made of the plain action forms, or None for any other text."""
    matched: list[tuple[re.Pattern[str] | None, int, re.Match[str] | None]] = []
    at = 0
    for part in text.split(","):
        if part == "--":
            matched.append((None, at, None))
        else:
            found = _FAST_STEP.match(part) or _FAST_SPIN.match(part) or _FAST_POWER.match(part)
            if found is None:
                return None
            matched.append((found.re, at, found))
        at += len(part) + 1
    # Squares are named only once the whole text has the form, as the grammar does.
    items: list[ActionPattern] = []
    for form, at, found in matched:
        if found is None:  # "--", the end of the turn
            items.append(("end", at, "--"))
            continue
        first = found.group(1).lower()
        if form is _FAST_STEP:
            second = found.group(2).lower()
            items.append(("step", _square(first, at), _square(second, at + found.start(2)), at,
                          f"{first}-{second}"))
            continue
        value, written = _rotation_text(found.group(2))
        if form is _FAST_SPIN:
            items.append(("spin", _square(first, at), value, at, f"{first}{written}"))
            continue
        names = found.group(3).lower()
        given: list[tuple[int, int]] = []
        where = at + found.start(3)
        for name in names.split("/")[1:]:
            where += 1
            given.append((_square(name, where), where))
            where += len(name)
        items.append(("power", _square(first, at + 1), value, tuple(given), at,
                      f"P{first}{written}{names}"))
    return tuple(items)


def _grammar_pattern(text: str) -> tuple[ActionPattern, ...]:
    """:func:`parse_pattern` by the pyparsing grammar, which explains a text that does not fit."""
    try:
        parsed = TURN_GRAMMAR.parse_string(text, parse_all=True)
    except pp.ParseBaseException as error:
        where = min(max(error.loc, 0), len(text))
        raise MoveSyntaxError(f"{text!r} is not a Shih turn: {_HELP}", rule="§12.1",
                              offset=where) from None
    except RecursionError:  # pragma: no cover - pyparsing on absurdly long input
        raise MoveSyntaxError(f"{text[:20]!r}... is not a Shih turn", rule="§12.1") from None
    items: list[ActionPattern] = []
    for group in parsed:
        kind = group[0]
        if kind == "end":
            items.append(("end", group[1][1], "--"))
        elif kind == "step":
            (origin, at), (target, at2) = group[1], group[2]
            items.append(("step", _square(origin, at), _square(target, at2), at,
                          f"{origin}-{target}"))
        elif kind == "spin":
            (target, at), rotation = group[1], group[2]
            value, written = _rotation_text(rotation)
            items.append(("spin", _square(target, at), value, at, f"{target}{written}"))
        else:
            (target, at), rotation, surrender = group[1], group[2], group[3]
            value, written = _rotation_text(rotation)
            given = tuple((_square(name, where), where) for name, where in surrender)
            names = "".join(f"/{name}" for name, _where in surrender)
            items.append(("power", _square(target, at), value, given, max(at - 1, 0),
                          f"P{target}{written}{names}"))
    return tuple(items)


def resolve_move(text: str, position: Position,
                 notation: str | None = None) -> Resolution[Move]:
    """The legal turn that ``text`` names in ``position`` (§12.1), as a :class:`Resolution`
    (a token has one reading and no warning).

    ``notation`` ``"shih"`` refuses ``=`` rotations, ``"shih-wall"`` refuses ``cw``/``ccw``;
    ``None`` accepts both. Raises MoveSyntaxError (E-SYNTAX, E-BAD-SQUARE) or
    IllegalMoveError (E-ILLEGAL-MOVE, E-MOVE-AFTER-END) with the §13 message. Does not change
    ``position``.
    """
    if notation is not None and notation not in NOTATIONS:
        raise MoveSyntaxError(f"unknown notation {notation!r} for Shih", rule="§12.3")
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a Shih turn is text, not {type(text).__name__}", rule="§12.1")
    items = parse_pattern(text)
    if notation is not None:
        for item in items:
            if item[0] in ("spin", "power"):
                rotation = item[2]  # a spin's or power spin's rotation text
                wall_form = isinstance(rotation, str) and rotation in SIDE_LETTERS
                if wall_form != (notation == "shih-wall"):
                    raise MoveSyntaxError(f"{item[-1]}: notation {notation} writes rotations as "
                                          f"{'=H/=S/=B' if notation == 'shih-wall' else 'cw/ccw'}",
                                          rule="§12.3", offset=item[-2])
    return Resolution(position.resolve(items, format_action))


def format_action(action: Action, wall: int = -1) -> str:
    """One action's text; ``wall`` (a side index) selects the ``=`` form of a rotation.

    >>> format_action(PowerSpin(0, True, (45, 46, 47)))
    'Pa1cw/d13/d14/d15'
    """
    if isinstance(action, Step):
        return f"{NAMES[action.origin]}-{NAMES[action.target]}"
    rotation = f"={SIDE_LETTERS[wall]}" if wall >= 0 else ("cw" if action.clockwise else "ccw")
    if isinstance(action, Spin):
        return f"{NAMES[action.target]}{rotation}"
    surrender = "".join(f"/{NAMES[space]}" for space in action.surrender)
    return f"P{NAMES[action.target]}{rotation}{surrender}"


def format_move(move: Move, position: Position, notation: str | None = None) -> str:
    """The canonical token of a legal turn in ``notation`` (default ``shih``) (§12.1–§12.3)."""
    if not move.actions:
        return "--"
    if notation == "shih-wall":
        walls = position.wall_sides(move)
    else:
        walls = [-1] * len(move.actions)
    text = ",".join(format_action(action, wall) for action, wall in zip(move.actions, walls))
    return text + ",--" if move.early_end else text


def sniff(move_texts: Sequence[str]) -> bool:
    """Whether the first tokens all parse as Shih turns (and one is more than ``--``)."""
    seen_action = False
    for text in move_texts:
        try:
            items = parse_pattern(text)
        except MoveSyntaxError:
            return False
        seen_action = seen_action or any(item[0] != "end" for item in items)
    return seen_action


class ShihDialect(Dialect):
    """Untagged Shih movetext: turn tokens only; everything else as the defaults."""

    def sniff(self, move_texts: Sequence[str]) -> bool:
        return sniff(list(move_texts))


DIALECT = ShihDialect()
"""How other programs write Shih records (read by the replay driver)."""


# ---- moves as JSON ---------------------------------------------------------------------------


def move_to_json(move: Move, position: Position) -> dict[str, Any]:
    """The turn as JSON: its token, its actions, and what each did (captures etc.).

    Only ``token`` is read back by :func:`move_from_json`; the rest is for programs.
    """
    effects = position.effects(move)
    sides = position.wall_sides(move)
    actions = []
    for action, effect, wall in zip(move.actions, effects, sides):
        entry: dict[str, Any] = {"kind": effect.kind, "mp": effect.mp}
        if isinstance(action, Step):
            entry["from"] = NAMES[action.origin]
            entry["to"] = NAMES[action.target]
        else:
            entry["target"] = NAMES[action.target]
            entry["direction"] = "cw" if action.clockwise else "ccw"
            entry["wall"] = SIDE_LETTERS[wall]
            entry["captured"] = [NAMES[s] for s in effect.captured]
            if effect.self_captured:
                entry["self_captured"] = [NAMES[s] for s in effect.self_captured]
            if type(action) is PowerSpin:
                entry["surrender"] = [NAMES[s] for s in effect.surrendered]
        entry["ended_game"] = effect.ended
        actions.append(entry)
    return {"token": format_move(move, position), "actions": actions,
            "early_end": move.early_end}


def move_from_json(data: Any, position: Position) -> Move:
    """The turn a :func:`move_to_json` object (its ``token``) or a bare token names."""
    if isinstance(data, dict):
        data = data.get("token")
    if not isinstance(data, str):
        raise MoveSyntaxError("a Shih move in JSON is a token string or an object with "
                              "a 'token' string", rule="§12")
    return resolve_move(data, position).move
