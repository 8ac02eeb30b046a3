"""Boards a newcomer can read (issue #29): names on hover for every piece, readable labels,
Game of War's last turn as arrows and its offline units marked, Elevation's fixed height
scale and its path over the piece, Shih's own colours and coordinates, Shuriken's windows
named, each game's standalone key, and pictures written one element a line in a stable
order (a viewer keeps later frames as line edits)."""

from __future__ import annotations

import dataclasses
import difflib
import re
import types
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.games.base import get_game
from notation_tools.records.pgn import read_records
from notation_tools.render.svg import DARK, LIGHT
from tests.render.test_boards import GAMES, GAME_IDS, NS, SAMPLES, mid_game, start

every_game = pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
PIECE_GROUPS = {"maka-dai-dai-shogi": "piece", "game-of-war": "unit", "elevation": "piece",
                "shih": "piece", "shuriken-2d": "stone"}
"""The class (first word) of each game's piece groups."""
SIDES = {"maka-dai-dai-shogi": ("Black", "White"), "game-of-war": ("North", "South"),
         "elevation": ("White", "Black"), "shih": ("Blue", "Red"),
         "shuriken-2d": ("Black", "White")}


def pieces(root: ET.Element, game: Any) -> list[ET.Element]:
    layer = root.find(f"{NS}g[@class='pieces']")
    assert layer is not None
    return [g for g in layer if g.get("class", "").split()[0] == PIECE_GROUPS[game.id]]


def frames(game: Any, name: str) -> list[tuple[Any, Any]]:
    """Every (position, last move) of a sample record's main line, the start first."""
    path = SAMPLES / name
    record = next(read_records(path.read_text(encoding="utf-8").splitlines(), str(path)))
    shown: list[tuple[Any, Any]] = []

    class Collect(ReplayVisitor):
        def visit_move(self, node: Any, move: Any, before: Any, ply: int,
                       in_variation: bool) -> None:
            if not in_variation:
                shown.append((before.copy(), move))

    result = replay(record, game_name=game.id, visitor=Collect())
    if not shown:
        return [(result.position, None)]
    positions = [position for position, _ in shown[1:]] + [result.position]
    return [(shown[0][0], None)] + [(after, move) for after, (_, move) in zip(positions, shown)]


# ---- names on hover ---------------------------------------------------------------------


@every_game
def test_every_piece_carries_its_full_name(game):
    for position, last in ((start(game), None), mid_game(game)):
        root = ET.fromstring(game.render_svg(position, last_move=last))
        drawn = pieces(root, game)
        assert drawn
        for group in drawn:
            title = group.find(f"{NS}title")
            assert title is not None and title.text, ET.tostring(group)
            side, _, name = title.text.partition(" ")
            assert side in SIDES[game.id] and len(name) >= 4, title.text


def test_maka_names_come_from_the_piece_table():
    """§12 and the piece tables: the kings on 10s and 10a, the Dragon King beside them."""
    game = get_game("maka")
    root = ET.fromstring(game.render_svg(start(game)))
    names = {g.get("data-square"): g.find(f"{NS}title").text for g in pieces(root, game)}
    assert names["10s"] == "Black King" and names["10a"] == "White King"
    assert names["12o"] == "Black Dragon King" and names["8a"] == "White Gold General"
    assert len(names) == 2 * 96


def test_game_of_war_elevation_shih_shuriken_names():
    gow = get_game("game-of-war")
    root = ET.fromstring(gow.render_svg(start(gow)))
    titles = {g.find(f"{NS}title").text for g in pieces(root, gow)}
    assert {"North infantry", "South cavalry", "North relay", "South mounted artillery"} <= titles
    elevation = get_game("elevation")
    root = ET.fromstring(elevation.render_svg(start(elevation)))
    named = {g.get("data-square"): g.find(f"{NS}title").text for g in pieces(root, elevation)}
    assert (named["a1"], named["b1"], named["c1"], named["c6"]) == (
        "White Samurai", "White Fish", "White Dragon", "Black Dragon")
    shih = get_game("shih")
    root = ET.fromstring(shih.render_svg(start(shih)))
    named = {g.get("data-space"): g.find(f"{NS}title").text for g in pieces(root, shih)}
    assert named["a1"] == "Blue piece" and named["h1"] == "Red piece"   # spec §3 start
    shuriken = get_game("shuriken-2d")
    root = ET.fromstring(shuriken.render_svg(start(shuriken)))
    assert {g.find(f"{NS}title").text for g in pieces(root, shuriken)} == {
        "Black stone", "White stone"}


# ---- Maka: labels a reader can read ------------------------------------------------------


@pytest.mark.parametrize("board_px", [1366 * 0.5, 1024 * 0.6])
def test_maka_labels_are_large(board_px):
    """Every abbreviation at least 0.4 of a square, and at least 11 px when the board is
    drawn half as wide as a 1366 px screen or 0.6 of a 1024 px one."""
    game = get_game("maka")
    position, last = mid_game(game)
    root = ET.fromstring(game.render_svg(position, last_move=last))
    width = float(root.get("viewBox").split()[2])
    sizes = [float(g.find(f"{NS}text").get("font-size")) for g in pieces(root, game)]
    square = float(root.find(f"{NS}g[@class='board']")[0].get("width"))
    assert min(sizes) >= 0.4 * square
    assert min(sizes) * board_px / width >= 11


# ---- Game of War: the last turn and offline units ----------------------------------------


def _gow_turn_with_attack() -> tuple[Any, Any]:
    game = get_game("game-of-war")
    for path in sorted((SAMPLES / "game-of-war").glob("*.pgn")):
        for position, move in frames(game, str(path.relative_to(SAMPLES)))[1:]:
            if getattr(move, "attack", None) is not None and len(move.steps) >= 2:
                return position, move
    raise AssertionError("no sample turn with two moves and an attack")


def test_game_of_war_last_turn_is_drawn_as_arrows():
    """Spec §16.2: one arrow per unit moved, origin to destination, with an arrowhead; the
    attack's target framed in red; origins and destinations in different colours."""
    game = get_game("game-of-war")
    position, turn = _gow_turn_with_attack()
    picture = game.render_svg(position, last_move=turn)
    root = ET.fromstring(picture)
    layer = root.find(f"{NS}g[@class='last-turn']")
    arrows = layer.findall(f"{NS}polyline[@class='step-arrow']")
    assert len(arrows) == len(turn.steps)
    markers = {m.get("id") for m in root.iter(f"{NS}marker")}
    for arrow, step in zip(arrows, turn.steps):
        assert re.fullmatch(r"url\(#(.+)\)", arrow.get("marker-end"))[1] in markers
        (x1, y1), (x2, y2) = (tuple(map(float, p.split(","))) for p in
                              arrow.get("points").split())
        ox, oy = _square_centre(root, step.origin)
        tx, ty = _square_centre(root, step.target)
        assert (x2 - x1) * (tx - ox) + (y2 - y1) * (ty - oy) > 0   # it points the right way
        assert abs(x1 - ox) <= 12 and abs(y2 - ty) <= 12
    target = layer.find(f"{NS}rect[@class='attack-target']")
    assert target is not None and target.get("stroke") != target.get("fill")
    order = [g.get("class") for g in root if g.tag == f"{NS}g"]
    assert order.index("last-turn") > order.index("pieces")


def _square_centre(root: ET.Element, square: int) -> tuple[float, float]:
    from notation_tools.games.gow.pieces import COLS
    return 20 + (square % COLS) * 24 + 12, 20 + (square // COLS) * 24 + 12


def test_game_of_war_offline_units_stand_out():
    """The mid-game sample leaves South's M12 and M13 offline (its caption says so)."""
    game = get_game("game-of-war")
    position, last = mid_game(game)
    root = ET.fromstring(game.render_svg(position, last_move=last))
    offline = {g.get("data-square"): g for g in pieces(root, game)
               if "offline" in g.get("class").split()}
    assert set(offline) == {"M12", "M13"}
    for group in pieces(root, game):
        assert group.get("opacity") in (None, "1")   # nothing faded away
    for group in offline.values():
        assert group.find(f"{NS}circle[@class='offline-badge']") is not None
        mark = group.find(f"{NS}rect[@class='offline-mark']")
        assert mark.get("stroke") == "#000000" and mark.get("fill").startswith("url(#")
        assert group.find(f"{NS}title").text.endswith("(offline)")
    legend = " ".join(t.text for t in root.find(f"{NS}g[@class='legend']").iter(f"{NS}text"))
    assert "offline" in legend and "attack target" in legend


# ---- Elevation: a fixed height scale, the path over the piece ----------------------------


def _fills_by_height(root: ET.Element) -> dict[int, str]:
    return {int(rect.get("data-height")): rect.get("fill")
            for rect in root.find(f"{NS}g[@class='board']").iter(f"{NS}rect")}


def test_elevation_height_colours_do_not_rescale():
    """§11.2: a height has one colour at every position; the key ends at the same top."""
    game = get_game("elevation")
    pictures = [ET.fromstring(game.render_svg(position, last_move=last))
                for position, last in frames(game, "elevation/club-league-round1-capture-win.pgn")]
    seen: dict[int, str] = {}
    keys = set()
    for root in pictures:
        for height, fill in _fills_by_height(root).items():
            assert seen.setdefault(height, fill) == fill, height
        texts = [t.text for t in root.find(f"{NS}g[@class='legend']").iter(f"{NS}text")]
        keys.add(tuple(t for t in texts if re.fullmatch(r"\d+\+?", t)))
    assert len(seen) >= 3 and len(keys) == 1
    assert next(iter(keys))[-1] == "8+"


def test_elevation_height_scale_follows_max_height():
    game = get_game("elevation")
    position = game.start_position(game.parse_rules("max-height=5"))
    root = ET.fromstring(game.legend_svg(position))
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert [t for t in texts if re.fullmatch(r"\d+\+?", t)] == ["1", "2", "3", "4", "5"]
    assert {"S Samurai", "F Fish", "D Dragon"} <= set(texts)


def test_elevation_path_has_an_arrowhead_over_the_piece():
    game = get_game("elevation")
    position, last = mid_game(game)
    root = ET.fromstring(game.render_svg(position, last_move=last))
    order = [g.get("class") for g in root if g.tag == f"{NS}g"]
    assert order.index("last-move") > order.index("pieces")
    path = root.find(f"{NS}g[@class='last-move']/{NS}polyline[@class='path']")
    assert path is not None and path.get("marker-end", "").startswith("url(#")


# ---- Shih: its own colours, coordinates, a size that scales --------------------------------


def test_shih_colours_numbers_and_size():
    game = get_game("shih")
    root = ET.fromstring(game.render_svg(start(game)))
    fills = {g.find(f"{NS}title").text: g.find(f"{NS}circle").get("fill")
             for g in pieces(root, game)}
    for name, fill in fills.items():
        r, g_, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
        assert fill not in (LIGHT["fill"], DARK["fill"])
        assert (b > r) if name.startswith("Blue") else (r > b), (name, fill)
    numbers = root.findall(f"{NS}g[@class='space-numbers']/{NS}text")
    assert len(numbers) == 96
    assert sorted({int(t.text) for t in numbers}) == list(range(1, 16))   # rows up to 15
    assert float(root.get("width")) > 1.4 * float(root.get("viewBox").split()[2])
    named = ET.fromstring(game.render_svg(start(game), coordinates=True))
    assert named.find(f"{NS}g[@class='space-numbers']") is None
    assert "larger" not in game.render_options["coordinates"]


# ---- Shuriken: the windows named ---------------------------------------------------------


def test_shuriken_windows_are_named_where_they_are():
    game = get_game("shuriken-2d")
    root = ET.fromstring(game.render_svg(start(game)))
    labels = {t.text: t for t in root.iter(f"{NS}text") if t.get("class") == "window"}
    assert {"W1", "W2"} <= set(labels) and any(k.startswith("W3") for k in labels)
    cells = {p.get("id"): p for p in root.iter(f"{NS}polygon") if p.get("class") == "cell"}
    for name, neighbours in (("W1", ("cell-N4", "cell-N8")), ("W2", ("cell-F12", "cell-F16"))):
        ys = [sum(float(p.split(",")[1]) for p in cells[c].get("points").split()) / 6
              for c in neighbours]
        assert min(ys) < float(labels[name].get("y")) < max(ys)


# ---- the standalone key ------------------------------------------------------------------


@every_game
def test_every_game_has_a_key(game):
    position, _ = mid_game(game)
    key = game.legend_svg(position)
    root = ET.fromstring(key)
    assert root.find(f"{NS}g[@class='legend']") is not None
    assert len(list(root.iter(f"{NS}text"))) >= 4


def test_maka_key_lists_only_the_types_on_the_board():
    game = get_game("maka")
    position, _ = mid_game(game)
    texts = [t.text for t in ET.fromstring(game.legend_svg(position)).iter(f"{NS}text")]
    from notation_tools.games.maka.pieces import TYPE_OF_ID
    present = {TYPE_OF_ID[code >> 1].name for code in position.board if code}
    listed = {text.split(" ", 1)[1] for text in texts
              if " " in text and text.split(" ", 1)[0] in {t.abbr for t in TYPE_OF_ID[1:]}}
    assert listed == present


def test_a_game_without_a_key_gives_an_empty_one():
    game = get_game("elevation")
    bare = types.SimpleNamespace(text_diagram=game.render.text_diagram, svg=game.render.svg)
    assert dataclasses.replace(game, render=bare).legend_svg(start(game)) == ""


# ---- one element a line, in a stable order -----------------------------------------------


@every_game
def test_frames_are_line_edits_of_each_other(game):
    name = {"elevation": "elevation/club-league-round1-capture-win.pgn",
            "game-of-war": "game-of-war/charge-column.pgn",
            "maka-dai-dai-shogi": "maka/tsa-sample-record.pgn",
            "shih": "shih/shih-selfplay-random-seed18.pgn",
            "shuriken-2d": "shuriken-2d/ladder-black-two-single-loops.pgn"}[game.id]
    shown = frames(game, name)[:12]
    pictures = [game.render_svg(position, last_move=last) for position, last in shown]
    for picture in pictures:
        for line in picture.splitlines():
            assert len(re.findall(r"<[a-z]", line)) <= 1, line
    for before, after in zip(pictures[1:], pictures[2:]):
        changed = [line for line in difflib.unified_diff(
            before.splitlines(), after.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and line[:3] not in ("+++", "---")]
        assert len(changed) <= 0.25 * len(after.splitlines()), len(changed)
        assert sum(map(len, changed)) <= 0.3 * len(after), sum(map(len, changed))
