"""Writers for tabular results, one class per format, found by name in :data:`TABLE_WRITERS` (G6).

Each writer takes titled tables and writes them to a text stream. Does not compute anything.
"""

from __future__ import annotations

import csv
import dataclasses
import json
from collections.abc import Sequence
from typing import Any, ClassVar, TextIO


@dataclasses.dataclass
class Table:
    """A titled table: what every tabular writer takes."""

    title: str
    headers: list[str]
    rows: list[list[Any]]


class TextTableWriter:
    """Plain-text tables for people (tabulate's ``simple`` layout), each under its title."""

    name: ClassVar[str] = "table"

    def write(self, tables: Sequence[Table], out: TextIO) -> None:
        # Imported when a table is drawn (validate never is); tabulate has no type hints.
        from tabulate import tabulate

        for number, table in enumerate(tables):
            if number:
                out.write("\n")
            if len(tables) > 1 or table.title:
                out.write(f"{table.title}\n")
            if table.rows:
                out.write(tabulate(table.rows, headers=table.headers, tablefmt="simple",
                                   disable_numparse=True, missingval=""))
            else:
                out.write("(none)")
            out.write("\n")


class CsvTableWriter:
    """CSV; with several tables, a ``table`` column names the table of each row."""

    name: ClassVar[str] = "csv"

    def write(self, tables: Sequence[Table], out: TextIO) -> None:
        writer = csv.writer(out, lineterminator="\n")
        if len(tables) == 1:
            writer.writerow(tables[0].headers)
            writer.writerows(_cells(row) for row in tables[0].rows)
            return
        width = max(len(table.headers) for table in tables)
        writer.writerow(["table", *[f"column{i + 1}" for i in range(width)]])
        for table in tables:
            writer.writerow([table.title, *table.headers])
            for row in table.rows:
                writer.writerow([table.title, *_cells(row)])


def _cells(row: Sequence[Any]) -> list[Any]:
    return ["" if value is None else value for value in row]


class JsonTableWriter:
    """JSON: one object per table, rows as objects keyed by the headers."""

    name: ClassVar[str] = "json"

    def write(self, tables: Sequence[Table], out: TextIO) -> None:
        data = [{"title": table.title,
                 "rows": [dict(zip(table.headers, row)) for row in table.rows]}
                for table in tables]
        json.dump(data if len(data) != 1 else data[0], out, indent=2, ensure_ascii=False)
        out.write("\n")


TABLE_WRITERS = {writer.name: writer
                 for writer in (TextTableWriter, CsvTableWriter, JsonTableWriter)}


def rows_to_table(title: str, rows: Sequence[dict[str, Any]]) -> Table:
    """A table from dict rows; columns in order of first appearance across rows."""
    headers: dict[str, None] = {}
    for row in rows:
        headers.update(dict.fromkeys(row))
    names = list(headers)
    return Table(title, names, [[row.get(name) for name in names] for row in rows])
