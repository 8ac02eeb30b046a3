"""Shih acceptance examples A1–A10 (§17) and the capture subtleties of §9."""

from __future__ import annotations

import pytest

from notation_tools.games.base import EngineError, IllegalMoveError
from notation_tools.games.shih import GAME
from notation_tools.analysis.perft import perft

A1 = "HSH6S/11S/13S/15S/15S/13S/11S/9S r1b6/11/13/15/15/13/11/8r 22 b"
A2 = "HB7S/2SH8S/13S/15S/15S/13S/11S/9S r8/2b8/13/15/15/13/11/8r 22 b"
A3 = "HBH6S/11S/13S/15S/15S/13S/11S/9S r1b6/11/13/15/15/13/11/8r 22 b"
A4 = "2HB6S/11S/13S/15S/15S/13S/11S/9S rb1b5/11/13/15/15/13/11/8r 22 b"
A5 = "SB7S/11S/13S/15S/15S/13S/11S/9S r8/11/13/14b/14b/13/11/8r 22 b"
A7 = "HSH6S/11S/13S/15S/15S/13S/11S/9S b1b6/11/13/15/15/13/11/8r 22 b"
A8 = "B8S/B10S/13S/15S/15S/13S/11S/9S rr7/1r9/13/11bbbb/15/13/11/8r 22 b"
A9 = "9S/11S/13S/5S5H5S/15S/13S/11S/9S b8/11/13/6rbr6/15/13/11/9 22 r"


def play(fen: str, tokens: list[str], rules: str = "standard"):
    position = GAME.parse_position(fen, GAME.parse_rules(rules))
    for token in tokens:
        position.push(GAME.parse_move(token, position))
    return position


def after(fen: str, tokens: list[str], rules: str = "standard") -> str:
    return GAME.format_position(play(fen, tokens, rules))


def error_of(fen: str, tokens: list[str], rules: str = "standard") -> EngineError:
    with pytest.raises(EngineError) as caught:
        play(fen, tokens, rules)
    return caught.value


# (name, spec section, start, rules, tokens, expected position string)
LEGAL = [
    ("A1 rim capture by a Spin, then a Step", "§17 A1, §9.1 statement 5", A1, "standard",
     ["a2cw,a3-a2"], "HBH6S/11S/13S/15S/15S/13S/11S/9S 1b7/11/13/15/15/13/11/8r 22 r 1-0"),
    ("A2 double wall does not capture", "§17 A2, §9.1 statement 3", A2, "standard", ["b2ccw,--"],
     "HB7S/S2H8S/13S/15S/15S/13S/11S/9S r8/2b8/13/15/15/13/11/8r 22 r"),
    ("A3 open and re-close in one turn captures", "§17 A3, §9.1 statement 4", A3, "standard",
     ["a2ccw,a2cw"], "HBH6S/11S/13S/15S/15S/13S/11S/9S 2b6/11/13/15/15/13/11/8r 22 r 1-0"),
    ("A3 opening alone captures nothing", "§17 A3", A3, "standard", ["a2ccw,--"],
     "HSH6S/11S/13S/15S/15S/13S/11S/9S r1b6/11/13/15/15/13/11/8r 22 r"),
    ("A4 own piece inside: no capture", "§17 A4, §9.1 statement 2", A4, "standard", ["a3ccw,--"],
     "2H7S/11S/13S/15S/15S/13S/11S/9S rb1b5/11/13/15/15/13/11/8r 22 r"),
    ("A5 Power Spin, capture, surrender d15", "§17 A5, §8", A5, "standard", ["Pa1ccw/d15"],
     "HB7S/11S/13S/15S/15S/13S/11S/9S 9/11/13/15/14b/13/11/8r 12 r 1-1"),
    ("A5 surrender e15 is equally legal", "§17 A5, §8", A5, "standard", ["Pa1ccw/e15"],
     "HB7S/11S/13S/15S/15S/13S/11S/9S 9/11/13/14b/15/13/11/8r 12 r 1-1"),
    ("A5 surrender-counts-as-capture=no", "§17 A5, §11", A5,
     "standard; surrender-counts-as-capture=no", ["Pa1ccw/d15"],
     "HB7S/11S/13S/15S/15S/13S/11S/9S 9/11/13/15/14b/13/11/8r 12 r 1-0"),
    ("A7 self-enclosure: nothing by default", "§17 A7, §9.2 step 7", A7, "standard", ["a2cw,--"],
     "HBH6S/11S/13S/15S/15S/13S/11S/9S b1b6/11/13/15/15/13/11/8r 22 r"),
    ("A7 self-capture=yes loses a1 to Red", "§17 A7, §11", A7, "self-capture", ["a2cw,--"],
     "HBH6S/11S/13S/15S/15S/13S/11S/9S 2b6/11/13/15/15/13/11/8r 22 r 0-1"),
    ("A8 one Power Spin seals two regions", "§17 A8, §9.2 step 3", A8, "standard",
     ["Pa1cw/d13/d14/d15"], "H8S/B10S/13S/15S/15S/13S/11S/9S 9/11/13/11b3/15/13/11/8r 12 r 3-3"),
    ("A8 multi-region-capture=far-only", "§17 A8, §11", A8, "multi-region-capture=far-only",
     ["Pa1cw/d15"], "H8S/B10S/13S/15S/15S/13S/11S/9S rr7/11/13/11bbb1/15/13/11/8r 12 r 1-1"),
    ("A8 already-enclosed=exempt", "§17 A8, §9.2 step 5", A8, "already-enclosed=exempt",
     ["Pa1cw"], "H8S/B10S/13S/15S/15S/13S/11S/9S rr7/1r9/13/11bbbb/15/13/11/8r 12 r"),
    ("A9 first enemy turn: no capture yet", "§17 A9", A9, "standard", ["d7-d6,d7ccw"],
     "9S/11S/13S/5SHB3H5S/15S/13S/11S/9S b8/11/13/5r1br6/15/13/11/9 22 b"),
    ("A9 second enemy turn captures d8", "§17 A9", A9, "standard",
     ["d7-d6,d7ccw", "--", "d9-d10,d9cw"],
     "9S/11S/13S/5SHBHSH5S/15S/13S/11S/9S b8/11/13/5r3r5/15/13/11/9 22 b 0-1"),
    ("A9 defence: turn the wall facing you, step through", "§17 A9, §7 condition 4", A9,
     "standard", ["d7-d6,d7ccw", "d7cw,d8-d7"],
     "9S/11S/13S/5S5H5S/15S/13S/11S/9S b8/11/13/5rb1r6/15/13/11/9 22 r"),
]


@pytest.mark.parametrize(("name", "section", "start", "rules", "tokens", "expected"), LEGAL,
                         ids=[row[0] for row in LEGAL])
def test_acceptance_legal(name, section, start, rules, tokens, expected):
    assert after(start, tokens, rules) == expected


ILLEGAL = [
    ("A1 step before the spin is walled", "§17 A1, §6 condition 2", A1, "standard",
     ["a3-a2,a2cw"], "E-ILLEGAL-MOVE", "step a3-a2: the edge a3/a2 is walled (a2's wall)"),
    ("A1 spin of an occupied target", "§17 A1, §7 condition 1", A1, "standard", ["a1cw"],
     "E-ILLEGAL-MOVE", "spin a1: a1 is occupied (use a Power Spin)"),
    ("A1 no viewer behind its own wall", "§17 A1, §7 condition 3",
     "H8S/11S/13S/15S/15S/13S/11S/9S r1b6/11/13/15/15/13/11/8r 22 b", "standard", ["a2cw,--"],
     "E-ILLEGAL-MOVE", "spin a2: no Blue piece can see a2 (a3's own wall faces it)"),
    ("A1 action after the winning capture", "§17 A1, §10", A1 + " 8-0", "standard",
     ["a2cw,a3-a2"], "E-MOVE-AFTER-END", "a3-a2: the game ended after a2cw (Blue captured 9)"),
    ("A1 end mark after the winning capture", "§17 A1, §12.1", A1 + " 8-0", "standard",
     ["a2cw,--"], "E-MOVE-AFTER-END", "--: the game ended after a2cw (Blue captured 9)"),
    ("A5 capture without surrender", "§17 A5, §8", A5, "standard", ["Pa1ccw"],
     "E-ILLEGAL-MOVE", "Power Spin a1 captured 1 piece; the surrender list names 0"),
    ("A5 surrender of the captured piece", "§17 A5, §8", A5, "standard", ["Pa1ccw/a1"],
     "E-ILLEGAL-MOVE", "surrender a1: not a Blue piece"),
    ("A5 surrender of an enemy piece", "§17 A5, §8", A5, "standard", ["Pa1ccw/h9"],
     "E-ILLEGAL-MOVE", "surrender h9: not a Blue piece"),
    ("A5 no Power Spins left", "§17 A5, §8", A5.replace(" 22 ", " 02 "), "standard",
     ["Pa1ccw/d15"], "E-ILLEGAL-MOVE", "Power Spin a1: Blue has no Power Spins left"),
]


@pytest.mark.parametrize(("name", "section", "start", "rules", "tokens", "code", "message"),
                         ILLEGAL, ids=[row[0] for row in ILLEGAL])
def test_acceptance_illegal(name, section, start, rules, tokens, code, message):
    error = error_of(start, tokens, rules)
    assert error.code == code
    assert error.message == message


def test_a1_ninth_capture_wins_blue():
    """§17 A1 / §10: with 8-0, a2cw alone reaches nine and the result is 1-0."""
    position = play(A1 + " 8-0", ["a2cw"])
    outcome = position.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "threshold"
    assert GAME.result_text(outcome) == "1-0"
    assert list(position.legal_moves()) == []


@pytest.mark.parametrize(("option", "result"), [("draw", "1/2-1/2"), ("mover-wins", "1-0"),
                                                ("mover-loses", "0-1")])
def test_a6_both_reach_nine(option, result):
    """§17 A6: Pa1ccw/d15 from 8-8 gives 9-9, decided by simultaneous-nine."""
    position = play(A5 + " 8-8", ["Pa1ccw/d15"], f"simultaneous-nine={option}")
    assert GAME.format_position(position).endswith(" 9-9")
    assert GAME.result_text(position.outcome()) == result


def test_a10_perft_1_of_default_start():
    """§17 A10 / §16: perft(1) of the default start is 4354, split as the spec says."""
    position = GAME.start_position(GAME.parse_rules("standard"))
    turns = list(position.legal_moves())
    assert len(turns) == 4354 == perft(position, 1)
    kinds = {"pass": 0, "one": 0, "two": 0, "power": 0}
    for turn in turns:
        if not turn.actions:
            kinds["pass"] += 1
        elif type(turn.actions[0]).__name__ == "PowerSpin":
            kinds["power"] += 1
        else:
            kinds["one" if len(turn.actions) == 1 else "two"] += 1
    assert kinds == {"pass": 1, "one": 15, "two": 240, "power": 4098}
    firsts = sorted({GAME.format_move(turn, position).split(",")[0] for turn in turns
                     if len(turn.actions) == 1 and turn.early_end})
    assert firsts == sorted(["b2-b1", "b4-b3", "b6-b5", "b8-b7", "b10-b9"]
                            + [f"b{k}{d}" for k in (1, 3, 5, 7, 9) for d in ("cw", "ccw")])


def test_a10_capturing_power_spins():
    """§16: 28 capturing first Power Spins: 10 take one piece, 10 two, 8 three."""
    position = GAME.start_position(GAME.parse_rules("standard"))
    sizes: dict[tuple[int, bool], int] = {}
    for turn in position.legal_moves():
        action = turn.actions[0] if turn.actions else None
        if type(action).__name__ == "PowerSpin" and action.surrender:
            sizes[(action.target, action.clockwise)] = len(action.surrender)
    counts = [list(sizes.values()).count(k) for k in (1, 2, 3)]
    assert counts == [10, 10, 8]
    non_capturing = sum(1 for turn in position.legal_moves() if turn.actions
                        and type(turn.actions[0]).__name__ == "PowerSpin"
                        and not turn.actions[0].surrender)
    assert non_capturing == 136


@pytest.mark.parametrize(("token", "captured"), [("Pg2cw", ["g2", "h1"]),
                                                 ("Pg4cw", ["g4", "h2", "h3"]),
                                                 ("Ph1ccw", ["h1"])])
def test_example_capturing_power_spins(token, captured):
    """§16: the named capturing Power Spins capture exactly those pieces."""
    position = GAME.start_position(GAME.parse_rules("standard"))
    surrender = ["a1", "a2", "a3"][:len(captured)]
    turn = GAME.parse_move(token + "".join(f"/{s}" for s in surrender), position)
    effect = position.effects(turn)[0]
    from notation_tools.games.shih.pieces import NAMES
    assert [NAMES[s] for s in effect.captured] == captured
    assert effect.surrendered == tuple(range(len(captured)))


def test_capture_is_judged_per_action_not_per_turn():
    """§9.3: the re-closing Spin of A3 compares with the position just before it."""
    position = GAME.parse_position(A3, GAME.parse_rules("standard"))
    turn = GAME.parse_move("a2ccw,a2cw", position)
    first, second = position.effects(turn)
    assert first.captured == () and second.captured == (0,)


def test_multiple_regions_captured_at_once_report_both_regions():
    """§9.2 step 6: A8's Power Spin captures the regions of both t and n together."""
    position = GAME.parse_position(A8, GAME.parse_rules("standard"))
    turn = GAME.parse_move("Pa1cw/d13/d14/d15", position)
    effect = position.effects(turn)[0]
    assert sorted(effect.regions) == [1, 2]
    assert len(effect.captured) == 3


def test_turning_a_wall_onto_the_rim_never_captures():
    """§9.3 statement 5: a wall turned onto a rim edge walls nothing new (§9.2 step 1)."""
    # a1 Red sealed by a2's wall and b2's wall; a1's own wall turned from H onto its S rim.
    fen = "HBH6S/S10S/13S/15S/15S/13S/11S/9S r8/11/13/14b/15/13/11/8r 22 b"
    position = GAME.parse_position(fen, GAME.parse_rules("standard"))
    assert position.region(0) == {0}
    turn = GAME.parse_move("Pa1cw", position)  # H -> S: onto the rim
    assert position.effects(turn)[0].captured == ()


def test_step_never_captures():
    """§6: a Step changes no wall, so a step into place never seals anything."""
    position = GAME.parse_position(A1, GAME.parse_rules("standard"))
    for turn in position.legal_moves():
        for action, effect in zip(turn.actions, position.effects(turn)):
            if effect.kind == "step":
                assert effect.captured == ()


def test_illegal_never_changes_position():
    """parse_move on an illegal token leaves the position as it was (G2)."""
    position = GAME.parse_position(A5, GAME.parse_rules("standard"))
    before = GAME.format_position(position)
    with pytest.raises(IllegalMoveError):
        GAME.parse_move("Pa1ccw/d15/e15", position)
    assert GAME.format_position(position) == before
