"""A write that fails (a full disk, no permission, an I/O error) ends every command with one
``cannot write PATH: reason`` line and exit status 2: no traceback, no "Exception ignored",
no internal error (issue #25). Real processes write to /dev/full (ENOSPC on every write); the
in-process tests make open or write fail by monkeypatching."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
MAKA = str(SAMPLES / "maka")
RECORD = str(SAMPLES / "maka" / "hook-mover-wins.pgn")
GOW = str(SAMPLES / "game-of-war" / "generated-debord.pgn")
ELEVATION = str(SAMPLES / "elevation" / "spec-example-two-plies.pgn")
FULL = "/dev/full"
NO_SPACE = os.strerror(errno.ENOSPC)


def run(args: list[str], *, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE):
    return subprocess.run([sys.executable, "-m", "notation_tools", *args], stdout=stdout,
                          stderr=stderr, text=True, timeout=300)


def assert_one_write_error(done, path: str) -> None:
    assert done.returncode == 2, done.stderr
    told = [line for line in done.stderr.splitlines()
            if "cannot write" in line or "Traceback" in line or "Exception ignored" in line
            or "internal error" in line or line.startswith("Error")]
    assert told == [f"Error: cannot write {path}: {NO_SPACE}"], done.stderr


# Every command that writes a file, each told to write it on a full disk.
TO_FILE = {
    "validate": ["validate", RECORD, "-o", FULL],
    "validate-jsonl": ["validate", RECORD, "--format", "jsonl", "-o", FULL],
    "show": ["show", RECORD, "-o", FULL],
    "show-svg": ["show", RECORD, "--format", "svg", "-o", FULL],
    "convert": ["convert", "--to", "pgn", RECORD, "-o", FULL],
    "convert-json": ["convert", "--to", "json", RECORD, "-o", FULL],
    "convert-kfen": ["convert", "--to", "kfen", GOW, "-o", FULL],
    "select": ["select", RECORD, "-o", FULL],
    "select-rejected": ["select", "--invalid", RECORD, "--rejected", FULL, "-o", os.devnull],
    "stats": ["stats", RECORD, "-o", FULL],
    "analyze": ["analyze", "--jobs", "1", RECORD, "-o", FULL],
    "analyze-html": ["analyze", "--jobs", "1", RECORD, "--html", FULL, "-o", os.devnull],
    "html": ["html", RECORD, "-o", FULL],
    "moves": ["moves", "--game", "maka", "-o", FULL],
    "generate": ["generate", "--game", "maka", "--count", "3", "-o", FULL],
    "games": ["games", "-o", FULL],
}


@pytest.mark.parametrize("case", TO_FILE)
def test_a_full_disk_under_an_output_file(case):
    assert_one_write_error(run(TO_FILE[case]), FULL)


@pytest.mark.parametrize("args", [["validate", RECORD], ["perft", "--game", "maka", "--depth", "1"],
                                  ["games", "--check"], ["convert", "--to", "json", RECORD]],
                         ids=["validate", "perft", "games-check", "convert"])
def test_a_full_disk_under_standard_output(args):
    with open(FULL, "w") as full:
        done = run(args, stdout=full)
    assert_one_write_error(done, "standard output")


def test_a_full_disk_under_standard_error_still_exits_2():
    """Nothing can tell it, but the exit status says the run did not go as it should."""
    with open(FULL, "w") as full:
        done = run(["validate", str(SAMPLES / "maka" / "broken-illegal-move.pgn")],
                   stderr=full)
    assert done.returncode == 2


@pytest.mark.parametrize("split", ["game", "result", "2"])
@pytest.mark.parametrize("container", ["pgn", "json"])
def test_select_split_by_onto_a_full_disk(tmp_path, split, container):
    """Split files opened one by one: the one on the full disk is named, once."""
    for name in ("maka-dai-dai-shogi", "1-0", "part-0001"):
        (tmp_path / f"{name}.{container}").symlink_to(FULL)
    done = run(["select", "--to", container, "--split-by", split, "-o", str(tmp_path), MAKA])
    first = {"game": "maka-dai-dai-shogi", "result": "1-0", "2": "part-0001"}[split]
    assert_one_write_error(done, str(tmp_path / f"{first}.{container}"))


def test_convert_into_a_directory_and_html_pages_name_the_file(tmp_path):
    (tmp_path / "0001-random-1-random-2.kfen.txt").symlink_to(FULL)
    done = run(["convert", "--to", "kfen", GOW, "-o", f"{tmp_path}/"])
    assert_one_write_error(done, f"{tmp_path}/0001-random-1-random-2.kfen.txt")
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "index.html").symlink_to(FULL)
    for jobs in ("1", "2"):
        done = run(["html", "--jobs", jobs, RECORD, ELEVATION, "-o", str(pages)])
        assert_one_write_error(done, str(pages / "index.html"))


# ---- in process: open and write made to fail -------------------------------------------------

def test_no_permission_to_create_an_output(runner, monkeypatch, tmp_path):
    opened = click.open_file

    def refuse(path, *args, **kwargs):
        if path != "-":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return opened(path, *args, **kwargs)

    monkeypatch.setattr(click, "open_file", refuse)
    out = tmp_path / "read-only" / "out.pgn"
    for args in (["convert", "--to", "pgn", RECORD, "-o", str(out)],
                 ["select", RECORD, "--split-by", "game", "-o", str(tmp_path / "parts")],
                 ["stats", RECORD, "-o", str(out)]):
        result = invoke(runner, args)
        assert result.exit_code == 2
        assert f"cannot write {tmp_path}" in result.stderr
        assert os.strerror(errno.EACCES) in result.stderr


class _FailingFile(io.StringIO):
    """A file whose writes fail with EIO once it holds ``room`` characters."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, text: str) -> int:
        if self.tell() + len(text) > self.room:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return super().write(text)


@pytest.mark.parametrize("room", [0, 300])
@pytest.mark.parametrize("args", [
    ["select", MAKA, "-o", "{out}", "--rejected", "{out2}", "--valid"],
    ["select", "--to", "json", MAKA, "--split-by", "game", "-o", "{dir}"],
    ["convert", "--to", "jsonl", MAKA, "-o", "{out}"],
    ["analyze", "--jobs", "1", MAKA, "-o", "{out}"],
], ids=["select", "select-split", "convert", "analyze"])
def test_an_io_error_in_the_middle_of_a_write(runner, monkeypatch, tmp_path, args, room):
    """The failed write is told once, naming its file; the other outputs are closed; Python
    reports nothing of its own (pytest turns an "Exception ignored" into an error)."""
    opened = click.open_file

    def failing(path, *rest, **kwargs):
        if path == "-":
            return opened(path, *rest, **kwargs)
        return _FailingFile(room)

    monkeypatch.setattr(click, "open_file", failing)
    names = {"{out}": str(tmp_path / "out.pgn"), "{out2}": str(tmp_path / "rest.pgn"),
             "{dir}": str(tmp_path / "parts")}
    result = invoke(runner, [names.get(arg, arg) for arg in args])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and errors[0].startswith(f"Error: cannot write {tmp_path}")
    assert errors[0].endswith(os.strerror(errno.EIO))
