"""Replaying Maka-Dai-Dai Shogi tokens with the Gold case of spec §9.2 step 6.

ShogiVar writes ``G-11l`` when an original Gold and a gold-promoted Gold can both reach 11l,
so a record may not say which moved. :func:`replay_tokens` keeps both continuations (at most
8) and drops those that later tokens prove wrong. It is a pure function over token texts;
diagnostics come back as data, never printed.

>>> from notation_tools.games.maka import GAME
>>> pos = GAME.start_position(GAME.parse_rules(None))
>>> result = replay_tokens(pos, ["P-10m", "P-10g"])
>>> len(result.moves), result.error
(2, None)
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.base import AmbiguousMoveError, EngineError

from .notation import resolve
from .pieces import square_name
from .rules import Move, Position

MAX_CONTINUATIONS = 8


@dataclasses.dataclass
class _Line:
    position: Position
    moves: list[Move]
    warnings: list[tuple[int, str, str, str]]
    forks: list[int]


@dataclasses.dataclass
class ReplayResult:
    """The chosen continuation: its moves and final position, warnings ``(ply index, code,
    message, rule)``, and the first error as ``(ply index, EngineError)`` if the record fails."""

    moves: list[Move]
    position: Position
    warnings: list[tuple[int, str, str, str]]
    error: tuple[int, EngineError] | None


def replay_tokens(start: Position, tokens: list[str], notation: str | None = None) -> ReplayResult:
    """Play ``tokens`` from a copy of ``start``, resolving the Gold case by continuation."""
    lines = [_Line(start.copy(), [], [], [])]
    for index, token in enumerate(tokens):
        survivors: list[tuple[_Line, bool]] = []
        first_error: EngineError | None = None
        for line in lines:
            try:
                res = resolve(token, line.position, notation)
            except EngineError as error:
                first_error = first_error or error
                continue
            readings = [res.move, *res.alternatives]
            for n, move in enumerate(readings):
                if n == len(readings) - 1:
                    target = line
                else:
                    target = _Line(line.position.copy(), list(line.moves), list(line.warnings),
                                   list(line.forks))
                target.position.push(move)
                target.moves.append(move)
                target.warnings.extend((index, *w) for w in res.warnings)
                if res.alternatives:
                    target.forks.append(index)
                survivors.append((target, bool(res.warnings)))
        if not survivors:
            assert first_error is not None
            best = lines[0]
            return ReplayResult(best.moves, best.position, best.warnings, (index, first_error))
        clean = [line for line, warned in survivors if not warned]
        chosen = clean if clean and len(clean) < len(survivors) else [s[0] for s in survivors]
        # keep position-string order of the moving pieces: primary reading first
        if len(chosen) > MAX_CONTINUATIONS:
            best = chosen[0]
            return ReplayResult(best.moves, best.position, best.warnings,
                                (index, AmbiguousMoveError(
                                    f"{token}: more than {MAX_CONTINUATIONS} readings of the "
                                    "Golds remain open", rule="§9.2")))
        lines = chosen
    best = lines[0]
    warnings = list(best.warnings)
    if len(lines) > 1:
        at = best.forks[0] if best.forks else 0
        move = best.moves[at]
        others = sorted({square_name(line.moves[at].origin) for line in lines[1:]
                         if line.moves[at].origin != move.origin})
        warnings.append((at, "W-AMBIGUOUS-GOLD",
                         f"{tokens[at]} could be the Gold on {square_name(move.origin)} or the "
                         f"Gold on {', '.join(others)}; the record never tells them apart; "
                         f"assumed {square_name(move.origin)}", "§9.2"))
        warnings.sort(key=lambda w: w[0])
    return ReplayResult(best.moves, best.position, warnings, None)
