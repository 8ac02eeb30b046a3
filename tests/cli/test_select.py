"""``notation-tools select`` and ``notation_tools.analysis.select`` (issue #11): selecting by
tags and by what replay finds, deduplicating, routing and splitting."""

from __future__ import annotations

import copy
import io
import json
import tarfile

import pytest
from hypothesis import given, settings, strategies as st

from notation_tools.analysis.convert import Conversion, convert_record
from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import replay
from notation_tools.analysis.select import (
    SelectionError,
    iter_selected,
    parse_selection,
    parse_tag_test,
)
from notation_tools.games.base import get_game
from notation_tools.records import pgn
from notation_tools.records.model import Record, Tag
from tests.conftest import invoke

ELEVATION = get_game("elevation")
SHURIKEN = get_game("shuriken-2d")


def _generated(game, count: int, seed: int, plies: int) -> list[Record]:
    return list(generate_records(game, game.parse_rules(None), count=count, seed=seed,
                                 max_plies=plies))


def _decorate(records: list[Record]) -> list[Record]:
    """Give the generated records players, dates and results of their own."""
    players = ["Steere", "Nakamura", "Okafor", "Steele"]
    for number, record in enumerate(records):
        record.set_tag("White", players[number % len(players)])
        record.set_tag("Date", f"199{number % 10}.0{number % 9 + 1}.1{number % 10}")
    return records


def _text(records: list[Record]) -> str:
    return "".join(pgn.write_record(record) for record in records)


def _read(text: str) -> list[Record]:
    return list(pgn.read_records(text.splitlines(keepends=True)))


@pytest.fixture(scope="module")
def archive_records() -> list[Record]:
    records = _decorate(_generated(ELEVATION, 6, 3, 24) + _generated(SHURIKEN, 4, 5, 400))
    # The first Elevation game again, its moves in the other notation and with a comment.
    again = copy.deepcopy(records[0])
    convert_record(again, Conversion("pgn", notation="elevation-explicit"))
    again.moves[1].comments.append("the same game, written otherwise")
    again.set_tag("Event", "a copy")
    # An illegal move: the second Elevation game with a move of the first.
    broken = copy.deepcopy(records[1])
    broken.moves[2] = copy.deepcopy(records[0].moves[5])
    return [*records, again, broken]


@pytest.fixture
def archive(tmp_path, archive_records) -> str:
    path = tmp_path / "games.pgn"
    path.write_text(_text(archive_records), encoding="utf-8")
    return str(path)


def _select(runner, *args: str):
    return invoke(runner, ["select", *args])


def _matched(result) -> list[Record]:
    return _read(result.stdout)


# -------------------------------------------------------------------------------------------
# By tags


def test_tag_exact_regex_and_comparison(runner, archive, archive_records):
    wanted = [r for r in archive_records if r.tag("White") == "Steere"]
    result = _select(runner, archive, "--tag", "White=Steere")
    assert result.exit_code == 0
    assert [r.tag("Round") for r in _matched(result)] == [r.tag("Round") for r in wanted]
    regex = _matched(_select(runner, archive, "--tag", "White~^Ste+"))
    assert {r.tag("White") for r in regex} == {"Steere", "Steele"}
    rounds = _matched(_select(runner, archive, "--tag", "Round>=3", "--tag", "Round<4"))
    assert {r.tag("Round") for r in rounds} == {"3"}  # numbers compare as numbers


def test_any_tag_is_or_and_tag_is_and(runner, archive, archive_records):
    either = _matched(_select(runner, archive, "--any-tag", "White=Okafor",
                              "--any-tag", "White=Nakamura"))
    assert {r.tag("White") for r in either} == {"Okafor", "Nakamura"}
    both = _matched(_select(runner, archive, "--tag", "White=Okafor",
                            "--tag", "Variant=shuriken-2d"))
    expected = [r for r in archive_records
                if r.tag("White") == "Okafor" and r.tag("Variant") == "shuriken-2d"]
    assert len(both) == len(expected)


def test_dates(runner, archive, archive_records):
    kept = _matched(_select(runner, archive, "--date-from", "1993", "--date-to", "1995.06"))
    dates = sorted(r.tag("Date") for r in kept)
    expected = sorted(r.tag("Date") for r in archive_records
                      if "1993.01.01" <= r.tag("Date") <= "1995.06.31")
    assert dates == expected and dates


def test_a_record_with_an_unknown_month_is_in_its_year():
    record = Record(tags=[Tag("Date", "1998.??.??")])
    inside = parse_selection(date_from="1998.06.01", date_to="1998.07")
    outside = parse_selection(date_from="1999")
    assert inside.judge(record).matched and not outside.judge(record).matched


def test_by_game_profile_and_option(runner, archive, archive_records):
    shuriken = _matched(_select(runner, archive, "--game", "shuriken-2d"))
    assert len(shuriken) == sum(r.tag("Variant") == "shuriken-2d" for r in archive_records)
    profile = SHURIKEN.default_profile
    with_profile = [r for r in archive_records
                    if get_game(r.tag("Variant")).parse_rules(r.tag("Rules")).profile == profile]
    assert len(_matched(_select(runner, archive, "--profile", profile))) == len(with_profile)
    assert len(_matched(_select(runner, archive, "--profile", profile, "--game",
                                "shuriken-2d"))) == len(shuriken)
    name = next(iter(ELEVATION.option_table))
    default = ELEVATION.parse_rules(None).texts[name]
    by_option = _matched(_select(runner, archive, "--option", f"{name}={default}"))
    assert {r.tag("Variant") for r in by_option} == {"elevation"}


def test_a_selection_by_tags_does_not_replay(archive):
    selection = parse_selection(tags=["White~e"], games=["elevation"])
    assert not selection.needs_replay
    items = list(iter_selected([archive], selection))
    assert all(item.verdict.replay is None for item in items)


# -------------------------------------------------------------------------------------------
# By what replay finds


def test_valid_invalid_and_code(runner, archive, archive_records):
    verdicts = [replay(copy.deepcopy(r)).is_valid for r in archive_records]
    valid = _matched(_select(runner, archive, "--valid"))
    invalid = _select(runner, archive, "--invalid")
    assert invalid.exit_code == 0  # a selection is not a lint
    assert len(valid) == sum(verdicts) and len(_matched(invalid)) == verdicts.count(False)
    illegal = _matched(_select(runner, archive, "--code", "E-ILLEGAL-MOVE"))
    assert [r.tag("Round") for r in illegal] == [r.tag("Round") for r, ok in
                                                 zip(archive_records, verdicts) if not ok]


def test_ended_and_plies(runner, archive, archive_records):
    results = [replay(copy.deepcopy(r)) for r in archive_records]
    reasons = {res.outcome.reason for res in results if res.outcome is not None}
    assert reasons, "the fixture needs a finished game"
    reason = sorted(reasons)[0]
    ended = _matched(_select(runner, archive, "--ended", reason))
    assert len(ended) == sum(1 for res in results if res.outcome is not None
                             and res.outcome.reason == reason)
    unfinished = _matched(_select(runner, archive, "--ended", "unfinished", "--valid"))
    assert len(unfinished) == sum(1 for res in results if res.outcome is None and res.is_valid)
    short = _matched(_select(runner, archive, "--plies", "..30"))
    assert len(short) == sum(1 for res in results if res.plies <= 30)
    assert len(_matched(_select(runner, archive, "--plies", "31.."))) == len(results) - len(short)


def test_figure(runner, archive, archive_records):
    figures = [replay(copy.deepcopy(r), collect_stats=True).stats for r in archive_records]
    name = "captures"
    kept = _matched(_select(runner, archive, "--figure", f"{name}>0"))
    assert len(kept) == sum(1 for f in figures if f.get(name, 0) > 0)


def test_reaches_a_position(runner, archive, archive_records):
    record = archive_records[2]
    position = ELEVATION.start_position(ELEVATION.parse_rules(record.tag("Rules")))
    for node in record.moves[:5]:
        position.push(ELEVATION.parse_move(node.text, position))
    fen = ELEVATION.format_position(position)
    kept = _matched(_select(runner, archive, "--reaches", fen))
    assert record.tag("Round") in {r.tag("Round") for r in kept}
    for other in kept:  # every record kept does pass through it
        seen = ELEVATION.start_position(ELEVATION.parse_rules(other.tag("Rules")))
        found = ELEVATION.format_position(seen) == fen
        for node in other.moves:
            seen.push(ELEVATION.parse_move(node.text, seen))
            found = found or ELEVATION.format_position(seen) == fen
        assert found


# -------------------------------------------------------------------------------------------
# Duplicates


def test_dedupe_drops_the_same_game_in_another_notation(runner, tmp_path, archive,
                                                        archive_records):
    dropped = tmp_path / "dups.pgn"
    result = _select(runner, archive, "--dedupe", "--duplicates", str(dropped))
    kept = _matched(result)
    assert len(kept) == len(archive_records) - 1
    (duplicate,) = _read(dropped.read_text(encoding="utf-8"))
    assert duplicate.tag("Event") == "a copy"
    assert "1 duplicates dropped" in result.stderr


def test_dedupe_by_final_position(runner, tmp_path):
    first = _generated(SHURIKEN, 1, 11, 6)[0]
    # The same placements in another order reach the same final position: not the same moves.
    swapped = copy.deepcopy(first)
    swapped.moves[0].text, swapped.moves[2].text = first.moves[2].text, first.moves[0].text
    path = tmp_path / "two.pgn"
    path.write_text(_text([first, swapped]), encoding="utf-8")
    assert replay(copy.deepcopy(swapped)).is_valid
    assert len(_matched(_select(runner, str(path), "--dedupe"))) == 2
    assert len(_matched(_select(runner, str(path), "--dedupe=position"))) == 1


# -------------------------------------------------------------------------------------------
# Routing


def test_output_rejected_and_counts(runner, tmp_path, archive, archive_records):
    out, rejected = tmp_path / "kept.pgn", tmp_path / "rest.pgn"
    result = _select(runner, archive, "--game", "elevation", "-o", str(out),
                     "--rejected", str(rejected))
    kept = _read(out.read_text(encoding="utf-8"))
    rest = _read(rejected.read_text(encoding="utf-8"))
    assert len(kept) + len(rest) == len(archive_records)
    assert f"{len(archive_records)} records read: {len(kept)} matched, {len(rest)} rejected" \
        in result.stderr


def test_records_are_written_as_read_when_nothing_changes(runner, tmp_path):
    text = ('[Variant "elevation"]\n[Event "odd  spacing"]\n\n1.  c1:c2>b2,c1-c2   {kept as'
            ' written}\n d6:d5>c5,d6-d5 *\n')
    path = tmp_path / "one.pgn"
    path.write_text(text, encoding="utf-8")
    assert _select(runner, str(path)).stdout == text + "\n"


def test_split_by_game_result_and_count(runner, tmp_path, archive, archive_records):
    by_game = tmp_path / "by-game"
    assert _select(runner, archive, "--split-by", "game", "-o", str(by_game)).exit_code == 0
    assert sorted(p.name for p in by_game.iterdir()) == ["elevation.pgn", "shuriken-2d.pgn"]
    by_result = tmp_path / "by-result"
    _select(runner, archive, "--split-by", "result", "-o", str(by_result))
    for file in by_result.iterdir():
        results = {r.tag("Result") for r in _read(file.read_text(encoding="utf-8"))}
        names = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "draw", "*": "unfinished"}
        assert {names[value] for value in results} == {file.stem}
    parts = tmp_path / "parts"
    _select(runner, archive, "--split-by", "4", "-o", str(parts), "--to", "jsonl")
    sizes = [len(p.read_text(encoding="utf-8").splitlines()) for p in sorted(parts.iterdir())]
    assert sum(sizes) == len(archive_records)
    assert sizes == [4] * (len(archive_records) // 4) + ([len(archive_records) % 4]
                                                          if len(archive_records) % 4 else [])


def test_keep_tags_tags_only_and_append(runner, tmp_path, archive, archive_records):
    out = tmp_path / "tags.pgn"
    _select(runner, archive, "--keep-tags", "White,Result", "-o", str(out))
    _select(runner, archive, "--keep-tags", "White,Result", "--tags-only", "--append",
            "-o", str(out))
    records = _read(out.read_text(encoding="utf-8"))
    assert len(records) == 2 * len(archive_records)
    for record in records:
        assert set(record.tags) <= {"White", "Result", "Variant", "Rules"}
    assert all(r.moves for r in records[:len(archive_records) - 1])
    assert not any(r.moves for r in records[len(archive_records):])


def test_to_json_with_a_notation(runner, archive, archive_records):
    result = _select(runner, archive, "--game", "elevation", "--valid", "--to", "json",
                     "--notation", "elevation-explicit")
    data = json.loads(result.stdout)
    assert data and all(record["tags"]["Variant"] == "elevation" for record in data)
    first = next(r for r in archive_records if r.tag("Variant") == "elevation")
    again = copy.deepcopy(first)
    convert_record(again, Conversion("pgn", notation="elevation-explicit"))
    assert [m["move"] for m in data[0]["moves"]][:3] == \
        [m.text for m in again.moves[:3]]


def test_archive_member_paths(runner, tmp_path, archive_records):
    path = tmp_path / "club.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name, chunk in (("a/one.pgn", archive_records[:3]), ("b/two.pgn", archive_records[3:5])):
            data = _text(chunk).encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    member = _matched(_select(runner, f"{path}:b/two.pgn"))
    assert [r.tag("Round") for r in member] == [r.tag("Round") for r in archive_records[3:5]]
    folder = _matched(_select(runner, f"{path}:a"))
    assert len(folder) == 3
    missing = _select(runner, f"{path}:c/three.pgn")
    assert missing.exit_code == 2 and "has no member c/three.pgn" in missing.stderr
    # show counts records across the members
    fourth = invoke(runner, ["show", str(path), "--game-index", "4", "-f", "fen"])
    assert fourth.exit_code == 0 and "two.pgn record 1" not in fourth.stdout
    expected = replay(copy.deepcopy(archive_records[3]))
    assert fourth.stdout.strip() == expected.game.format_position(expected.position)


# -------------------------------------------------------------------------------------------
# Bad input: usage errors before any record is read


@pytest.mark.parametrize("args, option", [
    (["--tag", "White~("], "--tag"),
    (["--tag", "no operator"], "--tag"),
    (["--figure", "no_such_figure>0"], "--figure"),
    (["--figure", "captures>lots"], "--figure"),
    (["--reaches", "not a position"], "--reaches"),
    (["--plies", "9..3"], "--plies"),
    (["--code", "E-NO-SUCH"], "--code"),
    (["--profile", "nonsense"], "--profile"),
    (["--option", "nonsense=1"], "--option"),
    (["--date-from", "last week"], "--date-from"),
    (["--game", "chess"], "--game"),
    (["--duplicates", "x.pgn"], "--duplicates"),
    (["--to", "json", "--append"], "--append"),
    (["--split-by", "colour", "-o", "d"], "--split-by"),
    (["--split-by", "game"], "--split-by"),
])
def test_usage_errors_name_the_option(runner, tmp_path, archive, args, option):
    result = _select(runner, archive, *args)
    assert result.exit_code == 2, result.stdout
    assert option in result.stderr
    assert result.stdout == ""


def test_an_unwritable_output_directory_is_a_usage_error(runner, tmp_path, archive):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result = _select(runner, archive, "--split-by", "game", "-o", str(blocker / "sub"))
    assert result.exit_code == 2 and "--output" in result.stderr


def test_an_unreadable_input_exits_2_and_the_rest_is_selected(runner, tmp_path, archive):
    junk = tmp_path / "junk.pgn.gz"
    junk.write_bytes(b"\x1f\x8bnot gzip at all")
    result = _select(runner, str(junk), archive)
    assert result.exit_code == 2 and "E-IO" in result.stderr
    assert _matched(result)


def test_parse_tag_test_rejects_bad_regex():
    with pytest.raises(SelectionError) as error:
        parse_tag_test("White~[")
    assert error.value.option == "--tag"


# -------------------------------------------------------------------------------------------
# Properties


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["White=Steere", "White~e", "Round>2", "Round<=5",
                                 "Date>=1994", "Event!=a copy"]), max_size=3),
       st.sampled_from([None, "--valid", "--invalid"]), st.booleans())
def test_every_record_goes_to_exactly_one_place(tmp_path_factory, archive_records, tests,
                                                validity, dedupe):
    from click.testing import CliRunner

    runner = CliRunner()
    folder = tmp_path_factory.mktemp("route")
    path = folder / "in.pgn"
    path.write_text(_text(archive_records), encoding="utf-8")
    args = [str(path), "-o", str(folder / "kept.pgn"), "--rejected", str(folder / "rest.pgn")]
    for test in tests:
        args += ["--tag", test]
    if validity:
        args.append(validity)
    if dedupe:
        args += ["--dedupe", "--duplicates", str(folder / "dups.pgn")]
    assert _select(runner, *args).exit_code == 0
    counts = {}
    for name in ("kept", "rest", "dups"):
        file = folder / f"{name}.pgn"
        counts[name] = len(_read(file.read_text(encoding="utf-8"))) if file.exists() else 0
    assert sum(counts.values()) == len(archive_records)
    selection = parse_selection(tags=tests, valid={None: None, "--valid": True,
                                                   "--invalid": False}[validity])
    expected = sum(selection.judge(copy.deepcopy(r)).matched for r in archive_records)
    assert counts["kept"] + counts["dups"] == expected


def test_split_by_one_record_a_file_closes_each_part(runner, tmp_path, archive,
                                                     archive_records):
    import os

    parts = tmp_path / "one-each"
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0
    assert _select(runner, archive, "--split-by", "1", "-o", str(parts)).exit_code == 0
    files = sorted(parts.iterdir())
    assert len(files) == len(archive_records)
    assert all(len(_read(f.read_text(encoding="utf-8"))) == 1 for f in files)
    if before:
        assert len(os.listdir("/proc/self/fd")) <= before + 1  # no part left open


def test_split_by_game_names_the_game_not_the_alias(runner, tmp_path):
    record = _generated(ELEVATION, 1, 8, 6)[0]
    record.set_tag("Variant", "elevation")
    text = pgn.write_record(record).replace('[Variant "elevation"]', '[Variant "Elevation"]')
    source = tmp_path / "alias.pgn"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "games"
    _select(runner, str(source), "--split-by", "game", "-o", str(out))
    assert [p.name for p in out.iterdir()] == ["elevation.pgn"]


def test_dedupe_right_before_the_path(runner, archive, archive_records):
    """``--dedupe`` alone takes no value: a path after it is a path (the issue's order)."""
    result = _select(runner, "--dedupe", archive)
    assert result.exit_code == 0, result.stderr
    assert len(_matched(result)) == len(archive_records) - 1
    by_position = _select(runner, "--dedupe=position", archive)
    assert by_position.exit_code == 0
    assert _select(runner, "--dedupe=nonsense", archive).exit_code == 2
