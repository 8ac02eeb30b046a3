"""Inputs: files, directories, archives and compressed files as streams; unreadable input."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile

import pytest

from notation_tools.parallel.batch import iter_records
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.sources import InputNotFound, PgnChunk, check_paths, iter_units

RECORD = b"""[Variant "elevation"]
[Result "*"]

1. c1:c2>b2,c1-c2 d6:d5>c5,d6-d5 *
"""
TWO = RECORD + b"\n" + RECORD


def names_and_diagnostics(paths):
    out = []
    for item in iter_records([str(p) for p in paths]):
        if isinstance(item, Diagnostic):
            out.append((item.code, item.path))
        else:
            out.append((item.path, item.index, [m.text for m in item.moves]))
    return out


def test_plain_file_yields_one_chunk_per_record(tmp_path):
    path = tmp_path / "a.pgn"
    path.write_bytes(TWO)
    units = list(iter_units([str(path)]))
    assert [type(u) for u in units] == [PgnChunk, PgnChunk]
    assert [u.index for u in units] == [1, 2]


@pytest.mark.parametrize("suffix,opener", [(".gz", gzip.open), (".bz2", bz2.open),
                                           (".xz", lzma.open)])
def test_compressed_files(tmp_path, suffix, opener):
    path = tmp_path / f"a.pgn{suffix}"
    with opener(path, "wb") as stream:
        stream.write(TWO)
    assert [r[1] for r in names_and_diagnostics([path])] == [1, 2]


@pytest.mark.parametrize("mode,suffix", [("w", ".tar"), ("w:gz", ".tar.gz"),
                                         ("w:bz2", ".tar.bz2"), ("w:xz", ".tar.xz")])
def test_tar_archives(tmp_path, mode, suffix):
    path = tmp_path / f"games{suffix}"
    with tarfile.open(path, mode) as archive:
        for name in ("x/one.pgn", "x/two.pgn", "x/readme.md"):
            info = tarfile.TarInfo(name)
            info.size = len(RECORD)
            archive.addfile(info, io.BytesIO(RECORD))
    found = names_and_diagnostics([path])
    assert [r[0] for r in found] == [f"{path}:x/one.pgn", f"{path}:x/two.pgn"]


def test_zip_archive_and_directory_walk(tmp_path):
    with zipfile.ZipFile(tmp_path / "games.zip", "w") as archive:
        archive.writestr("b.pgn", RECORD)
        archive.writestr("a.json", '{"tags": {"Variant": "elevation"}, "moves": ["c1:c2>b2,c1-c2"]}')
        archive.writestr("notes.md", "not a record")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.pgn").write_bytes(RECORD)
    (tmp_path / "ignored.md").write_bytes(b"# not a record")
    found = names_and_diagnostics([tmp_path])
    assert [r[0] for r in found] == [f"{tmp_path}/games.zip:b.pgn", f"{tmp_path}/games.zip:a.json",
                                     f"{tmp_path}/sub/c.pgn"]


def test_truncated_archives_are_io_diagnostics_and_the_run_goes_on(tmp_path):
    good = tmp_path / "good.pgn"
    good.write_bytes(RECORD)
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("b.pgn", RECORD * 50)
    (tmp_path / "cut.zip").write_bytes(zipped.getvalue()[:60])
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        info = tarfile.TarInfo("a.pgn")
        info.size = len(RECORD * 200)
        archive.addfile(info, io.BytesIO(RECORD * 200))
    (tmp_path / "cut.tar.gz").write_bytes(data.getvalue()[: len(data.getvalue()) // 2])
    found = names_and_diagnostics([tmp_path / "cut.zip", tmp_path / "cut.tar.gz", good])
    codes = [r[0] for r in found if r[0] == "E-IO"]
    assert codes == ["E-IO", "E-IO"]
    assert found[-1] == (str(good), 1, ["c1:c2>b2,c1-c2", "d6:d5>c5,d6-d5"])


def test_binary_junk_is_reported_not_parsed(tmp_path):
    path = tmp_path / "junk.pgn"
    path.write_bytes(bytes(range(256)) * 4)
    (item,) = list(iter_units([str(path)]))
    assert isinstance(item, Diagnostic) and item.code == "E-IO"
    assert "binary" in item.message


def test_non_utf8_text_is_located_and_belongs_to_its_record(tmp_path):
    path = tmp_path / "latin1.pgn"
    path.write_bytes(RECORD + b'\n[Variant "elevation"]\n[Event "Caf\xe9"]\n\n1. c1:c2>b2,c1-c2 *\n')
    records = [r for r in iter_records([str(path)])]
    assert not records[0].diagnostics
    (problem,) = records[1].diagnostics
    assert (problem.code, problem.line, problem.column) == ("E-ENCODING", 7, 12)
    assert records[1].tag("Event") == "Caf\ufffd"


def test_bom_is_skipped(tmp_path):
    path = tmp_path / "bom.pgn"
    path.write_bytes(b"\xef\xbb\xbf" + RECORD)
    (record,) = list(iter_records([str(path)]))
    assert record.tag("Variant") == "elevation" and not record.diagnostics


def test_stdin_is_read_for_dash():
    (record,) = list(iter_records(["-"], stdin=io.BytesIO(RECORD)))
    assert record.path == "-" and len(record.moves) == 2


def test_json_lines_are_sniffed_from_content():
    stream = io.BytesIO(b'{"tags": {"Variant": "elevation"}, "moves": []}\n{"tags": {}}\n')
    assert [r.index for r in iter_records(["-"], stdin=stream)] == [1, 2]


def test_missing_path_is_a_usage_error(tmp_path):
    with pytest.raises(InputNotFound):
        check_paths([str(tmp_path / "nope.pgn")])
