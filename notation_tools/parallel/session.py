"""A whole analysis run as a Python user (or ``notation-tools analyze``) starts it: where the
records are replayed (this process, a pool of worker processes, or a Dask cluster) and whether
a results database keeps them (inputs it holds unchanged are read back, not replayed again):
``for report in run(paths, Settings(), jobs=2, database="results.sqlite"): ...``.

Does not print.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from notation_tools.parallel.batch import RecordReport, Settings, iter_reports
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.sources import ReadProgress

if TYPE_CHECKING:
    from notation_tools.storage.database import ResultsDatabase


@dataclasses.dataclass
class Session:
    """An open run: its settings, its executor and its results database, if any."""

    settings: Settings
    jobs: int = 1
    """Worker processes of the local pool (1: replay in this process)."""
    client: Any = None
    """The Dask client of a cluster, which then replays in place of the pool."""
    database: ResultsDatabase | None = None
    overrides: str | None = None
    """The run's ``--game``/``--rules`` as the database records them: an input stored under
    other overrides is replayed again."""

    def reports(self, paths: list[str], *, stdin: Any = None,
                progress: ReadProgress | None = None) -> Iterator[RecordReport | Diagnostic]:
        """Every report of ``paths`` (and the diagnostics of inputs that cannot be read), in
        input order; with a database, what it holds of unchanged inputs and the rest replayed
        and stored as it arrives."""

        def replayed(files: list[str]) -> Iterator[RecordReport | Diagnostic]:
            return iter_reports(files, self.settings, jobs=self.jobs, stdin=stdin,
                                progress=progress, cluster=self.client)

        if self.database is None:
            return replayed(paths)
        from notation_tools.storage.database import analyze_into

        return analyze_into(self.database, paths, self.settings, analyze=replayed,
                            overrides=self.overrides)


@contextlib.contextmanager
def open_session(settings: Settings, *, jobs: int = 1, scheduler: str | None = None,
                 workers: int | None = None, database: str | None = None,
                 overrides: str | None = None) -> Iterator[Session]:
    """A :class:`Session` replaying in ``jobs`` local processes, or on the Dask cluster
    ``scheduler`` names (``tcp://HOST:PORT``, or ``local`` for ``workers`` local processes),
    keeping results in the SQLite ``database`` when given; closed again on exit.

    Raises :class:`~notation_tools.parallel.distributed.ClusterError` when the cluster cannot
    be reached and :class:`~notation_tools.storage.database.DatabaseError` when the database
    cannot be opened (the cluster is reached first)."""
    with contextlib.ExitStack() as stack:
        client = None
        if scheduler is not None:
            from notation_tools.parallel.distributed import connect

            client = stack.enter_context(connect(scheduler, workers=workers))
        results = None
        if database is not None:
            # sqlite3 and the database code are loaded only for a run that keeps results
            from notation_tools.storage.database import ResultsDatabase

            results = stack.enter_context(ResultsDatabase(database))
        yield Session(settings, jobs, client, results, overrides)


def run(paths: list[str], settings: Settings, *, jobs: int = 1, scheduler: str | None = None,
        workers: int | None = None, database: str | None = None, overrides: str | None = None,
        stdin: Any = None,
        progress: ReadProgress | None = None) -> Iterator[RecordReport | Diagnostic]:
    """The reports of ``paths`` (see :meth:`Session.reports`) from a session opened for this
    run alone (see :func:`open_session`)."""
    with open_session(settings, jobs=jobs, scheduler=scheduler, workers=workers,
                      database=database, overrides=overrides) as session:
        yield from session.reports(paths, stdin=stdin, progress=progress)
