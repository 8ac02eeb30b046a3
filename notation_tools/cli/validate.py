"""``notation-tools validate``: replay every record and print compiler-style diagnostics."""

from __future__ import annotations

import json
import sys

import click

from notation_tools.analysis.batch import RecordReport, Settings, iter_reports
from notation_tools.cli.options import (
    check_rules,
    game_option,
    jobs_option,
    output_option,
    open_output,
    paths_argument,
    quiet_option,
    require_paths,
    rules_option,
)
from notation_tools.records.diagnostics import Diagnostic


def _report_json(report: RecordReport) -> dict:
    return {"path": report.path, "record": report.index, "line": report.line,
            "game": report.game, "rules": report.rules, "valid": report.is_valid,
            "plies": report.plies, "result": report.result, "end": report.end,
            "diagnostics": [d.to_json() for d in report.diagnostics]}


@click.command()
@paths_argument
@game_option()
@rules_option
@click.option("--format", "-f", "output_format", type=click.Choice(["text", "json", "jsonl"]),
              default="text", show_default=True,
              help="text: diagnostics on standard error, a summary on standard output; "
                   "json: one document; jsonl: one line per record.")
@output_option
@quiet_option
@click.option("--verbose", "-v", is_flag=True,
              help="Also print one line per record: game, effective rules, plies, verdict.")
@jobs_option(1)
def validate(paths: tuple[str, ...], game: str | None, rules: str | None, output_format: str,
             output: str, quiet: bool, verbose: bool, jobs: int) -> None:
    """Replay every record against its game's rules and report what is wrong.

    Diagnostics look like a compiler's: 'path:line:col: error[CODE]: move N (Side) text:
    message [spec section]'. A bad record never stops the run. Exit status 0 when every
    record is valid, 1 when any record is invalid, 2 when an input cannot be read.
    """
    require_paths(paths)
    check_rules(game, rules)
    settings = Settings(game=game, rules=rules)
    records = valid = errors = warnings = io_errors = 0
    documents: list[dict] = []
    with open_output(output) as out:
        for item in iter_reports(list(paths), settings, jobs=jobs, stdin=sys.stdin.buffer):
            found = [item] if isinstance(item, Diagnostic) else item.diagnostics
            if isinstance(item, Diagnostic):
                io_errors += 1
            else:
                records += 1
                valid += item.is_valid
            errors += sum(d.is_error for d in found)
            warnings += sum(not d.is_error for d in found)
            if output_format == "text":
                for diagnostic in found:
                    if diagnostic.is_error or not quiet:
                        click.echo(str(diagnostic), err=True)
                if verbose and isinstance(item, RecordReport):
                    verdict = "valid" if item.is_valid else "INVALID"
                    out.write(f"{item.path}:{item.line}: record {item.index}: {item.game or '?'}"
                              f" ({item.rules or '?'}), {item.plies} plies, {item.result or '*'}"
                              f": {verdict}\n")
            else:
                document = ({"io_error": item.to_json()} if isinstance(item, Diagnostic)
                            else _report_json(item))
                if output_format == "jsonl":
                    out.write(json.dumps(document, ensure_ascii=False) + "\n")
                else:
                    documents.append(document)
        summary = {"records": records, "valid": valid, "invalid": records - valid,
                   "errors": errors, "warnings": warnings, "unreadable_inputs": io_errors}
        if output_format == "json":
            json.dump({"records": documents, "summary": summary}, out, indent=2,
                      ensure_ascii=False)
            out.write("\n")
        elif output_format == "text" and not quiet:
            out.write(f"{records} records: {valid} valid, {records - valid} invalid "
                      f"({errors} errors, {warnings} warnings"
                      f"{f', {io_errors} unreadable inputs' if io_errors else ''})\n")
    if io_errors:
        sys.exit(2)
    if records - valid:
        sys.exit(1)
