"""Results as a Parquet dataset: what the SQLite database holds, written in parallel.

``analyze --parquet DIR`` makes each process that replays a batch of records write that
batch's results as one file per table: ``DIR/records/part-<id>.parquet``,
``DIR/diagnostics/...``, ``DIR/figures/...`` and ``DIR/tags/...``. A part's name comes from
the batch's first record, so a batch replayed again (after a worker died) replaces its files
instead of adding to them. Rows join on ``source`` and ``record_index``; the columns are the
SQLite tables' (docs/database.md). Reading the dataset back, e.g. with pandas or DuckDB:
``pandas.read_parquet("DIR/records")``.

Needs pyarrow (the ``dask`` extra). Does not print.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from typing import Any

from notation_tools.records.diagnostics import Diagnostic

TABLES = ("records", "diagnostics", "figures", "tags")
_COLUMNS: dict[str, list[tuple[str, str]]] = {
    "records": [("source", "string"), ("record_index", "int64"), ("line", "int64"),
                ("byte_offset", "int64"), ("game", "string"), ("rules", "string"),
                ("plies", "int64"), ("result", "string"), ("end_reason", "string"),
                ("valid", "bool_"), ("errors", "int64"), ("warnings", "int64"),
                ("movetext_digest", "string")],
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


def check_available() -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise ParquetUnavailable("--parquet needs pyarrow, which is not installed: "
                                 "pip install 'notation-tools[dask]'") from None


def _part_name(batch: Sequence[Any]) -> str:
    first = batch[0]
    key = f"{getattr(first, 'path', '-')}\n{getattr(first, 'index', 0)}\n{len(batch)}"
    return "part-" + hashlib.blake2b(key.encode("utf-8", "surrogatepass"),
                                     digest_size=10).hexdigest()


def _diagnostic_row(source: str, index: int | None, d: Diagnostic) -> dict[str, Any]:
    return {"source": source, "record_index": index, "code": d.code, "severity": d.severity,
            "path": d.path, "line": d.line, "col": d.column, "ply": d.ply, "number": d.number,
            "side": d.side, "move": d.move, "message": d.message, "rule": d.rule}


def rows(items: Sequence[Any]) -> dict[str, list[dict[str, Any]]]:
    """The rows of each table for ``items`` (``batch.RecordReport`` rows and unreadable
    inputs' diagnostics; this module is imported by ``batch``, so it does not import it)."""
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
            "warnings": len(item.diagnostics) - errors, "movetext_digest": item.digest})
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
    return tables


def write_part(directory: str, batch: Sequence[Any],
               items: Sequence[Any]) -> None:
    """Write one batch's results into the dataset at ``directory``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = _part_name(batch)
    for table, table_rows in rows(items).items():
        if not table_rows:
            continue
        folder = os.path.join(directory, table)
        os.makedirs(folder, exist_ok=True)
        temporary = os.path.join(folder, f".{name}.tmp")
        schema = pa.schema([(column, getattr(pa, kind)()) for column, kind in _COLUMNS[table]])
        pq.write_table(pa.Table.from_pylist(table_rows, schema=schema), temporary)
        os.replace(temporary, os.path.join(folder, f"{name}.parquet"))  # whole or not at all
