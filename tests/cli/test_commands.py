"""Each subcommand through Click's runner: output, exit status, and no traceback (G11)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games" / "container"
ANNOTATED = str(SAMPLES / "hand-annotated-variations.pgn")
EXAMPLE = """[Event "Example"]
[Variant "elevation"]
[Rules "standard"]
[White "A. Player"]
[Black "B. Player"]
[Result "*"]

1. c1:c2>b2,c1-c2 d6:d5>c5,d6-d5 *
"""  # Elevation spec §6.4


@pytest.fixture
def example(tmp_path) -> str:
    path = tmp_path / "example.pgn"
    path.write_text(EXAMPLE, encoding="utf-8")
    return str(path)


def test_version_and_help(runner):
    assert invoke(runner, ["--version"]).stdout.startswith("notation-tools, version")
    result = invoke(runner, ["--help"])
    for name in ("validate", "show", "convert", "stats", "analyze", "moves", "perft",
                 "generate", "games"):
        assert name in result.stdout


def test_games_lists_elevation_and_its_options(runner):
    result = invoke(runner, ["games"])
    assert result.exit_code == 0 and "elevation" in result.stdout
    assert "elevation-explicit" in result.stdout and "standard*" in result.stdout
    options = invoke(runner, ["games", "elevation", "--format", "json"])
    names = [row["option"] for row in json.loads(options.stdout)["rows"]]
    assert "fish-diag2-model" in names and "two-pieces-per-turn" in names
    assert invoke(runner, ["games", "chess"]).exit_code == 2


def test_games_check_runs_every_table_check(runner):
    result = invoke(runner, ["games", "--check"])
    assert result.exit_code == 0 and "0 problems" in result.stdout


def test_validate_valid_file_exits_0(runner, example):
    result = invoke(runner, ["validate", example])
    assert result.exit_code == 0
    assert result.stdout == "1 records: 1 valid, 0 invalid (0 errors, 0 warnings)\n"


def test_validate_reports_compiler_style_and_goes_on(runner, tmp_path, example):
    bad = tmp_path / "bad.pgn"
    bad.write_text(EXAMPLE.replace("d6:d5>c5,d6-d5", "d6:d5>c5,d6-d4") + "\n" + EXAMPLE)
    result = invoke(runner, ["validate", str(bad), example])
    assert result.exit_code == 1
    assert result.stderr == (f"{bad}:8:30: error[E-ILLEGAL-MOVE]: move 1 (Black) "
                             "d6:d5>c5,d6-d4: move d6-d4: d4 is not adjacent to d6 [§4.3]\n")
    assert result.stdout.startswith("3 records: 2 valid, 1 invalid")


def test_validate_json_and_jsonl(runner, example):
    document = json.loads(invoke(runner, ["validate", "-f", "json", example]).stdout)
    assert document["summary"] == {"records": 1, "valid": 1, "invalid": 0, "errors": 0,
                                   "warnings": 0, "unreadable_inputs": 0}
    assert document["records"][0]["rules"] == "standard"
    lines = invoke(runner, ["validate", "-f", "jsonl", ANNOTATED]).stdout.splitlines()
    assert [json.loads(line)["record"] for line in lines] == [1, 2]


def test_validate_reads_stdin(runner):
    result = invoke(runner, ["validate", "-"], input=EXAMPLE.encode())
    assert result.exit_code == 0 and result.stdout.startswith("1 records: 1 valid")


def test_validate_game_and_rules_override_tags(runner, tmp_path):
    path = tmp_path / "untagged.pgn"
    path.write_text("[Event \"x\"]\n\n1. c1:c2>b2,c1-c2 *\n")
    assert invoke(runner, ["validate", str(path)]).exit_code == 1
    result = invoke(runner, ["validate", "-v", "--game", "elevation", "--rules",
                             "standard; max-height=4", str(path)])
    assert result.exit_code == 0
    assert "elevation (standard; max-height=4)" in result.stdout


def test_usage_errors_exit_2(runner, tmp_path, example):
    assert invoke(runner, ["validate", str(tmp_path / "missing.pgn")]).exit_code == 2
    assert invoke(runner, ["validate", "--game", "chess", example]).exit_code == 2
    bad_rules = invoke(runner, ["validate", "--game", "elevation", "--rules", "nonsense", example])
    assert bad_rules.exit_code == 2 and "unknown rule profile" in bad_rules.stderr
    assert invoke(runner, ["validate"]).exit_code == 2


def test_show_diagram_at_a_ply_and_the_end(runner, example):
    start = invoke(runner, ["show", example, "--ply", "0"])
    assert start.exit_code == 0
    assert "6  3s  3f  3d  3d  3f  3s" in start.stdout and "White to move" in start.stdout
    end = invoke(runner, ["show", example])
    assert "after ply 2, last move 2: d6:d5>c5,d6-d5" in end.stdout
    fen = invoke(runner, ["show", example, "--format", "fen"])
    # Elevation spec §6.4: the position after the example's two plies.
    assert fen.stdout == ("333333/334233/333333/333333/342333/333333 "
                          "sfd1fs/3d2/6/6/2D3/SF1DFS w\n")
    svg = invoke(runner, ["show", example, "--format", "svg"])
    assert svg.stdout.startswith("<svg") and "<desc>" in svg.stdout


def test_show_second_record_and_unicode(runner):
    result = invoke(runner, ["show", ANNOTATED, "--game-index", "2", "--style", "unicode"])
    assert result.exit_code == 0 and "record 2" in result.stdout
    assert invoke(runner, ["show", ANNOTATED, "--game-index", "9"]).exit_code == 2


def test_show_stops_before_an_illegal_move(runner, tmp_path):
    path = tmp_path / "bad.pgn"
    path.write_text(EXAMPLE.replace("d6:d5>c5,d6-d5", "d6:d5>c5,d6-d4"))
    result = invoke(runner, ["show", str(path)])
    assert result.exit_code == 1 and "E-ILLEGAL-MOVE" in result.stderr
    assert "after ply 1" in result.stdout


def test_convert_round_trips_through_json_and_pgn(runner, tmp_path):
    as_json = invoke(runner, ["convert", ANNOTATED, "--to", "jsonl"])
    assert as_json.exit_code == 0
    json_path = tmp_path / "a.jsonl"
    json_path.write_text(as_json.stdout)
    back = invoke(runner, ["convert", str(json_path), "--to", "pgn"])
    original = invoke(runner, ["convert", ANNOTATED, "--to", "pgn"])
    assert back.stdout == original.stdout
    assert "{A waiting move: the dig is undone at once.}" in back.stdout
    assert "$2" in back.stdout and "(1. d1:c2>e2,e2>c2" in back.stdout.replace("( ", "(")


def test_convert_to_the_explicit_notation_and_back(runner, tmp_path):
    explicit = invoke(runner, ["convert", ANNOTATED, "--to", "elevation-explicit"])
    assert explicit.exit_code == 0
    assert "Dc1=B:c2>b2,c1-c2" in explicit.stdout and "Dd1=DD:c2>e2,e2>c2" in explicit.stdout
    path = tmp_path / "explicit.pgn"
    path.write_text(explicit.stdout)
    compact = invoke(runner, ["convert", str(path), "--to", "elevation"])
    original = invoke(runner, ["convert", ANNOTATED, "--to", "pgn"])
    assert compact.stdout == original.stdout


def test_convert_json_array_container(runner):
    result = invoke(runner, ["convert", ANNOTATED, "--to", "json"])
    data = json.loads(result.stdout)
    assert [record["tags"]["Round"] for record in data] == ["3", "3"]


def test_stats_formats(runner, example):
    table = invoke(runner, ["stats", example])
    assert table.exit_code == 0 and "captures" in table.stdout.splitlines()[0]
    rows = list(csv.DictReader(io.StringIO(invoke(runner, ["stats", "-f", "csv", example]).stdout)))
    assert rows[0]["plies"] == "2" and rows[0]["rules"] == "standard"
    data = json.loads(invoke(runner, ["stats", "-f", "json", example]).stdout)
    assert data["rows"][0]["game"] == "elevation"


def test_analyze_tables_and_output_file(runner, tmp_path):
    out = tmp_path / "report.json"
    result = invoke(runner, ["analyze", "--jobs", "2", "-f", "json", "-o", str(out),
                             str(SAMPLES)])
    assert result.exit_code == 0 and result.stdout == ""
    tables = {table["title"]: table["rows"] for table in json.loads(out.read_text())}
    assert tables["Records"][0]["unreadable inputs"] == 2
    codes = {row["code"] for row in tables["Diagnostics by code"]}
    assert {"E-BAD-TAG", "E-SYNTAX", "E-UNKNOWN-VARIANT", "E-NUMBER", "E-IO"} <= codes


def test_analyze_jobs_do_not_change_the_report(runner):
    one = invoke(runner, ["analyze", "--jobs", "1", "-f", "csv", str(SAMPLES)])
    two = invoke(runner, ["analyze", "--jobs", "2", "-f", "csv", str(SAMPLES)])
    assert one.stdout == two.stdout


def test_moves_and_perft(runner):
    listing = invoke(runner, ["moves", "--game", "elevation", "-f", "csv"])
    assert listing.exit_code == 0
    assert len(listing.stdout.splitlines()) == 1 + 1194  # Elevation spec §12: perft(1)
    result = invoke(runner, ["perft", "--game", "elevation", "--depth", "1"])
    assert result.stdout.startswith("perft(1) = 1194 ")
    bad = invoke(runner, ["moves", "--game", "elevation", "--fen", "nonsense"])
    assert bad.exit_code == 2 and "--fen" in bad.stderr


def test_generate_writes_valid_reproducible_records(runner, tmp_path):
    args = ["generate", "--game", "elevation", "--count", "3", "--seed", "7", "--max-plies", "12"]
    first = invoke(runner, args)
    assert first.exit_code == 0 and first.stdout == invoke(runner, args).stdout
    path = tmp_path / "gen.pgn"
    path.write_text(first.stdout)
    check = invoke(runner, ["validate", str(path)])
    assert check.exit_code == 0 and check.stdout.startswith("3 records: 3 valid")


def test_analyze_progress_and_diagnostics_go_to_stderr(runner):
    result = invoke(runner, ["analyze", "--jobs", "1", "--progress", "--diagnostics",
                             str(SAMPLES)])
    assert result.exit_code == 0
    assert result.stderr.lstrip("\r").startswith("analyze") and "records/s" in result.stderr
    assert "E-UNKNOWN-VARIANT" in result.stderr
    assert "Records" in result.stdout and "E-UNKNOWN-VARIANT" in result.stdout
    quiet = invoke(runner, ["analyze", "--jobs", "1", "--no-progress", str(SAMPLES)])
    assert quiet.stderr == ""


def test_input_files_lists_what_a_walk_reads(tmp_path):
    from notation_tools.sources import input_files, top_file

    (tmp_path / "b").mkdir()
    for name in ("a.pgn", "b/c.pgn.gz", "b/d.zip", "b/notes.md"):
        (tmp_path / name).write_bytes(b"")
    files = input_files([str(tmp_path), "-"])
    assert files == [str(tmp_path / "a.pgn"), str(tmp_path / "b" / "c.pgn.gz"),
                     str(tmp_path / "b" / "d.zip"), "-"]
    assert top_file(f"{tmp_path}/b/d.zip:x/y.pgn", set(files)) == str(tmp_path / "b" / "d.zip")


def test_convert_annotate_outcomes_writes_computed_marks(runner, tmp_path):
    # Game of War spec §13.2: the mark is a claim; --annotate-outcomes adds the computed one.
    source = (SAMPLES.parent / "game-of-war" / "charge-column.pgn").read_text()
    path = tmp_path / "unmarked.pgn"
    path.write_text(source.replace("xL12=D", "xL12"))
    plain = invoke(runner, ["convert", str(path), "--to", "pgn"])
    assert "xL12=D" not in plain.stdout and "xL12" in plain.stdout
    marked = invoke(runner, ["convert", str(path), "--to", "pgn", "--annotate-outcomes"])
    assert marked.exit_code == 0 and marked.stdout.count("xL12=D") == source.count("xL12=D")
    # Games without claims are written unchanged.
    same = invoke(runner, ["convert", ANNOTATED, "--to", "pgn", "--annotate-outcomes"])
    assert same.stdout == invoke(runner, ["convert", ANNOTATED, "--to", "pgn"]).stdout
