"""Whatever the input, no traceback, no hang, no silent loss, bounded memory (issue #15).

Each test reproduces one hostile input that once made a command fail, and checks the located
diagnostic (or clear usage error) that replaces the failure, and that the run goes on.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import json
import lzma
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from notation_tools.parallel import batch
from notation_tools.parallel.batch import Settings, iter_records, iter_reports
from notation_tools.limits import Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.sources import iter_units
from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
RECORD = (SAMPLES / "elevation" / "black-moves-first.pgn").read_bytes()


def codes(result_stderr: str) -> list[str]:
    return [line.split("[", 1)[1].split("]", 1)[0] for line in result_stderr.splitlines()
            if "error[" in line or "warning[" in line or "note[" in line]


# ---- 1, 2: nesting ------------------------------------------------------------------------

def test_deep_json_is_a_limit_not_a_recursion_error(runner, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 1000 + "]" * 1000)
    result = invoke(runner, ["validate", str(path)])
    assert result.exit_code == 1 and "E-LIMIT" in codes(result.stderr)
    assert "depth=100" in result.stderr
    for command in (["analyze", "--jobs", "1"], ["stats"], ["show"],
                    ["convert", "--to", "pgn"]):
        assert invoke(runner, [*command, str(path)]).exit_code in (0, 1)
    piped = invoke(runner, ["validate", "-"], input=path.read_bytes())
    assert piped.exit_code == 1


def test_deep_variations_are_a_limit_in_every_command(runner, tmp_path):
    text = ('[Variant "elevation"]\n\n1. c1:c2>b2,c1-c2 ' + "( c1:c2>b2,c1-c2 " * 1000
            + ")" * 1000 + " *\n")
    path = tmp_path / "deep.pgn"
    path.write_text(text)
    result = invoke(runner, ["validate", str(path)])
    assert codes(result.stderr) == ["E-LIMIT"] and result.exit_code == 1
    for target in ("json", "pgn"):
        converted = invoke(runner, ["convert", str(path), "--to", target])
        assert converted.exit_code == 1 and "E-INTERNAL" not in converted.stderr
    # variations nested up to the limit are read, replayed and written back
    shallow = ('[Variant "elevation"]\n\n1. c1:c2>b2,c1-c2 ' + "( c1:c2>b2,c1-c2 " * 90
               + ")" * 90 + " *\n")
    path.write_text(shallow)
    assert invoke(runner, ["validate", str(path)]).exit_code == 0
    back = invoke(runner, ["convert", str(path), "--to", "json"])
    assert back.exit_code == 0
    (tmp_path / "back.json").write_text(back.stdout)
    assert invoke(runner, ["validate", str(tmp_path / "back.json")]).exit_code == 0


def test_a_higher_limit_reads_deeper(tmp_path):
    text = ('[Variant "elevation"]\n\n1. c1:c2>b2,c1-c2 ' + "( c1:c2>b2,c1-c2 " * 150
            + ")" * 150 + " *\n")
    path = tmp_path / "deep.pgn"
    path.write_text(text)
    (record,) = iter_records([str(path)], settings=Settings(limits=Limits.parse(["depth=200"])))
    assert not record.diagnostics
    with pytest.raises(ValueError):
        Limits.parse(["depth=5000"])


# ---- 5: archives and compressed files ------------------------------------------------------

def _zip_with_flags(tmp_path: Path, name: str, *, flag: int = 0, method: int | None = None):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.pgn", RECORD)
    data = bytearray(buffer.getvalue())
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    data[local + 6] |= flag
    data[central + 8] |= flag
    if method is not None:
        data[local + 8] = data[central + 10] = method
    path = tmp_path / name
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("flag, method, words", [(1, None, "encrypted"),
                                                 (0, 99, "compression method")])
def test_encrypted_and_unknown_method_zip_members_are_io_diagnostics(runner, tmp_path, flag,
                                                                     method, words):
    path = _zip_with_flags(tmp_path, "z.zip", flag=flag, method=method)
    good = tmp_path / "good.pgn"
    good.write_bytes(RECORD)
    result = invoke(runner, ["validate", str(path), str(good)])
    assert result.exit_code == 2 and words in result.stderr
    assert "1 records: 1 valid" in result.stdout


@pytest.mark.parametrize("suffix, compress", [(".gz", gzip.compress), (".xz", lzma.compress),
                                              (".bz2", bz2.compress)])
def test_a_truncated_compressed_file_reports_every_record_before_the_break(tmp_path, suffix,
                                                                           compress):
    data = (RECORD + b"\n") * 400
    blob = compress(data)
    path = tmp_path / f"cut.pgn{suffix}"
    path.write_bytes(blob[: int(len(blob) * 0.97)])
    items = list(iter_records([str(path)]))
    records = [item for item in items if not isinstance(item, Diagnostic)]
    if suffix != ".bz2":  # bzip2 gives nothing of a block cut short: one block here
        assert len(records) > 300  # far more than fit in the first 8 KiB
    assert isinstance(items[-1], Diagnostic) and items[-1].code == "E-IO"


def test_a_truncated_tar_bz2_says_so(runner, tmp_path):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:bz2") as archive:
        info = tarfile.TarInfo("a.pgn")
        info.size = len(RECORD)
        archive.addfile(info, io.BytesIO(RECORD))
    path = tmp_path / "cut.tar.bz2"
    path.write_bytes(data.getvalue()[:30])
    result = invoke(runner, ["validate", str(path)])
    assert result.exit_code == 2 and "empty file" not in result.stderr
    assert "E-IO" in codes(result.stderr)


def test_an_unreadable_directory_is_an_io_diagnostic(tmp_path, monkeypatch):
    (tmp_path / "ok.pgn").write_bytes(RECORD)
    real_walk = os.walk

    def walk(top, onerror=None, **kwargs):
        # root can read any directory, so the refusal is staged as os.walk reports it
        onerror(PermissionError(13, "Permission denied", str(tmp_path / "locked")))
        yield from real_walk(top, onerror=onerror, **kwargs)

    monkeypatch.setattr(os, "walk", walk)
    items = list(iter_units([str(tmp_path)]))
    problems = [item for item in items if isinstance(item, Diagnostic)]
    assert [d.code for d in problems] == ["E-IO"] and "locked" in problems[0].message
    assert len(items) == 2


# ---- 6: file names that are not UTF-8 ------------------------------------------------------

@pytest.mark.parametrize("args", [["validate", "--format", "json"], ["validate", "--format",
                                  "jsonl"], ["validate", "-v"], ["stats"]])
def test_file_names_that_are_not_utf8_are_shown_escaped(runner, tmp_path, args):
    name = os.fsdecode(b"bad\xffname.pgn")
    (tmp_path / name).write_bytes(RECORD)
    result = invoke(runner, [*args, str(tmp_path / name)])
    assert result.exit_code == 0
    shown = result.stdout
    if "--format" in args:
        shown = json.dumps([json.loads(line) for line in result.stdout.splitlines()]) \
            if "jsonl" in args else json.dumps(json.loads(result.stdout))
        shown = shown.replace("\\\\", "\\")
    assert "bad\\xffname.pgn" in shown


# ---- 7: a full disk ---------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_failed_write_is_cannot_write_and_exit_2(runner):
    result = invoke(runner, ["validate", "-v", str(SAMPLES / "elevation"), "-o", "/dev/full"])
    assert result.exit_code == 2 and "cannot write /dev/full" in result.stderr


# ---- 8: special files ---------------------------------------------------------------------

def test_a_fifo_is_skipped_not_read_forever(runner, tmp_path):
    os.mkfifo(tmp_path / "pipe.pgn")
    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "sub" / "pipe.pgn")
    (tmp_path / "sub" / "ok.pgn").write_bytes(RECORD)
    direct = invoke(runner, ["validate", str(tmp_path / "pipe.pgn")])
    assert direct.exit_code == 2 and "FIFO" in direct.stderr
    walked = invoke(runner, ["validate", str(tmp_path / "sub")])
    assert walked.exit_code == 2 and "1 records: 1 valid" in walked.stdout


# ---- 9: a dead worker -----------------------------------------------------------------------

def _three_files(tmp_path: Path) -> list[str]:
    paths = []
    for name in ("a.pgn", "b.pgn", "c.pgn"):
        (tmp_path / name).write_bytes(RECORD)
        paths.append(str(tmp_path / name))
    return paths


def test_a_worker_killed_twice_is_reported_and_the_run_goes_on(tmp_path, monkeypatch):
    real = batch.report_batch

    def dies_on_b(units, settings):
        if any(str(getattr(u, "path", "")).endswith("b.pgn") for u in units):
            os._exit(9)  # as the OOM killer ends a process: no exception, no clean-up
        return real(units, settings)

    # the workers are forked after this, so they run the patched function
    monkeypatch.setattr(batch, "report_batch", dies_on_b)
    items = list(iter_reports(_three_files(tmp_path), Settings(), jobs=2, batch_size=1))
    died = [i for i in items if isinstance(i, Diagnostic)]
    assert [d.code for d in died] == ["E-WORKER"] and died[0].path.endswith("b.pgn")
    assert [i.path[-5:] for i in items if not isinstance(i, Diagnostic)] == ["a.pgn", "c.pgn"]


def test_a_worker_killed_once_is_replaced_and_its_batch_retried(tmp_path, monkeypatch):
    real = batch.report_batch
    marker = tmp_path / "died-once"

    def dies_once(units, settings):
        if not marker.exists():
            marker.write_text("x")
            os._exit(9)
        return real(units, settings)

    monkeypatch.setattr(batch, "report_batch", dies_once)
    items = list(iter_reports(_three_files(tmp_path), Settings(), jobs=2, batch_size=1))
    assert not [i for i in items if isinstance(i, Diagnostic)]
    assert [i.path[-5:] for i in items] == ["a.pgn", "b.pgn", "c.pgn"]


# ---- 10: long lines ----------------------------------------------------------------------------

def test_a_line_longer_than_the_limit_is_skipped_with_a_diagnostic(runner, tmp_path):
    path = tmp_path / "long.pgn"
    path.write_bytes(b'[Variant "elevation"]\n\n' + b"c1:c2>b2,c1-c2 " * 10_000 + b"\n")
    result = invoke(runner, ["validate", "--limit", "line-bytes=64KiB", str(path)])
    assert result.exit_code == 1 and codes(result.stderr) == ["E-LIMIT"]
    assert "line-bytes=65536" in result.stderr
    usage = invoke(runner, ["validate", "--limit", "speed=9", str(path)])
    assert usage.exit_code == 2 and "--limit" in usage.stderr


def test_a_record_larger_than_the_limit_is_cut_with_a_diagnostic(tmp_path):
    path = tmp_path / "big.pgn"
    path.write_bytes(b'[Variant "elevation"]\n\n' + b"c1:c2>b2,c1-c2\n" * 5000 + RECORD)
    items = list(iter_records([str(path)], settings=Settings(limits=Limits.parse(
        ["record-bytes=4KiB"]))))
    assert [d.code for d in items[0].diagnostics] == ["E-LIMIT"]
    assert not items[1].diagnostics  # the next record is read as usual


# ---- 12, 14: JSON fields, huge numbers, too many diagnostics -------------------------------

@pytest.mark.parametrize("record, code", [
    ({"tags": {"Variant": "elevation", "Event": "a\nb"}}, "E-BAD-TAG"),
    ({"tags": [["Variant", "elevation"], ["My Tag", "x"]]}, "E-BAD-TAG"),
    ({"tags": {"Variant": "elevation"}, "moves": [{"move": "c1:c2>b2,c1-c2", "nags": ["!!"]}]},
     "E-SYNTAX"),
    ({"tags": {"Variant": "elevation"}, "moves": [{"move": "c1:c2>b2,c1-c2", "number": "1"}]},
     "E-SYNTAX"),
    ({"tags": {"Variant": "elevation"}, "result": "1-0 junk"}, "E-SYNTAX"),
    ({"tags": {"Variant": "elevation"}, "result": "banana"}, "E-SYNTAX"),
    ({"tags": {"Variant": "elevation"}, "moves": ["c1:c2>b2,c1-c2 d6:d5>c5,d6-d5"]}, "E-SYNTAX"),
])
def test_json_fields_are_checked_and_convert_refuses_what_it_cannot_write(runner, tmp_path,
                                                                          record, code):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert code in codes(invoke(runner, ["validate", str(path)]).stderr)
    converted = invoke(runner, ["convert", str(path), "--to", "pgn"])
    assert converted.exit_code == 1 and converted.stdout == ""
    assert "E-CANNOT-WRITE" in codes(converted.stderr)


def test_a_comment_pgn_cannot_hold_is_refused_not_changed(runner, tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"tags": {"Variant": "elevation"}, "moves": [
        {"move": "c1:c2>b2,c1-c2", "comments": ["x}\ny"]}], "result": "*"}))
    assert invoke(runner, ["validate", str(path)]).exit_code == 0
    converted = invoke(runner, ["convert", str(path), "--to", "pgn"])
    assert converted.exit_code == 1 and "E-CANNOT-WRITE" in codes(converted.stderr)
    assert invoke(runner, ["convert", str(path), "--to", "jsonl"]).exit_code == 0


def test_a_json_move_number_error_is_located_at_its_record(runner, tmp_path):
    path = tmp_path / "r.json"
    path.write_text('\n\n' + json.dumps({"tags": {"Variant": "elevation"},
                                         "moves": [{"move": "c1:c2>b2,c1-c2", "number": "5."}]}))
    result = invoke(runner, ["validate", str(path)])
    assert ":3:1: error[E-NUMBER]" in result.stderr


def test_a_bad_byte_in_json_belongs_to_its_record(runner, tmp_path):
    path = tmp_path / "r.jsonl"
    good = json.dumps({"tags": {"Variant": "elevation"}, "moves": []}).encode()
    bad = json.dumps({"tags": {"Variant": "elevation", "Event": "xx"}, "moves": []}).encode()
    path.write_bytes(good + b"\n" + bad.replace(b"xx", b"x\xff") + b"\n" + good + b"\n")
    result = invoke(runner, ["validate", str(path)])
    assert "3 records: 2 valid, 1 invalid" in result.stdout and result.exit_code == 1
    assert ":2:" in result.stderr and "E-ENCODING" in codes(result.stderr)


def test_a_huge_json_number_is_a_diagnostic_of_its_record(runner, tmp_path):
    path = tmp_path / "n.jsonl"
    path.write_text('{"tags": {"Variant": "elevation"}, "moves": [], "result": 1' + "1" * 100_000
                    + "}\n" + json.dumps({"tags": {"Variant": "elevation"}, "moves": []}) + "\n")
    result = invoke(runner, ["validate", str(path)])
    assert "2 records: 1 valid, 1 invalid" in result.stdout and "E-IO" not in result.stderr


def test_diagnostics_per_record_are_capped_with_one_more_line(tmp_path):
    path = tmp_path / "garbage.pgn"
    path.write_text('[Variant "elevation"]\n\n' + "} " * 500 + "\n")
    (report,) = iter_reports([str(path)], Settings())
    assert len(report.diagnostics) == 101
    assert report.diagnostics[-1].code == "I-MORE-DIAGNOSTICS"
    assert "400 more" in report.diagnostics[-1].message and not report.is_valid


# ---- 13: round trips that keep the verdict ------------------------------------------------

@pytest.mark.parametrize("target", ["coord", "json", "pgn"])
def test_a_text_score_converted_reads_back_valid(runner, tmp_path, target):
    score = SAMPLES / "maka" / "shogivar-text-score.txt"
    converted = invoke(runner, ["convert", str(score), "--to", target])
    assert converted.exit_code == 0
    path = tmp_path / ("back.json" if target == "json" else "back.pgn")
    path.write_text(converted.stdout)
    assert invoke(runner, ["validate", str(path)]).exit_code == 0
    # the title lines are kept as the first comment, not as moves
    assert "{Ultra Great Great Shogi - Game Record}" in converted.stdout or \
        '"initial_comments": ["Ultra Great Great Shogi - Game Record"]' in converted.stdout


# ---- text input: byte-order marks, legacy encodings, line ends, compressed stdin --------------

@pytest.mark.parametrize("encode", [
    lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
    lambda text: codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
    lambda text: codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
    lambda text: text.replace("\n", "\r").encode("utf-8"),
    lambda text: text.replace("\n", "\r\n").encode("utf-8"),
], ids=["utf8-bom", "utf16-le", "utf16-be", "cr-only", "crlf"])
def test_byte_order_marks_and_line_ends(tmp_path, encode):
    path = tmp_path / "r.pgn"
    path.write_bytes(encode(RECORD.decode("utf-8") * 2))
    records = list(iter_records([str(path)]))
    assert len(records) == 2 and all(not r.diagnostics for r in records)
    assert [r.line for r in records] == [1, RECORD.count(b"\n") + 1]


def test_encoding_option_reads_legacy_files(runner):
    latin = SAMPLES / "container" / "broken-latin1-encoding.pgn"
    assert invoke(runner, ["validate", str(latin)]).exit_code == 1
    assert invoke(runner, ["validate", "--encoding", "latin-1", str(latin)]).exit_code == 0
    bad = invoke(runner, ["validate", "--encoding", "klingon", str(latin)])
    assert bad.exit_code == 2 and "--encoding" in bad.stderr


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress])
def test_compressed_standard_input_is_recognised(runner, compress):
    result = invoke(runner, ["validate", "-"], input=compress(RECORD * 3))
    assert result.exit_code == 0 and "3 records: 3 valid" in result.stdout


def test_a_tar_archive_on_standard_input_is_read(runner):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        info = tarfile.TarInfo("a.pgn")
        info.size = len(RECORD)
        archive.addfile(info, io.BytesIO(RECORD))
    result = invoke(runner, ["validate", "-"], input=data.getvalue())
    assert result.exit_code == 0 and "1 records: 1 valid" in result.stdout


def test_a_compression_bomb_is_stopped_by_the_ratio_limit(tmp_path):
    path = tmp_path / "bomb.pgn.gz"
    path.write_bytes(gzip.compress(b" " * (8 << 20)))
    limits = Limits.parse(["ratio=10", "ratio-floor-bytes=1MiB"])
    items = list(iter_records([str(path)], settings=Settings(limits=limits)))
    assert [d.code for d in items if isinstance(d, Diagnostic)] == ["E-LIMIT"]
    assert "ratio=10" in items[-1].message


# ---- 3: digits that are not ASCII ----------------------------------------------------------

@pytest.mark.parametrize("digit", ["²", "①", "٣"])
def test_non_ascii_digits_are_diagnostics_everywhere(runner, tmp_path, digit):
    """str.isdigit() accepts these, int() does not: a move number, a square and position
    strings written with them are diagnostics, never ValueError (found by the fuzz campaign)."""
    from notation_tools.games.base import BadPositionError, EngineError, get_game
    from notation_tools.games.maka.pieces import parse_square
    from notation_tools.records.tokens import TokenKind, tokenize

    assert [t.kind for t in tokenize(f"{digit}1. c1:c2>b2,c1-c2")][0] is TokenKind.MOVE
    path = tmp_path / "r.pgn"
    path.write_text(f'[Variant "elevation"]\n\n{digit}1. c1:c2>b2,c1-c2 *\n')
    result = invoke(runner, ["validate", str(path)])
    assert result.exit_code == 1 and "E-SYNTAX" in codes(result.stderr)
    assert parse_square(f"{digit}a") is None
    for game in ("maka", "gow", "elevation", "shih", "shuriken"):
        chosen = get_game(game)
        text = chosen.format_position(chosen.start_position(chosen.parse_rules(None)))
        for index, char in enumerate(text):
            if char.isdigit():
                with pytest.raises(BadPositionError):
                    chosen.parse_position(text[:index] + digit + text[index + 1:],
                                          chosen.parse_rules(None))
                break
    ebarjou = next(f for f in get_game("gow").file_formats if f.name == "ebarjou")
    with pytest.raises(EngineError):
        ebarjou.read(f"25;20\n1;{digit}\n")
