"""``notation-tools select``: keep the records that match, drop duplicates, route and split.

The criteria are :mod:`notation_tools.analysis.select`'s; this module only opens the output
files and writes each record where its verdict sends it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO

import click

from notation_tools.analysis.convert import (REFUSALS, Conversion, convert_record, notations,
                                             write_converted)
from notation_tools.analysis.select import (
    DEDUPE_MODES,
    Selected,
    SelectionError,
    Settings,
    game_of,
    group_name,
    iter_selected,
    parse_selection,
    stands_alone,
    trim_tags,
)
from notation_tools.analysis.foreign import game_suffixes
from notation_tools.analysis.overrides import OverrideError, check_notation, check_rules
from notation_tools.cli.progress import Progress, progress_option
from notation_tools.cli.options import (
    InputError,
    Output,
    check_outputs,
    limits_options,
    open_output,
    paths_argument,
    quiet_option,
    require_paths,
    rules_option,
)
from notation_tools.games.base import get_game
from notation_tools.limits import Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.writers import RECORD_WRITERS, RecordWriter
from notation_tools.sources import shown

SUFFIXES = {"pgn": ".pgn", "json": ".json", "jsonl": ".jsonl"}


class _Sink:
    """One output: a stream and its container writer. With ``raw``, a PGN record that names
    its game and ends with a result token is written as it was read (nothing about it is to
    change, and its text reads back the same on its own and beside others); that is the only
    way a record the reader could not read whole is written."""

    def __init__(self, out: TextIO, container: str, raw: bool) -> None:
        self.writer: RecordWriter = RECORD_WRITERS[container](out)
        self.out, self.raw = out, raw
        self.written = 0

    def write(self, item: Selected, notation: str | None, keep: list[str] | None,
              tags_only: bool, container: str) -> Diagnostic | None:
        """Write one record; a diagnostic when it cannot be written as the options ask."""
        record = item.record
        if self.raw and item.text is not None and stands_alone(record):
            self.out.write(item.text + "\n")
            self.written += 1
            return None
        if not item.read_whole:
            fault = next(d for d in record.diagnostics if d.is_error)
            return Diagnostic("E-CANNOT-WRITE", f"the record could not be read whole "
                              f"({fault.code} at line {fault.line}: {fault.message}): it is "
                              "written only as read (as pgn, with no option that changes it), "
                              "and only when its text names its game and ends with a result",
                              record.path, record.line, 1, record=record.index)
        record = record.copy()
        record.diagnostics = []
        convert_record(record, Conversion(container, notation=notation))
        # An invalid record is written as it stands (moves after its first illegal one
        # unchanged), as convert does; only a record that cannot be written is refused.
        refused = [d for d in record.diagnostics if d.code in REFUSALS]
        if refused:
            return refused[0]
        if keep is not None or tags_only:
            record = trim_tags(record, keep, moves=not tags_only)
        record.diagnostics = []
        if not write_converted(record, self.writer):
            return record.diagnostics[-1]
        self.written += 1
        return None


class _Outputs:
    """Where records go: matches (one stream, or one file per group), rejected, duplicates."""

    def __init__(self, stack: contextlib.ExitStack, *, output: str, rejected: str | None,
                 duplicates: str | None, split_by: str | None, container: str, append: bool,
                 raw: bool) -> None:
        self.stack, self.container, self.append, self.raw = stack, container, append, raw
        self.split_by, self.directory = split_by, output
        self.groups: dict[str, _Sink] = {}
        self.files: dict[str, contextlib.ExitStack] = {}
        self.current_part: str | None = None
        # The files of --split-by are closed with the others, also when the run fails.
        stack.push(self._exit)
        self.matches = None if split_by else self._open(output)
        self.rejected = self._open(rejected) if rejected else None
        self.duplicates = self._open(duplicates) if duplicates else None
        self.count = 0

    def _open(self, path: str) -> _Sink:
        out = self.stack.enter_context(open_output(path, append=self.append))
        sink = _Sink(out, self.container, self.raw)
        self.stack.push(lambda kind, *_: _end(sink, failing=kind is not None))
        return sink

    def for_match(self, item: Selected) -> _Sink:
        if self.matches is not None:
            return self.matches
        assert self.split_by is not None
        replayed = item.verdict.replay
        game = replayed.game if replayed is not None and replayed.game is not None \
            else game_of(item.record)
        name = group_name(item.record, self.split_by, self.count,
                          game.id if game is not None else None)
        self.count += 1
        sink = self.groups.get(name)
        if sink is None:
            if self.split_by.isdigit() and self.current_part is not None:
                self._close(self.current_part)  # parts are written in turn: one file open
            path = os.path.join(self.directory, _safe(name) + SUFFIXES[self.container])
            files = contextlib.ExitStack()
            sink = _Sink(files.enter_context(open_output(path, append=self.append)),
                         self.container, self.raw)
            self.groups[name], self.files[name] = sink, files
            self.current_part = name
        return sink

    def _close(self, name: str, *, failing: bool = False) -> None:
        sink, files = self.groups.pop(name), self.files.pop(name)
        try:
            try:
                sink.writer.end()
            finally:
                files.close()
        except InputError:
            if not failing:
                raise  # when the run has already failed, the first failure is the one told

    def end(self) -> None:
        for name in list(self.groups):
            self._close(name)

    def _exit(self, kind: type[BaseException] | None, *_: object) -> None:
        for name in list(self.groups):
            self._close(name, failing=kind is not None)


def _end(sink: _Sink, *, failing: bool) -> None:
    """End a sink's container (a JSON array's ``]``); when the run has already failed, a
    second failure here is not reported over the first."""
    try:
        sink.writer.end()
    except InputError:
        if not failing:
            raise


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "_"


def _check_directory(path: str) -> None:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise click.BadParameter(f"cannot create directory {shown(path)}: "
                                 f"{error.strerror or error}", param_hint="'--output'") from None
    if not os.access(path, os.W_OK):
        raise click.BadParameter(f"cannot write in directory {shown(path)}",
                                 param_hint="'--output'")


def _check_split(value: str | None) -> str | None:
    if value is None or value in ("game", "result"):
        return value
    if value.isdigit() and int(value) > 0:
        return str(int(value))
    raise click.BadParameter(f"{value!r} is not game, result or a number of records",
                             param_hint="'--split-by'")


class _SelectCommand(click.Command):
    """``--dedupe`` alone means ``--dedupe=moves``: rewritten before Click parses, so that a
    path after it (``select --dedupe archive.pgn``) is never taken for its value."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        args = ["--dedupe=moves" if arg == "--dedupe" else arg for arg in args]
        return super().parse_args(ctx, args)


@click.command("select", cls=_SelectCommand)
@paths_argument
@click.option("--tag", "-t", "tags", multiple=True, metavar="TEST",
              help="Keep records whose tag passes TEST: NAME=VALUE, NAME~REGEX, or NAME<VALUE "
                   "(also <=, >, >=, !=; numbers compare as numbers). Repeated: all must pass. "
                   "A REGEX runs in linear time on re2 when the re2 extra is installed; "
                   "otherwise Python's engine searches each tag for at most --limit match-ms "
                   "(1000) ms of processor time, and a record it stops on is reported (E-LIMIT, "
                   "exit status 2) and taken as not matching. pgn-extract: -T, a -t tag file.")
@click.option("--any-tag", "any_tags", multiple=True, metavar="TEST",
              help="Like --tag; repeated, at least one must pass. pgn-extract: several lines "
                   "of a -t file.")
@click.option("--date-from", metavar="DATE", help="Keep records dated on or after DATE "
              "(1998.01.01; 1998 or 1998.01 mean the first day).")
@click.option("--date-to", metavar="DATE", help="Keep records dated on or before DATE "
              "(1998 or 1998.06 mean the last day).")
@click.option("--game", "-g", "games", multiple=True, metavar="GAME",
              help="Keep records of this game (id or alias; repeatable).")
@click.option("--profile", "profiles", multiple=True, metavar="PROFILE",
              help="Keep records whose effective rules use this profile (repeatable).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="Keep records whose effective rules set this option to this value.")
@rules_option
@click.option("--valid/--invalid", default=None,
              help="Keep only the records that replay without error, or only the others "
                   "(pgn-extract's semantic check).")
@click.option("--code", "codes", multiple=True, metavar="CODE",
              help="Keep records with a diagnostic of this code (repeatable: any of them).")
@click.option("--ended", "ended", multiple=True, metavar="REASON",
              help="Keep records whose game ended this way (e.g. royal-captured; "
                   "'unfinished' for the others; repeatable).")
@click.option("--plies", metavar="RANGE", help="Keep records of so many plies: 40..200, "
              "40.., ..200 or 60. pgn-extract: -p (plies), -b (moves).")
@click.option("--figure", "figures", multiple=True, metavar="TEST",
              help="Keep records whose statistics figure passes TEST, e.g. emperor_moves>0 "
                   "(also <, <=, >=, =, !=; repeatable: all must pass).")
@click.option("--reaches", metavar="POSITION",
              help="Keep records whose main line reaches this position string at any ply "
                   "(the whole string, move counter included). pgn-extract: -x.")
@click.option("--dedupe", type=click.Choice(DEDUPE_MODES), metavar="[=moves|position]",
              default=None, help="Drop a matching record that repeats an earlier match: the "
              "same game, start and moves whatever the notation or comments (--dedupe), or "
              "the same final position (--dedupe=position). pgn-extract: -D.")
@click.option("--duplicates", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the records --dedupe drops to FILE. pgn-extract: -d.")
@click.option("--output", "-o", default="-", show_default=True, metavar="PATH",
              type=click.Path(allow_dash=True),
              help="Write the matching records to this file ('-': standard output), or into "
                   "this directory with --split-by.")
@click.option("--rejected", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the records that do not match to FILE. pgn-extract: -n.")
@click.option("--split-by", callback=lambda c, p, v: _check_split(v), metavar="game|result|N",
              help="Write the matches into the --output directory, one file per game, per "
                   "result (1-0, 0-1, draw, unfinished), or per N records. pgn-extract: -#N.")
@click.option("--to", "container", type=click.Choice(list(RECORD_WRITERS)), default="pgn",
              show_default=True, help="The container the records are written in.")
@click.option("--notation", "-n", metavar="NOTATION", type=click.Choice(notations()),
              help="Re-write the moves of the records written in this notation.")
@click.option("--keep-tags", metavar="NAMES",
              help="Write only these tags (comma-separated; the tags a record needs to be "
                   "replayed are always kept). pgn-extract: -7 (the seven tags).")
@click.option("--tags-only", is_flag=True, help="Write the records' tags without their moves "
              "(pgn-extract: --tagsonly).")
@click.option("--append", is_flag=True, help="Add to the output files instead of replacing "
              "them (not with --to json, whose array cannot be extended). pgn-extract: -a.")
@quiet_option
@progress_option
@limits_options
def select(paths: tuple[str, ...], tags: tuple[str, ...], any_tags: tuple[str, ...],
           date_from: str | None, date_to: str | None, games: tuple[str, ...],
           profiles: tuple[str, ...], options: tuple[str, ...], rules: str | None,
           valid: bool | None, codes: tuple[str, ...], ended: tuple[str, ...],
           plies: str | None, figures: tuple[str, ...], reaches: str | None,
           dedupe: str | None, duplicates: str | None, output: str, rejected: str | None,
           split_by: str | None, container: str, notation: str | None,
           keep_tags: str | None, tags_only: bool, append: bool, quiet: bool,
           progress: bool | None, limits: Limits, encoding: str | None) -> None:
    """Write the records that match every criterion given; drop duplicates; split.

    With no criterion every record matches. Criteria on tags, game and rules read the
    container only; the others (--valid, --code, --ended, --plies, --figure, --reaches,
    --dedupe) replay the record. A PGN record that names its game and ends with a result is
    written as it was read when nothing asks to change it (PGN, same notation, all tags);
    other records are written as convert writes them, so that they read back the same. A
    summary goes to standard error. Exit status
    0 when the run completed (a selection is not a lint: invalid records are not an error),
    2 for usage errors, unreadable inputs, records that could not be judged (a --tag regular
    expression stopped at its time limit) or written.
    """
    require_paths(paths)
    try:
        selection = parse_selection(
            tags=tags, any_tags=any_tags, date_from=date_from, date_to=date_to, games=games,
            profiles=profiles, options=options, valid=valid, codes=codes, ended=ended,
            plies=plies, figures=figures, reaches=reaches, dedupe=dedupe,
            rules_override=rules, match_seconds=limits.max_match_ms / 1000)
    except SelectionError as error:
        raise click.BadParameter(error.message, param_hint=f"'{error.option}'") from None
    # --rules replays the records the --game filters keep (every game's without one); with
    # filters, --notation must be one those games write.
    kept = [get_game(name) for name in sorted(selection.games)] or None
    try:
        check_rules(rules, kept)
        check_notation(notation, kept or ())
    except OverrideError as error:
        raise click.BadParameter(error.message, param_hint=f"'{error.option}'") from None
    if duplicates is not None and dedupe is None:
        raise click.BadParameter("needs --dedupe", param_hint="'--duplicates'")
    if append and container == "json":
        raise click.BadParameter("a JSON array cannot be added to: use --to jsonl",
                                 param_hint="'--append'")
    if split_by is not None and output == "-":
        raise click.BadParameter("needs --output DIRECTORY", param_hint="'--split-by'")
    check_outputs(paths, Output("--output", output, suffixes=(SUFFIXES[container],))
                  if split_by is not None else Output("--output", output),
                  Output("--rejected", rejected or "-"),
                  Output("--duplicates", duplicates or "-"))
    if split_by is not None:
        _check_directory(output)
    keep = [name.strip() for name in keep_tags.split(",") if name.strip()] \
        if keep_tags is not None else None
    raw = container == "pgn" and notation is None and keep is None and not tags_only
    counts = {"read": 0, "matched": 0, "rejected": 0, "duplicates": 0}
    failures = 0
    bar = Progress(Progress.wanted(progress, quiet), list(paths), "select", game_suffixes)
    with contextlib.ExitStack() as stack:
        stack.callback(bar.close)
        outputs = _Outputs(stack, output=output, rejected=rejected, duplicates=duplicates,
                           split_by=split_by, container=container, append=append, raw=raw)
        for item in iter_selected(list(paths), selection,
                                  settings=Settings(limits=limits, encoding=encoding,
                                                    rules=rules),
                                  stdin=sys.stdin.buffer, progress=bar.reading):
            bar.update(item if isinstance(item, Diagnostic) else item.record)
            if isinstance(item, Diagnostic):
                failures += 1
                bar.echo(str(item))
                continue
            counts["read"] += 1
            verdict = item.verdict
            if verdict.problem is not None:
                failures += 1  # not judged: told, and written with the records that do not match
                bar.echo(str(verdict.problem))
            if not verdict.matched:
                counts["rejected"] += 1
                sink = outputs.rejected
            elif verdict.duplicate:
                counts["duplicates"] += 1
                sink = outputs.duplicates
            else:
                counts["matched"] += 1
                sink = outputs.for_match(item)
            if sink is None:
                continue
            problem = sink.write(item, notation, keep, tags_only, container)
            if problem is not None:
                failures += 1
                bar.echo(str(problem))
        outputs.end()
    if not quiet:
        click.echo(f"{counts['read']} records read: {counts['matched']} matched, "
                   f"{counts['rejected']} rejected, {counts['duplicates']} duplicates dropped"
                   + (f"; {failures} inputs or records not read, judged or written"
                      if failures else ""), err=True)
    if failures:
        sys.exit(2)
