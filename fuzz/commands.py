"""Fuzz targets that go through the command line and the file system, as a user does: hostile
files of every reader and archives in a fresh directory, a random command with random (and
hostile) option values, outputs onto full devices and onto the inputs, special files,
databases edited by hand, viewer pages. Each target returns the number of diagnostic lines the
run printed; a finding is raised (:class:`fuzz.targets.Finding`) for an exit status outside
0/1/2, a traceback, ``Exception ignored``, the last-resort ``internal error`` line or an
``E-INTERNAL`` diagnostic on its output, and for an input destroyed by the run.

Commands run in this process (Click's test runner: fast), except for :func:`cli_process`,
which runs the installed program the way a shell does and checks the same end to end.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from notation_tools.analysis.convert import Conversion, convert_record
from notation_tools.games.base import all_games, get_game
from notation_tools.records.diagnostics import Diagnostic

BAD_OUTPUT = ("internal error", "Traceback (most recent call last)", "Exception ignored",
              "E-INTERNAL")
_DIAGNOSTIC_LINE = re.compile(r"^.*: (error|warning|note)\[[A-Z0-9-]+\]", re.M)


def _finding() -> type[Exception]:
    from fuzz.targets import Finding  # (targets imports this module to register its targets)

    return Finding


def check_run(args: list[str], exit_code: int | None, output: str,
              exception: BaseException | None = None) -> int:
    """The number of diagnostic lines of a run; a finding if the run crashed or said so."""
    if exception is not None and not isinstance(exception, SystemExit):
        raise _finding()(f"{args}: {type(exception).__name__}: {exception}")
    if exit_code not in (0, 1, 2):
        raise _finding()(f"{args}: exit status {exit_code}\n{output[-2000:]}")
    for bad in BAD_OUTPUT:
        if bad in output:
            raise _finding()(f"{args}: {bad!r} in the output\n{output[-3000:]}")
    return len(_DIAGNOSTIC_LINE.findall(output))


def run_cli(args: list[str], stdin: bytes | None = None) -> int:
    """One command in this process."""
    from notation_tools.cli import main

    result = CliRunner().invoke(main, args, input=stdin, catch_exceptions=True)
    return check_run(args, result.exit_code, result.output, result.exception)


# ---- material -----------------------------------------------------------------------------


@functools.cache
def _records(game_id: str) -> tuple[Any, ...]:
    from notation_tools.analysis.generate import generate_records

    game = get_game(game_id)
    return tuple(generate_records(game, game.parse_rules(None), count=3, seed=11,
                                  max_plies=16))


@functools.cache
def _file_texts() -> tuple[tuple[str, str], ...]:
    """(file name ending, text) of a valid file of every reader: PGN and JSON of every game,
    the Game of War file formats, ShogiVar's save and text score."""
    from notation_tools.records.jsonio import write_json_record
    from notation_tools.records.pgn import write_record

    found: list[tuple[str, str]] = []
    for game in all_games():
        records = _records(game.id)
        found.append((".pgn", "".join(write_record(r) for r in records)))
        found.append((".jsonl", "".join(write_json_record(r) for r in records)))
        found.append((".json", json.dumps([json.loads(write_json_record(r))
                                           for r in records])))
        for fmt in game.file_formats:
            if fmt.write is None:
                continue
            record = records[0].copy()
            text = convert_record(record, Conversion(fmt.name))
            if text is not None:
                found.append((fmt.file_suffix if fmt.suffixes else ".txt", text))
    samples = Path(__file__).resolve().parents[1] / "sample_games" / "maka"
    for name in ("maka-cvc-B.svar", "maka-cvc-B.txt"):
        path = samples / name
        if path.exists():
            found.append((path.suffix, path.read_text(encoding="ascii")))
    return tuple(found)


_JSON_VALUES: tuple[Any, ...] = ([], {}, [1], {"a": 1}, 7, -1, 1.5, None, True, "", "x",
                                 "\udcff", [[[]]], 10 ** 30)


def _edit_json(rng: random.Random, value: Any) -> Any:
    """``value`` with one member somewhere in it replaced by a value of another JSON type."""
    if not isinstance(value, (list, dict)) or not value or rng.random() < 0.15:
        return rng.choice(_JSON_VALUES)
    if isinstance(value, list):
        index = rng.randrange(len(value))
        value[index] = _edit_json(rng, value[index])
    else:
        key = rng.choice(list(value))
        value[key] = _edit_json(rng, value[key])
    return value


def hostile_file(rng: random.Random) -> tuple[str, bytes]:
    """(file name, bytes) of one hostile input: a mutated file of a random reader, a JSON
    file with a field of another type, deep nesting, random bytes, or an archive."""
    from fuzz.targets import NASTY, mutate

    kind = rng.randrange(10)
    if kind < 2:
        from fuzz.archives import build_archive

        built = build_archive(rng)
        return built.name, built.data
    suffix, text = rng.choice(_file_texts())
    if kind < 5 and suffix in (".json", ".jsonl", ".kfen"):
        lines = text.splitlines() if suffix == ".jsonl" else [text]
        index = rng.randrange(len(lines))
        try:
            lines[index] = json.dumps(_edit_json(rng, json.loads(lines[index])))
        except ValueError:
            pass
        return "input" + suffix, "\n".join(lines).encode("utf-8", "surrogatepass")
    if kind == 5:
        depth = rng.choice([50, 101, 201, 3000])
        opener, closer = rng.choice([("[", "]"), ("( a ", ")"), ("{", "}"), ('{"a":', "}")])
        text = opener * depth + closer * rng.randint(0, depth)
        return "deep" + rng.choice([".pgn", ".json", ".kfen", ".jsonl"]), text.encode()
    if kind == 6:
        return "junk" + suffix, bytes(rng.randrange(256) for _ in range(rng.randint(0, 3000)))
    alphabet = "".join(sorted(set(text)))[:80] + "{}()[];$%\"\n" + "".join(NASTY[:12])
    return "input" + suffix, mutate(rng, text, alphabet, edits=rng.randint(1, 10)).encode(
        "utf-8", "surrogatepass")


def _option_values(rng: random.Random) -> list[str]:
    """Reading options, hostile or not."""
    options: list[str] = []
    if rng.random() < 0.15:
        options += ["--encoding", rng.choice(["latin-1", "utf-16", "utf-8", "cp932", "rot13",
                                              "base64", "zlib", "hex", "nonexistent", ""])]
    if rng.random() < 0.2:
        options += ["--limit", rng.choice(["depth=3", "depth=200", "depth=201", "moves=3",
                                           "line-bytes=64", "record-bytes=1KiB",
                                           "file-bytes=2KiB", "ratio=1", "diagnostics=1",
                                           "archive-depth=1", "x=1", "depth=-1", "depth"])]
    if rng.random() < 0.15:
        game = rng.choice(all_games())
        options += ["--game", rng.choice([game.id, *game.aliases, "bogus", ""])]
    if rng.random() < 0.15:
        game = rng.choice(all_games())
        option = rng.choice(game.options) if game.options else None
        options += ["--rules", rng.choice([
            rng.choice(list(game.profiles)), "bogus", "",
            f"{rng.choice(list(game.profiles))}; {option.name}={rng.choice(option.values or ('x',))}"
            if option is not None else "x=y"])]
    return options


def _command(rng: random.Random, work: str, input_path: str) -> list[str]:
    """A random command over ``input_path`` whose outputs go into ``work`` (or to a full
    device, or onto the input itself)."""
    def out(default: str) -> str:
        roll = rng.random()
        if roll < 0.05:
            return "/dev/full"
        if roll < 0.08:
            return input_path  # output onto the input: refused, never destroyed
        return os.path.join(work, default)

    command = rng.choice(["validate", "validate", "show", "convert", "select", "stats",
                          "analyze", "html"])
    args = [command]
    if command == "validate":
        args += rng.choice([[], ["--format", "json"], ["--format", "jsonl"], ["--verbose"]])
    elif command == "show":
        args += rng.choice([[], ["--ply", str(rng.randint(0, 40))], ["--format", "svg"],
                            ["--format", "fen"], ["--style", "unicode"],
                            ["--game-index", str(rng.randint(1, 4))]])
        args += ["-o", out("board.txt")] if rng.random() < 0.3 else []
    elif command == "convert":
        targets = ["pgn", "json", "jsonl", "elevation-explicit", "tsa-full", "turn", "kfen",
                   "kfen-json", "ebarjou", "shih-wall", "cell", "coord"]
        args += ["--to", rng.choice(targets)]
        args += ["-o", out(rng.choice(["out.txt", "dir/"]))]
    elif command == "select":
        args += rng.choice([[], ["--valid"], ["--invalid"], ["--dedupe"], ["--tag", "Event~a+"],
                            ["--tag", "White~(a+)+$"], ["--plies", "2.."],
                            ["--ended", "unfinished"], ["--keep-tags", "Event"],
                            ["--tags-only"]])
        args += rng.choice([[], ["--to", "json"], ["--to", "jsonl"],
                            ["--notation", "elevation-explicit"]])
        if rng.random() < 0.3:
            args += ["--split-by", rng.choice(["game", "result", "2"]), "-o",
                     os.path.join(work, "split")]
        else:
            args += ["-o", out("selected.pgn")]
        if rng.random() < 0.3:
            args += ["--rejected", out("rejected.pgn")]
    elif command == "stats":
        args += rng.choice([[], ["-f", "csv"], ["-f", "json"]]) + ["-o", out("stats.txt")]
    elif command == "analyze":
        args += ["-j", "1", "--format", rng.choice(["table", "json"]), "-o", out("report.txt")]
        roll = rng.random()
        if roll < 0.3:
            args += ["--db", out("results.sqlite")]
        elif roll < 0.35:
            args += ["--parquet", os.path.join(work, "dataset")]
    else:
        args += ["-o", out("pages")]
    return args + _option_values(rng)


@contextlib.contextmanager
def _workdir() -> Iterator[str]:
    work = tempfile.mkdtemp(prefix="fuzz-")
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ---- targets -------------------------------------------------------------------------------


def cli_command(rng: random.Random) -> int:
    """A hostile file through a random command with random options, in this process. An
    input the command was told to write onto must still be there, unchanged."""
    with _workdir() as work:
        name, data = hostile_file(rng)
        path = os.path.join(work, name)
        with open(path, "wb") as stream:
            stream.write(data)
        args = _command(rng, work, path)
        count = run_cli([*args, path])
        with open(path, "rb") as stream:
            if stream.read() != data:
                raise _finding()(f"{args}: the input {name} was changed by the run")
        return count


def cli_stdin(rng: random.Random) -> int:
    """A hostile file on standard input (``-``)."""
    name, data = hostile_file(rng)
    command = rng.choice([["validate"], ["convert", "--to", "jsonl"], ["stats"],
                          ["select", "--valid"], ["show"]])
    return run_cli([*command, "-", *_option_values(rng)], stdin=data)


def file_system(rng: random.Random) -> int:
    """A directory as users have them: special files (a FIFO must be passed over, never read
    and blocked on), links in a loop or to nowhere, names that are not UTF-8, files that
    cannot be read, empty files, an output directory that is a file."""
    with _workdir() as work:
        folder = os.path.join(work, "in")
        os.mkdir(folder)
        suffix, text = rng.choice(_file_texts())
        with open(os.path.join(folder, "good" + suffix), "w", encoding="utf-8",
                  errors="surrogatepass") as stream:
            stream.write(text)
        for _ in range(rng.randint(1, 4)):
            kind = rng.randrange(7)
            name = os.path.join(os.fsencode(folder), b"x%d" % rng.randrange(10 ** 6))
            try:
                if kind == 0:
                    os.mkfifo(name + b".pgn")
                elif kind == 1:
                    os.symlink(name + b"-loop.pgn", name + b"-loop.pgn")
                elif kind == 2:
                    os.symlink(b"/nonexistent/target.pgn", name + b"-dangling.pgn")
                elif kind == 3:
                    with open(name + b"\xff\xfe.pgn", "w", encoding="utf-8") as stream:
                        stream.write(text)
                elif kind == 4:
                    with open(name + b".pgn", "w", encoding="utf-8") as stream:
                        stream.write(text)
                    os.chmod(name + b".pgn", 0)
                elif kind == 5:
                    open(name + b".json", "wb").close()
                else:
                    os.mkdir(name + b".pgn")  # a directory named like a record file
            except OSError:
                continue
        command = rng.choice([["validate"], ["analyze", "-j", "1"], ["stats"],
                              ["select", "-o", os.path.join(work, "out.pgn")],
                              ["convert", "--to", "json", "-o", "/dev/full"],
                              ["select", "--split-by", "game", "-o",
                               os.path.join(folder, "good" + suffix)],
                              ["html", "-o", os.path.join(work, "pages")]])
        return run_cli([*command, folder])


def storage(rng: random.Random) -> int:
    """``analyze --db`` on a hostile file, the database edited by hand, then ``report``."""
    with _workdir() as work:
        name, data = hostile_file(rng) if rng.random() < 0.5 else (
            "input.pgn", _file_texts()[0][1].encode())
        path = os.path.join(work, name)
        with open(path, "wb") as stream:
            stream.write(data)
        db = os.path.join(work, "results.sqlite")
        count = run_cli(["analyze", path, "-j", "1", "--db", db])
        if not os.path.exists(db):
            return count
        from fuzz.targets import NASTY

        with contextlib.closing(sqlite3.connect(db)) as connection:
            for _ in range(rng.randint(0, 4)):
                table, columns = rng.choice([
                    ("records", ["seq", "source", "record_index", "line", "game", "rules",
                                 "plies", "result", "end_reason", "byte_offset",
                                 "movetext_digest", "tags_json", "figures_json"]),
                    ("diagnostics", ["seq", "code", "severity", "path", "line", "col",
                                     "ply", "message", "record_index"]),
                    ("inputs", ["path", "complete", "digest", "records"])])
                value = rng.choice([None, -1, 2 ** 62, 1.5, "x", "$\\frac{a}{", "[1",
                                    '{"a": {}}', "[[1, 2]]", b"\xff", *NASTY[:10]])
                with contextlib.suppress(sqlite3.Error):
                    connection.execute(f"UPDATE {table} SET {rng.choice(columns)} = ? WHERE "
                                       f"rowid = (SELECT rowid FROM {table} ORDER BY random() "
                                       "LIMIT 1)", (value,))
            connection.commit()
        extra = rng.choice([[], ["--format", "json"], ["--figures"],
                            ["--html", os.path.join(work, "page.html")] if rng.random() < 0.2
                            else []])
        return count + run_cli(["report", db, *extra])


def viewer(rng: random.Random) -> int:
    """A hostile record's viewer page: its data must read as JSON and no text may end the
    data's script element early."""
    from notation_tools.analysis.viewer import viewer_page
    from notation_tools.records.model import Move

    from fuzz.targets import NASTY

    game = rng.choice(all_games())
    record = rng.choice(_records(game.id)).copy()
    del record.moves[rng.randint(1, 6):]  # a page draws every position: a few are enough
    hostile = rng.choice(["<!--<script>", "</script>", "<!--", "-->", "</SCRIPT ", "&amp;",
                          "\u2028", "]]>", *NASTY])
    where = rng.randrange(4)
    if where == 0 and record.moves:
        record.moves[rng.randrange(len(record.moves))].text = hostile
    elif where == 1:
        record.set_tag(rng.choice(["Event", "Variant", "Rules", "FEN", "White"]), hostile)
    elif where == 2 and record.moves:
        record.moves[0].comments.append(hostile)
    else:
        record.moves.append(Move(hostile))
    page = viewer_page(record)
    found = re.search(r'<script type="application/json" id="viewer-data">(.*?)</script>',
                      page, re.S)
    if found is None:
        raise _finding()("the viewer page has no data element")
    try:
        json.loads(found.group(1))
    except ValueError as error:
        raise _finding()(f"the viewer page's data does not read as JSON ({error})") from None
    if "<!--" in found.group(1) or "<script" in found.group(1).lower():
        raise _finding()("the viewer page's data holds text that opens HTML markup")
    return sum(d.is_error for d in record.diagnostics if isinstance(d, Diagnostic))


def cli_process(rng: random.Random) -> int:
    """The installed program in a process of its own, as a shell runs it: its exit status
    and its standard error are checked end to end (the last-resort line included)."""
    with _workdir() as work:
        name, data = hostile_file(rng)
        path = os.path.join(work, name)
        with open(path, "wb") as stream:
            stream.write(data)
        args = _command(rng, work, path)
        program = [sys.executable, "-m", "notation_tools"]
        completed = subprocess.run([*program, *args, path], capture_output=True, timeout=60,
                                   cwd=work, env={**os.environ, "PYTHONWARNINGS": "ignore"})
        output = completed.stdout.decode("utf-8", "replace") \
            + completed.stderr.decode("utf-8", "replace")
        return check_run(args, completed.returncode, output)


TARGETS: dict[str, Callable[[random.Random], int]] = {
    "cli": cli_command, "cli-stdin": cli_stdin, "files": file_system, "storage": storage,
    "viewer": viewer, "cli-process": cli_process,
}
"""The command-line targets by name (registered in :data:`fuzz.targets.TARGETS`)."""
