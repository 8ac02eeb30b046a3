"""Elevation acceptance examples E1-E13 (spec §13), each test naming its example and section."""

from __future__ import annotations

import pytest

from notation_tools.games.base import EngineError, IllegalMoveError, MoveSyntaxError
from notation_tools.games.elevation import GAME
from notation_tools.analysis.perft import perft

START = "333333/333333/333333/333333/333333/333333 sfddfs/6/6/6/6/SFDDFS w"


def rules(text: str = ""):
    return GAME.parse_rules(text or None)


def play(fen: str, token: str, rules_text: str = "") -> str:
    pos = GAME.parse_position(fen, rules(rules_text))
    move = GAME.parse_move(token, pos)
    pos.push(move)
    return GAME.format_position(pos)


def refuse(fen: str, token: str, rules_text: str = "", code: str = "E-ILLEGAL-MOVE") -> EngineError:
    pos = GAME.parse_position(fen, rules(rules_text))
    with pytest.raises(EngineError) as info:
        GAME.parse_move(token, pos)
    assert info.value.code == code, info.value.message
    return info.value


def is_legal(fen: str, token: str, rules_text: str = "") -> bool:
    try:
        GAME.parse_move(token, GAME.parse_position(fen, rules(rules_text)))
    except IllegalMoveError:
        return False
    return True


# ---- E1 (§4.1, §4.2, §4.3, §6.1) -------------------------------------------------------

E1 = "333333/333333/333333/333333/333333/333333 5s/6/6/2S3/6/6 w"


@pytest.mark.parametrize("token, after", [
    ("c3:d4>b2,c3-d4", "333333/333333/333233/333333/343333/333333 5s/6/3S2/6/6/6 b"),
    ("c3:d4>b2,c3-b2", "333333/333333/333233/333333/343333/333333 5s/6/6/6/1S4/6 b"),
    ("c3:c3-d4,e5>c5", "333333/334323/333333/333333/333333/333333 5s/6/3S2/6/6/6 b"),
])
def test_e1_basic_move_dig_first_and_move_first(token, after):
    """E1, §4.1: a basic move, dig first or move first."""
    assert play(E1, token) == after


@pytest.mark.parametrize("token, fragment", [
    ("c3:c3-d4", "a Samurai must dig and move"),
    ("c3:c4>c3,c3-d4", "c3 is the acting piece's own square, not adjacent to it"),
    ("c3:d4>d4,c3-d5", "source and destination must differ"),
    ("c3:d4>b2,c3-e5", "e5 is not adjacent to c3"),
    ("c3:d4>b2,d3-d4", "the acting piece stands on c3"),
    ("d4:d5>d3,d4-e4", "d4: no White piece on d4"),
])
def test_e1_illegal_basic_moves(token, fragment):
    """E1, §4.2-§4.3, §6.1: each illegal token names the broken rule."""
    error = refuse(E1, token)
    assert fragment in error.message


def test_e1_capture_mark_on_empty_square():
    """E1, §6.1: ``x`` on a step that captures nothing is E-CAPTURE-MARK."""
    error = refuse(E1, "c3:d4>b2,c3xd4", code="E-CAPTURE-MARK")
    assert error.message == "move c3xd4: d4 is empty"
    assert error.offset == "c3:d4>b2,c3xd4".index("x") - 0


# ---- E2 (§4.3, §4.5) -------------------------------------------------------------------

def test_e2_climb_limit_for_samurai_and_dragon_basic():
    """E2, §4.3: a basic move climbs at most 1, for a Dragon too."""
    error = refuse("333333/333333/333333/333333/343333/333333 5s/6/6/2S3/6/6 w", "c3:d4>b2,c3-b2")
    assert "climbs 2 (3 to 5); the limit is 1" in error.message
    refuse("333333/333333/333333/333333/343333/333333 5s/6/6/2D3/6/6 w", "c3:d4>b2,c3-b2")


E2C2 = "333333/333333/333333/333333/353333/333333 5s/6/6/2D3/6/6 w"


def test_e2_dragon_high_climb():
    """E2, §4.5: C2 climbs two levels in a one-square move, implied without a marker."""
    pos = GAME.parse_position(E2C2, rules())
    move = GAME.parse_move("c3:c3-b2", pos)
    assert move.option == "C2"
    pos.push(move)
    assert GAME.format_position(pos) == "333333/333333/333333/333333/353333/333333 5s/6/6/6/1D4/6 b"


def test_e2_dragon_c2_requires_climb2():
    """E2, §4.5, §9 dragon-c2-requires-climb2: exactly two levels, a flat C2 is illegal."""
    assert is_legal(E2C2, "c3:c3-b2", "dragon-c2-requires-climb2=yes")
    assert is_legal(E2C2, "c3:c3-d4", "dragon-c2-requires-climb2=no")
    error = refuse(E2C2, "c3:c3-d4", "dragon-c2-requires-climb2=yes")
    assert "dragon-c2-requires-climb2=yes needs exactly 2" in error.message


# ---- E3 (§4.3, §9 capture-height) ------------------------------------------------------

E3 = "333333/333333/333233/334333/333333/333333 5s/6/3s2/2S3/6/6 w"


def test_e3_capture():
    """E3, §4.3: two levels above an enemy, the step onto it captures."""
    assert play(E3, "c3:b2>b3,c3xd4") == "333333/333333/333233/344333/323333/333333 5s/6/3S2/6/6/6 b"


def test_e3_capture_must_be_marked():
    """E3, §6.1: a capturing step written with ``-`` is E-CAPTURE-MARK."""
    error = refuse(E3, "c3:b2>b3,c3-d4", code="E-CAPTURE-MARK")
    assert error.message == "move c3-d4 captures a Black Samurai: write c3xd4"


def test_e3_capture_needs_two_levels():
    """E3, §4.3: one level above is not enough."""
    fen = "333333/333333/333233/333333/333333/333333 5s/6/3s2/2S3/6/6 w"
    error = refuse(fen, "c3:b2>b3,c3xd4")
    assert error.message == "move c3xd4: c3 is only 1 level above d4"


def test_e3_capture_height_option():
    """E3, §9 capture-height: three levels capture by default, not with exactly-2."""
    fen = "333333/333333/333233/335333/333333/333333 5s/6/3s2/2S3/6/6 w"
    assert is_legal(fen, "c3:b2>b3,c3xd4", "capture-height=at-least-2")
    error = refuse(fen, "c3:b2>b3,c3xd4", "capture-height=exactly-2")
    assert "exactly-2" in error.message
    assert is_legal(E3, "c3:b2>b3,c3xd4", "capture-height=exactly-2")


# ---- E4 (§4.2) ------------------------------------------------------------------------

def test_e4_dig_from_under_a_friendly_piece():
    """E4, §4.2: a friendly piece on the source drops one level."""
    fen = "333333/333333/333333/333333/333333/333333 5s/6/3F2/2S3/6/6 w"
    assert play(fen, "c3:d4>b2,c3-c4") == "333333/333333/333233/333333/343333/333333 5s/6/2SF2/6/6/6 b"


# ---- E5 (§4.4, §9 fish-diag2-model) ----------------------------------------------------

E5 = "333333/333333/333333/331333/333333/333333 5s/6/6/2s3/6/F5 w"
E5_BLOCKED = "333333/333333/333333/331333/333333/333333 5s/6/6/2s3/1S4/F5 w"


def test_e5_fish_move_with_capture():
    """E5, §4.4: dig first, then the two-square diagonal move capturing on c3."""
    assert play(E5, "a1:b1>a2,a1-b2xc3") == "333333/333333/333333/331333/433333/323333 5s/6/6/2F3/6/6 b"


def test_e5_fish_through_empty_versus_jump():
    """E5, §4.4: a piece on b2 blocks ``through-empty`` but not ``jump``."""
    error = refuse(E5_BLOCKED, "a1:b1>a2,a1-b2xc3")
    assert error.message == "fish move a1-b2xc3: b2 is occupied"
    assert play(E5_BLOCKED, "a1:b1>a2,a1-b2xc3", "fish-diag2-model=jump") == (
        "333333/333333/333333/331333/433333/323333 5s/6/6/2F3/1S4/6 b")


# ---- E6 (§4.5, §5) --------------------------------------------------------------------

E6 = "333133/333333/333533/333333/333333/333333 3s2/3f2/3D2/6/6/6 w"


def test_e6_dragon_captures_twice_and_wins():
    """E6, §4.5, §5: MM capturing twice takes Black's last pieces: 1-0."""
    pos = GAME.parse_position(E6, rules())
    pos.push(GAME.parse_move("d4:d4xd5xd6", pos))
    assert GAME.format_position(pos) == "333133/333333/333533/333333/333333/333333 3D2/6/6/6/6/6 b"
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "all-pieces-captured"
    assert GAME.result_text(outcome) == "1-0"
    assert list(pos.legal_moves()) == []


@pytest.mark.parametrize("limit, legal", [("2", True), ("1", False), ("0", False)])
def test_e6_dragon_mm_max_captures(limit, legal):
    """E6, §9 dragon-mm-max-captures: two captures need the default 2."""
    assert is_legal(E6, "d4:d4xd5xd6", f"dragon-mm-max-captures={limit}") is legal


def test_e6_mm_max_captures_message():
    """§7: the message names the option."""
    error = refuse(E6, "d4:d4xd5xd6", "dragon-mm-max-captures=1")
    assert error.message == "MM with 2 captures: dragon-mm-max-captures=1"


# ---- E7 (§5) --------------------------------------------------------------------------

def test_e7_no_legal_turn_loses():
    """E7, §5: White's only piece cannot dig anywhere: White has lost at the start."""
    pos = GAME.parse_position("333333/333333/333333/333333/333333/033333 6/6/6/6/df4/Ss4 w", rules())
    assert not pos.has_legal_turn()
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner == 1 and outcome.reason == "no-legal-turn"
    assert GAME.result_text(outcome) == "0-1"


# ---- E8 (§5 repetition, §4.5 forbid-null-dig-pair) -------------------------------------

E8 = "333333/333333/333333/333333/333333/333333 3d2/6/6/6/6/3D2 w"
E8_PLIES = ["d1:c2>e2,e2>c2", "d6:c5>e5,e5>c5"] * 4


def _draws_after(rules_text: str) -> int | None:
    pos = GAME.parse_position(E8, rules(rules_text))
    for ply, token in enumerate(E8_PLIES, start=1):
        pos.push(GAME.parse_move(token, pos))
        outcome = pos.outcome()
        if outcome is not None:
            assert outcome.winner is None and outcome.reason == "repetition"
            return ply
    return None


def test_e8_threefold_repetition():
    """E8, §5 repetition-rule=threefold: the start occurs a third time after ply 4."""
    assert _draws_after("") == 4
    assert _draws_after("repetition-rule=threefold") == 4


def test_e8_consecutive_undo():
    """E8, §5 repetition-rule=consecutive-undo-6-plies: plies 2-7 undo, draw after ply 7."""
    assert _draws_after("repetition-rule=consecutive-undo-6-plies") == 7


def test_e8_repetition_off():
    """E8, §5 repetition-rule=off: no automatic draw."""
    assert _draws_after("repetition-rule=off") is None


def test_e8_forbid_null_dig_pair():
    """E8, §4.5 forbid-null-dig-pair: the null pair of ply 1 becomes illegal."""
    assert is_legal(E8, "d1:c2>e2,e2>c2", "forbid-null-dig-pair=no")
    error = refuse(E8, "d1:c2>e2,e2>c2", "forbid-null-dig-pair=yes")
    assert "undoes the first" in error.message
    assert is_legal(E8, "d1:c2>e2,e2>d2", "forbid-null-dig-pair=yes")


# ---- E9 (§8.2) ------------------------------------------------------------------------

E9 = "333333/333333/333233/333333/333333/333333 5s/6/3s2/2S3/6/6 w"


def test_e9_undermining_off():
    """E9, §8.2: by default a lone dig from under an enemy is no option."""
    error = refuse(E9, "c3:d4>b2")
    assert "undermining" in error.message


def test_e9_undermining_on():
    """E9, §8.2 undermining=yes: U is implied; undermining and moving is illegal."""
    pos = GAME.parse_position(E9, rules("undermining=yes"))
    move = GAME.parse_move("c3:d4>b2", pos)
    assert move.option == "U"
    pos.push(move)
    assert GAME.format_position(pos) == "333333/333333/333133/333333/343333/333333 5s/6/3s2/2S3/6/6 b"
    error = refuse(E9, "c3:d4>b2,c3xd4", "undermining=yes")
    assert "an undermining dig forbids moving this turn" in error.message


def test_e9_samurai_undermine_and_move():
    """E9, §8.2 samurai-undermine-and-move=yes: the Samurai undermines then captures."""
    assert play(E9, "c3:d4>b2,c3xd4", "undermining=yes; samurai-undermine-and-move=yes") == (
        "333333/333333/333133/333333/343333/333333 5s/6/3S2/6/6/6 b")


# ---- E10 (§8.3) -----------------------------------------------------------------------

E10A = "333333/333333/333333/333333/333333/033333 5s/6/6/6/6/S5 w"
E10B = "333333/333333/333333/333333/333333/033333 5s/6/6/6/1s4/S5 w"


def test_e10_ocean_climb():
    """E10, §8.3 ocean-free-move=climb: from the ocean any height may be climbed."""
    refuse(E10A, "a1:a1-b1,c1>c2")
    assert play(E10A, "a1:a1-b1,c1>c2", "ocean-free-move=climb") == (
        "333333/333333/333333/333333/334333/032333 5s/6/6/6/6/1S4 b")


def test_e10_ocean_climb_capture():
    """E10, §8.3 ocean-free-move=climb-capture: from the ocean any enemy may be captured."""
    refuse(E10B, "a1:a2>b1,a1xb2")
    refuse(E10B, "a1:a2>b1,a1xb2", "ocean-free-move=climb")
    assert play(E10B, "a1:a2>b1,a1xb2", "ocean-free-move=climb-capture") == (
        "333333/333333/333333/333333/233333/043333 5s/6/6/6/1S4/6 b")


# ---- E11 (§8.1) -----------------------------------------------------------------------

def test_e11_two_pieces_per_turn():
    """E11, §8.1: two piece-turns by two different pieces in one token."""
    assert play(START, "c1:c2>b2,c1-c2&d1:d2>e2,d1-d2", "two-pieces-per-turn=yes") == (
        "333333/333333/333333/333333/342243/333333 sfddfs/6/6/6/2DD2/SF2FS b")


def test_e11_same_piece_twice_is_illegal():
    """E11, §8.1: the second piece-turn must use a different piece."""
    error = refuse(START, "c1:c2>b2,c1-c2&c2:d2>e2,c2-d3", "two-pieces-per-turn=yes")
    assert error.message == "second piece-turn c2: that piece already acted this turn"


def test_e11_two_piece_token_needs_the_option():
    """§8.1: without the option a token holds one piece-turn."""
    error = refuse(START, "c1:c2>b2,c1-c2&d1:d2>e2,d1-d2")
    assert "two-pieces-per-turn=yes" in error.message


# ---- E12 (§9 remaining options) --------------------------------------------------------

def test_e12_initial_height():
    """E12, §3.3 initial-height."""
    pos = GAME.start_position(rules("initial-height=2"))
    assert GAME.format_position(pos) == "222222/222222/222222/222222/222222/222222 sfddfs/6/6/6/6/SFDDFS w"


def test_e12_max_height():
    """E12, §4.2 max-height: b2 would hold 4 tiles."""
    assert is_legal(E1, "c3:d4>b2,c3-d4", "max-height=4")
    assert is_legal(E1, "c3:d4>b2,c3-d4", "max-height=none")
    error = refuse(E1, "c3:d4>b2,c3-d4", "max-height=3")
    assert error.message == "dig d4>b2: b2 would exceed max-height 3"


def test_e12_basic_dig_optional():
    """E12, §4.1 basic-dig-optional=yes: a lone move is a basic move."""
    assert play(E1, "c3:c3-d4", "basic-dig-optional=yes") == (
        "333333/333333/333333/333333/333333/333333 5s/6/3S2/6/6/6 b")


def test_e12_basic_move_optional():
    """E12, §4.1 basic-move-optional=yes: a lone dig is a basic move."""
    refuse(E1, "c3:d4>b2")
    assert play(E1, "c3:d4>b2", "basic-move-optional=yes") == (
        "333333/333333/333233/333333/343333/333333 5s/6/6/2S3/6/6 b")


def test_e12_dragon_mm_forbid_return():
    """E12, §4.5 dragon-mm-forbid-return."""
    assert play(E8, "d1:d1-d2-d1") == "333333/333333/333333/333333/333333/333333 3d2/6/6/6/6/3D2 b"
    error = refuse(E8, "d1:d1-d2-d1", "dragon-mm-forbid-return=yes")
    assert "dragon-mm-forbid-return=yes" in error.message


def test_e12_fish_two_free_diagonal_steps():
    """E12, §4.4 fish-diag2-model=two-free-diagonal-steps: a bent path."""
    for model in ("through-empty", "jump"):
        error = refuse(E5, "a1:b1>a2,a1-b2-a3", f"fish-diag2-model={model}")
        assert "not a straight diagonal" in error.message
    assert play(E5, "a1:b1>a2,a1-b2-a3", "fish-diag2-model=two-free-diagonal-steps") == (
        "333333/333333/333333/331333/433333/323333 5s/6/6/F1s3/6/6 b")


def test_e12_fish_jump():
    """E12, §4.4 fish-diag2-model=jump."""
    assert play(E5_BLOCKED, "a1:b1>a2,a1-b2xc3", "fish-diag2-model=jump") == (
        "333333/333333/333333/331333/433333/323333 5s/6/6/2F3/1S4/6 b")


# ---- E13 (§12) ------------------------------------------------------------------------

def test_e13_perft_1():
    """E13, §12: perft(1) = 1194 with the per-option and per-piece breakdown."""
    pos = GAME.start_position(rules())
    moves = list(pos.legal_moves())
    assert perft(pos, 1) == len(moves) == 1194
    tokens = {GAME.format_move(move, pos) for move in moves}
    assert len(tokens) == 1194
    by_option: dict[str, int] = {}
    by_square: dict[str, int] = {}
    for move in moves:
        by_option[move.option] = by_option.get(move.option, 0) + 1
        name = "abcdef"[move.origin % 6] + str(move.origin // 6 + 1)
        by_square[name] = by_square.get(name, 0) + 1
    assert by_option == {"B": 728, "F": 136, "DD": 288, "MM": 36, "C2": 6}
    assert by_square == {"a1": 66, "b1": 204, "c1": 327, "d1": 327, "e1": 204, "f1": 66}
    a1 = [move for move in moves if move.origin == 0]
    dig_first = [m for m in a1 if type(m.actions[0]).__name__ == "Dig"]
    assert (len(dig_first), len(a1) - len(dig_first)) == (8, 58)


def test_e13_perft_2():
    """E13, §12: perft(2) = 1 421 408."""
    assert perft(GAME.start_position(rules()), 2) == 1_421_408


def test_syntax_error_is_e_syntax():
    """§6.1, §7: text outside the grammar is E-SYNTAX."""
    with pytest.raises(MoveSyntaxError):
        GAME.parse_move("c3:d4>b2,", GAME.parse_position(E1, rules()))
