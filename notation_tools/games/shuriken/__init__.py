"""Shuriken 2D (Mark Steere, 2008; also published as Loophole 2D): the :data:`GAME` object.

Spec: ``shared/specs/shuriken-2d.md``. This module ties the pieces together behind the
``Game`` protocol; the rules live in ``rules.py``, the geometry in ``pieces.py``, the turn
token in ``notation.py``, the position string in ``position.py``, pictures in ``render.py``
and statistics in ``stats.py``.

>>> rules = GAME.parse_rules(None)
>>> pos = GAME.start_position(rules)
>>> move = GAME.parse_move("k10", pos)
>>> GAME.format_move(move, pos), pos.turn
('K10', 0)
>>> pos.push(move); GAME.format_position(pos)[:40]
'19/19/19/12bbb4/11w---w3/11w---w3/11w---'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from notation_tools.games.base import (
    BadPositionError, Dialect, Game, MoveSyntaxError, Position, RuleOption, Rules, Side, Style,
    TagConflictError)
from notation_tools.games.shuriken import pieces
from notation_tools.games.shuriken.notation import format_move, parse_pattern
from notation_tools.games.shuriken.position import START_STRING, format_position, parse_position
from notation_tools.games.shuriken.render import svg, text_diagram
from notation_tools.games.shuriken.rules import PLACES, SWAP, Place, ShurikenPosition, Swap
from notation_tools.games.shuriken.stats import ShurikenStats

__all__ = ["GAME", "Place", "ShurikenGame", "ShurikenPosition", "Swap"]


class ShurikenDialect(Dialect):
    """Untagged Shuriken movetext: cell names only."""

    def sniff(self, move_texts: Sequence[str]) -> bool:
        """Cell names A1..S19 (and ``swap`` as the second token) only."""
        if not move_texts:
            return False
        for i, text in enumerate(move_texts):
            try:
                move = parse_pattern(text)
            except MoveSyntaxError:
                return False
            if isinstance(move, Swap) and i != 1:
                return False
        return True


class ShurikenSampler:
    """Random placements without building the move list."""

    def sample(self, position: Position, rng: Any) -> Place | Swap | None:
        """A uniformly chosen legal move (``swap`` included when legal), ``None`` at the end."""
        assert isinstance(position, ShurikenPosition)
        cells = position.empty_cells()
        if not cells:
            return None
        if position.can_swap() and rng.randrange(len(cells) + 1) == len(cells):
            return SWAP
        return PLACES[rng.choice(cells)]


class ShurikenGame(Game[ShurikenPosition, "Place | Swap"]):
    """Shuriken 2D behind the ``Game`` protocol. Side 0 is Black, who places first (§2.1)."""

    id = "shuriken-2d"
    name = "Shuriken 2D"
    aliases = ("shuriken", "loophole")
    sides = ("Black", "White")
    results = ("1-0", "0-1")   # §0 of the spec: "1-0" is a Black (first player) win
    notations = ("cell",)
    options = (
        RuleOption("swap", "no", "pie rule: White's first turn may be 'swap' (the black stone "
                   "is replaced by a white one on the transposed cell)", "§6"),
    )
    profiles = {"standard": {}}
    default_profile = "standard"
    rules_doc = "docs/rules/shuriken-2d.md"
    dialect = ShurikenDialect()
    sampler = ShurikenSampler()
    draws_possible = False  # spec §8: the board always fills to a win
    render_options = {
        "loops": "mark the stones of groups that carry a loop (X/O) and list each player's loops",
    }

    # ---- positions -----------------------------------------------------------------------

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> ShurikenPosition:
        """The standard start (§1.5) or the set-up position ``fen``.

        Black always places first (§2.1): a ``FirstPlayer`` of White without a ``FEN``, or
        one that contradicts the ``FEN``'s side to move, is :class:`TagConflictError`.
        """
        if fen is None:
            if first_player not in (None, 0):
                raise TagConflictError("Shuriken 2D: Black always places first (§2.1); a "
                                       "FirstPlayer of White needs a FEN with White to move",
                                       rule="§2.1")
            return ShurikenPosition.start(swap_allowed=rules["swap"])
        position = self.parse_position(fen, rules)
        if first_player is not None and first_player != position.turn:
            raise TagConflictError(f"FirstPlayer {self.sides[first_player]} contradicts the "
                                   f"FEN ({self.sides[position.turn]} to move)", rule="§5")
        return position

    def parse_position(self, text: str, rules: Rules) -> ShurikenPosition:
        """The §5 position string; raises :class:`BadPositionError` (``E-BAD-POSITION``)."""
        return parse_position(text, swap_allowed=rules["swap"])

    def format_position(self, position: Position) -> str:
        """The canonical §5 string (maximal runs): ``format(parse(s)) == s``."""
        assert isinstance(position, ShurikenPosition)
        return format_position(position)

    # ---- moves ---------------------------------------------------------------------------

    def parse_move(self, text: str, position: Position,
                   notation: str | None = None) -> Place | Swap:
        """The legal move ``text`` names (§7): the token's cell, checked by the engine.

        Raises ``E-SYNTAX``/``E-BAD-SQUARE`` (:class:`MoveSyntaxError`), ``E-ILLEGAL-MOVE``
        or ``E-MOVE-AFTER-END`` (:class:`IllegalMoveError`).
        """
        if notation not in (None, "cell"):
            raise MoveSyntaxError(f"{self.name} has no notation {notation!r} (only 'cell')")
        return position.check(parse_pattern(text))  # type: ignore[attr-defined]

    def format_move(self, move: Any, position: Position, notation: str | None = None) -> str:
        """The canonical §7 token: upper-case cell without leading zeros, or ``swap``."""
        return format_move(move)

    def describe_move(self, move: Any, position: Position) -> dict[str, Any]:
        """The mover's rank after ``move`` and the loops it forms (§9 per-move figures)."""
        assert isinstance(position, ShurikenPosition)
        side = position.turn
        before = set(position.loops(side))
        position.push(move)
        try:
            rank = position.rank(side)
            new = [loop for loop in position.loops(side) if loop not in before]
            wins = position.winner == side
        finally:
            position.pop()
        return {"rank": rank, "new_loops": " ".join(new), "wins": wins}

    # ---- output --------------------------------------------------------------------------

    def draw_text(self, position: ShurikenPosition, style: Style, marks: frozenset[str]) -> str:
        """The §10.1 diagram; ``loops`` marks the loop groups and lists the loops."""
        return text_diagram(position, style=style.value, loops="loops" in marks)

    def draw_svg(self, position: ShurikenPosition, last_move: Any,
                 marks: frozenset[str]) -> str:
        """The §10.2 picture; ``loops`` rings the stones of loop-carrying groups."""
        return svg(position, last_move=last_move, loops="loops" in marks)

    def new_stats(self, rules: Rules) -> ShurikenStats:
        """A fresh §9 statistics collector."""
        return ShurikenStats()

    def check_data(self) -> list[str]:
        """Geometry table problems (``pieces.check_tables``) and a start-string round trip."""
        problems = pieces.check_tables()
        try:
            start = parse_position(START_STRING)
        except BadPositionError as error:   # pragma: no cover - only if the tables are broken
            problems.append(f"start string: {error.message}")
        else:
            if format_position(start) != START_STRING:
                problems.append("start string does not round-trip")
        return problems


GAME = ShurikenGame()
