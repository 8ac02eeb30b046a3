"""``notation-tools analyze``: batch replay of directories and archives, summary tables."""

from __future__ import annotations

import sys
import time

import click

from notation_tools.analysis.batch import Settings, Summary, iter_reports
from notation_tools.cli.options import (
    check_rules,
    default_jobs,
    game_option,
    jobs_option,
    open_output,
    output_option,
    paths_argument,
    quiet_option,
    require_paths,
    rules_option,
    table_format_option,
)
from notation_tools.render.tables import TABLE_WRITERS


class _Progress:
    """A one-line counter on standard error, redrawn at most ten times a second."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = self.last = time.monotonic()

    def update(self, summary: Summary) -> None:
        now = time.monotonic()
        if self.enabled and now - self.last >= 0.1:
            self.last = now
            rate = summary.records / max(now - self.start, 1e-9)
            click.echo(f"\r{summary.records} records ({summary.invalid} invalid), "
                       f"{rate:,.0f} records/s", err=True, nl=False)

    def close(self, summary: Summary) -> None:
        if self.enabled:
            self.last = 0.0
            self.update(summary)
            click.echo("", err=True)


@click.command()
@paths_argument
@game_option()
@rules_option
@table_format_option
@output_option
@jobs_option(None)
@click.option("--strict", is_flag=True, help="Exit 1 when any record is invalid.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress line on standard error (default: when it is a terminal).")
@click.option("--diagnostics", "show_diagnostics", is_flag=True,
              help="Also print every diagnostic on standard error.")
@quiet_option
def analyze(paths: tuple[str, ...], game: str | None, rules: str | None, output_format: str,
            output: str, jobs: int | None, strict: bool, progress: bool | None,
            show_diagnostics: bool, quiet: bool) -> None:
    """Replay every record of directories, archives and files, and print summary tables.

    Tables: records (valid, invalid, unreadable inputs), diagnostics by code, results and how
    games ended per game, length distribution, and each game's figures (totals and means).
    Archives (zip, tar, tar.gz/bz2/xz) and .gz/.bz2/.xz files are read as streams. analyze is
    a report: it exits 0 once the report is complete, whatever the records hold, and counts
    unreadable inputs (corrupt archives, binary files) in its first table. With --strict it
    exits 1 when any record is invalid and 2 when any input could not be read.
    """
    require_paths(paths)
    check_rules(game, rules)
    settings = Settings(game=game, rules=rules, collect_stats=True)
    summary = Summary()
    bar = _Progress(progress if progress is not None else sys.stderr.isatty())
    for item in iter_reports(list(paths), settings, jobs=jobs or default_jobs(),
                             stdin=sys.stdin.buffer):
        summary.add(item)
        if show_diagnostics:
            found = [item] if not hasattr(item, "diagnostics") else item.diagnostics
            for diagnostic in found:
                if diagnostic.is_error or not quiet:
                    click.echo(str(diagnostic), err=True)
        bar.update(summary)
    bar.close(summary)
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write(summary.tables(), out)
    if strict and summary.io_errors:
        sys.exit(2)
    if strict and summary.invalid:
        sys.exit(1)
