"""Fuzz targets: each takes a random generator, builds one hostile input, and runs one part of
the toolkit on it. A target returns the number of diagnostics the input produced; any other
exception than the toolkit's own refusals is a finding.

Inputs are built from valid material (generated games, their move texts, position strings and
records) by mutation, and from scratch (random text, deep nesting, huge numbers, control
characters, bad bytes), so they reach deep into the parsers rather than failing at the first
character.

An ``E-INTERNAL`` diagnostic is a finding too (:class:`fuzz.cli.Finding`): it is how the
toolkit reports its own fault and goes on, not a fault of the input. The targets that run
real commands are in :mod:`fuzz.cases` (``ALL_TARGETS`` holds both kinds).
"""

from __future__ import annotations

import functools
import gzip
import io
import json
import random
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

from notation_tools.parallel.batch import Settings, iter_records, iter_reports
from notation_tools.analysis.convert import Conversion, convert_record
from notation_tools.analysis.generate import generate_records, random_move
from notation_tools.analysis.replay import replay
from notation_tools.games.base import BadPositionError, EngineError, Game, TagConflictError, all_games
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.jsonio import read_json_records, write_json_record
from notation_tools.records.pgn import read_records, write_record
from notation_tools.records.writers import RECORD_WRITERS
from notation_tools.sources import iter_units

from fuzz.cli import Finding

NASTY = ["", " ", "\t", "\n", "\r", "\x00", "\x7f", "\ufeff", "\u00a0", "\u2028", "²", "①", "٣",
         "\udcff", "{", "}", "(", ")", "[", "]", ";", "%", "$", "$1", '"', "\\", "1.", "1...",
         "*", "1-0", "1/2-1/2", "-", "x", "=", "+", "!", "?", ",", ":", ">", "/", "9" * 30,
         "𝟙", "Ⅻ"]


def mutate(rng: random.Random, text: str, alphabet: str, *, edits: int | None = None) -> str:
    """``text`` with a few random edits: deletions, insertions, replacements, cuts, copies."""
    chars = list(text)
    for _ in range(edits if edits is not None else rng.randint(1, 4)):
        operation = rng.randrange(6)
        index = rng.randint(0, len(chars))
        piece = rng.choice(NASTY) if rng.random() < 0.3 else rng.choice(alphabet or "x")
        if operation == 0 and chars:
            del chars[min(index, len(chars) - 1)]
        elif operation == 1:
            chars[index:index] = list(piece)
        elif operation == 2 and chars:
            chars[min(index, len(chars) - 1)] = piece
        elif operation == 3:
            del chars[index:]
        elif operation == 4 and chars:
            start = rng.randint(0, len(chars) - 1)
            chars[index:index] = chars[start:start + rng.randint(1, 8)]
        else:
            chars[index:index] = list(rng.choice(string.printable))
    return "".join(chars)


@functools.cache
def material(game: Game[Any, Any]) -> dict[str, Any]:
    """Valid material of one game to mutate: positions with their legal moves and texts,
    position strings, and generated records in both containers."""
    rng = random.Random(7)
    rules = game.parse_rules(None)
    lines: list[tuple[Any, Any]] = []
    for _ in range(4):
        position = game.start_position(rules)
        for _ in range(rng.randint(4, 30)):
            if position.is_over():
                break
            move = random_move(game, position, rng)
            if move is None:
                break
            lines.append((position.copy(), move))
            position.push(move)
    texts = sorted({game.format_move(m, p, n) for p, m in lines for n in game.notations})
    positions = sorted({game.format_position(p) for p, _ in lines})
    records = list(generate_records(game, rules, count=3, seed=5, max_plies=30))
    return {"lines": lines, "texts": texts, "positions": positions,
            "pgn": [write_record(r) for r in records],
            "json": [write_json_record(r) for r in records],
            "alphabet": "".join(sorted(set("".join(texts + positions))))}


def _games() -> tuple[Game[Any, Any], ...]:
    return all_games()


# ---- targets -------------------------------------------------------------------------------

def move_parser(rng: random.Random) -> int:
    """A mutated or random move text, parsed in a position of a random game."""
    game = rng.choice(_games())
    found = material(game)
    position, move = rng.choice(found["lines"])
    if rng.random() < 0.8:
        text = mutate(rng, game.format_move(move, position, rng.choice(game.notations)),
                      found["alphabet"])
    else:
        text = "".join(rng.choice(found["alphabet"] + "".join(NASTY[:20]))
                       for _ in range(rng.randint(0, 40)))
    for notation in (None, *game.notations):
        try:
            game.parse_move(text, position, notation)
        except EngineError:
            return 1
    return 0


def json_move_parser(rng: random.Random) -> int:
    """A mutated JSON move (structured where the game has one)."""
    game = rng.choice(_games())
    position, move = rng.choice(material(game)["lines"])
    data = game.move_to_json(move, position)
    text = mutate(rng, json.dumps(data), "{}[]\":,0123456789abcdefghij-")
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    try:
        game.move_from_json(value, position)
    except EngineError:
        return 1
    return 0


def position_parser(rng: random.Random) -> int:
    """A mutated or random position string of a random game."""
    game = rng.choice(_games())
    found = material(game)
    if rng.random() < 0.8:
        text = mutate(rng, rng.choice(found["positions"]), found["alphabet"])
    else:
        text = "".join(rng.choice(found["alphabet"] + "".join(NASTY))
                       for _ in range(rng.randint(0, 200)))
    try:
        position = game.parse_position(text, game.parse_rules(None))
    except (BadPositionError, TagConflictError):
        return 1
    game.format_position(position)
    return 0


def rules_parser(rng: random.Random) -> int:
    """A mutated Rules tag text."""
    game = rng.choice(_games())
    parts = [rng.choice(list(game.profiles))] + [
        f"{o.name}={rng.choice(o.values or (o.default,))}" for o in rng.sample(
            list(game.options), min(3, len(game.options)))]
    try:
        game.parse_rules(mutate(rng, "; ".join(parts), "=;-abcdefghijklmnopqrstuvwxyz0123456789"))
    except EngineError:
        return 1
    return 0


def internal(diagnostics: Any) -> None:
    """Raise a :class:`Finding` for the first ``E-INTERNAL`` among ``diagnostics``."""
    for diagnostic in diagnostics:
        if getattr(diagnostic, "code", None) == "E-INTERNAL":
            raise Finding("E-INTERNAL", f"{diagnostic.path}:{diagnostic.line}: "
                          f"{diagnostic.message}")


def _count(records: Any) -> int:
    total = 0
    for record in records:
        internal(record.diagnostics)
        total += len(record.diagnostics)
    return total


def pgn_record(rng: random.Random) -> int:
    """A mutated PGN record, read and replayed."""
    game = rng.choice(_games())
    found = material(game)
    text = mutate(rng, rng.choice(found["pgn"]), found["alphabet"] + "{}()[];$%\"\n",
                  edits=rng.randint(1, 8))
    records = list(read_records(text.splitlines(), "fuzz.pgn"))
    for record in records:
        internal(replay(record, collect_stats=rng.random() < 0.3).diagnostics)
    return _count(records)


def json_record(rng: random.Random) -> int:
    """A mutated JSON record, read and replayed."""
    game = rng.choice(_games())
    text = mutate(rng, rng.choice(material(game)["json"]), "{}[]\",:0123456789-\\ntrue",
                  edits=rng.randint(1, 6))
    records = list(read_json_records(text, "fuzz.json"))
    for record in records:
        internal(replay(record).diagnostics)
    return _count(records)


def nested(rng: random.Random) -> int:
    """Deep nesting: variations, comments, JSON arrays, brackets in tags."""
    depth = rng.choice([10, 99, 100, 101, 150, 1000, 5000])
    kind = rng.randrange(3)
    if kind == 0:
        text = "[Variant \"elevation\"]\n\n1. c1:c2>b2,c1-c2 " + "( c1:c2>b2,c1-c2 " * depth \
            + ")" * rng.randint(0, depth) + " *"
        records = list(read_records(text.splitlines(), "nest.pgn"))
        for record in records:
            internal(replay(record).diagnostics)
        return _count(records)
    if kind == 1:
        text = rng.choice(["[", "{\"a\":"]) * depth + rng.choice(["]", "}"]) * depth
        return _count(read_json_records(text, "nest.json"))
    text = "{" * depth + "}" * rng.randint(0, depth)
    return _count(read_records([text], "nest.pgn"))


def container_bytes(rng: random.Random) -> int:
    """Random or mutated bytes as a file: plain, gzip'd or cut short, read by the sources."""
    game = rng.choice(_games())
    base = rng.choice(material(game)["pgn"] + material(game)["json"]).encode("utf-8")
    data = bytearray(base * rng.randint(1, 3))
    for _ in range(rng.randint(0, 6)):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    blob = bytes(data)
    if rng.random() < 0.3:
        blob = gzip.compress(blob)
        if rng.random() < 0.5:
            blob = blob[: rng.randint(0, len(blob))]
    count = 0
    for unit in iter_units(["-"], stdin=io.BytesIO(blob)):
        count += isinstance(unit, Diagnostic)
        internal([unit])
    return count


def convert_round_trip(rng: random.Random) -> int:
    """A generated record, perhaps mutated, converted to every container and notation: it
    reads back to the same content and verdict, or is refused with a diagnostic."""
    game = rng.choice(_games())
    found = material(game)
    text = rng.choice(found["pgn"])
    if rng.random() < 0.5:
        text = mutate(rng, text, found["alphabet"])
    target = rng.choice([*RECORD_WRITERS, *game.notations])
    records = list(read_records(text.splitlines(), "rt.pgn"))
    count = 0
    for record in records:
        read = list(record.diagnostics)  # what the reader found
        verdict = _verdict(record)
        record.diagnostics = read
        convert_record(record, Conversion(target))
        count += len(record.diagnostics)
        if any(d.code == "E-CANNOT-WRITE" for d in record.diagnostics):
            continue
        out = io.StringIO()
        writer = RECORD_WRITERS[target if target in RECORD_WRITERS else "pgn"](out)
        if writer.problems(record):
            continue
        writer.write(record)
        writer.end()
        reader = read_json_records if target in ("json", "jsonl") else (
            lambda t, p: read_records(t.splitlines(), p))
        (again,) = list(reader(out.getvalue(), "back"))
        assert _verdict(again) == verdict, (target, text, out.getvalue())
    return count


def _verdict(record: Any) -> tuple[bool, str | None]:
    result = replay(record)
    internal(result.diagnostics)
    errors = [d.code for d in result.diagnostics if d.is_error]
    return (not errors, errors[0] if errors else None)


def batch_pipeline(rng: random.Random) -> int:
    """Mutated records through the whole batch runner (one process), statistics on."""
    game = rng.choice(_games())
    found = material(game)
    text = "\n".join(mutate(rng, rng.choice(found["pgn"]), found["alphabet"])
                     for _ in range(rng.randint(1, 3)))
    count = 0
    for item in iter_reports(["-"], Settings(collect_stats=True),
                             stdin=io.BytesIO(text.encode("utf-8", "surrogatepass"))):
        internal(getattr(item, "diagnostics", [item]))
        count += len(getattr(item, "diagnostics", [item]))
    return count


def select_pipeline(rng: random.Random) -> int:
    """Mutated records through ``select``'s library with a random selection (tags, replay
    criteria, both kinds of duplicates)."""
    from notation_tools.analysis.select import iter_selected, parse_selection

    game = rng.choice(_games())
    found = material(game)
    text = "\n".join(mutate(rng, rng.choice(found["pgn"]), found["alphabet"])
                     for _ in range(rng.randint(1, 4)))
    selection = parse_selection(
        tags=rng.sample(["Result=1-0", "White~a", "Round>=2", "Event!=x"], rng.randint(0, 2)),
        valid=rng.choice([None, True, False]), dedupe=rng.choice([None, "moves", "position"]),
        plies=rng.choice([None, "2..", "..5"]))
    count = 0
    for item in iter_selected(["-"], selection,
                              stdin=io.BytesIO(text.encode("utf-8", "surrogatepass"))):
        internal(getattr(item, "diagnostics", None) or getattr(
            getattr(item, "record", None), "diagnostics", None) or [item])
        count += 1
    return count


_SVAR = Path(__file__).resolve().parents[1] / "sample_games" / "maka"


def svar_file(rng: random.Random) -> int:
    """A ShogiVar save file, its lines cut, swapped or edited, read through the sources."""
    lines = rng.choice(sorted(_SVAR.glob("*.svar"))).read_text(encoding="ascii").splitlines()
    for _ in range(rng.randint(1, 6)):
        index = rng.randrange(len(lines))
        choice = rng.randrange(4)
        if choice == 0:
            lines[index] = rng.choice(["", "x", "-1", "99999", '"', ",,", "1e9", "0", "2"])
        elif choice == 1:
            del lines[index:]
        elif choice == 2:
            other = rng.randrange(len(lines))
            lines[index], lines[other] = lines[other], lines[index]
        else:
            lines.insert(index, rng.choice(["0", "1", '"P-10m",2,2,290,270']))
        if not lines:
            lines = ["x"]
    data = ("\n".join(lines) + "\n").encode("ascii")
    count = 0
    for item in iter_records(["-"], stdin=io.BytesIO(data)):
        if not isinstance(item, Diagnostic):
            internal(item.diagnostics)
            internal(replay(item).diagnostics)
        else:
            internal([item])
        count += 1
    return count


def foreign_file(rng: random.Random) -> int:
    """A damaged file of any reader (Game of War's .kfen, KFEN and ebarjou files, ShogiVar's
    .svar saves and text scores, TSA records, PGN, JSON), read by name through the sources
    and replayed."""
    from fuzz.cases import hostile_file

    _, data, suffix = hostile_file(rng)
    return _read_file(data, "fuzz" + suffix)


def json_types(rng: random.Random) -> int:
    """JSON records and .kfen documents whose values changed type (a list for a string, an
    object for a number, ...), in any field, read and replayed."""
    from fuzz.cases import damage_json, seeds

    kind = rng.choice(["json", "jsonl", "kfen-json"])
    suffix, data = rng.choice(seeds()[kind])
    return _read_file(damage_json(rng, data), "fuzz" + suffix)


def _read_file(data: bytes, name: str) -> int:
    import os

    from fuzz.cli import work_directory

    path = os.path.join(work_directory(), "lib-" + name)
    with open(path, "wb") as out:
        out.write(data)
    count = 0
    try:
        for item in iter_records([path]):
            if isinstance(item, Diagnostic):
                internal([item])
            else:
                internal(item.diagnostics)
                internal(replay(item, collect_stats=True).diagnostics)
            count += 1
    finally:
        os.unlink(path)
    return count


TARGETS: dict[str, Callable[[random.Random], int]] = {
    "move": move_parser, "json-move": json_move_parser, "position": position_parser,
    "rules": rules_parser, "pgn": pgn_record, "json": json_record, "nested": nested,
    "bytes": container_bytes, "convert": convert_round_trip, "batch": batch_pipeline,
    "select": select_pipeline, "svar": svar_file, "foreign": foreign_file,
    "json-types": json_types,
}
"""The library targets by name (cheap: they carry the count of a campaign)."""

