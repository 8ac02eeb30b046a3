"""``notation-tools html``: one record gives a page, several a directory with an index; the
diagnostics and exit status are those of ``validate``."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
ONE = SAMPLES / "maka" / "tsa-sample-record.pgn"
TWO = SAMPLES / "shuriken-2d" / "casual-unfinished-and-resigned.pgn"
BROKEN = SAMPLES / "elevation" / "broken-illegal-move.pgn"


def test_one_record_writes_one_page(runner, tmp_path):
    out = tmp_path / "game.html"
    result = invoke(runner, ["html", str(ONE), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="viewer-data"' in page
    assert "1 records: 1 valid" in result.stderr


def test_one_record_to_standard_output(runner):
    result = invoke(runner, ["html", "-", "-o", "-"], input=ONE.read_bytes())
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("<!DOCTYPE html>")


def test_several_records_write_a_directory_with_an_index(runner, tmp_path):
    out = tmp_path / "site"
    result = invoke(runner, ["html", str(TWO), str(ONE), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    pages = sorted(path.name for path in out.iterdir())
    assert pages == ["00001-casual-unfinished-and-resigned-1.html",
                     "00002-casual-unfinished-and-resigned-2.html",
                     "00003-tsa-sample-record-1.html", "index.html"]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{name}"' in index for name in pages[:3])
    assert "3 pages and index.html written" in result.stderr


def test_an_archive_gives_a_directory_and_the_validate_diagnostics(runner, tmp_path):
    archive = tmp_path / "club.tar"
    with tarfile.open(archive, "w") as tar:
        for path in (BROKEN, ONE):
            data = path.read_bytes()
            member = tarfile.TarInfo(path.name)
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    out = tmp_path / "site"
    result = invoke(runner, ["html", str(archive), "-o", str(out), "--jobs", "2"])
    validated = invoke(runner, ["validate", str(archive)])
    assert result.exit_code == validated.exit_code == 1
    assert result.stderr.splitlines()[0] == validated.stderr.splitlines()[0]
    assert "E-ILLEGAL-MOVE" in result.stderr
    index = (out / "index.html").read_text(encoding="utf-8")
    assert index.count('class="invalid"') == 1 and index.count('class="valid"') == 1


def test_one_record_into_an_existing_directory(runner, tmp_path):
    result = invoke(runner, ["html", str(ONE), "-o", str(tmp_path)])
    assert result.exit_code == 0
    assert (tmp_path / "index.html").exists()
    assert (tmp_path / "00001-tsa-sample-record-1.html").exists()


def test_usage_and_input_errors_exit_2(runner, tmp_path):
    assert invoke(runner, ["html", str(TWO), "-o", "-"]).exit_code == 2
    assert invoke(runner, ["html", str(tmp_path / "missing.pgn"), "-o", "x.html"]).exit_code == 2
    assert invoke(runner, ["html", str(ONE)]).exit_code == 2  # -o is required
    a_file = tmp_path / "taken"
    a_file.write_text("", encoding="utf-8")
    result = invoke(runner, ["html", str(TWO), "-o", str(a_file)])
    assert result.exit_code == 2 and "is a file" in result.stderr
    result = invoke(runner, ["html", str(ONE), "-o", str(tmp_path / "no" / "such" / "dir.html")])
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_game_and_rules_overrides(runner, tmp_path):
    untagged = tmp_path / "bare.pgn"
    untagged.write_text('[Event "no Variant tag"]\n\n1. c1:c2>b2,c1-c2 d6:d5>c5,d6-d5 *\n',
                        encoding="utf-8")
    out = tmp_path / "bare.html"
    assert invoke(runner, ["html", str(untagged), "-o", str(out)]).exit_code == 1
    result = invoke(runner, ["html", str(untagged), "--game", "elevation", "--rules",
                             "standard; undermining=yes", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert "Elevation (standard; undermining=yes)" in out.read_text(encoding="utf-8")
    bad = invoke(runner, ["html", str(untagged), "--game", "elevation", "--rules", "nonsense",
                          "-o", str(out)])
    assert bad.exit_code == 2


def test_pages_name_records_by_file_never_by_the_path_as_typed(runner, tmp_path):
    # Issue #29, point 7: the subtitle and the index showed the input path as typed, so a
    # published page gave away a local absolute path.
    copy = tmp_path / "private" / "round-1.pgn"
    copy.parent.mkdir()
    copy.write_bytes(TWO.read_bytes())
    out = tmp_path / "site"
    result = invoke(runner, ["html", str(copy), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    pages = {path.name: path.read_text(encoding="utf-8") for path in out.iterdir()}
    assert len(pages) == 3
    for name, page in pages.items():
        assert str(tmp_path) not in page, name
    assert "round-1.pgn" in pages["index.html"]
    assert "round-1.pgn, record 2" in pages["00002-round-1-2.html"]


def test_a_title_names_the_page_or_the_index(runner, tmp_path):
    out = tmp_path / "game.html"
    result = invoke(runner, ["html", str(ONE), "-o", str(out), "--title", "Club final"])
    assert result.exit_code == 0, result.stderr
    assert "<title>Club final</title>" in out.read_text(encoding="utf-8")
    site = tmp_path / "site"
    result = invoke(runner, ["html", str(TWO), "-o", str(site), "--title", "Spring <open>"])
    assert result.exit_code == 0, result.stderr
    assert "<title>Spring &lt;open&gt;</title>" in (site / "index.html").read_text("utf-8")


def test_several_records_into_a_page_name_are_a_usage_error(runner, tmp_path):
    # Issue #29: 'html -o view.html' with several records made a directory called view.html.
    out = tmp_path / "view.html"
    result = invoke(runner, ["html", str(TWO), "-o", str(out)])
    assert result.exit_code == 2
    assert "give a directory" in result.stderr
    assert not out.exists()
