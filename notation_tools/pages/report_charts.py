"""The charts of the HTML analysis report (:mod:`notation_tools.pages.report`), drawn with
matplotlib as inline SVG.

Only distributions are drawn, the things a table cannot show: a histogram of the records'
lengths, a histogram of each key figure, and box plots of every figure. Counts that a table
already gives exactly (records, diagnostics, results, ends) are tables, not bars.

Every chart is drawn :data:`WIDTH` inches wide with its text at :data:`FONT_SIZE` points and
shown by the page's style sheet at the width of the column, so that its text stays readable
at a phone's width (see ``report.css``): the layout is by arithmetic in inches, not by a
layout engine (which would draw every text once more, and text is most of a chart's cost),
and the SVG keeps that size (no tight bounding box), so the page knows how much it scales.

Box plots are grouped by scale: one panel per kind of figure and decade of the figure's
largest magnitude, each on its own linear axis, so that a figure ranging over 0 to 2 is never
squeezed beside one ranging over 0 to 200. Figures that are 0 in every record are named in a
sentence rather than drawn.
"""

from __future__ import annotations

import collections
import io
import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from notation_tools.games.base import FigureKind

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure as Chart
    from matplotlib.ticker import MaxNLocator

BAR_COLOUR = "#1565c0"
WIDTH = 5.0
"""Inches: every chart's width (480 CSS px at its own size)."""
FONT_SIZE = 11.0
"""Points: tick labels, axis titles and figure names. Shown at the 374 px column of a 390 px
phone, a 5-inch chart keeps 11-point text at about 11.4 CSS px."""
TITLE_SIZE = 12.0
RC: dict[Any, Any] = {"font.size": FONT_SIZE, "axes.titlesize": TITLE_SIZE,
                      "axes.labelsize": FONT_SIZE,
                      "xtick.labelsize": FONT_SIZE, "ytick.labelsize": FONT_SIZE,
                      "text.parse_math": False, "svg.fonttype": "none"}
"""matplotlib settings every chart is drawn with. Labels are the records' own texts (games,
names from a database that may have been edited by hand): drawn as they are, never read as
mathtext."""
KIND_TITLES = {FigureKind.COUNT: "Counts", FigureKind.RATIO: "Rates and means",
               FigureKind.PLY: "Plies at which something happened",
               FigureKind.MAX: "Maxima within a record", FigureKind.MIN: "Minima within a record"}
_LEFT, _RIGHT = 0.75, 0.2  # inches beside a histogram: its tick labels and axis title
_BOX_ROW = 0.5  # inches a box plot row takes: its figure's name above, its box below


class Series(NamedTuple):
    """One figure of one game: its human label, kind and values (as counts of each value)."""

    label: str
    kind: FigureKind
    counts: Counter[float]


def embed(chart: Chart, chart_id: str, caption: str) -> str:
    """The chart as inline SVG in a ``<figure id=chart_id>``: no XML prolog, no namespace
    URLs, and every id prefixed with ``chart_id`` so that many charts share one page."""
    import matplotlib

    buffer = io.StringIO()
    # a fixed salt keeps the SVG the same from run to run (no random ids); no date or creator
    with matplotlib.rc_context({"svg.hashsalt": chart_id, "svg.fonttype": "none"}):
        chart.savefig(buffer, format="svg",
                      metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r'\s+xmlns(:xlink)?="[^"]*"', "", svg)
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{chart_id}-\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{chart_id}-\1)", svg)
    svg = re.sub(r'href="#([^"]+)"', rf'href="#{chart_id}-\1"', svg)
    return (f"<figure class=\"chart\" id=\"{chart_id}\">\n<div class=\"scroll\">{svg}</div>"
            f"<figcaption>{_esc(caption)}</figcaption>\n</figure>\n")


def _esc(text: str) -> str:
    import html

    return html.escape(text)


def _whole_ticks(axis: Axis) -> None:
    """Ticks at whole numbers only (counts of records)."""
    # The default locator is an AutoLocator, a MaxNLocator: the stubs type it as any Locator.
    cast("MaxNLocator", axis.get_major_locator()).set_params(integer=True, nbins=5)


def stacked(rows: Sequence[float], *, top: float, gap: float, bottom: float,
            left: float, right: float) -> tuple[Chart, list[Axes]]:
    """A chart :data:`WIDTH` wide of panels ``rows`` inches high, one above the other, with
    ``top``, ``gap`` (between panels), ``bottom``, ``left`` and ``right`` inches around them
    for titles and tick labels."""
    from matplotlib.figure import Figure as Chart

    height = top + bottom + sum(rows) + gap * (len(rows) - 1)
    chart = Chart(figsize=(WIDTH, height))
    axes = []
    y = height - top
    for row in rows:
        y -= row
        axes.append(chart.add_axes((left / WIDTH, y / height, 1 - (left + right) / WIDTH,
                                    row / height)))
        y -= gap
    return chart, axes


def _bins(counts: Counter[float]) -> Any:
    """One bin per whole number over a short range of whole numbers, else 20 bins."""
    low, high = (min(counts), max(counts)) if counts else (0, 0)
    if all(float(value).is_integer() for value in counts) and high - low <= 40:
        return [edge - 0.5 for edge in range(int(low), int(high) + 2)]
    return 20


def _draw_histogram(axes: Axes, counts: Counter[float], label: str) -> None:
    if counts:
        values = sorted(counts)
        axes.hist(values, bins=_bins(counts), weights=[counts[value] for value in values],
                  color=BAR_COLOUR, edgecolor="white")
    axes.set_xlabel(label)
    axes.set_ylabel("records")
    _whole_ticks(axes.yaxis)
    if counts and all(float(value).is_integer() for value in counts):
        _whole_ticks(axes.xaxis)
    axes.spines[["top", "right"]].set_visible(False)


def histograms(chart_id: str, caption: str,
               series: Sequence[tuple[str, Counter[float]]]) -> str:
    """One histogram a series (label, values), one above the other, each full width."""
    chart, panels = stacked([1.5] * len(series), top=0.15, gap=0.75, bottom=0.6,
                            left=_LEFT, right=_RIGHT)
    for axes, (label, counts) in zip(panels, series):
        _draw_histogram(axes, counts, label)
    return embed(chart, chart_id, caption)


def decade(counts: Counter[float]) -> int | None:
    """The decade of the largest magnitude among ``counts`` (``d`` for 10**(d-1) < m <=
    10**d), None when every value is 0.

    >>> decade(Counter({0: 3, 2: 1})), decade(Counter({-40: 1, 7: 2})), decade(Counter({0: 5}))
    (1, 2, None)
    """
    magnitude = max(abs(value) for value in counts)
    return math.ceil(math.log10(magnitude) - 1e-12) if magnitude else None


def scale_groups(series: Sequence[Series]) -> tuple[list[tuple[str, list[Series]]],
                                                     list[Series]]:
    """The panels of the box plots, as (title, series) in the order of :data:`KIND_TITLES`
    then of size, and the series that are 0 in every record (not drawn)."""
    panels: dict[tuple[int, int], list[Series]] = {}
    zeros = []
    order = list(KIND_TITLES)
    for one in series:
        size = decade(one.counts) if one.counts else None
        if size is None:
            zeros.append(one)
        else:
            panels.setdefault((order.index(one.kind), size), []).append(one)
    titled = []
    for (kind, size), members in sorted(panels.items()):
        top = f"{10.0 ** size:g}"
        titled.append((f"{KIND_TITLES[order[kind]]}, up to {top}", members))
    return titled, zeros


def box_plots(chart_id: str, caption: str, series: Sequence[Series]) -> str:
    """Box plots of every series (see :func:`draw_box_plots`) in a ``<figure>``; the series
    that are 0 in every record are named in the caption."""
    chart, zeros = draw_box_plots(series)
    if zeros:
        caption += (". 0 in every record, not drawn: "
                    + "; ".join(one.label for one in zeros))
    if chart is None:
        return f"<p>{_esc(caption)}.</p>\n"
    return embed(chart, chart_id, caption)


def draw_box_plots(series: Sequence[Series]) -> tuple[Chart | None, list[Series]]:
    """Box plots of every series, one panel per group of :func:`scale_groups` on its own
    linear axis, each figure's name above its box (so the box has the full width, whatever
    the length of the name); and the series that are 0 in every record (not drawn)."""
    groups, zeros = scale_groups(series)
    if not groups:
        return None, zeros
    chart, panels = stacked([_BOX_ROW * len(members) for _, members in groups], top=0.4,
                            gap=0.95, bottom=0.35, left=0.1, right=0.25)
    for axes, (title, members) in zip(panels, groups):
        positions = [index + 0.68 for index in range(len(members))]
        axes.bxp([box_stats(one.counts) for one in members], positions=positions,
                 orientation="horizontal", widths=0.36, manage_ticks=False,
                 flierprops={"markersize": 3})
        for position, one in zip(positions, members):
            axes.text(0, position - 0.28, f"{one.label} ({one.counts.total()} records)",
                      transform=axes.get_yaxis_transform(), va="bottom", ha="left")
        axes.set_ylim(len(members), 0)
        axes.set_yticks([])
        low = min(0.0, *(min(one.counts) for one in members))
        high = max(0.0, *(max(one.counts) for one in members))
        axes.set_xlim(low - 0.03 * (high - low), high + 0.03 * (high - low))
        axes.set_title(title, loc="left")
        axes.spines[["top", "right", "left"]].set_visible(False)
    return chart, zeros


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
