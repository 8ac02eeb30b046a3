"""ShogiVar's save files (.svar), §9.9 (issue #16), against the files ShogiVar 1.55b wrote
(sample_games/maka/maka-*.svar)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from notation_tools.parallel.batch import iter_records
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


@pytest.mark.parametrize("field", ['"' + "x" * 200_000 + '",2,2,290,270', '"DE-10c,2,2,290,270'],
                         ids=["field-past-csv-bound", "quote-left-open"])
def test_9_9_a_move_line_csv_cannot_read_is_named_by_its_line(field):
    """§9.9: a move record with a field past csv's bound (131,072 characters; it raised
    csv.Error, an internal error, found by the fuzz campaign) or an unclosed quote is one
    E-SVAR naming its line; the quote does not swallow the lines after it."""
    lines = _lines("maka-cvc-B.svar")
    lines[5] = field
    with pytest.raises(EngineError) as raised:
        read_svar("\n".join(lines) + "\n")
    assert raised.value.code == "E-SVAR" and raised.value.message.startswith("line 6:")


# ---- every save the program writes (issue #25): real saves, the layout's model, generated saves
#
# tests/data/maka/shogivar-*.svar are real saves of ShogiVar 1.55b (Debian shogivar
# 1.55b-3+b1) on a virtual display, Maka Dai Dai Shogi. "Computer" moves were made by Computer
# Black/White, the others by dragging a piece with both computers off.
#
# D: computer v computer, both computers switched off after about 40 seconds; the computers
#    had fallen into a cycle (a Hook Mover and a Dragon Horse shuttling): 972 plies in which
#    positions repeat many times, neither stopped nor marked by the program.
# E: Set Handicap removed every White piece but the King on 10a and the five around it, White
#    first, computer v computer; at ply 30 Black's Free King took the King on 8a ("Checkmate!",
#    "Game Over"): "16. FKx8a mate", then an extra ply "16. ? ?v?GV mate" with zero numbers.
# F: Set-Up removed White's 10b and moved Black's Gold from 12s to 10b; Computer Black took the
#    King (Gx10a): "1. Gx10a mate" without its +, the extra ply "1. ?? mate" whose numbers
#    0,62,0,0 give the Gold's promotion (62, Free Gold).
# G: F, then Moves > Take Back once (the only way on: moves are refused after the end): the
#    extra ply is gone, its numbers stay in the last record, and 10a is empty.
# H: G, then White P-10g and Black P-9m by hand: the marked move stands between moves.
# I: Set Handicap removed White's 10f, 10e, 10d, 10c and 10b, White first, all by hand: Black's
#    10n Pawn walked to 10b while White pushed other Pawns, then took the King: "14. Px10a+
#    mate" (by hand: its + written, no extra ply).
# J: I, then Take Back once: a stopped save whose last record keeps the taken-back capture's
#    numbers and capture entry ("P-16g",2,75,50,30; the old reader's "ply 26 has no move text").
# K: J, then Computer Black took the King: "14. Px10a mate", "14. ?? mate"; the capture's slot
#    lists (30,-1) twice (the taken-back capture's entry, then the new one).
# L: K, Take Back of the extra ply, then White P-17g and Black P-1m by hand.
# M: the normal start by hand, 4... Px10j+ taken back and White P-1g played instead: the quiet
#    move's slot still lists the capture (the old reader's "ply 9 has no move text").
# N: Set-Up removed Black's 10r and moved White's Gold from 12a to 10r; after Black's P-1m,
#    Computer White took the King (Gx10s). An earlier game in the same program left its
#    numbers in the slots: the extra ply holds 2,-62,270,250 (a move's worth, but for -62).
# O: N, then Take Back of the extra ply: ShogiVar's Take Back used those left-over numbers and
#    put a Black Pawn on 10m (see test_9_9_take_back_of_an_extra_ply_with_left_over_numbers).

from tests.games.maka import svar_saves  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "data" / "maka"
CYCLE = DATA / "shogivar-cvc-cycle-D.svar"
MATE = DATA / "shogivar-handicap-mate-E.svar"
REAL = [*SAVES, CYCLE]


def _data(letter: str) -> Path:
    (path,) = DATA.glob(f"shogivar-*-{letter}.svar")
    return path


REAL_ENDINGS = {
    # letter: (ending, texts played on, write_save's left-over numbers and entries)
    "E": ("mate-computer", 0, dict(garbage="? ?v?GV")),
    "F": ("mate-computer", 0, {}),
    "G": ("mate-taken-back", 0, {}),
    "H": ("mate-continued", 2, {}),
    "I": ("mate-human", 0, {}),
    "J": ("stopped", 0, dict(stale=((2, 75, 50, 30), ((30, -1),)))),
    "K": ("mate-computer", 0, dict(entries={26: ((30, -1),)})),
    "L": ("mate-continued", 2, dict(entries={26: ((30, -1),)})),
    "M": ("stopped", 0, dict(entries={8: ((210, 2),)}, stale=((-2, -2, 135, 155), ()))),
    "N": ("mate-computer", 0, dict(extra=((2, -62, 270, 250), ()),
                                   stale=((-2, -2, 150, 170), ()))),
}


def _played(found, ending: str, on: int) -> svar_saves.Played:
    """The game a read save holds, as the model plays it: the moves up to the mate by the
    engine, the ``on`` moves after it on ShogiVar's board."""
    start = GAME.start_position(GAME.parse_rules(None), fen=found.tags.get("FEN"))
    position, moves = start.copy(), []
    for token in found.tokens[:len(found.tokens) - on]:
        moves.append(GAME.parse_move(token, position))
        position.push(moves[-1])
    played = svar_saves.replayed(start, moves, computer=ending != "mate-human")
    if ending in ("mate-taken-back", "mate-continued"):
        played = svar_saves.played_on(played, found.tokens[len(found.tokens) - on:])
    return played


def _rewritten(path: Path, ending: str = "stopped", on: int = 0, **stale) -> str:
    """The save ``svar_saves`` writes of the game a real save holds, with its clocks,
    handicap flag, trailer and left-over numbers."""
    found = read_svar(path.read_text(encoding="ascii"))
    played = _played(found, ending, on)
    assert played.texts == found.tokens  # the engine writes ShogiVar's words (+ restored)
    first, second = found.tags["Clocks"].split(", ")
    return svar_saves.write_save(played, ending=ending, clocks=(first, second),
                                 handicap=found.tags.get("Handicap") == "1",
                                 description=found.tags["Description"],
                                 computer=found.tags["Computer"], **stale)


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_9_9_the_layout_model_writes_the_real_saves_byte_for_byte(path):
    """The generator's model of the layout (one-behind texts, piece-after and capture-list
    quirks, board order, trailer) is ShogiVar's: it writes each real save exactly."""
    assert _rewritten(path) == path.read_text(encoding="ascii")


@pytest.mark.parametrize("letter", sorted(REAL_ENDINGS))
def test_9_9_the_layout_model_writes_the_real_ended_saves_byte_for_byte(letter):
    """The same for the saves of ended, taken-back and played-on games: the marked move, the
    extra ply and its numbers, the header's lost-King values, the status line, the trailer's
    Game Over, the emptied square, the capture entries Take Back leaves."""
    ending, on, stale = REAL_ENDINGS[letter]
    path = _data(letter)
    assert _rewritten(path, ending, on, **stale) == path.read_text(encoding="ascii")


REAL_READINGS = [
    # letter, moves, last token, Result, replay's codes, comment holds
    ("E", 30, "FKx8a", "1-0", [], ["'16. FKx8a mate' (ply 30", "'16. ? ?v?GV mate' (an extra"]),
    ("F", 1, "Gx10a+", "1-0", [], ["'1. Gx10a mate' (ply 1", "'1. ?? mate' (an extra ply"]),
    ("G", 1, "Gx10a+", "1-0", ["W-SVAR-TAKEN-BACK"], ["'1. Gx10a mate' (ply 1, line 8)"]),
    ("H", 3, "P-9m", None, ["E-MOVE-AFTER-END"], ["'1. Gx10a mate' (ply 1", "went on"]),
    ("I", 26, "Px10a+", "1-0", [], ["'14. Px10a+ mate' (ply 26, line 58)"]),
    ("J", 25, "P-16g", None, [], []),
    ("K", 26, "Px10a+", "1-0", [], ["'14. Px10a mate' (ply 26", "'14. ?? mate' (an extra"]),
    ("L", 28, "P-1m", None, ["E-MOVE-AFTER-END"], ["'14. Px10a mate' (ply 26", "went on"]),
    ("M", 8, "P-1g", None, [], []),
    ("N", 2, "Gx10s+", "0-1", [], ["'1. Gx10s mate' (ply 2", "'2. ?? mate' (an extra ply"]),
]


@pytest.mark.parametrize("letter,count,last,result,codes,told", REAL_READINGS,
                         ids=[r[0] for r in REAL_READINGS])
def test_9_9_every_real_save_is_read(letter, count, last, result, codes, told):
    """Each kind of save the program writes is read whole: ended by a move of a player or of
    the computer, the extra ply taken back, played on after the end, stopped after Take
    Back. The result is the replay's (ShogiVar's mate is the capture of the last royal
    piece); a game played on after it is the rules' E-MOVE-AFTER-END, its moves all kept."""
    path = _data(letter)
    record = _record(path)
    assert [d.code for d in record.diagnostics if d.is_error] == []
    assert len(record.moves) == count and record.moves[-1].text == last
    assert record.tag("Result") == result
    assert record.tag("Termination") == ("mate" if result else None)
    comment = " ".join(record.final_comments)
    assert all(words in comment for words in told), comment
    if not told:
        assert comment == ""
    outcome = replay(record)
    assert [d.code for d in outcome.diagnostics] == codes, outcome.diagnostics
    if result:
        assert outcome.is_valid and outcome.outcome.reason == "royal-captured"
        assert GAME.result_text(outcome.outcome) == result == outcome.result
    elif not codes:
        assert outcome.is_valid and outcome.outcome is None and outcome.plies == count


def test_9_9_take_back_of_an_extra_ply_with_left_over_numbers():
    """O: Take Back of the extra ply of N, whose numbers were left over from an earlier game
    (a Black Pawn from 10m to 10l), put that Pawn on 10m. The save cannot tell it from a
    piece that was there: the record is valid, its start holds the Pawn (what §9.9 says)."""
    record = _record(_data("O"))
    result = replay(record)
    assert result.is_valid and result.diagnostics == [] and result.result == "0-1"
    start = GAME.parse_position(record.tag("FEN"), GAME.parse_rules(None))
    found = _record(_data("N"))
    before = GAME.parse_position(found.tag("FEN"), GAME.parse_rules(None))
    differ = [sq for sq in range(361) if start.board[sq] != before.board[sq]]
    assert differ == [parse_square("10m")] and start.board[differ[0]] == TYPE_ID["P"] * 2


def test_9_9_a_real_save_of_a_game_shogivar_ended_is_read():
    """E: the mating move's text carries the end record, an extra ply of unprintable bytes
    follows; the record holds the 30 moves, the result and the ending."""
    text = MATE.read_text(encoding="ascii")
    found = read_svar(text)
    assert len(found.tokens) == 30 and found.tokens[-1] == "FKx8a"
    assert found.tags["Termination"] == "mate" and found.tags["Result"] == "1-0"
    assert found.tags["FirstPlayer"] == "White" and found.tags["Handicap"] == "1"
    assert "'16. FKx8a mate' (ply 30, line 70)" in (found.comment or "")
    assert "'16. ? ?v?GV mate' (an extra ply after ply 30, line 72)" in (found.comment or "")


def test_9_9_a_real_save_whose_positions_repeat_is_read_whole():
    record = _record(CYCLE)
    result = replay(record)
    assert result.is_valid and result.diagnostics == []
    assert result.plies == int(_header(CYCLE)[6]) == 972
    assert record.tag("Termination") is None and record.tag("Result") is None
    position = GAME.start_position(GAME.parse_rules(None))
    seen: dict[str, int] = {}
    for move in record.moves:
        position.push(GAME.parse_move(move.text, position))
        key = GAME.format_position(position).rsplit(" ", 1)[0]
        seen[key] = seen.get(key, 0) + 1
    assert max(seen.values()) >= 10  # a cycle, played on: no end record, no result


def _expect(save: svar_saves.Save) -> None:
    """Reading ``save`` gives the game it was made from, and its ending."""
    played, ending = save.played, save.ending
    found = read_svar(save.text)
    taken_back = ending == "mate-taken-back"
    assert [code for code, _ in found.notes] == (["W-SVAR-TAKEN-BACK"] if taken_back else [])
    position = played.start.copy()
    mate = played.mate if ending != "stopped" else None
    for number, (token, text, move) in enumerate(
            zip(found.tokens, played.texts, played.moves, strict=True), 1):
        if mate is not None and number > mate:
            assert token == text  # played on: not the engine's moves any more
            continue
        if token != text:  # only in the Gold case, written with the save's origin
            assert text[0] == "G" and token == GAME.format_move(move, position, "tsa-full")
        reading = position.copy()
        reading.push(GAME.parse_move(token, position))
        position.push(move)
        assert reading.board == position.board  # the same move, or a pass by another piece
    header = save.text.split("\n", 1)[0].split(",")
    assert int(header[6]) == len(played.moves) + (save.extra is not None)
    normal = GAME.start_position(GAME.parse_rules(None))
    if played.start.board == normal.board and played.start.turn == 0:
        assert "SetUp" not in found.tags and "FEN" not in found.tags
    else:
        assert found.tags["SetUp"] == "1"
        start = GAME.parse_position(found.tags["FEN"], GAME.parse_rules(None))
        assert start.board == played.start.board and start.turn == played.start.turn
    assert (found.tags.get("FirstPlayer") == "White") == (played.start.turn == 1)
    comment = found.comment or ""
    if mate is None:
        assert "Termination" not in found.tags and "Result" not in found.tags
        assert found.comment is None
    else:
        assert save.marked is not None and repr(save.marked) in comment
        assert save.extra is None or repr(save.extra) in comment
        assert ("went on" in comment) == (ending == "mate-continued")
        if ending == "mate-continued":
            assert "Termination" not in found.tags and "Result" not in found.tags
        else:
            assert found.tags["Termination"] == "mate"
            winner = (played.start.turn + mate - 1) % 2
            assert found.tags["Result"] == ("1-0", "0-1")[winner]
    # the toolkit's own replay: legal up to the end, on the saved board, the result agreed
    from notation_tools.analysis.foreign import foreign_record
    from notation_tools.sources import ForeignText

    record = foreign_record(ForeignText("generated.svar", "maka-dai-dai-shogi:svar",
                                        save.text))
    result = replay(record)
    codes = [d.code for d in result.diagnostics]
    if ending == "mate-continued":
        assert not result.is_valid and codes == ["E-MOVE-AFTER-END"]
        return
    assert result.is_valid, result.diagnostics
    assert codes == (["W-SVAR-TAKEN-BACK"] if taken_back else [])
    assert result.plies == len(played.moves)
    if taken_back:  # the replay keeps the capturer on the square ShogiVar emptied
        target = played.moves[-1].target
        assert result.position.board[target] and not played.final.board[target]
    else:
        assert result.position.board == played.final.board
    assert (result.outcome is not None) == (mate is not None)


STALE = ("zeros", "left-over", "taken-back")
CASES = [
    # (seed, plies, start, ending, last record's numbers)
    (3, 30, "normal", "stopped", "left-over"),
    (4, 30, "handicap", "stopped", "taken-back"),
    (5, 20, "set-up", "stopped", "zeros"),
    (5, 0, "normal", "mate-human", "zeros"),
    (6, 4, "handicap", "mate-human", "left-over"),
    (7, 6, "set-up", "mate-human", "taken-back"),
    (5, 0, "normal", "mate-computer", "left-over"),
    (6, 4, "handicap", "mate-computer", "zeros"),
    (2, 6, "set-up", "mate-computer", "zeros"),
    (8, 2, "normal", "mate-taken-back", "zeros"),
    (9, 0, "handicap", "mate-taken-back", "zeros"),
    (9, 6, "set-up", "mate-taken-back", "zeros"),
    (7, 0, "normal", "mate-continued", "taken-back"),
    (8, 4, "handicap", "mate-continued", "left-over"),
    (3, 6, "set-up", "mate-continued", "zeros"),
]


@pytest.mark.parametrize("seed,plies,start,ending,stale", CASES,
                         ids=[f"{c[3]}-{c[2]}-{c[4]}" for c in CASES])
def test_9_9_every_kind_of_save_is_read(seed, plies, start, ending, stale):
    """Each save the program writes, generated: stopped (with left-over numbers or those of
    a move taken back in the last record), ended by a player's or the computer's move, the
    computer's extra ply taken back, played on after it; from the normal start, a handicap
    start (White first) and a set-up board."""
    save = svar_saves.make_save(seed, plies, start=start, ending=ending, stale_kind=stale)
    assert save.ending == ending
    _expect(save)


def test_9_9_the_generated_cases_hold_every_quirk():
    """The cases above hold the quirks a reader must get past: "piece after" with the
    victim's code, the mover in its own capture list, a double capture, a promotion, a
    capture entry left by Take Back, left-over numbers in the extra ply."""
    seen = set()
    for seed, plies, start, ending, stale in CASES:
        save = svar_saves.make_save(seed, plies, start=start, ending=ending,
                                    stale_kind=stale)
        played = save.played
        for ((before, after, _, _), captures), move in zip(played.records, played.moves):
            if after != before:
                seen.add("victim" if (after > 0) != (before > 0) else "promotion")
            if any(piece == before for _, piece in captures):
                seen.add("mover listed")
            if len(move.captures) > 1:
                seen.add("double capture")
        if len(_moved_records(save.text)) and _left_entries(save):
            seen.add("entry left by Take Back")
    assert seen == {"victim", "promotion", "mover listed", "double capture",
                    "entry left by Take Back"}


def _left_entries(save: svar_saves.Save) -> bool:
    """Whether a move record of ``save`` lists more capture entries than its move captured."""
    lines = save.text.splitlines()
    counts = [int(lines[i + 1]) for i in _moved_records(save.text)]
    made = [len(m.captures) + (m.origin == m.target and bool(m.captures))
            for m in save.played.moves]
    return any(count > own for count, own in zip(counts, made))


def _property(seed, plies, start, ending, stale):
    _expect(svar_saves.make_save(seed, plies, start=start, ending=ending, stale_kind=stale))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 7), plies=st.integers(0, 12),
       start=st.sampled_from(svar_saves.STARTS), ending=st.sampled_from(svar_saves.ENDINGS),
       stale=st.sampled_from(STALE))
def test_9_9_generated_saves_read_back_as_the_games_they_hold(seed, plies, start, ending,
                                                               stale):
    """Saves written in ShogiVar's layout from random replayed games (captures preferred;
    handicap starts with White pieces removed and White first; boards set up with Lions;
    mates found by hunting the royal pieces), every ending, read back: same moves, same
    start, the saved board reached, the ending told."""
    _property(seed, plies, start, ending, stale)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 60),
       start=st.sampled_from(svar_saves.STARTS), ending=st.sampled_from(svar_saves.ENDINGS),
       stale=st.sampled_from(STALE))
def test_9_9_generated_saves_read_back_long(seed, plies, start, ending, stale):
    _property(seed, plies, start, ending, stale)


def test_9_9_the_gold_case_is_read_with_the_save_s_squares():
    """ShogiVar writes both an original and a gold-promoted Gold ``G``: where both could make
    a ply's move (§9.2 step 6), the save's numbers say which one did, and the record names
    its square; without them the replay took the other Gold and missed the saved board."""
    save = svar_saves.make_save(905, 20, start="set-up", ending="stopped")
    assert save.played.texts[-1] == "Gx12k+"
    found = read_svar(save.text)
    assert found.notes == ()
    assert found.tokens[:-1] == save.played.texts[:-1] and found.tokens[-1] == "G11kx12k+"
    _expect(save)


def test_9_9_a_side_that_moves_on_after_its_own_mate_is_named():
    """ShogiVar's extra ply after the end passes the turn: a game played on with the side
    that gave mate moving again (two Black moves in a row for this toolkit, which has no
    pass) is E-SVAR naming the line and the end record, not a wrong replay."""
    lines = MATE.read_text(encoding="ascii").splitlines()
    lines[0] = lines[0].replace(",31,1,0", ",32,0,0")
    extra = lines.index('"16. ? ?v?GV mate",0,0,0,0')
    # the extra ply's record now holds ply 32's numbers: Black's Pawn 19n-19m
    lines[extra] = '"16. ? ?v?GV mate",2,2,281,261'
    lines[extra + 2:extra + 2] = ['"P-19m",0,0,0,0', "0"]
    with pytest.raises(EngineError) as info:
        read_svar("\n".join(lines) + "\n")
    assert info.value.code == "E-SVAR"
    assert info.value.message == (
        "line 72: ply 32 (P-19m) is Black's move, and so is the move before it (FKx8a, then "
        "ShogiVar's end record on line 72): a record holds no two moves in a row by one side")


def _moved_records(text: str) -> list[int]:
    """The indices of the move-record lines (``"text",n,n,n,n``) of a save's lines."""
    return [i for i, line in enumerate(text.splitlines())
            if line.startswith('"') and line.count(",") == 4 and i > 2]


def test_9_9_two_moves_in_a_row_by_one_side_are_named():
    save = svar_saves.make_save(5, 12, start="normal", ending="stopped")
    lines = save.text.splitlines()
    second = _moved_records(save.text)[1]  # holds ply 2's numbers (White's move)
    fields = lines[second].split(",")
    fields[1] = str(-int(fields[1]))  # now Black's piece
    lines[second] = ",".join(fields)
    with pytest.raises(EngineError) as info:
        read_svar("\n".join(lines) + "\n")
    assert info.value.code == "E-SVAR"
    assert f"line {second + 1}: ply 2" in info.value.message
    assert "two moves in a row" in info.value.message


def test_9_9_a_ply_without_a_piece_is_named_not_dropped():
    """A move record of a ply that has no piece is an error naming its line, not the end of
    the game (the old reader stopped there and dropped every ply after it)."""
    save = svar_saves.make_save(5, 12, start="normal", ending="stopped")
    lines = save.text.splitlines()
    third = _moved_records(save.text)[2]
    fields = lines[third].split(",")
    lines[third] = ",".join([fields[0], "0", "0", "0", "0"])
    with pytest.raises(EngineError) as info:
        read_svar("\n".join(lines) + "\n")
    assert info.value.code == "E-SVAR" and f"line {third + 1}: ply 3" in info.value.message


def test_9_9_an_ended_game_through_the_cli(runner, tmp_path):
    """validate accepts a save ended by mate; convert --to pgn keeps the result, ShogiVar's
    word and its end record, and reads back as the same game."""
    from notation_tools.records.pgn import read_records
    from tests.conftest import invoke

    save = svar_saves.make_save(6, 4, start="handicap", ending="mate-computer",
                                stale_kind="left-over")
    path = tmp_path / "mated.svar"
    path.write_text(save.text, encoding="ascii")
    checked = invoke(runner, ["validate", str(path)])
    assert checked.exit_code == 0, checked.stderr
    assert "1 records: 1 valid" in checked.stdout + checked.stderr
    out = invoke(runner, ["convert", str(path), "--to", "pgn"])
    assert out.exit_code == 0, out.stderr
    assert '[Termination "mate"]' in out.stdout and save.extra in out.stdout
    (again,) = list(read_records(out.stdout.splitlines(keepends=True)))
    first, second = replay(_record(path), digest=True), replay(again, digest=True)
    assert second.is_valid and second.digest == first.digest
    assert again.tag("Result") == first.result == _record(path).tag("Result")


def test_9_9_a_mark_on_a_move_that_ends_nothing_gives_no_result():
    """ShogiVar marks only a move that takes the last royal piece; a save marking another
    move (not one it writes) keeps its Termination but gets no result: the rules see the game
    going on, and the record says so rather than invent a winner."""
    save = svar_saves.make_save(5, 12, start="normal", ending="stopped")
    last = save.played.texts[-1]
    text = save.text.replace(f'"{last}",0,0,0,0\n', f'"6. {last} mate",0,0,0,0\n')
    assert text != save.text
    found = read_svar(text)
    assert found.tokens == save.played.texts and found.notes == ()
    assert found.tags["Termination"] == "mate" and "Result" not in found.tags
    assert (found.comment or "").endswith("the rules see the game going on")


def test_9_9_capture_entries_left_by_take_back_pile_up():
    """Each capture taken back leaves its entry in the slot, and the next capture there adds
    its own: a move record may list more than a move captures (up to ShogiVar's 12)."""
    played = svar_saves.random_game(3, 30, "normal")
    number = next(n for n, move in enumerate(played.moves, 1) if move.captures)
    (_, own) = played.records[number - 1]
    left = own[:1] * (12 - len(own))
    text = svar_saves.write_save(played, entries={number: left})
    found = read_svar(text)
    assert found.tokens == played.texts and found.notes == ()
    with pytest.raises(EngineError) as info:
        read_svar(svar_saves.write_save(played, entries={number: left + own[:1]}))
    assert info.value.code == "E-SVAR" and "13 captures in one move" in info.value.message
