"""``notation-tools stats``: one row of figures per record."""

from __future__ import annotations

import sys

import click

from notation_tools.parallel.batch import RecordReport, Settings, iter_reports
from notation_tools.analysis.reports import Tally, diagnostics_of
from notation_tools.limits import Limits
from notation_tools.sources.overlap import Output
from notation_tools.cli.options import (
    check_outputs,
    check_overrides,
    finish,
    game_option,
    jobs_option,
    limits_options,
    open_output,
    output_option,
    paths_argument,
    quiet_option,
    require_paths,
    rules_option,
    table_format_option,
)
from notation_tools.analysis.foreign import game_suffixes
from notation_tools.cli.progress import Progress, progress_option
from notation_tools.render.tables import TABLE_WRITERS, rows_to_table


@click.command()
@paths_argument
@game_option()
@rules_option
@table_format_option
@output_option
@quiet_option
@jobs_option(1)
@progress_option
@limits_options
def stats(paths: tuple[str, ...], game: str | None, rules: str | None, output_format: str,
          output: str, quiet: bool, jobs: int, progress: bool | None, limits: Limits,
          encoding: str | None) -> None:
    """Print per-record statistics: plies, result, captures and each game's own figures.

    Columns: path, record, game, rules (the effective rules), valid, errors, plies, result,
    end (how the engine saw the game end), captures, then the game's figures. Figures of an
    invalid record cover the plies before its first illegal move. Diagnostics go to standard
    error; the exit status is that of 'validate'.
    """
    require_paths(paths)
    check_overrides(game, rules)
    check_outputs(paths, Output("--output", output))
    settings = Settings(game=game, rules=rules, collect_stats=True, limits=limits,
                        encoding=encoding)
    rows = []
    tally = Tally()
    bar = Progress(Progress.wanted(progress, quiet), list(paths), "stats", game_suffixes)
    for item in iter_reports(list(paths), settings, jobs=jobs, stdin=sys.stdin.buffer,
                             progress=bar.reading):
        tally.add(item)
        for diagnostic in diagnostics_of(item):
            if diagnostic.is_error or not quiet:
                bar.echo(str(diagnostic))
        if isinstance(item, RecordReport):
            rows.append(item.row())
        bar.update(item)
    bar.close()
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write([rows_to_table("", rows)], out)
    finish(tally)
