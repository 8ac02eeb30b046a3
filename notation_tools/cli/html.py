"""``notation-tools html``: a self-contained HTML replay viewer for every record."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator

import click

from notation_tools.parallel.batch import Settings, capped, iter_records
from notation_tools.analysis.reports import Tally
from notation_tools.pages.viewer import IndexEntry, build_page, write_pages
from notation_tools.sources.overlap import Output
from notation_tools.cli.options import (
    InputError,
    WriteFailed,
    check_outputs,
    check_overrides,
    finish,
    game_option,
    jobs_option,
    limits_options,
    open_output,
    paths_argument,
    quiet_option,
    require_paths,
    rules_option,
)
from notation_tools.limits import Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Record
from notation_tools.sources.streams import shown


@click.command()
@paths_argument
@game_option()
@rules_option
@click.option("--output", "-o", "output", required=True, metavar="OUT",
              type=click.Path(allow_dash=True),
              help="One record in all: the page's file ('-' is standard output). Several "
                   "records (or OUT an existing directory): the directory of the pages and "
                   "their index.html; an OUT ending in .html is then a usage error, not a "
                   "directory of that name.")
@click.option("--title", metavar="TEXT",
              help="The page's title (one record) or the index's (several). Default: a "
                   "record's Event tag, else its file's name and number; never the path as "
                   "typed.")
@quiet_option
@jobs_option(1)
@limits_options
def html(paths: tuple[str, ...], game: str | None, rules: str | None, output: str,
         title: str | None, quiet: bool, jobs: int, limits: Limits,
         encoding: str | None) -> None:
    """Write an HTML replay viewer page for every record.

    Each page stands alone (no network; it works from file://): the tags, the board, and the
    moves with their comments, NAGs and variations. Step with the buttons, the arrow keys
    (Home and End too) or by clicking a move; the game's drawing options are check boxes. A
    move with an error is shown with its message, and the replay stops there, as 'validate'
    stops. Diagnostics go to standard error as 'validate' prints them; the exit status is
    that of 'validate'.
    """
    require_paths(paths)
    check_overrides(game, rules)
    # One record goes to the file OUT, several into the directory OUT: both are checked.
    check_outputs(paths, Output("--output", output) if not os.path.isdir(output)
                  else Output("--output", output, suffixes=(".html",)))
    tally = Tally()
    settings = Settings(game=game, rules=rules, limits=limits, encoding=encoding)

    def report(diagnostics: list[Diagnostic]) -> None:
        for diagnostic in diagnostics:
            if diagnostic.is_error or not quiet:
                click.echo(str(diagnostic), err=True)

    def records() -> Iterator[Record]:
        for item in iter_records(list(paths), stdin=sys.stdin.buffer, settings=settings):
            if isinstance(item, Diagnostic):
                tally.add(item)
                report([item])
            else:
                yield item

    def written(entry: IndexEntry | None, record: Record) -> None:
        tally.add(record)
        report(capped(list(record.diagnostics), limits))

    def lost(diagnostic: Diagnostic) -> None:  # a record that killed a worker twice
        tally.add(diagnostic)
        report([diagnostic])

    stream = records()
    first = list(itertools.islice(stream, 2))
    if len(first) == 1 and not os.path.isdir(output):
        page = build_page(first[0], game_name=game, rules_text=rules, title=title)
        with open_output(output) as out:
            out.write(page.html)
        written(None, page.record)
    elif first:
        if output == "-":
            raise click.UsageError("several records need an output directory (-o DIR), "
                                   "not standard output")
        if os.path.exists(output) and not os.path.isdir(output):
            raise InputError(f"{output} is a file: several records need a directory")
        if not os.path.isdir(output) and output.lower().endswith((".html", ".htm")):
            raise click.UsageError(f"several records make a page each: -o {output} names a "
                                   "page, give a directory (-o DIR) for the pages and their "
                                   "index.html")
        try:
            entries = write_pages(itertools.chain(first, stream), output, game_name=game,
                                  rules_text=rules, jobs=jobs, on_page=written,
                                  on_lost=lost, title=title)
        except OSError as error:
            # The page or index that could not be written, else the directory.
            where = error.filename if isinstance(error.filename, str) else output
            raise WriteFailed(shown(where), error) from None
        if not quiet:
            click.echo(f"{len(entries)} pages and index.html written to {output}", err=True)
    if not quiet:
        click.echo(tally.sentence(), err=True)
    finish(tally)
