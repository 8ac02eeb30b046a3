"""The opening explorer page: one self-contained HTML file (no server, works from
``file://``) that shows a position of an archive, the moves played from it with their counts
and scores, and goes deeper on a click (``notation-tools explore --html``).

The tree of positions is built beforehand (:func:`explorer_tree` over an ``explore``
function, e.g. :meth:`notation_tools.storage.game_database.Database.explore_position`) and
written into the page as JSON with each position's board drawn by the game's own SVG. The
look is the replay viewer's (its style sheet, read through :func:`.assets.asset`).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

from notation_tools.games.base import Game, Position
from notation_tools.pages.assets import asset

Explore = Callable[[Game[Any, Any], Position[Any]], dict[str, Any]]


def explorer_tree(game: Game[Any, Any], root: Position[Any], explore: Explore, *,
                  depth: int, max_positions: int) -> dict[str, Any]:
    """The positions reached from ``root`` by the moves the archive played, breadth first,
    at most ``depth`` moves deep and ``max_positions`` positions in all: ``root`` (its key as
    text) and ``nodes`` (key → ``explore``'s answer, its board as ``svg``, and ``via``, the
    move that first led to it)."""
    nodes: dict[str, dict[str, Any]] = {}
    frontier: list[tuple[Position[Any], str]] = [(root, "")]
    for level in range(depth + 1):
        deeper: list[tuple[Position[Any], str]] = []
        for position, via in frontier:
            key = str(game.position_key(position))
            if key in nodes or len(nodes) >= max_positions:
                continue
            answer = explore(game, position)
            answer["svg"] = game.render_svg(position)
            # Keys as text: JavaScript's numbers hold 53 bits, a key has 64.
            answer["key"] = key
            for move in answer["moves"]:
                move["key"] = None if move["key"] is None else str(move["key"])
            answer["via"] = via
            nodes[key] = answer
            if level == depth:
                continue
            for move in answer["moves"]:
                if move["key"] is not None and move["key"] not in nodes:
                    after = position.copy()
                    after.push(game.resolve_move(move["spellings"][0], position).move)
                    deeper.append((after, move["move"]))
        frontier = deeper
    return {"game": game.id, "name": game.name, "sides": list(game.sides),
            "root": str(game.position_key(root)), "nodes": nodes}


def explorer_page(tree: dict[str, Any], *, title: str) -> str:
    """The page for ``tree`` (:func:`explorer_tree`)."""
    data = json.dumps(tree, ensure_ascii=False).replace("</", "<\\/")
    first, second = (html.escape(side) for side in tree["sides"])
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>
{asset("viewer.css")}
{asset("explorer.css")}
</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
<p class="subtitle">{html.escape(tree["name"])}: the moves the archive played from each
position (transpositions counted); click a move to go deeper.</p>
<main>
<div id="board-panel"><div id="board"></div>
<div id="controls"><button id="back" type="button" title="back (left arrow)">&#9664;</button></div>
<div id="trail"></div><div id="status"></div></div>
<table id="next-moves" class="explorer">
<thead><tr><th>move</th><th>records</th><th>{first} wins</th><th>draws</th>
<th>{second} wins</th><th>unfinished</th><th>average plies</th><th>first date</th>
<th>last date</th><th>example</th></tr></thead>
<tbody></tbody></table>
</main>
<script type="application/json" id="explorer-data">{data}</script>
<script>
{asset("explorer.js")}
</script>
</body>
</html>
"""
