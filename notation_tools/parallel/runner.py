"""The one runner: batches of work done in this process, in a pool of worker processes, or on
a Dask cluster, the results given back in input order, a bounded number of batches in flight.

What is done to a batch is a :class:`Work`: a function of the batch and a fixed context (the
replay's :class:`~notation_tools.parallel.batch.Settings`, the viewer's output directory…),
both picklable, so the same work runs anywhere. A worker that dies (killed by a signal, out of
memory) costs the run one ``E-WORKER`` diagnostic for the batch that killed it, and the run
goes on; an exception a worker raises becomes an ``E-INTERNAL`` diagnostic for its batch,
unless the work names it as one that ends the run (an output error, no fault of the inputs).

Knows no game, record or file format; does not print.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from notation_tools.records.diagnostics import ERROR, Diagnostic

if TYPE_CHECKING:
    import concurrent.futures

Unit = TypeVar("Unit")
Context = TypeVar("Context")
Result = TypeVar("Result")


@dataclasses.dataclass(frozen=True)
class Work(Generic[Unit, Context, Result]):
    """What is done to every batch: ``function(batch, context)`` gives the batch's results.

    ``function`` is a module-level function (a worker finds it by name) and ``context``
    picklable. ``fatal`` are the exceptions that end the run wherever they are raised; any
    other exception a worker raises is reported as ``E-INTERNAL`` and the run goes on (in
    this process, ``function`` is called directly and decides what it catches itself)."""

    function: Callable[[list[Unit], Context], Sequence[Result]]
    context: Context
    fatal: tuple[type[BaseException], ...] = ()


def run_batches(batches: Iterator[list[Unit]], work: Work[Unit, Context, Result], *,
                jobs: int = 1, cluster: Any = None,
                depth: int = 2) -> Iterator[Result | Diagnostic]:
    """The results of ``work`` on every batch, in input order: in this process when ``jobs``
    is 1 and there is no ``cluster``, else in ``jobs`` worker processes, or on the Dask
    cluster of the client ``cluster``. At most ``depth`` batches per worker are in flight,
    so memory stays flat."""
    if cluster is not None:
        yield from _in_cluster(batches, work, cluster, depth)
    elif jobs <= 1:
        for batch in batches:
            yield from work.function(batch, work.context)
    else:
        yield from _in_workers(batches, work, jobs, depth)


def batches_of(units: Iterable[Unit], size: int) -> Iterator[list[Unit]]:
    """``units`` in lists of ``size`` (the last one shorter)."""
    iterator = iter(units)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def internal_error(unit: object, error: BaseException) -> Diagnostic:
    """``E-INTERNAL`` for ``unit``, whose work raised ``error``."""
    path = getattr(unit, "path", "-")
    return Diagnostic("E-INTERNAL", f"internal error reading {path} "
                      f"({type(error).__name__}: {error}); please report this input", path, 0, 0)


def worker_died(batch: Sequence[object]) -> Diagnostic:
    """``E-WORKER`` for ``batch``, which killed a worker process twice."""
    path = getattr(batch[0], "path", "-")
    return Diagnostic("E-WORKER", f"a worker process died twice while replaying {len(batch)} "
                      f"inputs from {path} on: they are not reported", path, 0, 0,
                      severity=ERROR)


def _fill(flight: collections.deque[tuple[list[Unit], Any]], batches: Iterator[list[Unit]],
          limit: int, submit: Callable[[list[Unit]], Any]) -> None:
    """Submit batches until ``limit`` are in flight or none is left, each kept beside its
    future, in input order."""
    while len(flight) < limit:
        batch = next(batches, None)
        if batch is None:
            break
        flight.append((batch, submit(batch)))


# --------------------------------------------------------------------------------------------
# A pool of worker processes

_worker_work: Work[Any, Any, Any] | None = None


def _init_worker(work: Work[Any, Any, Any]) -> None:
    global _worker_work  # noqa: PLW0603 - one value per worker process, set once
    _worker_work = work


def _work_in_worker(batch: list[Any]) -> Sequence[Any]:
    assert _worker_work is not None  # set by the pool's initializer
    return _worker_work.function(batch, _worker_work.context)


def _pool(work: Work[Any, Any, Any], jobs: int) -> concurrent.futures.ProcessPoolExecutor:
    # Imported here: a run in one process (the default) never needs them, and they cost
    # about a fiftieth of a small file's validate.
    import concurrent.futures
    import multiprocessing

    # fork where the platform has it: the workers start at once with the games loaded.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return concurrent.futures.ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context(method), initializer=_init_worker,
        initargs=(work,))


def _in_workers(batches: Iterator[list[Unit]], work: Work[Unit, Context, Result], jobs: int,
                depth: int) -> Iterator[Result | Diagnostic]:
    from concurrent.futures.process import BrokenProcessPool

    pool = _pool(work, jobs)
    # (batch, future): in input order, at most depth * jobs in flight
    flight: collections.deque[tuple[list[Unit], concurrent.futures.Future[Sequence[Result]]]]
    flight = collections.deque()
    done = False
    try:
        while True:
            _fill(flight, batches, depth * jobs, lambda batch: pool.submit(_work_in_worker, batch))
            if not flight:
                done = True
                return
            batch, future = flight.popleft()
            try:
                yield from future.result()
            except BrokenProcessPool:
                # A worker died, and every batch in flight is lost with the pool; which one
                # killed it is unknown. Each is tried again alone, in order, so that only the
                # batch that kills a worker a second time is reported.
                pool.shutdown(wait=False, cancel_futures=True)
                suspects = [batch, *(b for b, _ in flight)]
                flight.clear()
                for suspect in suspects:
                    yield from _alone(suspect, work)
                pool = _pool(work, jobs)
            except work.fatal:
                raise  # an output error ends the run; it is no fault of these inputs
            except Exception as error:  # noqa: BLE001 - e.g. MemoryError in the worker
                yield internal_error(batch[0], error)
    finally:
        # Idle workers are waited for: a pool left running at exit races the interpreter's
        # own shutdown of it ("OSError: Bad file descriptor" from concurrent.futures' exit
        # hook). Only a run cut short (the caller stopped, an error) leaves without waiting.
        pool.shutdown(wait=done, cancel_futures=True)


def _alone(batch: list[Unit], work: Work[Unit, Context, Result]) -> Iterator[Result | Diagnostic]:
    """A batch done once more in a worker of its own; ``E-WORKER`` if that dies too."""
    from concurrent.futures.process import BrokenProcessPool

    solo = _pool(work, 1)
    results: Sequence[Result | Diagnostic]
    try:
        results = solo.submit(_work_in_worker, batch).result()
    except BrokenProcessPool:
        results = [worker_died(batch)]
    except work.fatal:
        raise
    except Exception as error:  # noqa: BLE001 - e.g. MemoryError in the worker
        results = [internal_error(batch[0], error)]
    finally:
        solo.shutdown(wait=False, cancel_futures=True)
    yield from results


# --------------------------------------------------------------------------------------------
# A Dask cluster


def _in_cluster(batches: Iterator[list[Unit]], work: Work[Unit, Context, Result], client: Any,
                depth: int) -> Iterator[Result | Diagnostic]:
    """The results of ``batches`` done on ``client``'s cluster, in input order; at most
    ``depth`` batches per worker thread are in flight."""
    from dask.distributed import KilledWorker

    threads = sum(client.nthreads().values()) or 1
    flight: collections.deque[tuple[list[Unit], Any]] = collections.deque()
    try:
        while True:
            _fill(flight, batches, depth * threads,
                  lambda batch: client.submit(work.function, batch, work.context, pure=False))
            if not flight:
                return
            batch, future = flight.popleft()
            try:
                yield from future.result()
            except KilledWorker:
                # Dask has already tried the batch on other workers: it kills them.
                yield worker_died(batch)
            except work.fatal:
                raise  # an output error ends the run; it is no fault of these inputs
            except Exception as error:  # noqa: BLE001 - a fault must not end the run
                yield internal_error(batch[0], error)
    finally:
        for _, future in flight:
            future.cancel()
