"""The Shih :class:`~notation_tools.games.base.Game`: identity, options, and the entry points.

This module wires the package together (geometry, rules, notation, position string, render,
statistics) behind the Game protocol; it adds no rule of its own.

>>> from notation_tools.games.shih import GAME
>>> rules = GAME.parse_rules("standard; allow-early-end=no")
>>> rules.describe()
'standard; allow-early-end=no'
>>> pos = GAME.start_position(rules)
>>> GAME.format_move(GAME.parse_move("b2-b1,b4-b3", pos), pos)
'b2-b1,b4-b3'
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..base import (BadPositionError, Dialect, Game, MoveSyntaxError, Outcome, Rules, Side, Style,
                    TagConflictError)
from . import notation as tokens
from . import pieces, position, render, stats
from .moves import Turn
from .options import OPTIONS, PROFILES, check_rules
from .rules import ShihPosition


class ShihDialect(Dialect):
    """Untagged Shih movetext: turn tokens only."""

    def sniff(self, move_texts: Any) -> bool:
        return tokens.sniff(list(move_texts))


class ShihGame(Game[ShihPosition, Turn]):
    """Shih (spec ``shih.md``): Blue is side 0 and moves first by default; ``1-0`` = Blue."""

    id = "shih"
    name = "Shih"
    aliases: ClassVar[tuple[str, ...]] = ()
    sides = ("Blue", "Red")
    results = ("1-0", "0-1")
    notations = tokens.NOTATIONS
    options = OPTIONS
    profiles = PROFILES
    default_profile = "standard"
    rules_doc = "docs/rules/shih.md"
    dialect = ShihDialect()
    render_options = {
        "regions": "mark the enclosed regions (no empty space inside) with letters and list "
                   "them under the diagram",
        "coordinates": "label every space with its name (a larger drawing)",
        "maze": "draw the triangular lattice itself: walled edges drawn, open edges blank",
    }

    def check_rules(self, rules: Rules) -> None:
        check_rules(rules)

    # ---- positions -----------------------------------------------------------------------

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> ShihPosition:
        """The record's start (§3.3): its FEN, or the reconstructed default start (§3.4).

        Raises BadPositionError for a bad FEN or ``pieces-per-player=16`` without one, and
        TagConflictError when a FirstPlayer tag contradicts the FEN's side to move.
        """
        if fen is not None:
            start = position.parse_position(fen, rules)
            if first_player is not None and first_player != start.turn:
                raise TagConflictError(f"FirstPlayer {self.sides[first_player]} contradicts the "
                                       f"FEN, which has {self.sides[start.turn]} to move",
                                       rule="§3.3")
            return start
        if rules["pieces-per-player"] == 16:
            raise BadPositionError("no default start for 16 pieces; give SetUp/FEN",
                                   rule="§3.3")
        spins = rules["power-spins-per-player"]
        text = position.DEFAULT_START.replace(" 22 ", f" {spins}{spins} ")
        start = position.parse_position(text, rules)
        start.turn = first_player if first_player is not None else (
            0 if rules["first-player"] == "blue" else 1)
        return ShihPosition(rules, start.walls, start.board, start.spins, start.turn)

    def parse_position(self, text: str, rules: Rules) -> ShihPosition:
        return position.parse_position(text, rules)

    def format_position(self, pos: ShihPosition) -> str:  # type: ignore[override]
        return position.format_position(pos)

    # ---- moves ---------------------------------------------------------------------------

    def parse_move(self, text: str, pos: ShihPosition,  # type: ignore[override]
                   notation: str | None = None) -> Turn:
        if notation is not None and notation not in self.notations:
            raise MoveSyntaxError(f"unknown notation {notation!r} for Shih", rule="§12.3")
        return tokens.parse_move(text, pos, notation)

    def format_move(self, move: Turn, pos: ShihPosition,  # type: ignore[override]
                    notation: str | None = None) -> str:
        return tokens.format_move(move, pos, notation)

    def move_to_json(self, move: Turn, pos: ShihPosition) -> dict[str, Any]:  # type: ignore[override]
        """The turn as JSON: its token, its actions, and what each did (captures etc.).

        Only ``token`` is read back by :meth:`move_from_json`; the rest is for programs.
        """
        effects = pos.effects(move)
        sides = pos.wall_sides(move)
        actions = []
        for action, effect, wall in zip(move.actions, effects, sides):
            entry: dict[str, Any] = {"kind": effect.kind, "mp": effect.mp}
            if effect.kind == "step":
                entry["from"] = pieces.NAMES[action.origin]
                entry["to"] = pieces.NAMES[action.target]
            else:
                entry["target"] = pieces.NAMES[action.target]
                entry["direction"] = "cw" if action.clockwise else "ccw"
                entry["wall"] = pieces.SIDE_LETTERS[wall]
                entry["captured"] = [pieces.NAMES[s] for s in effect.captured]
                if effect.self_captured:
                    entry["self_captured"] = [pieces.NAMES[s] for s in effect.self_captured]
                if effect.kind == "power-spin":
                    entry["surrender"] = [pieces.NAMES[s] for s in effect.surrendered]
            entry["ended_game"] = effect.ended
            actions.append(entry)
        return {"token": self.format_move(move, pos), "actions": actions,
                "early_end": move.early_end}

    def move_from_json(self, data: Any, pos: ShihPosition) -> Turn:  # type: ignore[override]
        if isinstance(data, dict):
            data = data.get("token")
        if not isinstance(data, str):
            raise MoveSyntaxError("a Shih move in JSON is a token string or an object with "
                                  "a 'token' string", rule="§12")
        return self.parse_move(data, pos)

    def describe_move(self, move: Turn, pos: ShihPosition) -> dict[str, Any]:  # type: ignore[override]
        effects = pos.effects(move)
        captured = [pieces.NAMES[s] for e in effects for s in e.captured]
        surrendered = [pieces.NAMES[s] for e in effects for s in e.surrendered]
        facts: dict[str, Any] = {"mp": move.mp}
        if captured:
            facts["captures"] = " ".join(captured)
        if surrendered:
            facts["surrenders"] = " ".join(surrendered)
        if any(e.ended for e in effects):
            facts["ends_game"] = True
        return facts

    # ---- output --------------------------------------------------------------------------

    def draw_text(self, pos: ShihPosition, style: Style, marks: frozenset[str]) -> str:
        return render.text_diagram(pos, style=style,
                                   **{name: True for name in marks})

    def draw_svg(self, pos: ShihPosition, last_move: Turn | None,
                 marks: frozenset[str]) -> str:
        # The text-only marks (regions, maze, coordinates) have no SVG form; the picture
        # already draws every wall.
        return render.svg(pos, last_move=last_move)

    def new_stats(self, rules: Rules) -> stats.ShihStats:
        return stats.ShihStats(rules)

    def check_data(self) -> list[str]:
        return pieces.check_tables()


GAME = ShihGame()
"""The Shih game (registry entry)."""
