"""Elevation rendering (§11) and statistics (§10)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import random_move
from notation_tools.games.base import Style
from notation_tools.games.elevation import GAME
from tests.games.elevation.diagrams import position_from_diagram
from notation_tools.games.elevation.stats import piece_turn_facts
from tests.games.elevation.test_elevation_properties import OPTION_TEXTS

RULES = GAME.parse_rules(None)
NS = "{http://www.w3.org/2000/svg}"

START_DIAGRAM = """\
   a   b   c   d   e   f
6  3s  3f  3d  3d  3f  3s
5  3.  3.  3.  3.  3.  3.
4  3.  3.  3.  3.  3.  3.
3  3.  3.  3.  3.  3.  3.
2  3.  3.  3.  3.  3.  3.
1  3S  3F  3D  3D  3F  3S
White to move"""


def test_text_diagram_of_the_start():
    """§11.1: the default start, exactly."""
    assert GAME.render_text(GAME.start_position(RULES)) == START_DIAGRAM


def test_text_diagram_two_digit_heights_and_status():
    """§11.1: heights right-aligned in two characters; the status line names the side."""
    pos = GAME.parse_position("<12>33333/333333/333333/333333/333333/303333 S5/6/6/6/6/s5 b", RULES)
    lines = GAME.render_text(pos).splitlines()
    assert lines[1] == "6 12S  3.  3.  3.  3.  3."
    assert lines[6] == "1  3s  0.  3.  3.  3.  3."
    assert lines[7] == "Black to move"


def test_text_diagram_widens_for_heights_of_100():
    """§11.1: a height of 100 or more widens every field by one column."""
    pos = GAME.parse_position("<100>33333/333333/333333/333333/333333/333333 S5/6/6/6/6/s5 w", RULES)
    lines = GAME.render_text(pos).splitlines()
    assert lines[0] == "    a    b    c    d    e    f"
    assert lines[1] == "6 100S   3.   3.   3.   3.   3."
    assert lines[0].index("a") == lines[1].index("S") - 1


def test_text_diagram_unicode_keeps_the_layout():
    """§11.1: the unicode style changes glyphs, not the layout."""
    pos = GAME.start_position(RULES)
    ascii_lines = GAME.render_text(pos).splitlines()
    unicode_lines = GAME.render_text(pos, style=Style.UNICODE).splitlines()
    assert [len(line) for line in ascii_lines] == [len(line) for line in unicode_lines]
    assert "·" in unicode_lines[2]


def test_status_line_of_a_finished_game():
    """§5, §11.1: the status line gives the winner."""
    pos = GAME.parse_position("333333/333333/333333/333333/333333/033333 6/6/6/6/df4/Ss4 w", RULES)
    assert GAME.render_text(pos).splitlines()[-1] == "Black wins (White has no legal turn)"


def test_diagram_reads_back():
    """G9: a diagram parses back to the position, in both styles."""
    pos = GAME.parse_position("<12>33333/333333/334333/333333/333333/033333 S5/6/2d3/6/6/s5 b", RULES)
    for style in Style:
        back = position_from_diagram(GAME.render_text(pos, style=style), RULES)
        assert GAME.format_position(back) == GAME.format_position(pos)


def test_svg_structure():
    """§11.2: 36 squares with height labels, one disc per piece, labels, desc diagram."""
    pos = GAME.start_position(RULES)
    move = GAME.parse_move("c1:c2>b2,c1-c2", pos)
    pos.push(move)
    root = ET.fromstring(GAME.render_svg(pos, last_move=move))
    assert root.tag == NS + "svg"
    squares = root.findall(f".//{NS}rect[@class='square']")
    assert len(squares) == 36
    assert {rect.get("id") for rect in squares} >= {"a1", "f6", "c3"}
    heights = [text.text for text in root.iter(NS + "text") if text.get("class") == "height"]
    assert sorted(heights) == sorted(str(h) for h in pos.heights)
    discs = [g for g in root.iter(NS + "g") if (g.get("class") or "").startswith("piece ")]
    assert len(discs) == 12 and all(len(g.findall(NS + "circle")) == 1 for g in discs)
    assert sum("light" in g.get("class") for g in discs) == 6
    assert {g.get("data-square") for g in discs} == {"a1", "b1", "c2", "d1", "e1", "f1",
                                                     "a6", "b6", "c6", "d6", "e6", "f6"}
    letters = [t.text for t in root.find(f"{NS}g[@class='pieces']").iter(NS + "text")
               if t.get("class") == "piece-letter"]
    assert sorted(letters) == sorted("SFDDFS" * 2)
    coordinates = [t.text for t in root.iter(NS + "text") if t.get("class") == "coordinate"]
    assert set(coordinates) == set("abcdef123456")
    assert root.find(NS + "desc").text == GAME.render_text(pos)
    assert root.find(NS + "title").text == "Elevation: Black to move"
    assert len(root.findall(f".//{NS}polyline[@class='dig']")) == 1
    assert len(root.findall(f".//{NS}polyline[@class='path']")) == 1


def test_svg_ocean_is_blue():
    """§11.2: height 0 in blue, other heights in earth tones."""
    pos = GAME.parse_position("033333/333333/333333/333333/333333/333339 6/6/6/6/6/S5 w", RULES)
    root = ET.fromstring(GAME.render_svg(pos))
    fills = {rect.get("id"): rect.get("fill") for rect in root.iter(NS + "rect")}
    assert fills["a6"] == "#3a78c2"
    assert fills["b6"] != fills["f1"] and fills["f1"] != "#3a78c2"


# ---- statistics (§10) -------------------------------------------------------------------

def _replay(fen: str, tokens: list[str], rules_text: str | None = None) -> dict:
    rules = GAME.parse_rules(rules_text)
    pos = GAME.parse_position(fen, rules)
    collector = GAME.new_stats(rules)
    for token in tokens:
        move = GAME.parse_move(token, pos)
        before = pos.copy()
        pos.push(move)
        collector.add(before, move, pos)
    return collector.summary(pos, pos.outcome())


def test_stats_captures_and_end():
    """§10: captures by capturing and captured type, first capture ply, end reason (E6)."""
    figures = _replay("333133/333333/333533/333333/333333/333333 3s2/3f2/3D2/6/6/6 w", ["d4:d4xd5xd6"])
    assert figures["captures"] == 2 and figures["white_captures"] == 2
    assert figures["white_captures_by_dragon"] == 2
    assert figures["white_captured_fish"] == 1 and figures["white_captured_samurai"] == 1
    assert figures["first_capture_ply"] == 1
    assert figures["white_option_MM"] == 1
    assert figures["black_pieces_left"] == 0 and figures["white_dragon_left"] == 1
    assert figures["end_reason"] == "all-pieces-captured"
    assert figures["white_largest_drop"] == 2 and figures["white_largest_climb"] == -0


def test_stats_options_digs_climbs_and_terrain():
    """§10: option usage, digs, undermining digs, climbs, highest stack, ocean squares."""
    figures = _replay("333333/333333/333233/333333/343333/313333 5s/6/3s2/2S3/6/6 w",
                      ["c3:d4>b3", "f6:e6>e5,f6-e6", "c3:c3-b2,b1>c1"], "undermining")
    assert figures["turns"] == 3
    assert figures["white_option_U"] == 1 and figures["white_option_B_move_first"] == 1
    assert figures["black_option_B_dig_first"] == 1
    assert figures["white_digs"] == 2 and figures["white_undermining_digs"] == 1
    assert figures["white_largest_climb"] == 1 and figures["black_largest_drop"] == 1
    assert figures["highest_stack"] == 4
    assert figures["ocean_squares"] == 1
    assert figures["captures"] == 0 and figures["first_capture_ply"] is None
    assert figures["end_reason"] == "result-tag-only"
    assert all(isinstance(value, (int, float, str, type(None))) for value in figures.values())


def plain_per_turn_figures(facts_per_ply: list[list], heights_after: list[list[int]]) -> dict:
    """§10's per-turn figures summed plainly from each ply's piece-turn facts (the facts of
    ``moves`` listings), and the highest stack from the heights after each ply."""
    figures: dict = {}
    first_capture = None
    for ply, facts in enumerate(facts_per_ply, 1):
        for fact in facts:
            side = ("white", "black")[fact.side]
            option = fact.option
            if option == "B":
                option = {"dig-first": "B_dig_first", "move-first": "B_move_first"}.get(
                    fact.order, "B_lone")
            for key, value in ((f"option_{option}", 1), ("digs", len(fact.digs)),
                               ("undermining_digs", fact.undermining_digs),
                               ("captures", len(fact.captures))):
                figures[f"{side}_{key}"] = figures.get(f"{side}_{key}", 0) + value
            for key, value in (("largest_climb", max(fact.climbs, default=0)),
                               ("largest_drop", -min(fact.climbs, default=0))):
                figures[f"{side}_{key}"] = max(figures.get(f"{side}_{key}", 0), value)
            words = {"S": "samurai", "F": "fish", "D": "dragon"}
            for _square, letter in fact.captures:
                for key in (f"captures_by_{words[fact.piece]}", f"captured_{words[letter]}"):
                    figures[f"{side}_{key}"] = figures.get(f"{side}_{key}", 0) + 1
                if first_capture is None:
                    first_capture = ply
    figures["first_capture_ply"] = first_capture
    figures["highest_stack"] = max(map(max, heights_after))
    return figures


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(OPTION_TEXTS + ["two-pieces-per-turn", "two-pieces-per-turn; undermining"]),
       st.integers(0, 2**32 - 1))
def test_stats_sum_what_each_piece_turn_did(rules_text, seed):
    """§10: the collector's figures over a random game (it plays the actions again once, at
    the end) are those summed from each ply's piece-turn facts, taken ply by ply."""
    rules = GAME.parse_rules(rules_text)
    rng = random.Random(seed)
    pos = GAME.start_position(rules)
    collector = GAME.new_stats(rules)
    facts_per_ply, heights_after = [], [list(pos.heights)]
    for _ in range(rng.randrange(0, 80)):
        move = random_move(GAME, pos, rng)
        if move is None:
            break
        facts_per_ply.append(piece_turn_facts(move, pos))
        collector.before_move(pos, move)
        pos.push(move)
        collector.after_move(pos)
        heights_after.append(list(pos.heights))
    figures = collector.summary(pos, pos.outcome())
    assert figures["turns"] == len(facts_per_ply)
    for key, value in plain_per_turn_figures(facts_per_ply, heights_after).items():
        assert figures[key] == value, key
    assert figures["captures"] == figures["white_captures"] + figures["black_captures"]


def test_describe_move_hook():
    """§10: the per-piece-turn hook reports piece, option, digs, path, captures."""
    pos = GAME.start_position(GAME.parse_rules("two-pieces-per-turn"))
    turn = GAME.parse_move("c1:c2>b2,c1-c2&d1:d2>e2,d1-d2", pos)
    assert GAME.describe_move(turn, pos) == {
        "pieces": "D&D", "options": "B&B", "digs": "c2>b2&d2>e2", "path": "c1-c2&d1-d2", "captures": 0}
