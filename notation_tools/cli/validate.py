"""``notation-tools validate``: replay every record and print compiler-style diagnostics."""

from __future__ import annotations

import sys
from typing import TextIO, cast

import click

from notation_tools.parallel.batch import Settings, iter_reports
from notation_tools.analysis.foreign import game_suffixes
from notation_tools.analysis.reports import REPORT_WRITERS, Tally
from notation_tools.cli.progress import Progress, progress_option
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
)


class _BarStream:
    """Standard error for the report writer: each diagnostic line printed past the bar."""

    def __init__(self, bar: Progress) -> None:
        self.bar = bar

    def write(self, text: str) -> None:
        if self.bar.bar is None:
            sys.stderr.write(text)
        else:
            self.bar.echo(text.rstrip("\n"))


@click.command()
@paths_argument
@game_option()
@rules_option
@click.option("--format", "-f", "output_format", type=click.Choice(list(REPORT_WRITERS)),
              default="text", show_default=True,
              help="text: diagnostics on standard error, a summary on standard output; "
                   "json: one document; jsonl: one line per record.")
@output_option
@quiet_option
@click.option("--verbose", "-v", is_flag=True,
              help="Also print one line per record: game, effective rules, plies, verdict.")
@jobs_option(1)
@progress_option
@limits_options
def validate(paths: tuple[str, ...], game: str | None, rules: str | None, output_format: str,
             output: str, quiet: bool, verbose: bool, jobs: int, progress: bool | None,
             limits: Limits, encoding: str | None) -> None:
    """Replay every record against its game's rules and report what is wrong.

    Diagnostics look like a compiler's: 'path:line:col: error[CODE]: move N (Side) text:
    message [rules section]'. A bad record never stops the run. Exit status 0 when every
    record is valid, 1 when any record is invalid, 2 when an input cannot be read.
    """
    require_paths(paths)
    check_overrides(game, rules)
    check_outputs(paths, Output("--output", output))
    tally = Tally()
    bar = Progress(Progress.wanted(progress, quiet), list(paths), "validate", game_suffixes)
    with open_output(output) as out:
        # The writer only writes lines to its error stream: a _BarStream is all it needs.
        errors = cast(TextIO, _BarStream(bar))
        writer = REPORT_WRITERS[output_format](out, errors, quiet=quiet, verbose=verbose)
        settings = Settings(game=game, rules=rules, limits=limits, encoding=encoding)
        for item in iter_reports(list(paths), settings, jobs=jobs, stdin=sys.stdin.buffer,
                                 progress=bar.reading):
            tally.add(item)
            writer.write(item)
            bar.update(item)
        bar.close()
        writer.end(tally)
    finish(tally)
