"""Nothing lost while reading: a member that cannot be read is one diagnostic and reading goes
on; archives inside archives are read as archives (to ``archive-depth``); where data breaks,
every whole record before the break is read, then one diagnostic names the record it cut."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile
import zlib

import pytest

from notation_tools.parallel.batch import Settings, iter_records
from notation_tools.limits import Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.sources import iter_stream, iter_units, text_encoding
from tests.conftest import invoke


def records(count: int, first: int = 1) -> bytes:
    """``count`` small Elevation records, each naming its number in its Round tag."""
    return b"".join(b'[Variant "elevation"]\n[Round "%d"]\n\n1. c1:c2>b2,c1-c2 d6:d5>c5,d6-d5 '
                    b'*\n\n' % number for number in range(first, first + count))


def ends(text: bytes) -> list[int]:
    """Where each record's text ends (after its result)."""
    found, position = [], 0
    while (at := text.find(b" *\n", position)) >= 0:
        found.append(at + 2)
        position = at + 3
    return found


BINARY = b"\0\x01\x02junk" * 300


def read(paths, stdin=None, **limits):
    settings = Settings(limits=Limits(**limits)) if limits else Settings()
    items = list(iter_records([str(p) for p in paths], stdin=stdin, settings=settings))
    diagnostics = [item for item in items if isinstance(item, Diagnostic)]
    rounds = [item.tag("Round") for item in items if not isinstance(item, Diagnostic)]
    return rounds, diagnostics


def tar_bytes(members, mode="w", fmt=tarfile.PAX_FORMAT) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode, format=fmt, encoding="utf-8",
                      errors="surrogateescape") as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def zip_bytes(members, method=zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return out.getvalue()


THREE = [("a.pgn", records(2)), ("b.pgn", BINARY), ("c.pgn", records(3, first=3))]


@pytest.mark.parametrize("suffix,make", [
    (".tar", lambda: tar_bytes(THREE)), (".tgz", lambda: tar_bytes(THREE, "w:gz")),
    (".tar.bz2", lambda: tar_bytes(THREE, "w:bz2")), (".tar.xz", lambda: tar_bytes(THREE, "w:xz")),
    (".zip", lambda: zip_bytes(THREE))])
@pytest.mark.parametrize("stdin", [False, True])
def test_a_member_that_is_not_text_is_one_diagnostic_and_the_next_is_read(tmp_path, suffix,
                                                                          make, stdin):
    path = tmp_path / f"games{suffix}"
    path.write_bytes(make())
    if stdin:
        rounds, diagnostics = read(["-"], stdin=io.BytesIO(path.read_bytes()))
        where = "-:b.pgn"
    else:
        rounds, diagnostics = read([path])
        where = f"{path}:b.pgn"
    assert rounds == ["1", "2", "3", "4", "5"]
    assert [(d.code, d.path) for d in diagnostics] == [("E-IO", where)]


def test_nested_archives_and_compressed_members_are_read_as_archives(tmp_path):
    inner_zip = zip_bytes([("deep/x.pgn.gz", gzip.compress(records(1, first=3))),
                           ("y.pgn", records(1, first=4))])
    club = tar_bytes([("evening/a.pgn", records(2)), ("games.zip", inner_zip)], "w:gz")
    outer = tar_bytes([("club.tar.gz", club), ("z.pgn.bz2", bz2.compress(records(1, first=5))),
                       ("w.pgn.xz", lzma.compress(records(1, first=6))),
                       ("after.pgn", records(1, first=7))], "w:xz")
    path = tmp_path / "all.tar.xz"
    path.write_bytes(outer)
    rounds, diagnostics = read([path])
    assert rounds == ["1", "2", "3", "4", "5", "6", "7"] and diagnostics == []
    # a member of a nested archive is named as diagnostics name it
    (record,) = [r for r in iter_records([f"{path}:club.tar.gz:games.zip:y.pgn"])]
    assert record.path == f"{path}:club.tar.gz:games.zip:y.pgn" and record.tag("Round") == "4"


def test_an_archive_nested_deeper_than_the_limit_is_named_and_the_rest_is_read(tmp_path):
    level3 = tar_bytes([("c.pgn", records(1, first=3))])
    level2 = zip_bytes([("b.pgn", records(1, first=2)), ("three.tar", level3)])
    level1 = tar_bytes([("a.pgn", records(1)), ("two.zip", level2),
                        ("d.pgn", records(1, first=4))], "w:gz")
    path = tmp_path / "one.tgz"
    path.write_bytes(level1)
    assert read([path]) == (["1", "2", "3", "4"], [])
    rounds, diagnostics = read([path], max_archive_depth=2)
    assert rounds == ["1", "2", "4"]
    (diagnostic,) = diagnostics
    assert (diagnostic.code, diagnostic.path) == ("E-LIMIT", f"{path}:two.zip:three.tar")
    assert "archive-depth=2" in diagnostic.message


def test_archive_depth_is_a_limit_with_a_name():
    assert Limits.parse(["archive-depth=7"]).max_archive_depth == 7
    assert Limits().max_archive_depth == 4
    with pytest.raises(ValueError, match="archive-depth"):
        Limits.parse(["archive-depth=100"])


def test_a_zip_in_a_stream_is_read(tmp_path):
    games = zip_bytes([("a.pgn", records(2)), ("b.pgn", records(1, first=3))])
    assert read(["-"], stdin=io.BytesIO(games)) == (["1", "2", "3"], [])
    path = tmp_path / "outer.tar.gz"
    path.write_bytes(tar_bytes([("in/games.zip", games)], "w:gz"))
    assert read([path]) == (["1", "2", "3"], [])


@pytest.mark.parametrize("kind", ["gz", "xz"])
@pytest.mark.parametrize("stdin", [False, True])
def test_a_cut_compressed_file_gives_every_whole_record_then_one_diagnostic(tmp_path, kind,
                                                                            stdin):
    text = records(300)
    packed = gzip.compress(text) if kind == "gz" else lzma.compress(text)
    cut = packed[: len(packed) // 2]
    decoder = (zlib.decompressobj(31) if kind == "gz" else lzma.LZMADecompressor())
    available = len(decoder.decompress(cut))
    whole = sum(end <= available for end in ends(text))
    path = tmp_path / f"games.pgn.{kind}"
    path.write_bytes(cut)
    rounds, diagnostics = (read(["-"], stdin=io.BytesIO(cut)) if stdin else read([path]))
    assert whole > 100 and rounds == [str(n) for n in range(1, whole + 1)]
    (diagnostic,) = diagnostics
    assert diagnostic.code == "E-IO" and f"past byte {available:,}" in diagnostic.message
    # the record the cut falls in is named: its number, its first line
    assert diagnostic.record == whole + 1 and diagnostic.line == 5 * whole + 1
    assert f"record {whole + 1}, from line {5 * whole + 1}" in diagnostic.message


def test_a_cut_bzip2_file_gives_the_records_of_its_whole_blocks(tmp_path):
    text = records(4000)  # about 290 kB: three blocks of 100 kB
    packed = bz2.compress(text, compresslevel=1)
    cut = packed[: len(packed) * 2 // 3]
    available = len(bz2.BZ2Decompressor().decompress(cut))
    assert available >= 90_000  # the first block
    path = tmp_path / "games.pgn.bz2"
    path.write_bytes(cut)
    rounds, (diagnostic,) = read([path])
    whole = sum(end <= available for end in ends(text))
    assert rounds == [str(n) for n in range(1, whole + 1)]
    assert "bzip2 block" in diagnostic.message and diagnostic.record == whole + 1


def test_a_cut_tar_gz_gives_its_whole_members_and_the_records_before_the_cut(tmp_path):
    text = records(200, first=3)
    data = tar_bytes([("a.pgn", records(2)), ("big.pgn", text), ("after.pgn", records(1))],
                     "w:gz")
    cut = data[: len(data) * 2 // 3]
    path = tmp_path / "games.tar.gz"
    path.write_bytes(cut)
    tar_available = len(zlib.decompressobj(31).decompress(cut))
    big_start = 3 * 512  # a.pgn's header and data, big.pgn's header
    whole = sum(end <= tar_available - big_start for end in ends(text))
    rounds, (diagnostic,) = read([path])
    assert rounds == [str(n) for n in range(1, whole + 3)]
    assert diagnostic.path == f"{path}:big.pgn" and diagnostic.record == whole + 1


def test_a_cut_json_lines_file_names_the_line_it_cuts(tmp_path):
    lines = b"".join(b'{"tags": {"Variant": "elevation", "Round": "%d"}, "moves": '
                     b'["c1:c2>b2,c1-c2"]}\n' % n for n in range(1, 401))
    packed = gzip.compress(lines)
    path = tmp_path / "games.jsonl.gz"
    path.write_bytes(packed[: len(packed) // 2])
    available = len(zlib.decompressobj(31).decompress(packed[: len(packed) // 2]))
    whole = lines[:available].count(b"}\n") + lines[:available].endswith(b"}")
    rounds, (diagnostic,) = read([path])
    assert rounds == [str(n) for n in range(1, whole + 1)]
    assert diagnostic.record == whole + 1 and diagnostic.line == whole + 1


def test_a_line_of_json_lines_that_is_not_json_is_one_invalid_record(tmp_path):
    lines = [b'{"tags": {"Variant": "elevation", "Round": "%d"}, "moves": []}\n' % n
             for n in range(1, 6)]
    lines[1] = b'{"tags": oops}\n'
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"".join(lines))
    found = list(iter_records([str(path)]))
    assert [r.tag("Round") for r in found] == [None if i == 1 else str(i + 1) for i in range(5)]
    assert [d.code for d in found[1].diagnostics] == ["E-SYNTAX"] and found[1].line == 2
    # a .json document cannot be read past a fault: its diagnostic says the rest is lost
    path = tmp_path / "games.json"
    path.write_bytes(b"[" + b", ".join(line.strip() for line in lines) + b"]")
    *_, broken = iter_records([str(path)])
    assert broken.diagnostics[0].message.endswith("the rest of the file is not read")


@pytest.mark.parametrize("kind,pack", [("gz", gzip.compress), ("bz2", bz2.compress),
                                       ("xz", lzma.compress)])
def test_every_stream_of_a_concatenated_file_is_read(tmp_path, kind, pack):
    path = tmp_path / f"games.pgn.{kind}"
    path.write_bytes(pack(records(2)) + pack(records(1, first=3)) + b"\0" * 8)
    assert read([path]) == (["1", "2", "3"], [])
    path.write_bytes(pack(records(2)) + b"not compressed")
    rounds, (diagnostic,) = read([path])
    assert rounds == ["1", "2"] and "is not" in diagnostic.message


@pytest.mark.parametrize("seekable", [True, False])
def test_a_cut_zip_is_read_from_its_members_headers(tmp_path, seekable):
    out = io.BytesIO()
    sink = out if seekable else _Unseekable(out)
    with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.pgn", records(2))
        archive.writestr("b.pgn", BINARY)
        archive.writestr("c.pgn", records(300, first=3))
        archive.writestr("d.pgn", records(1))
        third = archive.infolist()[2]
    start = third.header_offset + 30 + len("c.pgn")
    data = out.getvalue()
    cut = data[: start + third.compress_size // 2]
    path = tmp_path / "download.zip"
    path.write_bytes(cut)
    available = len(zlib.decompressobj(-15).decompress(cut[start:]))
    whole = sum(end <= available for end in ends(records(300, first=3)))
    rounds, diagnostics = read([path])
    assert rounds == [str(n) for n in range(1, whole + 3)]
    assert [(d.path, d.record) for d in diagnostics] == [(f"{path}:b.pgn", None),
                                                          (f"{path}:c.pgn", whole + 1)]


def test_a_cut_zip_is_not_taken_for_the_zip_stored_inside_it(tmp_path):
    inner = zip_bytes([("inner.pgn", records(1, first=9))])
    data = zip_bytes([("a.pgn", records(2)), ("inner.zip", inner)], zipfile.ZIP_STORED)
    # cut just after the inner zip: its directory is the last one in the file
    cut = data[: data.rindex(inner) + len(inner)]
    path = tmp_path / "cut.zip"
    path.write_bytes(cut)
    rounds, (diagnostic,) = read([path])
    assert rounds == ["1", "2", "9"]
    assert diagnostic.path == str(path) and "central directory" in diagnostic.message



@pytest.mark.parametrize("kept", [1, 2])
def test_a_cut_in_the_magic_of_a_members_next_stream_is_one_fault(tmp_path, kept):
    # found by the fuzz campaign: a zip cut inside a concatenated .bz2 member, one or two
    # bytes into its next stream's "BZh", gave two diagnostics for the one cut (that member's
    # data "is not bzip2 data", then the archive "ends inside member")
    member = bz2.compress(records(2)) + bz2.compress(records(2, first=3)) + bz2.compress(
        records(1, first=5))
    data = zip_bytes([("games.pgn.bz2", member)], zipfile.ZIP_STORED)
    third = member.rindex(b"BZh")
    cut = data[: data.index(member) + third + kept]
    path = tmp_path / "cut.zip"
    path.write_bytes(cut)
    rounds, diagnostics = read([path])
    assert rounds == ["1", "2", "3", "4"]
    (diagnostic,) = diagnostics
    assert diagnostic.path == f"{path}:games.pgn.bz2" and "ends inside member" in \
        diagnostic.message

def test_a_zip_member_with_a_bad_checksum_is_read_to_near_its_end_and_the_next_is_read(
        tmp_path):
    first = records(400)
    data = bytearray(zip_bytes([("a.pgn", first), ("b.pgn", records(2, first=401))],
                               zipfile.ZIP_STORED))
    data[data.index(b"c1:c2", 1000)] = ord("C")  # a.pgn no longer matches its CRC-32
    path = tmp_path / "damaged.zip"
    path.write_bytes(bytes(data))
    rounds, (diagnostic,) = read([path])
    assert rounds[-2:] == ["401", "402"]
    read_of_first = len(rounds) - 2
    # at most the last read (8 KiB) of the damaged member is lost, and the record it cuts
    assert read_of_first >= sum(end <= len(first) - 8192 for end in ends(first))
    assert rounds[:read_of_first] == [str(n) for n in range(1, read_of_first + 1)]
    assert diagnostic.path == f"{path}:a.pgn" and "CRC" in diagnostic.message
    assert diagnostic.record in (None, read_of_first + 1)


def test_a_tar_header_with_a_negative_size_is_a_damaged_header(tmp_path):
    data = bytearray(tar_bytes([("a.pgn", records(1)), ("b.pgn", records(1, 2))],
                               fmt=tarfile.GNU_FORMAT))
    header = bytearray(data[1024:1536])
    header[124:136] = b"\xff" * 12  # base-256: -1
    header[148:156] = b"        "
    header[148:156] = b"%06o\0 " % sum(header)
    data[1024:1536] = header
    path = tmp_path / "negative.tar"
    path.write_bytes(bytes(data))
    rounds, (diagnostic,) = read([path])
    assert rounds == ["1"] and "negative size" in diagnostic.message


def test_tar_names_long_and_not_utf8(tmp_path):
    long = "d/" + "x" * 150 + ".pgn"
    for fmt in (tarfile.GNU_FORMAT, tarfile.PAX_FORMAT):
        path = tmp_path / f"names{fmt}.tar"
        path.write_bytes(tar_bytes([(long, records(1)), ("caf\udce9.pgn", records(1, 2))],
                                   fmt=fmt))
        found = list(iter_records([str(path)]))
        assert [r.path for r in found] == [f"{path}:{long}", f"{path}:caf\\xe9.pgn"]


def test_tars_joined_end_to_end_are_read_whole(tmp_path):
    path = tmp_path / "joined.tar"
    path.write_bytes(tar_bytes([("a.pgn", records(2))]) + tar_bytes([("b.pgn", records(1, 3))]))
    assert read([path]) == (["1", "2", "3"], [])


def test_a_tar_cut_between_members_or_damaged_says_so(tmp_path):
    data = tar_bytes([("a.pgn", records(2)), ("b.pgn", records(1, 3))], fmt=tarfile.GNU_FORMAT)
    path = tmp_path / "cut.tar"
    path.write_bytes(data[:1024])  # a.pgn's header and data: no end-of-archive block
    rounds, (diagnostic,) = read([path])
    assert rounds == ["1", "2"] and "end-of-archive" in diagnostic.message
    damaged = bytearray(data)
    damaged[1024 + 148: 1024 + 156] = b"0000000\0"  # b.pgn's header checksum
    path.write_bytes(bytes(damaged))
    rounds, (diagnostic,) = read([path])
    assert rounds == ["1", "2"] and "damaged member header at byte 1,024" in diagnostic.message


def test_members_that_are_not_files_are_passed_over_and_a_sparse_one_is_named(tmp_path):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as archive:
        archive.addfile(tarfile.TarInfo("dir/"), None)
        link = tarfile.TarInfo("dir/link.pgn")
        link.type, link.linkname = tarfile.SYMTYPE, "a.pgn"
        archive.addfile(link)
        sparse = tarfile.TarInfo("holes.pgn")
        sparse.type, sparse.size = tarfile.GNUTYPE_SPARSE, 0
        archive.addfile(sparse)
        info = tarfile.TarInfo("a.pgn")
        info.size = len(records(1))
        archive.addfile(info, io.BytesIO(records(1)))
    path = tmp_path / "kinds.tar"
    path.write_bytes(out.getvalue())
    rounds, (diagnostic,) = read([path])
    assert rounds == ["1"] and diagnostic.path == f"{path}:holes.pgn"
    assert "sparse" in diagnostic.message


def test_a_link_is_passed_over_when_its_member_is_read_and_named_otherwise(tmp_path):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, data in (("data.bin", records(1)), ("a.pgn", records(1, 2))):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for name, kind, target in (("copy.pgn", tarfile.LNKTYPE, "a.pgn"),
                                   ("games.pgn", tarfile.LNKTYPE, "data.bin"),
                                   ("d/up.pgn", tarfile.SYMTYPE, "../a.pgn"),
                                   ("out.pgn", tarfile.SYMTYPE, "../elsewhere.pgn")):
            link = tarfile.TarInfo(name)
            link.type, link.linkname = kind, target
            archive.addfile(link)
    path = tmp_path / "links.tar"
    path.write_bytes(out.getvalue())
    rounds, diagnostics = read([path])
    assert rounds == ["2"]
    assert [(d.path, d.message.split(", which")[0]) for d in diagnostics] == [
        (f"{path}:games.pgn", f"{path}:games.pgn is a hard link to data.bin"),
        (f"{path}:out.pgn", f"{path}:out.pgn is a symbolic link to ../elsewhere.pgn")]


def test_a_bomb_inside_an_archive_is_stopped_and_the_next_member_read(tmp_path):
    bomb = gzip.compress(b"1. c1:c2>b2,c1-c2 " * 200_000)
    path = tmp_path / "bomb.tar"
    path.write_bytes(tar_bytes([("bomb.pgn.gz", bomb), ("a.pgn", records(1))]))
    rounds, (diagnostic,) = read([path], max_ratio=10, ratio_floor_bytes=1 << 20)
    assert rounds == ["1"] and diagnostic.code == "E-LIMIT" and "ratio=10" in diagnostic.message


def test_empty_members_hold_nothing_and_say_nothing(tmp_path):
    path = tmp_path / "empty.zip"
    path.write_bytes(zip_bytes([("a.pgn", b""), ("dir/", b""), ("b.pgn", records(1))]))
    assert read([path]) == (["1"], [])


@pytest.mark.parametrize("name", ["rot13", "base64", "zlib", "hex"])
def test_an_encoding_that_is_not_a_text_encoding_is_refused(runner, tmp_path, name):
    path = tmp_path / "a.pgn"
    path.write_bytes(records(1))
    with pytest.raises(ValueError, match="not a text encoding"):
        iter_units([str(path)], encoding=name)
    with pytest.raises(ValueError, match="not a text encoding"):
        iter_stream(io.BytesIO(records(1)), encoding=name)
    with pytest.raises(ValueError, match="unknown encoding"):
        text_encoding("no-such-encoding")
    result = invoke(runner, ["validate", "--encoding", name, str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("not a text encoding") == 1
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


class _Unseekable(io.RawIOBase):
    """A stream zipfile cannot seek in: it writes each member's sizes after its data."""

    def __init__(self, out: io.BytesIO) -> None:
        self.out = out

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        return self.out.write(data)

    def tell(self) -> int:
        return self.out.tell()
