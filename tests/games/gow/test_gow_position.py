"""The map and the position string: spec §2.1 self-checks, §5 and the vectors of §19.1."""

from __future__ import annotations

import pytest

from notation_tools.games.base import BadPositionError, TagConflictError
from notation_tools.games.gow import GAME, pieces
from notation_tools.games.gow.pieces import SQUARE
from notation_tools.games.gow.position import BOOK_OPENING

RULES = GAME.parse_rules(None)
EMPTY_RANKS = ["25"] * 20


def fen(ranks: list[str], rest: str = "N B15,D8,T3,T23 - 11") -> str:
    return "/".join(ranks) + " " + rest


def with_rank(row: str, text: str, base: list[str] | None = None) -> list[str]:
    ranks = list(base or EMPTY_RANKS)
    ranks["ABCDEFGHIJKLMNOPQRST".index(row)] = text
    return ranks


SOUTH_KEEPER = with_rank("T", "12i12", with_rank("A", "I24"))


def test_map_self_checks_s2_1():
    assert pieces.check_tables() == []
    for side, rows in ((0, range(10)), (1, range(10, 20))):
        assert sum(1 for s in pieces.MOUNTAINS if s // 25 in rows) == 9
        assert sum(1 for s in pieces.FORTS if s // 25 in rows) == 3
        assert sum(1 for s in pieces.ARSENALS if s // 25 in rows) == 2
        assert sum(1 for s in pieces.PASSES if s // 25 in rows) == 1
    # every fort on a mountain-free line to an arsenal of its own territory (§2.1)
    for arsenal, fort in (("D8", "B8"), ("B15", "H21"), ("D8", "I13"), ("T3", "M3"),
                          ("T23", "L15"), ("T23", "O23")):
        assert any(SQUARE[fort] in ray for ray in pieces.RAYS[SQUARE[arsenal]])


def test_unit_table_s3():
    assert [(u.letter, u.speed, u.attack, u.defence, u.range) for u in pieces.UNIT_TYPES[1:]] == [
        ("I", 1, 4, (6, 8, 10), 2), ("C", 2, 4, (5, 5, 5), 2), ("A", 1, 5, (8, 10, 12), 3),
        ("H", 2, 5, (8, 10, 12), 3), ("R", 1, 0, (1, 1, 1), 2), ("M", 2, 0, (1, 1, 1), 2)]
    assert sum(pieces.ROSTER.values()) == 17


def test_book_opening_round_trips_all_online_s19_1():
    position = GAME.parse_position(BOOK_OPENING, RULES)
    assert GAME.format_position(position) == BOOK_OPENING
    assert len(position.units[0]) == len(position.units[1]) == 17
    for side in (0, 1):
        assert position.offline_units(side) == ([], [])
    assert GAME.format_position(GAME.start_position(RULES)) == BOOK_OPENING


@pytest.mark.parametrize("text, code, words", [
    (fen(EMPTY_RANKS[:19]), "E-BAD-POSITION", "20 ranks"),
    (fen(with_rank("A", "24x")), "E-BAD-POSITION", "unexpected 'x' (IiCcAaHhRrMm"),
    (fen(with_rank("A", "24I1")), "E-BAD-POSITION", "more than 25 squares"),
    (fen(with_rank("N", "10i14", SOUTH_KEEPER)), "E-BAD-POSITION", "mountain"),
    (fen(with_rank("B", "IIIIIIIIII15", SOUTH_KEEPER)), "E-BAD-POSITION", "roster"),
    (fen(SOUTH_KEEPER, "N D8,B15,T3,T23 - 11"), "E-BAD-POSITION", "order"),
    (fen(with_rank("K", "4I20", with_rank("T", "12i12")), "N B15,D8,T3,T23 - 1"),
     "E-SETUP-TERRITORY", "K5"),
    (fen(SOUTH_KEEPER, "X B15,D8,T3,T23 - 11"), "E-BAD-POSITION", "N or S"),
    (fen(SOUTH_KEEPER, "N B15,B15,T3,T23 - 11"), "E-BAD-POSITION", "twice"),
    (fen(SOUTH_KEEPER, "N B15,A1 - 11"), "E-BAD-POSITION", "not an arsenal"),
    (fen(SOUTH_KEEPER, "N B15,D8,T3,T23 T13 11"), "E-BAD-POSITION", "no unit of the side to move"),
    (fen(SOUTH_KEEPER, "N B15,D8,T3,T23 - 0"), "E-BAD-POSITION", "whole number"),
    (fen(SOUTH_KEEPER, "N B15,D8,T3,T23 - 011"), "E-BAD-POSITION", "whole number"),
    (fen(SOUTH_KEEPER, "N B15,D8,T3,T23 -"), "E-BAD-POSITION", "5 fields"),
    (fen(with_rank("A", "01I23", SOUTH_KEEPER)), "E-BAD-POSITION", "bad run of empty squares '01'"),
    (fen(with_rank("A", "٣I21", SOUTH_KEEPER)), "E-BAD-POSITION", "unexpected '٣'"),  # #15 item 3
    (fen(with_rank("T", "22I2", with_rank("A", "i24"))), "E-BAD-POSITION", "enemy arsenal"),
    (fen(with_rank("A", "R24", SOUTH_KEEPER), "N B15,D8 - 11"), "E-BAD-POSITION", "both sides"),
])
def test_bad_positions_s5_4_s19_1(text, code, words):
    with pytest.raises(BadPositionError) as info:
        GAME.parse_position(text, RULES)
    assert info.value.code == code
    assert words in info.value.message


def test_deployment_rules_s5_1():
    text = fen(with_rank("T", "12i12", with_rank("A", "I24")), "N B15,D8,T3,T23 - 1")
    position = GAME.parse_position(text, RULES)
    assert position.notes and position.notes[0][0] == "W-SETUP-INCOMPLETE"
    with pytest.raises(BadPositionError):
        GAME.parse_position(text.replace(" - 1", " A1 1"), RULES)
    with pytest.raises(BadPositionError):
        GAME.parse_position(text.replace("B15,D8,T3,T23", "B15,D8,T3"), RULES)
    assert GAME.parse_position(BOOK_OPENING, RULES).notes == ()


def test_first_player_s5_3_s13_1():
    south = GAME.start_position(RULES, first_player=1)
    assert south.turn == 1 and south.turn_number == 1
    text = fen(SOUTH_KEEPER, "S B15,D8,T3,T23 - 22")    # even turn, South to move: North first
    assert GAME.start_position(RULES, fen=text, first_player=0).turn == 1
    with pytest.raises(TagConflictError) as info:
        GAME.start_position(RULES, fen=text, first_player=1)
    assert info.value.code == "E-FIRST-PLAYER"
    assert GAME.parse_side("south") == 1 and GAME.parse_side("N") == 0
    with pytest.raises(TagConflictError):
        GAME.parse_side("east")


@pytest.mark.parametrize("garbage", ["", " ", "x", "25/" * 30, BOOK_OPENING + " ", "a b c d e",
                                     BOOK_OPENING.replace("N", "n", 1), "\x00" * 5])
def test_garbage_positions_raise_bad_position_s5_4(garbage):
    with pytest.raises(BadPositionError):
        GAME.parse_position(garbage, RULES)



