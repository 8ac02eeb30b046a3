"""What the viewer tests share: sample records per game, the drawings the page must show
(computed from the engines, not from the page), and reading a page's data back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.pages.viewer import frame_numbers, read_page_data
from notation_tools.records.model import Record
from notation_tools.records.pgn import read_records

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"

PLAYABLE = {
    "elevation": SAMPLES / "container" / "hand-annotated-variations.pgn",
    "gow": SAMPLES / "game-of-war" / "charge-column.pgn",
    "maka": SAMPLES / "maka" / "tsa-sample-record.pgn",
    "shih": SAMPLES / "shih" / "shih-opening-wall-notation.pgn",
    "shuriken": SAMPLES / "shuriken-2d" / "casual-unfinished-and-resigned.pgn",
}
"""A valid sample record of each game with at least three plies."""

ILLEGAL = {
    "elevation": SAMPLES / "elevation" / "broken-illegal-move.pgn",
    "gow": SAMPLES / "game-of-war" / "broken-illegal-move.pgn",
    "maka": SAMPLES / "maka" / "broken-illegal-move.pgn",
    "shih": SAMPLES / "shih" / "broken-illegal-move.pgn",
    "shuriken": SAMPLES / "shuriken-2d" / "broken-illegal-move-occupied.pgn",
}
"""A sample record of each game that stops at an illegal move."""


def first_record(path: Path) -> Record:
    with open(path, encoding="utf-8") as stream:
        return next(read_records(stream, str(path)))


class _MainLine(ReplayVisitor):
    def __init__(self) -> None:
        self.after: list[tuple[Any, Any]] = []

    def visit_move(self, node, move, before, ply, in_variation):
        if not in_variation:
            after = before.copy()
            after.push(move)
            self.after.append((after, move))


def expected_drawings(path: Path, marks: tuple[str, ...] = ()) -> list[str]:
    """The game's own drawing of the start and of the position after each main-line move
    the replay plays (the last move marked), with ``marks`` on."""
    visitor = _MainLine()
    result = replay(first_record(path), visitor=visitor, keep_start=True)
    keywords = {name.replace("-", "_"): True for name in marks}
    game = result.game
    return [game.render_svg(result.start, **keywords)] + [
        game.render_svg(position, last_move=move, **keywords) for position, move in visitor.after]


def page_data(page: str) -> dict[str, Any]:
    """The page's data, its dense notation read back (frames and pieces as lists)."""
    match = re.search(r'<script type="application/json" id="viewer-data">(.*?)</script>',
                      page, re.S)
    assert match, "the page has no viewer data"
    return read_page_data(json.loads(match.group(1)))


def rebuilt(data: dict[str, Any], step: int, variant: int = 0) -> str:
    """The drawing of ``step`` as the page's script rebuilds it, done again in Python."""
    pieces = data["pieces"]
    return "".join(pieces[n] for n in frame_numbers(data, step, variant))


_NUMBERED_MOVE = re.compile(r'<span class="move (?:played|stop)\b|<i>')
"""A played move's span, or the short cell ``<i>`` of a played move of the main line with
nothing beside it, whose span the script makes (viewer.js)."""
_LISTED_MOVE = re.compile(r'<span class="move (played|stop)[^"]*">([^<]*)</span>|<i>([^<]*)</i>')


def numbered_moves(page: str) -> list[tuple[str, str]]:
    """The played moves and the stop of the page's list, in its order: (state, text as
    written in the page's HTML) each."""
    return [(state or "played", text if state else short)
            for state, text, short in _LISTED_MOVE.findall(page)]


def step_at(page: str, offset: int) -> int:
    """The step of the played (or stop) move whose span opens before ``offset`` of the page
    and is the last to: the page's script numbers those moves 1, 2, ... in the list's order."""
    return len(_NUMBERED_MOVE.findall(page, 0, offset))
