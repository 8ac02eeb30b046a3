"""Foreign formats (spec §14): KFEN strings and .kfen JSON (pykrieg), ebarjou saves; the vectors
of §19.4 and §19.5, round trips on random games, and KFEN written by pykrieg itself.

pykrieg (PyPI 0.3.0) is a test dependency of this file: it must be installed (no skip)."""

from __future__ import annotations

import json
import random

import pykrieg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.games.base import BadPositionError, EngineError
from notation_tools.games.gow import GAME
from notation_tools.games.gow.ebarjou import read_ebarjou, write_ebarjou
from notation_tools.games.gow.kfen import (
    parse_ksquare, read_kfen, read_kfen_json, write_kfen, write_kfen_json)
from notation_tools.games.gow.pieces import NAMES
from notation_tools.games.gow.position import BOOK_OPENING
from notation_tools.analysis.generate import random_move

RULES = GAME.parse_rules(None)
BOOK_KFEN = (
    "_________________________/_______f______A__________/_________mmmm____________/"
    "__R____A_m_______________/_________m_______________/____X____(I)_______________/"
    "__CC_IIKIm_______________/__CCIWIIIm__________f____/_____I___m__f____________/"
    "_________________________/______________iiikc______/______________[i]iicc______/"
    "__f___________iiic_______/__________mmmmmmx________/_______________(w)______[r]__/"
    "_______________m_________/_______________m_________/_______________m_________/"
    "_________________________/__a___________________a__/N/M/[]/1/[]")
AE4A = "25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II23/ii23 N B15,D8,T3,T23 - 21"


def test_kfen_book_opening_s19_4():
    assert write_kfen(GAME.start_position(RULES)) == BOOK_KFEN
    read = read_kfen(BOOK_KFEN)
    assert read.fen == BOOK_OPENING and read.notes == () and read.comment is None


def test_kfen_damaged_pykrieg_default_s19_4():
    damaged = (BOOK_KFEN.replace("__________mmmmmmx________", "___________mmmmmx________")
               .replace("______________[i]iicc______", "______________iiicc______")
               .replace("_______________(w)______[r]__", "_______________(w)______r__"))
    read = read_kfen(damaged)
    assert read.fen == BOOK_OPENING
    assert read.notes == (("W-MAP-DIFFERS", "terrain differs from the standard map on L15 N11 O23; "
                           "the standard map is used"),)


def test_kfen_square_forms_s14_1_s19_4():
    assert NAMES[parse_ksquare("15B")] == NAMES[parse_ksquare("O2")] == "B15"
    with pytest.raises(BadPositionError):
        parse_ksquare("26A")


def test_kfen_field_counts_and_mid_turn_s14_2():
    board_only = "/".join(BOOK_KFEN.split("/")[:20])
    read = read_kfen(board_only)
    assert read.fen == BOOK_OPENING and read.notes[0][0] == "I-TURN-ASSUMED"
    south = read_kfen(board_only, first_player=1)
    assert south.fen.endswith(" S B15,D8,T3,T23 - 2")
    doc = board_only + "/N/M/[(3H,2J)]"
    read = read_kfen(doc)
    assert [code for code, _ in read.notes] == ["W-MID-TURN", "I-TURN-ASSUMED"]
    assert read.comment == "kfen-actions: M [(3H,2J)]"
    battle = read_kfen(board_only + "/N/B/pass/1/[]")
    assert battle.notes[0][0] == "W-MID-TURN"
    for bad in ("", "x/y", board_only + "/N", board_only.replace("__R", "__Q", 1),
                board_only.replace("mmmm", "Immm", 1), BOOK_KFEN.replace("/1/[]", "/1/[1,2,3,4]")):
        with pytest.raises(BadPositionError):
            read_kfen(bad)


def test_kfen_retreat_field_s14_2():
    position = GAME.parse_position(AE4A, RULES)
    position.push(GAME.parse_move("xT1=R", position))
    text = write_kfen(position)
    assert text.endswith("/S/M/[]/22/[19,0]")
    assert read_kfen(text).fen == GAME.format_position(position)


def test_pykrieg_reads_and_writes_our_kfen():
    board = pykrieg.Fen.fen_to_board(BOOK_KFEN)
    assert pykrieg.Fen.board_to_fen(board) == BOOK_KFEN


def test_kfen_written_by_pykrieg_is_read_correctly():
    board = pykrieg.Fen.fen_to_board(BOOK_KFEN)
    board.make_turn_move(6, 2, 8, 1)        # G3 cavalry to I2 (pykrieg's 0-based row, col)
    board.make_turn_move(7, 5, 8, 6)        # H6 mounted artillery to I7
    board.end_turn()
    board.make_turn_move(10, 18, 9, 18)     # South: K19 cavalry to J19
    board.end_turn()
    text = pykrieg.Fen.board_to_fen(board)
    read = read_kfen(text)
    expected = GAME.start_position(RULES)
    for token in ("G3-I2,H6-I7", "K19-J19"):
        expected.push(GAME.parse_move(token, expected))
    assert read.fen == GAME.format_position(expected)
    # mid-turn string written by pykrieg: the actions use its column-number form
    board = pykrieg.Fen.fen_to_board(BOOK_KFEN)
    board.make_turn_move(6, 2, 8, 1)
    text = pykrieg.Fen.board_to_fen(board)
    assert "[(3G,2I)]" in text
    read = read_kfen(text)
    assert read.notes[0][0] == "W-MID-TURN" and "3G,2I" in read.comment


def test_kfen_json_vector_s19_4():
    start = GAME.parse_position(AE4A, RULES)
    work = start.copy()
    turns = []
    for token in ("xT1=R", "T2-T3"):
        turn = GAME.parse_move(token, work)
        work.push(turn)
        turns.append(turn)
    text = write_kfen_json(start, turns, {"Result": "*", "Event": "AE-4"})
    data = json.loads(text)
    assert data["game_state"] == {"turn_number": 23, "current_player": "NORTH",
                                  "current_phase": "M", "pending_retreats": []}
    first, second = data["turn_history"]
    assert (first["turn_number"], first["player"], first["moves"]) == (21, "NORTH", [])
    assert first["attack"]["target"] == {"row": 19, "col": 0}
    assert first["attack"]["outcome"] == "RETREAT"
    assert first["end_turn"]["captured_units"] == [
        {"row": 19, "col": 0, "unit": {"unit_type": "INFANTRY", "owner": "SOUTH"},
         "reason": "retreat_impossible"}]
    assert (second["turn_number"], second["player"]) == (22, "SOUTH")
    move = second["moves"][0]
    assert (move["from"], move["to"], move["unit_type"], move["unit_id"]) == (
        {"row": 19, "col": 1}, {"row": 19, "col": 2}, "INFANTRY", 6)
    assert data["board_info"]["fen"].split("/")[19] == "__a{i}___________________a__"
    assert data["metadata"]["save_date"] == "1970-01-01T00:00:00Z"
    record = read_kfen_json(text)
    assert record.tags["FEN"] == AE4A and record.tokens == ("xT1=R", "T2-T3")
    assert record.tags["Event"] == "AE-4" and record.notes == ()
    # pykrieg's own reader accepts the document
    document = pykrieg.kfen._dict_to_document(data)
    assert document.game_state.turn_number == 23


def test_kfen_json_cleaning_and_fallback_s14_3():
    start = GAME.start_position(RULES)
    work = start.copy()
    turns = []
    for token in ("G3-I2,H6-I7", "K19-J19"):
        turn = GAME.parse_move(token, work)
        work.push(turn)
        turns.append(turn)
    data = json.loads(write_kfen_json(start, turns, {"Date": "1987.05.01", "North": "A", "South": "B"}))
    assert data["metadata"]["save_date"] == "1987-05-01T00:00:00Z"
    # an undone move kept in pykrieg's log: the same unit_id moved twice; keep the last
    moves = data["turn_history"][0]["moves"]
    moves.insert(0, {**moves[0], "to": {"row": 7, "col": 1}})
    # a final entry for the turn in progress, with no action
    data["turn_history"].append({"turn_number": 3, "player": "NORTH", "phase": "M", "moves": [],
                                 "phase_change": None, "attack": None, "end_turn": None})
    record = read_kfen_json(json.dumps(data))
    assert record.tokens == ("G3-I2,H6-I7", "K19-J19") and record.tags["FEN"] == BOOK_OPENING
    assert record.tags["Date"] == "1987.05.01" and record.tags["North"] == "A"
    broken = json.loads(json.dumps(data))
    broken["turn_history"][1]["player"] = "NORTH"
    fallback = read_kfen_json(json.dumps(broken))
    assert fallback.tokens == () and fallback.notes[-1][0] == "W-KFEN-HISTORY"
    assert fallback.tags["FEN"] == GAME.format_position(work)
    mid = json.loads(json.dumps(data))
    mid["turn_history"][1]["end_turn"] = None
    mid["turn_history"].pop()
    assert read_kfen_json(json.dumps(mid)).notes[-1][0] == "W-MID-TURN"
    for bad in ("", "[]", "{}", '{"kfen_version": "1.0"}'):
        with pytest.raises(BadPositionError):
            read_kfen_json(bad)


EBARJOU_19_5 = """25;20
2;5
F;8;2;1
F;21;8;1
F;13;9;1
AR;15;2;1
AR;8;4;1
M;10;3;1
M;11;3;1
M;12;3;1
M;13;3;1
M;10;4;1
M;10;5;1
M;10;7;1
M;10;8;1
M;10;9;1
CO;10;6;1
F;15;12;2
F;3;13;2
F;23;15;2
AR;3;20;2
AR;23;20;2
M;11;14;2
M;12;14;2
M;13;14;2
M;14;14;2
M;15;14;2
M;16;14;2
M;16;16;2
M;16;17;2
M;16;18;2
CO;16;15;2
R;1;11;false;true;false;true;1
A;1;17;false;true;false;true;1
I;1;19;false;true;false;true;1
I;2;19;false;true;false;true;1
I;1;20;true;true;false;false;2
I;2;20;false;true;false;true;2
"""


def test_ebarjou_vector_s19_5():
    position = GAME.parse_position(AE4A, RULES)
    position.push(GAME.parse_move("xT1=R", position))
    assert write_ebarjou(position) == EBARJOU_19_5
    read = read_ebarjou(EBARJOU_19_5)
    assert read.fen == ("25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II23/ii23 "
                        "S B15,D8,T3,T23 T1 2")
    assert [code for code, _ in read.notes] == ["I-TURN-ASSUMED"]


def test_ebarjou_map_and_mid_turn_s14_4():
    text = EBARJOU_19_5.replace("M;10;3;1\n", "").replace("2;5\n", "2;3\n")
    read = read_ebarjou(text)
    assert [code for code, _ in read.notes] == ["W-MAP-DIFFERS", "W-MID-TURN", "I-TURN-ASSUMED"]
    assert "C10" in read.notes[0][1]
    no_arsenal = read_ebarjou(EBARJOU_19_5.replace("AR;23;20;2\n", ""))
    assert " B15,D8,T3 T1 2" in no_arsenal.fen
    north = read_ebarjou(write_ebarjou(GAME.start_position(RULES)))
    assert north.fen == BOOK_OPENING
    for bad in ("", "24;20\n1;5\n", "25;20\n3;5\n", "25;20\n1;5\nQ;1;1;1\n",
                "25;20\n1;5\nI;1;1;false;true;false;true;1\nI;1;1;false;true;false;true;1\n",
                "25;20\n1;5\nI;10;3;false;true;false;true;1\n"):
        with pytest.raises(BadPositionError):
            read_ebarjou(bad)


@given(st.integers(0, 5000))
@settings(max_examples=12, deadline=None)
def test_foreign_round_trips_on_random_games_s14(seed):
    rng = random.Random(seed)
    start = GAME.start_position(RULES)
    work = start.copy()
    turns = []
    for _ in range(rng.randint(0, 60)):
        turn = random_move(GAME, work, rng)
        if turn is None:
            break
        work.push(turn)
        turns.append(turn)
    fen = GAME.format_position(work)
    assert read_kfen(write_kfen(work)).fen == fen
    ebarjou = read_ebarjou(write_ebarjou(work)).fen
    assert ebarjou.split(" ")[:4] == fen.split(" ")[:4]
    record = read_kfen_json(write_kfen_json(start, turns, {"Result": "*"}))
    assert record.tags["FEN"] == BOOK_OPENING
    replay = GAME.parse_position(record.tags["FEN"], RULES)
    for token, turn in zip(record.tokens, turns, strict=True):
        parsed = GAME.parse_move(token, replay)
        assert parsed.steps == turn.steps
        assert (parsed.attack is None) == (turn.attack is None)
        replay.push(parsed)
    assert GAME.format_position(replay) == fen


def test_kfen_json_written_by_pykrieg_is_read_correctly(tmp_path):
    board = pykrieg.Fen.fen_to_board(BOOK_KFEN)
    board.make_turn_move(6, 2, 8, 1)
    board.make_turn_move(7, 5, 8, 6)
    board.end_turn()
    board.make_turn_move(10, 18, 9, 18)
    board.end_turn()
    board.make_turn_move(8, 1, 9, 1)        # turn 3 in progress when saved
    path = tmp_path / "game.kfen"
    pykrieg.write_kfen(board, str(path))
    record = read_kfen_json(path.read_text())
    assert record.tags["FEN"] == BOOK_OPENING
    assert record.tokens == ("G3-I2,H6-I7", "K19-J19", "I2-J2")
    assert [code for code, _ in record.notes] == ["W-MID-TURN"]
    replay = GAME.parse_position(record.tags["FEN"], RULES)
    for token in record.tokens:
        replay.push(GAME.parse_move(token, replay))


_KFEN_CHARS = st.text(alphabet="_mpfAaICKRWXickrwx()[]{}/NSMB0123456789,", max_size=120)


@given(st.recursive(st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["row", "col", "from", "to", "moves", "attack", "target",
                                         "outcome", "player", "turn_number", "unit_type",
                                         "unit_id", "end_turn", "captured_units", "unit",
                                         "owner", "was_retreat", "destroyed_arsenal"]),
                        inner, max_size=4), max_leaves=12))
@settings(max_examples=200, deadline=None)
def test_garbage_kfen_json_history_raises_only_engine_errors_s14_3(history):
    start = GAME.start_position(RULES)
    data = json.loads(write_kfen_json(start, [], {}))
    data["turn_history"] = history if isinstance(history, list) else [history]
    try:
        read_kfen_json(json.dumps(data))
    except EngineError:
        pass


def _kfen_document():
    record = "11. xT1=R T2-T3 *"
    fen = "25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II23/ii23 N B15,D8,T3,T23 - 21"
    position = GAME.parse_position(fen, GAME.parse_rules(None))
    start = position.copy()
    moves = []
    for token in record.split()[1:3]:
        move = GAME.parse_move(token, position)
        moves.append(move)
        position.push(move)
    (fmt,) = [f for f in GAME.file_formats if f.name == "kfen-json"]
    return json.loads(fmt.write(start, moves, {"Variant": "game-of-war"}, position)), fmt


@pytest.mark.parametrize("where, value", [
    (("metadata", "result"), []), (("metadata", "result"), {"a": 1}),
    (("game_state", "pending_retreats"), -1), (("game_state", "pending_retreats"), [[]]),
    (("game_state", "turn_number"), "x"), (("turn_history",), {"a": 1}),
    (("turn_history", 0, "moves"), 7), (("turn_history", 0, "attack"), [1]),
    (("turn_history", 1, "moves", 0, "to"), {"row": "x", "col": None}),
    (("board_info", "fen"), 12), (("board_info",), []),
])
def test_a_kfen_record_with_a_value_of_the_wrong_type_is_an_engine_error(where, value):
    """Issue #15 item 4: a wrong JSON type anywhere in a .kfen record gives a diagnostic (or a
    position-only record with W-KFEN-HISTORY), never a TypeError (§14.3)."""
    document, fmt = _kfen_document()
    node = document
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    try:
        found = fmt.read(json.dumps(document))
    except EngineError as error:
        assert error.code in ("E-KFEN", "E-BAD-POSITION")
    else:
        assert "FEN" in found.tags


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mutated_kfen_record_values_raise_only_engine_errors(data):
    """Issue #15 item 4: every JSON value of a valid .kfen record replaced by a value of another
    type, one at a time: only engine errors come out (§14.3)."""
    document, fmt = _kfen_document()
    paths = []

    def walk(node, path):
        paths.append(path)
        children = node.items() if isinstance(node, dict) else (
            enumerate(node) if isinstance(node, list) else ())
        for key, child in children:
            walk(child, (*path, key))

    walk(document, ())
    path = data.draw(st.sampled_from(paths[1:]))
    replacement = data.draw(st.sampled_from([None, -1, 0, 1.5, "x", "", [], [None], {}, {"row": 1},
                                             True, "NORTH", "CAPTURE"]))
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = replacement
    try:
        fmt.read(json.dumps(document))
    except EngineError:
        pass


@pytest.mark.parametrize("profile", sorted(GAME.profiles))
def test_kfen_json_keeps_the_rules_so_a_record_reads_back_under_them(profile, tmp_path):
    """Issue #15 item 13: --to kfen-json wrote no rules, so a `book` record read back under
    `debord` and failed; the rules travel in metadata.rules, which pykrieg keeps (§14.3)."""
    from notation_tools.analysis.generate import generate_records
    from notation_tools.analysis.replay import replay
    from notation_tools.records.model import Record

    rules = GAME.parse_rules(profile)
    (record,) = generate_records(GAME, rules, count=1, seed=4, max_plies=30)
    position = GAME.start_position(rules)
    start = position.copy()
    moves = []
    for node in record.moves:
        move = GAME.parse_move(node.text, position)
        moves.append(move)
        position.push(move)
    (fmt,) = [f for f in GAME.file_formats if f.name == "kfen-json"]
    text = fmt.write(start, moves, {t.name: t.value for t in record.tags.entries()}, position)
    found = fmt.read(text)
    assert found.tags["Rules"] == rules.describe()
    path = tmp_path / "game.kfen"
    path.write_text(text)
    assert pykrieg.kfen.read_kfen(str(path)).metadata.result  # pykrieg still reads it
    from notation_tools.parallel.batch import iter_records
    (again,) = iter_records([str(path)])
    result = replay(again)
    assert isinstance(again, Record) and result.is_valid and result.rules == rules
