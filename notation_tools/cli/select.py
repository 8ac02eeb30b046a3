"""``notation-tools select``: keep the records that match, drop duplicates, route and split.

The criteria are :mod:`notation_tools.analysis.select`'s and the run that writes each record
where its verdict sends it is :func:`notation_tools.analysis.routing.select`; this module
checks the options, calls it and prints the summary.
"""

from __future__ import annotations

import os
import sys

from collections.abc import Callable

import click

from notation_tools.analysis.convert import notations
from notation_tools.analysis.routing import SUFFIXES, Writing
from notation_tools.analysis.routing import select as run_selection
from notation_tools.analysis.select import (DEDUPE_MODES, SelectionError, parse_patterns,
                                            parse_selection)
from notation_tools.analysis.foreign import game_suffixes
from notation_tools.analysis.overrides import OverrideError, check_notation, check_rules
from notation_tools.cli.progress import Progress, progress_option
from notation_tools.cli.openings import check_openings
from notation_tools.cli.options import (
    InputError,
    check_outputs,
    limits_options,
    open_output,
    paths_argument,
    quiet_option,
    require_paths,
    rules_option,
)
from notation_tools.games.base import all_games, get_game
from notation_tools.limits import Limits
from notation_tools.parallel.batch import Settings
from notation_tools.records.model import Record
from notation_tools.records.writers import RECORD_WRITERS
from notation_tools.sources.overlap import Output
from notation_tools.sources.streams import shown


def _check_directory(path: str) -> None:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise click.BadParameter(f"cannot create directory {shown(path)}: "
                                 f"{error.strerror or error}", param_hint="'--output'") from None
    if not os.access(path, os.W_OK):
        raise click.BadParameter(f"cannot write in directory {shown(path)}",
                                 param_hint="'--output'")


def _index_lookup(path: str, targets: dict[str, str]) -> Callable[[Record], bool | None]:
    from notation_tools.storage.database import DatabaseError
    from notation_tools.storage.game_database import Database, index_lookup

    try:
        with Database(path) as database:
            return index_lookup(database, targets)
    except DatabaseError as error:
        raise InputError(str(error)) from None


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
@click.option("--opening", metavar="NAME",
              help="Keep records whose opening (the deepest named line of the catalogues "
                   "their main line begins with) is NAME, matches the glob NAME (*, ?, [...]) "
                   "or, as ~REGEX, the regular expression.")
@click.option("--openings", "opening_files", multiple=True, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False), callback=check_openings,
              help="An opening catalogue added to the games' own for --opening; its names "
                   "win (repeatable).")
@click.option("--square", "squares", multiple=True, metavar="SQUARE=WHAT",
              help="Pattern: keep records whose main line reaches, at some ply, a position "
                   "where SQUARE holds WHAT: a piece (Ln), a side's piece (White:Ln), any "
                   "piece of a side (White), any piece (any) or nothing (empty). Repeated: "
                   "all at the same ply, with --material. pgn-extract: --fenpattern.")
@click.option("--material", metavar="CONDITIONS",
              help="Pattern: piece counts per side that hold at that ply, e.g. \"Black: "
                   "Ln>=1, FK=0; White: *<=90\" (* counts every piece). pgn-extract: -z.")
@click.option("--at", "at", metavar="RANGE",
              help="Pattern: only at these plies: 10..40, 10.., ..40 or 12.")
@click.option("--db", "db_path", metavar="DATABASE", type=click.Path(dir_okay=False),
              help="With --reaches: answer it from the position index of this results "
                   "database ('analyze --db DATABASE --index positions' of the same paths) "
                   "instead of replaying; records the index does not hold are replayed.")
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
           opening: str | None, opening_files: tuple[str, ...],
           squares: tuple[str, ...], material: str | None, at: str | None,
           db_path: str | None,
           dedupe: str | None, duplicates: str | None, output: str, rejected: str | None,
           split_by: str | None, container: str, notation: str | None,
           keep_tags: str | None, tags_only: bool, append: bool, quiet: bool,
           progress: bool | None, limits: Limits, encoding: str | None) -> None:
    """Write the records that match every criterion given; drop duplicates; split.

    With no criterion every record matches. Criteria on tags, game and rules read the
    container only; the others (--valid, --code, --ended, --plies, --figure, --reaches,
    --opening, --dedupe) replay the record. A PGN record that names its game and ends with a result is
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
            rules_override=rules, match_seconds=limits.max_match_ms / 1000,
            opening=opening, opening_files=opening_files)
    except SelectionError as error:
        raise click.BadParameter(error.message, param_hint=f"'{error.option}'") from None
    if squares or material is not None:
        try:
            selection.pattern = parse_patterns(
                [get_game(name) for name in sorted(selection.games)] or all_games(),
                squares=squares, material=material, at=at)
        except SelectionError as error:
            raise click.BadParameter(error.message, param_hint=f"'{error.option}'") from None
    elif at is not None:
        raise click.BadParameter("goes with --square or --material", param_hint="'--at'")
    if db_path is not None:
        if selection.reaches is None:
            raise click.BadParameter("goes with --reaches POSITION", param_hint="'--db'")
        selection.reached = _index_lookup(db_path, selection.reaches)
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
    bar = Progress(Progress.wanted(progress, quiet), list(paths), "select", game_suffixes)
    try:
        counts = run_selection(
            paths, selection, output=output, rejected=rejected, duplicates=duplicates,
            split_by=split_by, writing=Writing(container, notation, keep, tags_only),
            append=append, settings=Settings(limits=limits, encoding=encoding, rules=rules),
            stdin=sys.stdin.buffer, progress=bar.reading, on_item=bar.update,
            on_problem=lambda problem: bar.echo(str(problem)), opener=open_output)
    finally:
        bar.close()
    if not quiet:
        click.echo(f"{counts.read} records read: {counts.matched} matched, "
                   f"{counts.rejected} rejected, {counts.duplicates} duplicates dropped"
                   + (f"; {counts.failures} inputs or records not read, judged or written"
                      if counts.failures else ""), err=True)
    if counts.failures:
        sys.exit(2)
