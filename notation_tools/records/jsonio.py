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
import re
from collections.abc import Generator, Iterable, Iterator
from typing import Any

from notation_tools.limits import DEFAULT, Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move, Record, Tag, Tags
from notation_tools.records.pgn import MOVE_NUMBER, NAG, TAG_NAME, move_text_problem
from notation_tools.records.tokens import RESULTS


def record_to_json(record: Record, *, move_data: list[Any] | None = None) -> dict[str, Any]:
    """The record as a JSON-ready dict; ``move_data`` gives main-line structured moves."""
    entries = record.tags.entries()
    names = [tag.name for tag in entries]
    # An object keeps order but not repeated names; those records use a list of pairs.
    tags: Any = ({tag.name: tag.value for tag in entries} if len(set(names)) == len(names)
                 else [[tag.name, tag.value] for tag in entries])
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
    def __init__(self, message: str, code: str = "E-SYNTAX") -> None:
        super().__init__(message)
        self.code = code


def _strings(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _JsonShapeError(f"'{key}' must be a list of strings")
    return list(value)


def _line_from_json(items: Any, line: int, depth: int, limits: Limits) -> list[Move]:
    if not isinstance(items, list):
        raise _JsonShapeError("'moves' must be a list")
    if depth > limits.max_depth:
        raise _JsonShapeError(f"variations nested deeper than {limits.describe('max_depth')}",
                              "E-LIMIT")
    moves = []
    for item in items:
        if isinstance(item, str):
            item = {"move": item}
        if not isinstance(item, dict) or not ("move" in item or "data" in item):
            raise _JsonShapeError("a move must be a string or an object with 'move' or 'data'")
        text = item.get("move", "")
        if not isinstance(text, str):
            raise _JsonShapeError("'move' must be a string")
        if text and (problem := move_text_problem(text)) is not None:
            raise _JsonShapeError(f"move {text[:20]!r}: {problem}")
        move = Move(text, line, 1, data=item.get("data"), number_line=line, number_column=1)
        number = item.get("number")
        if number is not None and not (isinstance(number, str) and MOVE_NUMBER.fullmatch(number)):
            raise _JsonShapeError("'number' must be a move number such as \"12.\" or \"12...\"")
        move.number = number
        move.comments_before = _strings(item.get("comments_before", []), "comments_before")
        move.comments = _strings(item.get("comments", []), "comments")
        move.nags = _strings(item.get("nags", []), "nags")
        for nag in move.nags:
            if not NAG.fullmatch(nag):
                raise _JsonShapeError(f"NAG {nag[:20]!r} is not $ and a number such as $1")
        variations = item.get("variations", [])
        if not isinstance(variations, list):
            raise _JsonShapeError("'variations' must be a list of move lists")
        move.variations = [_line_from_json(variation, line, depth + 1, limits)
                           for variation in variations]
        moves.append(move)
    return moves


def record_from_json(data: Any, path: str, line: int, index: int, *,
                     limits: Limits = DEFAULT) -> Record:
    """A Record from one JSON object; a field of the wrong shape or value becomes one
    diagnostic (``E-SYNTAX``, ``E-BAD-TAG``, ``E-LIMIT``) on a record that keeps what was
    read before it."""
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
        for name, value in pairs:
            if not TAG_NAME.fullmatch(name):
                raise _JsonShapeError(f"tag name {name[:20]!r} is not a tag name (letters, "
                                      "digits and _+#=:- without spaces)", "E-BAD-TAG")
            if "\n" in value or "\r" in value:
                raise _JsonShapeError(f"tag {name}: a tag value is one line", "E-BAD-TAG")
        record.tags = Tags([Tag(name, value, line, 1) for name, value in pairs])
        record.initial_comments = _strings(data.get("initial_comments", []), "initial_comments")
        record.final_comments = _strings(data.get("final_comments", []), "final_comments")
        # the main line is level 0, as in PGN: --limit depth=N allows N levels of variations
        record.moves = _line_from_json(data.get("moves", []), line, 0, limits)
        result = data.get("result")
        if result is not None and (not isinstance(result, str) or result not in RESULTS):
            raise _JsonShapeError("'result' must be one of 1-0, 0-1, 1/2-1/2, * or null")
        record.result = result
        record.result_line, record.result_column = line, 1
    except _JsonShapeError as error:
        record.diagnostics.append(Diagnostic(error.code, f"JSON record: {error}", path, line, 1,
                                             record=index))
    return record


class _LongNumber(str):
    """A JSON integer too long to convert (Python refuses more than 4300 digits)."""


def _number(text: str) -> Any:
    return int(text) if len(text) <= 4000 else _LongNumber(text)


_DECODER = json.JSONDecoder(parse_int=_number)
_NOT_SPACE = re.compile(r"[^ \t\n\r]")


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest deeper than ``limit`` in ``value`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def read_json_records(source: str | Iterable[str], path: str = "-", *,
                      limits: Limits = DEFAULT, json_lines: bool = False) -> Iterator[Record]:
    """Records from JSON text: one object, an array of objects, or JSON Lines.

    ``source`` is the whole text or an iterable of its pieces (a stream read in blocks):
    records are decoded one at a time, so memory holds one record, never the whole file.
    A record larger than ``limits.max_record_bytes``, nested deeper than
    ``limits.max_depth`` or not JSON ends the file with a diagnostic (JSON cannot be read
    past a fault), except in ``json_lines`` text (a ``.jsonl`` file: one record per line),
    where a line that is not JSON is a record with that diagnostic and the next line is
    read.

    >>> [r.tag("Variant") for r in read_json_records('{"tags": {"Variant": "elevation"}, "moves": ["c3:c3-b2"]}')]
    ['elevation']
    """
    return _JsonReader(source, path, limits, json_lines).records()


class _JsonReader:
    """The state of :func:`read_json_records`: the text read and not yet released, and
    where it is."""

    def __init__(self, source: str | Iterable[str], path: str, limits: Limits,
                 json_lines: bool) -> None:
        self.whole = isinstance(source, str)  # one text: read in place, never copied
        self.pieces = iter([source] if isinstance(source, str) else source)
        self.path, self.limits, self.json_lines = path, limits, json_lines
        self.buffer, self.exhausted = "", False
        self.counted, self.line = 0, 1  # line is the line number of buffer[counted]
        self.index = 0
        self.in_array = False  # inside a top-level array of records

    def more(self) -> bool:
        """Read the next piece into the buffer; ``False`` at the end of the text."""
        if self.exhausted:
            return False
        piece = next(self.pieces, None)
        if piece is None:
            self.exhausted = True
            return False
        self.buffer += piece
        return True

    def line_at(self, offset: int) -> int:
        self.line += self.buffer.count("\n", self.counted, offset)
        self.counted = offset
        return self.line

    def fail(self, code: str, message: str, at: int) -> Record:
        """A record holding only the diagnostic of a fault at buffer offset ``at``."""
        self.index += 1
        where = self.line_at(at)
        column = at - (self.buffer.rfind("\n", 0, at) + 1) + 1
        record = Record(path=self.path, index=self.index, line=where)
        record.diagnostics.append(Diagnostic(code, message, self.path, where, column,
                                             record=self.index))
        return record

    def records(self) -> Iterator[Record]:
        position = 0
        while True:
            if position > 1 << 16 and not self.whole:  # drop what is read, keep the line count
                self.line_at(position)
                self.buffer, position, self.counted = self.buffer[position:], 0, 0
            # skip white space and, inside an array, the commas between records
            while True:
                found = _NOT_SPACE.search(self.buffer, position)
                position = found.start() if found is not None else len(self.buffer)
                if position < len(self.buffer) or not self.more():
                    break
            if position >= len(self.buffer):
                if self.in_array:
                    yield self.fail("E-SYNTAX", "invalid JSON: the array is not closed with "
                                    "']'", len(self.buffer))
                return
            char = self.buffer[position]
            if self.in_array and char == "]":
                self.in_array, position = False, position + 1
                continue
            if self.in_array and char == "," and self.index:
                position += 1
                continue
            if not self.in_array and char == "[":
                self.in_array, position = True, position + 1
                continue
            decoded = yield from self.decode(position)
            if decoded is None:
                return
            position = decoded

    def decode(self, start: int) -> Generator[Record, None, int | None]:
        """Decode the value at ``start`` and yield its records; where to read on, or
        ``None`` where the file cannot be read on."""
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buffer, start)
                break
            except json.JSONDecodeError as error:
                newline = self.buffer.find("\n", start)
                if self.json_lines and not self.in_array and 0 <= error.pos <= newline:
                    # one record per line: the line is bad, the next one is read
                    yield self.fail("E-SYNTAX", f"invalid JSON: {error.msg}", error.pos)
                    return newline + 1
                if len(self.buffer) - start > self.limits.max_record_bytes:
                    yield self.fail("E-LIMIT", "a JSON record is larger than "
                                    f"{self.limits.describe('max_record_bytes')} bytes", start)
                    return None
                if self.more():
                    continue
                # JSON cannot be read past a fault: what follows it is said to be lost
                rest = "; the rest of the file is not read" if self.buffer[
                    error.pos + 1:].strip() else ""
                yield self.fail("E-SYNTAX", f"invalid JSON: {error.msg}{rest}", error.pos)
                return None
            except RecursionError:
                yield self.fail("E-LIMIT", "JSON nested deeper than "
                                f"{self.limits.describe('max_depth')}", start)
                return None
        # each level of variations is three JSON levels (move, its variations, a variation),
        # and a move's structured data a few more
        if _depth_exceeds(value, 3 * self.limits.max_depth + 10):
            yield self.fail("E-LIMIT", "JSON nested deeper than "
                            f"{self.limits.describe('max_depth')}", start)
            return None
        record_line = self.line_at(start)
        for item in ([value] if self.in_array or not isinstance(value, list) else value):
            self.index += 1
            yield record_from_json(item, self.path, record_line, self.index,
                                   limits=self.limits)
        return end


def write_json_record(record: Record, *, move_data: list[Any] | None = None) -> str:
    """One record as one line of JSON Lines."""
    return json.dumps(record_to_json(record, move_data=move_data), ensure_ascii=False) + "\n"
