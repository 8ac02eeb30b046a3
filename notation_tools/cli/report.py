"""``notation-tools report``: the analyze report again, from a results database alone."""

from __future__ import annotations

import os

import click

from notation_tools.storage.database import DatabaseError, ResultsDatabase
from notation_tools.sources.overlap import Output
from notation_tools.cli.options import (InputError, check_outputs, finish, new_summary,
                                        output_option, report_options, table_format_option,
                                        write_report)
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.sources.streams import shown


@click.command()
@click.argument("database", metavar="DATABASE", type=click.Path(dir_okay=False))
@click.option("--input", "inputs", multiple=True, metavar="PATH",
              help="Report only these stored inputs (as analyze named them; repeatable).")
@table_format_option
@output_option
@report_options
@click.option("--strict", is_flag=True, help="Exit 1 when any record is invalid.")
def report(database: str, inputs: tuple[str, ...], output_format: str, output: str,
           all_figures: bool, html: str | None, strict: bool) -> None:
    """Print the report 'analyze --db DATABASE' printed, from the database alone.

    Nothing is read but the database: the tables are the ones analyze prints (records,
    diagnostics by code, games, results, how games ended, lengths, key figures; --figures for
    every figure), over every input stored complete, or over the --input ones; --html writes
    the same page as analyze --html. An input that a run did not finish (interrupted) is
    left out, and named on standard error. A row whose values are not of their columns' kinds
    (a database edited by hand) is left out with an E-IO diagnostic naming the table, row and
    column, and counted as unreadable. Exit status 0 (with --strict: 1 when a record is
    invalid, 2 when a row could not be read), 2 when the file is not a results database.
    """
    if not os.path.exists(database):
        raise click.BadParameter(f"{database}: no such file", param_hint="DATABASE")
    check_outputs((database,), Output("--output", output), Output("--html", html or "-"))
    summary = new_summary(html)
    try:
        with ResultsDatabase(database) as db:
            stored = db.inputs()
            for path, complete in stored:
                if not complete and (not inputs or path in inputs):
                    click.echo(f"{database}: {path} was not analysed to the end (an "
                               "interrupted run): it is not in this report; run analyze "
                               "--db again to complete it", err=True)
            known = {path for path, _ in stored}
            for path in inputs:
                if path not in known:
                    raise click.BadParameter(f"{database} holds no input {path}",
                                             param_hint="'--input'")
            for item in db.reports(list(inputs) if inputs else None):
                summary.add(item)
                if isinstance(item, Diagnostic) and item.path == shown(database):
                    click.echo(str(item), err=True)  # a row that cannot be read
    except DatabaseError as error:
        raise InputError(str(error)) from None
    write_report(summary, output_format=output_format, output=output, all_figures=all_figures,
                 html=html)
    finish(summary.tally, strict=strict)
