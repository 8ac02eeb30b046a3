"""``notation-tools analyze``: batch replay of directories and archives, summary tables."""

from __future__ import annotations

import contextlib
import os
import sys
import uuid
from collections.abc import Iterator

import click

from notation_tools.analysis.foreign import game_suffixes
from notation_tools.analysis.position_keys import INDEX_CHOICES
from notation_tools.analysis.reports import Summary, diagnostics_of
from notation_tools.parallel.batch import RecordReport, Settings
from notation_tools.parallel.session import open_session
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.storage.parquet import ParquetWriteError
from notation_tools.limits import Limits
from notation_tools.sources.overlap import Output
from notation_tools.cli.options import (
    InputError,
    check_outputs,
    check_overrides,
    default_jobs,
    finish,
    game_option,
    jobs_option,
    limits_options,
    new_summary,
    output_option,
    paths_argument,
    quiet_option,
    report_options,
    require_paths,
    rules_option,
    table_format_option,
    write_report,
)
from notation_tools.cli.progress import Progress, progress_option
from notation_tools.cli.openings import catalogue_identity, openings_options
from notation_tools.sources import input_files
from notation_tools.sources.streams import shown


@click.command()
@paths_argument
@game_option()
@rules_option
@table_format_option
@output_option
@report_options
@jobs_option(None)
@click.option("--strict", is_flag=True, help="Exit 1 when any record is invalid.")
@click.option("--db", "db_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Keep every record's results in this SQLite database (created when "
                   "missing). Inputs already stored with the same content are read back "
                   "instead of analysed again; 'notation-tools report FILE' prints the report "
                   "from it alone.")
@click.option("--index", "index", type=click.Choice(INDEX_CHOICES),
              help="With --db: also keep the position index in the database, the keys of "
                   "every position of every main line ('positions') or of the variations "
                   "too ('variations'), for search and explore. Inputs stored without it are "
                   "analysed again once. 'squares': the main lines' positions and what every "
                   "square holds ply by ply (the square index), so that pattern search with "
                   "--square answers without replaying (a larger and slower build). An "
                   "input of over 250,000 positions, or any input into an empty index, is "
                   "sorted in SQLite's temporary directory (SQLITE_TMPDIR): about 50 bytes "
                   "a position of room.")
@click.option("--parquet", "parquet", metavar="DIR", type=click.Path(file_okay=False),
              help="Also write the results as a Parquet dataset in DIR, each batch by the "
                   "process that replayed it (needs the dask extra). DIR must be empty or "
                   "new, unless --append is given.")
@click.option("--append", "append", is_flag=True,
              help="With --parquet: add this run's inputs to the dataset DIR holds; the "
                   "rows it holds of these inputs are replaced, never doubled.")
@click.option("--scheduler", metavar="ADDRESS",
              help="Replay on a Dask cluster: tcp://HOST:PORT of a running scheduler, or "
                   "'local' for a cluster of --jobs worker processes on this machine (needs "
                   "pip install 'notation-tools[dask]').")
@openings_options
@progress_option
@click.option("--diagnostics", "show_diagnostics", is_flag=True,
              help="Also print every diagnostic on standard error.")
@quiet_option
@limits_options
def analyze(paths: tuple[str, ...], game: str | None, rules: str | None, output_format: str,
            output: str, all_figures: bool, html: str | None, jobs: int | None, strict: bool,
            db_path: str | None, index: str | None, parquet: str | None, append: bool,
            scheduler: str | None, openings: tuple[str, ...] | None, progress: bool | None,
            show_diagnostics: bool, quiet: bool, limits: Limits, encoding: str | None) -> None:
    """Replay every record of directories, archives and files, and print summary tables.

    Tables: records (valid, invalid, unreadable inputs), diagnostics by code, records per game,
    results and how games ended per game, length distribution, and each game's key figures,
    each summarized as its kind says: a count or a rate by its mean over the records where it
    applies, a maximum by the largest, a ply at which something first happened by its mean
    over the records where it happened (--figures, or --format json: every figure). With
    --html FILE the same report, with charts, is also written as one self-contained HTML
    page (needs the report extra).
    Archives (zip, tar, tar.gz/bz2/xz) and .gz/.bz2/.xz files are read as streams, and the
    work is split by records, so one large archive uses every --jobs process. With --db the
    results are kept in SQLite and a second run analyses only what changed. analyze is a
    report: it exits 0 once the report is complete, whatever the records hold, and counts
    unreadable inputs (corrupt archives, binary files) in its first table. With --strict it
    exits 1 when any record is invalid and 2 when any input could not be read. A database
    that cannot be used (not a database, another schema version, a full disk) or a cluster
    that cannot be reached is an error (exit 2), and no report is printed.
    Every record is named by the deepest line of the opening catalogues it begins with (the
    games' own and --openings FILE; --no-openings: none), counted in an Openings table and
    kept in the database's openings table.
    """
    require_paths(paths)
    check_overrides(game, rules)
    if index is not None and db_path is None:
        raise click.BadParameter("goes with --db FILE", param_hint="'--index'")
    if append and parquet is None:
        raise click.BadParameter("goes with --parquet DIR", param_hint="'--append'")
    check_outputs(paths, Output("--output", output), Output("--html", html or "-"),
                  Output("--db", db_path or "-"),
                  Output("--parquet", parquet or "-", suffixes=(".parquet",), recursive=True))
    if parquet is not None:
        _check_parquet(parquet, list(paths), append)
    settings = Settings(game=game, rules=rules, collect_stats=True, limits=limits,
                        encoding=encoding, details=db_path is not None or parquet is not None,
                        parquet=os.path.abspath(parquet) if parquet is not None else None,
                        parquet_run=uuid.uuid4().hex, openings=openings, index=index)
    summary = new_summary(html)
    overrides = "; ".join(f"--{name} {value}" for name, value
                          in (("game", game), ("rules", rules),
                              ("openings", catalogue_identity(openings or ()))) if value) or None
    # sqlite3 and the database code are imported only with --db, Dask only with --scheduler;
    # without them no such error can happen, and the handlers below catch nothing.
    opening_errors: tuple[type[Exception], ...] = ()
    database_errors: tuple[type[Exception], ...] = ()
    if scheduler is not None:
        from notation_tools.parallel.distributed import ClusterError

        opening_errors += (ClusterError,)
    if db_path is not None:
        from notation_tools.storage.database import DatabaseError

        opening_errors += (DatabaseError,)
        database_errors = (DatabaseError,)
    bar = Progress(Progress.wanted(progress, quiet), list(paths), "analyze", game_suffixes)
    try:
        with contextlib.ExitStack() as stack:
            try:
                session = stack.enter_context(open_session(
                    settings, jobs=jobs or default_jobs(), scheduler=scheduler, workers=jobs,
                    database=db_path, overrides=overrides))
            except opening_errors as error:
                raise InputError(str(error)) from None
            items = session.reports(list(paths), stdin=sys.stdin.buffer, progress=bar.reading)
            _summarize(items, summary, bar, show_diagnostics=show_diagnostics, quiet=quiet)
    except database_errors as error:
        bar.close()
        raise InputError(f"{error}: the report is not printed") from None
    except ParquetWriteError as error:
        bar.close()
        raise InputError(f"{error}: the run stopped and the report is not printed") from None
    bar.close()
    write_report(summary, output_format=output_format, output=output, all_figures=all_figures,
                 html=html)
    finish(summary.tally, strict=strict)


def _summarize(items: Iterator[RecordReport | Diagnostic], summary: Summary, bar: Progress, *,
               show_diagnostics: bool, quiet: bool) -> None:
    """Add every item to the summary, print its diagnostics if asked, and move the bar."""
    for item in items:
        summary.add(item)
        if show_diagnostics:
            for diagnostic in diagnostics_of(item):
                if diagnostic.is_error or not quiet:
                    bar.echo(str(diagnostic))
        bar.update(item)


def _check_parquet(directory: str, paths: list[str], append: bool) -> None:
    from notation_tools.storage.parquet import (DatasetNotEmpty, ParquetUnavailable,
                                                 check_available, prepare)

    try:
        check_available()
        inputs = [shown(path) for path in input_files(paths, game_suffixes)]
        prepare(directory, append=append, inputs=inputs)
    except (ParquetUnavailable, DatasetNotEmpty) as error:
        raise click.BadParameter(str(error), param_hint="'--parquet'") from None
    except ParquetWriteError as error:
        raise InputError(str(error)) from None
