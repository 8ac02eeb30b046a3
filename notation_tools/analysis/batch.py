"""Run replay over many inputs, in one process or several, and sum the reports up.

``iter_reports`` turns the units of :mod:`notation_tools.sources` into :class:`RecordReport`
rows in input order. With ``jobs > 1`` the PGN chunks are parsed and replayed in worker
processes, in batches, while this process only reads and splits the input; memory stays flat
because at most a bounded number of batches is in flight. :class:`Summary` folds reports into
the tables ``analyze`` prints.

Does not print or format; the CLI hands the results to a writer.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import multiprocessing
from collections.abc import Iterable, Iterator
from typing import Any

from notation_tools.analysis.replay import replay
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Record
from notation_tools.records.pgn import parse_chunk
from notation_tools.render.tables import Table
from notation_tools.analysis.foreign import claim_format, foreign_record
from notation_tools.sources import ForeignText, PgnChunk, Unit, iter_units


@dataclasses.dataclass
class RecordReport:
    """What one record's replay found, small enough to send between processes."""

    path: str
    index: int
    line: int
    game: str | None
    rules: str | None
    plies: int
    result: str | None
    end: str | None
    """The engine's end reason (``all-pieces-captured``), or ``None`` when unfinished."""
    diagnostics: list[Diagnostic]
    figures: dict[str, Any]

    @property
    def is_valid(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    def row(self) -> dict[str, Any]:
        """The common columns then the game's own figures, for ``stats``."""
        errors = sum(1 for d in self.diagnostics if d.is_error)
        row = {"path": self.path, "record": self.index, "game": self.game, "rules": self.rules,
               "valid": self.is_valid, "errors": errors, "plies": self.plies,
               "result": self.result, "end": self.end or ""}
        for name, value in self.figures.items():
            row.setdefault(name, value)  # a game's figure never hides a common column
        return row


@dataclasses.dataclass(frozen=True)
class Settings:
    """What every record is replayed with: the ``--game``/``--rules`` overrides."""

    game: str | None = None
    rules: str | None = None
    collect_stats: bool = False


def report_record(record: Record, settings: Settings) -> RecordReport:
    """Replay one record and keep what the reports need."""
    result = replay(record, game_name=settings.game, rules_text=settings.rules,
                    collect_stats=settings.collect_stats)
    record.diagnostics.sort(key=lambda d: (d.line, d.column))
    figures = dict(result.stats)
    end = result.outcome.reason if result.outcome is not None else None
    return RecordReport(record.path, record.index, record.line,
                        result.game.id if result.game else None,
                        result.rules.describe() if result.rules else None,
                        result.plies, result.result, end, record.diagnostics, figures)


def _records_of(unit: PgnChunk) -> Iterator[Record]:
    first = True
    for record in parse_chunk(unit.path, unit.chunk, unit.index):
        if first and unit.problems:
            record.diagnostics[:0] = [dataclasses.replace(d, record=record.index)
                                      for d in unit.problems]
        first = False
        yield record


def _work(batch: list[Unit], settings: Settings) -> list[RecordReport | Diagnostic]:
    out: list[RecordReport | Diagnostic] = []
    for unit in batch:
        if isinstance(unit, Diagnostic):
            out.append(unit)
        elif isinstance(unit, PgnChunk):
            out.extend(report_record(record, settings) for record in _records_of(unit))
        elif isinstance(unit, ForeignText):
            out.append(report_record(foreign_record(unit), settings))
        else:
            out.append(report_record(unit, settings))
    return out


_worker_settings = Settings()


def _init_worker(settings: Settings) -> None:
    global _worker_settings  # noqa: PLW0603 - one value per worker process, set once
    _worker_settings = settings


def _work_in_worker(batch: list[Unit]) -> list[RecordReport | Diagnostic]:
    return _work(batch, _worker_settings)


def _batches(units: Iterable[Unit], size: int) -> Iterator[list[Unit]]:
    iterator = iter(units)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def iter_reports(paths: list[str], settings: Settings, *, jobs: int = 1,
                 batch_size: int = 64, stdin: Any = None) -> Iterator[RecordReport | Diagnostic]:
    """Reports for every record of ``paths`` (and E-IO diagnostics), in input order."""
    units = iter_units(paths, stdin=stdin, claim=claim_format)
    if jobs <= 1:
        for batch in _batches(units, batch_size):
            yield from _work(batch, settings)
        return
    # fork where the platform has it: the workers start at once with the games loaded.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    with context.Pool(jobs, initializer=_init_worker, initargs=(settings,)) as pool:
        # imap keeps the order and pulls batches lazily, a few ahead of the consumer.
        for reports in pool.imap(_work_in_worker, _batches(units, batch_size), chunksize=1):
            yield from reports


# ---------------------------------------------------------------------------------------------
# Summary

LENGTH_BINS = ((0, 0), (1, 10), (11, 25), (26, 50), (51, 100), (101, 200), (201, 500),
               (501, None))


def _bin_label(low: int, high: int | None) -> str:
    if high is None:
        return f"{low}+"
    return str(low) if low == high else f"{low}-{high}"


class Summary:
    """Running totals over record reports, for ``analyze``."""

    def __init__(self) -> None:
        self.records = 0
        self.valid = 0
        self.io_errors = 0
        self.codes: collections.Counter[tuple[str, str]] = collections.Counter()
        self.results: collections.Counter[tuple[str, str]] = collections.Counter()
        self.lengths: collections.Counter[str] = collections.Counter()
        self.ends: collections.Counter[tuple[str, str]] = collections.Counter()
        self.per_game: dict[str, dict[str, Any]] = {}

    def add(self, item: RecordReport | Diagnostic) -> None:
        if isinstance(item, Diagnostic):
            self.io_errors += 1
            self.codes[(item.code, item.severity)] += 1
            return
        self.records += 1
        self.valid += item.is_valid
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


def iter_records(paths: list[str], *, stdin: Any = None) -> Iterator[Record | Diagnostic]:
    """Parsed records (not replayed) and E-IO diagnostics, in input order, in this process."""
    for unit in iter_units(paths, stdin=stdin, claim=claim_format):
        if isinstance(unit, PgnChunk):
            yield from _records_of(unit)
        elif isinstance(unit, ForeignText):
            yield foreign_record(unit)
        else:
            yield unit
