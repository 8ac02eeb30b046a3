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
import io
import warnings
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO, cast

from notation_tools.parallel.batch import RecordReport
from notation_tools.analysis.reports import (UNKNOWN_GAME, Summary, declared_figures,
                                             diagnostics_of, figure_of, numeric)
from notation_tools.games.base import FigureKind
from notation_tools.pages.assets import asset
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.render.tables import Table

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.ticker import MaxNLocator
    from matplotlib.figure import Figure as Chart

INSTALL_HINT = "pip install 'notation-tools[report]'"
VALID, INVALID, OTHER = "#2e7d32", "#c62828", "#1565c0"
"""The colours of valid records, invalid ones (and errors), and everything else."""
KIND_TITLES = {FigureKind.COUNT: "Counts (per record)", FigureKind.RATIO: "Rates and means",
               FigureKind.PLY: "Plies at which something happened",
               FigureKind.MAX: "Maxima within a record", FigureKind.MIN: "Minima within a record"}
_WIDTH = 7.0  # inches: every chart is as wide as the page's column


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
                  "<meta name=\"generator\" content=\"notation-tools\">\n"
                  "<title>Analysis report</title>\n"
                  f"<style>\n{asset('report.css')}</style>\n</head>\n<body>\n"
                  "<h1>Analysis report</h1>\n")
        games = sorted(self.per_game)
        out.write("<nav><a href=\"#records\">Records</a><a href=\"#diagnostics\">Diagnostics</a>"
                  + "".join(f"<a href=\"#game-{slug(game)}\">{_esc(game)}</a>" for game in games)
                  + "<a href=\"#flagged\">Records with diagnostics</a></nav>\n")
        import matplotlib

        # Labels are the records' own texts (games, codes, names from a database that may have
        # been edited by hand): drawn as they are, never read as mathtext ("$\\frac{" would
        # end the page with a ValueError).
        with matplotlib.rc_context({"text.parse_math": False}), warnings.catch_warnings():
            # a character the font lacks is drawn as a box; saying so for each is noise
            warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
            for part in (self._records(), self._diagnostics(),
                         *(self._game(game) for game in games), self._flagged(flagged)):
                out.writelines(part)
        out.write("</body>\n</html>\n")

    # ---- sections ------------------------------------------------------------------------

    def _records(self) -> Iterator[str]:
        yield "<section id=\"records\">\n<h2>Records</h2>\n"
        yield _table(self.tables()[0])
        labels = ["valid", "invalid", "unreadable inputs"]
        counts = [self.valid, self.invalid, self.io_errors]
        yield _bar_chart("chart-records", "Records read", labels, counts,
                         [VALID, INVALID, OTHER])
        yield "</section>\n"

    def _diagnostics(self) -> Iterator[str]:
        codes = sorted(self.codes.items())
        yield "<section id=\"diagnostics\">\n<h2>Diagnostics by code</h2>\n"
        if not codes:
            yield "<p>No diagnostics.</p>\n</section>\n"
            return
        yield "<table>\n<tr><th>code</th><th>severity</th><th>count</th></tr>\n"
        for (code, severity), count in codes:
            yield (f"<tr><td>{_esc(code)}</td><td class=\"{_esc(severity)}\">{_esc(severity)}"
                   f"</td><td class=\"n\"><a href=\"#code-{slug(code)}\">{count}</a></td></tr>\n")
        yield "</table>\n"
        yield _bar_chart("chart-diagnostics", "Diagnostics by code",
                         [code for (code, _), _ in codes], [count for _, count in codes],
                         [INVALID if severity == "error" else OTHER
                          for (_, severity), _ in codes], unit="diagnostics")
        yield "</section>\n"

    def _game(self, game: str) -> Iterator[str]:
        name = slug(game)
        totals = self.per_game[game]
        yield (f"<section id=\"game-{name}\">\n<h2>{_esc(game)}</h2>\n"
               f"<p>{totals.records} records: {totals.valid} valid, "
               f"{totals.records - totals.valid} invalid.</p>\n")
        if game == UNKNOWN_GAME:  # no game: nothing replayed, nothing to draw
            yield "</section>\n"
            return
        results = sorted((result, count) for (g, result), count in self.results.items()
                         if g == game)
        yield _bar_chart(f"chart-results-{name}", f"{game}: results",
                         [result for result, _ in results], [count for _, count in results],
                         [OTHER] * len(results))
        ends = sorted((end, count) for (g, end), count in self.ends.items() if g == game)
        yield _bar_chart(f"chart-ends-{name}", f"{game}: how games ended",
                         [end for end, _ in ends], [count for _, count in ends],
                         [OTHER] * len(ends))
        yield _histogram(f"chart-lengths-{name}", f"{game}: length of the records",
                         "plies", self.plies_of[game])
        values = self.values[game]
        keys = self.figure_names(game, all_figures=False)
        if keys:
            yield _small_histograms(f"chart-key-figures-{name}", f"{game}: key figures",
                                    [(key, values[key]) for key in keys])
        everything = self.figure_names(game, all_figures=True)
        if everything:
            yield _box_plots(f"chart-figures-{name}", f"{game}: every figure",
                             [(figure, figure_of(game, figure).kind, values[figure])
                              for figure in everything])
            declared = declared_figures(game)
            rows = [[*row, declared[row[0]].about if row[0] in declared else ""]
                    for row in self.figure_rows(game, all_figures=True)]
            yield _table(Table(f"Figures: {game}", ["figure", "records", "summary", "value",
                                                     "what it is"], rows))
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
        yield ("<table>\n<tr><th>#</th><th>file:line</th><th>game</th><th>plies</th>"
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
        yield "</table>\n</section>\n"


def _record_order(item: RecordReport | Diagnostic) -> tuple[str, int, int, list[str]]:
    """Where an item stands, then what it says: an order that does not depend on the order
    the items came in."""
    if isinstance(item, Diagnostic):
        return (item.path, 0, item.line, [str(item)])
    return (item.path, item.index, item.line, [str(d) for d in item.diagnostics])


def _table(table: Table) -> str:
    head = "".join(f"<th>{_esc(header)}</th>" for header in table.headers)
    rows = "".join("<tr>" + "".join(
        f"<td class=\"n\">{_esc(cell)}</td>" if numeric(cell) else f"<td>{_esc(cell)}</td>"
        for cell in row) + "</tr>\n" for row in table.rows)
    return f"<table>\n<tr>{head}</tr>\n{rows}</table>\n"


# ---- charts -------------------------------------------------------------------------------


def _new_chart(height: float) -> tuple[Chart, Axes]:
    from matplotlib.figure import Figure as Chart

    chart = Chart(figsize=(_WIDTH, height))
    return chart, chart.add_subplot()


def _embed(chart: Chart, chart_id: str, caption: str) -> str:
    """The chart as inline SVG in a ``<figure id=chart_id>``: no XML prolog, no namespace
    URLs, and every id prefixed with ``chart_id`` so that many charts share one page."""
    import matplotlib

    buffer = io.StringIO()
    # a fixed salt and text as text keep the SVG the same from run to run (no random ids, no
    # glyph outlines); no date or creator in the metadata
    with matplotlib.rc_context({"svg.hashsalt": chart_id, "svg.fonttype": "none"}):
        chart.savefig(buffer, format="svg", bbox_inches="tight",
                      metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r'\s+xmlns(:xlink)?="[^"]*"', "", svg)
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{chart_id}-\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{chart_id}-\1)", svg)
    svg = re.sub(r'href="#([^"]+)"', rf'href="#{chart_id}-\1"', svg)
    return (f"<figure class=\"chart\" id=\"{chart_id}\">\n{svg}"
            f"<figcaption>{_esc(caption)}</figcaption>\n</figure>\n")


def _whole_ticks(axis: Axis) -> None:
    """Ticks at whole numbers only (counts of records)."""
    # The default locator is an AutoLocator, a MaxNLocator: the stubs type it as any Locator.
    cast("MaxNLocator", axis.get_major_locator()).set_params(integer=True)


def _bar_chart(chart_id: str, title: str, labels: Sequence[str], counts: Sequence[int],
               colours: Sequence[str], unit: str = "records") -> str:
    """Horizontal bars, one a label, the first label on top."""
    chart, axes = _new_chart(0.6 + 0.28 * max(len(labels), 1))
    positions = range(len(labels))
    axes.barh(list(positions), list(counts), color=list(colours))
    axes.set_yticks(list(positions), labels=list(labels))
    axes.invert_yaxis()
    axes.set_xlabel(unit)
    _whole_ticks(axes.xaxis)
    for position, count in zip(positions, counts):
        axes.annotate(str(count), (count, position), xytext=(3, 0),
                      textcoords="offset points", va="center", fontsize=8)
    axes.set_title(title, fontsize=10)
    axes.margins(x=0.1)
    return _embed(chart, chart_id, title)


def _bins(counts: Counter[float]) -> Any:
    """One bin per whole number over a short range of whole numbers, else 20 bins."""
    low, high = (min(counts), max(counts)) if counts else (0, 0)
    if all(float(value).is_integer() for value in counts) and high - low <= 40:
        return [edge - 0.5 for edge in range(int(low), int(high) + 2)]
    return 20


def _histogram(chart_id: str, title: str, label: str, counts: Counter[float]) -> str:
    chart, axes = _new_chart(2.4)
    _draw_histogram(axes, counts, label)
    axes.set_title(title, fontsize=10)
    return _embed(chart, chart_id, f"{title} (histogram, {counts.total()} records)")


def _draw_histogram(axes: Axes, counts: Counter[float], label: str) -> None:
    if counts:
        values = sorted(counts)
        axes.hist(values, bins=_bins(counts), weights=[counts[value] for value in values],
                  color=OTHER, edgecolor="white")
    axes.set_xlabel(label, fontsize=8)
    axes.set_ylabel("records", fontsize=8)
    _whole_ticks(axes.yaxis)
    axes.tick_params(labelsize=7)


def _stacked(title: str, rows: Sequence[float], columns: int) -> tuple[Chart, list[Axes]]:
    """A chart titled ``title`` of panels ``rows`` inches high (one entry a row of
    ``columns``) with room between them for a title and tick labels, laid out by arithmetic:
    a layout engine would draw every text once more, and text is most of a chart's cost."""
    from matplotlib.figure import Figure as Chart

    top, bottom, gap = 0.6, 0.45, 0.65
    height = top + bottom + sum(rows) + gap * (len(rows) - 1)
    chart = Chart(figsize=(_WIDTH, height))
    grid = chart.add_gridspec(len(rows), columns, height_ratios=list(rows), left=0.3,
                              right=0.97, top=1 - top / height, bottom=bottom / height,
                              hspace=gap / (sum(rows) / len(rows)), wspace=0.35)
    chart.suptitle(title, fontsize=10, y=1 - 0.05 / height)
    return chart, [chart.add_subplot(grid[row, column]) for row in range(len(rows))
                   for column in range(columns)]


def _small_histograms(chart_id: str, title: str,
                      series: Sequence[tuple[str, Counter[float]]]) -> str:
    columns = min(3, len(series))
    chart, panels = _stacked(title, [1.3] * -(-len(series) // columns), columns)
    chart.subplots_adjust(left=0.08)
    for axes, (name, values) in zip(panels, series):
        _draw_histogram(axes, values, name)
    for axes in panels[len(series):]:
        axes.set_visible(False)
    return _embed(chart, chart_id, f"{title}: one histogram a figure, over the records where "
                                   "it applies")


def _box_plots(chart_id: str, title: str,
               series: Sequence[tuple[str, FigureKind, Counter[float]]]) -> str:
    """One panel per kind of figure, one box a figure (over the records where it applies),
    on a scale linear near zero and logarithmic beyond, so that small and large counts share
    a panel."""
    kinds = [kind for kind in KIND_TITLES if any(k is kind for _, k, _ in series)]
    chart, panels = _stacked(title, [0.1 + 0.2 * sum(1 for _, k, _ in series if k is kind)
                                     for kind in kinds], 1)
    for axes, kind in zip(panels, kinds):
        rows = [(name, values) for name, k, values in series if k is kind]
        axes.bxp([{**box_stats(counts), "label": f"{name} (n={counts.total()})"}
                  for name, counts in rows], orientation="horizontal", widths=0.6,
                 flierprops={"markersize": 2})
        axes.invert_yaxis()
        axes.set_xscale("symlog", linthresh=1)
        if min(min(counts) for _, counts in rows) >= 0:
            axes.set_xlim(left=-0.2)
        axes.set_title(KIND_TITLES[kind], fontsize=9)
        axes.tick_params(labelsize=7)
    return _embed(chart, chart_id, f"{title}: box plots over the records where each applies "
                                   "(box: quartiles, line: median)")


def quantile(counts: Counter[float], share: float) -> float:
    """The ``share`` quantile (0 to 1) of the values ``counts`` holds, interpolated linearly
    between neighbours as numpy's default percentile is.

    >>> quantile(collections.Counter({1: 2, 5: 1, 9: 1}), 0.5)
    3.0
    """
    ordered = sorted(counts.items())
    position = share * (counts.total() - 1)
    below = int(position)

    def at(index: int) -> float:
        seen = 0
        for value, count in ordered:
            seen += count
            if index < seen:
                return value
        return ordered[-1][0]

    low = at(below)
    return low if position == below else low + (at(below + 1) - low) * (position - below)


def box_stats(counts: Counter[float]) -> dict[str, Any]:
    """A box plot's quartiles, whiskers (the furthest values within 1.5 times the box's
    length, never inside the box) and outliers, as matplotlib's ``boxplot`` computes them
    from every value, here from the counts of each value.

    >>> stats = box_stats(collections.Counter({0: 1, 1.5: 1, 2: 1, 70: 1}))
    >>> stats["med"], stats["q3"], stats["whishi"], stats["fliers"]
    (1.75, 19.0, 19.0, [70])
    """
    q1, median, q3 = (quantile(counts, share) for share in (0.25, 0.5, 0.75))
    reach = 1.5 * (q3 - q1)
    inside = [value for value in counts if q1 - reach <= value <= q3 + reach]
    low, high = min([*inside, q1]), max([*inside, q3])
    return {"med": median, "q1": q1, "q3": q3, "whislo": low, "whishi": high,
            "fliers": sorted(value for value in counts if value < low or value > high)}
