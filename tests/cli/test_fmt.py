"""``notation-tools fmt`` from the command line (issue #28): in place, --check, --diff, stdin,
exit statuses, diagnostics, the repair options on fmt and convert."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
MESSY = '[Variant "elevation"]\n[Event "x"]\n\n1.c1:c2>b2,c1-c2    d6:d5>c5,d6-d5\n  *\n'


def test_fmt_rewrites_in_place_and_then_check_passes(runner, tmp_path):
    target = tmp_path / "a.pgn"
    target.write_text(MESSY)
    result = invoke(runner, ["fmt", str(target)])
    assert result.exit_code == 0, result.output
    formatted = target.read_text()
    assert formatted.startswith('[Event "x"]\n[Result "*"]\n[Variant "elevation"]\n')
    assert "1. c1:c2>b2,c1-c2 d6:d5>c5,d6-d5 *" in formatted
    assert invoke(runner, ["fmt", "--check", str(target)]).exit_code == 0
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".fmt-")]


def test_check_lists_the_records_and_exits_1_without_writing(runner, tmp_path):
    target = tmp_path / "a.pgn"
    target.write_text(MESSY)
    result = invoke(runner, ["fmt", "--check", str(target)])
    assert result.exit_code == 1
    assert f"{target}:1: record 1 would be reformatted" in result.stdout
    assert target.read_text() == MESSY


def test_diff_prints_a_unified_diff_and_writes_nothing(runner, tmp_path):
    target = tmp_path / "a.pgn"
    target.write_text(MESSY)
    result = invoke(runner, ["fmt", "--diff", str(target)])
    assert result.exit_code == 0
    assert result.stdout.startswith(f"--- {target}\t(original)")
    assert '+[Event "x"]' in result.stdout and target.read_text() == MESSY


def test_stdin_to_stdout(runner):
    result = invoke(runner, ["fmt", "-"], input=MESSY)
    assert result.exit_code == 0
    assert invoke(runner, ["fmt", "-"], input=result.stdout).stdout == result.stdout


def test_an_invalid_record_exits_1_with_its_diagnostic(runner, tmp_path):
    target = tmp_path / "bad.pgn"
    shutil.copy(SAMPLES / "container" / "broken-unterminated-comment.pgn", target)
    before = target.read_bytes()
    result = invoke(runner, ["fmt", str(target)])
    assert result.exit_code == 1
    assert "error[E-SYNTAX]" in result.stderr and "note[I-NOT-FORMATTED]" in result.stderr
    assert target.read_bytes() == before


def test_archives_are_a_usage_error(runner):
    result = invoke(runner, ["fmt", str(SAMPLES / "container" / "club-archive.tar.gz")])
    assert result.exit_code == 2 and "not archives" in result.stderr


def test_a_file_that_is_not_utf8_is_left_as_it_is(runner, tmp_path):
    target = tmp_path / "latin.pgn"
    shutil.copy(SAMPLES / "container" / "broken-latin1-encoding.pgn", target)
    before = target.read_bytes()
    result = invoke(runner, ["fmt", str(target)])
    assert result.exit_code == 1 and "E-ENCODING" in result.stderr
    assert target.read_bytes() == before


def test_fmt_repairs_with_notes_and_the_result_validates(runner, tmp_path):
    target = tmp_path / "n.pgn"
    shutil.copy(SAMPLES / "container" / "broken-wrong-move-numbers.pgn", target)
    result = invoke(runner, ["fmt", "--fix-numbers", "--note-fixes", str(target)])
    assert result.exit_code == 0, result.output
    assert f"{target}:5:34: note[I-FIXED-NUMBER]" in result.stderr
    assert "{fixed: 5:34 move number 3. written 2.}" in target.read_text()
    assert invoke(runner, ["validate", str(target)]).exit_code == 0


def test_convert_repairs_each_fix_noted(runner):
    paths = [str(SAMPLES / "elevation" / "broken-illegal-move.pgn"),
             str(SAMPLES / "elevation" / "broken-result-mismatch.pgn")]
    result = invoke(runner, ["convert", *paths, "--to", "pgn", "--keep-broken",
                             "--fix-result"])
    assert result.exit_code == 0, result.output
    assert "note[I-KEPT-BROKEN]" in result.stderr and "note[I-FIXED-RESULT]" in result.stderr
    again = invoke(runner, ["validate", "-"], input=result.stdout)
    assert again.exit_code == 0, again.output


def test_a_symbolic_link_stays_a_link_and_its_file_is_formatted(runner, tmp_path):
    target = tmp_path / "a.pgn"
    target.write_text(MESSY)
    link = tmp_path / "link.pgn"
    link.symlink_to(target)
    assert invoke(runner, ["fmt", str(link)]).exit_code == 0
    assert link.is_symlink() and target.read_text() != MESSY
    assert invoke(runner, ["fmt", "--check", str(target)]).exit_code == 0


def test_keep_broken_on_fmt_makes_the_record_valid_and_notes_it(runner, tmp_path):
    target = tmp_path / "b.pgn"
    shutil.copy(SAMPLES / "elevation" / "broken-illegal-move.pgn", target)
    result = invoke(runner, ["fmt", "--keep-broken", str(target)])
    assert result.exit_code == 0, result.output
    assert f"{target}:11:37: note[I-KEPT-BROKEN]" in result.stderr
    assert "kept, not played: 2. a1:a1-a2" in target.read_text()
    assert invoke(runner, ["validate", str(target)]).exit_code == 0
