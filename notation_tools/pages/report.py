"""The analysis report as one self-contained HTML page with charts (``analyze --html``,
``report --html``).

:class:`HtmlReport` takes record reports and unreadable-input diagnostics one at a time, as
:class:`~notation_tools.analysis.reports.Summary` does, and keeps what the charts need: each
game's lengths and figure values, and the records that carry diagnostics. :meth:`HtmlReport.write`
draws the charts with matplotlib (SVG, no display) and writes one page: inline SVG, inline CSS
(the package data file ``report.css``), no script, nothing fetched from the network. The same
reports in any order give the same page.

Needs matplotlib (the ``report`` extra): :func:`check_available` says so before a run starts.
Does not replay, and opens no file but its own style sheet.
"""

from __future__ import annotations

import collections
import html
import re
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from notation_tools.parallel.batch import RecordReport
from notation_tools.analysis.reports import (UNKNOWN_GAME, Summary, declared_figures,
                                             diagnostics_of, figure_of, numeric)
from notation_tools.pages.assets import asset
from notation_tools.pages.report_charts import (RC, Series, box_plots, box_stats, histograms,
                                                quantile)
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.render.tables import Table

INSTALL_HINT = "pip install 'notation-tools[report]'"
__all__ = ["INSTALL_HINT", "HtmlReport", "ChartsUnavailable", "check_available",
           "figure_label", "box_stats", "quantile", "slug"]


class ChartsUnavailable(RuntimeError):
    """matplotlib is not installed."""


def check_available() -> None:
    """Raise :class:`ChartsUnavailable` (naming the extra to install) without matplotlib."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ChartsUnavailable("--html needs matplotlib, which is not installed: "
                                f"{INSTALL_HINT}") from None


def slug(text: str) -> str:
    """A fragment-safe name for ``text``.

    >>> slug("maka-dai-dai-shogi"), slug("(unknown)"), slug("E-ILLEGAL-MOVE")
    ('maka-dai-dai-shogi', 'unknown', 'E-ILLEGAL-MOVE')
    """
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "x"


def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value))


class HtmlReport(Summary):
    """A :class:`Summary` that also keeps what the page shows: each game's lengths and figure
    values, and the records (and unreadable inputs) that carry diagnostics."""

    def __init__(self) -> None:
        super().__init__()
        # values as counts of each value: memory grows with the distinct values, not records
        self.plies_of: dict[str, Counter[float]] = collections.defaultdict(collections.Counter)
        self.values: dict[str, dict[str, Counter[float]]] = collections.defaultdict(
            lambda: collections.defaultdict(collections.Counter))
        self.flagged: list[RecordReport | Diagnostic] = []

    def add(self, item: RecordReport | Diagnostic) -> None:
        super().add(item)
        if isinstance(item, Diagnostic):
            self.flagged.append(item)
            return
        game = item.game or UNKNOWN_GAME
        self.plies_of[game][item.plies] += 1
        for name, value in item.figures.items():
            if numeric(value):
                self.values[game][name][value] += 1
        if item.diagnostics:
            # only what the page shows: a long archive keeps no figures or tags here
            self.flagged.append(RecordReport(item.path, item.index, item.line, item.game,
                                             item.rules, item.plies, item.result, item.end,
                                             item.diagnostics, {}))

    def write(self, out: TextIO) -> None:
        """Draw the charts and write the page."""
        flagged = sorted(self.flagged, key=_record_order)
        out.write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<meta name=\"generator\" content=\"notation-tools\">\n"
                  "<title>Analysis report</title>\n"
                  f"<style>\n{asset('report.css')}</style>\n</head>\n<body>\n"
                  "<h1>Analysis report</h1>\n")
        games = sorted(self.per_game)
        out.write("<nav><a href=\"#records\">Records</a><a href=\"#diagnostics\">Diagnostics</a>"
                  + "".join(f"<a href=\"#game-{slug(game)}\">{_esc(game)}</a>" for game in games)
                  + "<a href=\"#flagged\">Records with diagnostics</a></nav>\n")
        import matplotlib

        with matplotlib.rc_context(RC), warnings.catch_warnings():
            # a character the font lacks is drawn as a box; saying so for each is noise
            warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
            for part in (self._records(), self._diagnostics(),
                         *(self._game(game) for game in games), self._flagged(flagged)):
                out.writelines(part)
        out.write("</body>\n</html>\n")

    # ---- sections ------------------------------------------------------------------------
    # Exact numbers are tables; a chart only where it shows a distribution a table cannot.

    def _records(self) -> Iterator[str]:
        records, _, games = self.tables()[:3]
        yield "<section id=\"records\">\n<h2>Records</h2>\n"
        yield _table(records)
        yield _table(games)
        yield "</section>\n"

    def _diagnostics(self) -> Iterator[str]:
        codes = sorted(self.codes.items())
        yield "<section id=\"diagnostics\">\n<h2>Diagnostics by code</h2>\n"
        if not codes:
            yield "<p>No diagnostics.</p>\n</section>\n"
            return
        yield ("<div class=\"table\"><table>\n"
               "<tr><th>code</th><th>severity</th><th>count</th></tr>\n")
        for (code, severity), count in codes:
            yield (f"<tr><td>{_esc(code)}</td><td class=\"{_esc(severity)}\">{_esc(severity)}"
                   f"</td><td class=\"n\"><a href=\"#code-{slug(code)}\">{count}</a></td></tr>\n")
        yield "</table></div>\n</section>\n"

    def _game(self, game: str) -> Iterator[str]:
        name = slug(game)
        totals = self.per_game[game]
        yield (f"<section id=\"game-{name}\">\n<h2>{_esc(game)}</h2>\n"
               f"<p>{totals.records} records: {totals.valid} valid, "
               f"{totals.records - totals.valid} invalid.</p>\n")
        yield _table(Table("", ["result", "records"], sorted(
            [result, count] for (g, result), count in self.results.items() if g == game)))
        yield _table(Table("", ["how the game ended", "records"], sorted(
            [end, count] for (g, end), count in self.ends.items() if g == game)))
        if game == UNKNOWN_GAME:  # no game: nothing replayed, nothing to draw
            yield "</section>\n"
            return
        yield (f"<h3>Length of the records</h3>\n"
               + histograms(f"chart-lengths-{name}", f"{game}: records by length in plies "
                            f"(histogram, {self.plies_of[game].total()} records)",
                            [("plies", self.plies_of[game])]))
        values = self.values[game]
        keys = self.figure_names(game, all_figures=False)
        if keys:
            yield (f"<h3>Key figures</h3>\n"
                   + histograms(f"chart-key-figures-{name}", f"{game}: one histogram a key "
                                "figure, over the records where it applies",
                                [(figure_label(game, key), values[key]) for key in keys]))
        everything = self.figure_names(game, all_figures=True)
        if everything:
            yield (f"<h3>Every figure</h3>\n"
                   + box_plots(f"chart-figures-{name}", f"{game}: box plots over the records "
                               "where each figure applies (box: quartiles, line: median), "
                               "one axis per kind and size of figure",
                               [Series(figure_label(game, figure), figure_of(game, figure).kind,
                                       values[figure]) for figure in everything]))
            rows = [[figure_label(game, row[0]), *row[1:]]
                    for row in self.figure_rows(game, all_figures=True)]
            yield _table(Table(f"Figures: {game}", ["figure", "records", "summary", "value"],
                               rows))
        yield "</section>\n"

    def _flagged(self, flagged: Sequence[RecordReport | Diagnostic]) -> Iterator[str]:
        yield "<section id=\"flagged\">\n<h2>Records with diagnostics</h2>\n"
        if not flagged:
            yield "<p>None.</p>\n</section>\n"
            return
        by_code: dict[str, list[tuple[int, Diagnostic]]] = collections.defaultdict(list)
        for number, item in enumerate(flagged, 1):
            for diagnostic in diagnostics_of(item):
                by_code[diagnostic.code].append((number, diagnostic))
        for code in sorted(by_code):
            entries = by_code[code]
            yield (f"<h3 id=\"code-{slug(code)}\">{_esc(code)}: {len(entries)}</h3>\n"
                   "<ul class=\"diagnostics\">\n")
            for number, diagnostic in entries:
                yield (f"<li><a href=\"#record-{number}\">{_esc(diagnostic.path)}:"
                       f"{diagnostic.line}:{diagnostic.column}</a> {_esc(diagnostic.message)}"
                       "</li>\n")
            yield "</ul>\n"
        yield ("<div class=\"table\"><table>\n<tr><th>#</th><th>file:line</th><th>game</th>"
               "<th>plies</th>"
               "<th>result</th><th>diagnostics</th></tr>\n")
        for number, item in enumerate(flagged, 1):
            plies: int | str
            if isinstance(item, Diagnostic):
                where, game, plies, result = f"{item.path}:{item.line}", "", "", ""
            else:
                where, game, plies, result = (f"{item.path}:{item.line}", item.game or "",
                                              item.plies, item.result or "")
            listed = "".join(f"<li class=\"{_esc(d.severity)}\">{_esc(d)}</li>"
                             for d in diagnostics_of(item))
            yield (f"<tr id=\"record-{number}\"><td class=\"n\">{number}</td>"
                   f"<td>{_esc(where)}</td><td>{_esc(game)}</td><td class=\"n\">{plies}</td>"
                   f"<td>{_esc(result)}</td><td><ul class=\"diagnostics\">{listed}</ul></td>"
                   "</tr>\n")
        yield "</table></div>\n</section>\n"


def _record_order(item: RecordReport | Diagnostic) -> tuple[str, int, int, list[str]]:
    """Where an item stands, then what it says: an order that does not depend on the order
    the items came in."""
    if isinstance(item, Diagnostic):
        return (item.path, 0, item.line, [str(item)])
    return (item.path, item.index, item.line, [str(d) for d in item.diagnostics])


def _table(table: Table) -> str:
    """A table in a box of its own that scrolls sideways when it is wider than the page."""
    head = "".join(f"<th>{_esc(header)}</th>" for header in table.headers)
    rows = "".join("<tr>" + "".join(
        f"<td class=\"n\">{_esc(cell)}</td>" if numeric(cell) else f"<td>{_esc(cell)}</td>"
        for cell in row) + "</tr>\n" for row in table.rows)
    return f"<div class=\"table\"><table>\n<tr>{head}</tr>\n{rows}</table></div>\n"


def figure_label(game: str, name: str) -> str:
    """What a reader is shown for ``game``'s figure ``name``: what the game declares it is,
    else the name in words (a figure a database holds that no installed game declares).

    >>> figure_label("elevation", "white_option_B_dig_first")
    'basic moves, dig first (white)'
    >>> figure_label("Nowhere", "first_capture_ply")
    'first capture ply'
    """
    declared = declared_figures(game).get(name)
    return declared.about if declared is not None and declared.about else name.replace("_", " ")
