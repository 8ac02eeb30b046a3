"""The HTML report with charts (issue #12): one self-contained, well-formed page, a chart for
every required item, diagnostic counts that link to the records, the same page from a results
database, and a usage error without matplotlib.

Issue #29: no chart repeats a table; every figure shown by its human label; box plots grouped
by scale on linear axes; chart text at least 11 CSS px and no page wider than the screen, on a
laptop and on a phone, measured in headless Chromium."""

from __future__ import annotations

import collections
import html
import html.parser
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from notation_tools.games.base import FigureKind, all_games
from notation_tools.pages.report import HtmlReport, box_stats, figure_label, slug
from notation_tools.pages.report_charts import Series, decade, draw_box_plots, scale_groups
from notation_tools.records.diagnostics import Diagnostic
from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}


class PageChecker(html.parser.HTMLParser):
    """Every element closed in order (SVG's self-closed ones too), ids, links, chart figures."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []
        self.ids: collections.Counter[str] = collections.Counter()
        self.links: list[str] = []
        self.charts: dict[str, int] = {}  # chart id -> number of <svg> inside
        self.link_text: dict[str, str] = {}
        self._chart: str | None = None
        self._link: str | None = None
        self.text: list[str] = []  # every text a reader sees, the charts' included

    def handle_starttag(self, tag, attrs):
        self._start(tag, dict(attrs))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, dict(attrs))

    def _start(self, tag, attrs):
        for name, value in attrs.items():
            if name in ("src", "srcset") or (name.endswith("href") and value
                                               and not value.startswith("#")):
                self.problems.append(f"external reference {name}={value}")
        if "id" in attrs:
            self.ids[attrs["id"]] += 1
        if tag == "a" and attrs.get("href", "").startswith("#"):
            self.links.append(attrs["href"][1:])
            self._link = attrs["href"][1:]
        if tag == "figure" and "chart" in attrs.get("class", ""):
            self._chart = attrs["id"]
            self.charts[self._chart] = 0
        if tag == "svg" and self._chart is not None:
            self.charts[self._chart] += 1
        if tag in ("script", "link", "iframe", "img", "object"):
            self.problems.append(f"<{tag}>")

    def handle_endtag(self, tag):
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
            return
        self.open.pop()
        if tag == "figure":
            self._chart = None
        if tag == "a":
            self._link = None

    def handle_data(self, data):
        if self.open[-1:] != ["style"]:
            self.text.append(data)
        if self._link is not None:
            self.link_text[self._link] = self.link_text.get(self._link, "") + data


def check_page(text: str) -> PageChecker:
    assert text.startswith("<!DOCTYPE html>\n")
    checker = PageChecker()
    checker.feed(text)
    checker.close()
    assert checker.problems == [] and checker.open == []
    assert [name for name, count in checker.ids.items() if count > 1] == []
    return checker


@pytest.fixture(scope="module")
def html_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("html")


@pytest.fixture(scope="module")
def pages(html_folder):
    """analyze --html of the samples, with a database, and report --html from it."""
    folder = html_folder
    runner = CliRunner()
    analyzed = invoke(runner, ["analyze", "-j", "2", "--html", str(folder / "analyze.html"),
                               "--db", str(folder / "r.sqlite"), "-f", "json",
                               str(SAMPLES)])
    reported = invoke(runner, ["report", str(folder / "r.sqlite"), "--html",
                               str(folder / "report.html"), "-f", "json"])
    assert analyzed.exit_code == reported.exit_code == 0
    assert analyzed.stdout == reported.stdout
    return ((folder / "analyze.html").read_text(encoding="utf-8"),
            (folder / "report.html").read_text(encoding="utf-8"), analyzed.stdout)


def test_the_page_is_well_formed_and_self_contained(pages):
    page, _, _ = pages
    check_page(page)
    assert re.search(r"https?:", page) is None
    assert "<?xml" not in page and "<!DOCTYPE svg" not in page
    assert "<style>" in page and "<svg" in page


def test_every_required_item_has_a_chart(pages):
    import json

    page, _, tables = pages
    checker = check_page(page)
    games = [row["game"] for table in json.loads(tables) if table["title"] == "Games"
             for row in table["rows"] if row["game"] != "(unknown)"]
    assert len(games) == 5
    wanted = []
    for game in games:
        wanted += [f"chart-{item}-{game}" for item in ("lengths", "key-figures", "figures")]
    assert all(checker.charts.get(chart) == 1 for chart in wanted), \
        sorted(set(wanted) - set(checker.charts))
    # the figures are distributions: box plots and histograms, not a table of sums
    assert "(total)" not in page and "box plots" in page and "histogram" in page


def test_no_chart_repeats_a_table(pages):
    # Counts a table gives exactly (records, diagnostics, results, ends) are tables: a bar
    # chart of them said nothing more (#29). What they held is in the page's tables instead.
    import json

    page, _, tables = pages
    checker = check_page(page)
    assert sorted({re.sub(r"-.*", "", chart.removeprefix("chart-")) for chart in
                   checker.charts}) == ["figures", "key", "lengths"]
    for title, header in (("Results", "result"), ("How games ended", "how the game ended")):
        for row in next(t["rows"] for t in json.loads(tables) if t["title"] == title):
            value = row["result"] if title == "Results" else row["end"]
            section = re.search(rf'<section id="game-{slug(row["game"])}">.*?</section>', page,
                                re.S).group(0)
            table = re.search(rf"<th>{header}</th>.*?</table>", section, re.S).group(0)
            assert f"<td>{html.escape(value)}</td><td class=\"n\">{row['records']}</td>" \
                in table


def test_each_diagnostic_count_links_to_its_records(pages):
    import json

    page, _, tables = pages
    checker = check_page(page)
    assert checker.links and all(checker.ids[target] == 1 for target in checker.links)
    codes = next(t["rows"] for t in json.loads(tables) if t["title"] == "Diagnostics by code")
    assert codes
    sections = dict(re.findall(r'<h3 id="(code-[^"]+)">[^<]*</h3>\n<ul class="diagnostics">\n'
                               r'(.*?)</ul>', page, re.S))
    for row in codes:
        anchor = f"code-{row['code']}"
        assert checker.link_text[anchor] == str(row["count"])
        records = re.findall(r'<li><a href="#(record-\d+)">', sections[anchor])
        assert len(records) == row["count"]
        for record in records:
            line = re.search(rf'<tr id="{record}">.*?</tr>', page, re.S).group(0)
            assert f"[{row['code']}]" in line


def test_report_from_the_database_writes_the_same_page(pages):
    page, from_database, _ = pages
    assert page == from_database


def test_the_page_does_not_depend_on_the_order_of_the_reports(tmp_path):
    unreadable = Diagnostic("E-IO", "not an archive", "b.zip", 1, 1)
    first, second = HtmlReport(), HtmlReport()
    from notation_tools.parallel.batch import RecordReport

    items = [RecordReport("a.pgn", i, 10 * i, "elevation", None, i, "1-0", None,
                          [Diagnostic("E-SYNTAX", "bad", "a.pgn", 10 * i, 3)] if i % 2 else [],
                          {"captures": i, "first_capture_ply": i or None})
             for i in range(1, 6)] + [unreadable]
    for item in items:
        first.add(item)
    for item in reversed(items):
        second.add(item)
    texts = []
    for report in (first, second):
        path = tmp_path / "page.html"
        with open(path, "w", encoding="utf-8") as out:
            report.write(out)
        texts.append(path.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
    checker = check_page(texts[0])
    assert checker.link_text["code-E-SYNTAX"] == "3" and checker.link_text["code-E-IO"] == "1"


@pytest.mark.parametrize("command", ["analyze", "report"])
def test_without_matplotlib_html_is_a_usage_error(runner, monkeypatch, tmp_path, command):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    db = tmp_path / "r.sqlite"
    args = ([command, str(SAMPLES / "elevation")] if command == "analyze"
            else [command, str(db)])
    if command == "report":
        invoke(runner, ["analyze", "-q", "--db", str(db), str(SAMPLES / "elevation")])
    result = invoke(runner, [*args, "--html", str(tmp_path / "page.html")])
    assert result.exit_code == 2
    assert "pip install 'notation-tools[report]'" in result.stderr
    assert result.stdout == "" and not (tmp_path / "page.html").exists()


@given(st.lists(st.integers(0, 60) | st.floats(0, 50, allow_nan=False), min_size=1,
                max_size=40))
def test_box_plots_from_counts_match_matplotlib_from_every_value(values):
    # The page keeps counts of each value (memory by distinct values, not by records): its
    # boxes must be the ones matplotlib draws from the values themselves.
    from matplotlib.cbook import boxplot_stats

    mine = box_stats(collections.Counter(values))
    expected = boxplot_stats(values)[0]
    for key in ("med", "q1", "q3", "whislo", "whishi"):
        assert mine[key] == pytest.approx(expected[key], abs=1e-9), key
    assert mine["fliers"] == sorted(set(expected["fliers"]))


# ---- #29: names, scales, sizes ------------------------------------------------------------


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_every_figure_has_a_human_label(game):
    # What the page shows for a figure is what its game declares it is: words, not the
    # figure's identifier (white_option_B_dig_first).
    for name, figure in game.figures.items():
        label = figure_label(game.id, name)
        assert label == figure.about and label.strip(), name
        assert "_" not in label, (name, label)


def test_the_page_shows_no_raw_figure_name(pages):
    import json

    page, _, tables = pages
    seen = " ".join(check_page(page).text)
    names = {row["figure"] for table in json.loads(tables)
             if table["title"].startswith("Figures: ") for row in table["rows"]}
    raw = sorted(name for name in names if "_" in name)
    assert len(raw) > 100  # the samples have such names: the check below checks something
    assert [name for name in raw if re.search(rf"\b{re.escape(name)}\b", seen)] == []
    assert "B_dig_first" not in page and "basic moves, dig first (white)" in seen


def test_figures_that_share_a_panel_share_an_order_of_magnitude(pages, html_folder):
    # No symlog box mixing 0-2 and 0-200: each panel has its own linear axis, on which each
    # of its figures spans at least a tenth (#29).
    from notation_tools.storage.database import ResultsDatabase

    report = HtmlReport()
    with ResultsDatabase(str(html_folder / "r.sqlite")) as db:
        for item in db.reports():
            report.add(item)
    panels = 0
    for game in sorted(set(report.per_game) - {"(unknown)"}):
        values = report.values[game]
        series = [Series(figure_label(game, name), FigureKind.COUNT, values[name])
                  for name in report.figure_names(game, all_figures=True)]
        chart, _ = draw_box_plots(series)
        groups, _ = scale_groups(series)
        assert len(chart.axes) == len(groups)
        for axes, (_, members) in zip(chart.axes, groups):
            assert axes.get_xscale() == "linear"
            assert [text.get_text() for text in axes.texts] == [
                f"{one.label} ({one.counts.total()} records)" for one in members]
            low, high = axes.get_xlim()
            for one in members:  # 12: the axis has a margin of 3% each side
                assert max(abs(value) for value in one.counts) * 12 >= high - low, one.label
            panels += 1
    assert panels > 5


@given(st.lists(st.tuples(st.sampled_from(list(FigureKind)),
                          st.lists(st.integers(-300, 300) | st.floats(0, 5), min_size=1,
                                   max_size=8)), min_size=1, max_size=12))
def test_scale_groups_hold_one_kind_and_one_decade(drawn):
    series = [Series(f"figure {index}", kind, collections.Counter(values))
              for index, (kind, values) in enumerate(drawn)]
    groups, zeros = scale_groups(series)
    assert sum(len(members) for _, members in groups) + len(zeros) == len(series)
    assert all(max(abs(v) for v in one.counts) == 0 for one in zeros)
    for _, members in groups:
        assert len({one.kind for one in members}) == 1
        assert len({decade(one.counts) for one in members}) == 1


CHART_TEXT = """() => {
  const found = [];
  for (const text of document.querySelectorAll('figure.chart svg text')) {
    if (!text.textContent.trim()) continue;
    const box = text.getBoundingClientRect(), matrix = text.getScreenCTM();
    const upright = Math.abs(matrix.a) >= Math.abs(matrix.b);
    found.push({text: text.textContent, extent: upright ? box.height : box.width,
                size: parseFloat(getComputedStyle(text).fontSize)
                      * Math.hypot(matrix.a, matrix.b)});
  }
  return {texts: found, pageWidth: document.documentElement.scrollWidth};
}"""


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    from tests.pages.test_viewer_browser import launch_chromium

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
def test_chart_text_is_readable_and_the_page_fits_the_screen(pages, html_folder, browser,
                                                              width, height):
    # #29: tick labels were ~7 px on half the width, and the page, without a viewport,
    # rendered 980 px wide on a phone. Every chart text at least 11 CSS px (its font size as
    # drawn, and its box across the line), and nothing wider than the screen but what
    # scrolls in its own box.
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.goto((html_folder / "analyze.html").as_uri())
        measured = page.evaluate(CHART_TEXT)
    finally:
        page.close()
    texts = measured["texts"]
    assert len(texts) > 300
    small = [(t["text"], round(t["size"], 1), round(t["extent"], 1)) for t in texts
             if t["size"] < 11 or t["extent"] < 11]
    assert small == []
    assert measured["pageWidth"] <= width
