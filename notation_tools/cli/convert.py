"""``notation-tools convert``: rewrite records in another container or move notation."""

from __future__ import annotations

import sys

import click

from notation_tools.analysis.batch import Settings, iter_records
from notation_tools.analysis.convert import (Conversion, convert_record, notations, targets,
                                             write_converted)
from notation_tools.analysis.foreign import game_suffixes
from notation_tools.analysis.reports import Tally
from notation_tools.cli.progress import Progress, progress_option
from notation_tools.cli.options import (
    check_rules,
    finish,
    game_option,
    limits_options,
    open_output,
    output_option,
    paths_argument,
    require_paths,
    rules_option,
)
from notation_tools.limits import Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.writers import RECORD_WRITERS


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
@output_option
@progress_option
@limits_options
def convert(paths: tuple[str, ...], target: str, notation: str | None, ply: int | None,
            annotate: bool, game: str | None, rules: str | None, output: str,
            progress: bool | None, limits: Limits, encoding: str | None) -> None:
    """Rewrite records in another container (PGN, JSON, JSON Lines) or move notation.

    Tags, comments, NAGs and variations survive every conversion, so converting back gives
    the same record. Re-writing moves replays the record; an invalid record is written as it
    stands (moves after the first illegal one unchanged), its diagnostics go to standard
    error, and the exit status is 1. --game and --rules are written into the Variant and
    Rules tags. A game's own file format (e.g. a position string other programs read) is
    written from the replayed record; files in such formats are also read as input.
    """
    require_paths(paths)
    check_rules(game, rules)
    conversion = Conversion(target, notation=notation, game=game, rules=rules, ply=ply,
                            annotate=annotate)
    tally = Tally()
    bar = Progress(Progress.wanted(progress), list(paths), "convert", game_suffixes())
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
            text = convert_record(item, conversion)
            if not conversion.is_file_format:
                write_converted(item, writer)
            elif text is not None:
                out.write(text)
            for diagnostic in item.diagnostics:
                bar.echo(str(diagnostic))
            tally.add(item)
            bar.update(item)
        bar.close()
        writer.end()
    finish(tally)
