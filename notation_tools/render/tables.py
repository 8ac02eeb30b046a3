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


class TableWriter:
    """Plain-text tables for people (tabulate's ``simple`` layout), each under its title."""

    name: ClassVar[str] = "table"

    def write(self, tables: Sequence[Table], out: TextIO) -> None:
        from tabulate import tabulate  # imported when a table is drawn: validate never is

        for number, table in enumerate(tables):
            if number:
                out.write("\n")
            if len(tables) > 1 or table.title:
                out.write(f"{table.title}\n")
            if table.rows:
                out.write(simple_layout(table) or _tabulated(table))
            else:
                out.write("(none)")
            out.write("\n")


def _tabulated(table: Table) -> str:
    from tabulate import tabulate  # only for tables simple_layout leaves to it

    return tabulate(table.rows, headers=table.headers, tablefmt="simple",
                    disable_numparse=True, missingval="")


_PLAIN_VALUES = (bool, int, float)


def simple_layout(table: Table) -> str | None:
    """``table`` laid out as tabulate lays it out for :class:`TableWriter` (``simple``, no
    number parsing, ``None`` shown empty), or ``None`` when a header or cell is not plain:
    text other than printable ASCII, a value other than None, str, bool, int or float, or a
    row of another width than the headers.

    Within those bounds tabulate's layout is simple, and this writes it without tabulate's
    per-cell type inference, which costs as much as replaying a cheap game (``stats`` of
    500 Shuriken records): with number parsing off, every value is shown as ``str()`` of
    it (None as empty), stripped, left-aligned in a column as wide as its widest cell or
    its header plus two, columns joined by two spaces, each line stripped on the right, a
    line of dashes under the headers. A property test checks it against tabulate.

    >>> print(simple_layout(Table("", ["game", "plies"], [["maka", 12], ["gow", None]])))
    game    plies
    ------  -------
    maka    12
    gow
    """
    headers = table.headers
    count = len(headers)
    if not count or not all(type(h) is str and h.isascii() and h.isprintable()
                            for h in headers):
        return None
    lines: list[list[str]] = []
    for row in table.rows:
        if len(row) != count:
            return None
        cells = []
        for value in row:
            if value is None:
                cells.append("")
            elif type(value) is str:
                if not (value.isascii() and value.isprintable()):
                    return None
                cells.append(value.strip())
            elif type(value) in _PLAIN_VALUES:
                cells.append(str(value))
            else:
                return None
        lines.append(cells)
    widths = [max(len(header) + 2, *map(len, column))
              for header, column in zip(headers, zip(*lines))]
    text = ["  ".join([header.ljust(width) for header, width in zip(headers, widths)]).rstrip(),
            "  ".join(["-" * width for width in widths])]
    text.extend("  ".join([cell.ljust(width) for cell, width in zip(cells, widths)]).rstrip()
                for cells in lines)
    return "\n".join(text)


class CsvWriter:
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


class JsonWriter:
    """JSON: one object per table, rows as objects keyed by the headers."""

    name: ClassVar[str] = "json"

    def write(self, tables: Sequence[Table], out: TextIO) -> None:
        data = [{"title": table.title,
                 "rows": [dict(zip(table.headers, row)) for row in table.rows]}
                for table in tables]
        json.dump(data if len(data) != 1 else data[0], out, indent=2, ensure_ascii=False)
        out.write("\n")


TABLE_WRITERS = {writer.name: writer for writer in (TableWriter, CsvWriter, JsonWriter)}


def rows_to_table(title: str, rows: Sequence[dict[str, Any]]) -> Table:
    """A table from dict rows; columns in order of first appearance across rows."""
    headers: dict[str, None] = {}
    for row in rows:
        headers.update(dict.fromkeys(row))
    names = list(headers)
    return Table(title, names, [[row.get(name) for name in names] for row in rows])
