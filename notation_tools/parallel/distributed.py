"""Analysis on a Dask distributed cluster, for archives that outgrow one machine.

This process reads and splits the inputs (files, archive members, records) as for ``--jobs``;
batches of records are replayed by the cluster's workers (the runner of
:mod:`notation_tools.parallel.runner`, given a Dask client), a bounded number in flight, and the
reports come back in input order, so the database, the summary and every output are the same
as a local run's. Workers need notation-tools installed; with ``Settings.parquet`` each worker
writes its batches' results to the shared directory itself.

Dask is an optional extra (``pip install 'notation-tools[dask]'``). Does not print.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from notation_tools.limits import usable_cores
from notation_tools.parallel.batch import RecordReport, Settings, iter_reports
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.sources import ReadProgress

INSTALL_HINT = "pip install 'notation-tools[dask]'"


class ClusterError(RuntimeError):
    """Dask is not installed, or the scheduler cannot be reached; the message says what to do."""


@contextlib.contextmanager
def connect(scheduler: str, *, workers: int | None = None,
            timeout: str = "10s") -> Iterator[Any]:
    """A Dask client for ``scheduler``: ``tcp://HOST:PORT`` (a running scheduler), or
    ``local`` for a cluster of worker processes on this machine (``workers`` of them, default
    one per core), closed again on exit."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(f"--scheduler needs Dask, which is not installed: "
                           f"{INSTALL_HINT}") from None
    if scheduler == "local":
        if workers is None:
            workers = usable_cores()
        # Dask's constructors carry no annotations: the calls are untyped.
        with LocalCluster(n_workers=workers, threads_per_worker=1,
                          processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            yield client
        return
    try:
        client = Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
    with client:
        yield client


def iter_reports_on(client: Any, paths: list[str], settings: Settings, *,
                    batch_size: int = 64, stdin: Any = None,
                    progress: ReadProgress | None = None) -> Iterator[RecordReport | Diagnostic]:
    """What :func:`notation_tools.parallel.batch.iter_reports` gives, replayed on the Dask
    cluster of ``client``: the same reports in the same order."""
    return iter_reports(paths, settings, batch_size=batch_size, stdin=stdin, progress=progress,
                        cluster=client)
