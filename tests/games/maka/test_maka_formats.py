"""Maka-Dai-Dai Shogi: position string (§5), rendering (§12), JSON (§9.7), statistics (§13),
rule options (§7), the Game protocol and the tables (G7)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from notation_tools.games.base import BadPositionError, BadRulesError, EngineError, Style
from notation_tools.games.maka import GAME
from notation_tools.games.maka.options import OPTIONS, PROFILES
from notation_tools.games.maka.pieces import TYPES, check_tables
from notation_tools.games.maka.position import INITIAL
from notation_tools.games.maka.render import text_diagram
from notation_tools.analysis.perft import perft
from tests.games.maka.diagrams import position_from_diagram

RULES = GAME.parse_rules(None)
A2 = "18,vK/19/19/19/19/19/19/19/8,P,vP,vP,8/9,Ln,9/19/19/19/19/19/19/19/19/K,18 b 1"


# ---- §5 position string ----------------------------------------------------------------------


@pytest.mark.parametrize("text,fragment", [
    (INITIAL.replace("/19/19/19/19/19/", "/19/19/20/19/19/", 1),
     "rank j, cell 1: bad run of empty squares '20'"),
    (INITIAL.replace("/5,vGB,7,vGB,5/", "/5,vGB,7,vGB,6/", 1), "rank g, cell 5: more than 19 squares"),
    (INITIAL.replace("vL,vEa,vSt,vT", "vL,vEa,vSt,Fg", 1), "rank a, cell 4: unexpected 'Fg'"),
    (INITIAL.replace("/19/19/19/19/19/", "/19/19/3,2,14/19/19/", 1),
     "rank j, cell 2: two runs of empty squares side by side"),
    (INITIAL.replace("/5,vGB,7,vGB,5/", "/5,vGB,7,vGB,4/", 1), "rank g: 18 squares, not 19"),
    (INITIAL.replace(" b 1", " x 1"), "side to move"),
    (INITIAL.replace(" b 1", " b 01"), "leading zeros"),
    (INITIAL.replace(" b 1", " b 0"), "move number"),
    (INITIAL.replace(" b 1", ""), "board, side to move"),
    (INITIAL.replace("vL,vEa", "v+Ln,vEa", 1), "rank a, cell 1: unexpected 'v+Ln'"),
    ("19/" * 18 + "19", "a position string is"),
])
def test_5_bad_position_strings(text, fragment):
    """§5: E-BAD-POSITION names the rank and cell."""
    with pytest.raises(BadPositionError) as info:
        GAME.parse_position(text, RULES)
    assert fragment in info.value.message
    assert info.value.code == "E-BAD-POSITION"


def test_5_round_trip_and_move_number():
    """§5: format(parse(s)) == s; the move number grows after White moves; +G vs G."""
    pos = GAME.parse_position(INITIAL, RULES)
    assert GAME.format_position(pos) == INITIAL
    pos.push(GAME.parse_move("P-10m", pos))
    assert GAME.format_position(pos).endswith(" w 1")
    pos.push(GAME.parse_move("P-10g", pos))
    assert GAME.format_position(pos).endswith(" b 2")
    fen = "18,vK/+G,G,17/" + "19/" * 16 + "K,18 b 1"
    assert GAME.format_position(GAME.parse_position(fen, RULES)) == fen
    no_royal = "19/" * 18 + "K,18 w 3"
    pos = GAME.parse_position(no_royal, RULES)
    assert pos.outcome().winner == 0 and list(pos.legal_moves()) == []


# ---- §12 rendering ------------------------------------------------------------------------


def test_12_text_diagram_exact_lines():
    """§12: the exact header and first rank lines, status line."""
    pos = GAME.start_position(RULES)
    lines = GAME.render_text(pos).splitlines()
    assert lines[0] == ("  19   18   17   16   15   14   13   12   11   10    9    8    7    6    5"
                        "    4    3    2    1")
    assert lines[1] == ("  vL  vEa  vSt   vT   vI   vC   vS   vG vDSp   vK  vDV   vG   vS   vC   vI"
                        "   vT  vSt  vEa   vL  a")
    assert lines[2] == (" vRC    . vCSw    .  vOM    .  vRD  vFL  vBT  vDE  vBT  vFL  vCS    .  vCC"
                        "    . vCSw    .  vRC  b")
    assert lines[20] == "" and lines[21] == "Black to move (move 1)"
    assert len(lines) == 22
    modern = GAME.start_position(GAME.parse_rules("modern; lion-pass=always"))
    assert GAME.render_text(modern).splitlines()[-1] == "Rules: modern; lion-pass=always"


def test_12_diagram_parses_back():
    """G9: position_from_diagram(text_diagram(p)) == p."""
    pos = GAME.parse_position(A2.replace(" b 1", " w 7"), RULES)
    back = position_from_diagram(text_diagram(pos), RULES)
    assert GAME.format_position(back) == GAME.format_position(pos)
    with pytest.raises(BadPositionError):
        position_from_diagram("nonsense", RULES)


def test_12_unicode_and_svg():
    """§12: Unicode marks White with ▽; SVG carries the diagram in <desc>, promoted in red."""
    pos = GAME.parse_position(A2, RULES)
    assert "▽K" in GAME.render_text(pos, style=Style.UNICODE)
    move = GAME.parse_move("Lnx10ix9i+", pos)
    pos.push(move)
    svg = GAME.render_svg(pos, last_move=move)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.find(f"{ns}desc").text == text_diagram(pos)
    red = [t.text for t in root.iter(f"{ns}text") if t.get("fill") == "#c00"]
    assert red == ["FF"]
    assert any(r.get("fill") == "#f0b7b7" for r in root.iter(f"{ns}rect"))


# ---- §9.7 JSON ----------------------------------------------------------------------------


def test_9_7_json_move():
    """§9.7: the example object; input by legs or pass; checked keys."""
    pos = GAME.parse_position(A2, RULES)
    move = GAME.parse_move("Lnx10ix9i+", pos)
    data = GAME.move_to_json(move, pos)
    assert data == {"from": "10j", "legs": ["10i", "9i"], "mark": "+", "side": "b", "piece": "Ln",
                    "to": "9i", "captures": ["10i", "9i"], "captured": ["P", "P"],
                    "becomes": "FF", "tsa": "Lnx10ix9i+", "coord": "10j10i9i+"}
    assert GAME.move_from_json(json.loads(json.dumps(data)), pos) == move
    assert GAME.move_from_json({"from": "10j", "legs": ["10i", "9i"]}, pos) == move
    assert GAME.move_from_json("10j10i9i+", pos) == move
    assert GAME.move_from_json("Lnx10ix9i+", pos) == move
    assert GAME.move_from_json({"from": "10j", "pass": True}, pos).is_pass
    with pytest.raises(EngineError) as info:
        GAME.move_from_json({**data, "captured": ["P", "G"]}, pos)
    assert "captured" in info.value.message
    for bad in (3, {"legs": ["9h"]}, {"from": "10j"}, {"from": "10j", "legs": [], "mark": "?"}):
        with pytest.raises(EngineError):
            GAME.move_from_json(bad, pos)
    assert json.loads(GAME.format_move(move, pos, "json"))["becomes"] == "FF"
    quiet = GAME.parse_move("Ln-10l", pos)
    assert GAME.move_to_json(quiet, pos)["becomes"] is None


# ---- §13 statistics -----------------------------------------------------------------------


def test_13_stats_summary_is_flat_and_counts():
    """§13: flat dict with captures; Lion double capture; immobile pieces; hooks."""
    rules = GAME.parse_rules(None)
    pos = GAME.parse_position(
        "P,17,vK/19/19/19/19/19/19/19/8,P,vP,vP,8/9,Ln,9/19/19/19/19/19/19/9,HM,9/19/K,18 b 1",
        rules)
    stats = GAME.new_stats(rules)
    for text in ("Lnx10ix9i+", "K-2a", "HM-3p"):
        move = GAME.parse_move(text, pos)
        stats.before_move(pos, move)
        pos.push(move)
        stats.after_move(pos)
    summary = stats.summary(pos, pos.outcome())
    assert all(isinstance(v, (int, float, str, type(None))) for v in summary.values())
    assert summary["captures"] == 2 and summary["double_captures"] == 1
    assert summary["captured_P"] == 2 and summary["promotion_list"] == "Ln>FF"
    assert summary["hook_moves"] == 1 and summary["hook_turns"] == 1
    assert summary["immobile_black"] == 1 and summary["lion_moves"] == 1
    assert summary["first_capture_ply"] == 1 and summary["plies"] == 3
    assert summary["end"] == "ongoing"


# ---- §7 options and profiles; the protocol --------------------------------------------------


def test_7_profiles_are_differences():
    """§7: the modern profile differs in exactly the listed options."""
    tsa, modern = GAME.parse_rules("tsa"), GAME.parse_rules("modern")
    diff = {k for k in tsa.texts if tsa.texts[k] != modern.texts[k]}
    assert diff == {"promotion", "deva-contagion", "lion-dog", "emperor-protection",
                    "donkey-step", "free-bear-jump", "free-dragon", "free-wolf", "repetition"}
    assert GAME.parse_rules(None) == tsa
    assert GAME.parse_rules("lion-dog=linear").describe() == "tsa; lion-dog=linear"
    assert set(PROFILES) == {"tsa", "modern"} and len(OPTIONS) == 19


@pytest.mark.parametrize("text", ["maybe", "lion-pass=maybe", "tsa; nonsense=1", "lion-pass"])
def test_7_bad_rules(text):
    with pytest.raises(BadRulesError):
        GAME.parse_rules(text)


def test_check_tables_and_identity():
    """G7: the tables lint clean; identity of §1.3."""
    assert check_tables() == [] and GAME.check_tables() == []
    assert len(TYPES) == 78
    assert GAME.id == "maka-dai-dai-shogi" and GAME.aliases == ("maka", "mdd")
    assert GAME.sides == ("Black", "White") and GAME.results == ("1-0", "0-1")
    assert GAME.notations == ("tsa", "tsa-full", "coord")
    assert GAME.dialect.placeholder == "-"


def test_sniff():
    """§9.8: untagged ShogiVar movetext is recognised; other text is not."""
    assert GAME.dialect.sniff(["P-10m", "P-10g", "Lnx10ix9i+", "Ln!", "-", "mate"])
    assert GAME.dialect.sniff(["-", "P-10g", "G12l-11l"])
    assert not GAME.dialect.sniff(["e4", "e5", "Nf3"])
    assert not GAME.dialect.sniff([])


def test_start_position_first_player():
    """§6.15: FirstPlayer and FEN must agree."""
    fen = INITIAL.replace(" b 1", " w 1")
    assert GAME.start_position(RULES, fen=fen, first_player=1).turn == 1
    with pytest.raises(EngineError):
        GAME.start_position(RULES, fen=fen, first_player=0)
    assert GAME.start_position(RULES, first_player=1).turn == 1


def test_describe_move_and_perft_divide_style():
    pos = GAME.parse_position(A2, RULES)
    move = GAME.parse_move("Lnx10ix9i+", pos)
    assert GAME.describe_move(move, pos) == {"piece": "Ln", "captures": 2,
                                             "captured": "P@10i, P@9i", "becomes": "FF"}
    assert perft(pos, 1) == len(list(pos.legal_moves()))


def test_engine_is_pure():
    """G5: games/maka imports no click, records, sources, cli or analysis, and opens no file."""
    import ast
    import pathlib
    import notation_tools.games.maka as pkg
    for path in pathlib.Path(pkg.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert not name.startswith(("click", "notation_tools.records", "notation_tools.sources",
                                            "notation_tools.cli", "notation_tools.analysis")), path
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("open", "print"):
                raise AssertionError(f"{path}: {node.func.id}")


def test_doctests():
    """G12: the modules' examples run."""
    import doctest
    from notation_tools.games import maka
    from notation_tools.games.maka import (explain, game, moves, notation, options, pieces,
                                           position, render, rules, stats)
    for module in (maka, explain, game, moves, notation, options, pieces, position, render,
                   rules, stats):
        failures, _ = doctest.testmod(module)
        assert failures == 0, module.__name__


def test_12_unicode_diagram_parses_back():
    pos = GAME.parse_position(A2, RULES)
    back = position_from_diagram(text_diagram(pos, style=Style.UNICODE), RULES)
    assert GAME.format_position(back) == A2
