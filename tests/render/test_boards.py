"""The five publishable boards (issue #12): golden SVGs, text inside the canvas, display
options that change the picture, Shuriken's two sides, Shih's labels clear of walls.

Golden files live in ``tests/data/golden/``: a difference fails. After a deliberate change of a
picture, write them anew with ``NOTATION_TOOLS_REGOLD=1 python -m pytest tests/render`` and
look at the new pictures before committing them (docs/boards.md says how).
"""

from __future__ import annotations

import itertools
import math
import os
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.games.base import EngineError, all_games, get_game
from notation_tools.records.pgn import read_records
from notation_tools.render.svg import ASCENT, DESCENT, EM_WIDTH

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
SAMPLES = ROOT / "sample_games"
NS = "{http://www.w3.org/2000/svg}"
REGOLD = os.environ.get("NOTATION_TOOLS_REGOLD") == "1"

MID_GAME = {
    "elevation": ("elevation/club-league-round1-capture-win.pgn", 6),
    "game-of-war": ("game-of-war/charge-column.pgn", None),
    "maka-dai-dai-shogi": ("maka/tsa-sample-record.pgn", 10),
    "shih": ("shih/shih-selfplay-random-seed18.pgn", 30),
    "shuriken-2d": ("shuriken-2d/ladder-black-two-single-loops.pgn", None),
}
"""Each game's mid-game position: a sample record replayed to a ply (``None``: its end)."""
GAMES = all_games()
GAME_IDS = [game.id for game in GAMES]
every_game = pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)


class _StopAt(ReplayVisitor):
    def __init__(self, ply: int | None) -> None:
        self.ply = ply
        self.last: Any = None

    def visit_move(self, node: Any, move: Any, before: Any, ply: int, in_variation: bool) -> None:
        if not in_variation:
            self.last = move

    def stop_after(self, ply: int) -> bool:
        return self.ply is not None and ply >= self.ply


def mid_game(game: Any) -> tuple[Any, Any]:
    """The position of :data:`MID_GAME` and the move that reached it."""
    name, ply = MID_GAME[game.id]
    path = SAMPLES / name
    record = next(read_records(path.read_text(encoding="utf-8").splitlines(), str(path)))
    visitor = _StopAt(ply)
    result = replay(record, game_name=game.id, visitor=visitor)
    assert result.position is not None and visitor.last is not None
    assert not [d for d in record.diagnostics if d.code.startswith("E-")]
    return result.position, visitor.last


def start(game: Any) -> Any:
    return game.start_position(game.parse_rules(None))


def marks(*names: str) -> dict[str, bool]:
    return {name.replace("-", "_"): True for name in names}


def golden_cases() -> list[tuple[str, Any, str]]:
    cases = []
    for game in GAMES:
        cases.append((f"{game.id}-start", game, ""))
        cases.append((f"{game.id}-mid", game, "-"))
        for option in game.render_options:
            cases.append((f"{game.id}-mid-{option}", game, option))
    return cases


def draw_case(game: Any, option: str) -> str:
    if option == "":
        return game.render_svg(start(game))
    position, last = mid_game(game)
    return game.render_svg(position, last_move=last, **(marks(option) if option != "-" else {}))


# ---- golden files ---------------------------------------------------------------------------


@pytest.mark.parametrize("name,game,option", golden_cases(),
                         ids=[case[0] for case in golden_cases()])
def test_golden_svg(name, game, option):
    picture = draw_case(game, option) + "\n"
    path = GOLDEN / f"{name}.svg"
    if REGOLD:
        path.write_text(picture, encoding="utf-8")
    assert path.exists(), f"{path} is missing: NOTATION_TOOLS_REGOLD=1 writes it"
    expected = path.read_text(encoding="utf-8")
    assert picture == expected, (
        f"{name}: the picture differs from {path.relative_to(ROOT)}; if the change is meant, "
        "regenerate with NOTATION_TOOLS_REGOLD=1 and look at the result")
    ET.fromstring(picture)


def test_every_golden_file_is_a_case():
    names = {case[0] for case in golden_cases()}
    assert {path.stem for path in GOLDEN.glob("*.svg")} == names


# ---- text inside the canvas ---------------------------------------------------------------


def view_box(root: ET.Element) -> tuple[float, float]:
    x, y, width, height = map(float, root.get("viewBox").split())
    assert (x, y) == (0, 0)
    assert math.isclose(float(root.get("width")) / width, float(root.get("height")) / height,
                        rel_tol=0.01)
    return width, height


def text_box(element: ET.Element) -> tuple[float, float, float, float]:
    """The estimated extent (left, top, right, bottom) of a ``<text>``: EM_WIDTH a character,
    ASCENT above and DESCENT below the baseline, then its ``rotate(180 cx cy)`` if any."""
    size = float(element.get("font-size"))
    x, y = float(element.get("x")), float(element.get("y"))
    width = EM_WIDTH * size * len(element.text or "")
    anchor = element.get("text-anchor", "start")
    left = x - {"start": 0, "middle": width / 2, "end": width}[anchor]
    box = (left, y - ASCENT * size, left + width, y + DESCENT * size)
    transform = element.get("transform")
    if transform:
        match = re.fullmatch(r"rotate\(180 ([-\d.]+) ([-\d.]+)\)", transform)
        assert match, f"unexpected transform {transform}"
        cx, cy = float(match[1]), float(match[2])
        box = (2 * cx - box[2], 2 * cy - box[3], 2 * cx - box[0], 2 * cy - box[1])
    return box


def assert_text_inside(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    width, height = view_box(root)
    texts = list(root.iter(f"{NS}text"))
    assert texts
    for element in texts:
        left, top, right, bottom = text_box(element)
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, (
            f"{element.text!r} at {element.get('x')},{element.get('y')} leaves the "
            f"{width}x{height} canvas")
    return root


def long_status(game: Any) -> list[Any]:
    """Positions whose captions are long: later positions of random games and, where the
    game has them, non-default rules."""
    rng = random.Random(12)
    positions = []
    for rules_text in (None, _odd_rules(game)):
        position = game.start_position(game.parse_rules(rules_text))
        for _ in range(rng.randrange(20, 60)):
            moves = sorted(position.legal_moves(), key=repr)
            if not moves or position.outcome() is not None:
                break
            position.push(rng.choice(moves))
        positions.append(position)
    return positions


def _odd_rules(game: Any) -> str | None:
    """As many options of ``game`` as allow a default start, each set away from its default
    (a long rules line)."""
    parts: list[str] = []
    for option in game.options:
        values = option.values or (("yes", "no") if option.is_boolean else ())
        other = next((value for value in values if value != option.default), None)
        if other is None:
            continue
        try:
            game.start_position(game.parse_rules(",".join([*parts, f"{option.name}={other}"])))
        except EngineError:
            continue
        parts.append(f"{option.name}={other}")
    return ",".join(parts) or None


@every_game
def test_text_lies_inside_the_canvas_for_every_option_combination(game):
    options = list(game.render_options)
    positions = [(start(game), None), mid_game(game),
                 *((position, None) for position in long_status(game))]
    for position, last in positions:
        for count in range(len(options) + 1):
            for chosen in itertools.combinations(options, count):
                root = assert_text_inside(game.render_svg(position, last_move=last,
                                                          **marks(*chosen)))
                caption = root.find(f"{NS}g[@class='caption']")
                assert caption is not None and len(caption.findall(f"{NS}text")) >= 2
                assert root.find(f"{NS}g[@class='legend']") is not None


@every_game
def test_coordinates_stand_on_the_edges(game):
    """Coordinate labels are outside the board's squares: along the canvas edges."""
    root = ET.fromstring(game.render_svg(start(game)))
    labels = root.find(f"{NS}g[@class='coordinates']")
    assert labels is not None and len(labels) >= 16
    width, height = view_box(root)
    caption_top = min(text_box(t)[1] for t in root.find(f"{NS}g[@class='caption']").iter(f"{NS}text"))
    for label in labels:
        left, top, right, bottom = text_box(label)
        assert bottom <= caption_top


def test_caption_wraps_and_grows_the_canvas():
    game = get_game("shih")
    plain = ET.fromstring(game.render_svg(start(game)))
    lines = [t.text for t in plain.find(f"{NS}g[@class='caption']").iter(f"{NS}text")]
    assert lines[0].startswith("Blue to move (move 1)")
    assert any("Power Spins left: Blue 2, Red 2" in line for line in lines)
    width, height = view_box(plain)
    assert height > 8 * 40 * math.sqrt(3) / 2 + 40   # the board and a caption under it
    for line in lines:
        assert EM_WIDTH * 12 * len(line) <= width


# ---- display options --------------------------------------------------------------------


@pytest.mark.parametrize("game,option", [(game, option) for game in GAMES
                                         for option in game.render_options],
                         ids=[f"{game.id}-{option}" for game in GAMES
                              for option in game.render_options])
def test_every_display_option_changes_the_picture(game, option):
    position, last = mid_game(game)
    plain = game.render_svg(position, last_move=last)
    marked = game.render_svg(position, last_move=last, **marks(option))
    assert marked != plain
    root = ET.fromstring(marked)
    group = root.find(f".//{NS}g[@class='mark-{option}']")
    assert group is not None and len(group) > 0, f"no mark-{option} group drawn"
    assert ET.fromstring(plain).find(f".//{NS}g[@class='mark-{option}']") is None


def test_shih_options_give_three_different_pictures():
    game = get_game("shih")
    position, last = mid_game(game)
    pictures = {game.render_svg(position, last_move=last, **marks(option))
                for option in ("regions", "maze", "coordinates")}
    assert len(pictures) == 3


# ---- Shuriken: both sides ----------------------------------------------------------------


def _line_ends(root: ET.Element, css_class: str) -> list[tuple[float, float]]:
    return [((float(e.get("x1")) + float(e.get("x2"))) / 2,
             (float(e.get("y1")) + float(e.get("y2"))) / 2)
            for e in root.iter(f"{NS}line") if e.get("class") == css_class]


def test_shuriken_marks_both_sides_frames():
    """Black's sides are the top and bottom rims, White's the left and right (§1.3)."""
    game = get_game("shuriken-2d")
    root = ET.fromstring(game.render_svg(start(game)))
    black, white = _line_ends(root, "frame black"), _line_ends(root, "frame white")
    assert len(black) == len(white) > 0
    cells = [[float(v) for v in p.split(",")] for e in root.iter(f"{NS}polygon")
             if e.get("class") == "cell" for p in e.get("points").split()]
    top, bottom = min(y for _, y in cells), max(y for _, y in cells)
    reach = 12   # the hexagon size: a rim segment lies within one cell of the board's edge
    assert all(y < top + reach or y > bottom - reach for _, y in black)
    assert any(y < top + reach for _, y in black) and any(y > bottom - reach for _, y in black)
    assert sum(1 for _, y in white if top + reach < y < bottom - reach) >= 2 * 17
    legend = " ".join(t.text for t in root.find(f"{NS}g[@class='legend']").iter(f"{NS}text"))
    assert "Black's sides" in legend and "White's sides" in legend


@pytest.mark.parametrize("name,side", [("ladder-black-two-single-loops.pgn", "dark"),
                                       ("ladder-white-wins-alias-loophole.pgn", "light")])
def test_shuriken_loops_ring_the_winner_whichever_side(name, side):
    game = get_game("shuriken-2d")
    path = SAMPLES / "shuriken-2d" / name
    record = next(read_records(path.read_text(encoding="utf-8").splitlines(), str(path)))
    position = replay(record, game_name=game.id).position
    root = ET.fromstring(game.render_svg(position, loops=True))
    rings = {e.get("data-cell") for e in root.find(f"{NS}g[@class='mark-loops']")}
    stones = {e.get("data-cell"): e.get("class") for e in root.iter(f"{NS}g")
              if (e.get("class") or "").startswith("stone")}
    assert rings and {stones[cell].split()[-1] for cell in rings} == {side}
    captions = [t.text for t in root.find(f"{NS}g[@class='caption']").iter(f"{NS}text")]
    assert any(line.startswith(("Black loops:", "White loops:")) for line in captions)


# ---- Shih: labels clear of walls and pieces -----------------------------------------------


def _inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _distance(point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (x, y), (x1, y1), (x2, y2) = point, a, b
    return abs((x2 - x1) * (y1 - y) - (x1 - x) * (y2 - y1)) / math.hypot(x2 - x1, y2 - y1)


@pytest.mark.parametrize("named", [True, False], ids=["coordinates", "numbers"])
def test_shih_names_sit_inside_their_triangles_clear_of_the_walls(named):
    """With ``coordinates`` every space's name, without it (issue #29) its number along the
    row: inside its triangle, clear of the walls, over the discs, legible on a disc."""
    from notation_tools.games.shih.pieces import NAMES, ROWS
    from notation_tools.games.shih.render import PIECE_COLOURS, corners

    game = get_game("shih")
    position, last = mid_game(game)
    root = ET.fromstring(game.render_svg(position, last_move=last, coordinates=named))
    walls = {e.get("data-space"): e for e in root.find(f"{NS}g[@class='walls']")}
    wall_half = float(next(iter(walls.values())).get("stroke-width")) / 2
    layer = "mark-coordinates" if named else "space-numbers"
    names = root.find(f"{NS}g[@class='{layer}']")
    assert len(names) == len(NAMES)
    order = [child.get("class") for child in root]
    assert order.index(layer) > order.index("pieces")  # drawn over the discs
    from notation_tools.render.svg import TEXT_COLOUR

    for index, label in enumerate(names):
        space = NAMES.index(label.text) if named else index
        if not named:   # the number along the row: the name less its row letter
            assert ROWS.index(NAMES[space][0]) >= 0 and NAMES[space][1:] == label.text
        piece = position.board[space]
        if piece == -1:
            assert label.get("fill") in (TEXT_COLOUR, "#6b6455")
        else:
            assert label.get("fill") == PIECE_COLOURS[piece]["text"]   # legible on a disc
        left, top, right, bottom = text_box(label)
        box = [(left, top), (right, top), (right, bottom), (left, bottom)]
        sides = corners(space)
        triangle = sorted({*sides[0], *sides[1]})
        triangle = [triangle[0], triangle[1], triangle[2]]
        wall = walls[NAMES[space]]
        wall_ends = ((float(wall.get("x1")), float(wall.get("y1"))),
                     (float(wall.get("x2")), float(wall.get("y2"))))
        side_ends = sides[position.walls[space]]
        pull = _distance(wall_ends[0], *side_ends)
        for corner in box:
            assert _inside(corner, _hull(triangle)), (NAMES[space], corner)
            for a, b in sides.values():
                assert _distance(corner, a, b) > pull + wall_half, (NAMES[space], corner)


def _segment_distance(point: tuple[float, float], a: tuple[float, float],
                      b: tuple[float, float]) -> float:
    (x, y), (x1, y1), (x2, y2) = point, a, b
    t = ((x - x1) * (x2 - x1) + (y - y1) * (y2 - y1)) / ((x2 - x1) ** 2 + (y2 - y1) ** 2)
    t = min(1.0, max(0.0, t))
    return math.hypot(x - (x1 + t * (x2 - x1)), y - (y1 + t * (y2 - y1)))


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    return sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))


def test_shih_row_letters_stand_outside_the_rim():
    from notation_tools.games.shih.render import rim_points

    game = get_game("shih")
    root = ET.fromstring(game.render_svg(start(game)))
    rim = rim_points()
    rim_half = float(root.find(f"{NS}polygon[@class='rim']").get("stroke-width")) / 2
    labels = root.find(f"{NS}g[@class='coordinates']")
    assert sorted(label.text for label in labels) == sorted("abcdefgh" * 2)
    for label in labels:
        left, top, right, bottom = text_box(label)
        for corner in ((left, top), (right, top), (right, bottom), (left, bottom)):
            assert not _inside(corner, rim)
            assert min(_segment_distance(corner, a, b)
                       for a, b in zip(rim, rim[1:] + rim[:1])) > rim_half


# ---- pictures as pictures ----------------------------------------------------------------


@every_game
def test_one_visual_language(game):
    """The shared font and last-move colours come from render.svg in every picture."""
    from notation_tools.render import svg as shared

    position, last = mid_game(game)
    picture = game.render_svg(position, last_move=last)
    root = ET.fromstring(picture)
    fonts = {e.get("font-family") for e in root.iter(f"{NS}text")}
    assert fonts == {shared.FONT_FAMILY}
    colours = {shared.LAST_MOVE_TARGET, shared.LAST_MOVE_LINE, shared.LAST_MOVE_ORIGIN}
    assert any(colour in picture for colour in colours)
    assert root.find(f"{NS}desc").text == game.render_text(position)
