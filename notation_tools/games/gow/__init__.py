"""Guy Debord's Game of War ("Le Jeu de la Guerre"): the :class:`Game` entry point (``GAME``).

Spec: ``game-of-war.md``. Side 0 is North, side 1 South; ``1-0`` means North wins. A move is a
whole turn (:class:`~notation_tools.games.gow.moves.Turn`, one token such as
``G8-H9,G6-G5,xJ13=D``); ``legal_moves``, ``perft`` and ``push`` also work action by action
inside a turn (spec §17). This module wires the parts together and holds no rule itself.

>>> GAME.id, GAME.aliases
('game-of-war', ('gow', 'kriegspiel', 'debord'))
>>> pos = GAME.start_position(GAME.parse_rules("rsg"))
>>> GAME.format_position(pos)[-17:]
'B15,D8,T3,T23 - 1'
"""

from __future__ import annotations

import random
from typing import Any

from notation_tools.games import base
from notation_tools.games.base import Dialect, Rules, Style, TagConflictError
from notation_tools.games.gow import formats as _formats
from notation_tools.games.gow import notation as _notation
from notation_tools.games.gow import pieces, render, stats
from notation_tools.games.gow import position as position_codec
from notation_tools.games.gow.moves import Attack, EndTurn, Step, Turn
from notation_tools.games.gow.options import OPTIONS, PROFILES
from notation_tools.games.gow.pieces import NAMES, SIDE_NAMES
from notation_tools.games.gow.rules import Position

__all__ = ["GAME", "GameOfWar", "Position", "Turn", "Step", "Attack", "EndTurn"]


class GowDialect(Dialect):
    """How Game of War records are written (§13.2, §15)."""

    move_number_code = ("W-MOVE-NUMBER", "warning")  # §15: numbers are informative only

    def sniff(self, move_texts: Any) -> bool:
        """Tokens like ``G8-H9,xL8=D`` or ``--`` (spec §13.2)."""
        texts = [t for t in move_texts if t]
        if not texts:
            return False
        for text in texts:
            try:
                _notation.parse_token(text)
            except base.EngineError:
                return False
        return any(text != "--" for text in texts)

    def first_move_number(self, position: Any) -> int:
        """The move number before the first turn of a record starting at ``position`` (§5.3)."""
        return (position.turn_number + 1) // 2


class GowSampler:
    """Random legal turns for ``generate`` (spec §17)."""

    def sample(self, position: Any, rng: random.Random) -> Turn | None:
        """A random legal turn (spec §17): 0-5 random moves, then a random attack or none.

        The retreat comes first when one is pending. So that random games meet and fight,
        each move is drawn from the forward moves (towards the enemy's side of the map) with
        probability 0.6 and redrawn (up to three times) when it would leave the unit out of
        communication; a move onto an enemy arsenal is taken one time in two when there is
        one; and an attack that dislodges or destroys is declared when one exists
        (a random attack otherwise, one time in four). Attacks carry their computed outcome
        mark. Returns None when the game is over.
        """
        if position.outcome() is not None:
            return None
        work = position.copy()
        steps: list[Step] = []
        wanted = rng.randint(0, 5)
        work._begin()
        if work._retreat_now():
            wanted = max(wanted, 1)
        forward = 1 if work.turn == 0 else -1
        while len(steps) < wanted:
            choices = work.legal_steps()
            if not choices:
                break
            ahead = [s for s in choices if (s.dest // 25 - s.origin // 25) * forward > 0]
            raids = [s for s in choices if work._enemy_arsenal(s.dest, work.turn)
                     and pieces.IS_FIGHTING[work.board[s.origin]]]
            if raids and rng.random() < 0.5:
                step = rng.choice(raids)
                work.push(step)
                steps.append(step)
                if work._decided():
                    return Turn(tuple(steps))
                continue
            for attempt in range(4):
                step = rng.choice(ahead if ahead and rng.random() < 0.6 else choices)
                work.push(step)
                # Prefer moves that leave the unit in communication, so that armies stay
                # able to move and fight; the last attempt is kept whatever it does.
                if attempt == 3 or work.is_online(step.dest):
                    break
                work.pop()
            steps.append(step)
            if work._decided():
                return Turn(tuple(steps))
        attacks = [(a.target, work.combat(a.target).mark) for a in work.legal_attacks()]
        winning = [a for a in attacks if a[1] != "0"]
        if winning and rng.random() < 0.9:
            return Turn(tuple(steps), Attack(*rng.choice(winning)))
        if attacks and rng.random() < 0.25:
            return Turn(tuple(steps), Attack(*rng.choice(attacks)))
        return Turn(tuple(steps))


class GameOfWar(base.Game[Position, Any]):
    """Debord's Game of War (spec §1)."""

    id = "game-of-war"
    name = "Game of War"
    aliases = ("gow", "kriegspiel", "debord")
    sides = ("North", "South")
    results = ("1-0", "0-1")
    notations = ("turn",)
    options = OPTIONS
    profiles = PROFILES
    default_profile = "debord"
    rules_doc = "docs/rules/game-of-war.md"
    dialect = GowDialect()
    sampler = GowSampler()
    render_options = {
        "north-lines": "mark the squares covered by North's lines of communication",
        "south-lines": "mark the squares covered by South's lines of communication",
    }

    # ---- positions -----------------------------------------------------------------------

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: int | None = None) -> Position:
        """The record's start: its ``FEN``, else the book opening (spec §5.2, §13.1).

        Raises BadPositionError, or TagConflictError (E-FIRST-PLAYER) when ``FirstPlayer``
        contradicts the FEN.
        """
        if fen is None:
            pos = position_codec.parse_position(position_codec.BOOK_OPENING, rules)
            if first_player is not None:
                pos.turn = first_player
            return pos
        pos = position_codec.parse_position(fen, rules)
        if first_player is not None:
            first = pos.turn if pos.turn_number % 2 else 1 - pos.turn
            if first != first_player:
                raise TagConflictError(
                    f"FirstPlayer {SIDE_NAMES[first_player]} contradicts the FEN, whose first "
                    f"player is {SIDE_NAMES[first]} (side {'N' if pos.turn == 0 else 'S'}, turn "
                    f"{pos.turn_number})", code="E-FIRST-PLAYER", rule="§13.1")
        return pos

    def parse_position(self, text: str, rules: Rules) -> Position:
        return position_codec.parse_position(text, rules)

    def format_position(self, position: Any) -> str:
        return position_codec.format_position(position)

    def parse_side(self, text: str) -> int:
        try:
            return super().parse_side(text)
        except TagConflictError as error:
            raise TagConflictError(error.message, code="E-FIRST-PLAYER", rule="§13.1") from None

    # ---- moves ---------------------------------------------------------------------------

    def parse_move(self, text: str, position: Any, notation: str | None = None) -> Any:
        """The turn ``text`` names (spec §13.2), checked by the engine; see notation.parse_move."""
        return _notation.parse_move(text, position, notation)

    def format_move(self, move: Any, position: Any = None, notation: str | None = None) -> str:
        return _notation.format_move(move, position, notation)

    def annotate_move(self, move: Any, position: Any) -> Any:
        """The turn with its attack's computed outcome mark (§13.2 ``--annotate-outcomes``).

        >>> from notation_tools.games.gow.moves import Attack, Turn
        >>> GAME.annotate_move(Turn(), GAME.start_position(GAME.parse_rules(None)))
        Turn(())
        """
        if not isinstance(move, Turn) or move.attack is None or move.attack.mark is not None:
            return move
        mark = self.describe_move(move, position)["mark"]
        return Turn(move.steps, Attack(move.attack.target, mark))

    def describe_move(self, move: Any, position: Any) -> dict[str, Any]:
        """Facts for ``moves`` listings (spec §17): a step's unit; an attack's offence, defence,
        outcome and contributors (the turn's attack, or a single Attack)."""
        if isinstance(move, Step):
            unit = pieces.UNITS[position.board[move.origin]]
            return {"unit": unit.name if unit else None}
        attack = move.attack if isinstance(move, Turn) else move if isinstance(move, Attack) else None
        if attack is None:
            return {}
        work = position.copy()
        if isinstance(move, Turn):
            for step in move.steps:
                work.push(step)
        work._begin()
        combat = work.combat(attack.target)
        return {"offence": combat.offence, "defence": combat.defence,
                "outcome": {"D": "destroyed", "R": "forced retreat", "0": "no effect"}[combat.mark],
                "mark": combat.mark,
                "offence_parts": " ".join(f"{NAMES[s]}:{v}" for s, v, _ in combat.offence_parts),
                "defence_parts": " ".join(f"{NAMES[s]}:{v}" for s, v, _ in combat.defence_parts)}

    # ---- output --------------------------------------------------------------------------

    def draw_text(self, position: Any, style: Style, marks: frozenset[str]) -> str:
        """The text diagram of spec §16.1; ``north-lines``/``south-lines`` mark covered squares."""
        return render.text_diagram(position, unicode=style == Style.UNICODE,
                                   north_lines="north-lines" in marks,
                                   south_lines="south-lines" in marks)

    def draw_svg(self, position: Any, last_move: Any, marks: frozenset[str]) -> str:
        """The SVG of spec §16.2; ``north-lines``/``south-lines`` tint covered squares."""
        return render.svg(position, last_move=last_move, north_lines="north-lines" in marks,
                          south_lines="south-lines" in marks)

    file_formats = _formats.FILE_FORMATS

    def new_stats(self, rules: Rules) -> stats.GowStats:
        return stats.GowStats(rules)

    def check_data(self) -> list[str]:
        return pieces.check_tables()


GAME = GameOfWar()
"""The Game of War."""
