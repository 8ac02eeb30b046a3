"""What a run found, counted and written: :class:`Tally` (the counts every command's exit
status comes from), :class:`Summary` (the tables ``analyze`` prints) and the writers of
``validate``'s report, one class per format in :data:`REPORT_WRITERS` (G6).

A report writer takes record reports and unreadable-input diagnostics one at a time, then the
tally at the end. Does not replay, and does not decide exit statuses (the CLI does, from the
tally).
"""

from __future__ import annotations

import collections
import dataclasses
import json
from typing import Any, ClassVar, TextIO

from notation_tools.analysis.batch import RecordReport
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Record
from notation_tools.render.tables import Table


@dataclasses.dataclass
class Tally:
    """Counts over a run: records read, how many valid, their errors and warnings, and inputs
    that could not be read at all.

    >>> tally = Tally()
    >>> tally.add(Record(diagnostics=[Diagnostic("E-SYNTAX", "bad", "a.pgn", 1, 1)]))
    >>> tally.records, tally.invalid, tally.errors
    (1, 1, 1)
    """

    records: int = 0
    valid: int = 0
    errors: int = 0
    warnings: int = 0
    unreadable: int = 0

    def add(self, item: RecordReport | Record | Diagnostic) -> None:
        """Count a record (replayed or not) or an unreadable input's diagnostic."""
        if isinstance(item, Diagnostic):
            self.unreadable += 1
            self.errors += item.is_error
            self.warnings += not item.is_error
            return
        self.records += 1
        errors = sum(d.is_error for d in item.diagnostics)
        self.valid += not errors
        self.errors += errors
        self.warnings += len(item.diagnostics) - errors

    @property
    def invalid(self) -> int:
        return self.records - self.valid

    def to_json(self) -> dict[str, int]:
        return {"records": self.records, "valid": self.valid, "invalid": self.invalid,
                "errors": self.errors, "warnings": self.warnings,
                "unreadable_inputs": self.unreadable}

    def sentence(self) -> str:
        """``6 records: 5 valid, 1 invalid (1 errors, 0 warnings)``."""
        unreadable = f", {self.unreadable} unreadable inputs" if self.unreadable else ""
        return (f"{self.records} records: {self.valid} valid, {self.invalid} invalid "
                f"({self.errors} errors, {self.warnings} warnings{unreadable})")


LENGTH_BINS = ((0, 0), (1, 10), (11, 25), (26, 50), (51, 100), (101, 200), (201, 500),
               (501, None))


def _bin_label(low: int, high: int | None) -> str:
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


class Summary:
    """Running totals over record reports, for ``analyze``."""

    def __init__(self) -> None:
        self.tally = Tally()
        self.codes: collections.Counter[tuple[str, str]] = collections.Counter()
        self.results: collections.Counter[tuple[str, str]] = collections.Counter()
        self.lengths: collections.Counter[str] = collections.Counter()
        self.ends: collections.Counter[tuple[str, str]] = collections.Counter()
        self.per_game: dict[str, dict[str, Any]] = {}

    @property
    def records(self) -> int:
        return self.tally.records

    @property
    def valid(self) -> int:
        return self.tally.valid

    @property
    def io_errors(self) -> int:
        return self.tally.unreadable

    def add(self, item: RecordReport | Diagnostic) -> None:
        self.tally.add(item)
        if isinstance(item, Diagnostic):
            self.codes[(item.code, item.severity)] += 1
            return
        for diagnostic in item.diagnostics:
            self.codes[(diagnostic.code, diagnostic.severity)] += 1
        game = item.game or "(unknown)"
        self.results[(game, item.result or "(none)")] += 1
        self.ends[(game, item.end or "unfinished")] += 1
        for low, high in LENGTH_BINS:
            if item.plies >= low and (high is None or item.plies <= high):
                self.lengths[_bin_label(low, high)] += 1
                break
        totals = self.per_game.setdefault(game, {"records": 0, "valid": 0, "plies": 0,
                                                 "figures": collections.Counter()})
        totals["records"] += 1
        totals["valid"] += item.is_valid
        totals["plies"] += item.plies
        for name, value in item.figures.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                totals["figures"][name] += value

    @property
    def invalid(self) -> int:
        return self.records - self.valid

    def tables(self) -> list[Table]:
        tables = [Table("Records", ["records", "valid", "invalid", "unreadable inputs"],
                        [[self.records, self.valid, self.invalid, self.io_errors]])]
        tables.append(Table("Diagnostics by code", ["code", "severity", "count"],
                            [[code, severity, count] for (code, severity), count
                             in sorted(self.codes.items())]))
        tables.append(Table("Results", ["game", "result", "records"],
                            [[game, result, count] for (game, result), count
                             in sorted(self.results.items())]))
        tables.append(Table("How games ended", ["game", "end", "records"],
                            [[game, end, count] for (game, end), count
                             in sorted(self.ends.items())]))
        tables.append(Table("Length (plies)", ["plies", "records"],
                            [[_bin_label(low, high), self.lengths[_bin_label(low, high)]]
                             for low, high in LENGTH_BINS
                             if self.lengths[_bin_label(low, high)]]))
        for game, totals in sorted(self.per_game.items()):
            records = totals["records"]
            rows = [["records", records], ["valid", totals["valid"]],
                    ["plies", totals["plies"]],
                    ["mean plies", round(totals["plies"] / records, 2) if records else 0]]
            for name, value in sorted(totals["figures"].items()):
                rows.append([f"{name} (total)", round(value, 4)])
                rows.append([f"{name} (mean)", round(value / records, 4)])
            tables.append(Table(f"Figures: {game}", ["figure", "value"], rows))
        return tables


def diagnostics_of(item: RecordReport | Diagnostic) -> list[Diagnostic]:
    """The diagnostics an item carries (an unreadable input is its own diagnostic)."""
    return [item] if isinstance(item, Diagnostic) else item.diagnostics


class ReportWriter:
    """Text: diagnostics on the error stream (warnings unless ``quiet``), with ``verbose`` a
    line per record on the output, and the tally's sentence at the end unless ``quiet``."""

    name: ClassVar[str] = "text"
    help: ClassVar[str] = "diagnostics on standard error, a summary on standard output"

    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False,
                 verbose: bool = False) -> None:
        self.out, self.err, self.quiet, self.verbose = out, err, quiet, verbose

    def write(self, item: RecordReport | Diagnostic) -> None:
        for diagnostic in diagnostics_of(item):
            if diagnostic.is_error or not self.quiet:
                self.err.write(f"{diagnostic}\n")
        if self.verbose and isinstance(item, RecordReport):
            verdict = "valid" if item.is_valid else "INVALID"
            self.out.write(f"{item.path}:{item.line}: record {item.index}: {item.game or '?'} "
                           f"({item.rules or '?'}), {item.plies} plies, {item.result or '*'}: "
                           f"{verdict}\n")

    def end(self, tally: Tally) -> None:
        if not self.quiet:
            self.out.write(tally.sentence() + "\n")


def report_to_json(item: RecordReport | Diagnostic) -> dict[str, Any]:
    """One record's report as JSON data (an unreadable input: ``{"io_error": ...}``)."""
    if isinstance(item, Diagnostic):
        return {"io_error": item.to_json()}
    return {"path": item.path, "record": item.index, "line": item.line, "game": item.game,
            "rules": item.rules, "valid": item.is_valid, "plies": item.plies,
            "result": item.result, "end": item.end,
            "diagnostics": [d.to_json() for d in item.diagnostics]}


class JsonLinesReportWriter(ReportWriter):
    """JSON Lines: one object per record (or unreadable input)."""

    name = "jsonl"
    help = "one JSON object a line per record"

    def write(self, item: RecordReport | Diagnostic) -> None:
        self.out.write(json.dumps(report_to_json(item), ensure_ascii=False) + "\n")

    def end(self, tally: Tally) -> None:
        pass


class JsonReportWriter(ReportWriter):
    """JSON: one document, ``{"records": [...], "summary": {...}}``."""

    name = "json"
    help = "one JSON document with every record and a summary"

    def __init__(self, out: TextIO, err: TextIO, *, quiet: bool = False,
                 verbose: bool = False) -> None:
        super().__init__(out, err, quiet=quiet, verbose=verbose)
        self.documents: list[dict[str, Any]] = []

    def write(self, item: RecordReport | Diagnostic) -> None:
        self.documents.append(report_to_json(item))

    def end(self, tally: Tally) -> None:
        json.dump({"records": self.documents, "summary": tally.to_json()}, self.out, indent=2,
                  ensure_ascii=False)
        self.out.write("\n")


REPORT_WRITERS: dict[str, type[ReportWriter]] = {
    writer.name: writer for writer in (ReportWriter, JsonReportWriter, JsonLinesReportWriter)}
"""Report format name → writer class (``validate --format``)."""
