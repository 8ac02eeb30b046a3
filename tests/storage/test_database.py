"""The results database, record-level parallelism, progress, Parquet and the Dask backend
(issue #10)."""

from __future__ import annotations

import gzip
import io
import json
import sqlite3
import tarfile
from pathlib import Path

import pytest

from notation_tools.parallel.batch import RecordReport, Settings, iter_reports
from notation_tools.storage.database import (SCHEMA_VERSION, DatabaseError, ResultsDatabase,
                                              analyze_into)
from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.reports import Summary, report_to_json
from notation_tools.games.base import get_game
from notation_tools.records.pgn import write_record
from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


def _pgn(game_id: str, count: int, seed: int, plies: int = 30) -> str:
    game = get_game(game_id)
    return "".join(write_record(r) for r in generate_records(
        game, game.parse_rules(None), count=count, seed=seed, max_plies=plies))


@pytest.fixture
def inputs(tmp_path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.pgn").write_text(_pgn("elevation", 4, 1), encoding="utf-8")
    data = _pgn("shuriken-2d", 5, 2, 60).encode()
    with tarfile.open(folder / "b.tar.gz", "w:gz") as tar:
        for name in ("x/one.pgn", "x/two.pgn"):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    broken = _pgn("maka-dai-dai-shogi", 2, 3).replace("1. ", "1. Zz9z ", 1)
    (folder / "c.pgn").write_text(broken, encoding="utf-8")
    return folder


def _run(db: ResultsDatabase, paths: list[str], settings: Settings | None = None):
    settings = settings or Settings(collect_stats=True, details=True)
    return list(analyze_into(db, paths, settings,
                             analyze=lambda files: iter_reports(files, settings)))


def _json(items) -> list[dict]:
    return [report_to_json(item) for item in items]


# -------------------------------------------------------------------------------------------
# The database


def test_analyze_db_then_report_prints_the_same_report(runner, tmp_path, inputs):
    db = tmp_path / "results.sqlite"
    plain = invoke(runner, ["analyze", str(inputs), "-j", "1", "--format", "json"])
    stored = invoke(runner, ["analyze", str(inputs), "-j", "1", "--format", "json",
                             "--db", str(db)])
    again = invoke(runner, ["report", str(db), "--format", "json"])
    assert plain.exit_code == stored.exit_code == again.exit_code == 0
    assert json.loads(plain.stdout) == json.loads(stored.stdout) == json.loads(again.stdout)


def test_every_record_row_holds_what_the_schema_says(tmp_path, inputs):
    with ResultsDatabase(str(tmp_path / "r.sqlite")) as db:
        items = _run(db, [str(inputs)])
    connection = sqlite3.connect(tmp_path / "r.sqlite")
    rows = connection.execute(
        "SELECT source, member, record_index, byte_offset, game, rules, plies, valid, "
        "movetext_digest FROM records ORDER BY input_id, seq").fetchall()
    reports = [i for i in items if isinstance(i, RecordReport)]
    assert len(rows) == len(reports) == 4 + 10 + 2
    for row, item in zip(rows, reports):
        assert row[0] == item.path and row[2] == item.index and row[4] == item.game
        assert row[6] == item.plies and row[7] == item.is_valid and row[8] == item.digest
    members = {row[1] for row in rows if row[0].startswith(str(inputs / "b.tar.gz"))}
    assert members == {"x/one.pgn", "x/two.pgn"}
    # every stored offset points at the record's first line in its file
    text = (inputs / "a.pgn").read_bytes()
    for source, _, _, offset, *_ in rows:
        if source.endswith("a.pgn"):
            assert text[offset:offset + 7] == b'[Event '
    tags = connection.execute("SELECT name, value FROM tags WHERE record_id = 1 "
                              "ORDER BY position").fetchall()
    assert ("Variant", "elevation") in tags
    codes = connection.execute("SELECT code, line, col, ply, move FROM diagnostics "
                               "WHERE record_id IS NOT NULL").fetchall()
    assert any(code == "E-SYNTAX" or code.startswith("E-") for code, *_ in codes)
    kinds = dict(connection.execute("SELECT DISTINCT kind, 1 FROM figures").fetchall())
    assert "int" in kinds


def test_byte_offsets_with_crlf_gzip_and_json(tmp_path):
    text = _pgn("elevation", 3, 4).replace("\n", "\r\n").encode()
    (tmp_path / "crlf.pgn.gz").write_bytes(gzip.compress(text))
    settings = Settings(details=True)
    offsets = [i.offset for i in iter_reports([str(tmp_path / "crlf.pgn.gz")], settings)]
    assert len(offsets) == 3 and all(text[o:o + 7] == b"[Event " for o in offsets)
    lines = "".join(json.dumps({"tags": {"Variant": "elevation"}, "moves": []}) + "\n"
                    for _ in range(3))
    (tmp_path / "r.jsonl").write_text(lines, encoding="utf-8")
    offsets = [i.offset for i in iter_reports([str(tmp_path / "r.jsonl")], settings)]
    first = len(lines) // 3
    assert offsets == [0, first, 2 * first]


def test_a_second_run_reads_unchanged_inputs_back_and_replaces_changed_ones(tmp_path,
                                                                         inputs):
    path = str(tmp_path / "r.sqlite")
    with ResultsDatabase(path) as db:
        first = _json(_run(db, [str(inputs)]))
    connection = sqlite3.connect(path)
    stamps = dict(connection.execute("SELECT path, id FROM inputs"))
    with ResultsDatabase(path) as db:
        second = _json(_run(db, [str(inputs)]))
    assert second == first
    assert dict(connection.execute("SELECT path, id FROM inputs")) == stamps  # not redone
    (inputs / "a.pgn").write_text(_pgn("elevation", 2, 9), encoding="utf-8")
    with ResultsDatabase(path) as db:
        third = _run(db, [str(inputs)])
    count = connection.execute("SELECT count(*) FROM records WHERE source LIKE ?",
                               ("%a.pgn",)).fetchone()[0]
    assert count == 2 and len([i for i in third if isinstance(i, RecordReport)]) == 2 + 10 + 2
    assert connection.execute("SELECT count(*) FROM records").fetchone()[0] == 14
    changed = dict(connection.execute("SELECT path, id FROM inputs"))
    assert changed[str(inputs / "a.pgn")] != stamps[str(inputs / "a.pgn")]
    assert changed[str(inputs / "b.tar.gz")] == stamps[str(inputs / "b.tar.gz")]


def test_parallel_run_keeps_the_database_as_analyze_does(tmp_path, inputs):
    from notation_tools.parallel import run

    settings = Settings(collect_stats=True, details=True)
    path = str(tmp_path / "r.sqlite")
    alone = _json(iter_reports([str(inputs)], settings))
    assert _json(run([str(inputs)], settings, jobs=2, database=path)) == alone
    connection = sqlite3.connect(path)
    stamps = dict(connection.execute("SELECT path, id FROM inputs"))
    assert _json(run([str(inputs)], settings, database=path)) == alone  # read back
    assert dict(connection.execute("SELECT path, id FROM inputs")) == stamps


def test_other_rules_overrides_analyse_again(tmp_path, inputs):
    path = str(tmp_path / "r.sqlite")
    with ResultsDatabase(path) as db:
        list(analyze_into(db, [str(inputs / "a.pgn")], Settings(details=True),
                          analyze=lambda f: iter_reports(f, Settings(details=True))))
        assert db.is_current(str(inputs / "a.pgn"),
                             sqlite3.connect(path).execute("SELECT digest FROM inputs")
                             .fetchone()[0])
        assert not db.is_current(str(inputs / "a.pgn"), "0" * 32)


def test_an_interrupted_run_leaves_a_consistent_database_the_next_run_completes(tmp_path,
                                                                              inputs):
    path = str(tmp_path / "r.sqlite")
    settings = Settings(collect_stats=True, details=True)
    with ResultsDatabase(path) as db:
        run = analyze_into(db, [str(inputs)], settings,
                           analyze=lambda files: iter_reports(files, settings))
        for _ in range(6):  # into the archive's records, then Ctrl-C
            next(run)
        run.close()
    connection = sqlite3.connect(path)
    state = dict(connection.execute("SELECT path, complete FROM inputs"))
    assert state[str(inputs / "a.pgn")] == 1 and state[str(inputs / "b.tar.gz")] == 0
    with ResultsDatabase(path) as db:
        partial = list(db.reports())
    assert len(partial) == 4  # only the complete input is reported
    with ResultsDatabase(path) as db:
        _run(db, [str(inputs)])
    assert set(dict(connection.execute("SELECT path, complete FROM inputs")).values()) == {1}
    assert connection.execute("SELECT count(*) FROM records").fetchone()[0] == 16


def test_report_names_an_incomplete_input(runner, tmp_path, inputs):
    path = str(tmp_path / "r.sqlite")
    settings = Settings(collect_stats=True, details=True)
    with ResultsDatabase(path) as db:
        run = analyze_into(db, [str(inputs)], settings,
                           analyze=lambda files: iter_reports(files, settings))
        for _ in range(6):
            next(run)
        run.close()
    result = invoke(runner, ["report", path])
    assert result.exit_code == 0 and "b.tar.gz was not analysed to the end" in result.stderr


def test_a_full_disk_is_an_error_and_nothing_is_presented_as_complete(tmp_path, inputs):
    path = str(tmp_path / "r.sqlite")
    with ResultsDatabase(path) as db:
        used = db.connection.execute("PRAGMA page_count").fetchone()[0]
        # as a disk that fills up: room for the first input, not for the archive
        db.connection.execute(f"PRAGMA max_page_count = {used + 3}")
        with pytest.raises(DatabaseError, match="full"):
            _run(db, [str(inputs)])
        assert all(not complete or path.endswith("a.pgn") for path, complete in db.inputs())


def test_files_that_are_not_results_databases_are_refused(runner, tmp_path, inputs):
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database\n" * 100, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)")
    newer = tmp_path / "newer.sqlite"
    ResultsDatabase(str(newer)).close()
    connection = sqlite3.connect(newer)
    connection.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                       (str(SCHEMA_VERSION + 1),))
    connection.commit()
    for path, words in ((text, "not an SQLite results database"),
                        (other, "not a notation-tools results database"),
                        (newer, f"schema version {SCHEMA_VERSION + 1}")):
        for args in (["analyze", str(inputs), "--db", str(path)], ["report", str(path)]):
            result = invoke(runner, args)
            assert result.exit_code == 2 and words in result.stderr, args
            assert result.stdout == ""


def test_docs_example_queries_run(tmp_path, inputs):
    """Every ``sqlite3 results.sqlite "..."`` example of docs/database.md runs."""
    import re
    import shlex

    path = str(tmp_path / "results.sqlite")
    with ResultsDatabase(path) as db:
        _run(db, [str(inputs)])
    text = (Path(__file__).resolve().parents[2] / "docs" / "database.md").read_text()
    queries = [shlex.split(line)[2] for line in re.findall(r"^sqlite3 results\.sqlite .*$",
                                                           text, re.MULTILINE)]
    assert len(queries) >= 5
    connection = sqlite3.connect(path)
    for query in queries:
        connection.execute(query).fetchall()


# -------------------------------------------------------------------------------------------
# Parallel where the work is


def test_one_archive_is_split_by_records_and_stays_in_order(inputs):
    archive = str(inputs / "b.tar.gz")
    one = _json(iter_reports([archive], Settings(collect_stats=True), jobs=1, batch_size=2))
    two = _json(iter_reports([archive], Settings(collect_stats=True), jobs=2, batch_size=2))
    assert one == two and len(one) == 10


def test_the_progress_bar_shows_bytes_records_and_rate(runner, inputs, tmp_path):
    for command in (["analyze"], ["validate"], ["stats"], ["convert", "--to", "jsonl",
                                                           "-o", str(tmp_path / "o.jsonl")],
                    ["select", "-o", str(tmp_path / "o.pgn")]):
        result = invoke(runner, [*command, str(inputs), "--progress"])
        assert "16 records" in result.stderr and "records/s" in result.stderr, command
        assert "100%" in result.stderr, command
        quiet = invoke(runner, [*command, str(inputs)])
        assert "records/s" not in quiet.stderr  # not a terminal: no bar unless asked


# -------------------------------------------------------------------------------------------
# Parquet and Dask


def test_parquet_dataset_holds_every_record(runner, tmp_path, inputs):
    import pyarrow.parquet as pq

    out = tmp_path / "dataset"
    result = invoke(runner, ["analyze", str(inputs), "-j", "2", "--parquet", str(out)])
    assert result.exit_code == 0
    records = pq.read_table(out / "records").to_pylist()
    reports = [i for i in iter_reports([str(inputs)], Settings(details=True))
               if isinstance(i, RecordReport)]
    assert sorted((r["source"], r["record_index"], r["plies"], r["movetext_digest"])
                  for r in records) == sorted((i.path, i.index, i.plies, i.digest)
                                              for i in reports)
    assert pq.read_table(out / "figures").num_rows > 0


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_dask_local_cluster_gives_the_single_process_results(tmp_path, inputs):
    from notation_tools.parallel.distributed import connect, iter_reports_on

    settings = Settings(collect_stats=True, details=True)
    alone = list(iter_reports([str(inputs)], settings))
    with connect("local", workers=2) as client:
        assert len(client.scheduler_info()["workers"]) == 2  # real worker processes
        distributed = list(iter_reports_on(client, [str(inputs)], settings, batch_size=3))
        with ResultsDatabase(str(tmp_path / "r.sqlite")) as db:
            stored = list(analyze_into(db, [str(inputs)], settings, analyze=lambda files:
                                       iter_reports_on(client, files, settings)))
    assert _json(distributed) == _json(alone) == _json(stored)
    assert [i.figures for i in distributed if isinstance(i, RecordReport)] == \
        [i.figures for i in alone if isinstance(i, RecordReport)]
    summary_alone, summary_dask = Summary(), Summary()
    for item in alone:
        summary_alone.add(item)
    for item in distributed:
        summary_dask.add(item)
    assert summary_alone.tables() == summary_dask.tables()


def test_without_dask_the_option_says_how_to_install_it(monkeypatch):
    import sys

    from notation_tools.parallel.distributed import ClusterError, connect

    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(ClusterError, match=r"pip install 'notation-tools\[dask\]'"):
        with connect("local"):
            pass


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_an_unreachable_scheduler_is_an_error(runner, inputs):
    from notation_tools.parallel.distributed import ClusterError, connect

    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler"):
        with connect("tcp://127.0.0.1:9", timeout="1s"):
            pass


def test_a_damaged_database_is_an_error_not_a_traceback(runner, tmp_path, inputs):
    """Tables missing: exit 2 and the file named, never a wrong report or a traceback. (A row
    changed by hand is one diagnostic and the report goes on: tests/storage/
    test_storage_faults.py.)"""
    half = tmp_path / "half.sqlite"
    connection = sqlite3.connect(half)
    connection.execute("CREATE TABLE meta (key, value)")
    connection.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    connection.commit()
    damaged = tmp_path / "damaged.sqlite"
    assert invoke(runner, ["analyze", str(inputs), "--db", str(damaged), "-j", "1"]
                  ).exit_code == 0
    connection = sqlite3.connect(damaged)
    connection.execute("DROP TABLE diagnostics")
    connection.commit()
    for path in (half, damaged):
        result = invoke(runner, ["report", str(path)])
        assert result.exit_code == 2 and str(path) in result.stderr
        assert result.stdout == ""


def test_parquet_records_name_each_record_s_opening_as_the_database_does(runner, tmp_path):
    import pyarrow.parquet as pq

    samples = Path(__file__).resolve().parents[2] / "sample_games" / "maka"
    out, db = tmp_path / "dataset", tmp_path / "r.sqlite"
    result = invoke(runner, ["analyze", str(samples), "-j", "1", "--parquet", str(out),
                             "--db", str(db)])
    assert result.exit_code in (0, 1)
    named = {(r["source"], r["record_index"]): r["opening"]
             for r in pq.read_table(out / "records").to_pylist()}
    connection = sqlite3.connect(db)
    stored = dict(((source, index), name) for source, index, name in connection.execute(
        "SELECT records.source, records.record_index, openings.name FROM records "
        "LEFT JOIN openings ON openings.record_id = records.id"))
    connection.close()
    assert named == stored and any(named.values())
