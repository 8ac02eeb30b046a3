"""pykrieg's formats: the KFEN position string (spec §14.2) and the ``.kfen`` JSON game record
(spec §14.3), read and written as strings.

KFEN draws terrain and units together, north row first, west to east; its square names come in
two transposed forms (``15B`` in pykrieg's code, ``O2`` in its KFEN document; both are book
square B15, spec §14.1). Readers compare the written terrain with the standard map and report
``W-MAP-DIFFERS``; unreadable input raises BadPositionError with code ``E-KFEN``. This module
opens no file and does not check that the turns it reads are legal (replay does that).

>>> from notation_tools.games.gow import GAME
>>> text = write_kfen(GAME.start_position(GAME.parse_rules(None)))
>>> text.endswith("/N/M/[]/1/[]"), read_kfen(text).notes
(True, ())
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from notation_tools.games.base import BadPositionError
from notation_tools.games.file_formats import ForeignPosition, ForeignRecord
from notation_tools.games.gow.moves import Turn
from notation_tools.games.gow.options import DEFAULT_RULES
from notation_tools.games.gow.pieces import (
    ARSENAL_OWNER, ARSENALS, COLS, FORT, KIND_OF, MOUNTAIN, NAMES, PASS, ROWS, SIDE_OF,
    SIZE, TERRAIN, UNIT_TYPES, code)
from notation_tools.games.gow.position import (
    assemble, assumed_turn, foreign_error, map_differences, parse_position, surviving)
from notation_tools.games.gow.rules import Position

_KFEN_TO_KIND = {t.kfen: k for k, t in enumerate(UNIT_TYPES) if t is not None}
_KIND_TO_KFEN = {k: t.kfen for k, t in enumerate(UNIT_TYPES) if t is not None}
_NAME_TO_KIND = {t.pykrieg_name: k for k, t in enumerate(UNIT_TYPES) if t is not None}
_OWNERS = ("NORTH", "SOUTH")
_ARSENAL_INDEX = {s: i for i, s in enumerate(ARSENALS)}
_RESULTS = {"ONGOING": "*", "NORTH_WINS": "1-0", "SOUTH_WINS": "0-1", "DRAW": "1/2-1/2"}
_OUTCOMES = {"D": "CAPTURE", "R": "RETREAT", "0": "FAIL"}


def _error(message: str) -> BadPositionError:
    return foreign_error(message, "E-KFEN")


# ---- squares (spec §14.1) -------------------------------------------------------------------

_CODE_SQUARE = re.compile(r"([0-9]+)([A-Z]+)\Z")
_DOC_SQUARE = re.compile(r"([A-Z]+)([0-9]+)\Z")


def _letters(text: str) -> int:
    value = 0
    for ch in text:
        value = value * 26 + ord(ch) - 64
    return value


def parse_ksquare(text: str) -> int:
    """A pykrieg square: ``15B`` (column number + row letter) or ``O2`` (column letter + row
    number); both are book square B15.

    >>> NAMES[parse_ksquare("15B")], NAMES[parse_ksquare("O2")]
    ('B15', 'B15')
    """
    match = _CODE_SQUARE.match(text)
    if match:
        col, row = int(match.group(1)), _letters(match.group(2))
    else:
        match = _DOC_SQUARE.match(text)
        if not match:
            raise _error(f"{text!r} is not a pykrieg square (15B or O2)")
        col, row = _letters(match.group(1)), int(match.group(2))
    if not (1 <= row <= ROWS and 1 <= col <= COLS):
        raise _error(f"square {text!r} is off the board")
    return (row - 1) * COLS + col - 1


# ---- the board rows ----------------------------------------------------------------------------

def _unit(letter: str, where: str) -> int:
    kind = _KFEN_TO_KIND.get(letter.upper())
    if kind is None:
        raise _error(f"{where}: unknown unit letter {letter!r} (I C K R W X)")
    return code(0 if letter.isupper() else 1, kind)


def _parse_rows(rows: Sequence[str]) -> tuple[list[int], dict[int, int], dict[int, int]]:
    """Board codes, written terrain kinds (non-plain only) and arsenal marks (square -> owner)."""
    board = [0] * SIZE
    terrain: dict[int, int] = {}
    marks: dict[int, int] = {}
    for r, row in enumerate(rows):
        c = 0
        i = 0
        where = f"KFEN row {r + 1}"
        while i < len(row):
            if c >= COLS:
                raise _error(f"{where} has more than {COLS} cells")
            s = r * COLS + c
            ch = row[i]
            if ch == "_":
                i += 1
            elif ch == "m":
                terrain[s] = MOUNTAIN
                i += 1
            elif ch in "pf":
                terrain[s] = PASS if ch == "p" else FORT
                i += 1
            elif ch in "([":
                close = ")" if ch == "(" else "]"
                if i + 2 >= len(row) or row[i + 2] != close:
                    raise _error(f"{where}: {ch} must enclose one unit letter")
                terrain[s] = PASS if ch == "(" else FORT
                board[s] = _unit(row[i + 1], where)
                i += 3
            elif ch in "Aa":
                marks[s] = 0 if ch == "A" else 1
                i += 1
                if i < len(row) and row[i] == "{":
                    if i + 2 >= len(row) or row[i + 2] != "}":
                        raise _error(f"{where}: {{ must enclose one unit letter")
                    board[s] = _unit(row[i + 1], where)
                    i += 3
            else:
                board[s] = _unit(ch, where)
                i += 1
            c += 1
        if c != COLS:
            raise _error(f"{where} has {c} cells; {COLS} are needed")
    return board, terrain, marks


def _board_notes(board: list[int], terrain: dict[int, int],
                 marks: dict[int, int]) -> list[tuple[str, str]]:
    for s, v in enumerate(board):
        if v and TERRAIN[s] == MOUNTAIN:
            raise _error(f"a unit stands on {NAMES[s]}, a mountain of the standard map")
    differ = map_differences(terrain, marks)
    if differ:
        return [("W-MAP-DIFFERS", "terrain differs from the standard map on "
                 + " ".join(NAMES[s] for s in differ) + "; the standard map is used")]
    return []


def write_board(position: Position) -> str:
    """The 20 board rows of KFEN (the ``board_info.fen`` of a ``.kfen`` document)."""
    rows = []
    for r in range(ROWS):
        cells = []
        for c in range(COLS):
            s = r * COLS + c
            v = position.board[s]
            letter = ""
            if v:
                letter = _KIND_TO_KFEN[KIND_OF[v]]
                letter = letter if SIDE_OF[v] == 0 else letter.lower()
            t = TERRAIN[s]
            if t == MOUNTAIN:
                cells.append("m")
            elif t == PASS:
                cells.append(f"({letter})" if v else "p")
            elif t == FORT:
                cells.append(f"[{letter}]" if v else "f")
            elif s in _ARSENAL_INDEX and position.alive[_ARSENAL_INDEX[s]]:
                mark = "A" if ARSENAL_OWNER[s] == 0 else "a"
                cells.append(f"{mark}{{{letter}}}" if v else mark)
            else:
                cells.append(letter or "_")
        rows.append("".join(cells))
    return "/".join(rows)


def write_kfen(position: Position) -> str:
    """The 25-field KFEN string pykrieg 0.3.0 writes (spec §14.2), movement phase, no actions."""
    retreat = position.retreat
    retreats = f"[{retreat // COLS},{retreat % COLS}]" if retreat is not None else "[]"
    side = "N" if position.turn == 0 else "S"
    return f"{write_board(position)}/{side}/M/[]/{position.turn_number}/{retreats}"


def _has_pair(actions: str) -> bool:
    return "(" in actions


def read_kfen(text: str, *, first_player: int = 0) -> ForeignPosition:
    """Read a KFEN string of 20, 23 or 25 fields (spec §14.2).

    ``first_player`` is the side to move when the string does not say (20 fields). Raises
    BadPositionError (E-KFEN, or E-BAD-POSITION for an impossible position).
    """
    if not isinstance(text, str):
        raise _error("KFEN is text")
    fields = text.strip().split("/")
    if len(fields) not in (ROWS, ROWS + 3, ROWS + 5):
        raise _error(f"KFEN has {ROWS}, {ROWS + 3} or {ROWS + 5} /-separated fields, not "
                     f"{len(fields)}")
    board, terrain, marks = _parse_rows(fields[:ROWS])
    notes = _board_notes(board, terrain, marks)
    alive = surviving(marks)
    comment = None
    retreat = None
    if len(fields) == ROWS:
        side = first_player
    else:
        side_text, phase, actions = fields[ROWS:ROWS + 3]
        if side_text not in ("N", "S"):
            raise _error(f"side to move is N or S, not {side_text!r}")
        side = 0 if side_text == "N" else 1
        if phase not in ("M", "B"):
            raise _error(f"phase is M or B, not {phase!r}")
        if phase == "B" or _has_pair(actions):
            comment = f"kfen-actions: {phase} {actions}"
            notes.append(("W-MID-TURN", f"saved in phase {phase} with actions {actions}; "
                          "a fresh turn is assumed and the actions are kept as a comment"))
    if len(fields) == ROWS + 5:
        number, retreats = fields[23], fields[24]
        if not re.fullmatch(r"[1-9][0-9]*", number):
            raise _error(f"turn number {number!r} is not a whole number from 1")
        turn = int(number)
        match = re.fullmatch(r"\[([0-9,\s]*)\]", retreats)
        if not match:
            raise _error(f"retreats {retreats!r} are not a [row,col,...] list")
        values = [int(v) for v in match.group(1).replace(" ", "").split(",") if v != ""]
        if len(values) % 2 or len(values) > 2:
            raise _error(f"retreats {retreats!r}: at most one (row, col) pair is supported")
        if values:
            row, col = values
            if not (0 <= row < ROWS and 0 <= col < COLS):
                raise _error(f"retreat square ({row}, {col}) is off the board")
            retreat = row * COLS + col
    else:
        turn = assumed_turn(board, side, alive, retreat)
        notes.append(("I-TURN-ASSUMED", f"KFEN without a turn number: turn {turn} assumed"))
    fen = assemble(board, side, alive, retreat, turn)
    parse_position(fen, DEFAULT_RULES)
    return ForeignPosition(fen, tuple(notes), comment)


# ---- the .kfen JSON game record (spec §14.3) ---------------------------------------------------

def _sq(square: int) -> dict[str, int]:
    return {"row": square // COLS, "col": square % COLS}


def _date(tags: Mapping[str, str]) -> str:
    date = tags.get("Date", "")
    match = re.fullmatch(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})", date)
    if match:
        return f"{match.group(1)}-{match.group(2)}-{match.group(3)}T00:00:00Z"
    return "1970-01-01T00:00:00Z"


def _unit_info(v: int) -> dict[str, str]:
    unit = UNIT_TYPES[KIND_OF[v]]
    assert unit is not None
    return {"unit_type": unit.pykrieg_name, "owner": _OWNERS[SIDE_OF[v]]}


def write_kfen_json(start: Position, turns: Sequence[Turn], tags: Mapping[str, str]) -> str:
    """A pykrieg ``.kfen`` document for a record (spec §14.3): ``start`` (not changed), the
    legal ``turns`` played from it, and the record's tags. Deterministic output."""
    work = start.copy()
    ids = {s: n for n, s in enumerate(sorted(s for s in range(SIZE) if work.board[s]), 1)}
    history = []
    index = 0
    for turn in turns:
        entry: dict[str, Any] = {"turn_number": work.turn_number, "player": _OWNERS[work.turn],
                                 "phase": "M", "moves": [], "phase_change": None,
                                 "attack": None, "end_turn": None}
        work.push(turn)
        for event in work.last_events:
            kind = event[0]
            if kind == "failed-retreat":
                ids.pop(event[1], None)
            elif kind == "step":
                _, origin, dest, v, was_retreat = event
                unit = UNIT_TYPES[KIND_OF[v]]
                assert unit is not None
                ids[dest] = ids.pop(origin, 0)
                entry["moves"].append({"from": _sq(origin), "to": _sq(dest),
                                       "unit_type": unit.pykrieg_name, "unit_id": ids[dest],
                                       "was_retreat": was_retreat, "destroyed_arsenal": None})
                index += 1
            elif kind == "arsenal":
                entry["moves"][-1]["destroyed_arsenal"] = {**_sq(event[1]), "owner": _OWNERS[event[2]]}
            elif kind == "attack":
                _, target, v, combat, mark = event
                entry["attack"] = {"target": _sq(target), "outcome": _OUTCOMES[mark],
                                   "captured_unit": _unit_info(v) if mark == "D" else None,
                                   "retreat_positions": [_sq(target)] if mark == "R" else []}
                index += 1
            elif kind == "destroyed":
                ids.pop(event[1], None)
        captured = []
        if work.retreat is not None and work._retreat_failure():
            r = work.retreat
            captured.append({**_sq(r), "unit": _unit_info(work.board[r]),
                             "reason": "retreat_impossible"})
        entry["end_turn"] = {"captured_units": captured}
        history.append(entry)
        index += 1
    players = None
    if "North" in tags or "South" in tags:
        players = {"north": tags.get("North"), "south": tags.get("South")}
    result = {v: k for k, v in _RESULTS.items()}.get(tags.get("Result", "*"), "ONGOING")
    document = {
        "kfen_version": "1.0",
        "metadata": {"game_name": tags.get("Title"), "save_date": _date(tags),
                     "created_date": _date(tags), "players": players,
                     "event": tags.get("Event"), "result": result,
                     # the rules the record was replayed under, so it reads back under them
                     # (pykrieg keeps a metadata key it does not know)
                     "rules": start.rules.describe()},
        "board_info": {"rows": ROWS, "cols": COLS, "fen": write_board(work)},
        "game_state": {"turn_number": work.turn_number, "current_player": _OWNERS[work.turn],
                       "current_phase": "M",
                       "pending_retreats": [_sq(work.retreat)] if work.retreat is not None else []},
        "turn_history": history,
        "undo_redo": {"max_history": 100, "current_index": index},
    }
    return json.dumps(document, indent=2)


class _HistoryProblem(Exception):
    """The pykrieg history cannot be turned into a record (spec §14.3 step 5)."""


def _square_of(data: Any, what: str) -> int:
    if not isinstance(data, dict):
        raise _HistoryProblem(f"{what} is not a {{row, col}} object")
    row, col = data.get("row"), data.get("col")
    if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < ROWS and 0 <= col < COLS):
        raise _HistoryProblem(f"{what} {data!r} is not a square")
    return row * COLS + col


def _unit_code(data: Any, owner: int | None, what: str) -> int:
    if isinstance(data, dict):
        name = data.get("unit_type")
        if owner is None and isinstance(data.get("owner"), str) and data["owner"] in _OWNERS:
            owner = _OWNERS.index(data["owner"])
    else:
        name = data
    kind = _NAME_TO_KIND.get(name) if isinstance(name, str) else None
    if kind is None or owner is None:
        raise _HistoryProblem(f"{what}: unknown unit {data!r}")
    return code(owner, kind)


def _clean(history: list[Any]) -> list[dict[str, Any]]:
    by_turn: dict[Any, dict[str, Any]] = {}
    for entry in history:
        if not isinstance(entry, dict):
            raise _HistoryProblem("a turn_history entry is not an object")
        number = entry.get("turn_number")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise _HistoryProblem(f"turn_number {number!r} is not a whole number from 1")
        if not isinstance(entry.get("player"), str) or entry["player"] not in _OWNERS:
            raise _HistoryProblem(f"turn {number}: player {entry.get('player')!r} is not NORTH or SOUTH")
        for key in ("attack", "end_turn"):
            if entry.get(key) is not None and not isinstance(entry[key], dict):
                raise _HistoryProblem(f"turn {number}: {key} is not an object")
        by_turn.pop(entry.get("turn_number"), None)
        by_turn[entry.get("turn_number")] = entry
    entries = []
    for entry in by_turn.values():
        moves = entry.get("moves") or []
        if not isinstance(moves, list):
            raise _HistoryProblem(f"turn {entry.get('turn_number')}: moves is not a list")
        last: dict[Any, int] = {}
        for i, move in enumerate(moves):
            if not isinstance(move, dict):
                raise _HistoryProblem(f"turn {entry.get('turn_number')}: a move is not an object")
            unit_id = move.get("unit_id")
            last[unit_id if isinstance(unit_id, int) else ("no-id", i)] = i
        keep = sorted(last.values())
        entries.append({**entry, "moves": [moves[i] for i in keep]})
    if entries and not entries[-1]["moves"] and not entries[-1].get("attack") \
            and entries[-1].get("end_turn") is None:
        entries.pop()
    return entries


def _check(entries: list[dict[str, Any]]) -> None:
    for prev, entry in zip(entries, entries[1:]):
        if not isinstance(entry.get("turn_number"), int) or entry["turn_number"] != prev["turn_number"] + 1:
            raise _HistoryProblem(f"turn numbers are not consecutive after {prev.get('turn_number')}")
        if entry.get("player") == prev.get("player"):
            raise _HistoryProblem(f"turn {entry['turn_number']}: players do not alternate")
    for entry in entries:
        if entry.get("player") not in _OWNERS or not isinstance(entry.get("turn_number"), int) \
                or entry["turn_number"] < 1:
            raise _HistoryProblem("an entry has no valid player or turn_number")
        if len(entry["moves"]) > 5:
            raise _HistoryProblem(f"turn {entry['turn_number']} has {len(entry['moves'])} moves")


def _undo(board: list[int], alive: list[bool], entries: list[dict[str, Any]]) -> None:
    for entry in reversed(entries):
        side = _OWNERS.index(entry["player"])
        turn = entry["turn_number"]
        end = entry.get("end_turn") or {}
        captured = end.get("captured_units") or []
        if not isinstance(captured, list):
            raise _HistoryProblem(f"turn {turn}: captured_units is not a list")
        for item in captured:
            s = _square_of(item, f"turn {turn} captured unit")
            if board[s]:
                raise _HistoryProblem(f"turn {turn}: cannot restore a captured unit on occupied {NAMES[s]}")
            board[s] = _unit_code(item.get("unit") if isinstance(item, dict) else None, None,
                                  f"turn {turn} captured unit")
        attack = entry.get("attack")
        if attack:
            target = _square_of(attack.get("target"), f"turn {turn} attack target")
            outcome = attack.get("outcome")
            if outcome == "CAPTURE":
                if board[target]:
                    raise _HistoryProblem(f"turn {turn}: captured unit's square {NAMES[target]} is occupied")
                board[target] = _unit_code(attack.get("captured_unit"), None,
                                           f"turn {turn} captured unit")
            elif outcome == "RETREAT":
                if not board[target] or SIDE_OF[board[target]] == side:
                    raise _HistoryProblem(f"turn {turn}: the dislodged unit on {NAMES[target]} "
                                          "cannot be restored")
            elif outcome != "FAIL":
                raise _HistoryProblem(f"turn {turn}: unknown attack outcome {outcome!r}")
        for move in reversed(entry["moves"]):
            origin = _square_of(move.get("from"), f"turn {turn} move")
            dest = _square_of(move.get("to"), f"turn {turn} move")
            if not board[dest]:
                board[dest] = _unit_code(move.get("unit_type"), side, f"turn {turn} move")
            if SIDE_OF[board[dest]] != side or board[origin]:
                raise _HistoryProblem(f"turn {turn}: cannot undo {NAMES[origin]}-{NAMES[dest]}")
            board[origin], board[dest] = board[dest], 0
            arsenal = move.get("destroyed_arsenal")
            if arsenal:
                s = _square_of(arsenal, f"turn {turn} destroyed arsenal")
                if s not in _ARSENAL_INDEX:
                    raise _HistoryProblem(f"turn {turn}: {NAMES[s]} is not an arsenal")
                alive[_ARSENAL_INDEX[s]] = True


def _token(entry: dict[str, Any]) -> str:
    parts = [f"{NAMES[_square_of(m.get('from'), 'move')]}-{NAMES[_square_of(m.get('to'), 'move')]}"
             for m in entry["moves"]]
    attack = entry.get("attack")
    if attack:
        mark = {"CAPTURE": "D", "RETREAT": "R", "FAIL": "0"}[attack["outcome"]]
        parts.append(f"x{NAMES[_square_of(attack.get('target'), 'target')]}={mark}")
    return ",".join(parts) or "--"


def read_kfen_json(text: str) -> ForeignRecord:
    """Read a pykrieg ``.kfen`` document into a record (spec §14.3 steps 1-5).

    Raises BadPositionError (E-KFEN) when the document or its board cannot be read; a history
    that cannot be replayed backwards gives a position-only record with ``W-KFEN-HISTORY``.
    """
    data, info, state, meta = _load_document(text)
    fen_text = info.get("fen")
    if not isinstance(fen_text, str):
        raise _error("board_info.fen is missing")
    rows = re.sub(r"/\s+", "/", fen_text.strip()).split("/")
    if len(rows) < ROWS:
        raise _error(f"board_info.fen has {len(rows)} rows; {ROWS} are needed")
    board, terrain, marks = _parse_rows(rows[:20])
    notes = _board_notes(board, terrain, marks)
    alive = surviving(marks)
    tags = _kfen_tags(meta)

    def position_only(problem: str | None) -> ForeignRecord:
        return _position_only(tags, state, board, alive, notes, problem)

    history = data.get("turn_history") or []
    if not isinstance(history, list):
        return position_only("turn_history is not a list")
    try:
        entries = _clean(history)
        if not entries:
            return position_only(None)
        _check(entries)
        fen = _history_start(entries, board, alive)
        tokens = tuple(_token(entry) for entry in entries)
    except _HistoryProblem as problem:
        return position_only(str(problem))
    except (TypeError, KeyError, AttributeError, ValueError, IndexError) as error:
        # a value of the wrong JSON type somewhere in the history (issue #15): the history
        # cannot be used, the saved position still can
        return position_only(f"a value of the wrong type ({type(error).__name__}: {error})")
    extra = list(notes)
    comment = None
    last = entries[-1]
    if last.get("end_turn") is None:
        extra.append(("W-MID-TURN", f"turn {last['turn_number']} was saved before it ended; "
                      "its actions are kept as a whole turn"))
    return ForeignRecord({**tags, "SetUp": "1", "FEN": fen}, tokens, tuple(extra), comment)


def _load_document(text: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any],
                                       dict[str, Any]]:
    """The JSON object of a ``.kfen`` document and its board_info, game_state and metadata
    objects (empty when absent); raises E-KFEN when the text is no such document."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise _error(f"not JSON: {error}") from None
    except RecursionError:
        # json gives up on arrays and objects nested past the interpreter's own limit; no
        # .kfen document nests more than four deep
        raise _error("not a .kfen document: JSON nested too deeply to read") from None
    if not isinstance(data, dict) or "kfen_version" not in data:
        raise _error("a .kfen document is a JSON object with kfen_version")
    info = data.get("board_info") or {}
    state = data.get("game_state") or {}
    meta = data.get("metadata") or {}
    if not isinstance(info, dict) or not isinstance(state, dict) or not isinstance(meta, dict):
        raise _error("board_info, game_state and metadata are objects")
    return data, info, state, meta


def _kfen_tags(meta: dict[str, Any]) -> dict[str, str]:
    """The record's tags from a document's metadata (spec §14.3)."""
    tags: dict[str, str] = {"Variant": "game-of-war"}
    if isinstance(meta.get("event"), str):
        tags["Event"] = meta["event"]
    if isinstance(meta.get("game_name"), str):
        tags["Title"] = meta["game_name"]
    date = meta.get("save_date")
    if isinstance(date, str) and re.match(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", date) \
            and not date.startswith("1970-01-01"):
        tags["Date"] = date[:10].replace("-", ".")
    players = meta.get("players")
    if isinstance(players, dict):
        for key, tag in (("north", "North"), ("south", "South")):
            if isinstance(players.get(key), str):
                tags[tag] = players[key]
    result = meta.get("result")
    tags["Result"] = _RESULTS.get(result, "*") if isinstance(result, str) else "*"
    if isinstance(meta.get("rules"), str) and meta["rules"].strip():
        tags["Rules"] = meta["rules"].strip()
    return tags


def _position_only(tags: dict[str, str], state: dict[str, Any], board: list[int],
                   alive: list[bool], notes: list[tuple[str, str]],
                   problem: str | None) -> ForeignRecord:
    """The record of the saved position alone, with no moves: for a document without a
    history, or (``problem``, noted as W-KFEN-HISTORY) one whose history cannot be used."""
    side = 1 if state.get("current_player") == "SOUTH" else 0
    retreats = state.get("pending_retreats") or []
    if not isinstance(retreats, list):
        raise _error("game_state.pending_retreats is a list of {row, col} objects")
    retreat = None
    if retreats:
        try:
            retreat = _square_of(retreats[0], "pending retreat")
        except _HistoryProblem as error:
            raise _error(str(error)) from None
    turn = state.get("turn_number")
    extra = list(notes)
    if not isinstance(turn, int) or turn < 1:
        turn = assumed_turn(board, side, alive, retreat)
        extra.append(("I-TURN-ASSUMED", f"no turn number: turn {turn} assumed"))
    if problem is not None:
        extra.append(("W-KFEN-HISTORY", f"history unusable ({problem}); position only"))
    fen = assemble(board, side, alive, retreat, turn)
    parse_position(fen, DEFAULT_RULES)
    return ForeignRecord({**tags, "SetUp": "1", "FEN": fen}, (), tuple(extra))


def _history_start(entries: list[dict[str, Any]], board: list[int], alive: list[bool]) -> str:
    """The position string before the first of the history's ``entries``: the saved board
    and arsenals played backwards (§14.3); raises _HistoryProblem when that fails."""
    start_board, start_alive = board[:], alive[:]
    _undo(start_board, start_alive, entries)
    first = entries[0]
    side = _OWNERS.index(first["player"])
    retreat = None
    if first["moves"] and first["moves"][0].get("was_retreat"):
        retreat = _square_of(first["moves"][0].get("from"), "retreat")
    fen = assemble(start_board, side, start_alive, retreat, first["turn_number"])
    try:
        parse_position(fen, DEFAULT_RULES)
    except BadPositionError as error:
        raise _HistoryProblem(f"reconstructed start position: {error.message}") from None
    return fen
