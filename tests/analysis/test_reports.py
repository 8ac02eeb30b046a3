"""The analyze report's figures (issue #12): each summarized by its kind, computed here
independently from the records' own figures; the short default table and the complete one."""

from __future__ import annotations

import json
import multiprocessing
import statistics
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from notation_tools.parallel.batch import RecordReport, Settings, iter_reports
from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.reports import Summary
from notation_tools.games.base import FigureKind, get_game
from notation_tools.records.pgn import write_record
from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


def expected_summary(kind: FigureKind, values: list[float | None]) -> float | None:
    """The summary the issue asks for, from the values of the records (None: not applying)."""
    present = [value for value in values if value is not None]
    if not present:
        return None
    if kind is FigureKind.MAX:
        return max(present)
    if kind is FigureKind.MIN:
        return min(present)
    return round(statistics.fmean(present), 3)


def report(game: str, figures: dict, plies: int = 10) -> RecordReport:
    return RecordReport("a.pgn", 1, 1, game, None, plies, None, None, [], figures)


MAKA = get_game("maka")
KINDS = {kind: next(name for name, figure in MAKA.figures.items() if figure.kind is kind)
         for kind in (FigureKind.COUNT, FigureKind.MAX, FigureKind.MIN, FigureKind.PLY)}


@given(st.lists(st.fixed_dictionaries({name: st.none() | st.integers(0, 500)
                                       for name in KINDS.values()}), min_size=1, max_size=30))
def test_each_figure_is_summarized_by_its_kind(records):
    summary = Summary()
    for figures in records:
        summary.add(report(MAKA.id, {k: v for k, v in figures.items() if v is not None}))
    rows = {row[0]: row[1:] for row in summary.figure_rows(MAKA.id, all_figures=True)}
    for kind, name in KINDS.items():
        values = [figures[name] for figures in records]
        applies = sum(value is not None for value in values)
        if not applies:
            assert name not in rows
            continue
        count, statistic, value = rows[name]
        assert count == applies
        assert statistic == {FigureKind.MAX: "max", FigureKind.MIN: "min"}.get(kind, "mean")
        assert value == expected_summary(kind, values)


def test_a_ply_figure_is_a_mean_over_the_records_where_it_happened():
    summary = Summary()
    for ply in (4, None, 10, None):
        summary.add(report(MAKA.id, {"first_capture_ply": ply, "longest_move": 3}))
    rows = {row[0]: row[1:] for row in summary.figure_rows(MAKA.id, all_figures=True)}
    assert rows["first_capture_ply"] == [2, "mean", 7.0]  # never a sum (14) nor over 4 records
    assert rows["longest_move"] == [4, "max", 3]  # never a sum of maxima (12)


def test_figures_of_replayed_records_match_an_independent_summary(tmp_path):
    for game_id in ("elevation", "game-of-war"):
        game = get_game(game_id)
        path = tmp_path / f"{game_id}.pgn"
        path.write_text("".join(write_record(r) for r in generate_records(
            game, game.parse_rules(None), count=6, seed=5, max_plies=60)), encoding="utf-8")
        reports = list(iter_reports([str(path)], Settings(collect_stats=True), jobs=1))
        summary = Summary()
        for item in reports:
            summary.add(item)
        rows = summary.figure_rows(game.id, all_figures=True)
        assert rows and {row[0] for row in rows} == {
            name for name in game.figures if any(r.figures.get(name) is not None
                                                 for r in reports)}
        for name, applies, _, value in rows:
            values = [r.figures.get(name) for r in reports]
            assert applies == sum(v is not None for v in values)
            assert value == expected_summary(game.figures[name].kind, values), name


def test_the_workers_are_gone_once_every_report_is_read(tmp_path):
    # A pool still shutting down at exit races the interpreter's own shutdown of it, which
    # printed "OSError: Bad file descriptor" after a finished run now and then.
    game = get_game("shuriken")
    path = tmp_path / "four.pgn"
    path.write_text("".join(write_record(r) for r in generate_records(
        game, game.parse_rules(None), count=4, seed=3, max_plies=20)), encoding="utf-8")
    reports = list(iter_reports([str(path)], Settings(collect_stats=True), jobs=2,
                                batch_size=1))
    assert [r.index for r in reports] == [1, 2, 3, 4]
    assert multiprocessing.active_children() == []


def test_the_default_table_is_short_and_json_holds_every_figure(runner):
    short = invoke(runner, ["analyze", "-j", "1", str(SAMPLES)])
    full = invoke(runner, ["analyze", "-j", "1", "--figures", str(SAMPLES)])
    data = invoke(runner, ["analyze", "-j", "1", "--format", "json", str(SAMPLES)])
    assert short.exit_code == full.exit_code == data.exit_code == 0
    assert "(total)" not in full.stdout
    assert len(short.stdout.splitlines()) * 2 < len(full.stdout.splitlines())
    tables = {table["title"]: table["rows"] for table in json.loads(data.stdout)}
    for game in get_game("maka"), get_game("shih"):
        keys = [name for name, figure in game.figures.items() if figure.key]
        shown = [line.split()[0] for line in
                 short.stdout.split(f"Key figures: {game.id}\n")[1].split("\n\n")[0]
                 .splitlines()[2:]]
        assert shown and set(shown) <= set(keys)
        every = {row["figure"] for row in tables[f"Figures: {game.id}"]}
        assert set(shown) < every and f"Figures: {game.id}" in full.stdout
        for row in tables[f"Figures: {game.id}"]:
            kind = game.figures[row["figure"]].kind
            assert row["summary"] == {FigureKind.MAX: "max",
                                      FigureKind.MIN: "min"}.get(kind, "mean")
