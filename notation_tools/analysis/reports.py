"""What a run found, counted and written: :class:`Tally` (the counts every command's exit
status comes from), :class:`Summary` (the tables ``analyze`` prints, each game's figures
summarized by their kind) and the writers of
``validate``'s report, one class per format in :data:`REPORT_WRITERS` (G6).

A report writer takes record reports and unreadable-input diagnostics one at a time, then the
tally at the end. Does not replay, and does not decide exit statuses (the CLI does, from the
tally).
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import json
from collections.abc import Mapping
from typing import Any, ClassVar, TextIO

from notation_tools.parallel.batch import RecordReport
from notation_tools.games.base import Figure, FigureKind, UnknownGameError, get_game
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
UNKNOWN_GAME = "(unknown)"
"""The game of a record whose game could not be told."""


def _bin_label(low: int, high: int | None) -> str:
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


LENGTH_LABELS = tuple(_bin_label(low, high) for low, high in LENGTH_BINS)


def length_bin(plies: int) -> str:
    """The label of the :data:`LENGTH_BINS` bin ``plies`` falls in.

    >>> length_bin(0), length_bin(26), length_bin(900)
    ('0', '26-50', '501+')
    """
    for (low, high), label in zip(LENGTH_BINS, LENGTH_LABELS):
        if plies >= low and (high is None or plies <= high):
            return label
    raise ValueError(f"a negative length: {plies}")


SUMMARIZED_AS = {FigureKind.COUNT: "mean", FigureKind.RATIO: "mean", FigureKind.PLY: "mean",
                 FigureKind.MAX: "max", FigureKind.MIN: "min"}
"""The one statistic over records that says something about a figure of each kind: a mean
over the records where the figure applies, the largest of maxima, the smallest of minima."""


def numeric(value: Any) -> bool:
    """Whether a figure's value is a number a report summarizes (not a flag, text or None)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_NUMBERS = (int, float)
"""The types of most figures' values, which :func:`numeric` takes without a call."""


@functools.cache
def declared_figures(game: str) -> Mapping[str, Figure]:
    """The figures ``game`` declares (none for a game that is not installed)."""
    try:
        return get_game(game).figures
    except UnknownGameError:
        return {}


def figure_of(game: str, name: str) -> Figure:
    """How ``game``'s figure ``name`` is read: as declared, else as a count."""
    return declared_figures(game).get(name) or Figure(FigureKind.COUNT, "")


@dataclasses.dataclass
class FigureTally:
    """One figure over the records where it applies (has a numeric value)."""

    records: int = 0
    total: float = 0
    low: float | None = None
    high: float | None = None

    def add(self, value: float) -> None:
        self.records += 1
        self.total += value
        # Comparisons rather than min() and max(), which cost a call each: this runs for
        # every figure of every record. The first value seen stays when others tie it.
        if self.low is None or value < self.low:
            self.low = value
        if self.high is None or value > self.high:
            self.high = value

    def summary(self, kind: FigureKind) -> float | None:
        """The statistic :data:`SUMMARIZED_AS` names for ``kind``.

        >>> tally = FigureTally()
        >>> for value in (3, 9, 6):
        ...     tally.add(value)
        >>> tally.summary(FigureKind.COUNT), tally.summary(FigureKind.MAX)
        (6.0, 9)
        """
        if not self.records:
            return None
        if kind is FigureKind.MAX:
            return self.high
        if kind is FigureKind.MIN:
            return self.low
        return round(self.total / self.records, 3)


@dataclasses.dataclass
class GameTally:
    """One game's records: how many, how many valid, their lengths and figures."""

    records: int = 0
    valid: int = 0
    plies: FigureTally = dataclasses.field(default_factory=FigureTally)
    figures: dict[str, FigureTally] = dataclasses.field(default_factory=dict)


class Summary:
    """Running totals over record reports, for ``analyze`` and ``report``.

    A game's figures are summarized each by its kind (:data:`SUMMARIZED_AS`); the tables hold
    only each game's key figures unless ``all_figures``.
    """

    def __init__(self) -> None:
        self.tally = Tally()
        self.codes: collections.Counter[tuple[str, str]] = collections.Counter()
        self.results: collections.Counter[tuple[str, str]] = collections.Counter()
        self.lengths: collections.Counter[str] = collections.Counter()
        self.ends: collections.Counter[tuple[str, str]] = collections.Counter()
        self.per_game: dict[str, GameTally] = {}
        self.openings: collections.Counter[tuple[str, str]] = collections.Counter()

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
        game = item.game or UNKNOWN_GAME
        self.results[(game, item.result or "(none)")] += 1
        self.ends[(game, item.end or "unfinished")] += 1
        self.lengths[length_bin(item.plies)] += 1
        if item.opening is not None:
            self.openings[(game, item.opening)] += 1
        totals = self.per_game.setdefault(game, GameTally())
        totals.records += 1
        totals.valid += item.is_valid
        totals.plies.add(item.plies)
        tallies = totals.figures
        for name, value in item.figures.items():
            if type(value) in _NUMBERS or numeric(value):
                tally = tallies.get(name)
                if tally is None:
                    tally = tallies[name] = FigureTally()
                tally.add(value)

    @property
    def invalid(self) -> int:
        return self.records - self.valid

    def figure_names(self, game: str, *, all_figures: bool) -> list[str]:
        """The figures a game's table shows, in the game's declared order, then any it does
        not declare; only the key ones unless ``all_figures`` (the shared ``captures`` when
        a game declares none)."""
        seen = self.per_game[game].figures
        declared = declared_figures(game)
        names = [name for name in declared if name in seen]
        names += sorted(name for name in seen if name not in declared)
        if all_figures:
            return names
        keys = [name for name in names if figure_of(game, name).key]
        return keys or [name for name in names if name == "captures"]

    def figure_rows(self, game: str, *, all_figures: bool) -> list[list[Any]]:
        """``[figure, records where it applies, statistic, value]`` rows of one game."""
        tallies = self.per_game[game].figures
        rows = []
        for name in self.figure_names(game, all_figures=all_figures):
            kind = figure_of(game, name).kind
            rows.append([name, tallies[name].records, SUMMARIZED_AS[kind],
                         tallies[name].summary(kind)])
        return rows

    def tables(self, *, all_figures: bool = False) -> list[Table]:
        tables = [Table("Records", ["records", "valid", "invalid", "unreadable inputs"],
                        [[self.records, self.valid, self.invalid, self.io_errors]])]
        tables.append(Table("Diagnostics by code", ["code", "severity", "count"],
                            [[code, severity, count] for (code, severity), count
                             in sorted(self.codes.items())]))
        tables.append(Table("Games", ["game", "records", "valid", "invalid", "mean plies",
                                      "max plies"],
                            [[game, totals.records, totals.valid,
                              totals.records - totals.valid,
                              totals.plies.summary(FigureKind.COUNT), totals.plies.high]
                             for game, totals in sorted(self.per_game.items())]))
        tables.append(Table("Results", ["game", "result", "records"],
                            [[game, result, count] for (game, result), count
                             in sorted(self.results.items())]))
        tables.append(Table("How games ended", ["game", "end", "records"],
                            [[game, end, count] for (game, end), count
                             in sorted(self.ends.items())]))
        tables.append(Table("Length (plies)", ["plies", "records"],
                            [[label, self.lengths[label]] for label in LENGTH_LABELS
                             if self.lengths[label]]))
        if self.openings:
            tables.append(Table("Openings", ["game", "opening", "records"],
                                [[game, name, count] for (game, name), count in sorted(
                                    self.openings.items(), key=lambda i: (i[0][0], -i[1],
                                                                          i[0][1]))]))
        for game in sorted(self.per_game):
            rows = self.figure_rows(game, all_figures=all_figures)
            if rows:
                title = "Figures" if all_figures else "Key figures"
                tables.append(Table(f"{title}: {game}",
                                    ["figure", "records", "summary", "value"], rows))
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
