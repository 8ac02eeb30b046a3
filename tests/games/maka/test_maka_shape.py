"""Maka-Dai-Dai Shogi in the one-package template: the typed options (§7), the position-string
ranks read by the shared run decoder (§5), the start of a handicap record (§6.15), the dialect
and the drawing helper."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import pytest

from notation_tools.games.base import BadPositionError, options_of
from notation_tools.games.maka import GAME, Options, Position
from notation_tools.games.maka.notation import DIALECT
from notation_tools.games.maka.options import OPTIONS, check_alternative_moves
from notation_tools.games.maka.position import INITIAL, parse_position

RULES = GAME.parse_rules(None)
VALUES = [(option.name, value) for option in OPTIONS for value in option.values or ()]


# ---- §7 the Options dataclass ----------------------------------------------------------------


@pytest.mark.parametrize("name,value", VALUES, ids=[f"{n}={v}" for n, v in VALUES])
def test_7_options_field_per_option_value(name, value):
    """§7: every option value reaches the engine as the field of the same name."""
    rules = GAME.parse_rules(f"{name}={value}")
    options = options_of(Options, rules)
    assert getattr(options, name.replace("-", "_")) == value
    assert options.choices == tuple(sorted(rules.texts.items()))
    assert options.contagion == (options.deva_contagion == "on")
    assert options.lion_dog_leaps == (options.lion_dog_leap == "yes")
    assert options.pass_always == (options.lion_pass == "always")
    assert options.forbid_self_check == (options.self_check == "forbid")
    assert options.forbid_repetition == (options.repetition == "forbidden")
    assert options.filters_moves == (options.forbid_self_check or options.forbid_repetition)
    assert GAME.parse_position(INITIAL, rules).options is options  # cached per rules


def test_7_options_are_frozen_and_typed_per_profile():
    tsa, modern = (options_of(Options, GAME.parse_rules(p)) for p in ("tsa", "modern"))
    assert (tsa.promotion, tsa.contagion, tsa.forbid_repetition) == ("forced", False, False)
    assert (modern.promotion, modern.lion_dog, modern.emperor_protection) == (
        "forced-if-victim-promoted", "linear", "after")
    assert modern.contagion and modern.forbid_repetition and modern.filters_moves
    with pytest.raises(dataclasses.FrozenInstanceError):
        tsa.promotion = "optional"  # type: ignore[misc]
    fields = {field.name for field in dataclasses.fields(Options) if field.init}
    assert fields == {option.field_name for option in OPTIONS}


def test_6_12_alternative_moves_cover_their_options():
    assert check_alternative_moves() == []


# ---- §5 ranks through the shared decoder ---------------------------------------------------


@pytest.mark.parametrize("old,new,where", [
    ("vL,vEa,vSt,vT,", "vL,vEa,vSt,Fg,", "rank a, cell 4"),
    ("/5,vGB,7,vGB,5/", "/5,vGB,7,vGB,6/", "rank g, cell 5"),
    ("/19/19/19/19/19/", "/19/19/3,2,14/19/19/", "rank j, cell 2"),
    ("/19/19/19/19/19/", "/19/19/01,18/19/19/", "rank j, cell 1"),
    ("/19/19/19/19/19/", "/19/19/,19/19/19/", "rank j, cell 1"),
    ("/19/19/19/19/19/", "/19/19/\u0663,P,15/19/19/", "rank j, cell 1"),
])
def test_5_rank_errors_name_rank_and_cell_at_their_offset(old, new, where):
    """§5: a bad rank is E-BAD-POSITION naming its rank and cell; the error's offset is the
    fault's place in the whole string (a non-ASCII digit is no run of empty squares)."""
    text = INITIAL.replace(old, new, 1)
    with pytest.raises(BadPositionError) as info:
        parse_position(text, RULES)
    error = info.value
    assert error.code == "E-BAD-POSITION" and error.rule == "§5"
    assert error.message.startswith(where + ": ")
    ranks = text.split(" ")[0].split("/")
    row = "abcdefghijklmnopqrs".index(where[5])
    cell = int(where.rpartition(" ")[2])
    start = sum(len(rank) + 1 for rank in ranks[:row])
    assert error.offset == start + sum(len(c) + 1 for c in ranks[row].split(",")[:cell - 1])


def test_5_short_rank_names_the_rank():
    text = INITIAL.replace("/5,vGB,7,vGB,5/", "/5,vGB,7,vGB,4/", 1)
    with pytest.raises(BadPositionError) as info:
        parse_position(text, RULES)
    assert info.value.message == "rank g: 18 squares, not 19"
    # the fault is the rank's length: the offset is the rank's end
    assert info.value.offset == text.index("5,vGB,7,vGB,4/") + len("5,vGB,7,vGB,4")


def test_5_side_and_number_errors_point_at_their_field():
    board = INITIAL.split(" ")[0]
    with pytest.raises(BadPositionError) as info:
        parse_position(board + " bw 1", RULES)
    assert info.value.offset == len(board) + 1
    with pytest.raises(BadPositionError) as info:
        parse_position(board + " b 01", RULES)
    assert info.value.offset == len(board) + 3


# ---- §6.15 the first player -------------------------------------------------------------------


def test_6_15_first_player_keeps_the_position_key():
    """§6.13/§6.15: the position key of a White-to-move start is the same whether the FEN says
    so alone or together with FirstPlayer, or FirstPlayer turns the initial position."""
    fen = INITIAL.replace(" b 1", " w 1")
    alone = GAME.start_position(RULES, fen=fen)
    both = GAME.start_position(RULES, fen=fen, first_player=1)
    turned = GAME.start_position(RULES, first_player=1)
    assert alone.key == both.key == turned.key and both.counts == {both.key: 1}
    assert GAME.format_position(turned) == fen


# ---- the template's names ---------------------------------------------------------------------


def test_dialect_and_names():
    assert GAME.dialect is DIALECT and DIALECT.fork_warning == "W-AMBIGUOUS-GOLD"
    assert isinstance(GAME.start_position(RULES), Position)
    assert {code.code for code in GAME.codes} >= {"E-PROMOTION", "W-AMBIGUOUS-OUTPUT"}
    pos = GAME.start_position(RULES)
    assert pos.is_over() is False and not hasattr(pos, "game_over")
    move = GAME.parse_move("P-10m", pos)
    assert (move.origin, move.target) == (13 * 19 + 9, 12 * 19 + 9)


def test_12_svg_uses_the_shared_document():
    """§12: title, coordinates, last-move shading and path line from the shared helper."""
    pos = GAME.parse_position(
        "18,vK/19/19/19/19/19/19/19/8,P,vP,vP,8/9,Ln,9/19/19/19/19/19/19/19/19/K,18 b 1", RULES)
    move = GAME.parse_move("Lnx10ix9i+", pos)
    pos.push(move)
    root = ET.fromstring(GAME.render_svg(pos, last_move=move))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.find(f"{ns}title").text.startswith("Maka-Dai-Dai Shogi")
    groups = {g.get("class") for g in root.iter(f"{ns}g")}
    assert {"board", "coordinates", "pieces", "last-move"} <= groups
    labels = [t.text for g in root.iter(f"{ns}g") if g.get("class") == "coordinates"
              for t in g.iter(f"{ns}text")]
    assert labels[:2] == ["19", "18"] and labels[-1] == "s" and len(labels) == 38
    (line,) = root.iter(f"{ns}polyline")
    assert len(line.get("points").split()) == 3  # 10j, 10i, 9i
    shaded = {r.get("class").split()[1]: r.get("fill") for r in root.iter(f"{ns}rect")
              if r.get("class", "").startswith("square") and r.get("fill") not in (None, "none")}
    assert shaded == {"10j": "#c8f0b7", "10i": "#f0b7b7", "9i": "#f0b7b7"}
