"""ShogiVar's save files (.svar), §9.9 (issue #16), against the files ShogiVar 1.55b wrote
(sample_games/maka/maka-*.svar)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from notation_tools.analysis.batch import iter_records
from notation_tools.analysis.replay import replay
from notation_tools.games.base import EngineError
from notation_tools.games.maka import GAME
from notation_tools.games.maka.pieces import TYPE_ID, parse_square
from notation_tools.games.maka.svar import PIECE_CODES, read_svar, sniff_svar

SAMPLES = Path(__file__).resolve().parents[3] / "sample_games" / "maka"
SAVES = sorted(SAMPLES.glob("*.svar"))


def _record(path: Path):
    (record,) = list(iter_records([str(path)]))
    return record


def _header(path: Path) -> list[str]:
    return path.read_text(encoding="ascii").splitlines()[0].split(",")


def test_the_samples_are_there():
    assert [p.name for p in SAVES] == ["maka-cvc-A.svar", "maka-cvc-B.svar",
                                       "maka-handicap-C.svar"]
    assert (SAMPLES / "maka-cvc-A.txt").exists() and (SAMPLES / "maka-cvc-B.txt").exists()


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.name)
def test_9_9_every_sample_replays_to_the_saved_board(path):
    record = _record(path)
    result = replay(record)
    assert result.is_valid and result.diagnostics == [], result.diagnostics
    assert result.plies == int(_header(path)[6])  # the header's ply count
    assert result.game.id == "maka-dai-dai-shogi"
    side = _header(path)[3].strip('"')
    assert GAME.sides[result.position.turn] == side


@pytest.mark.parametrize("name", ["maka-cvc-A", "maka-cvc-B"])
def test_9_9_a_save_holds_the_game_its_text_score_prints(name):
    """The normal start: the save's moves are the text score's (§9.8), move for move."""
    save = replay(_record(SAMPLES / f"{name}.svar"), digest=True)
    record = _record(SAMPLES / f"{name}.svar")
    assert record.tag("SetUp") is None and record.tag("FirstPlayer") is None
    printed = replay(_record(SAMPLES / f"{name}.txt"), digest=True)
    assert printed.is_valid and printed.plies == save.plies
    assert printed.digest == save.digest


def test_9_9_a_handicap_save_rebuilds_its_start():
    """maka-handicap-C: White's Free King on 10e was removed and White moved first; the start
    is rebuilt by undoing every ply from the saved board."""
    record = _record(SAMPLES / "maka-handicap-C.svar")
    assert record.tag("SetUp") == "1" and record.tag("FirstPlayer") == "White"
    assert record.tag("Handicap") == "1"
    start = GAME.parse_position(record.tag("FEN"), GAME.parse_rules(None))
    normal = GAME.start_position(GAME.parse_rules(None))
    differ = [sq for sq in range(361) if start.board[sq] != normal.board[sq]]
    assert differ == [parse_square("10e")]
    assert normal.board[parse_square("10e")] == TYPE_ID["FK"] * 2 + 1  # White's Free King
    assert start.turn == 1
    assert record.moves[0].text == "P-10g"  # the ply the printed score drops


def test_9_9_the_misaligned_text_score_of_the_handicap_game_fails():
    """The printed score of maka-handicap-C (one ply out of step) fails at move 1."""
    result = replay(_record(SAMPLES / "broken-shogivar-handicap-misaligned.txt"))
    assert not result.is_valid and result.plies == 0


def test_9_9_tags_keep_clocks_description_and_computer_sides():
    record = _record(SAMPLES / "maka-cvc-B.svar")
    assert record.tag("Clocks") == "00:00:00, 00:00:28"
    assert record.tag("Computer") == "None"
    assert record.tag("Description")


def _lines(name: str) -> list[str]:
    return (SAMPLES / name).read_text(encoding="ascii").splitlines()


def test_9_9_a_board_that_the_moves_do_not_reach_is_reported():
    lines = _lines("maka-cvc-B.svar")
    board_start = len(lines) - 5 - 361
    index = next(i for i in range(board_start, board_start + 361) if lines[i] == "0")
    lines[index] = "2"  # a Black Pawn the moves never put there
    found = read_svar("\n".join(lines) + "\n")
    assert [code for code, _ in found.notes] == ["E-SVAR-BOARD"]


def test_9_9_a_finished_game_s_extra_record_is_not_a_move():
    lines = _lines("maka-cvc-B.svar")
    header = lines[0].split(",")
    plies = int(header[6])
    header[6] = str(plies + 1)
    lines[0] = ",".join(header)
    # the records end after the board's 361 lines and the 5 trailer lines are before them
    board_start = len(lines) - 5 - 361
    lines[board_start:board_start] = ['"49. ??? mate",0,-75,0,0', "0"]
    found = read_svar("\n".join(lines) + "\n")
    assert len(found.tokens) == plies and found.notes == ()


def test_9_9_another_variants_save_is_refused_by_name():
    lines = _lines("maka-cvc-B.svar")
    lines[0] = lines[0].replace('"Maka"', '"Chu"')
    text = "\n".join(lines) + "\n"
    assert sniff_svar(text)
    with pytest.raises(EngineError) as info:
        read_svar(text)
    assert info.value.code == "E-UNKNOWN-VARIANT" and "'Chu'" in info.value.message


def test_9_9_another_variant_through_the_cli(runner, tmp_path):
    from tests.conftest import invoke

    lines = _lines("maka-cvc-B.svar")
    lines[0] = lines[0].replace('"Maka"', '"Tenjiku"')
    path = tmp_path / "tenjiku.svar"
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    result = invoke(runner, ["validate", str(path)])
    assert result.exit_code == 1 and "E-UNKNOWN-VARIANT" in result.stderr
    assert "Tenjiku" in result.stderr


def test_9_9_the_code_table_names_pieces_of_this_game():
    assert [code for code, _, _ in PIECE_CODES] == list(range(1, 79))
    assert all(abbr in TYPE_ID for _, abbr, _ in PIECE_CODES)


def test_9_9_convert_to_pgn_reads_back_the_same_game(runner, tmp_path):
    from notation_tools.records.pgn import read_records
    from tests.conftest import invoke

    for path in SAVES:
        out = invoke(runner, ["convert", str(path), "--to", "pgn"])
        assert out.exit_code == 0
        (again,) = list(read_records(out.stdout.splitlines(keepends=True)))
        first = replay(_record(path), digest=True)
        second = replay(again, digest=True)
        assert second.is_valid and second.digest == first.digest


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_9_9_a_damaged_save_gives_a_diagnostic_never_a_crash(data):
    lines = _lines("maka-cvc-B.svar")
    cut = data.draw(st.integers(0, len(lines)))
    edits = data.draw(st.lists(st.tuples(st.integers(0, len(lines) - 1),
                                         st.sampled_from(["", "x", "-999", "999", '"', ",,,",
                                                          "1e9", "0"])), max_size=3))
    for index, text in edits:
        lines[index] = text
    damaged = "\n".join(lines[:cut]) + "\n"
    try:
        found = read_svar(damaged)
    except EngineError as error:
        assert error.code in ("E-SVAR", "E-UNKNOWN-VARIANT")
        return
    record = copy.deepcopy(found)
    assert isinstance(record.tokens, tuple)


def test_9_9_a_file_named_svar_is_read_as_a_save_even_when_damaged(tmp_path):
    """§9.9: recognised by its content and by its name: a damaged first line still gets the
    save's own diagnostic, naming the line."""
    path = tmp_path / "damaged.svar"
    path.write_text("not a header\n" + "\n".join(_lines("maka-cvc-B.svar")[1:]) + "\n",
                    encoding="ascii")
    record = _record(path)
    (error,) = [d for d in record.diagnostics if d.is_error]
    assert error.code == "E-SVAR" and "line 1" in error.message and error.line == 1
