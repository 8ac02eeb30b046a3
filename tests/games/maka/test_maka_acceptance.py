"""Maka-Dai-Dai Shogi: the spec's test vectors (§14.1) and acceptance examples (§15)."""

from __future__ import annotations

import pytest

from notation_tools.analysis.replay import replay
from notation_tools.games.base import AmbiguousMoveError, EngineError
from notation_tools.games.maka import GAME
from notation_tools.games.maka.pieces import INITIAL_TYPES, square_name
from notation_tools.games.maka.position import INITIAL
from notation_tools.records.pgn import read_records


def pos_of(fen: str, rules: str | None = None):
    return GAME.parse_position(fen, GAME.parse_rules(rules))


def play(pos, text):
    res = GAME.resolve_move(text, pos)
    pos.push(res.move)
    return res


def tokens(pos):
    return sorted(GAME.format_move(m, pos) for m in pos.legal_moves())


def error_of(pos, text) -> EngineError:
    with pytest.raises(EngineError) as info:
        GAME.parse_move(text, pos)
    return info.value


# ---- §14.1 reference record -----------------------------------------------------------------

REF_START = (
    "vL,vEa,vSt,vT,vI,vC,vS,vG,vDSp,vK,vDV,vG,vS,vC,vI,vT,vSt,vEa,vL/vRC,1,vCSw,1,vOM,1,vRD,vFL,"
    "vBT,vDE,vBT,vFL,vCS,1,vCC,1,vCSw,1,vRC/1,vOR,1,vAB,1,vBB,1,vEW,vPh,vLn,vKy,vEW,1,vBB,1,vAB,1,"
    "vOR,1/vDo,1,vN,1,vVO,1,vFD,vSD,vGG,vLD,vWr,vBDe,vFD,1,vVO,1,vN,1,vDo/vR,vRCh,vSM,vSF,vVM,vB,"
    "vDH,vDK,vHM,vFK,vCa,vDK,vDH,vB,vVM,vSF,vSM,vLCh,vR/vP,vP,vP,vP,1,vP,vP,vP,vP,3,vP,vP,vP,vP,1,"
    "vP,vP/5,vGB,7,vGB,5/10,vP,vP,7/9,vP,6,vP,2/9,Ln,9/4,vP,11,R,2/4,K,2,G,1,G,9/5,GB,7,GB,5/P,P,"
    "P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P/R,LCh,SM,SF,VM,B,DH,DK,Ca,FK,HM,DK,DH,B,VM,SF,SM,RCh,1/Do,"
    "1,N,1,VO,1,FD,BDe,Wr,LD,GG,SD,FD,1,VO,1,N,1,Do/1,OR,1,AB,1,BB,1,EW,Ky,1,Ph,EW,1,BB,1,AB,1,OR,"
    "1/RC,1,CSw,1,CC,1,CS,FL,BT,DE,BT,FL,RD,1,OM,1,CSw,1,RC/L,Ea,St,T,I,C,S,1,DV,1,DSp,1,S,C,I,T,"
    "St,Ea,L b 1")
REF_MOVES = ("Lnx10ix9h+ P-1g FFx8h-7g P-1h Kx15k+ P-2g FFx6f-7g P-2h FFx7f-7g P-4g G12l-11l P-4h "
             "Rx3i+ P-5g G-3h P-5h Ex4h GB-6h Ex2h P-1i FF-8g-9h P-1j FF-10gx11f P-1k "
             "FF-10g-11f").split()
REF_TAIL = ("/5,GB,7,GB,5/P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P,P/R,LCh,SM,SF,VM,B,DH,DK,Ca,FK,HM,DK,"
            "DH,B,VM,SF,SM,RCh,1/Do,1,N,1,VO,1,FD,BDe,Wr,LD,GG,SD,FD,1,VO,1,N,1,Do/1,OR,1,AB,1,BB,1,"
            "EW,Ky,1,Ph,EW,1,BB,1,AB,1,OR,1/RC,1,CSw,1,CC,1,CS,FL,BT,DE,BT,FL,RD,1,OM,1,CSw,1,RC/L,"
            "Ea,St,T,I,C,S,1,DV,1,DSp,1,S,C,I,T,St,Ea,L")
REF_HEAD = REF_START.split("/vP")[0]
REF_AFTER_2 = (REF_HEAD + "/vP,vP,vP,vP,1,vP,vP,vP,vP,3,vP,vP,vP,vP,1,vP,1/5,vGB,7,vGB,4,vP/10,FF,"
               "vP,7/16,vP,2/19/4,vP,11,R,2/4,K,2,G,1,G,9" + REF_TAIL + " b 2")
REF_BEFORE_9 = (REF_HEAD + "/vP,vP,vP,vP,1,vP,vP,vP,vP,10/5,vGB,6,FF,vGB,5/14,vP,vP,+G,vP,vP/19/19/"
                "4,E,14/8,G,G,9" + REF_TAIL + " b 9")
REF_FINAL = (REF_HEAD + "/vP,vP,vP,vP,1,vP,vP,vP,FF,10/5,vGB,13/13,vGB,vP,1,+G,E,1/19/19/18,vP/8,"
             "G,G,9" + REF_TAIL + " w 13")
REF_TSA = ("Lnx10ix9h+ P-1g FFx8h-7g P-1h Kx15k+ P-2g FFx6f-7g P-2h FFx7f-7g P-4g G12l-11l P-4h "
           "Rx3i+ P-5g G-3h P-5h Ex4h GB-6h Ex2h P-1i FF-9h P-1j FFx11f P-1k FF!").split()
REF_FULL = ("Ln10jx10ix9h+ P1f-1g FF9hx8h-7g P1g-1h K15lx15k+ P2f-2g FF7gx6f-7g P2g-2h FF7gx7f-7g "
            "P4f-4g G12l-11l P4g-4h R3kx3i+ P5f-5g G3i-3h P5g-5h E15kx4h GB6g-6h E4hx2h P1h-1i "
            "FF7g-9h P1i-1j FF9hx11f P1j-1k FF11f!").split()
REF_COORD = ("10j10i9h+ 1f1g 9h8h7g 1g1h 15l15k+ 2f2g 7g6f7g 2g2h 7g7f7g 4f4g 12l11l 4g4h 3k3i+ "
             "5f5g 3i3h 5g5h 15k4h 6g6h 4h2h 1h1i 7g9h 1i1j 9h11f 1j1k 11f!").split()


def test_14_1_position_after_ply_2():
    """§14.1: Lion double capture and promotion to FF."""
    pos = pos_of(REF_START)
    for text in REF_MOVES[:2]:
        play(pos, text)
    assert GAME.format_position(pos) == REF_AFTER_2


@pytest.mark.parametrize("rules", ["tsa", "tsa; emperor-protection=after",
                                   "tsa; emperor-capture=unattacked"])
def test_14_1_invalid_at_move_9_under_default_emperor_rule(rules):
    """§14.1/§6.6: Ex4h captures a Pawn protected by the Dragon Horse on 7e."""
    pos = pos_of(REF_START, rules)
    for text in REF_MOVES[:16]:
        play(pos, text)
    assert GAME.format_position(pos) == REF_BEFORE_9
    error = error_of(pos, "Ex4h")
    assert error.code == "E-ILLEGAL-MOVE"
    assert "Dragon Horse on 7e" in error.message and "4h" in error.message


def test_14_1_move_10_protected_by_left_chariot():
    """§14.1: Ex2h would fail too (2h protected by the Left Chariot on 2e)."""
    pos = pos_of(REF_START, "tsa; emperor-capture=any")
    for text in REF_MOVES[:18]:
        play(pos, text)
    strict = pos_of(GAME.format_position(pos))
    error = error_of(strict, "Ex2h")
    assert "Left Chariot on 2e" in error.message


@pytest.mark.parametrize("rules", ["tsa; emperor-capture=any", "tsa; emperor-capture=royals-only"])
def test_14_1_full_record_under_permissive_emperor(rules):
    """§14.1: all 25 plies legal; statistics; final position; conversions."""
    r = GAME.parse_rules(rules)
    pos = GAME.parse_position(REF_START, r)
    stats = GAME.new_stats(r)
    written = {n: [] for n in GAME.notations}
    for text in REF_MOVES:
        res = GAME.resolve_move(text, pos)
        assert res.warnings == []
        for n in written:
            written[n].append(GAME.format_move(res.move, pos, n))
        stats.before_move(pos, res.move)
        pos.push(res.move)
        stats.after_move(pos)
    assert GAME.format_position(pos) == REF_FINAL
    assert pos.outcome() is None
    summary = stats.summary(pos, pos.outcome())
    assert summary["captures"] == 10 and summary["captures_black"] == 10
    assert summary["captures_white"] == 0
    assert summary["promotion_list"] == "Ln>FF, K>E, R>+G"
    assert (summary["igui"], summary["double_captures"], summary["passes"]) == (2, 1, 1)
    assert summary["emperor_protected_captures"] == 2
    assert written["tsa"] == REF_TSA
    assert written["tsa-full"] == REF_FULL
    assert written["coord"] == REF_COORD
    for notation in ("tsa-full", "coord"):
        back = GAME.parse_position(REF_START, r)
        out = []
        for text in written[notation]:
            move = GAME.parse_move(text, back)
            out.append(GAME.format_move(move, back, "tsa"))
            back.push(move)
        assert out == REF_TSA


@pytest.mark.parametrize("index,replacement", [(6, "FFx!6f"), (8, "FF7gx!7f"), (20, "+Ln-9h"),
                                               (24, "FF!"), (24, "FF11f-10g-11f")])
def test_14_1_equivalent_forms(index, replacement):
    """§14.1: the TSA igui form, aliases and pass forms give identical positions."""
    r = "tsa; emperor-capture=any"
    a, b = pos_of(REF_START, r), pos_of(REF_START, r)
    for i, text in enumerate(REF_MOVES):
        play(a, text)
        play(b, replacement if i == index else text)
        assert GAME.format_position(a) == GAME.format_position(b)


# ---- §15 acceptance examples ----------------------------------------------------------------


def test_a1_initial_position():
    """§15 A1 / §4."""
    pos = GAME.start_position(GAME.parse_rules(None))
    assert GAME.format_position(pos) == INITIAL
    for side in (0, 1):
        pieces = [code for _, code in pos.pieces(side)]
        assert len(pieces) == 96 and len({c >> 1 for c in pieces}) == 50
    assert pos.turn == 0 and pos.move_number == 1
    GAME.parse_move("P-10m", pos)
    GAME.parse_move("Ky-13q", pos)
    assert error_of(pos, "Ln-10o").code == "E-ILLEGAL-MOVE"
    error = error_of(pos, "Ln!")
    assert error.code == "E-ILLEGAL-MOVE" and "lion-pass=needs-empty" in error.message


A2 = "18,vK/19/19/19/19/19/19/19/8,P,vP,vP,8/9,Ln,9/19/19/19/19/19/19/19/19/K,18 b 1"
A2_TOKENS = sorted(
    "Ln! Ln-10h Ln-10k Ln-10l Ln-11h Ln-11j Ln-11k Ln-11l Ln-12h Ln-12i Ln-12j Ln-12k Ln-12l "
    "Ln-8h Ln-8i Ln-8j Ln-8k Ln-8l Ln-9h Ln-9j Ln-9k Ln-9l Lnx10i+ Lnx10i-10h+ Lnx10i-10j+ "
    "Lnx10i-11h+ Lnx10i-11j+ Lnx10i-9h+ Lnx10i-9j+ Lnx10ix9i+ Lnx9i+ Lnx9i-10h+ Lnx9i-10j+ "
    "Lnx9i-8h+ Lnx9i-8i+ Lnx9i-8j+ Lnx9i-9h+ Lnx9i-9j+ Lnx9ix10i+".split())


def test_a2_lion_moves():
    """§15 A2 / §6.3: exactly 39 Lion moves."""
    pos = pos_of(A2)
    lion = [m for m in pos.legal_moves() if pos.board[m.origin] >> 1 == 18]
    assert len(lion) == 39
    assert sorted(GAME.format_move(m, pos) for m in lion) == A2_TOKENS
    assert GAME.parse_move("Lnx!10i+", pos) == GAME.parse_move("Lnx10i-10j+", pos)
    assert error_of(pos, "Ln-11i").code == "E-ILLEGAL-MOVE"
    assert error_of(pos, "Lnx10i-11i+").code == "E-ILLEGAL-MOVE"
    assert error_of(pos, "Ln-10i").code == "E-CAPTURE-MARK"


def test_a2_lion_surrounded_pass_option():
    """§15 A2 / §6.3 lion-pass: 16 jumps; pass only with lion-pass=always."""
    fen = "18,vK/19/19/19/19/19/19/19/8,P,P,P,8/8,P,Ln,P,8/8,P,P,P,8/19/19/19/19/19/19/19/K,18 b 1"
    pos = pos_of(fen)
    lion = [m for m in pos.legal_moves(origin=9 * 19 + 9)]
    assert len(lion) == 16
    assert error_of(pos, "Ln!").code == "E-ILLEGAL-MOVE"
    always = pos_of(fen, "tsa; lion-pass=always")
    assert GAME.parse_move("Ln!", always).is_pass


A3 = "18,vK/19/19/19/19/19/19/9,P,9/19/9,HM,9/19/19/19/19/19/19/19/19/K,18 b 1"


def test_a3_hook_mover():
    """§15 A3 / §6.4: 351 moves; one turn; capture of the last royal ends the game."""
    pos = pos_of(A3)
    hm = list(pos.legal_moves(origin=9 * 19 + 9))
    assert len(hm) == 351
    reached = {square_name(m.target) for m in hm}
    assert not reached & {"10a", "10b", "10c", "10d", "10e", "10f", "10g", "10h", "19s", "10j"}
    assert error_of(pos, "HM-10g").code == "E-ILLEGAL-MOVE"
    assert "no Hook Mover path" in error_of(pos, "HM-10g").message
    error = error_of(pos, "HM-1jx1a+")
    assert error.code == "E-MULTI-LEG"
    play(pos, "HMx1a+")
    assert GAME.format_position(pos).startswith("18,+G/")
    outcome = pos.outcome()
    assert outcome.winner == 0 and GAME.result_text(outcome) == "1-0"
    assert error_of(pos, "K-18s").code == "E-MOVE-AFTER-END"


A4 = "18,vK/19/19/14,vG,4/4,vP,9,vP,4/19/19/19/19/9,E,9/19/19/19/19/19/19/19/19/19 b 1"


@pytest.mark.parametrize("mode,results", [
    ("unprotected", (False, True, True)),
    ("royals-only", (True, True, True)),
    ("unattacked", (False, True, False)),
    ("any", (True, True, True)),
])
def test_a4_emperor_capture_restriction(mode, results):
    """§15 A4 / §6.6 emperor-capture."""
    for text, legal in zip(("Ex5e", "Ex15e", "E-5f"), results):
        pos = pos_of(A4, f"tsa; emperor-capture={mode}")
        if legal:
            GAME.parse_move(text, pos)
        else:
            assert error_of(pos, text).code == "E-ILLEGAL-MOVE"
    pos = pos_of(A4, f"tsa; emperor-capture={mode}")
    play(pos, "Ex1a")
    assert pos.outcome().winner == 0


def test_a5_when_protection_is_judged():
    """§15 A5 / §6.6 emperor-protection."""
    fen = "18,vK/19/11,vP,7/19/19/19/19/19/19/11,E,7/19/19/19/19/19/19/19/19/11,vR,7 b 1"
    GAME.parse_move("Ex8c", pos_of(fen, "tsa; emperor-protection=before"))
    error = error_of(pos_of(fen, "tsa; emperor-protection=after"), "Ex8c")
    assert error.code == "E-ILLEGAL-MOVE" and "Rook on 8s" in error.message


def test_a6_emperor_as_defender():
    """§15 A6 / §6.6 emperor-as-defender."""
    fen = "18,vE/19/19/19/4,vP,14/19/19/19/19/9,E,9/19/19/19/19/19/19/19/19/4,R,14 b 1"
    bare = "18,vE/19/19/19/4,vP,14/19/19/19/19/9,E,9/19/19/19/19/19/19/19/19/19 b 1"
    GAME.parse_move("Ex15e", pos_of(fen, "tsa; emperor-as-defender=legal-recapture"))
    assert error_of(pos_of(fen, "tsa; emperor-as-defender=always"), "Ex15e").code == "E-ILLEGAL-MOVE"
    for mode in ("legal-recapture", "always"):
        assert error_of(pos_of(bare, f"tsa; emperor-as-defender={mode}"), "Ex15e")
        for start in (fen, bare):
            pos = pos_of(start, f"tsa; emperor-as-defender={mode}")
            play(pos, "Ex1a")
            assert GAME.result_text(pos.outcome()) == "1-0"


A7 = "18,vK/19/19/19/9,vP,9/19/19/19/19/9,R,9/19/19/19/19/19/19/19/19/K,18 b 1"


def test_a7_promotion_tsa():
    """§15 A7 / §6.8 promotion=forced."""
    pos = pos_of(A7)
    play(pos, "Rx10e+")
    assert GAME.format_position(pos) == "18,vK/19/19/19/9,+G,9/19/19/19/19/19/19/19/19/19/19/19/19/19/K,18 w 1"
    play(pos, "K-2a")
    play(pos, "G-10d")
    assert GAME.format_position(pos) == "17,vK,1/19/19/9,+G,9/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K,18 w 2"
    plain = pos_of(A7)
    res = play(plain, "Rx10e")
    assert [w[0] for w in res.warnings] == ["W-PROMOTION-MARK"]
    assert GAME.format_position(plain).startswith("18,vK/19/19/19/9,+G,9/")
    assert error_of(pos_of(A7), "Rx10e=").code == "E-PROMOTION"


def test_a7_promotion_modern():
    """§15 A7 / §6.8 promotion=forced-if-victim-promoted."""
    pos = pos_of(A7, "modern")
    play(pos, "Rx10e+")
    assert "9,+G,9" in GAME.format_position(pos)
    pos = pos_of(A7, "modern")
    play(pos, "Rx10e=")
    assert "9,R,9" in GAME.format_position(pos)
    pos = pos_of(A7, "modern")
    res = play(pos, "Rx10e")
    assert "9,R,9" in GAME.format_position(pos) and res.warnings[0][0] == "W-PROMOTION-MARK"
    tokin = A7.replace("vP", "v+P")
    assert error_of(pos_of(tokin, "modern"), "Rx10e=").code == "E-PROMOTION"


def test_a7_promotion_optional():
    """§6.8 promotion=optional: even a promoted victim leaves the choice."""
    tokin = A7.replace("vP", "v+P")
    pos = pos_of(tokin, "tsa; promotion=optional")
    play(pos, "Rx10e=")
    assert "9,R,9" in GAME.format_position(pos)
    res = GAME.resolve_move("Rx10e", pos_of(A7, "tsa; promotion=optional"))
    assert res.warnings[0][0] == "W-PROMOTION-MARK"


def test_a7_deva_contagion():
    """§15 A7 / §6.9 deva-contagion."""
    fen = "18,vK/19/19/19/9,vDV,9/19/19/19/19/9,R,9/19/19/19/19/19/19/19/19/K,18 b 1"
    pos = pos_of(fen)
    play(pos, "Rx10e+")
    assert "9,+G,9" in GAME.format_position(pos)
    pos = pos_of(fen, "modern")
    res = play(pos, "Rx10e")
    assert "9,TK,9" in GAME.format_position(pos) and res.warnings == []
    assert error_of(pos_of(fen, "modern"), "Rx10e=").code == "E-PROMOTION"
    pos = pos_of(fen, "modern")
    res = play(pos, "Rx10e+")
    assert "9,TK,9" in GAME.format_position(pos) and res.warnings[0][0] == "W-PROMOTION-MARK"


@pytest.mark.parametrize("immune,capturer,result", [
    ("royals-and-elephant", "DE", "Pr"), ("royals", "DE", "TK"), ("royals", "K", "E"),
    ("none", "K", "TK")])
def test_contagion_immune(immune, capturer, result):
    """§6.9 contagion-immune: exempt capturers promote normally."""
    fen = f"18,vK/19/19/19/19/19/19/19/9,vDV,9/9,{capturer},9/19/19/19/19/19/19/19/19/18,K b 1"
    if capturer == "K":
        fen = "18,vK/19/19/19/19/19/19/19/9,vDV,9/9,K,9/19/19/19/19/19/19/19/19/19 b 1"
    pos = pos_of(fen, f"modern; contagion-immune={immune}")
    move = next(m for m in pos.legal_moves() if square_name(m.target) == "10i" and m.captures
                and m.becomes != pos.board[m.origin] >> 1)
    from notation_tools.games.maka.pieces import TYPE_OF_ID
    assert TYPE_OF_ID[move.becomes].abbr == result


def test_a8_prince():
    """§15 A8 / §6.10: the Prince keeps Black in the game."""
    pos = pos_of("vR,17,vK/19/19/19/19/19/19/19/9,vP,9/9,DE,9/19/19/19/19/19/19/19/19/K,18 b 1")
    play(pos, "DEx10i+")
    play(pos, "Rx19s+")
    assert GAME.format_position(pos) == "18,vK/19/19/19/19/19/19/19/9,Pr,9/19/19/19/19/19/19/19/19/19/v+G,18 b 2"
    assert pos.outcome() is None
    GAME.parse_move("Pr-10h", pos)


A8B = "9,vR,8,vK/19/19/19/19/19/19/19/9,G,9/9,K,9/19/19/19/19/19/19/19/19/19 b 1"


def test_a8b_self_check():
    """§15 A8b / §6.11 self-check allow, warn, forbid."""
    assert GAME.resolve_move("G-11i", pos_of(A8B, "tsa; self-check=allow")).warnings == []
    res = GAME.resolve_move("G-11i", pos_of(A8B, "tsa; self-check=warn"))
    assert res.warnings and res.warnings[0][0] == "W-SELF-CHECK"
    error = error_of(pos_of(A8B, "tsa; self-check=forbid"), "G-11i")
    assert error.code == "E-ILLEGAL-MOVE" and "self-check=forbid" in error.message
    for mode in ("allow", "warn", "forbid"):
        assert GAME.resolve_move("G-10h", pos_of(A8B, f"tsa; self-check={mode}")).warnings == []
    prince = A8B.replace("/19 b 1", "/Pr,18 b 1")
    assert GAME.resolve_move("G-11i", pos_of(prince, "tsa; self-check=forbid")).warnings == []


A9 = "18,vK/19/19/19/19/19/9,P,9/9,vP,9/9,vP,9/9,LD,9/19/19/19/19/19/19/19/19/K,18 b 1"


def _ld_moves(pos):
    return [m for m in pos.legal_moves(origin=9 * 19 + 9)]


def test_a9_lion_dog_q3():
    """§15 A9 / §6.5 lion-dog=q3."""
    pos = pos_of(A9)
    moves = _ld_moves(pos)
    assert len(moves) == 22
    forward = [GAME.format_move(m, pos) for m in moves if m.target // 19 < 9 and m.target % 19 == 9]
    assert forward == ["LDx10i+"]
    assert error_of(pos, "LDx10h+").code == "E-ILLEGAL-MOVE"


def test_a9_lion_dog_linear():
    """§15 A9 / §6.5 lion-dog=linear and lion-dog-leap."""
    pos = pos_of(A9, "tsa; lion-dog=linear")
    moves = _ld_moves(pos)
    assert len(moves) == 27
    forward = sorted(GAME.format_move(m, pos) for m in moves
                     if m.target % 19 == 9 and (m.target // 19 < 9 or m.captures))
    assert forward == sorted(["LDx10i+", "LDx10ix10h+", "LDx10i-10j+", "LDx10ix10h-10i+", "LDx10h+"])
    assert len(_ld_moves(pos_of(A9, "tsa; lion-dog=linear; lion-dog-leap=no"))) == 26
    assert len(_ld_moves(pos_of(A9, "modern"))) == 32
    pos = pos_of(A9, "tsa; lion-dog=linear")
    play(pos, "LDx10ix10h-10i+")
    assert "9,+G,9" in GAME.format_position(pos)


def test_a10_deva_chiral():
    """§15 A10 / §3.5: the Deva for both colours and deva-dark-spirit=sz."""
    fen = "18,vK/19/19/19/19/19/19/19/19/9,DV,9/19/19/19/19/19/19/19/19/K,18 b 1"
    def dests(f, rules=None):
        pos = pos_of(f, rules)
        return {square_name(m.target) for m in pos.legal_moves(origin=9 * 19 + 9)}
    assert dests(fen) == {"11j", "11i", "9i", "9k"}
    assert dests(fen.replace(",DV,", ",vDV,").replace(" b 1", " w 1")) == {"9j", "9k", "11k", "11i"}
    assert dests(fen, "tsa; deva-dark-spirit=sz") == {"11j", "11i", "9i", "11k"}
    assert dests(fen, "tsa; deva-dark-spirit=srz") == {"9j", "11j", "10i", "10k", "11i", "11k"}


def test_a10_donkey():
    """§15 A10 / §6.12 donkey-step."""
    fen = "18,vK/19/19/19/19/19/19/19/9,P,9/9,Do,9/19/19/19/19/19/19/19/19/K,18 b 1"
    def dests(rules):
        pos = pos_of(fen, rules)
        return {square_name(m.target) for m in pos.legal_moves(origin=9 * 19 + 9)}
    assert dests("tsa") == {"10h", "10l", "11j", "9j"}
    assert dests("tsa; donkey-step=orthogonal") == {"10h", "10l", "11j", "9j", "10k"}


def test_a10_free_bear():
    """§15 A10 / §6.12 free-bear-jump."""
    fen = "18,vK/19/19/19/19/19/19/19/8,P,10/9,FBe,9/19/19/19/19/19/19/19/19/K,18 b 1"
    GAME.parse_move("FBe-12h", pos_of(fen))
    assert error_of(pos_of(fen, "tsa; free-bear-jump=no"), "FBe-12h").code == "E-ILLEGAL-MOVE"
    for rules in ("tsa", "tsa; free-bear-jump=no"):
        assert error_of(pos_of(fen, rules), "FBe-13g").code == "E-ILLEGAL-MOVE"


A11 = "18,vK/19/19/19/19/19/19/19/19/19/19/7,G,1,+G,9/8,vP,10/19/19/19/19/19/K,18 b 1"


def test_a11_gold_case_output():
    """§15 A11 / §9.4: the origin rule compares internal types."""
    pos = pos_of(A11)
    move = next(m for m in pos.legal_moves(origin=11 * 19 + 7) if square_name(m.target) == "11l")
    assert GAME.format_move(move, pos, "tsa") == "G-11l"
    assert GAME.format_move(move, pos, "tsa-full") == "G12l-11l"
    twin = pos_of(A11.replace("+G", "G"))
    move = next(m for m in twin.legal_moves(origin=11 * 19 + 7) if square_name(m.target) == "11l")
    assert GAME.format_move(move, twin, "tsa") == "G12l-11l"


def replay_tokens(fen: str, movetext: str):
    """Replay ``movetext`` from ``fen`` through the real pipeline (container, replay driver)."""
    text = f'[Variant "maka"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n{movetext}\n'
    (record,) = list(read_records(text.splitlines(), "a11.pgn"))
    return replay(record)


def test_a11_gold_case_replay():
    """§15 A11 / §9.2 step 6: continuations; later tokens decide."""
    result = replay_tokens(A11, "1. G-11l K-2a 2. Gx11m+ *")
    assert result.is_valid and result.diagnostics == []
    text = GAME.format_position(result.position)
    assert ",FGo," in text and "+G" in text
    result = replay_tokens(A11, "1. G-11l K-2a *")
    assert result.is_valid
    assert [d.code for d in result.diagnostics] == ["W-AMBIGUOUS-GOLD"]
    # the reading kept is the Gold first in position-string order, the one from 12l
    assert "/8,G,+G,9/" in GAME.format_position(result.position)


def test_a12_records():
    """§15 A12 / §9.8: the sample record under both profiles; Ln! first; Dox11e-2p+."""
    final = ("vL,vEa,vSt,vT,vI,vC,vS,vG,vDSp,vK,vDV,vG,vS,vC,vI,vT,vSt,vEa,vL/vRC,1,vCSw,1,vOM,1,"
             "vRD,vFL,vBT,vDE,vBT,vFL,vCS,1,vCC,1,vCSw,1,vRC/1,vOR,1,vAB,1,vBB,1,vEW,vPh,vLn,vKy,"
             "vEW,1,vBB,1,vAB,1,vOR,1/vDo,1,vN,1,vVO,1,vFD,vSD,vGG,vLD,vWr,vBDe,vFD,1,vVO,1,vN,1,"
             "vDo/vR,vRCh,vSM,vSF,vVM,vB,vDH,vDK,vHM,1,vCa,vDK,vDH,vB,vVM,vSF,vSM,vLCh,vR/vP,vP,"
             "vP,vP,vP,vP,vP,vP,vP,1,vP,vP,vP,vP,vP,vP,vP,vP,vP/5,vGB,7,vGB,5/19/19/9,vFK,9/19/19/"
             "5,GB,7,GB,5/P,P,P,P,P,P,P,P,P,1,P,P,P,P,P,P,P,P,P/R,LCh,SM,SF,VM,B,DH,DK,Ca,1,HM,DK,"
             "DH,B,VM,SF,SM,RCh,R/Do,1,N,1,VO,1,FD,BDe,Wr,LD,GG,SD,FD,1,VO,1,N,1,Do/1,OR,1,AB,1,"
             "BB,1,EW,Ky,Ln,Ph,EW,1,BB,1,AB,1,OR,1/RC,1,CSw,1,CC,1,CS,FL,BT,DE,BT,FL,RD,1,OM,1,CSw,"
             "1,RC/L,Ea,St,T,I,C,S,G,DV,K,DSp,G,S,C,I,T,St,Ea,L b 6")
    for profile in ("tsa", "modern"):
        pos = GAME.start_position(GAME.parse_rules(profile))
        for text in "P-10m P-10g P-10l P-10h P-10k P-10i P-10j Px10j+ FKx10j FKx10j".split():
            assert GAME.resolve_move(text, pos).warnings == []
            pos.push(GAME.parse_move(text, pos))
        assert GAME.format_position(pos) == final
    pos = GAME.start_position(GAME.parse_rules(None))
    assert error_of(pos, "Ln!").code == "E-ILLEGAL-MOVE"
    assert error_of(pos, "Dox11e-2p+").code == "E-MULTI-LEG"
    assert error_of(pos_of(REF_START), "Dox11e-2p+").code == "E-MULTI-LEG"


# ---- §6 rules not covered above ----------------------------------------------------------


def test_6_13_repetition_forbidden():
    """§6.13: the fourth occurrence of a position is illegal under repetition=forbidden."""
    fen = "18,vK/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K,18 b 1"
    for rules, legal in (("tsa", True), ("tsa; repetition=forbidden", False)):
        pos = pos_of(fen, rules)
        for _ in range(2):
            for text in ("K-18s", "K-2a", "K-19s", "K-1a"):
                play(pos, text)
        # the start position has occurred 3 times now; leaving and coming back is fine ...
        for text in ("K-18s", "K-2a", "K-19s"):
            play(pos, text)
        if legal:
            play(pos, "K-1a")
        else:
            error = error_of(pos, "K-1a")
            assert "repetition=forbidden" in error.message and "ply" in error.message


@pytest.mark.parametrize("mode,winner", [("loss", 0), ("draw", None)])
def test_6_16_no_legal_move(mode, winner):
    """§6.16 no-legal-move: White's King is boxed in by its own immobile Pawns."""
    fen = "K,18/" + "19/" * 16 + "17,vP,vP/17,vP,vK w 1"
    pos = pos_of(fen, f"tsa; no-legal-move={mode}")
    assert not pos.has_legal_move()
    outcome = pos.outcome()
    assert outcome.reason == "no-legal-move" and outcome.winner == winner


def test_6_14_immobile_pieces():
    """§6.14: a Pawn on the last rank and a Knight on the last two ranks have no move."""
    fen = "P,3,N,14/5,N,13/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K,17,vK b 1"
    pos = pos_of(fen)
    assert list(pos.legal_moves(origin=0)) == []
    assert list(pos.legal_moves(origin=4)) == []
    assert list(pos.legal_moves(origin=19 + 5)) == []


def test_handicap_white_first():
    """§6.15: a handicap record starts with White; 1-0 still means Black."""
    fen = INITIAL.replace("vL,vEa", "1,vEa", 1).replace(" b 1", " w 1")
    pos = GAME.start_position(GAME.parse_rules(None), fen=fen)
    assert pos.turn == 1
    play(pos, "P-10g")
    assert pos.turn == 0 and pos.move_number == 2
    assert GAME.dialect.placeholder == "-"


def test_ambiguous_needs_origin():
    """§9.2 step 5 / §11: two same-type pieces reaching a square need an origin."""
    fen = "18,vK/19/19/19/19/19/19/19/19/19/9,R,9/19/19/19/19/19/19/19/R,17,K b 1"
    pos = pos_of(fen)
    with pytest.raises(AmbiguousMoveError) as info:
        GAME.parse_move("R-19k", pos)
    assert "19s" in info.value.message and "10k" in info.value.message
    move = GAME.parse_move("R19s-19k", pos)
    assert GAME.format_move(move, pos) == "R19s-19k"


def test_unknown_piece_suggestion():
    """§3.4 / §11 E-UNKNOWN-PIECE with look-alike suggestions; +DH never promotes."""
    pos = GAME.start_position(GAME.parse_rules(None))
    error = error_of(pos, "Fg-10m")
    assert error.code == "E-UNKNOWN-PIECE" and "FG" in error.message
    assert error_of(pos, "+DH-10m").code == "E-UNKNOWN-PIECE"
    assert error_of(pos, "++P-10m").code == "E-UNKNOWN-PIECE"
    assert error_of(pos, "P-20m").code == "E-BAD-SQUARE"
    assert error_of(pos, "Ln-10j-").code == "E-SYNTAX"
    assert "igui is written" in error_of(pos, "Ln!9d").message


def test_no_piece_messages():
    """§11 E-NO-PIECE."""
    pos = pos_of(A2)
    assert error_of(pos, "FK-10a").message == "Black has no Free King"
    error = error_of(pos, "G11i-11h")
    assert error.code == "E-NO-PIECE" and "Pawn" in error.message


def test_plus_g_is_ambiguous_between_free_gold_and_promoted_gold():
    """§3.4: +G reads as FGo or a gold-promoted Gold; both able is E-AMBIGUOUS."""
    fen = "18,vK/19/19/19/19/19/19/19/19/19/19/7,FGo,1,+G,9/19/19/19/19/19/19/K,18 b 1"
    pos = pos_of(fen)
    assert error_of(pos, "+G-11k").code == "E-AMBIGUOUS"
    assert square_name(GAME.parse_move("+G-12k", pos).origin) == "12l"


def test_initial_types_are_all_placed():
    """§4: every one of the 50 initial types stands on the board."""
    pos = GAME.start_position(GAME.parse_rules(None))
    present = {code >> 1 for _, code in pos.pieces(0)}
    assert len(present) == len(INITIAL_TYPES) == 50


TK2 = "18,vK/19/9,TK,9/10,vP,8/10,vP,8/9,vP,9/19/19/19/19/19/19/19/19/19/19/19/19/K,18 b 1"


def test_6_7_teaching_king_version_2():
    """§6.7 teaching-king=2: Lion power of range 3; three legs; v1 has neither."""
    pos = pos_of(TK2, "tsa; teaching-king=2")
    move = GAME.parse_move("TKx9dx9ex10f", pos)
    assert len(move.captures) == 3 and square_name(move.target) == "10f"
    assert GAME.format_move(move, pos) == "TKx9dx9ex10f"
    GAME.parse_move("TK-12f", pos)  # a range-3 jump off the Queen lines
    v1 = pos_of(TK2, "tsa; teaching-king=1")
    assert error_of(v1, "TKx9dx9ex10f").code == "E-MULTI-LEG"
    assert error_of(v1, "TK-12f").code == "E-ILLEGAL-MOVE"
    linear = pos_of(TK2, "tsa; teaching-king=1; lion-dog=linear")
    assert error_of(linear, "TKx9dx9ex10f").code == "E-ILLEGAL-MOVE"  # not one line


def test_6_5_furious_fiend_linear_three_legs():
    """§6.3/§6.5: FF = Lion or Lion Dog; three legs only as a linear Lion Dog move."""
    fen = "18,vK/19/19/19/19/19/19/9,vP,9/9,vP,9/9,FF,9/19/19/19/19/19/19/19/19/K,18 b 1"
    pos = pos_of(fen, "modern")
    move = GAME.parse_move("FFx10ix10h-10i", pos)
    assert square_name(move.target) == "10i" and len(move.captures) == 2
    assert error_of(pos_of(fen), "FFx10ix10h-10i").code == "E-MULTI-LEG"


def test_6_12_srz_pieces():
    """§6.12 srz-pieces: the Blind Bear moves as a King when on."""
    fen = "18,vK/19/19/19/19/19/19/19/19/9,BB,9/19/19/19/19/19/19/19/19/K,18 b 1"
    on = pos_of(fen, "tsa; srz-pieces=on")
    off = pos_of(fen, "tsa; srz-pieces=off")
    assert len(list(on.legal_moves(origin=9 * 19 + 9))) == 8
    assert len(list(off.legal_moves(origin=9 * 19 + 9))) == 4 + 9


def test_8_2_move_order():
    """§8.2: moves sorted by origin, final square, captures, resulting type."""
    pos = pos_of(A9, "modern")
    moves = list(pos.legal_moves())
    keys = [(m.origin, m.target, tuple(sorted(m.captures)), m.becomes) for m in moves]
    assert keys == sorted(keys)


def test_9_4_ambiguous_output_detected():
    """§9.4 W-AMBIGUOUS-OUTPUT: G-11l reads back as the Gold case."""
    from notation_tools.games.maka.notation import output_is_ambiguous
    pos = pos_of(A11)
    move = GAME.parse_move("G12l-11l", pos)
    assert output_is_ambiguous(move, pos)
    assert not output_is_ambiguous(GAME.parse_move("K-18s", pos), pos)


GOLD_CAPTURE = ("18,vK/19/19/19/19/19/19/19/19/19/8,vP,10/7,G,1,+G,9/19/19/19/19/19/19/K,18"
                " b 1")
"""An original Gold (12l) and a gold-promoted Gold (10l) that can both capture on 11k."""


def test_9_2_only_the_kept_reading_of_a_gold_token_warns():
    """§9.2 step 6: ``Gx11k+`` fits both Golds. Played by the original Gold (it captures and
    promotes, as the later ``FGo`` move confirms) the ``+`` is right; the warning the other
    reading would give (the ``+`` superfluous for a piece that cannot promote) is not
    reported (issue #16)."""
    result = replay_tokens(GOLD_CAPTURE, "1. Gx11k+ K-2a 2. FGo-11j *")
    assert result.is_valid and result.diagnostics == []
    assert ",FGo," in GAME.format_position(result.position)


def test_9_2_the_other_reading_keeps_its_own_warning():
    """§9.2: when the record confirms the gold-promoted Gold's reading (the original Gold
    still moves later from 12l), that reading's own warning is the one reported."""
    result = replay_tokens(GOLD_CAPTURE, "1. Gx11k+ K-2a 2. G-13k *")
    assert result.is_valid
    assert [d.code for d in result.diagnostics] == ["W-PROMOTION-MARK"]
    assert "+G" in GAME.format_position(result.position).split("/")[10]
