"""Elevation rules one by one (§4, §5, §6.1, §7, §8), each test naming its section."""

from __future__ import annotations

import pytest

from notation_tools.games.base import EngineError, IllegalMoveError, MoveSyntaxError
from notation_tools.games.elevation import GAME, Move, PieceTurn, Turn
from notation_tools.analysis.perft import perft

START = "333333/333333/333333/333333/333333/333333 sfddfs/6/6/6/6/SFDDFS w"
E1 = "333333/333333/333333/333333/333333/333333 5s/6/6/2S3/6/6 w"


def rules(text: str = ""):
    return GAME.parse_rules(text or None)


def pos_of(fen: str, rules_text: str = ""):
    return GAME.parse_position(fen, rules(rules_text))


def play(fen: str, token: str, rules_text: str = "") -> str:
    pos = pos_of(fen, rules_text)
    pos.push(GAME.parse_move(token, pos))
    return GAME.format_position(pos)


def message(fen: str, token: str, rules_text: str = "", code: str = "E-ILLEGAL-MOVE") -> str:
    with pytest.raises(EngineError) as info:
        GAME.parse_move(token, pos_of(fen, rules_text))
    assert info.value.code == code, info.value.message
    assert info.value.rule
    return info.value.message


# ---- §7 diagnostics table ---------------------------------------------------------------

@pytest.mark.parametrize("fen, token, expected", [
    (E1, "Fc3:d4>b2,c3-d4", "Fc3: c3 holds a Samurai"),
    (E1, "c3:c4>c3,c3-d4", "dig c4>c3: c3 is the acting piece's own square, not adjacent to it"),
    (E1, "c3:a5>b2,c3-d4", "dig a5>b2: a5 is not adjacent to the acting piece on c3"),
    (E1, "c3:d4>d4,c3-d5", "dig d4>d4: source and destination must differ"),
    ("333333/333333/333333/333333/303333/333333 5s/6/6/2S3/6/6 w", "c3:b2>c2,c3-d4",
     "dig b2>c2: b2 has no tile (height 0)"),
    ("333333/333333/333333/333333/333333/333333 5s/6/3s2/2S3/6/6 w", "c3:d4>b2,c3-b3",
     "dig d4>b2: d4 holds a Black piece (undermining is off)"),
    ("333333/333333/333333/333333/333333/333333 5s/6/2F3/2S3/6/6 w", "c3:d4>c4,c3-d4",
     "dig d4>c4: c4 is occupied"),
    (E1, "c3:d4>b2,c3-e5", "move c3-e5: e5 is not adjacent to c3"),
    (E1, "c3:d4>b2,d3-d4", "move d3-d4: the acting piece stands on c3"),
    ("333333/333333/333333/333333/343333/333333 5s/6/6/2S3/6/6 w", "c3:d4>b2,c3-b2",
     "move c3-b2: climbs 2 (3 to 5); the limit is 1"),
    ("333333/333333/333333/333333/333333/333333 5s/6/3F2/2S3/6/6 w", "c3:b2>b3,c3-d4",
     "move c3-d4: d4 holds a White piece"),
    (E1, "c3:c3-d4", "c3:c3-d4: a Samurai must dig and move (lone moves are Dragon C2 only)"),
    (E1, "c3=F:d4>b2,c3-d4", "c3=F: only a Fish can make a fish move"),
    ("333333/333333/333333/333333/333333/333333 5s/6/6/6/6/F5 w", "a1:b1>a2,a1-b2-c1",
     "fish move a1-b2-c1: not a straight diagonal"),
])
def test_diagnostics_table(fen, token, expected):
    """§7: the messages of the diagnostics table."""
    assert message(fen, token) == expected


def test_capture_too_low_without_mark():
    """§4.3, §7: an unmarked step onto an enemy too high to capture names both facts."""
    fen = "333333/333333/333333/333333/333333/333333 5s/6/3s2/2S3/6/6 w"
    assert message(fen, "c3:b2>b3,c3-d4") == (
        "move c3-d4: d4 holds a Black Samurai, and c3 is level with d4 (a capture needs 2)")


def test_undermine_misuse_message():
    """§8.2, §7: with undermining on, a basic move may not use an undermining dig."""
    fen = "333333/333333/333233/333333/333333/333333 5s/6/3s2/2S3/6/6 w"
    text = message(fen, "c3:d4>b2,c3xd4", "undermining")
    assert "an undermining dig forbids moving this turn" in text
    assert "samurai-undermine-and-move is off" in text


def test_u_needs_an_enemy_under_the_dig():
    """§8.2: U is an undermining dig; a lone plain dig is no option."""
    text = message(E1, "c3:d4>b2", "undermining")
    assert "U is an undermining dig" in text
    assert message(E1, "c3=U:d4>b2") == "c3=U: U (undermine) needs undermining=yes"


# ---- §4.2 digs ------------------------------------------------------------------------

def test_dig_may_empty_a_square_into_ocean():
    """§1, §4.2: a square may be dug down to height 0 (the ocean)."""
    fen = "333333/333333/333333/333333/313333/333333 5s/6/6/2S3/6/6 w"
    assert play(fen, "c3:b2>b3,c3-d4").startswith("333333/333333/333333/343333/303333/")


def test_dig_target_may_be_the_vacated_square():
    """§4.2, §6.1: in a move-first turn the square just left is empty and may receive a tile."""
    assert play(E1, "c3:c3-d4,d5>c3") == "333333/333233/333333/334333/333333/333333 5s/6/3S2/6/6/6 b"


def test_dig_target_holding_a_piece_is_illegal_even_friendly():
    """§4.2(4): the destination holds no piece at all."""
    fen = "333333/333333/333333/333333/333333/333333 5s/6/6/2SF2/6/6 w"
    assert message(fen, "c3:b2>d3,c3-c4") == "dig b2>d3: d3 is occupied"


# ---- §4.3 moves -----------------------------------------------------------------------

def test_any_drop_is_allowed():
    """§4.3: any drop is allowed."""
    fen = "333333/333333/333333/333333/333333/333333 5s/6/6/2S3/6/6 w"
    deep = "333333/333333/333333/303333/333333/333333 5s/6/6/2S3/6/6 w".replace("303333", "339333")
    assert play(deep, "c3:c2>b2,c3-b3").split()[1] == "5s/6/6/1S4/6/6"
    assert fen


def test_capture_is_not_compulsory():
    """§4.3: capturing is allowed, never compulsory: the other steps stay legal."""
    fen = "333333/333333/333233/335333/333333/333333 5s/6/3s2/2S3/6/6 w"
    assert play(fen, "c3:b2>b3,c3-c4").split()[1] == "5s/6/2Ss2/6/6/6"


# ---- §4.4-§4.6 fish and dragon --------------------------------------------------------

def test_fish_move_first_then_dig_around_the_end():
    """§4.4, §6.1: ``a1:a1-b2-c3,b4>d4``: the dig is made around c3."""
    fen = "333333/333333/333333/333333/333333/333333 5s/6/6/6/6/F5 w"
    assert play(fen, "a1:a1-b2-c3,b4>d4") == "333333/333333/323433/333333/333333/333333 5s/6/6/2F3/6/6 b"


def test_fish_through_empty_climb_onto_middle_square():
    """§4.4 through-empty: the step onto M keeps the climb limit of 1."""
    fen = "333333/333333/333333/333333/353333/333333 5s/6/6/6/6/F5 w"
    assert "onto b2; the limit is 1" in message(fen, "a1:a2>b1,a1-b2-c3")
    assert play(fen, "a1:a2>b1,a1-b2-c3", "fish-diag2-model=jump")


def test_fish_jump_cannot_mark_the_middle_square():
    """§4.4 jump: nothing is captured on M."""
    fen = "333333/333333/333333/333333/313333/333333 5s/6/6/6/1s4/F5 w"
    assert message(fen, "a1:a2>b1,a1xb2-c3", "fish-diag2-model=jump", "E-CAPTURE-MARK")


def test_fish_two_free_steps_may_capture_on_the_first_step():
    """§4.6: with two-free-diagonal-steps the first step may capture too."""
    fen = "333333/333333/333333/233333/313333/333333 5s/6/6/6/1s4/F5 w"
    after = play(fen, "a1:a2>b1,a1xb2-a3", "fish-diag2-model=two-free-diagonal-steps")
    assert after == "333333/333333/333333/233333/213333/343333 5s/6/6/F5/6/6 b"
    assert "may not return to a1" in message(fen, "a1:a2>b1,a1xb2-a1",
                                             "fish-diag2-model=two-free-diagonal-steps")


def test_only_a_fish_moves_two_squares_with_a_dig():
    """§4.1: a Samurai cannot make a fish move."""
    fen = "333333/333333/333333/333333/333333/333333 5s/6/6/6/6/S5 w"
    assert "only a Fish" in message(fen, "a1:b1>a2,a1-b2-c3")


def test_dragon_dig_twice_may_be_a_null_pair():
    """§4.5 DD: the second dig may undo the first by default."""
    fen = "333333/333333/333333/333333/333333/333333 3d2/6/6/6/6/3D2 w"
    assert play(fen, "d1:c2>e2,e2>c2").split()[0] == "333333/333333/333333/333333/333333/333333"
    assert play(fen, "d1:c2>e2,d2>e2").split()[0] == "333333/333333/333333/333333/332253/333333"


def test_dragon_c2_may_capture():
    """§4.5 C2: a one-square move with climb limit 2 may capture."""
    fen = "333333/333333/313333/333333/333333/333333 5s/6/1s4/2D3/6/6 w"
    assert play(fen, "c3:c3xb4").split()[1] == "5s/6/1D4/6/6/6"


def test_dragon_mm_return_to_start_allowed_by_default():
    """§4.5 MM: the Dragon may end on its starting square."""
    fen = "333333/333333/333333/333333/333333/333333 3d2/6/6/6/6/3D2 w"
    assert GAME.parse_move("d1:d1-d2-d1", pos_of(fen)).option == "MM"


def test_two_paths_are_a_syntax_error():
    """§6.1: a two-square move is one path, never two move actions."""
    fen = "333333/333333/333333/333333/333333/333333 3d2/6/6/6/6/3D2 w"
    with pytest.raises(MoveSyntaxError) as info:
        GAME.parse_move("d1:d1-d2,d2-d3", pos_of(fen))
    assert info.value.code == "E-SYNTAX"


# ---- §6.1 implied option and markers -----------------------------------------------------

E2C2 = "333333/333333/333333/333333/353333/333333 5s/6/6/2D3/6/6 w"


def test_marker_c2_with_basic_dig_optional():
    """§6.1: with basic-dig-optional a Dragon's lone move is B by default, =C2 to say C2."""
    pos = pos_of(E2C2, "basic-dig-optional")
    plain = GAME.parse_move("c3:c3-d4", pos)
    high = GAME.parse_move("c3=C2:c3-d4", pos)
    assert (plain.option, high.option) == ("B", "C2")
    assert GAME.format_move(plain, pos) == "c3:c3-d4"
    assert GAME.format_move(high, pos) == "c3=C2:c3-d4"
    climb = GAME.parse_move("c3:c3-b2", pos)  # B cannot climb 2, so the implied option is C2
    assert climb.option == "C2" and GAME.format_move(climb, pos) == "c3:c3-b2"
    assert "c3=B:c3-b2" not in {GAME.format_move(m, pos) for m in pos.legal_moves()}
    tokens = [GAME.format_move(m, pos) for m in pos.legal_moves()]
    assert len(tokens) == len(set(tokens))


def test_marker_u_with_samurai_undermine_and_move_optional():
    """§6.1: a Samurai's lone undermining dig is B with both options, =U otherwise."""
    fen = "333333/333333/333233/333333/333333/333333 5s/6/3s2/2S3/6/6 w"
    pos = pos_of(fen, "undermining; samurai-undermine-and-move; basic-move-optional")
    assert GAME.parse_move("c3:d4>b2", pos).option == "B"
    undermine = GAME.parse_move("c3=U:d4>b2", pos)
    assert undermine.option == "U" and GAME.format_move(undermine, pos) == "c3=U:d4>b2"


def test_marker_must_fit_the_actions():
    """§6.1: a marker that does not fit the actions is an error."""
    assert message(E1, "c3=DD:d4>b2,c3-d4") == "c3=DD: only a Dragon can dig twice (DD); this is a Samurai"
    fen = "333333/333333/333333/333333/333333/333333 5s/6/6/2D3/6/6 w"
    assert message(fen, "c3=MM:d4>b2,c3-d4") == "c3=MM: MM is one two-square path, not a dig and a one-square move"


def test_explicit_notation():
    """§6.3: the explicit form always carries letter and option."""
    pos = GAME.start_position(rules())
    move = GAME.parse_move("Dd1=DD:c2>e2,e2>c2", pos)
    assert GAME.format_move(move, pos, "elevation-explicit") == "Dd1=DD:c2>e2,e2>c2"
    assert GAME.format_move(move, pos) == "d1:c2>e2,e2>c2"
    with pytest.raises(MoveSyntaxError):
        GAME.parse_move("d1:c2>e2,e2>c2", pos, "elevation-explicit")
    with pytest.raises(MoveSyntaxError):
        GAME.parse_move("Dd1=DD:c2>e2,e2>c2", pos, "elevation")
    with pytest.raises(MoveSyntaxError):
        GAME.parse_move("d1:c2>e2,e2>c2", pos, "pgn")


def test_notation_is_case_sensitive():
    """§6.1: squares lower case, letters and codes upper case."""
    pos = GAME.start_position(rules())
    for text in ("C1:c2>b2,c1-c2", "c1:C2>b2,c1-c2", "c1=b:c2>b2,c1-c2", "dc1:c2>b2,c1-c2",
                 "c1:c2>b2, c1-c2", " c1:c2>b2,c1-c2", "c1:c2>b2,c1-c2 "):
        with pytest.raises(MoveSyntaxError):
            GAME.parse_move(text, pos)


def test_syntax_error_offset():
    """§7: a syntax error points at the fault."""
    with pytest.raises(MoveSyntaxError) as info:
        GAME.parse_move("c1:c2>b2;c1-c2", GAME.start_position(rules()))
    assert info.value.offset == 8


def test_example_tokens_of_section_6_2_parse():
    """§6.2: the example tokens are well formed."""
    from notation_tools.games.elevation.notation import parse_pattern
    for token in ["c3:d4>b2,c3-d4", "c3:c3-d4,e5>c5", "c3:b2>b3,c3xd4", "a1:b1>a2,a1-b2xc3",
                  "a1:a1-b2-c3,b4>d4", "d1:c2>e2,e2>c2", "e5:e5-d4-c3", "d4:d4xd5xd6", "c3:c3-b2",
                  "c3:d4>b2", "e5=C2:e5-e6", "Sc3=B:d4>b2,c3-d4", "c1:c2>b2,c1-c2&d1:d2>e2,d1-d2"]:
        assert parse_pattern(token)


# ---- §5 end of game -------------------------------------------------------------------

def test_side_to_move_without_pieces_loses():
    """§5: a side with no pieces has lost."""
    pos = pos_of("333333/333333/333333/333333/333333/333333 6/6/6/6/6/S5 b")
    outcome = pos.outcome()
    assert outcome.winner == 0 and outcome.reason == "all-pieces-captured"
    pos = pos_of("333333/333333/333333/333333/333333/333333 6/6/6/6/6/S5 w")
    assert pos.outcome().winner == 0


def test_outcome_is_none_at_start_and_pop_restores():
    """§5: push/pop keep outcome and repetition history in step."""
    pos = pos_of("333333/333333/333333/333333/333333/333333 3d2/6/6/6/6/3D2 w")
    start = GAME.format_position(pos)
    for token in ["d1:c2>e2,e2>c2", "d6:c5>e5,e5>c5"] * 2:
        pos.push(GAME.parse_move(token, pos))
    assert pos.outcome() is not None
    pos.pop()
    assert pos.outcome() is None
    while pos.move_stack:
        pos.pop()
    assert GAME.format_position(pos) == start and pos.outcome() is None


def test_consecutive_undo_run_is_broken_by_a_real_move():
    """§5 consecutive-undo-6-plies: the six undoing plies must be consecutive."""
    pos = pos_of("333333/333333/333333/333333/333333/333333 3d2/6/6/6/6/3D2 w",
                 "repetition-rule=consecutive-undo-6-plies")
    # Ply 5 changes the terrain, so plies 6 is not undoing; plies 7-12 are.
    tokens = ["d1:c2>e2,e2>c2", "d6:c5>e5,e5>c5"] * 2 + ["d1:c2>e2,d2>e2"] + [
        "d6:c5>e5,e5>c5", "d1:c2>e2,e2>c2"] * 3
    for token in tokens:
        pos.push(GAME.parse_move(token, pos))
        assert pos.outcome() is None
    pos.push(GAME.parse_move("d6:c5>e5,e5>c5", pos))
    assert pos.outcome().reason == "repetition"


def test_copy_is_independent():
    pos = GAME.start_position(rules())
    other = pos.copy()
    other.push(next(iter(other.legal_moves())))
    assert GAME.format_position(pos).endswith(" w") and GAME.format_position(other).endswith(" b")
    assert other.copy().move_stack == other.move_stack


# ---- §8.1 two pieces per turn -----------------------------------------------------------

def test_two_pieces_missing_second_piece_turn():
    """§8.1: when another piece can act, the turn has two piece-turns."""
    text = message(START, "c1:c2>b2,c1-c2", "two-pieces-per-turn")
    assert "needs a second piece-turn" in text


def test_two_pieces_single_when_no_other_piece_can_act():
    """§8.1: a lone piece makes a one-piece turn."""
    fen = "333333/333333/333333/333333/333333/333333 5s/6/6/2S3/6/6 w"
    pos = pos_of(fen, "two-pieces-per-turn")
    turn = GAME.parse_move("c3:d4>b2,c3-d4", pos)
    assert isinstance(turn, Turn) and len(turn.parts) == 1
    assert all(len(t.parts) == 1 for t in pos.legal_moves())


def test_two_pieces_game_over_after_first_piece_turn():
    """§8.1: if the first piece-turn takes the last enemy piece, the turn ends there."""
    fen = "333133/333333/333533/333333/333333/333333 3s2/3f2/3D2/6/6/S5 w"
    pos = pos_of(fen, "two-pieces-per-turn")
    turn = GAME.parse_move("d4:d4xd5xd6", pos)
    assert len(turn.parts) == 1
    assert "the game ended with the first piece-turn" in message(
        fen, "d4:d4xd5xd6&a1:b1>a2,a1-b2", "two-pieces-per-turn")
    pos.push(turn)
    assert pos.outcome().winner == 0


def test_two_pieces_second_turn_sees_the_first():
    """§8.1: the second piece-turn is judged after the first (here d2 now holds a Dragon)."""
    text = message(START, "c1:c2>b2,c1-d2&d1:e2>d2,d1-e2", "two-pieces-per-turn")
    assert text == "dig e2>d2: d2 is occupied"


def test_push_accepts_a_move_or_a_turn():
    pos = GAME.start_position(rules())
    move = GAME.parse_move("c1:c2>b2,c1-c2", pos)
    assert isinstance(move, PieceTurn) and isinstance(move, Move)
    pos.push(move)
    assert pos.turn == 1
    pos = GAME.start_position(rules("two-pieces-per-turn"))
    turn = GAME.parse_move("c1:c2>b2,c1-c2&d1:d2>e2,d1-d2", pos)
    assert isinstance(turn, Turn) and isinstance(turn, Move)
    pos.push(turn)
    assert pos.turn == 1


def test_illegal_move_errors_are_value_errors():
    assert issubclass(IllegalMoveError, ValueError)


# ---- §8.3 the ocean rule on every option ------------------------------------------------

def test_ocean_rule_applies_to_mm_c2_and_fish_steps():
    """§8.3: judged where the piece stands at each step, for MM, C2 and fish moves too."""
    dragon = "333333/333333/333333/333333/333333/305333 5s/6/6/6/6/1D4 w"
    assert "climbs 5" in message(dragon, "b1:b1-c1")
    assert play(dragon, "b1:b1-c1", "ocean-free-move=climb").split()[1] == "5s/6/6/6/6/2D3"
    assert play(dragon, "b1:b1-a1-a2", "ocean-free-move=climb").split()[1] == "5s/6/6/6/D5/6"
    fish = "333333/333333/333333/333333/353333/033333 5s/6/6/6/6/F5 w"
    assert play(fish, "a1:b1>a2,a1-b2-c3", "ocean-free-move=climb").split()[1] == "5s/6/6/2F3/6/6"
    assert "onto b2" in message(fish, "a1:b1>a2,a1-b2-c3")


def test_ocean_climb_capture_upwards():
    """§8.3 climb-capture: from the ocean an enemy may be captured whatever the heights."""
    fen = "333333/333333/333333/333333/363333/033333 5s/6/6/6/1f4/D5 w"
    assert message(fen, "a1:a1xb2", "ocean-free-move=climb").startswith("move a1xb2: a1 is 6 levels below")
    assert play(fen, "a1:a1xb2", "ocean-free-move=climb-capture").split()[1] == "5s/6/6/6/1D4/6"


def test_copy_then_pop_keeps_both_positions_sound():
    """push/pop on a copy never disturbs the original's history."""
    pos = GAME.start_position(rules())
    for token in ["c1:c2>b2,c1-c2", "d6:d5>c5,d6-d5"]:
        pos.push(GAME.parse_move(token, pos))
    twin = pos.copy()
    pos.pop()
    pos.push(next(iter(pos.legal_moves())))
    twin.pop()
    twin.pop()
    assert GAME.format_position(twin) == START


def test_legal_moves_origin_filter():
    """G1: ``legal_moves(origin=...)`` keeps one piece's turns."""
    pos = GAME.start_position(rules())
    assert len(list(pos.legal_moves(origin=0))) == 66
    assert list(pos.legal_moves(origin=14)) == []


def test_sniff():
    assert GAME.dialect.sniff(["c1:c2>b2,c1-c2", "d6:d5>c5,d6-d5"])
    assert not GAME.dialect.sniff(["e4", "e5"]) and not GAME.dialect.sniff([])


def test_two_pieces_perft_1_regression():
    """§8.1: whole turns from the start with two-pieces-per-turn (this engine's count,
    cross-checked by generation in the slow suite)."""
    pos = GAME.start_position(rules("two-pieces-per-turn"))
    assert perft(pos, 1) == 1_034_602


@pytest.mark.slow
def test_two_pieces_perft_1_by_generation():
    pos = GAME.start_position(rules("two-pieces-per-turn"))
    assert len(set(pos.legal_moves())) == 1_034_602
