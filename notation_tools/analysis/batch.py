"""Run replay over many inputs, in one process or several, and sum the reports up.

``iter_reports`` turns the units of :mod:`notation_tools.sources` into :class:`RecordReport`
rows in input order. With ``jobs > 1`` the PGN chunks are parsed and replayed in worker
processes, in batches, while this process only reads and splits the input; memory stays flat
because at most a bounded number of batches is in flight. ``analysis/reports.py`` counts and
writes what the reports say.

Does not print or format; the CLI hands the results to a writer.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import itertools
import multiprocessing
from collections.abc import Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from notation_tools.analysis.foreign import claim_format, foreign_record, game_suffixes
from notation_tools.analysis.replay import replay
from notation_tools.limits import DEFAULT, Limits
from notation_tools.records.diagnostics import ERROR, NOTE, Diagnostic
from notation_tools.records.model import Record
from notation_tools.records.pgn import parse_chunk
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
    """How every record is read and replayed: the ``--game``/``--rules`` overrides, whether
    to gather statistics, the limits, and the text encoding (``None``: UTF-8 unless a
    byte-order mark says otherwise)."""

    game: str | None = None
    rules: str | None = None
    collect_stats: bool = False
    limits: Limits = DEFAULT
    encoding: str | None = None


def capped(diagnostics: list[Diagnostic], limits: Limits) -> list[Diagnostic]:
    """At most ``limits.max_diagnostics`` of a record's diagnostics (sorted by place), the
    first error always among them, and one note saying how many more there were."""
    diagnostics.sort(key=lambda d: (d.line, d.column))
    limit = limits.max_diagnostics
    if len(diagnostics) <= limit:
        return diagnostics
    kept, rest = diagnostics[:limit], diagnostics[limit:]
    first_error = next((d for d in rest if d.is_error), None)
    if first_error is not None and not any(d.is_error for d in kept):
        kept[-1] = first_error
    last = kept[-1]
    kept.append(Diagnostic("I-MORE-DIAGNOSTICS", f"{len(diagnostics) - limit} more diagnostics "
                           f"not shown ({limits.describe('max_diagnostics')})", last.path,
                           last.line, last.column, severity=NOTE, record=last.record))
    return kept


def report_record(record: Record, settings: Settings) -> RecordReport:
    """Replay one record and keep what the reports need."""
    result = replay(record, game_name=settings.game, rules_text=settings.rules,
                    collect_stats=settings.collect_stats)
    record.diagnostics = capped(record.diagnostics, settings.limits)
    figures = dict(result.stats)
    end = result.outcome.reason if result.outcome is not None else None
    return RecordReport(record.path, record.index, record.line,
                        result.game.id if result.game else None,
                        result.rules.describe() if result.rules else None,
                        result.plies, result.result, end, record.diagnostics, figures)


def records_of_chunk(unit: PgnChunk, limits: Limits = DEFAULT) -> Iterator[Record]:
    """The record(s) of one PGN chunk, the faults of its raw text given to the first."""
    first = True
    for record in parse_chunk(unit.path, unit.chunk, unit.index, limits=limits):
        if first and unit.problems:
            record.diagnostics[:0] = [dataclasses.replace(d, record=record.index)
                                      for d in unit.problems]
        first = False
        yield record


def _work(batch: list[Unit], settings: Settings) -> list[RecordReport | Diagnostic]:
    out: list[RecordReport | Diagnostic] = []
    for unit in batch:
        try:
            if isinstance(unit, Diagnostic):
                out.append(unit)
            elif isinstance(unit, PgnChunk):
                out.extend(report_record(record, settings)
                           for record in records_of_chunk(unit, settings.limits))
            elif isinstance(unit, ForeignText):
                out.append(report_record(foreign_record(unit), settings))
            else:
                out.append(report_record(unit, settings))
        except Exception as error:  # noqa: BLE001 - a fault of ours must not end the run
            out.append(_internal(unit, error))
    return out


def _internal(unit: Unit, error: BaseException) -> Diagnostic:
    path = getattr(unit, "path", "-")
    return Diagnostic("E-INTERNAL", f"internal error reading {path} "
                      f"({type(error).__name__}: {error}); please report this input", path, 0, 0)


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


def units_of(paths: list[str], settings: Settings, stdin: Any = None) -> Iterator[Unit]:
    """The units of ``paths`` read as ``settings`` say, with every game's own file formats."""
    return iter_units(paths, stdin=stdin, claim=claim_format, suffixes=game_suffixes(),
                      limits=settings.limits, encoding=settings.encoding)


def iter_reports(paths: list[str], settings: Settings, *, jobs: int = 1,
                 batch_size: int = 64, stdin: Any = None) -> Iterator[RecordReport | Diagnostic]:
    """Reports for every record of ``paths`` (and E-IO diagnostics), in input order.

    With ``jobs > 1`` batches of records are replayed in worker processes, a bounded number
    in flight. A worker that dies (killed by a signal, out of memory) is replaced and its
    batch tried once more; if that fails too, the batch is reported as ``E-WORKER`` and the
    run goes on.
    """
    units = units_of(paths, settings, stdin)
    if jobs <= 1:
        for batch in _batches(units, batch_size):
            yield from _work(batch, settings)
        return
    yield from _in_workers(_batches(units, batch_size), settings, jobs)


def _pool(settings: Settings, jobs: int) -> concurrent.futures.ProcessPoolExecutor:
    # fork where the platform has it: the workers start at once with the games loaded.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return concurrent.futures.ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context(method), initializer=_init_worker,
        initargs=(settings,))


def _in_workers(batches: Iterator[list[Unit]], settings: Settings,
                jobs: int) -> Iterator[RecordReport | Diagnostic]:
    pool = _pool(settings, jobs)
    # (batch, future, attempts): in input order, at most 2 * jobs in flight
    flight: collections.deque[tuple[list[Unit], Any, int]] = collections.deque()
    try:
        while True:
            while len(flight) < 2 * jobs:
                batch = next(batches, None)
                if batch is None:
                    break
                flight.append((batch, pool.submit(_work_in_worker, batch), 1))
            if not flight:
                return
            batch, future, attempts = flight.popleft()
            try:
                yield from future.result()
            except BrokenProcessPool:
                # A worker died: every batch in flight is lost with the pool. Start a new
                # one and send them again, the one that was running once more at most.
                pool.shutdown(wait=False, cancel_futures=True)
                pool = _pool(settings, jobs)
                others = [(b, a) for b, _, a in flight]
                flight.clear()
                if attempts >= 2:
                    yield _worker_died(batch)
                else:
                    flight.append((batch, pool.submit(_work_in_worker, batch), attempts + 1))
                for again, tries in others:
                    flight.append((again, pool.submit(_work_in_worker, again), tries))
            except Exception as error:  # noqa: BLE001 - e.g. MemoryError in the worker
                yield _internal(batch[0], error)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _worker_died(batch: list[Unit]) -> Diagnostic:
    path = getattr(batch[0], "path", "-")
    return Diagnostic("E-WORKER", f"a worker process died twice while replaying {len(batch)} "
                      f"inputs from {path} on: they are not reported", path, 0, 0,
                      severity=ERROR)


def iter_records(paths: list[str], *, stdin: Any = None,
                 settings: Settings = Settings()) -> Iterator[Record | Diagnostic]:
    """Parsed records (not replayed) and E-IO diagnostics, in input order, in this process."""
    for unit in units_of(paths, settings, stdin):
        if isinstance(unit, PgnChunk):
            yield from records_of_chunk(unit, settings.limits)
        elif isinstance(unit, ForeignText):
            yield foreign_record(unit)
        else:
            yield unit
