"""Shih rules: turn structure (§4), Step (§6), Spin (§7), Power Spin (§8), the end (§10),
every value of every rule option (§11) and the diagnostics of §13."""

from __future__ import annotations

import pytest

from notation_tools.games.base import (BadPositionError, BadRulesError, EngineError,
                                       MoveSyntaxError, TagConflictError)
from notation_tools.games.shih import GAME
from notation_tools.games.shih.position import DEFAULT_START
from notation_tools.analysis.perft import perft

STUCK = "H8S/11S/13S/15S/15S/13S/11S/9S br7/11/13/15/15/13/11/9 02 b"
"""Blue's only piece a1 faces b2 with its own wall and a2 holds Red: no legal action."""
A1 = "HSH6S/11S/13S/15S/15S/13S/11S/9S r1b6/11/13/15/15/13/11/8r 22 b"
A5 = "SB7S/11S/13S/15S/15S/13S/11S/9S r8/11/13/14b/14b/13/11/8r 22 b"


def start(rules: str = "standard"):
    return GAME.start_position(GAME.parse_rules(rules))


def position(fen: str, rules: str = "standard"):
    return GAME.parse_position(fen, GAME.parse_rules(rules))


def tokens(pos) -> set[str]:
    return {GAME.format_move(move, pos) for move in pos.legal_moves()}


def play(pos, *texts: str):
    for text in texts:
        pos.push(GAME.parse_move(text, pos))
    return pos


def fails(pos, text: str) -> EngineError:
    with pytest.raises(EngineError) as caught:
        GAME.parse_move(text, pos)
    return caught.value


# ---- §4 turn structure ---------------------------------------------------------------------


@pytest.mark.parametrize("text", ["--", "b2-b1,--", "b1cw,--", "b2-b1,c2cw", "b1ccw,b2-b1",
                                  "b2-b1,b4-b3", "b1cw,b1ccw", "b1cw,b3ccw", "Pe8ccw"])
def test_every_turn_shape_of_section_4(text):
    """§4/§12.2: pass, one action + --, every pair of 1-MP actions, a Power Spin alone."""
    pos = start()
    move = GAME.parse_move(text, pos)
    assert GAME.format_move(move, pos) == text
    assert move in set(pos.legal_moves())


def test_actions_apply_in_order_within_a_turn():
    """§4: each action is completed before the next is checked: after b2-b1 the spin of b1
    is refused (b1 is now occupied); after b1ccw (wall S -> H) b2 steps into b1."""
    pos = start()
    assert "b1 is occupied" in fails(pos, "b2-b1,b1cw").message
    play(pos, "b1ccw,b2-b1")
    assert GAME.format_position(pos).split()[1].startswith("bbbbbbbbb/b2b1b")


def test_power_spin_must_be_alone():
    """§8: a Power Spin costs 2 MP, so it is the whole turn (§13 message)."""
    pos = start()
    assert fails(pos, "b2-b1,Pe8cw").message == "Power Spin needs 2 MP: it must be the whole turn"
    assert fails(pos, "Pe8cw,b2-b1").message.startswith("Power Spin needs 2 MP")


def test_third_action_refused():
    """§4/§13: a turn has 2 MP."""
    assert fails(start(), "b2-b1,b4-b3,b6-b5").message == "a turn has 2 MP: third action b6-b5"


def test_missing_end_mark():
    """§12.1/§13: a turn spending 1 MP must end with --."""
    error = fails(start(), "b2-b1")
    assert error.message == "turn spends 1 of 2 MP; write 'b2-b1,--' to end it early"
    assert error.offset == 5


def test_end_mark_must_be_last():
    error = fails(start(), "--,b2-b1")
    assert isinstance(error, MoveSyntaxError)


@pytest.mark.parametrize("text", ["b2-b1,c2cw,--", "Pe8cw,--"])
def test_no_end_mark_after_two_mp(text):
    """§12.1: -- ends a turn with MP unspent; after 2 MP it has nothing to end."""
    error = fails(start(), text)
    assert error.code == "E-ILLEGAL-MOVE" and error.offset == len(text) - 2


@pytest.mark.parametrize(("notation", "good", "bad"), [("shih", "b1cw,--", "b1=B,--"),
                                                       ("shih-wall", "b1=B,--", "b1cw,--")])
def test_parse_move_narrowed_to_one_notation(notation, good, bad):
    """§12.3: both notations are read; narrowing to one refuses the other's rotations."""
    pos = start()
    assert GAME.parse_move(good, pos, notation) == GAME.parse_move(bad, pos)
    assert fails_in(pos, bad, notation).code == "E-SYNTAX"


def fails_in(pos, text: str, notation: str) -> EngineError:
    with pytest.raises(EngineError) as caught:
        GAME.parse_move(text, pos, notation)
    return caught.value


def test_copies_do_not_share_state_after_pop():
    pos = play(start(), "b2-b1,c2cw")
    twin = pos.copy()
    pos.pop()
    twin.pop()
    pos.push(GAME.parse_move("b4-b3,--", pos))
    assert GAME.format_position(twin) == DEFAULT_START


# ---- §6 Step, §7 Spin, §8 Power Spin diagnostics (§13) ------------------------------------

DIAGNOSTICS = [
    ("square off the board", DEFAULT_START, "d16-d15", "E-BAD-SQUARE", "d16: row d has 15 spaces"),
    ("step to a non-adjacent space", DEFAULT_START, "b2-c5,--", "E-ILLEGAL-MOVE",
     "step b2-c5: b2 and c5 do not share a side"),
    ("step into an occupied space", DEFAULT_START, "b2-a1,--", "E-ILLEGAL-MOVE",
     "step b2-a1: a1 is occupied"),
    ("step through a wall", DEFAULT_START, "b2-b3,--", "E-ILLEGAL-MOVE",
     "step b2-b3: the edge b2/b3 is walled (b2's and b3's walls, a double wall)"),
    ("step through the other space's wall",
     "9S/9SHS/13S/15S/15S/13S/11S/9S bbbbbbbbb/b9b/13/15/15/13/1r1r1r1r1r1/rrrrrrrrr 22 b",
     "b11-b10,--", "E-ILLEGAL-MOVE", "step b11-b10: the edge b11/b10 is walled (b11's wall)"),
    ("step with a piece that is not yours", DEFAULT_START, "h1-g1,--", "E-ILLEGAL-MOVE",
     "step h1-g1: h1 holds no Blue piece"),
    ("spin of an occupied space", DEFAULT_START, "a1cw,--", "E-ILLEGAL-MOVE",
     "spin a1: a1 is occupied (use a Power Spin)"),
    ("spin with nobody near", DEFAULT_START, "e8cw,--", "E-ILLEGAL-MOVE",
     "spin e8: no Blue piece is next to e8"),
    ("spin without a viewer", DEFAULT_START, "b11cw,--", "E-ILLEGAL-MOVE",
     "spin b11: no Blue piece can see b11 (b10's own wall faces it)"),
    ("rotation to the same side", DEFAULT_START, "b1=S,--", "E-ILLEGAL-MOVE",
     "b1=S: the wall of b1 is already on S"),
    ("Power Spin on an own piece", DEFAULT_START, "Pa3cw", "E-ILLEGAL-MOVE",
     "Power Spin a3: a3 holds a Blue piece"),
    ("surrender list without capture", DEFAULT_START, "Pe8ccw/a1", "E-ILLEGAL-MOVE",
     "Power Spin e8 captured nothing; no surrender list allowed"),
    ("surrender named twice", DEFAULT_START, "Pg2cw/a1/a1", "E-ILLEGAL-MOVE",
     "surrender a1: named twice"),
    ("wrong surrender count", DEFAULT_START, "Pg2cw/a1", "E-ILLEGAL-MOVE",
     "Power Spin g2 captured 2 pieces; the surrender list names 1"),
    ("not a token", DEFAULT_START, "b2b1", "E-SYNTAX", None),
]


@pytest.mark.parametrize(("case", "fen", "text", "code", "message"), DIAGNOSTICS,
                         ids=[row[0] for row in DIAGNOSTICS])
def test_section_13_diagnostics(case, fen, text, code, message):
    """§13: each case gives its code and the spec's message."""
    error = fails(position(fen), text)
    assert error.code == code
    if message is not None:
        assert error.message == message
    assert error.rule


def test_double_wall_step_message_names_both_walls():
    """§5/§6 condition 2: b1 and b2 both have their walls on their shared B edge."""
    pos = position("9S/BB9S/13S/15S/15S/13S/11S/9S 9/b10/13/15/15/13/11/8r 22 b")
    error = fails(pos, "b1-b2,--")
    assert error.message == ("step b1-b2: the edge b1/b2 is walled (b1's and b2's walls, "
                             "a double wall)")


def test_spin_target_wall_may_face_viewer():
    """§7 condition 4: the target's own wall may lie on the shared edge (A9's defence): b1's wall B
    faces b2, whose own wall S does not, so b2 may spin b1."""
    pos = position("9S/B10S/13S/15S/15S/13S/11S/9S 9/1b9/13/15/15/13/11/8r 22 b")
    assert GAME.format_move(GAME.parse_move("b1cw,--", pos), pos) == "b1cw,--"


def test_power_spin_needs_no_viewer_and_may_spin_enemy():
    """§8: any empty or enemy-occupied space, no viewer needed."""
    pos = start()
    assert GAME.parse_move("Ph5cw/a1", pos).actions[0].target == 91
    assert GAME.parse_move("Pe8ccw", pos).actions[0].surrender == ()


def test_power_spin_uses_one_spin_even_without_capture():
    """§8: the limit is on Power Spins, not on captures."""
    pos = play(start(), "Pe8ccw")
    assert pos.spins == [1, 2]


def test_surrender_when_fewer_pieces_than_captures():
    """§8: a mover with fewer pieces than captures surrenders all of them."""
    pos = position("9S/11S/13S/15S/15S/13S/11S/9S b8/11/13/15/15/13/1r1r1r1r1r1/rrrrrrrrr 22 b")
    error = fails(pos, "Pg4cw")
    assert error.message == ("Power Spin g4 captured 3 pieces; the surrender list names 0 "
                             "(Blue has only 1 left: all of them)")
    play(pos, "Pg4cw/a1")
    assert pos.counts == [0, 11] and pos.score == [3, 1]
    assert pos.outcome().reason == "no-pieces" and pos.outcome().winner == 1


def test_surrender_list_canonical_order():
    """§12.1: the surrender list is written by row then column, whatever order was read."""
    pos = start()
    move = GAME.parse_move("Pg4cw/b2/a9/a1", pos)
    assert GAME.format_move(move, pos) == "Pg4cw/a1/a9/b2"


# ---- §10 end of game -----------------------------------------------------------------------


def test_no_pieces_loses():
    """§10: with nobody at the threshold, a side without pieces has lost."""
    pos = position("9S/11S/13S/15S/15S/13S/11S/9S 9/11/13/15/15/13/11/8r 22 b")
    outcome = pos.outcome()
    assert outcome.winner == 1 and outcome.reason == "no-pieces"


# ---- §11 options: every value --------------------------------------------------------------


def test_pieces_per_player_14_default_start():
    assert GAME.format_position(start("pieces-per-player=14")) == DEFAULT_START


def test_pieces_per_player_16_needs_fen():
    """§3.3: no default start for 16 pieces."""
    with pytest.raises(BadPositionError, match="no default start for 16 pieces"):
        start("pieces-per-player=16")
    fen = "9S/11S/13S/15S/15S/13S/11S/9S bbbbbbbbb/bbbbbbb4/13/15/15/13/4rrrrrrr/rrrrrrrrr 22 b"
    rules = GAME.parse_rules("pieces-per-player=16")
    pos = GAME.start_position(rules, fen=fen)
    assert pos.counts == [16, 16]
    with pytest.raises(BadPositionError, match="above pieces-per-player=14"):
        GAME.parse_position(fen, GAME.parse_rules("standard"))


@pytest.mark.parametrize(("value", "side"), [("blue", 0), ("red", 1)])
def test_first_player(value, side):
    pos = start(f"first-player={value}")
    assert pos.turn == side
    fen_pos = GAME.start_position(GAME.parse_rules(f"first-player={value}"), fen=DEFAULT_START)
    assert fen_pos.turn == 0  # the FEN's side field always wins


def test_first_player_tag_conflicts_with_fen():
    with pytest.raises(TagConflictError):
        GAME.start_position(GAME.parse_rules("standard"), fen=DEFAULT_START, first_player=1)


@pytest.mark.parametrize(("value", "count"), [("0", 256), ("2", 4354), ("9", 4354)])
def test_power_spins_per_player(value, count):
    pos = start(f"power-spins-per-player={value}")
    assert pos.spins == [int(value)] * 2
    assert perft(pos, 1) == count


def test_power_spins_field_above_option_is_bad_position():
    with pytest.raises(BadPositionError, match="above power-spins-per-player=2"):
        position(DEFAULT_START.replace(" 22 ", " 32 "))
    assert position(DEFAULT_START.replace(" 22 ", " 93 "), "power-spins-per-player=9").spins == [9, 3]


def test_allow_split_mp_yes():
    assert "b2-b1,b6-b5" in tokens(start("allow-split-mp-between-pieces=yes"))


@pytest.mark.parametrize(("text", "legal"), [("b2-b1,b6-b5", False), ("b2-b1,c2cw", True),
                                             ("b2-b1,b3cw", False), ("b1ccw,b2-b1", True),
                                             ("b3cw,b2-b1", False), ("b1cw,b1ccw", True),
                                             ("b1cw,b3cw", False)])
def test_allow_split_mp_no(text, legal):
    """§4: with no, one piece makes every Step and views every Spin."""
    pos = start("allow-split-mp-between-pieces=no")
    if legal:
        assert GAME.format_move(GAME.parse_move(text, pos), pos) == text
        assert text in tokens(pos)
    else:
        assert "allow-split-mp-between-pieces=no" in fails(pos, text).message
        assert text not in tokens(pos)


def test_allow_early_end_yes():
    pos = start("allow-early-end=yes")
    assert {"--", "b2-b1,--"} <= tokens(pos)


def test_allow_early_end_no():
    """§4: -- only when no legal action remains."""
    pos = start("allow-early-end=no")
    assert fails(pos, "--").message == "allow-early-end=no: a legal action remains (e.g. b2-b1)"
    assert "a legal action remains" in fails(pos, "b2-b1,--").message
    assert perft(pos, 1) == 4354 - 16
    stuck = position(STUCK, "allow-early-end=no")
    assert tokens(stuck) == {"--"}


def test_spin_directions_both():
    assert {"b1cw,--", "b1ccw,--"} <= tokens(start("spin-directions=both"))


def test_spin_directions_cw_only():
    """§7 condition 5: only clockwise turns (applied to Power Spins too)."""
    pos = start("spin-directions=cw-only")
    assert "cw-only" in fails(pos, "b1ccw,--").message
    assert "cw-only" in fails(pos, "Pe8ccw").message
    assert "b1cw,--" in tokens(pos)
    assert not any("ccw" in text for text in tokens(pos))


@pytest.mark.parametrize(("value", "score"), [("all", "3-3"), ("far-only", "1-1")])
def test_multi_region_capture(value, score):
    a8 = "B8S/B10S/13S/15S/15S/13S/11S/9S rr7/1r9/13/11bbbb/15/13/11/8r 22 b"
    surrender = "/d13/d14/d15" if value == "all" else "/d15"
    pos = play(position(a8, f"multi-region-capture={value}"), "Pa1cw" + surrender)
    assert GAME.format_position(pos).endswith(score)


@pytest.mark.parametrize(("value", "captured"), [("capture", 3), ("exempt", 0)])
def test_already_enclosed(value, captured):
    a8 = "B8S/B10S/13S/15S/15S/13S/11S/9S rr7/1r9/13/11bbbb/15/13/11/8r 22 b"
    pos = position(a8, f"already-enclosed={value}")
    surrender = ("", "", "", "/d13/d14/d15")[captured]
    assert len(pos.effects(GAME.parse_move("Pa1cw" + surrender, pos))[0].captured) == captured


def test_already_enclosed_exempt_still_captures_newly_sealed():
    """§9.2 step 5: exempt only spares regions that were already full before the action."""
    a1 = position(A1, "already-enclosed=exempt")
    assert a1.effects(GAME.parse_move("a2cw,a3-a2", a1))[0].captured == (0,)


@pytest.mark.parametrize(("value", "score"), [("no", [0, 0]), ("yes", [0, 1])])
def test_self_capture(value, score):
    a7 = "HSH6S/11S/13S/15S/15S/13S/11S/9S b1b6/11/13/15/15/13/11/8r 22 b"
    assert play(position(a7, f"self-capture={value}"), "a2cw,--").score == score


@pytest.mark.parametrize(("value", "score"), [("yes", [1, 1]), ("no", [1, 0])])
def test_surrender_counts_as_capture(value, score):
    assert play(position(A5, f"surrender-counts-as-capture={value}"), "Pa1ccw/d15").score == score


@pytest.mark.parametrize(("value", "winner"), [("draw", None), ("mover-wins", 1),
                                               ("mover-loses", 0)])
def test_simultaneous_nine_when_both_lose_their_last_piece(value, winner):
    """§10: both sides without pieces after the same Power Spin: simultaneous-nine decides."""
    pos = position("SB7S/11S/13S/15S/15S/13S/11S/9S b8/11/13/15/15/13/11/8r 22 r",
                   f"simultaneous-nine={value}")
    play(pos, "Pa1ccw/h9")
    outcome = pos.outcome()
    assert pos.counts == [0, 0]
    assert outcome.reason == "simultaneous" and outcome.winner == winner


@pytest.mark.parametrize(("value", "over"), [("1", True), ("9", False), ("14", False)])
def test_win_threshold(value, over):
    pos = play(position(A1, f"win-threshold={value}"), "a2cw,a3-a2" if not over else "a2cw")
    assert (pos.outcome() is not None) == over


def test_win_threshold_out_of_range():
    with pytest.raises(BadRulesError):
        GAME.parse_rules("win-threshold=15")


def test_no_legal_action_pass():
    pos = position(STUCK, "no-legal-action=pass")
    assert pos.outcome() is None
    assert tokens(pos) == {"--"}
    play(pos, "--")
    assert pos.turn == 1 and pos.outcome() is None


def test_no_legal_action_lose():
    pos = position(STUCK, "no-legal-action=lose")
    outcome = pos.outcome()
    assert outcome.winner == 1 and outcome.reason == "no-legal-action"
    assert list(pos.legal_moves()) == []
    assert fails(pos, "--").code == "E-MOVE-AFTER-END"


@pytest.mark.parametrize(("value", "turns_to_draw"), [("off", None), ("2", 2), ("5", 5)])
def test_draw_no_capture_turns(value, turns_to_draw):
    pos = start(f"draw-no-capture-turns={value}")
    moves = ["b2-b1,--", "g2-g3,--", "b1-b2,--", "g3-g2,--", "b2-b1,--", "g2-g3,--"]
    ended_at = None
    for number, text in enumerate(moves, 1):
        play(pos, text)
        if pos.outcome() is not None:
            ended_at = number
            break
    assert ended_at == turns_to_draw
    if turns_to_draw:
        assert pos.outcome().reason == "no-capture-turns" and pos.outcome().winner is None


def test_draw_no_capture_turns_reset_by_capture():
    pos = position(A1, "draw-no-capture-turns=1")
    play(pos, "a2cw,a3-a2")
    assert pos.quiet == 0 and pos.outcome() is None


@pytest.mark.parametrize(("value", "draw"), [("off", False), ("threefold", True)])
def test_draw_repetition(value, draw):
    pos = start(f"draw-repetition={value}")
    play(pos, "b2-b1,b1-b2", "g2-g3,g3-g2", "b2-b1,b1-b2")
    assert pos.outcome() is None
    play(pos, "g2-g3,g3-g2")
    assert (pos.outcome() is not None) == draw
    if draw:
        assert pos.outcome().reason == "repetition"
        pos.pop()
        assert pos.outcome() is None


def test_rules_profile_and_bare_boolean():
    rules = GAME.parse_rules("standard; self-capture")
    assert rules["self-capture"] is True
    assert rules.describe() == "standard; self-capture=yes"
    with pytest.raises(BadRulesError):
        GAME.parse_rules("standard; teams=2")
    with pytest.raises(BadRulesError):
        GAME.parse_rules("draw-no-capture-turns=0")
    assert GAME.parse_rules("draw-no-capture-turns=12")["draw-no-capture-turns"] == 12


def test_check_tables_clean():
    assert GAME.check_tables() == []


def test_push_pop_restores_everything():
    pos = start()
    before = GAME.format_position(pos)
    for text in ["Pg4cw/a1/a2/a3", "Pe8cw", "b2-b1,c2cw"]:
        play(pos, text)
    for _ in range(3):
        pos.pop()
    assert GAME.format_position(pos) == before and pos.counts == [14, 14]
