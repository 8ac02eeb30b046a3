"""The JSON container: one object per record, a JSON array of them, or JSON Lines.

A record object::

    {"tags": {"Variant": "elevation", "Result": "*"},  (a list of [name, value] pairs when a
                                                         name repeats)
     "moves": [{"move": "c1:c2>b2,c1-c2", "number": "1.", "comments": ["..."],
                "nags": ["$1"], "variations": [[{"move": "..."}]]}],
     "result": "*"}

A move may also be a plain string. A move object may carry ``"data"`` (the game's structured
move, e.g. Maka's JSON moves) instead of, or beside, ``"move"``. Does not check moves.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move, Record, Tag


def record_to_json(record: Record, *, move_data: list[Any] | None = None) -> dict[str, Any]:
    """The record as a JSON-ready dict; ``move_data`` gives main-line structured moves."""
    names = [tag.name for tag in record.tags]
    # An object keeps order but not repeated names; those records use a list of pairs.
    tags: Any = ({tag.name: tag.value for tag in record.tags} if len(set(names)) == len(names)
                 else [[tag.name, tag.value] for tag in record.tags])
    out: dict[str, Any] = {"tags": tags}
    if record.initial_comments:
        out["initial_comments"] = list(record.initial_comments)
    out["moves"] = _line_to_json(record.moves, move_data)
    if record.final_comments:
        out["final_comments"] = list(record.final_comments)
    out["result"] = record.result
    return out


def _line_to_json(moves: list[Move], move_data: list[Any] | None = None) -> list[Any]:
    out: list[Any] = []
    for index, move in enumerate(moves):
        item: dict[str, Any] = {"move": move.text}
        if move_data is not None and index < len(move_data) and move_data[index] is not None:
            item["data"] = move_data[index]
        elif move.data is not None:
            item["data"] = move.data
        if move.number:
            item["number"] = move.number
        for key in ("comments_before", "comments", "nags"):
            if getattr(move, key):
                item[key] = list(getattr(move, key))
        if move.variations:
            item["variations"] = [_line_to_json(variation) for variation in move.variations]
        out.append(item)
    return out


class _JsonShapeError(ValueError):
    pass


def _line_from_json(items: Any, line: int) -> list[Move]:
    if not isinstance(items, list):
        raise _JsonShapeError("'moves' must be a list")
    moves = []
    for item in items:
        if isinstance(item, str):
            moves.append(Move(item, line, 1))
            continue
        if not isinstance(item, dict) or not ("move" in item or "data" in item):
            raise _JsonShapeError("a move must be a string or an object with 'move' or 'data'")
        text = item.get("move", "")
        if not isinstance(text, str):
            raise _JsonShapeError("'move' must be a string")
        move = Move(text, line, 1, data=item.get("data"))
        number = item.get("number")
        if number is not None and not isinstance(number, str):
            raise _JsonShapeError("'number' must be a string")
        move.number = number
        for key in ("comments_before", "comments", "nags"):
            value = item.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise _JsonShapeError(f"'{key}' must be a list of strings")
            setattr(move, key, list(value))
        variations = item.get("variations", [])
        if not isinstance(variations, list):
            raise _JsonShapeError("'variations' must be a list of move lists")
        move.variations = [_line_from_json(variation, line) for variation in variations]
        moves.append(move)
    return moves


def record_from_json(data: Any, path: str, line: int, index: int) -> Record:
    """A Record from one JSON object; shape faults become an ``E-SYNTAX`` diagnostic."""
    record = Record(path=path, index=index, line=line)
    try:
        if not isinstance(data, dict):
            raise _JsonShapeError("a record must be a JSON object")
        tags = data.get("tags", {})
        pairs = list(tags.items()) if isinstance(tags, dict) else tags
        if not isinstance(pairs, list) or not all(
                isinstance(pair, (list, tuple)) and len(pair) == 2
                and all(isinstance(part, str) for part in pair) for pair in pairs):
            raise _JsonShapeError("'tags' must be an object of strings or a list of "
                                  "[name, value] pairs")
        record.tags = [Tag(name, value, line, 1) for name, value in pairs]
        for key in ("initial_comments", "final_comments"):
            value = data.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise _JsonShapeError(f"'{key}' must be a list of strings")
            setattr(record, key, list(value))
        record.moves = _line_from_json(data.get("moves", []), line)
        result = data.get("result")
        if result is not None and not isinstance(result, str):
            raise _JsonShapeError("'result' must be a string or null")
        record.result = result
        record.result_line, record.result_column = line, 1
    except _JsonShapeError as error:
        record.diagnostics.append(Diagnostic("E-SYNTAX", f"JSON record: {error}", path, line, 1,
                                             record=index))
    return record


def _line_of(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def read_json_records(text: str, path: str = "-") -> Iterator[Record]:
    """Records from JSON text: one object, an array of objects, or JSON Lines.

    >>> [r.tag("Variant") for r in read_json_records('{"tags": {"Variant": "elevation"}, "moves": ["c3:c3-b2"]}')]
    ['elevation']
    """
    decoder = json.JSONDecoder()
    position, index = 0, 0
    length = len(text)
    while True:
        while position < length and text[position].isspace():
            position += 1
        if position >= length:
            return
        line, column = _line_of(text, position)
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            bad_line, bad_column = _line_of(text, error.pos)
            index += 1
            record = Record(path=path, index=index, line=bad_line)
            record.diagnostics.append(Diagnostic(
                "E-SYNTAX", f"invalid JSON: {error.msg}", path, bad_line, bad_column,
                record=index))
            yield record
            return
        items = value if isinstance(value, list) else [value]
        for item in items:
            index += 1
            yield record_from_json(item, path, line, index)
        position = end


def write_json_record(record: Record, *, move_data: list[Any] | None = None) -> str:
    """One record as one line of JSON Lines."""
    return json.dumps(record_to_json(record, move_data=move_data), ensure_ascii=False) + "\n"
