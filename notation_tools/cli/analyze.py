"""``notation-tools analyze``: batch replay of directories and archives, summary tables."""

from __future__ import annotations

import sys
import time

import click

from notation_tools.analysis.batch import Settings, iter_reports
from notation_tools.analysis.foreign import game_suffixes
from notation_tools.analysis.reports import Summary, diagnostics_of
from notation_tools.limits import Limits
from notation_tools.cli.options import (
    check_rules,
    default_jobs,
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
from notation_tools.render.tables import TABLE_WRITERS
from notation_tools.sources import input_files, top_file


class _Progress:
    """A bar on standard error: input files done out of all, records, invalid, records/s."""

    def __init__(self, enabled: bool, files: list[str]) -> None:
        self.enabled = enabled
        self.files = set(files)
        self.current: str | None = None
        self.start = time.monotonic()
        self.bar = (click.progressbar(length=len(files), file=sys.stderr, label="analyze",
                                      show_pos=True, item_show_func=lambda text: text)
                    if enabled else None)
        if self.bar is not None:
            self.bar.__enter__()

    def update(self, path: str, summary: Summary) -> None:
        if self.bar is None:
            return
        top = top_file(path, self.files)
        done = 0 if self.current is None or top == self.current else 1
        self.current = top
        rate = summary.records / max(time.monotonic() - self.start, 1e-9)
        self.bar.current_item = (f"{summary.records} records, {summary.invalid} invalid, "
                                 f"{rate:,.0f}/s")
        self.bar.update(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.update(self.bar.length - self.bar.pos)
            self.bar.__exit__(None, None, None)


@click.command()
@paths_argument
@game_option()
@rules_option
@table_format_option
@output_option
@jobs_option(None)
@click.option("--strict", is_flag=True, help="Exit 1 when any record is invalid.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar on standard error: input files done, records, "
                   "records/s (default: when standard error is a terminal).")
@click.option("--diagnostics", "show_diagnostics", is_flag=True,
              help="Also print every diagnostic on standard error.")
@quiet_option
@limits_options
def analyze(paths: tuple[str, ...], game: str | None, rules: str | None, output_format: str,
            output: str, jobs: int | None, strict: bool, progress: bool | None,
            show_diagnostics: bool, quiet: bool, limits: Limits, encoding: str | None) -> None:
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
    settings = Settings(game=game, rules=rules, collect_stats=True, limits=limits,
                        encoding=encoding)
    summary = Summary()
    bar = _Progress(progress if progress is not None else sys.stderr.isatty(),
                    input_files(paths, game_suffixes()))
    for item in iter_reports(list(paths), settings, jobs=jobs or default_jobs(),
                             stdin=sys.stdin.buffer):
        summary.add(item)
        if show_diagnostics:
            for diagnostic in diagnostics_of(item):
                if diagnostic.is_error or not quiet:
                    click.echo(str(diagnostic), err=True)
        bar.update(item.path, summary)
    bar.close()
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write(summary.tables(), out)
    finish(summary.tally, strict=strict)
