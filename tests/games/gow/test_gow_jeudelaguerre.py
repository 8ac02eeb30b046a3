"""JeuDeLaGuerre's readings (issue #16): §8.4 charge-directions=last-moved, §8.1
attack-needs-move, §12.2 the jeudelaguerre profile, §14.4 ebarjou saves replayed under it."""

from __future__ import annotations

import pytest

from notation_tools.parallel.batch import iter_records
from notation_tools.analysis.replay import replay
from notation_tools.games.base import EngineError
from notation_tools.games.gow import GAME
from notation_tools.games.gow.pieces import SQUARE

# AE-3's charge (§20) with one cavalry still to move: the column I12-K12 above the target L12
# and a single cavalry that comes to L11 beside it.
BEFORE_HORIZONTAL = ("25/25/25/25/25/25/25/11I13/11C13/11C13/11C13/9C1iiii10/11i13/25/25/25/"
                     "25/25/25/25 N B15,D8,T3,T23 - 21")
# ... or the column's nearest cavalry that comes down to K12 from K13.
BEFORE_VERTICAL = ("25/25/25/25/25/25/25/11I13/11C13/11C13/12C12/10Ciiii10/11i13/25/25/25/"
                   "25/25/25/25 N B15,D8,T3,T23 - 21")


def offence_after(fen: str, rules: str | None, moves: str) -> int:
    position = GAME.parse_position(fen, GAME.parse_rules(rules))
    position = position._began()
    for token in moves.split(","):
        origin, dest = token.split("-")
        from notation_tools.games.gow.moves import Step
        position.push(Step(SQUARE[origin], SQUARE[dest]))
    return position.combat(SQUARE["L12"]).offence


def test_8_4_last_moved_charges_only_on_the_last_movers_line():
    """§8.4 charge-directions=last-moved: the column on the line of the last unit moved
    charges (7 each); the other column's cavalry fire (4 within two squares)."""
    # L11 moved last: it charges alone (7); K12 and J12 fire (4 + 4); I12 is out of range.
    assert offence_after(BEFORE_HORIZONTAL, "charge-directions=last-moved", "L10-L11") == 15
    # K12 moved last: the column I12-K12 charges (21); L11 fires (4).
    assert offence_after(BEFORE_VERTICAL, "charge-directions=last-moved", "K13-K12") == 25


@pytest.mark.parametrize("rules, offence", [
    (None, 28),                                    # all: both columns charge (AE-3)
    ("charge-directions=all", 28),
    ("charge-directions=single", 25),              # the longest only
    ("charge-directions=last-moved", 15),          # the last mover's line only
])
def test_8_4_every_value_of_charge_directions(rules, offence):
    assert offence_after(BEFORE_HORIZONTAL, rules, "L10-L11") == offence


def test_8_4_last_moved_with_an_unrelated_last_move_charges_nothing():
    """§8.4: when the last unit moved is on no line through the target, no column charges."""
    fen = BEFORE_VERTICAL.replace("25/25/25/25/25/25/25/11I13", "A24/25/25/25/25/25/25/11I13")
    assert offence_after(fen, "charge-directions=last-moved", "K13-K12,A1-A2") == 4 + 4 + 4


def test_8_1_attack_needs_move():
    """§8.1 attack-needs-move: yes refuses an attack before any move of the turn."""
    fen = BEFORE_VERTICAL
    strict = GAME.parse_position(fen, GAME.parse_rules("attack-needs-move=yes"))
    with pytest.raises(EngineError) as info:
        GAME.parse_move("xL12", strict)
    assert info.value.code == "E-ATTACK-NO-MOVE" and info.value.rule == "§8.1"
    assert GAME.parse_move("K13-K12,xL12", strict).attack is not None
    assert not strict._began().legal_attacks()
    lenient = GAME.parse_position(fen, GAME.parse_rules("attack-needs-move=no"))
    assert GAME.parse_move("xL12", lenient).attack is not None
    assert lenient._began().legal_attacks()


def test_12_2_the_jeudelaguerre_profile():
    rules = GAME.parse_rules("jeudelaguerre")
    assert rules["charge-directions"] == "last-moved" and rules["attack-needs-move"] is True
    assert rules["retreat-to-enemy-arsenal"] == "destroy"
    assert rules["relay-activation"] == "line-or-adjacent"
    assert rules.describe() == "jeudelaguerre"
    # the defaults and the other profiles are unchanged
    assert GAME.parse_rules(None)["charge-directions"] == "all"
    assert GAME.parse_rules("book")["attack-needs-move"] is False


def test_14_4_an_ebarjou_save_is_replayed_under_jeudelaguerre(tmp_path):
    start = GAME.start_position(GAME.parse_rules(None))
    from notation_tools.games.gow.formats import FILE_FORMATS

    ebarjou = next(f for f in FILE_FORMATS if f.name == "ebarjou")
    path = tmp_path / "save.txt"
    path.write_text(ebarjou.write(start, [], {}, start), encoding="utf-8")
    (record,) = list(iter_records([str(path)]))
    assert record.tag("Rules") == "jeudelaguerre"
    assert replay(record).rules.describe() == "jeudelaguerre"
    assert replay(record, rules_text="debord").rules.describe() == "debord"
