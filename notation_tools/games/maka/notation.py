"""Maka-Dai-Dai Shogi move notations: TSA (ShogiVar), ``tsa-full``, ``coord`` and JSON (§9).

Parsing is two steps (G2): a pyparsing grammar turns the token into a pattern (cached per
text), then :func:`resolve_move` matches the pattern against the engine's legal moves and, when
nothing matches, asks the explain module which rule the move breaks. Formatting writes the
canonical form of §9.4, adding an origin exactly when ShogiVar would. :data:`DIALECT` says how
ShogiVar writes its records (§9.8).

This module holds no movement rule: every legality question goes to the rules module.

>>> from notation_tools.games.maka import GAME
>>> pos = GAME.start_position(GAME.parse_rules(None))
>>> move = resolve_move("P-10m", pos).move
>>> format_move(move, pos, "coord")
'10n10m'
"""

from __future__ import annotations

import dataclasses
import fractions
import functools
import json
import re
from collections.abc import Collection, Sequence
from typing import Any

import pyparsing as pp

from notation_tools.games.base import (AmbiguousMoveError, Dialect, EngineError,
                                       IllegalMoveError, MoveSyntaxError, Resolution)
from notation_tools.games.maka.explain import (describe, explain, filter_reason, piece_name,
                                              piece_type)
from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.pieces import (ALIASES, FGO_ID, GOLD_ID, GP_ID, LOOK_ALIKES,
                                              MAX_TOKEN_LENGTH, NEIGHBOURS, NEVER_PROMOTES, RANKS,
                                              SIDE_NAMES, TYPE_BY_ABBR, TYPE_ID, TYPE_OF_ID, TYPES,
                                              parse_square, possible_origins, square_name)
from notation_tools.games.maka.rules import Position

NOTATIONS = ("tsa", "tsa-full", "coord")

# ---- grammar (§9.1, §9.6) -------------------------------------------------------------------

_square = pp.Regex(r"[0-9]+[a-wyz]")("square")
_designation = pp.Regex(r"\+*[A-Z][A-Za-wyz]*")
_leg = pp.Group(pp.one_of("- x") + _square)
_body = (pp.Literal("x!") + _square) | pp.Literal("!") | pp.Group(_leg[1, 3])("legs")
TSA_GRAMMAR = (_designation("designation") + pp.Opt(_square)("origin") + _body("body")
               + pp.Opt(pp.one_of("+ ="))("mark") + pp.StringEnd())
COORD_GRAMMAR = (pp.Group(_square[1, 4])("squares") + pp.Opt(pp.Literal("!"))("pass")
                 + pp.Opt(pp.one_of("+ ="))("mark") + pp.StringEnd())
TSA_GRAMMAR.leave_whitespace()
COORD_GRAMMAR.leave_whitespace()
for _element in (_square, _designation, _leg, _body):
    _element.leave_whitespace()


@dataclasses.dataclass(frozen=True, slots=True)
class Pattern:
    """What a token says, before any position is consulted.

    ``kind``: ``tsa`` or ``coord``; ``types``: candidate type ids (``None`` in coord);
    ``body``: ``pass``, ``igui`` or ``legs``; ``legs``: ``((mark, square), ...)`` with mark
    ``-``, ``x`` or ``""`` (coord: implied by the position).
    """

    kind: str
    designation: str | None
    types: tuple[int, ...] | None
    origin: int | None
    body: str
    legs: tuple[tuple[str, int], ...]
    mark: str


def _syntax(message: str, offset: int = 0, code: str | None = None,
            rule: str = "§9.1") -> MoveSyntaxError:
    return MoveSyntaxError(message, rule=rule, offset=offset, code=code)


def _check_square(text: str, offset: int) -> int:
    sq = parse_square(text)
    if sq is None:
        digits = text[:-1]
        if digits.startswith("0"):
            why = "no leading zeros"
        elif text[-1] not in RANKS:
            why = "ranks are a-s"
        else:
            why = "files are 1-19"
        raise _syntax(f'"{text}" is not a square ({why})', offset, code="E-BAD-SQUARE")
    return sq


def designation_types(text: str) -> tuple[int, ...]:
    """Type ids a designation may mean (§3.4, §9.2 step 2); raises E-UNKNOWN-PIECE.

    >>> [TYPE_OF_ID[i].abbr for i in designation_types("G")]
    ['G', '+G']
    """
    if text == "G":
        return (GOLD_ID, GP_ID)
    if text == "+G":
        return (FGO_ID, GP_ID)
    if text in TYPE_BY_ABBR and text != "+G":
        return (TYPE_ID[text],)
    if text in ALIASES:
        return (TYPE_ID[ALIASES[text]],)
    base = text.lstrip("+")
    if text.startswith("+") and base in NEVER_PROMOTES:
        raise _syntax(f"{base} never promotes", code="E-UNKNOWN-PIECE", rule="§3.4")
    if text.startswith("+") and base in TYPE_BY_ABBR:
        raise _syntax(f"{text}: {base} is already a promoted type", code="E-UNKNOWN-PIECE",
                      rule="§3.4")
    suggestions = [a for pair in LOOK_ALIKES if base in pair for a in pair if a != base]
    suggestions += [t.abbr for t in TYPES if t.abbr.lower() == base.lower() and t.abbr != base
                    and t.abbr not in suggestions]
    hint = ""
    if suggestions:
        names = " or ".join(f"{a} ({TYPE_BY_ABBR[a].name})" for a in suggestions[:3])
        hint = f"; did you mean {names}?"
    raise _syntax(f'no piece is abbreviated "{text}"{hint}', code="E-UNKNOWN-PIECE",
                  rule="§3.4")


@functools.lru_cache(maxsize=8192)
def _parse_cached(text: str, kind: str) -> Pattern | EngineError:
    try:
        return _parse_pattern(text, kind)
    except EngineError as error:
        # Cached without its traceback: a traceback's frames link to every caller's frame,
        # and 8,192 cached errors kept as many replays (records, positions) alive.
        error.__context__ = error.__cause__ = None
        return error.with_traceback(None)


def parse_pattern(text: str, notation: str | None = None) -> Pattern:
    """The syntax of a token (any notation unless narrowed); raises E-SYNTAX and friends.

    >>> parse_pattern("Lnx10ix9h+").legs
    (('x', 161), ('x', 143))
    """
    kind = "coord" if (notation == "coord" or (notation is None and text[:1].isdigit())) else "tsa"
    result = _parse_cached(text, kind)
    if isinstance(result, EngineError):
        raise type(result)(result.message, rule=result.rule, code=result.code,
                           offset=result.offset)
    return result


def _parse_pattern(text: str, kind: str) -> Pattern:
    if not text or len(text) > MAX_TOKEN_LENGTH or not text.isascii() or not text.isprintable() or " " in text:
        raise _syntax(f"cannot read {text!r} as a Maka-Dai-Dai Shogi move")
    if kind == "coord":
        match = COORD_RE.fullmatch(text)
        result: dict[str, Any] | pp.ParseResults
        if match is not None:
            square_texts = _SQUARE_RE.findall(match.group(1))
            result = {"squares": square_texts, "mark": match.group(3)}
            if match.group(2):
                result["pass"] = "!"
        else:
            try:
                result = COORD_GRAMMAR.parse_string(text)
            except pp.ParseBaseException as error:
                raise _syntax(f'cannot read "{text}" as a coordinate move (squares, then ! or '
                              f'a mark)', error.loc, rule="§9.6") from None
        offset = 0
        squares = []
        for sq_text in result["squares"]:
            squares.append(_check_square(sq_text, text.index(sq_text, offset)))
            offset = text.index(sq_text, offset) + len(sq_text)
        is_pass = "pass" in result
        if is_pass and len(squares) != 1 or not is_pass and len(squares) < 2:
            raise _syntax(f'cannot read "{text}": a coordinate move is the origin, then the '
                          "path squares or !", rule="§9.6")
        path = tuple(("", s) for s in squares[1:])
        return Pattern("coord", None, None, squares[0], "pass" if is_pass else "legs", path,
                       result["mark"] if "mark" in result else "")
    parts = _split_tsa(text)
    designation, origin_text, kind_body, raw_legs, mark = parts
    types = designation_types(designation)
    position = len(designation)
    origin = None
    if origin_text:
        origin = _check_square(origin_text, position)
        position += len(origin_text)
    legs: list[tuple[str, int]] = []
    if kind_body == "igui":
        legs.append(("x", _check_square(raw_legs[0][1], position + 2)))
    elif kind_body == "legs":
        for leg_mark, sq_text in raw_legs:
            offset = text.index(leg_mark + sq_text, position)
            legs.append((leg_mark, _check_square(sq_text, offset + 1)))
            position = offset + 1 + len(sq_text)
    return Pattern("tsa", designation, types, origin, kind_body, tuple(legs), mark)


# The same language as TSA_GRAMMAR, compiled once: most tokens are read through this fast
# path, and the pyparsing grammar runs when it fails, to locate and explain the error (a test
# checks that both accept exactly the same texts).
_SQ = r"[0-9]+[a-wyz]"
TSA_RE = re.compile(rf"(\+*[A-Z][A-Za-wyz]*)({_SQ})?(?:(x!)({_SQ})|(!)|((?:[-x]{_SQ}){{1,3}}))([+=]?)")
_LEG_RE = re.compile(rf"([-x])({_SQ})")
COORD_RE = re.compile(rf"((?:{_SQ}){{1,4}})(!?)([+=]?)")
_SQUARE_RE = re.compile(_SQ)


def _split_tsa(text: str) -> tuple[str, str | None, str, list[tuple[str, str]], str]:
    """(designation, origin text, body kind, legs, mark) of a TSA token; raises E-SYNTAX."""
    match = TSA_RE.fullmatch(text)
    if match is not None:
        designation, origin, igui, igui_sq, bang, legs, mark = match.groups()
        if igui:
            return designation, origin, "igui", [("x", igui_sq)], mark
        if bang:
            return designation, origin, "pass", [], mark
        return designation, origin, "legs", _LEG_RE.findall(legs), mark
    try:
        result = TSA_GRAMMAR.parse_string(text)
    except pp.ParseBaseException as error:
        if "!" in text and "x!" not in text and text.rstrip("+=")[-1:] != "!":
            raise _syntax(f'cannot read "{text}"; igui is written Lnx!9d or Lnx9d-<origin>',
                          error.loc) from None
        detail = "a leg needs a square" if text.rstrip("+=")[-1:] in "-x" else \
            "expected a piece, an optional origin, then -square, xsquare, ! or x!square"
        raise _syntax(f'cannot read "{text}"; {detail}', error.loc) from None
    # ParseResults.get is untyped; "name in result" and result[name] are what it does.
    origin = result["origin"] if "origin" in result else None
    if isinstance(origin, pp.ParseResults):
        origin = origin[0] if origin else None
    mark = result["mark"] if "mark" in result else ""
    body = result["body"]
    if body[0] == "!":
        return result["designation"], origin, "pass", [], mark
    if body[0] == "x!":
        return result["designation"], origin, "igui", [("x", body[1])], mark
    return (result["designation"], origin, "legs", [(m, q) for m, q in result["legs"]], mark)


# ---- resolving against a position (§9.2) ----------------------------------------------------


def _illegal(message: str, rule: str = "§6", code: str | None = None) -> IllegalMoveError:
    return IllegalMoveError(message, rule=rule, code=code)


def _is_king_step(a: int, b: int) -> bool:
    return b in NEIGHBOURS[a]


def _written_path(pos: Position, origin: int, code: int, pattern: Pattern) -> tuple[int, frozenset[int]]:
    """Check a several-leg path as written (§6.3, §6.5, §9.1); return (final, captures)."""
    board = pos.board
    side = code & 1
    t = pos.t
    name = piece_name(code)
    path = [sq for _, sq in pattern.legs]
    limit = t.multi_leg[code]
    if not limit:
        raise _syntax("only pieces with Lion power can make a move with several legs",
                      code="E-MULTI-LEG")
    if len(path) > limit:
        raise _syntax(f"a {name} moves at most {limit} legs", code="E-MULTI-LEG")
    previous = origin
    for sq in path:
        if not _is_king_step(previous, sq):
            raise _illegal(f"legs of a several-leg move are single king steps: "
                           f"{square_name(previous)} to {square_name(sq)} is not", "§6.3")
        previous = sq
    if t.lion[code] < len(path):
        # beyond the Lion range only the linear Lion Dog shapes remain (§6.5)
        d1 = path[0]
        step = d1 - origin
        d2, d3 = d1 + step, d1 + 2 * step
        shapes: list[tuple[int, ...]] = [(d1, origin)]
        if _is_king_step(d1, d2):
            shapes += [(d1, d2), (d1, d2, d1)]
            if _is_king_step(d2, d3):
                shapes.append((d1, d2, d3))
        if not t.ldog[code] or tuple(path) not in shapes:
            raise _illegal(f"a {name} makes its several-leg moves along one line (§6.5): "
                           f"{'-'.join(square_name(s) for s in [origin, *path])} is not one",
                           "§6.5")
    vacated = {origin}
    captures: list[int] = []
    for mark, sq in pattern.legs:
        here = board[sq]
        if sq in vacated or not here:
            if mark == "x":
                raise _illegal(f"{square_name(sq)} is empty at that point; a leg marked x must "
                               "capture", "§9.1", "E-CAPTURE-MARK")
            continue
        if here & 1 == side:
            raise _illegal(f"{square_name(sq)} holds a {describe(here)}; a {name} step cannot "
                           "go through it", "§6.3")
        if mark == "-":
            fixed = "".join(("x" if s == sq else m) + square_name(s) for m, s in pattern.legs)
            origin_text = square_name(pattern.origin) if pattern.origin is not None else ""
            hint = (f"write {pattern.designation}{origin_text}{fixed}{pattern.mark}"
                    if pattern.designation else "x marks a capture")
            raise _illegal(f"{square_name(sq)} holds a {describe(here)}; {hint}",
                           "§9.1", "E-CAPTURE-MARK")
        captures.append(sq)
        vacated.add(sq)
    return path[-1], frozenset(captures)


def _select_mark(pos: Position, group: list[Move], mark: str, text: str,
                 warnings: list[tuple[str, str, str]]) -> Move:
    """Apply the promotion mark to the moves of one identity group (§9.2 step 4)."""
    first = group[0]
    kinds = {pos.promotion_kind(m): m for m in group}
    promotion = pos.options.promotion
    code = pos.board[first.origin]
    name = piece_name(code)
    if "contagion" in kinds:
        if mark == "=":
            raise _illegal(f"{text}: the capture converts the {name} (deva-contagion=on); it "
                           "cannot be declined", "§6.9", "E-PROMOTION")
        if mark == "+":
            warnings.append(("W-PROMOTION-MARK", f"{text}: contagion is never marked", "§6.9"))
        return kinds["contagion"]
    if "promote" in kinds and "decline" in kinds:
        if mark == "+":
            return kinds["promote"]
        if mark == "":
            warnings.append(("W-PROMOTION-MARK", f"{text}: no mark on a capture that could "
                             f"promote; read as declined (write + or =)", "§9.2"))
        return kinds["decline"]
    if "promote" in kinds:
        if mark == "=":
            raise _illegal(f"{text}: promotion is compulsory on this capture "
                           f"(promotion={promotion})", "§6.8", "E-PROMOTION")
        if mark == "":
            warnings.append(("W-PROMOTION-MARK", f"the {name} promotes by capturing; write "
                             f"{text}+", "§6.8"))
        return kinds["promote"]
    if "decline" in kinds:  # only the declined reading survived a filter
        if mark == "+":
            raise _illegal(f"{text}: the {name} cannot promote here", "§6.8", "E-PROMOTION")
        return kinds["decline"]
    if mark:
        if promotion == "forced" and mark == "+":
            warnings.append(("W-PROMOTION-MARK", f"{text}: no promotion happens; the + is "
                             "superfluous", "§9.2"))
        else:
            why = "never promotes" if not pos.t.promotes[code] else "does not promote here"
            raise _illegal(f"{text}: a {name} {why} (promotion={promotion})", "§6.8",
                           "E-PROMOTION")
    return first


def resolve_move(text: str, pos: Position, notation: str | None = None) -> Resolution[Move]:
    """The legal move a token names in ``pos`` (§9.2), with warnings (W-PROMOTION-MARK,
    W-SELF-CHECK under `self-check=warn`) and, in the Gold case (§9.2 step 6), the other
    reading as an alternative.

    See :func:`_resolve` for the errors raised.
    """
    move, warnings, alternatives, alternative_warnings = _resolve(text, pos, notation)
    if pos.options.self_check == "warn":
        for reading, its_warnings in ((move, warnings), *zip(alternatives,
                                                              alternative_warnings)):
            _warn_self_check(pos, reading, its_warnings)
    return Resolution(move, warnings, alternatives, alternative_warnings)


def _warn_self_check(pos: Position, move: Move, warnings: list[tuple[str, str, str]]) -> None:
    """Add W-SELF-CHECK to ``warnings`` when ``move`` leaves its side's only royal capturable."""
    side = pos.turn
    pos.push(move)
    try:
        by = pos.self_check_by(side)
        if by is not None:
            royal = pos.royals(side)[0]
            warnings.append((
                "W-SELF-CHECK",
                f"{SIDE_NAMES[side]} leaves its only royal piece ({piece_name(pos.board[royal])} "
                f"on {square_name(royal)}) capturable by the {describe(pos.board[by])} on "
                f"{square_name(by)}", "§6.11"))
    finally:
        pos.pop()


_Warnings = list[tuple[str, str, str]]
_Found = tuple[Move, _Warnings, tuple[Move, ...], tuple[_Warnings, ...]]
"""What :func:`_resolve` finds: the move, its warnings ``(code, message, rule)``, the
alternative readings, and each alternative's own warnings."""


def _resolve(text: str, pos: Position, notation: str | None = None) -> _Found:
    """The legal move a token names in ``pos`` (§9.2), with warnings and alternatives.

    Raises :class:`MoveSyntaxError` (E-SYNTAX, E-BAD-SQUARE, E-UNKNOWN-PIECE, E-MULTI-LEG),
    :class:`IllegalMoveError` (E-ILLEGAL-MOVE, E-NO-PIECE, E-CAPTURE-MARK, E-PROMOTION,
    E-MOVE-AFTER-END) or :class:`AmbiguousMoveError` (E-AMBIGUOUS). Does not change ``pos``
    (beyond pushing and popping trial moves).
    """
    if not isinstance(text, str):
        raise _syntax("a move is text")
    if notation is not None and notation not in NOTATIONS:
        raise _syntax(f"unknown notation {notation!r}")
    pattern = parse_pattern(text, "coord" if notation == "coord" else
                            (None if notation is None else "tsa"))
    if not pos.royals_on_both_sides():
        outcome = pos.outcome()
        assert outcome is not None
        raise _illegal(f"the game is over: {outcome.detail}", "§6.10", "E-MOVE-AFTER-END")
    found = _resolve_by_target(text, pattern, pos)
    return found if found is not None else resolve_pattern(text, pattern, pos)


def _resolve_by_target(text: str, pattern: Pattern, pos: Position) -> _Found | None:
    """The common case of §9.2 found from the destination backwards: a one-leg move of a
    piece without Lion power that is not the Emperor, of which exactly one piece of its type
    reaches the target (only the pieces on squares that reach it on an empty board are tried,
    where the type has that table). ``None`` when :func:`resolve_pattern` must decide: another
    case, or a fault to explain. Gives what it would (a test checks it).
    """
    if pattern.body != "legs" or len(pattern.legs) != 1:
        return None
    mark, target = pattern.legs[0]
    side = pos.turn
    board = pos.board
    origin = pattern.origin
    types = pattern.types
    if types is None:  # coord: the origin names the piece
        code = board[origin] if origin is not None else 0
        if not code or code & 1 != side:
            return None
    elif len(types) == 1:
        code = types[0] * 2 + side
    else:
        return None
    t = pos.t
    if t.emperor[code] or t.lion[code] or t.ldog[code]:
        return None
    origins = possible_origins(t, code)  # None for a hook mover: it may come from anywhere
    near: Collection[int]
    if origin is None:
        near = pos.squares[code] if origins is None else pos.squares[code] & origins[target]
    elif board[origin] != code or origins is not None and origin not in origins[target]:
        return None
    else:
        near = (origin,)
    here = board[target]
    if here and (here & 1 == side or mark == "-") or not here and mark == "x":
        return None
    moves: list[Move] = []
    for sq in near:
        reaching = pos.moves_from(sq, target) if pos.options.filters_moves \
            else pos.moves_to(sq, code, target)
        if reaching:
            if moves:
                return None  # several pieces reach it: the general route says how
            moves = reaching
    if not moves:
        return None
    warned: _Warnings = []
    if len(moves) == 1 and not pattern.mark and not here:
        return moves[0], warned, (), ()
    return _select_mark(pos, moves, pattern.mark, text, warned), warned, (), ()


def _pattern_sources(pattern: Pattern, pos: Position) -> list[tuple[int, int]]:
    """The ``(square, piece code)`` of each piece of the side to move that the pattern may
    name, narrowed for a one-leg move to those a cheap geometric test lets reach its square;
    raises when there is none (§9.2), or when none can make the several legs written."""
    side = pos.turn
    board = pos.board
    sources: list[tuple[int, int]]
    if pattern.origin is not None:
        here = board[pattern.origin]
        where = square_name(pattern.origin)
        if not here:
            raise _illegal(f"{where} is empty", "§9.2", "E-NO-PIECE")
        if here & 1 != side:
            raise _illegal(f"{where} holds a {describe(here)}, and {SIDE_NAMES[side]} is to move",
                           "§9.2", "E-NO-PIECE")
        if pattern.types is not None and here >> 1 not in pattern.types:
            wanted = piece_type(pattern.types[0]).name
            raise _illegal(f"{where} holds a {describe(here)}, not a {wanted}", "§9.2",
                           "E-NO-PIECE")
        sources = [(pattern.origin, here)]
    else:
        assert pattern.types is not None
        if len(pattern.types) == 1:
            code = pattern.types[0] * 2 + side
            sources = [(s, code) for s in pos.squares[code]]
        else:
            sources = sorted((s, tid * 2 + side) for tid in pattern.types
                             for s in pos.squares[tid * 2 + side])
        if not sources:
            names = " or ".join(piece_type(tid).name for tid in pattern.types)
            raise _illegal(f"{SIDE_NAMES[side]} has no {names}", "§9.2", "E-NO-PIECE")
    t = pos.t
    several = pattern.body in ("pass", "igui") or len(pattern.legs) > 1
    if several and pattern.kind == "tsa" or pattern.body == "pass":
        able = [(s, c) for s, c in sources if t.multi_leg[c]]
        if not able:
            name = piece_name(sources[0][1])
            hook = ""
            if t.hook[sources[0][1]] is not None and pattern.legs:
                hook = (f"; a {name}'s turning square is not written "
                        f"({pattern.designation}-{square_name(pattern.legs[-1][1])})")
            raise _syntax(f"only pieces with Lion power can make a move with several legs, "
                          f"pass or igui{hook}", code="E-MULTI-LEG")
        sources = able
    # candidate moves per source; a cheap geometric test skips pieces that cannot reach
    if pattern.body == "legs" and len(pattern.legs) == 1:
        target = pattern.legs[0][1]
        near: list[tuple[int, int]] = []
        for c in {c for _, c in sources}:
            origins = possible_origins(pos.t, c)
            if origins is None:
                near.extend((s, c2) for s, c2 in sources if c2 == c)
            else:
                near.extend((s, c) for s in pos.squares[c] & origins[target]
                            if pattern.origin is None or s == pattern.origin)
        near.sort()
        if near:
            sources = near
    return sources


def _choose_reading(text: str, pattern: Pattern, pos: Position, matches: list[Move]) -> _Found:
    """The reading of ``text`` among the legal ``matches`` (at least one): grouped by what
    they do, the mark applied; the Gold case keeps its alternative; raises
    :class:`AmbiguousMoveError` when several pieces fit (§9.2)."""
    side = pos.turn
    board = pos.board
    # group by identity, then apply the mark
    if len(matches) == 1:
        warned: list[tuple[str, str, str]] = []
        return _select_mark(pos, matches, pattern.mark, text, warned), warned, (), ()
    groups: dict[tuple[Any, ...], list[Move]] = {}
    for m in matches:
        groups.setdefault((m.origin, m.target, frozenset(m.captures)), []).append(m)
    # Each reading keeps its own warnings: a mark superfluous for one reading may be right
    # for the other, and only the reading the record confirms may speak.
    warnings_of: dict[Move, _Warnings] = {}
    chosen = []
    for group in groups.values():
        own: _Warnings = []
        reading = _select_mark(pos, group, pattern.mark, text, own)
        warnings_of[reading] = own
        chosen.append(reading)
    if len(chosen) == 1:
        return chosen[0], warnings_of[chosen[0]], (), ()
    chosen.sort(key=lambda m: m.origin)
    if all(m.is_pass for m in chosen):
        return chosen[0], warnings_of[chosen[0]], (), ()
    if pattern.designation == "G" and pattern.origin is None:
        # ShogiVar would have written an origin for a piece with a same-type rival (§9.4)
        def alone(m: Move) -> bool:
            code = board[m.origin]
            return not any(next(pos.generate_legal_moves(origin=s, target=m.target), None) is not None
                           for s in pos.squares[code] if s != m.origin)

        chosen = [m for m in chosen if alone(m)]
        if len(chosen) == 1:
            return chosen[0], warnings_of[chosen[0]], (), ()
        codes = {board[m.origin] >> 1 for m in chosen}
        if len(chosen) == 2 and codes == {GOLD_ID, GP_ID}:
            chosen.sort(key=lambda m: m.origin)
            return (chosen[0], warnings_of[chosen[0]], (chosen[1],),
                    (warnings_of[chosen[1]],))
        if not chosen:
            raise AmbiguousMoveError(f"{text}: several Golds can make this move; write the "
                                     "origin", rule="§9.2")
    chosen.sort(key=lambda m: m.origin)
    origin_names = " and ".join(square_name(m.origin) for m in chosen)
    first = chosen[0]
    piece_names = sorted({piece_name(board[m.origin]) for m in chosen})
    plural = (piece_names[0].split()[0] + "s" if len(piece_names) == 1
              else " or ".join(piece_names) + " pieces")
    count = {2: "two", 3: "three"}.get(len(chosen), str(len(chosen)))
    written = format_move(first, pos, "tsa-full")
    raise AmbiguousMoveError(f"ambiguous: {count} {SIDE_NAMES[side]} {plural} can reach "
                             f"{square_name(first.target)} (from {origin_names}); write the origin, "
                             f"e.g. {written}", rule="§9.2")


def resolve_pattern(text: str, pattern: Pattern, pos: Position) -> _Found:
    """What :func:`_resolve` finds, by the general route of §9.2: every piece the pattern may
    name, its legal moves matched against the pattern, faults explained. The reference for
    :func:`_resolve_by_target` (the game must not be over)."""
    side = pos.turn
    board = pos.board
    sources = _pattern_sources(pattern, pos)
    matches: list[Move] = []
    failed: list[tuple[int, int]] = []
    reasons: list[str] = []
    single = pattern.legs[0][1] if pattern.body == "legs" and len(pattern.legs) == 1 else None
    for sq, code in sources:
        moves = pos.moves_from(sq, single)
        try:
            found = _match(pos, sq, code, pattern, moves, text)
        except EngineError as error:
            if len(sources) == 1:
                raise
            reasons.append(error.message)
            continue
        if isinstance(found, str):
            reasons.append(found)
        elif found is None:
            failed.append((sq, code))
        else:
            matches.extend(found)
    final_target = pattern.legs[-1][1] if pattern.body == "legs" else None
    if not matches:
        if len(sources) == 1 and failed and final_target is not None:
            here = board[final_target]
            raise _illegal(explain(pos, sources[0][0], final_target,
                                   bool(here) and here & 1 != side))
        if len(sources) == 1 and reasons:
            raise _illegal(reasons[0])
        name = piece_name(sources[0][1])
        if final_target is not None:
            capture = pattern.legs[-1][0] == "x" or (
                pattern.kind == "coord" and bool(board[final_target]))
            verb = "capture on" if capture else "move to"
            raise _illegal(f"no {name} of {SIDE_NAMES[side]} can {verb} "
                           f"{square_name(final_target)}")
        raise _illegal(reasons[0] if reasons else f"no {name} of {SIDE_NAMES[side]} can make "
                       f"the move {text}")
    return _choose_reading(text, pattern, pos, matches)


def output_is_ambiguous(move: Move, pos: Position) -> bool:
    """Whether the canonical ``tsa`` token of ``move`` reads back as more than one move
    (W-AMBIGUOUS-OUTPUT of §9.4; ``convert`` reports it and ``tsa-full`` avoids it).

    >>> from notation_tools.games.maka import GAME
    >>> fen = "18,vK/" + "19/" * 10 + "7,G,1,+G,9/8,vP,10/" + "19/" * 5 + "K,18 b 1"
    >>> pos = GAME.parse_position(fen, GAME.parse_rules(None))
    >>> move = resolve_move("G12l-11l", pos).move
    >>> format_move(move, pos), output_is_ambiguous(move, pos)
    ('G-11l', True)
    """
    try:
        res = resolve_move(format_move(move, pos, "tsa"), pos, "tsa")
    except EngineError:
        return True
    return bool(res.alternatives) or (res.move != move and not move.is_pass)


def _match(pos: Position, sq: int, code: int, pattern: Pattern, moves: list[Move],
           text: str) -> list[Move] | str | None:
    """The legal moves of one piece matching the pattern, a reason string, or None when a
    single-leg move simply is not among them (the caller asks :func:`explain`)."""
    board = pos.board
    side = code & 1
    if pattern.body == "pass":
        found = [m for m in moves if m.is_pass]
        if found:
            return found
        name = piece_name(code)
        if all(board[n] for n in NEIGHBOURS[sq]):
            return (f"the {name} cannot pass: all squares next to it are occupied "
                    f"(lion-pass={pos.options.lion_pass})")
        return f"the {name} on {square_name(sq)} cannot pass"
    if pattern.body == "igui":
        target = pattern.legs[0][1]
        if target not in NEIGHBOURS[sq]:
            return f"igui captures a square next to the piece; {square_name(target)} is not"
        here = board[target]
        if not here or here & 1 == side:
            raise _illegal(f"{square_name(target)} holds no enemy piece; igui (x!) must capture",
                           "§9.1", "E-CAPTURE-MARK")
        found = [m for m in moves if m.target == sq and frozenset(m.captures) == {target}]
        return found or f"the {piece_name(code)} cannot capture {square_name(target)} by igui"
    if len(pattern.legs) == 1:
        mark, target = pattern.legs[0]
        here = board[target]
        enemy = bool(here) and here & 1 != side and target != sq
        if mark == "x" and not enemy:
            what = f"holds a {describe(here)}" if here and target != sq else "is empty"
            raise _illegal(f"{square_name(target)} {what}; x marks a capture", "§9.1",
                           "E-CAPTURE-MARK")
        if mark == "-" and enemy:
            raise _illegal(f"{square_name(target)} holds a {describe(here)}; write "
                           f"{pattern.designation}x{square_name(target)}", "§9.1",
                           "E-CAPTURE-MARK")
        want = frozenset((target,)) if enemy else frozenset()
        found = [m for m in moves if m.target == target and frozenset(m.captures) == want]
        return found or None
    if pattern.kind == "coord":
        legs = []
        vacated = {sq}
        for _, s in pattern.legs:
            here = board[s]
            legs.append(("x" if here and s not in vacated and here & 1 != side else "-", s))
            if here and here & 1 != side:
                vacated.add(s)
        pattern = dataclasses.replace(pattern, legs=tuple(legs), kind="tsa")
    final, captures = _written_path(pos, sq, code, pattern)
    found = [m for m in moves if m.target == final and frozenset(m.captures) == captures]
    if found:
        return found
    for m in pos.piece_moves(sq, code):
        if m.target == final and frozenset(m.captures) == captures:
            reason = filter_reason(pos, m)
            if reason:
                return reason
    return f"no {piece_name(code)} of {SIDE_NAMES[side]} can make the move {text}"


# ---- formatting (§9.4-§9.6) -------------------------------------------------------------------


def legs_text(move: Move) -> str:
    """The canonical legs of §9.4 (``!``, ``-Z``, ``xZ`` or the step path)."""
    if move.is_pass:
        return "!"
    if not move.captures:
        return f"-{square_name(move.target)}"
    if move.captures == (move.target,):
        return f"x{square_name(move.target)}"
    parts = []
    taken = set(move.captures)
    for s in move.path:
        if s in taken:
            parts.append(f"x{square_name(s)}")
            taken.discard(s)
        else:
            parts.append(f"-{square_name(s)}")
    return "".join(parts)


def mark_text(move: Move, pos: Position) -> str:
    kind = pos.promotion_kind(move)
    return {"promote": "+", "decline": "="}.get(kind, "")


def needs_origin(move: Move, pos: Position) -> bool:
    """ShogiVar's origin rule (§9.4): another piece of the same side and internal type has a
    legal move to the same final square. Passes never carry one."""
    if move.is_pass:
        return False
    code = pos.board[move.origin]
    target = move.target
    origins = possible_origins(pos.t, code)
    for s in pos.squares[code]:
        if s != move.origin and (origins is None or s in origins[target]) \
                and pos.moves_from(s, target):
            return True
    return False


def format_move(move: Move, pos: Position, notation: str | None = None) -> str:
    """The text of a legal move in ``tsa`` (default), ``tsa-full``, ``coord`` (§9.4-§9.6) or
    ``json`` (the §9.7 object as JSON text).

    >>> from notation_tools.games.maka import GAME
    >>> pos = GAME.start_position(GAME.parse_rules(None))
    >>> m = resolve_move("Ky-13q", pos).move
    >>> [format_move(m, pos, n) for n in NOTATIONS]
    ['Ky-13q', 'Ky11q-13q', '11q13q']
    """
    notation = notation or "tsa"
    if notation == "json":
        return json.dumps(move_to_json(move, pos))
    mark = mark_text(move, pos)
    if notation == "coord":
        if move.is_pass:
            return f"{square_name(move.origin)}!{mark}"
        path = move.path or (move.target,)
        return square_name(move.origin) + "".join(square_name(s) for s in path) + mark
    if notation not in ("tsa", "tsa-full"):
        raise ValueError(f"unknown notation {notation!r}")
    code = pos.board[move.origin]
    designation = piece_type(code >> 1).designation
    origin = ""
    if notation == "tsa-full" or needs_origin(move, pos):
        origin = square_name(move.origin)
    return f"{designation}{origin}{legs_text(move)}{mark}"


def format_warnings(move: Move, pos: Position,
                    notation: str | None = None) -> Sequence[tuple[str, str]]:
    """W-AMBIGUOUS-OUTPUT when the canonical TSA token reads back as more than one move (§9.4)."""
    if notation not in (None, "tsa") or not output_is_ambiguous(move, pos):
        return ()
    text = format_move(move, pos, "tsa")
    return (("W-AMBIGUOUS-OUTPUT", f"{text} is ambiguous on reading back; use --to tsa-full"),)


# ---- JSON moves (§9.7) ------------------------------------------------------------------------

JSON_CHECKED_KEYS = ("side", "piece", "to", "captures", "captured", "becomes", "tsa", "coord")
"""The keys written on output that input may repeat; they are checked against the move."""


def move_to_json(move: Move, pos: Position) -> dict[str, Any]:
    """The §9.7 object of a legal move.

    >>> from notation_tools.games.maka import GAME
    >>> pos = GAME.start_position(GAME.parse_rules(None))
    >>> move_to_json(resolve_move("P-10m", pos).move, pos)["coord"]
    '10n10m'
    """
    board = pos.board
    code = board[move.origin]
    data: dict[str, Any] = {"from": square_name(move.origin),
                            "legs": [square_name(s) for s in move.path]}
    if move.is_pass:
        data["pass"] = True
    mark = mark_text(move, pos)
    if mark:
        data["mark"] = mark
    data.update({
        "side": "bw"[code & 1], "piece": piece_type(code >> 1).abbr,
        "to": square_name(move.target),
        "captures": [square_name(c) for c in move.captures],
        "captured": [piece_type(board[c] >> 1).abbr for c in move.captures],
        "becomes": piece_type(move.becomes).abbr if move.becomes != code >> 1 else None,
        "tsa": format_move(move, pos, "tsa"),
        "coord": format_move(move, pos, "coord"),
    })
    return data


def move_from_json(data: Any, pos: Position) -> Move:
    """Read a §9.7 object (or a tsa/coord string); the keys of :data:`JSON_CHECKED_KEYS`, when
    present, must agree with the move (E-ILLEGAL-MOVE naming the key)."""
    if isinstance(data, str):
        return _resolve(data, pos, "coord" if data[:1].isdigit() else "tsa")[0]
    if not isinstance(data, dict):
        raise MoveSyntaxError(f"a Maka move in JSON is an object or a string, not "
                              f"{type(data).__name__}", rule="§9.7")
    origin = data.get("from")
    if not isinstance(origin, str) or parse_square(origin) is None:
        raise MoveSyntaxError('a JSON move needs "from" (a square)', rule="§9.7")
    mark = data.get("mark", "")
    if mark not in ("", "+", "=", None):
        raise MoveSyntaxError(f'"mark" is "+" or "=", not {mark!r}', rule="§9.7")
    if data.get("pass") is True:
        text = f"{origin}!{mark or ''}"
    else:
        legs = data.get("legs")
        if not isinstance(legs, list) or not legs or not all(isinstance(s, str) for s in legs):
            raise MoveSyntaxError('a JSON move needs "legs" (a list of squares) or '
                                  '"pass": true', rule="§9.7")
        text = origin + "".join(legs) + (mark or "")
    move = _resolve(text, pos, "coord")[0]
    written = move_to_json(move, pos)
    for key in JSON_CHECKED_KEYS:
        if key in data and data[key] != written[key]:
            raise IllegalMoveError(f"JSON key {key!r} is {data[key]!r}, but the move gives "
                                   f"{written[key]!r}", rule="§9.7")
    return move


# ---- how other programs write records (§9.8) --------------------------------------------------

TEXT_SCORE_TITLE = ("Ultra", "Great", "Great", "Shogi", "-", "Game", "Record")
"""The words of the first title line of ShogiVar's text score."""
SNIFF_SHARE = fractions.Fraction(4, 5)
"""The share of words that must read as TSA moves for untagged movetext to be Maka's."""


class MakaDialect(Dialect):
    """How ShogiVar writes Maka records (§9.8): its text score's title lines, the word
    ``mate``, and the ``-`` placeholder of a handicap game's first move."""

    suffixes = (".txt", ".tsa", ".kif")
    placeholder = "-"
    fork_warning = "W-AMBIGUOUS-GOLD"  # §9.2 step 6
    ignored_words = frozenset({"mate"})  # ShogiVar appends it to a mating move (§9.8)

    def preamble_length(self, move_texts: Sequence[str]) -> int:
        """ShogiVar's text score opens with two title lines (§9.8): ``Ultra Great Great Shogi
        -  Game Record`` and a line of underscores; their words are skipped."""
        title = len(TEXT_SCORE_TITLE)
        if tuple(move_texts[:title]) != TEXT_SCORE_TITLE:
            return 0
        rule = move_texts[title:title + 1]
        return title + 1 if rule and set(rule[0]) == {"_"} else title

    def sniff(self, move_texts: Sequence[str]) -> bool:
        """Whether untagged movetext looks like ShogiVar's TSA notation (§9.8)."""
        words = [w for w in move_texts if w not in ("-", "mate")]
        if not words:
            return False
        good = 0
        for word in words:
            try:
                pattern = parse_pattern(word, "tsa")
            except EngineError:
                continue
            if pattern.kind == "tsa":
                good += 1
        return good >= SNIFF_SHARE * len(words)


DIALECT = MakaDialect()
