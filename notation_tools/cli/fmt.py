"""``notation-tools fmt``: rewrite PGN record files in their canonical form."""

from __future__ import annotations

import difflib
import os
import sys
import tempfile

import click

from notation_tools.analysis.convert import notations
from notation_tools.analysis.foreign import game_suffixes
from notation_tools.analysis.formatting import (DEFAULT_WIDTH, FormatOptions, FormattedRecord,
                                                format_text)
from notation_tools.analysis.repairs import Repairs
from notation_tools.analysis.reports import Tally
from notation_tools.cli.options import (check_overrides, finish, game_option,
                                        paths_argument, quiet_option, require_paths,
                                        rules_option)
from notation_tools.cli.repair_options import repair_options
from notation_tools.records.diagnostics import WARNING, Diagnostic
from notation_tools.records.model import Record
from notation_tools.sources.paths import COMPRESSED, CONTAINER_SUFFIXES, input_files, is_archive

_BOM = b"\xef\xbb\xbf"


def _files(paths: tuple[str, ...]) -> list[str]:
    """The files to format: named files, and the ``.pgn`` files under named directories; an
    archive, a compressed file or a JSON file is a usage error (fmt rewrites files in place)."""
    files: list[str] = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            files += [name for name in input_files([path]) if name.lower().endswith(".pgn")]
            continue
        lower = path.lower()
        if path != "-" and (is_archive(lower) or lower.endswith(tuple(COMPRESSED))
                            or lower.endswith(CONTAINER_SUFFIXES[1:] + game_suffixes())):
            raise click.BadParameter(
                f"{path}: fmt rewrites PGN files in place, not archives, compressed files, "
                "JSON files or other programs' formats (use 'convert --to pgn -o FILE' to "
                "write a formatted copy)",
                param_hint="PATH")
        files.append(path)
    return files


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as stream:
        return stream.read()


def _write_atomically(path: str, data: bytes) -> None:
    """Replace ``path`` by ``data`` through a temporary file in its directory, renamed over
    it: a failure leaves the file as it was. The file's permissions are kept, and a symbolic
    link stays a link: the file it names is replaced."""
    path = os.path.realpath(path)
    directory = os.path.dirname(path)
    mode = os.stat(path).st_mode & 0o7777
    handle, temporary = tempfile.mkstemp(prefix=".fmt-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _report(diagnostics: list[Diagnostic], quiet: bool) -> None:
    for diagnostic in diagnostics:
        if diagnostic.severity != WARNING and not (quiet and not diagnostic.is_error):
            click.echo(str(diagnostic), err=True)


@click.command()
@paths_argument
@click.option("--check", is_flag=True,
              help="Write nothing: list each record that is not formatted "
                   "(PATH:LINE: record N would be reformatted) and exit 1 when there is one.")
@click.option("--diff", is_flag=True,
              help="Write nothing: print a unified diff of the changes to standard output.")
@click.option("--width", "-w", type=click.IntRange(min=20), default=DEFAULT_WIDTH,
              show_default=True, help="Wrap movetext at this many columns.")
@click.option("--notation", "-n", metavar="NOTATION", type=click.Choice(notations()),
              help="Write the moves in this notation (default: each record's own).")
@game_option()
@rules_option
@repair_options
@quiet_option
def fmt(paths: tuple[str, ...], check: bool, diff: bool, width: int, notation: str | None,
        game: str | None, rules: str | None, repairs: Repairs, quiet: bool) -> None:
    """Rewrite PGN record files in one canonical form: tag order, move spellings, numbers.

    Each file is rewritten in place (through a temporary file renamed over it); '-' reads
    standard input and writes standard output. A record that replays is written in its
    canonical form: the seven-tag roster (the players named by the game's sides), then
    Variant, Rules, FirstPlayer, SetUp and FEN, then the other tags alphabetically; every
    move in its canonical spelling in the record's notation (or --notation); move numbers
    as PGN gives them; movetext wrapped at --width. Comments, NAGs and variations are kept,
    and text inside comments is never changed. A record that replays with an error is laid
    out only (its tags ordered, its moves as written); a record that cannot be read whole
    or names no game by a Variant tag is left as written, with a note. Moves and verdicts
    never change: every record written is replayed again to check it. The repair options
    change records on purpose, with a note for each fix. Exit status 0 when every record is
    valid, 1 when a record is invalid or (with --check) a file is not formatted, 2 on a
    usage error or a file that cannot be read or written.
    """
    require_paths(paths)
    check_overrides(game, rules, notation=notation)
    files = _files(paths)
    options = FormatOptions(width=width, notation=notation, game=game, rules=rules,
                            repairs=repairs)
    tally = Tally()
    unformatted = 0
    for path in files:
        try:
            data = _read(path)
        except OSError as error:
            click.echo(f"{path}: cannot read: {error.strerror or error}", err=True)
            tally.unreadable += 1
            continue
        changed = _format_file(path, data, options, tally, check=check, diff=diff,
                               quiet=quiet)
        unformatted += changed
    if check or diff:
        click.echo(f"{unformatted} of {len(files)} files would be reformatted", err=True)
    if check and unformatted and not tally.unreadable:
        sys.exit(1)
    finish(tally)


def _format_file(path: str, data: bytes, options: FormatOptions, tally: Tally, *,
                 check: bool, diff: bool, quiet: bool) -> bool:
    """Format one file's bytes; write, list or diff the result; whether it changed."""
    bom = data.startswith(_BOM)
    try:
        text = data[len(_BOM) if bom else 0:].decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        diagnostic = Diagnostic("E-ENCODING", "not UTF-8: the file is left as it is", path,
                                line, column)
        click.echo(str(diagnostic), err=True)
        tally.add(Record(path=path, diagnostics=[diagnostic]))
        return False
    formatted = format_text(text, options, path=path)
    for item in formatted.records:
        tally.add(item.record)
        _report(item.record.diagnostics, quiet)
    new = formatted.text
    if check:
        _list_changes(path, formatted.records)
    if diff and new != text:
        sys.stdout.writelines(difflib.unified_diff(
            text.splitlines(keepends=True), new.splitlines(keepends=True),
            f"{path}\t(original)", f"{path}\t(formatted)"))
    if path == "-" and not (check or diff):
        sys.stdout.buffer.write((_BOM if bom else b"") + new.encode("utf-8"))
    elif new != text and not (check or diff):
        try:
            _write_atomically(path, (_BOM if bom else b"") + new.encode("utf-8"))
        except OSError as error:
            click.echo(f"cannot write {path}: {error.strerror or error}", err=True)
            sys.exit(2)
        if not quiet:
            click.echo(f"reformatted {path}", err=True)
    return new != text


def _list_changes(path: str, records: list[FormattedRecord]) -> None:
    """``PATH:LINE: record N would be reformatted`` for each record that would change."""
    for item in records:
        if item.text is not None and item.changed:
            click.echo(f"{path}:{item.record.line}: record {item.record.index} would be "
                       "reformatted")
