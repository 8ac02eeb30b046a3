"""Command-line fuzz cases: hostile files of every reader, archives, file-system set-ups,
output failures, databases and bad option values, each as a :class:`fuzz.cli.Case` (a real
``notation-tools`` command with its files) built from a random generator.

Every builder is ``(rng) -> Case``. The inputs start from valid material (generated games of
every game in PGN and JSON, Game of War's ``.kfen``, KFEN and ebarjou files written from them,
the sample games: ShogiVar ``.svar`` saves and text scores, TSA records) and are damaged by
mutation: edits of characters, lines and bytes, JSON values of another type, cuts, bad bytes,
other encodings, deep nesting, huge lines, compression (cut short, or a bomb).

Besides the faults every run is judged on (:func:`fuzz.cli.faults`), some cases carry their
own check: records a conversion or a selection loses, an input a run wrote over, a bomb or a
FIFO that is not reported, an output cut by a full disk while the run says it succeeded, a
viewer page whose script data can close or hide its script element.
"""

from __future__ import annotations

import bz2
import dataclasses
import functools
import gzip
import io
import json
import lzma
import os
import random
import re
import sqlite3
import tarfile
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fuzz.archives import build_archive
from fuzz.cli import Case, Outcome, faults, run, work_directory
from fuzz.targets import NASTY, TARGETS, material, mutate

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"


# ---- material ------------------------------------------------------------------------------

@functools.cache
def seeds() -> dict[str, list[tuple[str, bytes]]]:
    """Valid files of every reader, by kind: ``(file name ending, bytes)``."""
    from notation_tools.analysis.convert import Conversion, convert_record
    from notation_tools.analysis.generate import generate_records
    from notation_tools.games.base import all_games

    found: dict[str, list[tuple[str, bytes]]] = {kind: [] for kind in (
        "pgn", "json", "jsonl", "kfen-json", "kfen", "ebarjou", "svar", "shogivar", "tsa")}
    for game in all_games():
        stock = material(game)
        found["pgn"] += [(".pgn", text.encode()) for text in stock["pgn"]]
        found["jsonl"].append((".jsonl", "".join(stock["json"]).encode()))
        found["json"].append((".json", ("[" + ",".join(t.strip() for t in stock["json"])
                                        + "]\n").encode()))
        for fmt in game.file_formats:
            if fmt.write is None:
                continue
            for record in generate_records(game, game.parse_rules(None), count=2, seed=3,
                                           max_plies=24):
                text = convert_record(record, Conversion(fmt.name))
                if text:
                    found[fmt.name].append((fmt.file_suffix, text.encode()))
    for path in sorted(SAMPLES.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if path.suffix == ".svar":
            found["svar"].append((".svar", data))
        elif path.suffix == ".txt":
            found["shogivar"].append((".txt", data))
        elif b'[Rules "tsa"]' in data:
            found["tsa"].append((".tsa", data))
            found["pgn"].append((".pgn", data))
        elif path.suffix == ".pgn":
            found["pgn"].append((".pgn", data))
    return {kind: files for kind, files in found.items() if files}


@functools.cache
def games() -> tuple[Any, ...]:
    from notation_tools.games.base import all_games
    return all_games()


# ---- damage --------------------------------------------------------------------------------

def type_edit(rng: random.Random, value: Any, depth: int = 0) -> Any:
    """``value`` (parsed JSON) with one value somewhere replaced by one of another type."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        return {**value, key: type_edit(rng, value[key], depth + 1)}
    if isinstance(value, list) and value and rng.random() < 0.8:
        index = rng.randrange(len(value))
        return value[:index] + [type_edit(rng, value[index], depth + 1)] + value[index + 1:]
    return rng.choice([
        None, True, False, 0, -1, 2**64, 1e308, float("nan") if rng.random() < 0.1 else 0.5,
        "", "\ud800", "x" * rng.randint(1, 300), [], {}, [value], {"": value}, [[[]]],
        {"move": value}, str(value)[:50], list(str(value)[:5]),
        value if not isinstance(value, str) else [value]])


def damage_json(rng: random.Random, data: bytes) -> bytes:
    """Type-changing edits of the JSON documents or lines in ``data`` (one or a few)."""
    text = data.decode("utf-8", "replace")
    lines = text.splitlines() if not text.lstrip().startswith("[") and "\n{" in text else [text]
    out = []
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        for _ in range(rng.randint(1, 3)):
            value = type_edit(rng, value)
        out.append(json.dumps(value, ensure_ascii=rng.random() < 0.5, allow_nan=True))
    return ("\n".join(out) + "\n").encode("utf-8", "surrogatepass")


def damage_text(rng: random.Random, data: bytes) -> bytes:
    """Line, character and byte edits."""
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    for _ in range(rng.randint(0, 4)):
        if not lines:
            break
        index = rng.randrange(len(lines))
        roll = rng.randrange(5)
        if roll == 0:
            del lines[index]
        elif roll == 1:
            lines.insert(index, lines[rng.randrange(len(lines))])
        elif roll == 2:
            other = rng.randrange(len(lines))
            lines[index], lines[other] = lines[other], lines[index]
        elif roll == 3:
            lines[index] = mutate(rng, lines[index], "{}()[];$%\"x-:,/0123456789abcKPN+=*")
        else:
            lines.insert(index, rng.choice(NASTY) * rng.randint(1, 3))
    text = "\n".join(lines)
    if rng.random() < 0.3:
        text = mutate(rng, text, "{}()[]\"\\\n\r;$%", edits=rng.randint(1, 5))
    raw = bytearray(text.encode("utf-8", "surrogateescape"))
    for _ in range(rng.choice([0, 0, 0, 1, 3])):
        if raw:
            raw[rng.randrange(len(raw))] = rng.choice([0xff, 0xc3, 0x80, 0x0d, 0x00, 0xfe])
    return bytes(raw)


def reshape(rng: random.Random, data: bytes) -> bytes:
    """Whole-file changes: a cut, another encoding or line end, a BOM, deep nesting, a huge
    line, many copies."""
    roll = rng.random()
    if roll < 0.15 and data:
        return data[: rng.randrange(len(data))]
    if roll < 0.22:
        return data.decode("utf-8", "replace").encode(rng.choice(["utf-16", "utf-16-le",
                                                                    "utf-32", "latin-1"]),
                                                      "replace")
    if roll < 0.27:
        return data.replace(b"\n", rng.choice([b"\r", b"\r\n", b"\n\n", b"\x0b", b"\x85"]))
    if roll < 0.31:
        return rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]) + data
    if roll < 0.38:
        depth = rng.choice([50, 99, 100, 101, 150, 1000, 5000, 20000])
        opener, closer = rng.choice([(b"(", b")"), (b"{", b"}"), (b"[", b"]"),
                                    (b'{"a":', b"}"), (b"( 1. x ", b")")])
        index = rng.randint(0, len(data))
        return data[:index] + opener * depth + closer * rng.randint(0, depth) + data[index:]
    if roll < 0.42:
        index = rng.randint(0, len(data))
        return data[:index] + rng.choice([b"a", b"1. ", b" ", b"{", b"\xff"]) * \
            rng.choice([5000, 70000, 300000]) + data[index:]
    if roll < 0.45:
        return data * rng.randint(2, 40)
    return data


def hostile_file(rng: random.Random, kind: str | None = None) -> tuple[str, bytes, str]:
    """A damaged file of one reader: (kind, bytes, file name ending)."""
    table = seeds()
    kind = kind or rng.choice(sorted(table))
    suffix, data = rng.choice(table[kind])
    if kind in ("json", "jsonl", "kfen-json") and rng.random() < 0.6:
        data = damage_json(rng, data)
    elif rng.random() < 0.85:
        data = damage_text(rng, data)
    data = reshape(rng, data)
    if rng.random() < 0.1:
        suffix = rng.choice([".pgn", ".json", ".txt", ".kfen", ".svar", ".tsa", ".dat", ""])
    return kind, data, suffix


def compress(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    kind = rng.choice(["gz", "bz2", "xz"])
    packed = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[kind](data)
    return packed, "." + kind


# ---- commands ------------------------------------------------------------------------------

def _games_option(rng: random.Random) -> list[str]:
    roll = rng.random()
    if roll < 0.85:
        return []
    if roll < 0.93:
        return ["--game", rng.choice([g.id for g in games()] + [
            "shih", "gow", "maka", "nonsense", "", "ELEVATION"])]
    game = rng.choice(games())
    profile = rng.choice(list(game.profiles) + ["bogus", "", ";", "standard; x=y"])
    return ["--rules", mutate(rng, profile, "=;-abc0123") if rng.random() < 0.3 else profile]


def _limits_option(rng: random.Random) -> list[str]:
    if rng.random() < 0.85:
        return []
    return ["--limit", rng.choice([
        "depth=5", "depth=200", "line-bytes=1KiB", "record-bytes=2KiB", "moves=10",
        "diagnostics=1", "file-bytes=4KiB", "ratio=2", "ratio-floor-bytes=1KiB", "depth=0",
        "depth=-1", "bogus=1", "depth", "depth=1e9", "line-bytes=99999999999GiB", "=",
        "ratio=0"])]


def _encoding_option(rng: random.Random) -> list[str]:
    if rng.random() < 0.92:
        return []
    return ["--encoding", rng.choice([
        "latin-1", "cp932", "utf-16", "utf-32", "ascii", "utf-8-sig", "rot13", "base64",
        "zlib", "hex", "bz2_codec", "uu", "idna", "punycode", "unicode_escape", "raw_unicode_escape",
        "nonsense", "", "mbcs", "utf_7", "cp1252", "shift_jis", "undefined"])]


def _notation(rng: random.Random) -> str:
    return rng.choice([n for g in games() for n in g.notations] + ["nonsense"])


def record_command(rng: random.Random, paths: list[str]) -> tuple[list[str], str]:
    """A random command that reads records from ``paths``, and its main output path."""
    from notation_tools.analysis.convert import targets

    roll = rng.random()
    common = _games_option(rng) + _limits_option(rng) + _encoding_option(rng)
    if roll < 0.2:
        argv = ["validate", *rng.choice([[], ["-f", "json"], ["-f", "jsonl"], ["-v"], ["-q"]])]
        out = ""
    elif roll < 0.3:
        argv = ["show", "-p", str(rng.choice([0, 1, 3, 999])), "-k",
                str(rng.choice([1, 1, 2, 5])), "-f", rng.choice(["text", "svg", "fen"]),
                "--style", rng.choice(["ascii", "unicode"])]
        out = ""
    elif roll < 0.55:
        target = rng.choice(targets())
        argv = ["convert", "--to", target]
        if rng.random() < 0.2:
            argv += ["-n", _notation(rng)]
        if rng.random() < 0.1:
            argv += ["--annotate-outcomes"]
        if rng.random() < 0.1:
            argv += ["-p", str(rng.randint(0, 5))]
        out = rng.choice(["out.pgn", "out/", "-"])
        argv += ["-o", out]
    elif roll < 0.75:
        argv, out = select_options(rng)
    elif roll < 0.82:
        argv = ["stats", "-f", rng.choice(["table", "csv", "json"])]
        out = ""
    elif roll < 0.92:
        argv = ["analyze", "--jobs", "1", "-f", rng.choice(["table", "csv", "json"])]
        if rng.random() < 0.3:
            argv.append("--figures")
        if rng.random() < 0.3:
            argv += ["--db", "results.sqlite"]
        if rng.random() < 0.15:
            argv += ["--parquet", "pq"]
        if rng.random() < 0.03:  # matplotlib draws every chart: seconds a run
            argv += ["--html", "report.html"]
        if rng.random() < 0.3:
            argv.append("--diagnostics")
        out = ""
    else:
        # A page draws every position in every drawing option (about 0.5 s a ply for Shih):
        # a few moves keep a run short.
        out = rng.choice(["page.html", "pages/"])
        argv = ["html", "--limit", "moves=8", "-o", out]
    return [argv[0], *common, *argv[1:], *paths], out


def tag_test(rng: random.Random) -> str:
    name = rng.choice(["White", "Black", "Event", "Result", "Round", "Date", "Variant", "X"])
    op = rng.choice(["=", "~", "<", ">=", "!=", "<="])
    value = rng.choice(["1-0", "a", "2", "(a+)+$", "a*b", "[", "(?P<x>a)(?P=x)", "\\", "",
                        "(?i)Á", "a{1000000}", "(a|a)*c", "9" * 40, "\x7f", "*"])
    return f"{name}{op}{value}"


def select_options(rng: random.Random) -> tuple[list[str], str]:
    """``select`` with random criteria and outputs: the arguments and the main output."""
    argv = ["select"]
    for _ in range(rng.choice([0, 0, 1, 2])):
        argv += [rng.choice(["--tag", "--any-tag"]), tag_test(rng)]
    extras = [["--valid"], ["--invalid"], ["--plies", rng.choice(["2..", "..5", "3", "x", "5..2"])],
              ["--ended", rng.choice(["unfinished", "royal-captured", "x"])],
              ["--code", rng.choice(["E-SYNTAX", "E-ILLEGAL", "W-X"])],
              ["--figure", rng.choice(["plies>0", "captures>=1", "nope<2", "x"])],
              ["--date-from", rng.choice(["1998", "1998.01", "x", "2000.13.40"])],
              ["--game", rng.choice(["elevation", "shih", "nope"])],
              ["--profile", "standard"], ["--keep-tags", "Event,White"], ["--tags-only"],
              ["--to", rng.choice(["pgn", "json", "jsonl"])], ["-n", _notation(rng)],
              ["--dedupe"], ["--dedupe=position"]]
    for extra in rng.sample(extras, rng.choice([0, 1, 1, 2, 3])):
        argv += extra
    out = "-"
    roll = rng.random()
    if roll < 0.3:
        out = rng.choice(["sel.pgn", "sel.json"])
        argv += ["-o", out]
    elif roll < 0.45:
        out = "split/"
        argv += ["--split-by", rng.choice(["game", "result", "1", "2", "0", "x"]), "-o", "split"]
    if rng.random() < 0.3:
        argv += ["--rejected", "rejected.pgn"]
    if rng.random() < 0.2:
        argv += ["--dedupe", "--duplicates", "dups.pgn"]
    if rng.random() < 0.1:
        argv.append("--append")
    return argv, out


# ---- checks --------------------------------------------------------------------------------

def count_records(path: Path) -> tuple[int, int, int]:
    """(records, valid records, unreadable inputs) in ``path``, by the library."""
    from notation_tools.parallel.batch import Settings, iter_reports
    from notation_tools.records.diagnostics import Diagnostic

    records = valid = unreadable = 0
    for item in iter_reports([str(path)], Settings()):
        if isinstance(item, Diagnostic):
            unreadable += 1
        else:
            records += 1
            valid += item.is_valid
    return records, valid, unreadable


def _conversion_check(paths: list[str], argv: list[str]) -> Callable[[Outcome], str | None]:
    """convert to a container or notation, or select with nothing that drops or changes
    records: every record read is written and reads back with the same verdict."""
    def check(outcome: Outcome) -> str | None:
        if outcome.status != 0 and outcome.status != 1:
            return None
        before = [count_records(outcome.directory / p) for p in paths]
        if any(u for _, _, u in before):
            return None
        records = sum(r for r, _, _ in before)
        valid = sum(v for _, v, _ in before)
        out = outcome.directory / argv[argv.index("-o") + 1]
        if not out.exists():
            return None
        after = count_records(out)
        # A record the target cannot hold is refused, each with one diagnostic (a game
        # without the notation asked for, a record not read whole): it is accounted for.
        refused = len(re.findall(r"error\[E-(?:BAD-NOTATION|CANNOT-WRITE)\]", outcome.stderr))
        if after[0] + refused != records or not valid - refused <= after[1] <= valid \
                or after[2]:
            return (f"{argv[0]} wrote {after[0]} records ({after[1]} valid, {after[2]} "
                    f"unreadable) for {records} read ({valid} valid), {refused} refused")
        return None
    return check


# ---- case builders -------------------------------------------------------------------------

def read_case(rng: random.Random) -> Case:
    """One or a few damaged files of any reader, through a random reading command."""
    files: dict[str, bytes] = {}
    for index in range(rng.choice([1, 1, 1, 2, 3])):
        kind, data, suffix = hostile_file(rng)
        if rng.random() < 0.1:
            data, extra = compress(rng, data)
            if rng.random() < 0.3:
                data = data[: rng.randrange(max(1, len(data)))]
            suffix += extra
        files[f"in{index}{suffix}"] = data
    paths = list(files)
    stdin = b""
    if rng.random() < 0.05:
        stdin = files.pop(paths[0])
        paths[0] = "-"
    argv, _ = record_command(rng, paths)
    return Case(argv, files, stdin=stdin)


def round_trip_case(rng: random.Random) -> Case:
    """Valid records of any reader converted (or selected) to a container or notation: as
    many records come back, with the same verdicts."""
    from notation_tools.analysis.convert import notations

    kind = rng.choice(sorted(seeds()))
    suffix, data = rng.choice(seeds()[kind])
    name = f"in{suffix}"
    out = rng.choice(["out.pgn", "out.json", "out.jsonl"])
    container = {"out.pgn": "pgn", "out.json": "json", "out.jsonl": "jsonl"}[out]
    if rng.random() < 0.6:
        argv = ["convert", "--to", container]
        if rng.random() < 0.3 and container != "pgn":
            argv += ["-n", rng.choice(notations())]
    else:
        argv = ["select", "--to", container]
        if rng.random() < 0.3:
            argv += ["-n", rng.choice(notations())]
    argv += ["-o", out, name]
    return Case(argv, {name: data}, check=_conversion_check([name], argv),
                note=f"round trip of a {kind} file")


def json_types_case(rng: random.Random) -> Case:
    """JSON records (and .kfen documents) with values of the wrong type in any field."""
    kind = rng.choice(["json", "jsonl", "kfen-json"])
    suffix, data = rng.choice(seeds()[kind])
    data = damage_json(rng, data)
    name = f"in{suffix}"
    argv, _ = record_command(rng, [name])
    return Case(argv, {name: data}, note="JSON values of another type")


def _nasty_name(rng: random.Random, suffix: str) -> str:
    stem = rng.choice(["caf\udce9", "\udcff\udcfe", "a b", "-x", "é", "x" * 200, "a:b",
                       "new\nline", "q'uo\"te", "sp ace", "a\\b", "\u202e"])
    return stem + suffix


def filesystem_case(rng: random.Random) -> Case:
    """A directory of inputs with the file system's hard cases: a FIFO, symbolic link loops,
    names that are not UTF-8, unreadable files and directories, huge lines, nested archives,
    compression bombs, cut compressed files."""
    files: dict[str, bytes] = {"d/": b""}
    special: list[tuple[str, str]] = []
    checks: list[Callable[[Outcome], str | None]] = []
    unprivileged = False
    limits: list[str] = []
    for index in range(rng.randint(1, 4)):
        roll = rng.random()
        kind, data, suffix = hostile_file(rng, rng.choice(["pgn", "jsonl", "pgn"]))
        if roll < 0.12:
            special.append(("fifo", f"d/fifo{index}.pgn"))
            checks.append(_mentions("FIFO", "a FIFO in the directory"))
        elif roll < 0.2:
            special.append(("loop", f"d/loop{index}.pgn"))
        elif roll < 0.25:
            special.append(("dir-loop", f"d/sub{index}/again"))
            files[f"d/sub{index}/x.pgn"] = data
        elif roll < 0.4:
            files[f"d/{_nasty_name(rng, suffix if suffix else '.pgn')}"] = data
        elif roll < 0.5:
            files[f"d/locked{index}.pgn"] = data
            special.append(("unreadable", f"d/locked{index}.pgn"))
            unprivileged = True
        elif roll < 0.55:
            files[f"d/closed{index}/x.pgn"] = data
            special.append(("unreadable", f"d/closed{index}"))
            unprivileged = True
        elif roll < 0.65:
            limits = ["--limit", "ratio=20", "--limit", "ratio-floor-bytes=64KiB"]
            bomb = rng.choice([b"\n", b" ", b"1. ", b"{"]) * rng.choice([300_000, 2_000_000])
            packed, ext = compress(rng, bomb)
            files[f"d/bomb{index}.pgn{ext}"] = packed
            checks.append(_mentions("E-LIMIT", "a compression bomb"))
        elif roll < 0.75:
            packed, ext = compress(rng, data * rng.randint(1, 30))
            files[f"d/cut{index}.pgn{ext}"] = packed[: rng.randrange(max(1, len(packed)))]
        elif roll < 0.85:
            files[f"d/nest{index}.zip"] = nested_archive(rng, data)
        else:
            files[f"d/big{index}.pgn"] = data + b"1. " + b"a" * rng.choice(
                [70_000, 5 << 20]) + b"\n"
    argv, _ = record_command(rng, ["d"])
    if "--encoding" in argv and checks:  # a file in no such encoding is unreadable first
        del argv[argv.index("--encoding"):argv.index("--encoding") + 2]
    argv[1:1] = limits
    if argv[0] in ("validate", "stats") and "-q" not in argv:
        check = _all(checks)
    else:
        check = None
    return Case(argv, files, special=special, unprivileged=unprivileged, check=check,
                note="file-system cases")


def nested_archive(rng: random.Random, data: bytes) -> bytes:
    """A zip or tar holding archives and compressed files in turn, a few levels deep."""
    inner, name = data, "a.pgn"
    for _ in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.4:
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", rng.choice([zipfile.ZIP_STORED,
                                                       zipfile.ZIP_DEFLATED])) as archive:
                archive.writestr(name, inner)
                archive.writestr("other.pgn", rng.choice(seeds()["pgn"])[1])
            inner, name = out.getvalue(), "n.zip"
        elif roll < 0.8:
            out = io.BytesIO()
            with tarfile.open(fileobj=out, mode=rng.choice(["w", "w:gz", "w:xz"])) as archive:
                info = tarfile.TarInfo(name)
                info.size = len(inner)
                archive.addfile(info, io.BytesIO(inner))
            inner, name = out.getvalue(), "n.tar"
        else:
            packed, ext = compress(rng, inner)
            inner, name = packed, name + ext
    if rng.random() < 0.2:
        inner = inner[: rng.randrange(max(1, len(inner)))]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(name, inner)
    return out.getvalue()


def _mentions(text: str, what: str) -> Callable[[Outcome], str | None]:
    def check(outcome: Outcome) -> str | None:
        if _usage_error(outcome):
            return None  # refused before anything was read (a bad option value drawn with it)
        if text not in outcome.stderr and text not in outcome.stdout:
            return f"{what} is not reported ({text} not printed)"
        return None
    return check


def _usage_error(outcome: Outcome) -> bool:
    """Whether the run stopped at a usage error (Click's, exit 2), which comes before any
    input is read."""
    return outcome.status == 2 and "Try 'notation-tools" in outcome.stderr


def _all(checks: list[Callable[[Outcome], str | None]]) -> Callable[[Outcome], str | None]:
    def check(outcome: Outcome) -> str | None:
        for one in checks:
            problem = one(outcome)
            if problem:
                return problem
        return None
    return check


def output_case(rng: random.Random) -> Case:
    """Outputs that fail or collide: /dev/full, a read-only directory, a full disk (a cap on
    file size), the output onto its own input."""
    kind, data, suffix = hostile_file(rng, rng.choice(["pgn", "jsonl", "json"]))
    if rng.random() < 0.5:
        data = rng.choice(seeds()["pgn"])[1] * rng.randint(1, 20)
        suffix = ".pgn"
    name = f"in{suffix or '.pgn'}"
    files = {name: data}
    argv, out = record_command(rng, [name])
    roll = rng.random()
    case = Case(argv, files, note="output failure")
    where = _output_options(argv)
    if roll < 0.3 and where:
        # the output onto its own input: refused (exit 2, input kept), or written whole
        option = rng.choice(where)
        argv[argv.index(option) + 1] = name
        case.keep = (option, name)
        case.check = _own_input_check(name)
        case.note = "output onto its own input"
    elif roll < 0.5:
        if where:
            argv[argv.index(rng.choice(where)) + 1] = "/dev/full"
        else:  # every command that reads records takes -o
            argv[1:1] = ["-o", "/dev/full"]
        case.keep = ("/dev/full",)
        case.check = _failed_write_check("/dev/full")
        case.note = "output to /dev/full"
    elif roll < 0.7 and where:
        option = rng.choice(where)
        argv[argv.index(option) + 1] = "ro/" + argv[argv.index(option) + 1].strip("/")
        case.keep = (argv[argv.index(option) + 1],)
        case.special = [("readonly-dir", "ro")]
        case.unprivileged = True
        case.check = _failed_write_check(argv[argv.index(option) + 1])
        case.note = "output into a read-only directory"
    else:
        case.file_size = rng.choice([100, 1000, 4096, 20000])
        case.check = _cut_output_check(case.file_size, name)
        case.note = "a full disk (file size cap)"
    return case


_OUTPUTS = ("-o", "--output", "--rejected", "--duplicates", "--db", "--parquet", "--html")


def _output_options(argv: list[str]) -> list[str]:
    return [option for option in _OUTPUTS if option in argv and argv.index(option) + 1 < len(
        argv) and argv[argv.index(option) + 1] not in ("-",)]


def _own_input_check(name: str) -> Callable[[Outcome], str | None]:
    def check(outcome: Outcome) -> str | None:
        path = outcome.directory / name
        had = outcome.case.files.get(name, b"") if outcome.case is not None else b""
        if had.strip() and (not path.exists() or not path.read_bytes().strip()):
            return f"the input {name} is gone or empty after a run that wrote onto it " \
                   f"(exit status {outcome.status})"
        return None
    return check


def _failed_write_check(failing: str) -> Callable[[Outcome], str | None]:
    """The run wrote to ``failing`` (/dev/full, a read-only directory): it must say so and
    exit 2, when it had something to write there. Whether it had is what the same run onto
    a file that can be written shows (select with nothing matched opens no output)."""
    def check(outcome: Outcome) -> str | None:
        if outcome.status != 0 or "cannot write" in outcome.stderr:
            return None
        if outcome.case is not None:
            probe = dataclasses.replace(
                outcome.case, argv=["probe.out" if a == failing else a for a in
                                    outcome.case.argv], special=[], unprivileged=False,
                check=None)
            with tempfile.TemporaryDirectory() as folder:
                run(probe, Path(folder))
                written = Path(folder) / "probe.out"
                if not (written.is_file() and written.stat().st_size > 0
                        or written.is_dir() and any(written.iterdir())):
                    return None
        return "a write that cannot succeed exits 0 without a word"
    return check


def _cut_output_check(cap: int, name: str) -> Callable[[Outcome], str | None]:
    def check(outcome: Outcome) -> str | None:
        if outcome.status == 2:
            return None
        for path, data in outcome.written():
            if path.name != name and len(data) == cap:
                return (f"{path.name} was cut at {cap} bytes by a full disk, yet the run "
                        f"exited {outcome.status}")
        return None
    return check


def archive_case(rng: random.Random) -> Case:
    """A random archive (:func:`fuzz.archives.build_archive`), validated: every record it holds
    is read or reported (records read + records reported cut = the builder's count)."""
    built = build_archive(rng)
    argv = ["validate", "--limit", f"archive-depth={built.archive_depth}", "-f", "json",
            built.name]
    expected = built.expected

    def check(outcome: Outcome) -> str | None:
        try:
            document = json.loads(outcome.stdout)
        except ValueError:
            return f"validate -f json printed no JSON (exit {outcome.status})"
        summary = document.get("summary", {})
        records, unreadable = summary.get("records"), summary.get("unreadable_inputs")
        if records != expected.records or unreadable != expected.diagnostics:
            return (f"archive {built.shape}: {records} records, {unreadable} unreadable "
                    f"reported; the archive holds {expected.records} readable records and "
                    f"{expected.diagnostics} faults")
        return None
    return Case(argv, {built.name: built.data}, check=check, note=f"archive {built.shape}")


def position_case(rng: random.Random) -> Case:
    """moves and perft with a damaged position string and rules."""
    game = rng.choice(games())
    stock = material(game)
    fen = rng.choice(stock["positions"])
    if rng.random() < 0.7:
        fen = mutate(rng, fen, stock["alphabet"])
    argv = [rng.choice(["moves", "moves", "perft"]), "--game", rng.choice([game.id, game.id,
                                                                          "nope"])]
    if rng.random() < 0.9:
        argv += ["--fen", fen]
    if rng.random() < 0.4:
        option = rng.choice(list(game.options)) if game.options else None
        parts = [rng.choice(list(game.profiles))]
        if option is not None:
            parts.append(f"{option.name}={rng.choice(option.values or (option.default,))}")
        text = "; ".join(parts)
        argv += ["--rules", mutate(rng, text, "=;-yesno") if rng.random() < 0.3 else text]
    if argv[0] == "perft":
        argv += ["--depth", str(rng.choice([1, 1, 2])), *(["--divide"] if rng.random() < 0.3
                                                           else [])]
    else:
        argv += ["-f", rng.choice(["table", "csv", "json"])]
        if rng.random() < 0.2:
            argv += ["-n", _notation(rng)]
    return Case(argv, note="hostile position")


def option_case(rng: random.Random) -> Case:
    """Bad option values (--encoding, --limit, --rules, --game, --to): a usage error, never a
    fault; a profile no game has is refused before any record is read."""
    suffix, data = rng.choice(seeds()["pgn"])
    name = "in.pgn"
    command = rng.choice(["validate", "convert", "select", "stats", "analyze", "show", "html"])
    argv = [command]
    roll = rng.random()
    check = None
    if roll < 0.3:
        argv += ["--encoding", rng.choice(["rot13", "base64", "zlib", "hex", "uu", "bz2",
                                           "quopri", "nonsense", "utf-16", "idna", "punycode",
                                           "unicode_escape", "cp037", "utf-7"])]
    elif roll < 0.55:
        argv += ["--limit", rng.choice(["depth=-1", "depth=x", "line-bytes=0", "ratio=-5",
                                        "x=1", "depth", "file-bytes=1e99", "moves=0",
                                        "record-bytes=99999999999999999999GiB"])]
    elif roll < 0.85:
        bogus = rng.choice(["bogus", "standard; nonsense=1", "x=y", ";;", "standardx"])
        argv += ["--rules", bogus]
        if bogus in ("bogus", "standardx"):
            check = _usage_error_check("--rules")
    else:
        argv += ["--game", rng.choice(["bogus", "", "elevation2"])]
    if command == "convert":
        argv += ["--to", rng.choice(["pgn", "bogus", "kfen"])]
    if command == "html":
        argv += ["-o", "page.html"]
    if command == "analyze":
        argv += ["--jobs", "1"]
    argv.append(name)
    return Case(argv, {name: data}, check=check, note="bad option value")


def _usage_error_check(option: str) -> Callable[[Outcome], str | None]:
    def check(outcome: Outcome) -> str | None:
        if outcome.status != 2:
            return f"an unknown {option} value is not a usage error (exit {outcome.status})"
        return None
    return check


def viewer_case(rng: random.Random) -> Case:
    """html pages of records with hostile tags, comments and moves: the page's script data
    must not close or hide its script element."""
    text = rng.choice(short_records())
    hostile = rng.choice(["<!--<script>", "</script>", "<script>", "<!--", "]]>", "-->",
                          "</SCRIPT >", "\u2028", "<\\/script>", "&lt;"])
    roll = rng.random()
    if roll < 0.4:
        text = re.sub(r'\[(Event|White|Site) "[^"]*"\]', lambda m: f'[{m.group(1)} "{hostile}"]',
                      text, count=1)
    elif roll < 0.6:
        text = re.sub(r'\[(Variant|Rules) "([^"]*)"\]',
                      lambda m: f'[{m.group(1)} "{m.group(2)}{hostile}"]', text, count=1)
    elif roll < 0.8:
        text = text.replace("\n\n", f"\n\n{{{hostile}}} ", 1)
    else:
        text = mutate(rng, text, hostile)
    argv = ["html", "-o", "page.html", "in.pgn"]

    def check(outcome: Outcome) -> str | None:
        page = outcome.directory / "page.html"
        if not page.is_file():  # a directory of pages when the input held several records
            return None
        html = page.read_text(encoding="utf-8", errors="replace")
        for match in re.finditer(r"<script[^>]*>", html, re.IGNORECASE):
            body = html[match.end():]
            end = re.search(r"</script", body, re.IGNORECASE)
            content = body[: end.start()] if end else body
            if "<!--" in content or re.search(r"<script", content, re.IGNORECASE) or not end:
                return f"a script element of the page can be hidden or closed early: {hostile!r}"
            if "application/json" in match.group(0):
                try:
                    json.loads(content)
                except ValueError:
                    return f"the page's data is cut short by the text {hostile!r}"
        return None
    return Case(argv, {"in.pgn": text.encode("utf-8", "surrogatepass")}, check=check,
                note="viewer page")


@functools.cache
def short_records() -> tuple[str, ...]:
    """Records of every game of a few plies (a viewer page draws every position in every
    drawing option: about half a second a ply for Shih)."""
    from notation_tools.analysis.generate import generate_records
    from notation_tools.records.pgn import write_record

    return tuple(write_record(record) for game in games() for record in generate_records(
        game, game.parse_rules(None), count=2, seed=9, max_plies=4))


@functools.cache
def pristine_database() -> bytes:
    """A results database of short records of every game and a few broken samples (valid and
    invalid records, diagnostics, every game's figures)."""
    from click.testing import CliRunner

    from notation_tools.cli import main

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "db.sqlite")
        games_file = os.path.join(folder, "short.pgn")
        Path(games_file).write_text("".join(short_records()), encoding="utf-8")
        broken = sorted(SAMPLES.glob("*/broken-*.pgn"))[:6]
        CliRunner().invoke(main, ["analyze", "--jobs", "1", "--db", path, "-q", games_file,
                                  *map(str, broken)])
        return Path(path).read_bytes()


def database_case(rng: random.Random) -> Case:
    """report (and analyze --db) on a results database edited by hand: values of another
    type or shape in any column, rows removed, a bad schema version, bytes damaged."""
    data = pristine_database()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "db.sqlite")
        Path(path).write_bytes(data)
        connection = sqlite3.connect(path)
        try:
            tables = {"inputs": ["path", "size", "digest", "complete", "records", "rules"],
                      "records": ["source", "member", "record_index", "line", "game", "rules",
                                  "plies", "result", "end_reason", "valid", "errors",
                                  "warnings", "movetext_digest", "tags_json", "figures_json"],
                      "diagnostics": ["code", "severity", "path", "line", "col", "ply",
                                      "message", "rule", "record_index"],
                      "meta": ["value"]}
            for _ in range(rng.randint(1, 4)):
                table = rng.choice(list(tables))
                column = rng.choice(tables[table])
                value = rng.choice([None, "text", -1, 2**62, 1.5, "$x^2$", "\\frac{a}{b}",
                                    "{", "[]", "{}", '[["a"]]', '{"plies": "x"}', "[1,2",
                                    b"\xff\xfe", "\udcff".encode("utf-8", "surrogatepass"),
                                    "<script>", "", "nan", '[["White", 1]]',
                                    '{"captures": [1]}', '{"a": {"b": 1}}', "1e999"])
                where = rng.choice(["", " WHERE rowid % 2 = 0", " WHERE rowid = 1"])
                connection.execute(f"UPDATE {table} SET {column} = ?{where}", (value,))
            if rng.random() < 0.1:
                connection.execute(f"DELETE FROM {rng.choice(list(tables))} WHERE rowid % 3 = 0")
            connection.commit()
        except sqlite3.DatabaseError:
            pass
        finally:
            connection.close()
        data = Path(path).read_bytes()
    if rng.random() < 0.08:
        raw = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        data = bytes(raw)
    if rng.random() < 0.8:
        argv = ["report", "db.sqlite", "-f", rng.choice(["table", "csv", "json"])]
        if rng.random() < 0.3:
            argv.append("--figures")
        if rng.random() < 0.05:  # matplotlib draws every chart: seconds a run
            argv += ["--html", "report.html"]
        if rng.random() < 0.1:
            argv += ["--input", "x.pgn"]
    else:
        argv = ["analyze", "--jobs", "1", "--db", "db.sqlite", "in.pgn"]
    files = {"db.sqlite": data, "in.pgn": rng.choice(seeds()["pgn"])[1]}
    return Case(argv, files, note="an edited results database")


def store_case(rng: random.Random) -> Case:
    """analyze --db and --parquet of records whose names and tags are hostile: names that are
    not UTF-8, tags with lone surrogates or control characters."""
    files: dict[str, bytes] = {}
    for index in range(rng.randint(1, 3)):
        kind, data, suffix = hostile_file(rng, rng.choice(["pgn", "jsonl", "json"]))
        if rng.random() < 0.5:
            data = data.replace(b'"random"', rng.choice(
                [b'"\\ud800"', b'"\\u0000"', b'"\xff"', b'"caf\\udce9"']), 1)
        name = _nasty_name(rng, suffix or ".pgn") if rng.random() < 0.5 else f"in{index}{suffix}"
        files[name] = data
    argv = ["analyze", "--jobs", rng.choice(["1", "1", "2"]), "-q"]
    argv += rng.choice([["--db", "db.sqlite"], ["--parquet", "pq"],
                        ["--db", "db.sqlite", "--parquet", "pq"]])
    argv += list(files)
    return Case(argv, files, subprocess=argv[2] == "2", note="database and Parquet")


def subprocess_case(rng: random.Random) -> Case:
    """Any case above through a real subprocess: the last-resort line and the exit status
    end to end, and a share with --jobs 2."""
    case = rng.choice([read_case, json_types_case, round_trip_case, filesystem_case,
                       option_case, position_case])(rng)
    case.subprocess = True
    if case.argv[0] in ("validate", "stats", "html", "analyze") and rng.random() < 0.4:
        if "--jobs" in case.argv:
            case.argv[case.argv.index("--jobs") + 1] = "2"
        else:
            case.argv[1:1] = ["--jobs", "2"]
    return case


CASES: dict[str, Callable[[random.Random], Case]] = {
    "cli-read": read_case, "cli-round-trip": round_trip_case, "cli-json-types": json_types_case,
    "cli-archive": archive_case, "cli-files": filesystem_case, "cli-output": output_case,
    "cli-position": position_case, "cli-options": option_case, "cli-viewer": viewer_case,
    "cli-database": database_case, "cli-store": store_case, "cli-subprocess": subprocess_case,
}
"""Every command-line case builder by target name."""


def command_target(build: Callable[[random.Random], Case]) -> Callable[[random.Random], int]:
    """A target of the harness from a case builder: build the case, run it, raise the
    :class:`~fuzz.cli.Finding` it makes (with the case attached, for its reproducer)."""
    def target(rng: random.Random) -> int:
        case = build(rng)
        outcome = run(case, work_directory() / "case")
        found = faults(case, outcome)
        if found is not None:
            found.case = case
            raise found
        return outcome.status
    target.__doc__ = build.__doc__
    target.build = build  # type: ignore[attr-defined]
    return target


ALL_TARGETS: dict[str, Callable[[random.Random], int]] = {
    **TARGETS, **{name: command_target(build) for name, build in CASES.items()}}
"""Every target of the harness: the library's (``fuzz.targets``) and the commands'."""
