"""Storage that loses nothing and trusts nothing (issue #25): the Parquet dataset is never
doubled and a write failure is an output error; names and texts UTF-8 cannot encode are
stored; a results database edited by hand is read as untrusted input; an input a run lost
records of is not marked complete; ``report`` gives what ``analyze`` gave."""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import tarfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.parallel.batch import RecordReport, Settings
from notation_tools.storage.database import ResultsDatabase, analyze_into
from notation_tools.analysis.generate import generate_records
from notation_tools.games.base import get_game
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.pgn import write_record
from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


def _pgn(game_id: str, count: int, seed: int) -> str:
    game = get_game(game_id)
    return "".join(write_record(r) for r in generate_records(
        game, game.parse_rules(None), count=count, seed=seed, max_plies=20))


@pytest.fixture
def two_files(tmp_path) -> tuple[Path, Path]:
    first, second = tmp_path / "a.pgn", tmp_path / "b.pgn"
    first.write_text(_pgn("shih", 5, 1), encoding="utf-8")
    second.write_text(_pgn("elevation", 3, 2), encoding="utf-8")
    return first, second


def _rows(dataset: Path, table: str = "records") -> list[dict]:
    import pyarrow.parquet as pq

    return pq.read_table(dataset / table).to_pylist()


# ------------------------------------------------------------------------------------------
# Parquet


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_second_run_into_a_dataset_is_refused_without_append(runner, tmp_path, two_files,
                                                                jobs):
    first, _ = two_files
    out = tmp_path / "dataset"
    assert invoke(runner, ["analyze", str(first), "-j", jobs, "--parquet", str(out)]
                  ).exit_code == 0
    again = invoke(runner, ["analyze", str(first), "-j", jobs, "--parquet", str(out)])
    assert again.exit_code == 2 and "--append" in again.stderr
    assert len(_rows(out)) == 5  # untouched


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_append_replaces_the_rows_of_the_inputs_it_analyses_again(runner, tmp_path,
                                                                   two_files, jobs):
    first, second = two_files
    out = tmp_path / "dataset"
    invoke(runner, ["analyze", str(first), str(second), "-j", "1", "--parquet", str(out)])
    tags_before = len(_rows(out, "tags"))
    for _ in range(2):  # the same inputs again, in other batches: never doubled
        result = invoke(runner, ["analyze", str(first), "-j", jobs, "--parquet", str(out),
                                 "--append"])
        assert result.exit_code == 0, result.stderr
    records = _rows(out)
    assert sorted((r["source"], r["record_index"]) for r in records) == sorted(
        [(str(first), i) for i in range(1, 6)] + [(str(second), i) for i in range(1, 4)])
    assert len(_rows(out, "tags")) == tags_before
    first.write_text(_pgn("shih", 2, 7), encoding="utf-8")  # the input shrank
    invoke(runner, ["analyze", str(first), "-j", jobs, "--parquet", str(out), "--append"])
    assert sorted(r["record_index"] for r in _rows(out) if r["source"] == str(first)) == [1, 2]


def test_append_needs_parquet(runner, two_files):
    result = invoke(runner, ["analyze", str(two_files[0]), "--append"])
    assert result.exit_code == 2 and "--parquet" in result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_parquet_write_failure_is_an_output_error(runner, tmp_path, two_files, monkeypatch,
                                                    jobs):
    import pyarrow.parquet as pq

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(pq, "write_table", full_disk)  # workers are forked: they see it too
    out = tmp_path / "dataset"
    result = invoke(runner, ["analyze", str(two_files[0]), "-j", jobs, "--parquet", str(out)])
    assert result.exit_code == 2
    assert f"cannot write {out}: No space left on device" in result.stderr
    assert "E-INTERNAL" not in result.output and "internal error" not in result.output
    assert "unreadable" not in result.stdout and result.stdout == ""


# ------------------------------------------------------------------------------------------
# Texts UTF-8 cannot encode


@pytest.fixture
def odd_names(tmp_path, two_files) -> Path:
    folder = tmp_path / "odd"
    folder.mkdir()
    shutil.copy(two_files[0], os.path.join(os.fsencode(folder), b"bad\xff.pgn"))
    (folder / "surrogate.json").write_text(json.dumps(
        [{"tags": {"Variant": "shih", "White": "\udcff\ud800"}, "moves": [], "result": "*"}]),
        encoding="utf-8")
    return folder


def test_a_file_name_and_a_tag_utf8_cannot_encode_are_stored(runner, tmp_path, odd_names):
    db = tmp_path / "r.sqlite"
    result = invoke(runner, ["analyze", str(odd_names), "-j", "1", "--db", str(db),
                             "--format", "json"])
    assert result.exit_code == 0, result.stderr
    report = invoke(runner, ["report", str(db), "--format", "json"])
    assert report.exit_code == 0 and json.loads(report.stdout) == json.loads(result.stdout)
    connection = sqlite3.connect(db)
    paths = [row[0] for row in connection.execute("SELECT path FROM inputs")]
    assert any(path.endswith("bad\\xff.pgn") for path in paths)
    (tags,) = [json.loads(row[0]) for row in connection.execute(
        "SELECT tags_json FROM records WHERE source LIKE '%surrogate.json'")]
    assert ["White", "\udcff\ud800"] in tags  # the escape reads back as the same text
    again = invoke(runner, ["analyze", str(odd_names), "-j", "1", "--db", str(db)])
    assert again.exit_code == 0  # and the next run finds the inputs stored


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_parquet_stores_them_too(runner, tmp_path, odd_names, jobs):
    out = tmp_path / "dataset"
    result = invoke(runner, ["analyze", str(odd_names), "-j", jobs, "--parquet", str(out)])
    assert result.exit_code == 0, result.stderr
    sources = {row["source"] for row in _rows(out)}
    assert any(source.endswith("bad\\xff.pgn") for source in sources)
    assert {"\\udcff\\ud800"} <= {row["value"] for row in _rows(out, "tags")}


# ------------------------------------------------------------------------------------------
# A database edited by hand


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    from click.testing import CliRunner

    folder = tmp_path_factory.mktemp("stored")
    (folder / "a.pgn").write_text(_pgn("shih", 4, 3) + _pgn("maka-dai-dai-shogi", 2, 4),
                                  encoding="utf-8")
    db = folder / "r.sqlite"
    assert invoke(CliRunner(), ["analyze", str(folder / "a.pgn"), "-j", "1", "--db", str(db)]
                  ).exit_code == 0
    return db


EDITS = {"records": ["seq", "source", "record_index", "line", "game", "rules", "plies",
                     "result", "end_reason", "byte_offset", "movetext_digest", "tags_json",
                     "figures_json"],
         "diagnostics": ["seq", "code", "severity", "path", "line", "col", "ply", "number",
                         "side", "move", "message", "rule", "record_index"]}
VALUES = st.one_of(st.none(), st.integers(-2**63, 2**63 - 1), st.floats(),
                   st.text(max_size=20), st.sampled_from(
                       ["$\\frac{a}{", "_^", "$x$", "[1", "{}", '{"a": [1]}', "[[1, 2]]",
                        "NaN", "[]", "\\", "<script>"]), st.binary(max_size=8))


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(st.tuples(st.sampled_from(sorted(EDITS)), st.data()), min_size=1,
                      max_size=4), page=st.sampled_from([False, False, True]))
def test_report_reads_an_edited_database_as_untrusted_input(runner, stored, tmp_path, edits,
                                                            page):
    work = tmp_path / "edited.sqlite"
    shutil.copy(stored, work)
    connection = sqlite3.connect(work)
    try:
        for table, data in edits:
            column = data.draw(st.sampled_from(EDITS[table]))
            value = data.draw(VALUES)
            try:
                connection.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = (SELECT "
                                   f"rowid FROM {table} ORDER BY random() LIMIT 1)", (value,))
            except sqlite3.IntegrityError:
                pass  # NULL where the schema forbids it: no hand can store that either
        connection.commit()
    finally:
        connection.close()
    # (the page's charts cost seconds: drawn for a third of the examples)
    pages = [["--html", str(tmp_path / "page.html")]] if page else []
    for extra in ([], ["--format", "json"], *pages):
        result = invoke(runner, ["report", str(work), *extra])
        assert result.exit_code == 0, result.stderr
        assert "internal error" not in result.output


def test_an_edited_row_is_one_diagnostic_naming_row_and_column(runner, stored, tmp_path):
    work = tmp_path / "edited.sqlite"
    shutil.copy(stored, work)
    connection = sqlite3.connect(work)
    connection.execute("UPDATE records SET plies = 'many' WHERE id = 2")
    connection.execute("UPDATE records SET game = '$\\frac{a}{' WHERE id = 3")
    connection.commit()
    connection.close()
    result = invoke(runner, ["report", str(work), "--format", "json"])
    assert result.exit_code == 0
    assert "records row 2: column plies holds 'many', not a whole number" in result.stderr
    (records,) = [t["rows"][0] for t in json.loads(result.stdout) if t["title"] == "Records"]
    assert records["records"] == 5 and records["unreadable inputs"] == 1  # of 6, 1 left out
    page = invoke(runner, ["report", str(work), "--html", str(tmp_path / "page.html")])
    assert page.exit_code == 0 and "$\\frac{a}{" in (tmp_path / "page.html").read_text()


# ------------------------------------------------------------------------------------------
# Complete inputs, and report = analyze


def test_an_input_a_worker_died_on_is_stored_incomplete(tmp_path, two_files):
    first, _ = two_files

    def lossy(files):
        yield Diagnostic("E-WORKER", "a worker process died twice", str(first), 0, 0)

    with ResultsDatabase(str(tmp_path / "r.sqlite")) as db:
        items = list(analyze_into(db, [str(first)], Settings(details=True), analyze=lossy))
        assert [i.code for i in items] == ["E-WORKER"]
        assert db.inputs() == [(str(first), False)]


@pytest.mark.parametrize("what", ["directory", "archive"])
def test_report_gives_what_analyze_gave(runner, tmp_path, two_files, what):
    if what == "directory":
        target = SAMPLES
    else:
        target = tmp_path / "mixed.tar"
        (tmp_path / "junk.pgn").write_bytes(bytes(range(256)) * 4)
        with tarfile.open(target, "w") as tar:
            for path in (two_files[0], tmp_path / "junk.pgn", two_files[1]):
                tar.add(path, arcname=path.name)
    db = tmp_path / "r.sqlite"
    analyzed = invoke(runner, ["analyze", str(target), "-j", "2", "--db", str(db),
                               "--format", "json"])
    reported = invoke(runner, ["report", str(db), "--format", "json"])
    assert analyzed.exit_code == reported.exit_code == 0
    assert json.loads(analyzed.stdout) == json.loads(reported.stdout)
    assert '"unreadable inputs"' in analyzed.stdout or "unreadable" in analyzed.stdout
    assert all(isinstance(i, (RecordReport, Diagnostic)) for i in
               ResultsDatabase(str(db)).reports())


def test_a_huge_order_number_does_not_make_report_count_to_it(runner, stored, tmp_path):
    # found by the fuzz harness's storage target: seq = 2**62 made report count up to it
    work = tmp_path / "edited.sqlite"
    shutil.copy(stored, work)
    with sqlite3.connect(work) as connection:
        connection.execute("UPDATE records SET seq = ? WHERE id = 1", (2 ** 62,))
    result = invoke(runner, ["report", str(work), "--format", "json"])
    assert result.exit_code == 0
    (records,) = [t["rows"][0] for t in json.loads(result.stdout) if t["title"] == "Records"]
    assert records["records"] == 6


def test_a_text_row_that_is_not_utf8_is_read_with_replacement_characters(runner, stored,
                                                                          tmp_path):
    # a hand can store text that is not UTF-8 (a blob cast to text): before, every report of
    # the database ended with "a stored result cannot be read"
    work = tmp_path / "edited.sqlite"
    shutil.copy(stored, work)
    with sqlite3.connect(work) as connection:
        connection.execute("UPDATE records SET result = CAST(X'C5C5' AS TEXT) WHERE id = 3")
        connection.execute("UPDATE diagnostics SET message = CAST(X'FF41' AS TEXT)")
    result = invoke(runner, ["report", str(work), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    (records,) = [t["rows"][0] for t in json.loads(result.stdout) if t["title"] == "Records"]
    assert records["records"] + records["unreadable inputs"] == 6


@pytest.mark.parametrize("command", ["analyze", "report"])
def test_a_schema_sqlite_quotes_in_bytes_not_utf8_is_a_damaged_database(runner, stored, tmp_path,
                                                                         command):
    # found by the fuzz campaign: SQLite's message about a malformed schema quoted the bytes,
    # and Python's sqlite3 failed to decode the message (UnicodeDecodeError, internal error)
    data = bytearray(stored.read_bytes())
    old = b"source          TEXT NOT NULL,"
    at = data.find(old)
    assert at > 0
    new = b"source TEXT NOT NULL "
    data[at:at + len(old)] = new + b"\xc5" * (len(old) - len(new) - 1) + b","
    work = tmp_path / "damaged.sqlite"
    work.write_bytes(bytes(data))
    (tmp_path / "a.pgn").write_text(_pgn("shih", 1, 5), encoding="utf-8")
    argv = ["analyze", str(tmp_path / "a.pgn"), "--db", str(work)] if command == "analyze" \
        else ["report", str(work)]
    result = invoke(runner, argv)
    assert result.exit_code == 2
    assert f"{work} is not a readable SQLite results database" in result.stderr
    assert "internal error" not in result.stderr
