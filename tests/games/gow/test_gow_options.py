"""Every value of every rule option of spec §12.1 (those not already covered by the acceptance
examples get their own position here), the profiles of §12.2 and the Rules grammar."""

from __future__ import annotations

import pytest

from notation_tools.games.base import BadRulesError, EngineError
from notation_tools.games.gow import GAME
from notation_tools.games.gow.pieces import SQUARE
from notation_tools.analysis.perft import perft


def pos(fen: str, rule_text: str | None = None):
    return GAME.parse_position(fen, GAME.parse_rules(rule_text))


def code_of(position, token: str) -> str | None:
    try:
        GAME.parse_move(token, position)
    except EngineError as error:
        return error.code
    return None


def test_every_option_has_its_values_tested():
    """Guard: the option table is what this file, test_gow_acceptance.py and
    test_gow_jeudelaguerre.py cover (§12.1)."""
    expected = {
        "charge-size": ("any", "four"), "charge-directions": ("all", "single", "last-moved"),
        "attack-needs-move": ("no", "yes"),
        "fire-blocked-by": ("none", "enemy", "any"), "relay-activation": ("line", "line-or-adjacent"),
        "relay-range": ("2", "0"), "relay-status": ("covered-or-adjacent", "covered", "always"),
        "adjacency-via-relays": ("no", "yes"), "offline-units-block": ("yes", "no"),
        "two-step-via-online": ("no", "yes"), "terrain-bonus-scope": ("unit", "target"),
        "retreat-range": ("speed", "one"), "offline-retreat": ("destroy", "move"),
        "failed-retreat-uses-move": ("no", "yes"), "retreat-to-enemy-arsenal": ("forbid", "destroy"),
        "attack-minimum": ("positive", "any", "winning"), "moves-after-arsenal": ("allow", "forbid"),
        "relay-on-enemy-arsenal": ("allow", "forbid"), "relay-collapse-win": ("no", "yes"),
        "map": ("standard",)}
    table = {o.name: o.values for o in GAME.options}
    assert set(table) == set(expected)
    for name, values in expected.items():
        assert set(table[name]) == set(values), name
        assert GAME.option_table[name].default == values[0], name


def test_profiles_s12_2():
    rsg = GAME.parse_rules("rsg")
    assert (rsg["relay-range"], rsg["two-step-via-online"], rsg["relay-collapse-win"]) == (0, True, True)
    book = GAME.parse_rules("book")
    assert book["relay-activation"] == "line-or-adjacent"
    debord = GAME.parse_rules(None)
    assert debord.profile == "debord" and debord.describe() == "debord"
    mixed = GAME.parse_rules(" rsg ; relay-range = 2 ")
    assert mixed.describe() == "rsg; relay-range=2"
    assert GAME.check_tables() == []


@pytest.mark.parametrize("text", ["chess", "debord; charge-size=five", "debord; nope=1",
                                  "map=custom", "relay-range=1"])
def test_bad_rules_s12_1(text):
    with pytest.raises(BadRulesError):
        GAME.parse_rules(text)


# fire-blocked-by (§8.2): North artillery J8 fires at L8 across K8.
FIRE = "25/25/25/25/25/25/25/25/25/7A17/7{}17/7i17/25/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 21"


@pytest.mark.parametrize("between, option, offence", [
    ("i", "none", 5), ("i", "enemy", 0), ("i", "any", 0),
    ("I", "none", 9), ("I", "enemy", 9), ("I", "any", 4)])
def test_fire_blocked_by_s8_2(between, option, offence):
    p = pos(FIRE.format(between), f"fire-blocked-by={option}")
    assert p.combat(SQUARE["L8"]).offence == offence


def test_relay_status_always_s12_1():
    fen = "25/25/25/25/25/25/25/25/25/7I17/7r17/25/25/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 21"
    assert pos(fen).combat(SQUARE["K8"]).defence == 0          # offline relay: 0
    assert pos(fen, "relay-status=always").combat(SQUARE["K8"]).defence == 1
    assert pos(fen, "relay-status=covered").combat(SQUARE["K8"]).defence == 0


RETREAT_CAV = "I24/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/c24 S B15,D8,T3,T23 T1 22"


def test_retreat_range_s9():
    assert len(list(pos(RETREAT_CAV).legal_moves())) == 8
    assert len(list(pos(RETREAT_CAV, "retreat-range=one").legal_moves())) == 3
    assert code_of(pos(RETREAT_CAV, "retreat-range=one"), "T1-R1") == "E-TOO-FAR"
    assert code_of(pos(RETREAT_CAV), "T1-R1") is None


OFFLINE_RETREAT = "I24/25/25/25/25/25/25/25/25/25/i24/25/25/25/25/25/25/25/25/12i12 S B15,D8,T3,T23 K1 22"


def test_offline_retreat_s9():
    destroy = pos(OFFLINE_RETREAT)
    assert code_of(destroy, "K1-K2") == "E-NO-UNIT"
    assert code_of(destroy, "T13-T12") is None
    move = pos(OFFLINE_RETREAT, "offline-retreat=move")
    assert code_of(move, "K1-K2") is None
    assert code_of(move, "T13-T12") == "E-RETREAT-FIRST"


def test_failed_offline_retreat_counts_in_stats_s18():
    p = pos(OFFLINE_RETREAT)
    stats = GAME.new_stats(p.rules)
    before = p.copy()
    move = GAME.parse_move("T13-T12", p)
    p.push(move)
    stats.add(before, move, p)
    assert stats.summary(p, None)["retreats_failed_offline"] == 1


ARSENAL_RETREAT = "2r10i11/25/25/25/25/25/25/25/25/I24/25/25/25/25/25/25/25/25/25/25 S B15,D8,T3,T23 A14 22"


def test_retreat_to_enemy_arsenal_s7_3():
    assert code_of(pos(ARSENAL_RETREAT), "A14-B15") == "E-RETREAT-ARSENAL"
    p = pos(ARSENAL_RETREAT, "retreat-to-enemy-arsenal=destroy")
    assert code_of(p, "A14-B15,xJ1") == "E-ATTACK-AFTER-ARSENAL"
    p.push(GAME.parse_move("A14-B15", p))
    assert GAME.format_position(p).split(" ")[2] == "D8,T3,T23"


RELAY_ARSENAL = "13r11/25/25/25/25/25/25/25/25/I24/25/25/25/25/25/25/25/25/25/12i12 S B15,D8,T3,T23 - 22"


def test_relay_on_enemy_arsenal_s7_3():
    p = pos(RELAY_ARSENAL)
    p.push(GAME.parse_move("A14-B15", p))
    assert GAME.format_position(p).split(" ")[2] == "B15,D8,T3,T23"   # relays destroy nothing
    assert code_of(pos(RELAY_ARSENAL, "relay-on-enemy-arsenal=forbid"), "A14-B15") == "E-RELAY-ON-ARSENAL"


def test_second_arsenal_in_one_turn_s7_3():
    # North relay R8 (on D8's column) re-emits along row R to the cavalry R3; R22 is on D8's
    # long diagonal.
    north = ("25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/2C4R13C3/25/12i12 "
             "N B15,D8,T3,T23 - 21")
    p = pos(north)
    assert p.is_online(SQUARE["R3"]) and p.is_online(SQUARE["R22"])
    assert code_of(p, "R3-T3,R22-T23") == "E-SECOND-ARSENAL"
    assert code_of(p, "R22-T23,R3-S3") is None


def test_relay_collapse_win_s10():
    fen = "25/25/25/25/25/25/25/25/25/1I23/i24/25/25/25/25/25/25/25/25/25 N B15,D8,T3,T23 - 21"
    p = pos(fen)
    assert not p.is_online(SQUARE["K1"])
    assert p.outcome() is None
    out = pos(fen, "relay-collapse-win=yes").outcome()
    assert out is not None and out.winner == 0 and out.reason == "relay-collapse"
    both = "I24/25/25/25/25/25/25/25/25/25/i24/25/25/25/25/25/25/25/25/25 N B15,D8,T3,T23 - 21"
    q = pos(both, "rsg")
    assert not q.status(0).online and not q.status(1).online
    out = q.outcome()
    assert out is not None and out.winner == 1   # both collapse: South just played and wins


def test_attack_minimum_any_s8_1():
    fen = "25/25/25/25/25/25/25/7i17/25/25/25/7I17/25/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11"
    assert code_of(pos(fen), "xH8") == "E-ATTACK-NO-OFFENCE"
    assert code_of(pos(fen, "attack-minimum=any"), "xH8=0") is None


def test_map_standard_s2_1():
    assert GAME.parse_rules("map=standard")["map"] == "standard"


def test_relay_collapse_ends_the_game_for_moves_s10():
    fen = "25/25/25/25/25/25/25/25/25/1I23/i24/25/25/25/25/25/25/25/25/25 N B15,D8,T3,T23 - 21"
    p = pos(fen, "rsg")
    assert p.outcome() is not None
    assert list(p.legal_moves()) == [] and perft(p, 1) == 0
    assert code_of(p, "J2-J3") == "E-MOVE-AFTER-END"
    q = pos(fen)
    assert code_of(q, "J2-J3") is None


def test_first_move_number_s5_3():
    fen = "25/25/25/25/25/25/25/25/25/1I23/i24/25/25/25/25/25/25/25/25/25 N B15,D8,T3,T23 - 21"
    assert GAME.dialect.first_move_number(pos(fen)) == 11
    assert GAME.dialect.first_move_number(pos(fen.replace(" N ", " S ").replace(" 21", " 22"))) == 11
    assert GAME.dialect.first_move_number(GAME.start_position(GAME.parse_rules(None))) == 1
