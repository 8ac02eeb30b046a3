"""An output that is one of the command's inputs is refused before anything is opened for
writing (issue #25): the same name, a symlink, a hard link, a file reached through a directory
walk, an archive path or standard input, an output the input walk would read back, and two
outputs that are one file. Exit status 2, one message, the input untouched."""

from __future__ import annotations

import io
import os
import shutil
import tarfile
from pathlib import Path

import pytest

from notation_tools.sources.overlap import Output, OutputOverInput, check_outputs
from tests.conftest import invoke

SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "maka" / "hook-mover-wins.pgn"


@pytest.fixture
def record(tmp_path) -> Path:
    path = tmp_path / "same.pgn"
    shutil.copy(SAMPLE, path)
    return path


def _refused(result, option: str, *untouched: Path) -> str:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and f"'{option}'" in errors[0], result.stderr
    assert "Traceback" not in result.stderr
    for path in untouched:
        assert path.read_bytes() == SAMPLE.read_bytes(), f"{path} was written"
    return errors[0]


# Every command that reads inputs and writes a file, each with its output on its input.
SAME_FILE = {
    "validate": (["validate", "{in}", "-o", "{in}"], "--output"),
    "show": (["show", "{in}", "-o", "{in}"], "--output"),
    "convert": (["convert", "--to", "pgn", "{in}", "-o", "{in}"], "--output"),
    "convert-json": (["convert", "--to", "json", "{in}", "-o", "{in}"], "--output"),
    "select": (["select", "{in}", "-o", "{in}"], "--output"),
    "select-rejected": (["select", "--valid", "{in}", "--rejected", "{in}"], "--rejected"),
    "select-duplicates": (["select", "--dedupe", "{in}", "--duplicates", "{in}"],
                          "--duplicates"),
    "stats": (["stats", "{in}", "-o", "{in}"], "--output"),
    "analyze": (["analyze", "--jobs", "1", "{in}", "-o", "{in}"], "--output"),
    "analyze-html": (["analyze", "--jobs", "1", "{in}", "--html", "{in}"], "--html"),
    "analyze-db": (["analyze", "--jobs", "1", "{in}", "--db", "{in}"], "--db"),
    "html": (["html", "{in}", "-o", "{in}"], "--output"),
}


@pytest.mark.parametrize("case", SAME_FILE)
def test_output_onto_its_own_input_is_refused(runner, record, case):
    args, option = SAME_FILE[case]
    result = invoke(runner, [arg.replace("{in}", str(record)) for arg in args])
    error = _refused(result, option, record)
    assert "is also an input" in error and "nothing was written" in error


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
@pytest.mark.parametrize("case", ["convert", "select", "validate"])
def test_a_link_to_the_input_is_the_input(runner, record, tmp_path, link, case):
    other = tmp_path / "other.pgn"
    (os.symlink if link == "symlink" else os.link)(record, other)
    args, option = SAME_FILE[case]
    args = [arg.replace("{in}", str(record)) for arg in args]
    args[-1] = str(other)
    error = _refused(invoke(runner, args), option, record)
    assert f"other.pgn is also an input ({record})" in error


def test_an_input_reached_through_a_directory_or_an_archive(runner, record, tmp_path):
    walked = _refused(invoke(runner, ["convert", "--to", "pgn", str(tmp_path), "-o",
                                      str(record)]), "--output", record)
    assert "same.pgn is also an input" in walked
    archive = tmp_path / "club.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(record, arcname="same.pgn")
    before = archive.read_bytes()
    result = invoke(runner, ["stats", f"{archive}:same.pgn", "-o", str(archive)])
    assert "club.tar is also an input" in _refused(result, "--output")
    assert archive.read_bytes() == before


def test_standard_input_that_is_the_output_file(record):
    """Through a real process: standard input redirected from the output file."""
    import subprocess
    import sys

    with open(record, "rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "notation_tools", "convert", "--to", "pgn",
                               "-", "-o", str(record)], stdin=stdin, capture_output=True,
                              text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "is also an input (standard input)" in done.stderr
    assert record.read_bytes() == SAMPLE.read_bytes()


def test_an_output_the_input_walk_would_read_back(runner, record, tmp_path):
    """select DIR -o DIR/new.pgn read its own output for ever (6 MB in 20 s): run in a
    process of its own, so that a regression fails the test instead of hanging it."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "notation_tools", "select", str(tmp_path),
                           "-o", str(tmp_path / "new.pgn")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "whose walk would read what is written" in done.stderr
    for args in (["convert", "--to", "json", str(tmp_path), "-o",
                  str(tmp_path / "sub" / "x.json")],
                 ["select", str(tmp_path), "--split-by", "game", "-o",
                  str(tmp_path / "parts")]):
        error = _refused(invoke(runner, args), "--output", record)
        assert "whose walk would read what is written there" in error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["same.pgn"]
    pages = invoke(runner, ["html", str(tmp_path), str(SAMPLE), "-o", str(tmp_path / "pages")])
    assert pages.exit_code == 0  # pages are not read by a walk


def test_an_output_directory_that_holds_an_input(runner, record, tmp_path):
    result = invoke(runner, ["select", str(record), "--split-by", "game", "-o", str(tmp_path)])
    assert f"the directory {tmp_path} holds the input {record}" in _refused(result, "--output",
                                                                          record)
    position = tmp_path / "exports" / "0001.kfen.txt"
    gow = SAMPLE.parents[1] / "game-of-war" / "illustration.pgn"
    position.parent.mkdir()
    assert invoke(runner, ["convert", "--to", "kfen", str(gow), "-o",
                           str(position)]).exit_code == 0
    before = position.read_bytes()
    export = invoke(runner, ["convert", "--to", "kfen", str(position), "-o",
                             f"{position.parent}/"])
    assert "holds the input" in _refused(export, "--output")
    assert position.read_bytes() == before


def test_two_outputs_that_are_one_file(runner, record, tmp_path):
    out = tmp_path / "out.pgn"
    result = invoke(runner, ["select", "--valid", str(record), "-o", str(out), "--rejected",
                             str(out)])
    assert "out.pgn is also the file of --output" in _refused(result, "--rejected", record)
    assert not out.exists()
    devices = invoke(runner, ["select", str(record), "-o", os.devnull, "--rejected", os.devnull])
    assert devices.exit_code == 0


def test_report_refuses_to_write_over_its_database(runner, record, tmp_path):
    database = tmp_path / "results.sqlite"
    assert invoke(runner, ["analyze", "--jobs", "1", str(record), "--db",
                           str(database)]).exit_code == 0
    before = database.read_bytes()
    for option in ("--output", "--html"):
        result = invoke(runner, ["report", str(database), option, str(database)])
        assert result.exit_code == 2 and f"'{option}'" in result.stderr
    assert database.read_bytes() == before


def test_the_library_check_from_python(record, tmp_path):
    with pytest.raises(OutputOverInput) as found:
        check_outputs([Output("out", str(record))], [str(tmp_path)])
    assert found.value.option == "out"
    check_outputs([Output("out", str(tmp_path / "new.pgn"))], [str(record)])
    check_outputs([Output("out", "-")], ["-"], stdin=io.BytesIO(b""))


def test_the_walk_endings_are_asked_only_when_an_output_is_under_an_input_directory(
        record, tmp_path):
    """The endings a walk reads beside the container's come from every game (importing all
    five): a command on named files must not need them, one writing under an input
    directory must."""
    asked = []

    def suffixes() -> tuple[str, ...]:
        asked.append(True)
        return (".kfen",)

    check_outputs([Output("out", str(tmp_path / "page.kfen"))], [str(record)],
                  suffixes=suffixes)
    assert not asked
    with pytest.raises(OutputOverInput):
        check_outputs([Output("out", str(tmp_path / "page.kfen"))], [str(tmp_path)],
                      suffixes=suffixes)
    assert asked


def test_a_page_of_one_game_imports_no_other_game(tmp_path):
    """html on a Maka record loads Maka only (asking every game for its file endings cost
    a 200-ply page a third of its time, issue #29), and none of what only the reports of
    validate and analyze need."""
    import subprocess
    import sys

    probe = ("import sys; from notation_tools.cli import run\n"
             f"sys.argv = ['notation-tools', 'html', {str(SAMPLE)!r}, '-o', "
             f"{str(tmp_path / 'page.html')!r}, '--quiet']\n"
             "try:\n    run()\nexcept SystemExit:\n    pass\n"
             "print(sorted(sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    modules = eval(done.stdout.strip().splitlines()[-1])
    games = {"elevation", "gow", "maka", "shih", "shuriken"}
    loaded = {name.split(".")[2] for name in modules
              if name.startswith("notation_tools.games.") and name.split(".")[2] in games}
    assert loaded == {"maka"}, loaded
    for reports_only in ("notation_tools.analysis.openings", "notation_tools.storage.parquet",
                         "notation_tools.analysis.position_keys"):
        assert reports_only not in modules
