"""Results as a Parquet dataset: what the SQLite database holds, written in parallel.

``analyze --parquet DIR`` makes each process that replays a batch of records write that
batch's results as one file per table: ``DIR/records/part-<id>.parquet``,
``DIR/diagnostics/...``, ``DIR/figures/...`` and ``DIR/tags/...``. A part's name comes from
the run and the batch's first record, so a batch replayed again (after a worker died)
replaces its files instead of adding to them, and no run overwrites another's parts. A run
writes into an empty directory; with ``--append`` it adds to a dataset after
:func:`remove_inputs` has taken out the rows of the inputs it analyses again, so no record is
ever there twice. A part that cannot be written is :class:`ParquetWriteError`, which ends the
run (the records' results are not misreported as unreadable inputs). Rows join on ``source`` and ``record_index``; the columns are the
SQLite tables' (docs/database.md). Reading the dataset back, e.g. with pandas or DuckDB:
``pandas.read_parquet("DIR/records")``.

Needs pyarrow (the ``dask`` extra). Does not print.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Sequence
from typing import Any

from notation_tools.records.diagnostics import Diagnostic
from notation_tools.sources import encodable

TABLES = ("records", "diagnostics", "figures", "tags")
_COLUMNS: dict[str, list[tuple[str, str]]] = {
    "records": [("source", "string"), ("record_index", "int64"), ("line", "int64"),
                ("byte_offset", "int64"), ("game", "string"), ("rules", "string"),
                ("plies", "int64"), ("result", "string"), ("end_reason", "string"),
                ("valid", "bool_"), ("errors", "int64"), ("warnings", "int64"),
                ("movetext_digest", "string"), ("opening", "string")],
    "diagnostics": [("source", "string"), ("record_index", "int64"), ("code", "string"),
                    ("severity", "string"), ("path", "string"), ("line", "int64"),
                    ("col", "int64"), ("ply", "int64"), ("number", "int64"),
                    ("side", "string"), ("move", "string"), ("message", "string"),
                    ("rule", "string")],
    "figures": [("source", "string"), ("record_index", "int64"), ("name", "string"),
                ("value", "float64"), ("text", "string")],
    "tags": [("source", "string"), ("record_index", "int64"), ("position", "int64"),
             ("name", "string"), ("value", "string")],
}
"""Every table's columns and types: the same in every part, so the parts read as one
dataset."""


class ParquetUnavailable(RuntimeError):
    """pyarrow is not installed."""


class ParquetWriteError(OSError):
    """A part of the dataset cannot be written (a full disk, no permission): an output error
    that ends the run, raised through worker processes and the cluster as it is."""


class DatasetNotEmpty(ValueError):
    """``--parquet DIR`` names a directory that holds files already, and ``--append`` was not
    given."""


def check_available() -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise ParquetUnavailable("--parquet needs pyarrow, which is not installed: "
                                 "pip install 'notation-tools[dask]'") from None


def _part_name(batch: Sequence[Any], run: str) -> str:
    first = batch[0]
    key = f"{run}\n{getattr(first, 'path', '-')}\n{getattr(first, 'index', 0)}\n{len(batch)}"
    return "part-" + hashlib.blake2b(key.encode("utf-8", "surrogatepass"),
                                     digest_size=10).hexdigest()


def _diagnostic_row(source: str, index: int | None, d: Diagnostic) -> dict[str, Any]:
    return {"source": source, "record_index": index, "code": d.code, "severity": d.severity,
            "path": d.path, "line": d.line, "col": d.column, "ply": d.ply, "number": d.number,
            "side": d.side, "move": d.move, "message": d.message, "rule": d.rule}


def rows(items: Sequence[Any]) -> dict[str, list[dict[str, Any]]]:
    """The rows of each table for ``items`` (``batch.RecordReport`` rows and unreadable
    inputs' diagnostics; this module is imported by ``batch``, so it does not import it).
    Texts are stored as UTF-8 can hold them (a lone surrogate escaped)."""
    tables: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
    for item in items:
        if isinstance(item, Diagnostic):
            tables["diagnostics"].append(_diagnostic_row(item.path, None, item))
            continue
        errors = sum(1 for d in item.diagnostics if d.is_error)
        tables["records"].append({
            "source": item.path, "record_index": item.index, "line": item.line,
            "byte_offset": item.offset if item.offset >= 0 else None, "game": item.game,
            "rules": item.rules, "plies": item.plies, "result": item.result,
            "end_reason": item.end, "valid": item.is_valid, "errors": errors,
            "warnings": len(item.diagnostics) - errors, "movetext_digest": item.digest,
            "opening": item.opening})
        tables["diagnostics"].extend(_diagnostic_row(item.path, item.index, d)
                                     for d in item.diagnostics)
        for name, value in item.figures.items():
            number = float(value) if isinstance(value, (int, float)) else None
            tables["figures"].append({"source": item.path, "record_index": item.index,
                                      "name": name, "value": number,
                                      "text": None if number is not None else str(value)})
        tables["tags"].extend({"source": item.path, "record_index": item.index,
                               "position": position, "name": name, "value": value}
                              for position, (name, value) in enumerate(item.tags or ()))
    for table_rows in tables.values():
        for row in table_rows:
            for column, value in row.items():
                if isinstance(value, str):
                    row[column] = encodable(value)
    return tables


def write_part(directory: str, batch: Sequence[Any], items: Sequence[Any],
               run: str = "") -> None:
    """Write one batch's results into the dataset at ``directory``; ``run`` names the run
    (parts of different runs never share a name). Raises :class:`ParquetWriteError`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = _part_name(batch, run)
    for table, table_rows in rows(items).items():
        if not table_rows:
            continue
        folder = os.path.join(directory, table)
        temporary = os.path.join(folder, f".{name}.tmp")
        schema = pa.schema([(column, getattr(pa, kind)()) for column, kind in _COLUMNS[table]])
        try:
            os.makedirs(folder, exist_ok=True)
            pq.write_table(pa.Table.from_pylist(table_rows, schema=schema), temporary)
            os.replace(temporary, os.path.join(folder, f"{name}.parquet"))  # whole or not at all
        except (OSError, pa.ArrowException) as error:
            with contextlib.suppress(OSError):
                os.remove(temporary)
            raise ParquetWriteError(f"cannot write {directory}: {_reason(error)}") from None


def _reason(error: BaseException) -> str:
    return (error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            or type(error).__name__)


def prepare(directory: str, *, append: bool, inputs: Sequence[str]) -> None:
    """Make ``directory`` ready for a run over ``inputs`` (paths as reports show them):
    created when missing; when it holds files, refused (:class:`DatasetNotEmpty`) unless
    ``append``, and then the rows of ``inputs`` are taken out of its parts
    (:func:`remove_inputs`). Raises :class:`ParquetWriteError` when it cannot be changed."""
    try:
        os.makedirs(directory, exist_ok=True)
        with os.scandir(directory) as entries:
            occupied = any(True for _ in entries)
    except OSError as error:
        raise ParquetWriteError(f"cannot write {directory}: {_reason(error)}") from None
    if not occupied:
        return
    if not append:
        raise DatasetNotEmpty(f"{directory} is not empty: give --append to add this run's "
                              "inputs to its dataset (their earlier rows are replaced), or "
                              "name an empty or new directory")
    remove_inputs(directory, inputs)


def _of_inputs(source: str | None, inputs: frozenset[str]) -> bool:
    """Whether a row's ``source`` (a file, or ``archive:member``) comes from ``inputs``."""
    if source is None:
        return False
    if source in inputs:
        return True
    head = source
    while (colon := head.rfind(":")) > 0:
        head = head[:colon]
        if head in inputs:
            return True
    return False


def remove_inputs(directory: str, inputs: Sequence[str]) -> int:
    """Take the rows whose ``source`` comes from one of ``inputs`` out of every part of the
    dataset at ``directory`` (a part left empty is deleted; the others are rewritten whole,
    through a temporary file). Returns the number of rows taken out."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    wanted = frozenset(inputs)
    removed = 0
    for table in TABLES:
        folder = os.path.join(directory, table)
        if not os.path.isdir(folder):
            continue
        for entry in sorted(os.listdir(folder)):
            if not entry.endswith(".parquet"):
                continue
            path = os.path.join(folder, entry)
            try:
                part = pq.read_table(path)
                keep = [not _of_inputs(source, wanted)
                        for source in part.column("source").to_pylist()]
                if all(keep):
                    continue
                removed += keep.count(False)
                if not any(keep):
                    os.remove(path)
                    continue
                temporary = os.path.join(folder, f".{entry}.tmp")
                pq.write_table(part.filter(pa.array(keep)), temporary)
                os.replace(temporary, path)
            except (OSError, pa.ArrowException, KeyError) as error:
                raise ParquetWriteError(f"cannot write {directory}: {path}: "
                                        f"{_reason(error)}") from None
    return removed
