"""The Python API (issue #13) on the real sample records of all five games."""

from __future__ import annotations

import dataclasses
import html
import importlib
import io
import json
import random
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import notation_tools
from notation_tools.parallel.batch import iter_records
from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import replay
from notation_tools.api import CannotWriteError, GameRecord, NoRecordError, ReadError
from notation_tools.games.base import (
    IllegalMoveError,
    MoveSyntaxError,
    UnknownGameError,
    all_games,
    get_game,
)
from notation_tools.records.diagnostics import Diagnostic
from tests.sample_records import SAMPLES

GAMES = all_games()
SAMPLE_FILES = sorted(path for path in SAMPLES.rglob("*") if path.is_file())
GAME_FOLDERS = ("elevation", "game-of-war", "maka", "shih", "shuriken-2d")


def sample_records() -> list[GameRecord]:
    return [record for path in SAMPLE_FILES
            for record in _readable(path)]


def _readable(path: Path) -> list[GameRecord]:
    try:
        return list(notation_tools.read(path))
    except ReadError:
        return []


def package_of(game):
    return importlib.import_module(game.position_type.__module__.rpartition(".")[0])


# ---- read ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SAMPLE_FILES,
                         ids=[str(p.relative_to(SAMPLES)) for p in SAMPLE_FILES])
def test_read_gives_what_the_command_line_reads(path):
    expected = list(iter_records([str(path)]))
    try:
        got = list(notation_tools.read(path))
    except ReadError as error:
        assert any(isinstance(item, Diagnostic) and str(item) == str(error.diagnostic)
                   for item in expected)
        return
    assert all(isinstance(record, GameRecord) for record in got)
    assert len(got) == len(expected)
    for record, reference in zip(got, expected):
        assert record.same_as(reference)
        assert (record.path, record.index, record.line, record.offset) == \
            (reference.path, reference.index, reference.line, reference.offset)
        assert record.diagnostics == reference.diagnostics


def test_every_game_has_sample_records_read_with_their_game():
    found = {record.game.id for record in sample_records() if record.game is not None}
    assert found == {game.id for game in GAMES}
    assert {path.parent.name for path in SAMPLE_FILES} >= set(GAME_FOLDERS)


def test_a_record_knows_its_tags_moves_comments_and_location():
    record = notation_tools.read_one(SAMPLES / "container" / "hand-annotated-variations.pgn")
    assert record.tag("Variant") == record.game.id
    assert record.path.endswith("hand-annotated-variations.pgn")
    assert record.line == 1 and record.offset == 0
    assert any(move.variations for move in record.moves)
    assert any(move.comments for move in record.moves)


@pytest.mark.parametrize("folder", GAME_FOLDERS)
def test_read_from_open_files_text_and_path_objects_agree(folder):
    path = next(p for p in sorted((SAMPLES / folder).glob("*.pgn"))
                if not p.name.startswith("broken"))
    text = path.read_text(encoding="utf-8")
    by_path = list(notation_tools.read(str(path)))
    with open(path, encoding="utf-8") as handle:
        by_text_file = list(notation_tools.read(handle))
    with open(path, "rb") as handle:
        by_binary_file = list(notation_tools.read(handle))
    by_text = list(notation_tools.read_text(text))
    by_path_object = list(notation_tools.read(path))
    for records in (by_text_file, by_binary_file, by_text, by_path_object):
        assert len(records) == len(by_path) > 0
        assert all(a.same_as(b) for a, b in zip(records, by_path))
    assert by_text_file[0].path == str(path)
    assert by_text[0].path == "<string>"


def test_read_directories_archives_members_and_standard_input(tmp_path, monkeypatch):
    source = SAMPLES / "shih"
    names = sorted(p.name for p in source.glob("*.pgn"))[:3]
    archive = tmp_path / "club.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for name in names:
            out.write(source / name, f"evening/{name}")
    tar = tmp_path / "club.tar.gz"
    with tarfile.open(tar, "w:gz") as out:
        for name in names:
            out.add(source / name, name)
    expected = [r for name in names for r in notation_tools.read(source / name)]
    for given in (archive, tar):
        records = list(notation_tools.read(given))
        assert [r.moves[0].text if r.moves else None for r in records] == \
            [r.moves[0].text if r.moves else None for r in expected]
    member = list(notation_tools.read(f"{archive}:evening/{names[1]}"))
    assert member[0].path == f"{archive}:evening/{names[1]}"
    assert member[0].same_as(next(notation_tools.read(source / names[1])))
    folder = tmp_path / "folder"
    folder.mkdir()
    for name in names:
        (folder / name).write_bytes((source / name).read_bytes())
    assert len(list(notation_tools.read(folder))) == len(expected)
    stdin = io.TextIOWrapper(io.BytesIO((source / names[0]).read_bytes()))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert next(notation_tools.read("-")).same_as(expected[0])


def test_read_faults_inside_a_record_are_diagnostics_and_lost_input_raises(tmp_path):
    broken = notation_tools.read_one(SAMPLES / "container" / "broken-unterminated-comment.pgn")
    assert any(d.code == "E-SYNTAX" for d in broken.diagnostics)
    with pytest.raises(FileNotFoundError):
        notation_tools.read(tmp_path / "missing.pgn")
    with pytest.raises(ReadError) as raised:
        list(notation_tools.read(SAMPLES / "container" / "broken-truncated-download.zip"))
    assert raised.value.diagnostic.code == "E-IO"
    with pytest.raises(UnknownGameError):
        notation_tools.read(SAMPLES / "maka", game="no-such-game")
    with pytest.raises(NoRecordError):
        notation_tools.read_one(io.StringIO(""))
    with pytest.raises(TypeError):
        notation_tools.read(b"1. c1:c2>b2,c1-c2 *")


def test_read_in_another_encoding():
    path = SAMPLES / "container" / "broken-latin1-encoding.pgn"
    assert {d.code for d in notation_tools.read_one(path).diagnostics} == {"E-ENCODING"}
    assert notation_tools.read_one(path, encoding="latin-1").diagnostics == []
    with open(path, encoding="latin-1") as handle:  # decoded already: the encoding is moot
        assert notation_tools.read_one(handle, encoding="utf-16").diagnostics == []


def test_read_overrides_give_the_game_and_rules():
    text = '[Event "no game named"]\n\n1. a1:b1>a2,a1-a2 *\n'
    assert notation_tools.parse(text).game is None
    record = notation_tools.parse(text, game="elevation", rules="two-pieces-per-turn")
    elevation = get_game("elevation")
    assert record.game is elevation
    assert record.replay().rules == elevation.parse_rules("two-pieces-per-turn")
    assert record.replay(rules="").rules == elevation.parse_rules(None)
    assert record.replay(rules=elevation.parse_rules("standard")).rules == \
        elevation.parse_rules("standard")


# ---- replay ----------------------------------------------------------------------------------


def test_replay_agrees_with_validate_on_every_sample_record():
    for record in sample_records():
        replayed = record.replay()
        reference_record = next(r for r in iter_records([_file_of(record)])
                                if r.index == record.index and r.path == record.path)
        reference = replay(reference_record, collect_stats=True)
        assert replayed.diagnostics == reference.diagnostics, record.path
        assert replayed.is_valid == reference.is_valid
        assert replayed.outcome == reference.outcome
        assert replayed.result == reference.result
        assert len(replayed.moves) == reference.plies
        if reference.position is None:
            assert replayed.final is None and list(replayed.positions()) == []
            continue
        fen = reference.game.format_position(reference.position)
        assert replayed.final.fen() == fen
        last = None
        for last in replayed.positions():
            pass
        assert last is None or last[3].fen() == fen
        assert replayed.figures() == reference.stats, record.path


def _file_of(record: GameRecord) -> str:
    path = record.path
    while not Path(path).exists():
        path = path.rpartition(":")[0]
    return path


def test_replay_leaves_the_record_as_it_was():
    record = notation_tools.read_one(SAMPLES / "maka" / "broken-illegal-move.pgn")
    before = list(record.diagnostics)
    first, second = record.replay(), record.replay()
    assert record.diagnostics == before
    assert first.diagnostics == second.diagnostics
    assert any(d.code == "E-ILLEGAL-MOVE" for d in first.diagnostics) and not first.is_valid


@pytest.mark.parametrize("folder", GAME_FOLDERS)
def test_positions_without_and_with_copies_agree(folder):
    records = [r for path in sorted((SAMPLES / folder).glob("*.pgn")) for r in _readable(path)]
    checked = 0
    for record in records:
        replayed = record.replay()
        live = [(ply, move, before.fen(), after.fen())
                for ply, move, before, after in replayed.positions()]
        copies = list(replayed.positions(copy=True))
        assert live == [(ply, move, before.fen(), after.fen())
                        for ply, move, before, after in copies]
        assert [entry[0] for entry in live] == list(range(1, len(replayed.moves) + 1))
        for (_, move, before, after), (_, _, next_before, _) in zip(copies, copies[1:]):
            assert after is next_before
            moved = before.copy()
            moved.push(move)
            assert moved.fen() == after.fen()
        assert list(replayed.mainline()) is not None
        checked += len(live)
    assert checked > 0


def test_live_positions_are_two_boards_a_ply_apart():
    path = next(p for p in sorted((SAMPLES / "shih").glob("*.pgn"))
                if not p.name.startswith("broken"))
    replayed = notation_tools.read_one(path).replay()
    seen = set()
    for _, move, before, after in replayed.positions():
        seen.add((id(before), id(after)))
        assert before.text(move)  # the move is legal in the live position before it
    assert len(seen) == 1


def _framed_page(frame: str) -> str:
    match = re.fullmatch(r'<iframe srcdoc="([^"]*)"[^>]*></iframe>', frame)
    assert match, frame[:200]
    return html.unescape(match.group(1))


def test_replayed_game_shows_as_its_viewer_page_in_a_frame():
    record = notation_tools.read_one(SAMPLES / "maka" / "tsa-sample-record.pgn")
    replayed = record.replay()
    page = _framed_page(replayed._repr_html_())
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    assert record.moves[0].text in page
    assert record.diagnostics == replayed.record.diagnostics  # drawing adds nothing to them
    nothing = notation_tools.parse("1. x *\n").replay()
    assert "E-UNKNOWN-VARIANT" in _framed_page(nothing._repr_html_())


# ---- games and positions ---------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_position_api_has_one_spelling_for_every_game(game):
    assert notation_tools.game(game.aliases[0] if game.aliases else game.id) is game
    position = game.start()
    assert position.game is game
    assert game.position(position.fen()).fen() == position.fen()
    assert position.svg().lstrip().startswith(("<svg", "<?xml")) and "<svg" in position._repr_svg_()
    assert position.outcome() is None and position.is_over() is False
    rng = random.Random(13)
    for _ in range(6):
        text = _random_turn_text(game, position, rng)
        if text is None:
            break
        before = position.fen()
        move = position.push_text(text)
        after = position.fen()
        position.pop()
        assert position.fen() == before
        assert position.text(move) == text
        position.push(move)
        assert position.fen() == after
    with pytest.raises((MoveSyntaxError, IllegalMoveError)):
        position.push_text("zz99")


def _random_turn_text(game, position, rng) -> str | None:
    from notation_tools.analysis.generate import random_move

    move = random_move(game, position, rng)
    return None if move is None else game.format_move(move, position)


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_moves_are_frozen_and_their_repr_evaluates_back(game):
    # The namespace is the game's package: `from notation_tools.games.<game> import *`.
    namespace = vars(package_of(game))
    moves = []
    for seed in range(3):
        for record in generate_records(game, game.parse_rules(None), count=1, seed=seed,
                                       max_plies=40):
            replayed = GameRecord.from_record(record).replay()
            moves += replayed.moves
            moves += [m for _, _, before, _ in replayed.positions() for m in
                      list(before.legal_moves())[:5]]
    assert moves
    for move in moves:
        assert eval(repr(move), namespace) == move  # noqa: S307 - the test is that it evaluates
        field = dataclasses.fields(move)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(move, field, getattr(move, field))


def test_an_outcome_is_asked_the_same_way_in_every_game():
    for record in sample_records():
        replayed = record.replay()
        if replayed.outcome is not None:
            assert replayed.final.is_over() and replayed.final.outcome() == replayed.outcome


# ---- write -----------------------------------------------------------------------------------


def test_record_write_in_both_containers_and_another_notation():
    record = notation_tools.read_one(SAMPLES / "maka" / "archive-coord.pgn")
    text = record.write()
    assert notation_tools.parse(text).same_as(record)
    data = json.loads(record.write(container="json"))
    assert data[0]["tags"]["Variant"] == record.tag("Variant")
    other = next(n for n in record.game.notations if n != record.game.notations[0])
    rewritten = notation_tools.parse(record.write(notation=other))
    assert [m.text for m in rewritten.moves] != [m.text for m in record.moves]
    assert rewritten.replay().moves == record.replay().moves
    assert record.write() == text  # writing changed nothing


def test_write_records_to_a_path_or_a_stream(tmp_path):
    records = list(notation_tools.read(SAMPLES / "shuriken-2d"))
    valid = [r for r in records if not any(d.is_error for d in r.diagnostics)]
    assert notation_tools.write(valid, tmp_path / "all.jsonl") == len(valid)
    assert (tmp_path / "all.jsonl").read_text().count("\n") == len(valid)
    back = list(notation_tools.read(tmp_path / "all.jsonl"))
    assert [r.replay().moves for r in back] == [r.replay().moves for r in valid]
    out = io.StringIO()
    assert notation_tools.write(valid[:2], out) == 2
    assert [r.replay().moves for r in notation_tools.read_text(out.getvalue())] == \
        [r.replay().moves for r in valid[:2]]



def test_a_lone_surrogate_is_written_to_a_path_as_its_escape(tmp_path):
    record = notation_tools.parse('[Variant "elevation"]\n[White "x"]\n\n*\n')
    record.tags["White"] = "\udcff"
    assert notation_tools.write([record], tmp_path / "odd.pgn") == 1
    assert '[White "\\udcff"]' in (tmp_path / "odd.pgn").read_text(encoding="utf-8")

def test_a_record_not_read_whole_is_not_written():
    record = notation_tools.read_one(SAMPLES / "container" / "broken-unterminated-comment.pgn")
    with pytest.raises(CannotWriteError) as raised:
        record.write()
    assert raised.value.diagnostics[0].code == "E-CANNOT-WRITE"
    valid = notation_tools.read_one(SAMPLES / "maka" / "tsa-sample-record.pgn")
    with pytest.raises(CannotWriteError) as raised:
        valid.write(notation="elevation-explicit")
    assert raised.value.diagnostics[0].code == "E-BAD-NOTATION"


@given(st.sampled_from(GAMES), st.integers(0, 2**16), st.sampled_from(["pgn", "json", "jsonl"]))
def test_reading_what_was_written_gives_the_same_moves(game, seed, container):
    record = GameRecord.from_record(next(generate_records(
        game, game.parse_rules(None), count=1, seed=seed, max_plies=12)))
    moves = record.replay().moves
    back = notation_tools.read_one(io.StringIO(record.write(container=container)))
    assert back.replay().moves == moves
    notation = game.notations[-1]
    assert notation_tools.parse(record.write(notation=notation)).replay().moves == moves


def test_every_sample_record_read_whole_reads_back_with_the_same_moves():
    checked = 0
    for record in sample_records():
        if any(d.is_error for d in record.diagnostics):
            continue  # not read whole: refused, as test_a_record_not_read_whole_is_not_written
        replayed = record.replay()
        for container in ("pgn", "jsonl"):
            back = list(notation_tools.read_text(record.write(container=container)))
            assert len(back) == 1 and back[0].replay().moves == replayed.moves, record.path
        checked += 1
    assert checked > 50


# ---- the package's face ----------------------------------------------------------------------


def test_import_stays_cheap_and_names_load_when_used():
    code = ("import sys, notation_tools; loaded = 'notation_tools.api' in sys.modules; "
            "notation_tools.read; print(loaded, 'notation_tools.api' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "True"]
    with pytest.raises(AttributeError):
        notation_tools.no_such_name  # noqa: B018
    assert set(notation_tools.__all__) <= set(dir(notation_tools))
    for name in notation_tools.__all__:
        assert getattr(notation_tools, name) is not None


def test_a_position_knows_its_game_even_for_a_game_outside_this_one():
    from tests.example_game.tictactoe import GAME as EXAMPLE
    from tests.example_game.tictactoe import Position as ExamplePosition

    assert ExamplePosition.game is EXAMPLE  # not registered: set when the game is built
    subclass = type("Derived", (ExamplePosition,), {"__module__": "elsewhere.rules"})
    assert subclass.game is EXAMPLE


# ---- an open file a record at a time (python-chess's read_game) ------------------------------


def _read_until_none(read_next):
    """What calling ``read_next`` until ``None`` gives: the records, then the ReadError that
    stopped it (or ``None``)."""
    records = []
    try:
        while (record := read_next()) is not None:
            records.append(record)
    except ReadError as error:
        return records, str(error.diagnostic)
    return records, None


def _read_whole(path):
    records = []
    try:
        for record in notation_tools.read(path):
            records.append(record)
    except ReadError as error:
        return records, str(error.diagnostic)
    return records, None


@pytest.mark.parametrize("path", SAMPLE_FILES,
                         ids=[str(p.relative_to(SAMPLES)) for p in SAMPLE_FILES])
def test_read_game_until_none_gives_what_reading_the_whole_file_gives(path):
    expected, expected_fault = _read_whole(path)
    with open(path, "rb") as handle:
        got, fault = _read_until_none(lambda: notation_tools.read_game(handle))
    assert fault == expected_fault
    assert len(got) == len(expected)
    for record, reference in zip(got, expected):
        assert record.same_as(reference)
        assert list(record.tags.entries()) == list(reference.tags.entries())
        assert (record.path, record.index, record.line, record.offset) == \
            (reference.path, reference.index, reference.line, reference.offset)
        assert record.diagnostics == reference.diagnostics
    with open(path, "rb") as handle:
        headers, fault = _read_until_none(lambda: notation_tools.read_headers(handle))
    assert fault == expected_fault
    assert [list(tags.entries()) for tags in headers] == \
        [list(record.tags.entries()) for record in expected]
    with open(path, "rb") as handle:
        skipped, fault = _read_until_none(lambda: notation_tools.skip_game(handle) or None)
    assert (len(skipped), fault) == (len(expected), expected_fault)


@pytest.mark.parametrize("folder", GAME_FOLDERS)
def test_read_game_reads_text_files_a_record_at_a_time(folder):
    for path in sorted((SAMPLES / folder).glob("*.pgn")):
        expected, fault = _read_whole(path)
        if fault is not None or not path.read_bytes().isascii():
            continue
        with open(path, encoding="utf-8", newline="") as handle:
            got, _ = _read_until_none(lambda: notation_tools.read_game(handle))
            assert notation_tools.read_game(handle) is None  # and stays at the end
        assert [r.diagnostics for r in got] == [r.diagnostics for r in expected]
        assert all(a.same_as(b) for a, b in zip(got, expected)) and len(got) == len(expected)


def test_read_game_mixes_with_read_headers_and_skip_game_and_holds_one_record():
    one = '[Round "{}"]\n\n1. c1:c2>b2,c1-c2 *\n\n'
    stream = io.StringIO("".join(one.format(round) for round in range(1, 5)))
    assert notation_tools.read_headers(stream)["Round"] == "1"
    assert notation_tools.skip_game(stream) is True
    record = notation_tools.read_game(stream, game="elevation")
    assert record.tags["Round"] == "3" and record.index == 3 and record.replay().is_valid
    assert notation_tools.read_game(stream).tag("Round") == "4"
    assert notation_tools.skip_game(stream) is False
    assert notation_tools.read_headers(stream) is None

    class Counted(io.StringIO):
        """A long file that counts how much of it has been read."""
        taken = 0

        def read(self, size=-1):
            block = super().read(size)
            self.taken += len(block)
            return block

    many = Counted(one.format(1) * 100_000)
    assert notation_tools.read_game(many, game="elevation").moves[0].text == "c1:c2>b2,c1-c2"
    assert many.taken < 300_000 < len(many.getvalue())


def test_read_headers_of_text_after_a_result_agrees_with_read_game():
    text = '[Round "1"]\n\n1. c1:c2>b2,c1-c2 * 1. c1:c2>b2,c1-c2 *\n\n[Round "3"]\n\n*\n'
    by_records = [dict(r.tags) for r in notation_tools.read_text(text)]
    stream = io.StringIO(text)
    assert [dict(tags) for tags in iter(lambda: notation_tools.read_headers(stream), None)] \
        == by_records == [{"Round": "1"}, {}, {"Round": "3"}]


def test_read_game_takes_open_files_only():
    for wrong in ("game.pgn", Path("game.pgn"), 3):
        with pytest.raises(TypeError):
            notation_tools.read_game(wrong)


# ---- text and paths, never guessed -----------------------------------------------------------


def test_text_has_its_own_entry_points_that_never_take_a_path(tmp_path):
    record = notation_tools.parse("1. c1:c2>b2,c1-c2 *", game="elevation")
    assert record.path == "<string>" and record.replay().is_valid
    (tmp_path / "game.pgn").write_text("1. c1:c2>b2,c1-c2 *\n", encoding="utf-8")
    path_text = str(tmp_path / "game.pgn")
    # a path given as text is text: one word that is no move of the game
    assert [m.text for m in notation_tools.parse(path_text).moves] == [path_text]
    assert len(list(notation_tools.read_text(""))) == 0
    with pytest.raises(NoRecordError):
        notation_tools.parse("   \n")
    assert notation_tools.read_one(tmp_path / "game.pgn", game="elevation").replay().is_valid


# ---- tags read like a mapping ----------------------------------------------------------------


def test_tags_read_and_change_like_a_mapping_and_keep_their_entries():
    record = notation_tools.parse('[Event "a"]\n[White "Steere"]\n[Event "b"]\n\n*\n')
    tags = record.tags
    assert tags["White"] == "Steere" and tags.get("Black") is None and "Event" in tags
    assert list(tags) == ["Event", "White"] and len(tags) == 2
    assert [(t.name, t.value, t.line) for t in tags.entries()] == [
        ("Event", "a", 1), ("White", "Steere", 2), ("Event", "b", 3)]
    tags["Event"] = "club"
    tags["Black"] = "Becker"
    assert [(t.name, t.value) for t in tags.entries()] == [
        ("Event", "club"), ("White", "Steere"), ("Event", "b"), ("Black", "Becker")]
    assert '[Event "b"]' in record.write()  # a duplicate is still written
    del tags["Event"]
    assert dict(tags) == {"White": "Steere", "Black": "Becker"}
    with pytest.raises(KeyError):
        del tags["Event"]
    with pytest.raises(KeyError):
        tags["Event"]  # noqa: B018
    assert record.copy().tags == tags and record.copy().tags is not tags


def test_every_sample_record_writes_the_same_text_with_tags_as_a_mapping():
    """The writers read the tag entries: a record read and written again keeps its tags'
    order, duplicates and text in both containers."""
    for record in sample_records():
        if any(d.is_error for d in record.diagnostics):
            continue
        for container in ("pgn", "jsonl"):
            back = notation_tools.parse(record.write(container=container))
            names = [(t.name, t.value) for t in back.tags.entries()]
            assert names[:len(record.tags.entries())] == [
                (t.name, t.value) for t in record.tags.entries()][:len(names)], record.path


# ---- records built in Python -----------------------------------------------------------------


@given(st.sampled_from(GAMES), st.integers(0, 2**16), st.integers(0, 16),
       st.sampled_from(["pgn", "json", "jsonl"]))
def test_a_record_built_from_moves_reads_back_with_the_same_moves_and_verdict(
        game, seed, plies, container):
    from notation_tools.analysis.generate import random_move

    rules = game.parse_rules(None)
    position = game.start(rules)
    rng = random.Random(seed)
    played = []
    while len(played) < plies and position.outcome() is None:
        move = random_move(game, position, rng)
        if move is None:
            break
        played.append(move)
        position.push(move)
    record = notation_tools.record_from_moves(game, played, rules=rules,
                                              tags={"White": "a", "Black": "b"})
    assert record.tags["Variant"] == game.id and record.tags["White"] == "a"
    back = notation_tools.parse(record.write(container=container)).replay()
    assert back.is_valid and back.complete
    # the same moves: a game may spell a move object two ways (Game of War's steps in another
    # order), so they are compared by their texts and by where they lead
    again = game.start(rules)
    texts = []
    for move in back.moves:
        texts.append(again.text(move))
        again.push(move)
    assert texts == [node.text for node in record.moves] and len(texts) == len(played)
    assert again.fen() == position.fen()
    assert back.outcome == position.outcome()
    assert back.result == record.tags["Result"]


def test_a_built_record_takes_a_start_position_and_variations():
    elevation = notation_tools.game("elevation")
    position = elevation.start()
    first = position.push_text("c1:c2>b2,c1-c2")
    start = position.copy()
    reply = next(iter(start.legal_moves()))
    record = notation_tools.record_from_moves(elevation, [reply], start=start)
    assert record.tags["SetUp"] == "1" and record.tags["FEN"] == start.fen()
    assert notation_tools.parse(record.write()).replay().moves == [reply]

    record = notation_tools.record_from_moves("elevation", [first, reply])
    other = [move for move in start.legal_moves() if move != reply][:2]
    nodes = record.add_variation(2, other[:1])
    assert record.moves[1].variations == [nodes]
    back = notation_tools.parse(record.write())
    assert back.replay().is_valid
    assert [m.text for m in back.moves[1].variations[0]] == [nodes[0].text]
    with pytest.raises(IllegalMoveError):
        notation_tools.record_from_moves(elevation, [reply])  # not legal at the start
    with pytest.raises(ValueError):
        record.add_variation(3, other)


def test_dir_of_the_package_lists_its_api_only():
    out = subprocess.run([sys.executable, "-c", "import notation_tools; print(dir(notation_tools))"],
                         capture_output=True, text=True, check=True).stdout
    assert eval(out) == sorted(notation_tools.__all__)
    for name in ("read_game", "read_headers", "skip_game", "read_text", "parse",
                 "record_from_moves", "Tags"):
        assert name in notation_tools.__all__


@pytest.mark.parametrize("name", ["maka", "gow", "shih", "shuriken", "elevation"])
def test_push_legal_takes_every_legal_move_and_refuses_an_illegal_one(name):
    """A random legal move of each game is ``in legal_moves()`` and ``push_legal`` plays it,
    Game of War's whole turns included (its listed moves are a turn's actions); a move of the
    position before, where it is no longer legal, is refused and changes nothing."""
    from notation_tools.analysis.generate import random_move

    game = notation_tools.game(name)
    position = game.start()
    rng = random.Random(26)
    first = random_move(game, position, rng)
    for _ in range(12):
        move = random_move(game, position, rng)
        if move is None:  # the game is over
            break
        assert move in position.legal_moves()
        position.push_legal(move)
    before = position.fen()
    if not position.is_legal(first):
        with pytest.raises(IllegalMoveError):
            position.push_legal(first)
        assert position.fen() == before
