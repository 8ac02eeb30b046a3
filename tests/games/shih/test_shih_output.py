"""Shih output: the text diagram (§15.1) and its options, the SVG (§15.2), statistics (§14),
JSON moves, sniffing, and the engine's purity."""

from __future__ import annotations

import ast
import pathlib
import xml.etree.ElementTree as ET

import pytest

from notation_tools.games.base import BadPositionError, Style
from notation_tools.games.shih import GAME
from tests.games.shih.diagrams import position_from_diagram
from notation_tools.games.shih.pieces import BLUE, RED
from notation_tools.games.shih.render import PIECE_COLOURS
from notation_tools.render.svg import LAST_MOVE_ORIGIN, LAST_MOVE_TARGET

RULES = GAME.parse_rules("standard")
A8 = "B8S/B10S/13S/15S/15S/13S/11S/9S rr7/1r9/13/11bbbb/15/13/11/8r 22 b"
SVG = "{http://www.w3.org/2000/svg}"

DEFAULT_DIAGRAM = """\
a       b/b/b/b/b/b/b/b/b/
b     ./b/./b/./b/./b/./b/./
c   ./././././././././././././
d ./././././././././././././././
e ./././././././././././././././
f   ./././././././././././././
g     ./r/./r/./r/./r/./r/./
h       r/r/r/r/r/r/r/r/r/
Blue to move; Power Spins left: Blue 2, Red 2; captured: by Blue 0, by Red 0"""


def test_text_diagram_of_default_start_is_the_spec_one():
    """§15.1: the default start's diagram, character for character."""
    assert GAME.render_text(GAME.start_position(RULES)) == DEFAULT_DIAGRAM


def test_text_diagram_wall_letters_and_status():
    pos = GAME.parse_position(A8 + " 2-1", RULES)
    lines = GAME.render_text(pos).splitlines()
    assert lines[0] == "a       r\\r/./././././././"
    assert lines[-1] == "Blue to move; Power Spins left: Blue 2, Red 2; captured: by Blue 2, by Red 1"


def test_text_diagram_unicode_shows_orientation():
    text = GAME.render_text(GAME.start_position(RULES), style=Style.UNICODE)
    assert text.splitlines()[1] == "b     ▲╱b╱▲╱b╱▲╱b╱▲╱b╱▲╱b╱▲╱"


def test_text_diagram_regions_option():
    """The regions= keyword letters each enclosed region and lists it."""
    assert "regions" in GAME.render_options
    text = GAME.render_text(GAME.parse_position(A8, RULES), regions=True)
    assert "regions: 10 in all, 2 enclosed (no empty space inside), lettered:" in text
    assert "a       A\\B/./././././././" in text
    assert "A = a1 b2: 2 Red" in text and "B = a2: 1 Red" in text
    plain = GAME.render_text(GAME.parse_position(A8, RULES))
    assert "regions" not in plain


def test_text_diagram_regions_when_nothing_is_enclosed():
    text = GAME.render_text(GAME.start_position(RULES), regions=True)
    assert "regions: 8 in all, 0 enclosed" in text


def test_text_diagram_coordinates_option():
    text = GAME.render_text(GAME.start_position(RULES), coordinates=True)
    assert text.splitlines()[0] == "a" + " " * 20 + "a1b/  a2b/  a3b/  a4b/  a5b/  a6b/  a7b/  a8b/  a9b/"
    assert " d15./" in text


def test_text_diagram_maze_option():
    """The maze drawing: walls drawn, open edges blank, rim always walled."""
    text = GAME.render_text(GAME.parse_position(A8, RULES), maze=True)
    lines = text.splitlines()
    assert lines[0] == "          .---.---.---.---."
    assert lines[1] == "a        /r\\r/' ,/' ,/' ,/'\\"
    assert lines[16] == "          .---.---.---.---."
    assert lines[17].startswith("Blue to move")
    maze_regions = GAME.render_text(GAME.parse_position(A8, RULES), maze=True, regions=True)
    assert "a        /A\\B/   /   /   / \\" in maze_regions


def test_position_from_diagram_round_trip_and_errors():
    pos = GAME.parse_position(A8 + " 2-1", RULES)
    assert position_from_diagram(GAME.render_text(pos), RULES) == pos
    with pytest.raises(BadPositionError):
        position_from_diagram("a b/\nnonsense", RULES)


def test_svg_structure():
    """§15.2: 96 polygons, 96 wall segments, one disc per piece, the rim, the diagram in desc.
    The discs are the shared piece discs in the sides' own colours (issue #29): Blue blue,
    Red red."""
    pos = GAME.parse_position(A8, RULES)
    root = ET.fromstring(GAME.render_svg(pos))
    spaces = root.find(f"{SVG}g[@class='spaces']")
    walls = root.find(f"{SVG}g[@class='walls']")
    pieces = root.find(f"{SVG}g[@class='pieces']")
    assert len(spaces.findall(f"{SVG}polygon")) == 96
    assert len(walls.findall(f"{SVG}line")) == 96
    assert len(list(pieces.iter(f"{SVG}circle"))) == 8
    assert root.find(f"{SVG}polygon[@class='rim']") is not None
    assert root.find(f"{SVG}desc").text == GAME.render_text(pos)
    assert root.find(f"{SVG}title").text.startswith("Shih: Blue to move")
    fills = {c.get("fill") for c in pieces.iter(f"{SVG}circle")}
    assert fills == {PIECE_COLOURS[BLUE]["fill"], PIECE_COLOURS[RED]["fill"]}
    light = pieces.findall(f"{SVG}g[@class='piece light']")
    assert sorted(g.get("data-space") for g in light) == ["d12", "d13", "d14", "d15"]
    assert len(root.find(f"{SVG}g[@class='coordinates']")) == 16   # row letters, both ends
    named = ET.fromstring(GAME.render_svg(pos, coordinates=True))
    assert len(named.find(f"{SVG}g[@class='mark-coordinates']")) == 96


def test_svg_wall_lies_on_its_side_and_last_move_is_marked():
    pos = GAME.start_position(RULES)
    move = GAME.parse_move("b2-b1,c2cw", pos)
    root = ET.fromstring(GAME.render_svg(pos, last_move=move))
    marked = {p.get("data-space"): p.get("fill") for p in root.iter(f"{SVG}polygon")
              if p.get("fill") in (LAST_MOVE_ORIGIN, LAST_MOVE_TARGET)}
    assert marked == {"b2": LAST_MOVE_ORIGIN, "b1": LAST_MOVE_TARGET, "c2": LAST_MOVE_TARGET}
    # a1 is up with its wall on S (its left side): the segment runs up to the right.
    line = next(l for l in root.iter(f"{SVG}line") if l.get("data-space") == "a1")
    assert float(line.get("x1")) < float(line.get("x2"))
    assert float(line.get("y1")) > float(line.get("y2"))


def test_stats_of_a_record():
    """§14: per side actions, captures, surrenders, largest capture and enclosure."""
    collector = GAME.new_stats(RULES)
    pos = GAME.start_position(RULES)
    for text in ["Pg4cw/a1/a2/a3", "g3cw,--", "b2-b1,c2cw", "--"]:
        move = GAME.parse_move(text, pos)
        collector.before_move(pos, move)
        pos.push(move)
        collector.after_move(pos)
    figures = collector.summary(pos, pos.outcome())
    assert figures["captures"] == 3
    assert figures["blue_power_spins"] == 1 and figures["blue_captured_by_power_spin"] == 3
    assert figures["blue_surrendered"] == 3 and figures["surrenders"] == 3
    assert figures["red_spins"] == 1 and figures["red_early_ends"] == 2
    assert figures["blue_steps"] == 1 and figures["blue_spins"] == 1
    assert figures["blue_mp"] == 4 and figures["red_mp"] == 1
    assert figures["largest_capture"] == 3 and figures["largest_enclosure"] == 3
    assert figures["first_capture_ply"] == 1
    assert figures["blue_score"] == 3 and figures["red_score"] == 3
    assert figures["blue_captures_per_turn"] == 1.5
    assert figures["end_reason"] == "result-tag-only"
    assert figures["regions"] == len(pos.regions()) and figures["double_walls"] >= 0
    assert all(isinstance(value, (int, float, str, type(None))) for value in figures.values())
    assert collector.actions[0]["captured"] == ["g4", "h2", "h3"]


def test_stats_count_passes_and_end_reason():
    stuck = "H8S/11S/13S/15S/15S/13S/11S/9S br7/11/13/15/15/13/11/9 02 b"
    pos = GAME.parse_position(stuck, RULES)
    collector = GAME.new_stats(RULES)
    move = GAME.parse_move("--", pos)
    collector.before_move(pos, move)
    pos.push(move)
    collector.after_move(pos)
    figures = collector.summary(pos, pos.outcome())
    assert figures["blue_passes"] == 1 and figures["blue_early_ends"] == 0


def test_move_json_carries_captures():
    pos = GAME.start_position(RULES)
    move = GAME.parse_move("Pg2cw/a1/a2", pos)
    data = GAME.move_to_json(move, pos)
    assert data["token"] == "Pg2cw/a1/a2"
    assert data["actions"][0]["captured"] == ["g2", "h1"]
    assert data["actions"][0]["wall"] == "B"
    assert GAME.move_from_json(data, pos) == move
    assert GAME.move_from_json("Pg2=B/a2/a1", pos) == move


def test_describe_move():
    pos = GAME.start_position(RULES)
    facts = GAME.describe_move(GAME.parse_move("Pg2cw/a1/a2", pos), pos)
    assert facts == {"mp": 2, "captures": "g2 h1", "surrenders": "a1 a2"}


def test_sniff():
    assert GAME.dialect.sniff(["b2-b1,c2cw", "g2-g3,--"])
    assert not GAME.dialect.sniff(["e4", "e5"])
    assert not GAME.dialect.sniff(["--"])


def test_engine_imports_nothing_outside_its_layer():
    """G5: games/shih never imports click, records, sources, cli or analysis, never prints."""
    package = pathlib.Path(GAME.position_type.__module__.replace(".", "/")).parent
    root = pathlib.Path(__file__).resolve().parents[3] / package
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("print", "open"):
                raise AssertionError(f"{path.name} calls {node.func.id}")
            else:
                continue
            for name in names:
                assert not any(part in name.split(".") for part in
                               ("click", "records", "sources", "cli", "analysis")), (path, name)
