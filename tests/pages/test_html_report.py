"""The HTML report with charts (issue #12): one self-contained, well-formed page, a chart for
every required item, diagnostic counts that link to the records, the same page from a results
database, and a usage error without matplotlib."""

from __future__ import annotations

import collections
import html.parser
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from notation_tools.pages.report import HtmlReport, box_stats
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
def pages(tmp_path_factory):
    """analyze --html of the samples, with a database, and report --html from it."""
    folder = tmp_path_factory.mktemp("html")
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
    wanted = ["chart-records", "chart-diagnostics"]
    for game in games:
        wanted += [f"chart-{item}-{game}" for item in
                   ("results", "ends", "lengths", "key-figures", "figures")]
    assert all(checker.charts.get(chart) == 1 for chart in wanted), \
        sorted(set(wanted) - set(checker.charts))
    # the figures are distributions: box plots and histograms, not a table of sums
    assert "(total)" not in page and "box plots" in page and "histogram" in page


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
