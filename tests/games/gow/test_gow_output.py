"""Rendering (spec §16), statistics (spec §18), describe_move, sniff and the engine's import
rules (a game package is pure: no click, records, sources, cli, analysis, no file access)."""

from __future__ import annotations

import ast
import pathlib
import xml.etree.ElementTree as ET

import pytest

from notation_tools.games.base import Style
from notation_tools.games.gow import GAME
from notation_tools.games.gow.pieces import SQUARE
from tests.games.gow.diagrams import position_from_diagram

RULES = GAME.parse_rules(None)
# The diagram of spec §5.2, except row H: the spec's copy has one "." too many before the fort
# (26 cells; the fort is H21 by the map of §2.1).
SPEC_DIAGRAM = """\
      1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25
  A  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
  B  .  .  .  .  .  .  . [ ] .  .  .  .  .  . <*> .  .  .  .  .  .  .  .  .  .
  C  .  .  .  .  .  .  .  .  .  ^  ^  ^  ^  .  .  .  .  .  .  .  .  .  .  .  .
  D  .  .  R  .  .  .  . <*> .  ^  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
  E  .  .  .  .  .  .  .  .  .  ^  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
  F  .  .  .  .  M  .  .  .  . =I= .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
  G  .  .  C  C  .  I  I  A  I  ^  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
  H  .  .  C  C  I  H  I  I  I  ^  .  .  .  .  .  .  .  .  .  . [ ] .  .  .  .
  I  .  .  .  .  .  I  .  .  .  ^  .  . [ ] .  .  .  .  .  .  .  .  .  .  .  .
  J  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
    ---------------------------------------------------------------------------
  K  .  .  .  .  .  .  .  .  .  .  .  .  .  .  i  i  i  a  c  .  .  .  .  .  .
  L  .  .  .  .  .  .  .  .  .  .  .  .  .  . [i] i  i  c  c  .  .  .  .  .  .
  M  .  . [ ] .  .  .  .  .  .  .  .  .  .  .  i  i  i  c  .  .  .  .  .  .  .
  N  .  .  .  .  .  .  .  .  .  .  ^  ^  ^  ^  ^  ^  m  .  .  .  .  .  .  .  .
  O  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . =h= .  .  .  .  .  . [r] .  .
  P  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  ^  .  .  .  .  .  .  .  .  .
  Q  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  ^  .  .  .  .  .  .  .  .  .
  R  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  ^  .  .  .  .  .  .  .  .  .
  S  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
  T  .  . <*> .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . <*> .  ."""


def test_text_diagram_of_book_opening_s5_2_s16_1():
    text = GAME.render_text(GAME.start_position(RULES))
    lines = text.splitlines()
    assert lines[:22] == [line.rstrip() for line in SPEC_DIAGRAM.splitlines()]
    assert lines[22] == "turn 1, North to move; arsenals B15 D8 T3 T23; retreat -"
    assert lines[23] == "offline North: -; South: -"


def test_diagram_marks_offline_units_and_reads_back_s16_1_g9():
    position = GAME.start_position(RULES)
    for token in ("H3-J2,G3-I3,H6-I7,I6-I5,F10-F11", "K19-I20,L19-J19,O16-O18,K15-K14,N17-N19",
                  "J2-L2,I3-K4,H9-I9,F5-G5"):
        position.push(GAME.parse_move(token, position))
    text = GAME.render_text(position)
    assert "offline North: K4 L2; South: -" in text
    assert GAME.format_position(position_from_diagram(text, RULES)) == GAME.format_position(position)
    unicode = GAME.render_text(position, style=Style.UNICODE)
    assert "\u24be" in unicode and "\u25b2" in unicode
    assert GAME.format_position(position_from_diagram(unicode, RULES)) == GAME.format_position(position)


def test_lines_option_s16_1():
    position = GAME.parse_position(
        "25/25/25/2R22/25/25/25/25/25/2M22/25/25/5I19/25/25/25/25/25/25/12i12 N B15,D8,T3,T23 - 11",
        RULES)
    plain = GAME.render_text(position)
    north = GAME.render_text(position, north_lines=True)
    assert " + " not in plain and " + " in north
    row_k = next(line for line in north.splitlines() if line.startswith("  K "))
    assert row_k[4 + 3 * 3:4 + 3 * 4] == " + "       # K4 on relay J3's diagonal
    both = GAME.render_text(position, north_lines=True, south_lines=True)
    assert " # " in both and " - " in both
    with pytest.raises(TypeError):
        GAME.render_text(position, colours=True)


def test_svg_deterministic_with_desc_s16_2():
    position = GAME.start_position(RULES)
    first = GAME.render_svg(position)
    assert first == GAME.render_svg(position)
    root = ET.fromstring(first)
    desc = root.find("{http://www.w3.org/2000/svg}desc")
    assert desc is not None and desc.text.startswith("      1  2  3")
    move = GAME.parse_move("G8-F8", position)
    assert GAME.render_svg(position, last_move=move) != first
    assert GAME.render_svg(position, north_lines=True) != first
    assert set(GAME.render_options) == {"north-lines", "south-lines"}


def test_svg_draws_last_attack_lines_s16_2():
    position = GAME.parse_position(
        "25/25/25/25/25/25/25/25/25/7C17/6ACI16/7c2a14/7i17/8i16/25/25/25/25/25/25 "
        "N B15,D8,T3,T23 - 21", RULES)
    move = GAME.parse_move("xL8=D", position)
    position.push(move)
    root = ET.fromstring(GAME.render_svg(position, last_move=move))
    lines = [e for e in root.iter("{http://www.w3.org/2000/svg}line") if e.get("stroke-opacity")]
    assert len(lines) == 4 + 2      # K8 J8 K7 K9 against L8; M8 and L11 for it


def test_statistics_of_an_attack_s18():
    position = GAME.parse_position(
        "25/25/25/25/25/25/25/11I13/11C13/11C13/11C13/10Ciiii10/11i13/25/25/25/25/25/25/25 "
        "N B15,D8,T3,T23 - 21", RULES)
    stats = GAME.new_stats(RULES)
    before = position.copy()
    move = GAME.parse_move("xL12=D", position)
    position.push(move)
    stats.add(before, move, position)
    summary = stats.summary(position, position.outcome())
    assert summary["attacks_north"] == 1 and summary["attacks_destroyed_north"] == 1
    assert (summary["offence_max"], summary["defence_max"], summary["margin_max"]) == (28, 24, 4)
    assert summary["charges"] == 1 and summary["charging_cavalry"] == 4
    assert summary["longest_column"] == 3 and summary["charges_multi_direction"] == 1
    assert summary["captures"] == 1 and summary["lost_south_I"] == 1
    assert summary["first_attack_turn"] == 21 and summary["end_reason"] == "unfinished"
    assert all(isinstance(v, (int, float, str)) or v is None for v in summary.values())
    report = stats.last_turn
    assert report["attack"]["offence"] == 28 and report["attack"]["outcome"] == "D"
    assert sorted(report["attack"]["charging"]) == ["I12", "J12", "K12", "L11"]


def test_statistics_of_a_victory_s18():
    position = GAME.parse_position(
        "25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/25/19iI4/21C3/2r22/25 N B15,D8,T23 - 31",
        RULES)
    stats = GAME.new_stats(RULES)
    before = position.copy()
    move = GAME.parse_move("R22-T23", position)
    position.push(move)
    stats.add(before, move, position)
    summary = stats.summary(position, position.outcome())
    assert summary["winner"] == "North" and summary["end_reason"] == "arsenals"
    assert summary["turns_to_victory"] == 31 and summary["arsenals_destroyed"] == 1
    assert summary["arsenals_destroyed_at"] == "T23@31"


def test_describe_move_gives_attack_sums_s17():
    position = GAME.parse_position(
        "25/25/25/25/25/25/25/25/25/7C17/6ACI16/7c2a14/7i17/8i16/25/25/25/25/25/25 "
        "N B15,D8,T3,T23 - 21", RULES)
    attack = next(a for a in position.legal_moves(target=SQUARE["L8"]))
    facts = GAME.describe_move(attack, position)
    assert (facts["offence"], facts["defence"], facts["mark"]) == (23, 19, "D")
    turn = GAME.parse_move("K9-K10,xL8", position)
    assert GAME.describe_move(turn, position)["offence"] == 19
    assert GAME.describe_move(GAME.parse_move("--", position), position) == {}
    step = next(iter(position.legal_moves(origin=SQUARE["J8"])))
    assert GAME.describe_move(step, position) == {"unit": "cavalry"}


def test_sniff_s13_2():
    assert GAME.dialect.sniff(["H3-J2,G3-I3", "--", "xL8=D"])
    assert not GAME.dialect.sniff(["e4", "e5"])
    assert not GAME.dialect.sniff(["--"])


FORBIDDEN = {"click", "notation_tools.records", "notation_tools.sources", "notation_tools.cli",
             "notation_tools.analysis"}


def test_engine_is_pure_g5():
    package = pathlib.Path(GAME.position_type.__module__.replace(".", "/"))
    root = pathlib.Path(__file__).resolve().parents[3] / package
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("open", "print"):
                raise AssertionError(f"{path.name}: calls {node.func.id}")
            else:
                continue
            for name in names:
                assert not any(name == f or name.startswith(f + ".") for f in FORBIDDEN), (path.name, name)


@pytest.mark.parametrize("rules_text", [None, "rsg", "book", "offline-units-block=no",
                                        "adjacency-via-relays=yes; relay-status=covered",
                                        "relay-status=always; relay-activation=line-or-adjacent"])
def test_statistics_reused_are_those_computed_afresh_s18(monkeypatch, rules_text):
    """§18: the figures reused after an empty turn (which changes no square), and those a
    side's :class:`OnlineFollower` finds unchanged, are the figures the position gives when
    its statuses are computed again after every turn."""
    from notation_tools.analysis.generate import generate_records
    from notation_tools.analysis.replay import replay
    from notation_tools.games.gow.stats import Stats

    rules = GAME.parse_rules(rules_text)
    records = list(generate_records(GAME, rules, count=12, seed=9, max_plies=80))
    assert sum(move.text == "--" for record in records for move in record.moves) > 50
    fast = [replay(record, collect_stats=True).stats for record in records]
    assert any(int(value) for stats in fast for value in stats["offline_north_series"].split(","))
    monkeypatch.setattr(Stats, "reuse_figures", False)
    for record in records:
        record.diagnostics.clear()
    assert [replay(record, collect_stats=True).stats for record in records] == fast


@pytest.mark.parametrize("seed", [3, 11])
def test_text_diagram_rows_kept_are_those_drawn_afresh_s16_1(seed):
    """The diagram reuses a row's text drawn before with the same units and arsenals: along
    a game, in both styles, it equals the diagram drawn with nothing kept."""
    from notation_tools.games.gow import render
    from tests.games.gow.test_gow_random import random_game
    position = GAME.start_position(RULES)
    for _, move, _ in random_game(seed, 30)[2]:
        position.push(move)
        for style in (Style.ASCII, Style.UNICODE):
            kept = GAME.render_text(position, style=style)   # rows of earlier positions
            rows = dict(render._ROW_TEXT)
            render._ROW_TEXT.clear()
            assert GAME.render_text(position, style=style) == kept
            render._ROW_TEXT.update(rows)   # the next position reuses this game's rows
            assert len(kept.splitlines()) == 25 and ("\u25b2" in kept) == (style is Style.UNICODE)
