"""Acceptance examples of spec §20 (AE-1 to AE-5) and the test vectors of §19.2, §19.3, §19.6,
§19.7, each test naming its section."""

from __future__ import annotations

import pytest

from notation_tools.games.base import EngineError
from notation_tools.games.gow import GAME
from notation_tools.games.gow.pieces import SQUARE
from notation_tools.analysis.perft import perft


def rules(text: str | None = None):
    return GAME.parse_rules(text)


def pos(fen: str, rule_text: str | None = None):
    return GAME.parse_position(fen, rules(rule_text))


def play(position, *tokens: str):
    for token in tokens:
        position.push(GAME.parse_move(token, position))
    return position


def error_code(position, token: str) -> str:
    with pytest.raises(EngineError) as info:
        GAME.parse_move(token, position)
    return info.value.code


def sums(position, square: str) -> tuple[int, int]:
    position = position._began()
    combat = position.combat(SQUARE[square])
    return combat.offence, combat.defence


def online(position, square: str) -> bool:
    return position.is_online(SQUARE[square])


# ---- §19.2 perft, §19.3 record replay ---------------------------------------------------------

def test_perft_book_opening_s19_2():
    start = GAME.start_position(rules())
    assert perft(start, 1) == 123
    assert perft(start, 2) == 14231
    south = GAME.start_position(rules(), first_player=1)
    assert perft(south, 1) == 98


def test_record_replay_s19_3():
    start = GAME.start_position(rules())
    stats = GAME.new_stats(start.rules)
    tokens = ["H3-J2,G3-I3,H6-I7,I6-I5,F10-F11", "K19-I20,L19-J19,O16-O18,K15-K14,N17-N19",
              "J2-L2,I3-K4,H9-I9,F5-G5", "--"]
    for token in tokens:
        before = start.copy()
        move = GAME.parse_move(token, start)
        start.push(move)
        stats.add(before, move, start)
    assert GAME.format_position(start) == (
        "25/25/25/2R22/25/10I14/3CMIIAI16/3CI1II17/4I1H1I10c5/18c6/3C9i1iia7/1C12iiic7/14iiic7/"
        "18m6/17h4r2/25/25/25/25/25 N B15,D8,T3,T23 - 5")
    summary = stats.summary(start, start.outcome())
    assert (summary["moves_north"], summary["moves_south"]) == (9, 5)
    assert summary["empty_turns_south"] == 1 and summary["empty_turns_north"] == 0
    assert summary["attacks_north"] + summary["attacks_south"] == 0
    assert summary["offline_north_series"] == "0,0,2,2"
    assert summary["offline_south_series"] == "0,0,0,0"
    assert start.offline_units(0)[0] == [SQUARE["K4"], SQUARE["L2"]]


# ---- AE-1 -------------------------------------------------------------------------------

AE1 = "25/25/25/25/25/25/25/25/25/7C17/6ACI16/7c2a14/7i17/8i16/25/25/25/25/25/25 N B15,D8,T3,T23 - 21"


def test_ae1_combat_23_against_19_s20():
    p = pos(AE1)
    for square in ("J8", "K8", "K7", "K9", "L8", "M8", "L11", "N9"):
        assert online(p, square), square
    assert sums(p, "L8") == (23, 19)
    combat = p.combat(SQUARE["L8"])
    assert combat.columns == ((SQUARE["K8"], SQUARE["J8"]),)
    assert SQUARE["N9"] not in {s for s, _, _ in combat.defence_parts}
    play(p, "xL8=D")
    assert GAME.format_position(p) == (
        "25/25/25/25/25/25/25/25/25/7C17/6ACI16/10a14/7i17/8i16/25/25/25/25/25/25 S B15,D8,T3,T23 - 22")


def test_ae1_charge_size_four_s20():
    p = pos(AE1, "charge-size=four")
    assert sums(p, "L8") == (17, 19)
    assert error_code(p, "xL8=D") == "E-OUTCOME-MISMATCH"
    with pytest.raises(EngineError) as info:
        GAME.parse_move("xL8=D", p)
    assert "offence 17, defence 19" in info.value.message
    assert GAME.parse_move("xL8=0", p).attack.mark == "0"


# ---- AE-2 lines of communication --------------------------------------------------------

AE2A = "25/25/25/2R22/25/25/25/25/25/2M22/25/25/5I19/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11"


def test_ae2a_relay_chain_s20():
    p = pos(AE2A)
    assert online(p, "M6") and online(p, "D3") and online(p, "J3")
    q = pos(AE2A.replace("25/2R22/", "25/25/", 1))
    assert not online(q, "M6") and not online(q, "J3")
    blocked = pos("25/25/25/2R22/25/25/2i22/25/25/2M22/25/25/5I19/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11")
    assert not online(blocked, "M6")
    relay = pos("25/25/25/2R22/25/25/2r22/25/25/2M22/25/25/5I19/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11")
    assert online(relay, "M6")


def test_ae2b_mountain_stops_line_pass_does_not_s20():
    p = pos("25/25/25/8I1I14/25/25/25/11I13/25/25/25/25/25/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11")
    assert online(p, "D9") and not online(p, "D11") and online(p, "H12")


AE2C = "25/25/25/25/25/25/25/7i17/25/25/25/7I17/25/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11"


def test_ae2c_enemy_fighting_unit_cuts_relay_does_not_s20():
    p = pos(AE2C)
    assert not online(p, "L8")
    assert error_code(p, "L8-L9") == "E-UNIT-OFFLINE"
    q = pos(AE2C, "offline-units-block=no")
    assert not online(q, "H8") and online(q, "L8")
    GAME.parse_move("L8-L9", q)
    for option in ("offline-units-block=yes", "offline-units-block=no"):
        r = pos(AE2C.replace("7i17", "7r17"), option)
        assert online(r, "L8")


AE2D = "25/25/25/25/25/25/25/25/25/7IR10I5/25/25/25/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11"


def test_ae2d_relay_next_to_connected_unit_s20():
    p = pos(AE2D)
    assert online(p, "J8") and not online(p, "J20")
    assert online(p, "J9")   # relay-status covered-or-adjacent: its defence counts
    book = pos(AE2D, "book")
    assert online(book, "J20")
    strict = pos(AE2D, "relay-status=covered")
    assert not online(strict, "J9") and not online(strict, "J20")


def test_ae2e_adjacency_not_through_relays_s20():
    fen = "25/25/25/25/25/25/25/25/25/7IRI15/25/25/25/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11"
    assert not online(pos(fen), "J10")
    assert online(pos(fen, "adjacency-via-relays=yes"), "J10")


def test_ae2f_status_reevaluated_after_every_move_s20():
    p = pos("25/25/25/2R22/25/25/25/25/25/3M21/25/25/5I19/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11")
    assert not online(p, "M6")
    GAME.parse_move("J4-J3,M6-M7", p)
    with pytest.raises(EngineError) as info:
        GAME.parse_move("M6-M7,J4-J3", p)
    assert info.value.code == "E-UNIT-OFFLINE" and info.value.offset == 0


# ---- AE-3 cavalry charges -----------------------------------------------------------------

AE3 = "25/25/25/25/25/25/25/11I13/11C13/11C13/11C13/10Ciiii10/11i13/25/25/25/25/25/25/25 N B15,D8,T3,T23 - 21"


@pytest.mark.parametrize("rule_text, offence, defence, mark", [
    (None, 28, 24, "D"),
    ("charge-directions=single", 25, 24, "R"),
    ("charge-size=four", 12, 24, "0"),
    ("fire-blocked-by=any", 28, 18, "D"),
])
def test_ae3_charge_columns_s20(rule_text, offence, defence, mark):
    p = pos(AE3, rule_text)
    assert sums(p, "L12") == (offence, defence)
    assert GAME.parse_move(f"xL12={mark}", p).attack.mark == mark


def test_ae3_broken_column_s20():
    p = pos(AE3.replace("11C13/10Ciiii10", "11I13/10Ciiii10").replace(
        "11C13/11C13/11I13", "11C13/11I13/11C13"))
    assert p.board[SQUARE["J12"]] and sums(p, "L12") == (18, 24)


def test_ae3_no_charge_against_fort_s20():
    fen = "25/25/25/25/25/25/12C12/11IC12/12iC11/12i12/25/25/25/25/25/25/25/25/25/25 N B15,D8,T3,T23 - 21"
    p = pos(fen)
    assert sums(p, "I13") == (16, 16)
    GAME.parse_move("xI13=0", p)
    assert error_code(pos(fen, "attack-minimum=winning"), "xI13=0") == "E-ATTACK-NOT-WINNING"


def test_ae3_cavalry_in_fort_cannot_charge_s20():
    p = pos("25/25/25/25/25/25/20C4/20C4/20ii3/22i2/25/25/25/25/25/25/25/25/25/25 N B15,D8,T3,T23 - 21")
    assert sums(p, "I21") == (8, 12)
    GAME.parse_move("xI21=0", p)


def test_terrain_bonus_of_supporting_units_s19_7():
    assert sums(pos(AE3), "L14")[1] == 28
    assert sums(pos(AE3, "terrain-bonus-scope=target"), "L14")[1] == 24


# ---- AE-4 forced retreat ---------------------------------------------------------------------

AE4A = "25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II23/ii23 N B15,D8,T3,T23 - 21"


def test_ae4a_no_retreat_square_s20():
    p = pos(AE4A)
    assert sums(p, "T1") == (13, 12)
    play(p, "xT1=R")
    assert GAME.format_position(p) == (
        "25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II23/ii23 S B15,D8,T3,T23 T1 22")
    assert p.outcome() is None
    with pytest.raises(EngineError) as info:
        GAME.parse_move("T1-T2", p)
    assert info.value.code == "E-NO-UNIT" and "destroyed at the start of the turn" in info.value.message
    assert error_code(p, "T2-T3,T3-T4") == "E-UNIT-MOVED-TWICE"
    GAME.parse_move("T2-T3", p)
    stats = GAME.new_stats(p.rules)
    before = p.copy()
    move = GAME.parse_move("T2-T3", p)
    p.push(move)
    stats.add(before, move, p)
    assert GAME.format_position(p) == (
        "25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II23/2i22 N B15,D8,T3,T23 - 23")
    summary = stats.summary(p, None)
    assert summary["lost_south_I"] == 1 and summary["lost_by_failed_retreat"] == 1
    assert summary["retreats_failed_no_square"] == 1 and summary["captures"] == 1


def test_ae4a_move_count_after_failed_retreat_s20():
    fen = ("25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II23/ii23 S B15,D8,T3,T23 T1 22")
    five = "T2-T3,S2-S3,S1-R1,Q1-P1,K1-J1"  # South moves 1 of its own; the rest are North's
    assert error_code(pos(fen), five) == "E-NOT-OWN-UNIT"
    many = ("25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II18iiiii/ii23 "
            "S B15,D8,T3,T23 T1 22")
    token = "T2-T3,S21-R21,S22-R22,S23-R23,S24-R24"
    GAME.parse_move(token, pos(many))
    assert error_code(pos(many, "failed-retreat-uses-move=yes"), token) == "E-TOO-MANY-MOVES"
    GAME.parse_move("T2-T3,S21-R21,S22-R22,S23-R23", pos(many, "failed-retreat-uses-move=yes"))


def test_ae4a_relay_range_s20():
    fen = AE4A.replace("ii23 N", "iir22 N")
    p = pos(fen)
    assert sums(p, "T1") == (13, 13)
    GAME.parse_move("xT1=0", p)
    q = pos(fen, "rsg")
    assert sums(q, "T1") == (13, 12)
    GAME.parse_move("xT1=R", q)


AE4B = "25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II23/i1i22 N B15,D8,T3,T23 - 21"


@pytest.mark.parametrize("token, code", [
    ("T1-T2", None), ("T3-T4", "E-RETREAT-FIRST"), ("--", "E-RETREAT-MISSING"),
    ("xS2", "E-RETREAT-MISSING"), ("T1-T2,xS2=0", None)])
def test_ae4b_retreat_possible_s20(token, code):
    p = play(pos(AE4B), "xT1=R")
    if code is None:
        GAME.parse_move(token, p)
    else:
        assert error_code(p, token) == code


def test_ae4b_retreated_unit_does_not_attack_s20():
    p = play(pos(AE4B), "xT1=R", "T1-T2,xS2=0")
    last = p.last_events
    attack = next(e for e in last if e[0] == "attack")
    assert (attack[3].offence, attack[3].defence) == (4, 12)


# ---- AE-5 arsenal destruction ----------------------------------------------------------------

AE5 = "25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/19iI4/21C3/2r22/25 N B15,D8,T3,T23 - 31"


def test_ae5_arsenal_destruction_is_the_attack_s20():
    p = play(pos(AE5), "R22-T23")
    assert GAME.format_position(p) == (
        "25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/19iI4/25/2r22/22C2 S B15,D8,T3 - 32")
    assert p.outcome() is None
    q = pos(AE5)
    assert error_code(q, "R22-T23,xQ20") == "E-ATTACK-AFTER-ARSENAL"
    GAME.parse_move("R22-T23,Q21-Q22", q)
    assert error_code(pos(AE5, "moves-after-arsenal=forbid"), "R22-T23,Q21-Q22") == "E-MOVE-AFTER-ARSENAL"
    assert sums(q, "Q20") == (4, 6)
    GAME.parse_move("xQ20=0", q)


def test_ae5_last_arsenal_wins_s20():
    fen = AE5.replace("B15,D8,T3,T23", "B15,D8,T23")
    p = pos(fen)
    assert error_code(p, "R22-T23,Q21-Q22") == "E-MOVE-AFTER-END"
    play(p, "R22-T23")
    out = p.outcome()
    assert out is not None and out.winner == 0 and out.reason == "arsenals"
    assert GAME.result_text(out) == "1-0"
    assert error_code(p, "--") == "E-MOVE-AFTER-END"


# ---- §19.6 two-square moves ---------------------------------------------------------------------

S19_6 = "25/25/25/25/25/25/25/25/25/7C17/7i17/25/25/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11"


def test_two_square_moves_s19_6():
    p = pos(S19_6)
    j8 = SQUARE["J8"]
    assert len(list(p.legal_moves(origin=j8))) == 21
    q = pos(S19_6, "two-step-via-online=yes")
    dests = sorted(m.target for m in q.legal_moves(origin=j8))
    assert dests == sorted(SQUARE[s] for s in ("H7", "H8", "H9", "I7", "I8", "I9", "J7", "J9", "K7", "K9"))
    assert error_code(q, "J8-L7") == "E-PATH-BLOCKED"
    GAME.parse_move("J8-H7", q)
    GAME.parse_move("J8-L7", p)


def test_two_square_move_across_a_ridge_s7_1():
    """D9 to B11 could only pass through the mountain C10: no usable intermediate square."""
    p = pos("25/25/25/8C16/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11")
    with pytest.raises(EngineError) as info:
        GAME.parse_move("D9-B11", p)
    assert info.value.code == "E-PATH-BLOCKED" and "only mountains" in info.value.message
    assert SQUARE["B11"] not in {m.target for m in p.legal_moves(origin=SQUARE["D9"])}


def test_offline_hint_names_the_cutting_move_s15():
    p = pos(AE2A)
    with pytest.raises(EngineError) as info:
        GAME.parse_move("J3-J4,M6-M7", p)
    assert info.value.code == "E-UNIT-OFFLINE" and info.value.offset == 6
    assert "it was online before J3-J4" in info.value.message


def test_offline_hint_names_a_cutting_move_pushed_on_its_own_s15_s17():
    """The cutting move was pushed as a single action before the rest of the turn is read."""
    p = pos(AE2A)
    p.push(GAME.parse_move("J3-J4", p, "action"))
    with pytest.raises(EngineError) as info:
        GAME.parse_move("M6-M7", p)
    assert info.value.code == "E-UNIT-OFFLINE"
    assert "it was online before J3-J4" in info.value.message


def test_impossible_retreat_of_last_fighting_unit_decides_s9_s10():
    fen = "25/25/25/25/25/25/25/25/25/25/R24/25/25/25/25/25/A24/25/II23/ir23 S B15,D8,T3,T23 T1 22"
    p = pos(fen)
    out = p.outcome()
    assert out is not None and (out.winner, out.reason) == (0, "annihilation")
    assert list(p.legal_moves()) == []
    assert error_code(p, "T2-T3") == "E-MOVE-AFTER-END"


def test_fighting_unit_may_end_its_move_offline_s7_1():
    p = pos(AE2A)
    p.push(GAME.parse_move("M6-N6", p))      # M6 leaves J3's diagonal: allowed
    assert not p.is_online(SQUARE["N6"])
