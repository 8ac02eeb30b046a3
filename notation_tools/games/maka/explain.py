"""Why a specified Maka-Dai-Dai Shogi move is illegal: reasons in the rules' words (§11).

The notation resolver calls :func:`explain` when no legal move matches a token. The reasons
read the same compiled piece tables as the generator; this module never decides legality
itself (the generator does), it only names the rule that a failed move broke.
"""

from __future__ import annotations

from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.pieces import (COL, DIR_NAMES, DIRS, OPPOSITE, ROW, SIDE_NAMES,
                                              TYPE_OF_ID, PieceType, distance, square_name)
from notation_tools.games.maka.rules import Position

_DIR_WORDS = {"F": "forward", "B": "backward", "L": "left", "R": "right",
              "FL": "diagonally forward-left", "FR": "diagonally forward-right",
              "BL": "diagonally backward-left", "BR": "diagonally backward-right"}


def piece_type(type_id: int) -> PieceType:
    """The piece type of a type id; id 0 (the empty square's) names none and is never asked."""
    found = TYPE_OF_ID[type_id]
    assert found is not None, type_id
    return found


def piece_name(code: int) -> str:
    return piece_type(code >> 1).name


def describe(code: int) -> str:
    """``White Dragon Horse``."""
    return f"{SIDE_NAMES[code & 1]} {piece_name(code)}"


def _line(a: int, b: int) -> tuple[int, int] | None:
    """(absolute direction, distance) from ``a`` to ``b`` when they share a line."""
    dr, dc = ROW[b] - ROW[a], COL[b] - COL[a]
    n = max(abs(dr), abs(dc))
    if n == 0 or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return None
    step = (dc // n, dr // n)
    return DIRS.index(step), n


def emperor_reason(pos: Position, origin: int, target: int) -> str | None:
    """The §6.6 reason an Emperor on ``origin`` may not go to ``target``, or None."""
    board = pos.board
    options = (f"emperor-capture={pos.options.emperor_capture}, "
               f"emperor-protection={pos.options.emperor_protection}")
    victim = board[target]
    if victim:
        by = pos.emperor_capture_block(origin, target)
        if by is None:
            return None
        return (f"Emperor may not capture a protected piece on {square_name(target)}: the "
                f"{describe(victim)} is protected by {SIDE_NAMES[board[by] & 1]}'s "
                f"{piece_name(board[by])} on {square_name(by)} ({options})")
    if pos.options.emperor_capture == "unattacked":
        by = pos.emperor_defended(origin, target)
        if by is not None:
            return (f"the Emperor may not end on {square_name(target)}: it is attacked by "
                    f"{SIDE_NAMES[board[by] & 1]}'s {piece_name(board[by])} on "
                    f"{square_name(by)} ({options})")
    return None


def filter_reason(pos: Position, move: Move) -> str | None:
    """The reason a generated move is filtered (self-check, repetition), or None."""
    why = pos.illegal_reason(move)
    if why is None:
        return None
    side = pos.turn
    if why == "self-check":
        pos.push(move)
        try:
            by = pos.self_check_by(side)
            # illegal_reason said "self-check": a capturing piece exists.
            assert by is not None
            royal = pos.royals(side)[0]
            text = (f"{SIDE_NAMES[side]} leaves its only royal piece "
                    f"({piece_name(pos.board[royal])} on {square_name(royal)}) capturable by the "
                    f"{describe(pos.board[by])} on {square_name(by)} (self-check=forbid)")
        finally:
            pos.pop()
        return text
    pos.push(move)
    try:
        key = pos.key
        plies = [i for i, entry in enumerate(pos.stack) if entry[3] == key]
    finally:
        pos.pop()
    earlier = ", ".join(f"ply {p}" for p in plies) or "the start of the record"
    return ("the position would occur for the fourth time (earlier after "
            f"{earlier}; repetition=forbidden)")


def explain(pos: Position, origin: int, target: int, capture: bool | None) -> str:
    """A sentence saying why the piece on ``origin`` has no legal move ending on ``target``
    (capturing there when ``capture``)."""
    board = pos.board
    code = board[origin]
    side = code & 1
    t = pos.t
    name = piece_name(code)
    here = board[target]
    verb = "capture on" if capture else "move to"
    if here and here & 1 == side and target != origin:
        return f"{square_name(target)} holds a {describe(here)}"
    for move in pos.piece_moves(origin, code):
        if move.target == target and (capture is None or bool(move.captures) == capture):
            reason = filter_reason(pos, move)
            if reason:
                return reason
    if t.emperor[code]:
        reason = emperor_reason(pos, origin, target)
        return reason or f"the Emperor cannot {verb} {square_name(target)}"
    if t.lion[code] or t.ldog[code]:
        far = distance(origin, target)
        extra = f" ({square_name(target)} is {far} squares away)" if far > 2 else ""
        return f"no {name} of {SIDE_NAMES[side]} can {verb} {square_name(target)}{extra}"
    if t.hook[code] is not None:
        return (f"no {name} path with at most one turn leads from {square_name(origin)} "
                f"to {square_name(target)}")
    line = _line(origin, target)
    if line is None:
        return f"a {name} cannot move from {square_name(origin)} to {square_name(target)}"
    absdir, n = line
    rel = absdir if side == 0 else OPPOSITE[absdir]
    word = _DIR_WORDS[DIR_NAMES[rel]]
    reach = t.reach[code][absdir]
    jumps = t.jump[code][absdir]
    if not reach and not jumps:
        return (f"a {name} cannot move {word} ({square_name(origin)} to "
                f"{square_name(target)})")
    if n > reach and not (jumps and n == 2):
        most = f"{reach} square{'s' if reach != 1 else ''}" if reach else "by a jump of 2"
        return f"a {name} moves at most {most} {word}"
    step = (target - origin) // n
    for i in range(1, n):
        s = origin + step * i
        if board[s]:
            return (f"the {name} on {square_name(origin)} cannot pass the {describe(board[s])} "
                    f"on {square_name(s)} to reach {square_name(target)}")
    return f"no {name} of {SIDE_NAMES[side]} can {verb} {square_name(target)}"


__all__ = ["explain", "emperor_reason", "filter_reason", "describe", "piece_name"]
