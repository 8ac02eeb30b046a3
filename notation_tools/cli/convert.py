"""``notation-tools convert``: rewrite records in another container or move notation."""

from __future__ import annotations

import dataclasses
import os
import sys

import click

from notation_tools.parallel.batch import Settings, iter_records
from notation_tools.analysis.convert import (Conversion, convert_record, export_file_name,
                                             file_format_suffix, notations, targets,
                                             write_converted)
from notation_tools.analysis.foreign import game_suffixes
from notation_tools.analysis.repairs import Repairs, repair_record
from notation_tools.analysis.reports import Tally
from notation_tools.cli.repair_options import repair_options
from notation_tools.cli.progress import Progress, progress_option
from notation_tools.cli.options import (
    check_outputs,
    check_overrides,
    finish,
    game_option,
    limits_options,
    open_output,
    paths_argument,
    require_paths,
    rules_option,
)
from notation_tools.limits import Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.writers import RECORD_WRITERS
from notation_tools.sources.overlap import Output


@click.command()
@paths_argument
@click.option("--to", "-t", "target", required=True, metavar="FORMAT",
              type=click.Choice(targets()),
              help="pgn, json or jsonl (the container; move texts kept), a move notation "
                   "(PGN with every move re-written), or a game's own file format (see "
                   "'notation-tools games').")
@click.option("--notation", "-n", metavar="NOTATION", type=click.Choice(notations()),
              help="With --to json/jsonl/pgn: also re-write the moves in this notation.")
@click.option("--ply", "-p", type=click.IntRange(min=0), default=None,
              help="For a format that holds one position: the position after this many plies "
                   "(default: the end).")
@click.option("--annotate-outcomes", "annotate", is_flag=True,
              help="Write the claims a notation may carry as the rules compute them (e.g. "
                   "every attack's outcome mark), where the game has such claims.")
@game_option()
@rules_option
@click.option("--output", "-o", "output", type=click.Path(allow_dash=True), default="-",
              show_default=True,
              help="Write the records to this file ('-' is standard output). A game's own "
                   "file format holds one record a file: give a directory (existing, or "
                   "ending in /) to write one file per record.")
@repair_options
@progress_option
@limits_options
def convert(paths: tuple[str, ...], target: str, notation: str | None, ply: int | None,
            annotate: bool, game: str | None, rules: str | None, output: str,
            repairs: Repairs, progress: bool | None, limits: Limits,
            encoding: str | None) -> None:
    """Rewrite records in another container (PGN, JSON, JSON Lines) or move notation.

    Tags, comments, NAGs and variations survive every conversion, so converting back gives
    the same record. Written as PGN, a record from any format gets its Variant tag, move
    numbers, Result tag and result token, so that records never run into each other.
    Re-writing moves replays the record; an invalid record is written as it
    stands (moves after the first illegal one unchanged), its diagnostics go to standard
    error, and the exit status is 1. --game and --rules are written into the Variant and
    Rules tags. A game's own file format (e.g. a position string other programs read) is
    written from the replayed record, one record a file: with -o DIRECTORY every record gets
    its own file (numbered, with the players' names); otherwise an input of several records
    is a usage error (exit 2) and nothing is written. Files in such formats are also read as
    input. The repair options (--fix-result, --keep-broken, ...) fix what can be fixed safely
    first, each fix a note on standard error.
    """
    require_paths(paths)
    conversion = Conversion(target, notation=notation, game=game, rules=rules, ply=ply,
                            annotate=annotate)
    repairs = dataclasses.replace(repairs, notation=conversion.move_notation)
    check_overrides(game, rules, notation=conversion.move_notation,
                    file_format=target if conversion.is_file_format else None,
                    notation_option="--notation" if notation is not None else "--to")
    if conversion.is_file_format and _export_directory(output) is not None:
        check_outputs(paths, Output("--output", output,
                                    suffixes=(file_format_suffix(conversion.target),)))
    else:
        check_outputs(paths, Output("--output", output))
    tally = Tally()
    bar = Progress(Progress.wanted(progress), list(paths), "convert", game_suffixes)
    if conversion.is_file_format:
        _export(paths, conversion, repairs, output, tally, bar, limits, encoding)
        finish(tally)
        return
    with open_output(output) as out:
        writer = RECORD_WRITERS[conversion.container](out)
        for item in iter_records(list(paths), stdin=sys.stdin.buffer,
                                 settings=Settings(limits=limits, encoding=encoding),
                                 progress=bar.reading):
            if isinstance(item, Diagnostic):
                tally.add(item)
                bar.echo(str(item))
                bar.update(item)
                continue
            if repairs.any:
                repair_record(item, repairs, game=game, rules=rules)
            convert_record(item, conversion)
            write_converted(item, writer)
            for diagnostic in item.diagnostics:
                bar.echo(str(diagnostic))
            tally.add(item)
            bar.update(item)
        bar.close()
        writer.end()
    finish(tally)


def _export_directory(output: str) -> str | None:
    """The directory a game's own file format is written into (one file per record): the
    output when it is an existing directory or ends in a slash."""
    return output if output != "-" and (os.path.isdir(output)
                                        or output.endswith(("/", os.sep))) else None


def _export(paths: tuple[str, ...], conversion: Conversion, repairs: Repairs, output: str,
            tally: Tally, bar: Progress, limits: Limits, encoding: str | None) -> None:
    """Write each record in a game's own file format: one file per record into a directory,
    or the single record of the input to ``output``."""
    directory = _export_directory(output)
    if directory is not None:
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as error:
            raise click.BadParameter(f"cannot create {directory}: {error.strerror or error}",
                                     param_hint="'--output'") from None
    suffix = file_format_suffix(conversion.target)
    single: str | None = None
    count = 0
    for item in iter_records(list(paths), stdin=sys.stdin.buffer,
                             settings=Settings(limits=limits, encoding=encoding),
                             progress=bar.reading):
        bar.update(item)
        if isinstance(item, Diagnostic):
            tally.add(item)
            bar.echo(str(item))
            continue
        count += 1
        if repairs.any:
            repair_record(item, repairs, game=conversion.game, rules=conversion.rules)
        if directory is None and count > 1:
            bar.close()
            raise click.UsageError(
                f"--to {conversion.target} holds one record a file, and the input has more "
                "than one: give -o DIRECTORY to write one file per record (nothing was "
                "written)")
        text = convert_record(item, conversion)
        for diagnostic in item.diagnostics:
            bar.echo(str(diagnostic))
        tally.add(item)
        if text is None:
            continue
        if directory is None:
            single = text
            continue
        with open_output(os.path.join(directory, export_file_name(item, count, suffix))) as out:
            out.write(text)
    bar.close()
    if single is not None:
        with open_output(output) as out:
            out.write(single)
