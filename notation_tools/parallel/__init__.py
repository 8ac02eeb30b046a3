"""Running work in parallel: the one runner (:mod:`~notation_tools.parallel.runner`: batches
done in this process, in a pool of worker processes that survives a worker's death, or on a
Dask cluster), the replay's work for it (:mod:`~notation_tools.parallel.batch`: record reports
for analyze, validate and stats), the Dask connection (:mod:`~notation_tools.parallel.distributed`)
and whole runs with their executor and results database (:mod:`~notation_tools.parallel.session`:
:func:`run`). It reads inputs through ``sources`` and replays them through ``analysis``; it
prints nothing, and writes only what a run asks for (a results database, Parquet parts)."""

from notation_tools.parallel.batch import RecordReport, Settings, iter_reports
from notation_tools.parallel.runner import Work, run_batches
from notation_tools.parallel.session import Session, open_session, run

__all__ = ["RecordReport", "Settings", "Session", "Work", "iter_reports", "open_session", "run",
           "run_batches"]
