"""Run replay over many inputs, in one process or several, and sum the reports up.

``iter_reports`` turns the units of :mod:`notation_tools.sources` into :class:`RecordReport`
rows in input order. With ``jobs > 1`` the PGN chunks are parsed and replayed in worker
processes, in batches, while this process only reads and splits the input; memory stays flat
because at most a bounded number of batches is in flight. ``analysis/reports.py`` counts and
writes what the reports say.

Does not print or format; the CLI hands the results to a writer.
"""

from __future__ import annotations

import dataclasses
import itertools
import multiprocessing
from collections.abc import Iterable, Iterator
from typing import Any

from notation_tools.analysis.replay import replay
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Record
from notation_tools.records.pgn import parse_chunk
from notation_tools.analysis.foreign import claim_format, foreign_record, game_suffixes
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
    units = iter_units(paths, stdin=stdin, claim=claim_format, suffixes=game_suffixes())
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


def iter_records(paths: list[str], *, stdin: Any = None) -> Iterator[Record | Diagnostic]:
    """Parsed records (not replayed) and E-IO diagnostics, in input order, in this process."""
    for unit in iter_units(paths, stdin=stdin, claim=claim_format, suffixes=game_suffixes()):
        if isinstance(unit, PgnChunk):
            yield from _records_of(unit)
        elif isinstance(unit, ForeignText):
            yield foreign_record(unit)
        else:
            yield unit
