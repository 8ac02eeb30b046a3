"""Run replay over many inputs, in one process or several, and sum the reports up.

``iter_reports`` turns the units of :mod:`notation_tools.sources` into :class:`RecordReport`
rows in input order. With ``jobs > 1`` (or a Dask cluster) the PGN chunks are parsed and
replayed by the runner (:mod:`notation_tools.parallel.runner`) in worker processes, in
batches, while this process only reads and splits the input; memory stays flat because at
most a bounded number of batches is in flight. ``analysis/reports.py`` counts and
writes what the reports say.

Does not print or format; the CLI hands the results to a writer.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from notation_tools.analysis.foreign import claim_format, foreign_record, game_suffixes
from notation_tools.analysis.replay import combined, replay
from notation_tools.limits import DEFAULT, Limits
from notation_tools.parallel.runner import Work, batches_of, internal_error, run_batches
from notation_tools.records.diagnostics import NOTE, Diagnostic
from notation_tools.records.model import Record
from notation_tools.records.pgn import parse_chunk
from notation_tools.sources import ForeignText, PgnChunk, ReadProgress, Unit, iter_units

if TYPE_CHECKING:
    from notation_tools.analysis.position_keys import IndexedPositions


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
    offset: int = -1
    """The byte offset of the record in its file or archive member, or -1 when unknown."""
    digest: str | None = None
    """The main line's identity (``replay(digest=True)``), when asked for."""
    tags: list[tuple[str, str]] | None = None
    """Every tag of the record, when asked for."""
    opening: str | None = None
    """The name of the deepest catalogue line the main line begins with, when asked for
    (:mod:`notation_tools.analysis.openings`)."""
    positions: IndexedPositions | None = None
    """The keys of the positions replay passed through, when the index is asked for."""

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
    details: bool = False
    """Keep what a results database stores beside the reports: the record's tags and its
    main line's digest."""
    parquet: str | None = None
    """A directory where each batch's results are written as Parquet files, by the process
    that replayed the batch (:mod:`notation_tools.storage.parquet`)."""
    parquet_run: str = ""
    """The run's name in the Parquet parts' names: no run overwrites another's parts."""
    openings: tuple[str, ...] | None = None
    """Name every record's opening from the shipped catalogues and these catalogue files
    (``None``: do not)."""
    index: str | None = None
    """Key the positions for the position index: ``positions`` (main lines) or
    ``variations`` (variations too); ``None``: no index."""


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
    # Imported here, as the reports need them: a command that only reads records (html)
    # does not pay for them at its start.
    from notation_tools.analysis.openings import OpeningMatcher, cached_catalogue
    from notation_tools.analysis.position_keys import PositionCollector
    from notation_tools.analysis.square_runs import SquareCollector

    matcher = OpeningMatcher(cached_catalogue(settings.openings)) \
        if settings.openings is not None else None
    collector = (SquareCollector() if settings.index == "squares" else
                 PositionCollector(variations=settings.index == "variations")) \
        if settings.index else None
    # The collector first: it never stops the replay, so it answers the per-ply question of
    # whether to stop at once.
    result = replay(record, game_name=settings.game, rules_text=settings.rules,
                    collect_stats=settings.collect_stats, digest=settings.details,
                    visitor=combined(collector, matcher))
    record.diagnostics = capped(record.diagnostics, settings.limits)
    figures = dict(result.stats)
    end = result.outcome.reason if result.outcome is not None else None
    return RecordReport(record.path, record.index, record.line,
                        result.game.id if result.game else None,
                        result.rules.describe() if result.rules else None,
                        result.plies, result.result, end, record.diagnostics, figures,
                        offset=record.offset, digest=result.digest,
                        tags=[(t.name, t.value) for t in record.tags.entries()] if settings.details
                        else None,
                        opening=matcher.opening.name if matcher is not None
                        and matcher.opening is not None else None,
                        positions=collector.finish(result.position, result.plies, result.complete)
                        if collector is not None else None)


def records_of_chunk(unit: PgnChunk, limits: Limits = DEFAULT) -> Iterator[Record]:
    """The record(s) of one PGN chunk, the faults of its raw text given to the first."""
    first = True
    for record in parse_chunk(unit.path, unit.chunk, unit.index, limits=limits):
        if first:
            record.offset = unit.offset
            if unit.problems:
                record.diagnostics[:0] = [dataclasses.replace(d, record=record.index)
                                          for d in unit.problems]
        first = False
        yield record


def report_batch(batch: list[Unit], settings: Settings) -> list[RecordReport | Diagnostic]:
    """The reports of a batch of units (the runner's work for analyze, validate and stats):
    a unit that raises is reported as ``E-INTERNAL`` and the others go on. With
    ``settings.parquet`` the batch's results are also written there, by this process."""
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
            out.append(internal_error(unit, error))
    if settings.parquet is not None and batch:
        from notation_tools.storage.parquet import write_part  # pyarrow: the dask extra

        write_part(settings.parquet, batch, out, settings.parquet_run)
    return out


def units_of(paths: list[str], settings: Settings, stdin: Any = None,
             progress: ReadProgress | None = None) -> Iterator[Unit]:
    """The units of ``paths`` read as ``settings`` say, with every game's own file formats."""
    return iter_units(paths, stdin=stdin, claim=claim_format, suffixes=game_suffixes,
                      limits=settings.limits, encoding=settings.encoding, progress=progress)


def iter_reports(paths: list[str], settings: Settings, *, jobs: int = 1,
                 batch_size: int = 64, stdin: Any = None, progress: ReadProgress | None = None,
                 cluster: Any = None) -> Iterator[RecordReport | Diagnostic]:
    """Reports for every record of ``paths`` (and E-IO diagnostics), in input order.

    The work is split by records, not by files: this process reads and splits the inputs
    (every file, archive member and record), and batches of ``batch_size`` records are
    parsed and replayed by :func:`~notation_tools.parallel.runner.run_batches` in ``jobs``
    worker processes, or on the Dask cluster of the client ``cluster``, a bounded number in
    flight, so one large file or archive uses every core. A worker that dies (killed by a
    signal, out of memory) is replaced and the batches it took down are tried again, each
    alone; one that kills a worker a second time is reported as ``E-WORKER`` and the run
    goes on. A Parquet part that cannot be written ends the run (:class:`ParquetWriteError`).
    """
    from notation_tools.storage.parquet import ParquetWriteError

    units = units_of(paths, settings, stdin, progress)
    work = Work(report_batch, settings, fatal=(ParquetWriteError,))
    yield from run_batches(batches_of(units, batch_size), work, jobs=jobs, cluster=cluster)


def iter_records(paths: list[str], *, stdin: Any = None, settings: Settings = Settings(),
                 progress: ReadProgress | None = None) -> Iterator[Record | Diagnostic]:
    """Parsed records (not replayed) and E-IO diagnostics, in input order, in this process."""
    return records_of_units(units_of(paths, settings, stdin, progress), settings.limits)


def records_of_units(units: Iterable[Unit],
                     limits: Limits = DEFAULT) -> Iterator[Record | Diagnostic]:
    """The parsed records (not replayed) of ``units``, and the diagnostics among them."""
    for unit in units:
        if isinstance(unit, PgnChunk):
            yield from records_of_chunk(unit, limits)
        elif isinstance(unit, ForeignText):
            yield foreign_record(unit)
        else:
            yield unit
