"""The Elevation :class:`~notation_tools.games.base.Game`: identity, rule options, entry points.

It wires the engine modules together and adds no rule of its own beyond option consistency
(§9). It does not read files or print.

>>> from notation_tools.games.elevation import GAME
>>> GAME.parse_rules("standard; fish-diag2-model=jump").describe()
'standard; fish-diag2-model=jump'
"""

from __future__ import annotations

from typing import Any

from notation_tools.games import base
from notation_tools.games.base import (
    BadRulesError, Dialect, Game, RuleOption, Rules, Side, Style, TagConflictError, int_option)
from notation_tools.games.elevation import notation as _notation
from notation_tools.games.elevation import pieces, render, stats
from notation_tools.games.elevation import position as _position
from notation_tools.games.elevation.moves import Move, Turn
from notation_tools.games.elevation.pieces import PIECE_CODES
from notation_tools.games.elevation.rules import Position, config_of, start_heights

START_PIECES = "sfddfs/6/6/6/6/SFDDFS"
"""§3.3 [reconstruction]: S F D D F S on each home rank, the two sides facing file by file."""

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("initial-height", "3", "tiles per square in the default start", "§3.3, §9",
               values=None, convert=int_option(0, 99)),
    RuleOption("capture-height", "at-least-2", "height advantage needed to capture", "§4.3, §9",
               values=("at-least-2", "exactly-2")),
    RuleOption("basic-dig-optional", "no", "B and F may omit the dig", "§4.1, §9"),
    RuleOption("basic-move-optional", "no", "B may omit the move", "§4.1, §9"),
    RuleOption("fish-diag2-model", "through-empty", "how a Fish's two-square diagonal move works",
               "§4.4", values=("through-empty", "jump", "two-free-diagonal-steps")),
    RuleOption("dragon-mm-max-captures", "2", "captures allowed in one MM", "§4.5, §9",
               values=("0", "1", "2"), convert=int),
    RuleOption("dragon-mm-forbid-return", "no", "MM may not end on its starting square", "§4.5, §9"),
    RuleOption("dragon-c2-requires-climb2", "no", "C2 must climb exactly two levels", "§4.5, §9"),
    RuleOption("forbid-null-dig-pair", "no", "DD may not undo its own first dig", "§4.5, §9"),
    RuleOption("max-height", "none", "highest allowed stack (none or an integer >= 1)", "§4.2, §9",
               values=None, convert=int_option(1, None, allow_none=True)),
    RuleOption("repetition-rule", "threefold", "automatic draw by repetition", "§5",
               values=("threefold", "consecutive-undo-6-plies", "off")),
    RuleOption("two-pieces-per-turn", "no", "a turn is two piece-turns by different pieces", "§8.1"),
    RuleOption("undermining", "no", "a dig may take its tile from under an enemy (U, DD)", "§8.2"),
    RuleOption("samurai-undermine-and-move", "no",
               "a Samurai's basic move may use an undermining dig (needs undermining)", "§8.2"),
    RuleOption("ocean-free-move", "off", "steps from height 0 ignore the climb (and capture) limit",
               "§8.3", values=("off", "climb", "climb-capture")),
)


class ElevationDialect(Dialect):
    """Untagged Elevation movetext: turn tokens only."""

    def sniff(self, move_texts: Any) -> bool:
        """Whether the tokens look like Elevation turns (every one parses as a turn token)."""
        if not move_texts:
            return False
        for text in move_texts:
            try:
                _notation.parse_pattern(text)
            except base.EngineError:
                return False
        return True


class ElevationSampler:
    """Random turns without building every two-piece turn."""

    def sample(self, position: Any, rng: Any) -> Move | Turn | None:
        """A uniformly chosen legal turn; under ``two-pieces-per-turn`` the first piece-turn
        is chosen uniformly, then the second uniformly among those it leaves (building every
        whole turn would cost a million objects)."""
        pos = position
        if pos.outcome() is not None:
            return None
        if not pos.config.two_pieces:
            moves = pos.legal_piece_turns()
            return rng.choice(moves) if moves else None
        firsts = pos.legal_piece_turns()
        if not firsts:
            return None
        first = rng.choice(firsts)
        after = pos.copy()
        after._apply(first)
        if not after.counts[after.turn ^ 1]:
            return Turn((first,))
        seconds = after.legal_piece_turns(first.end)
        return Turn((first, rng.choice(seconds))) if seconds else Turn((first,))


class ElevationGame(Game[Position, "Move | Turn"]):
    """Steve Baker's Elevation (2013): digging and climbing on a 6×6 board of tile stacks."""

    id = "elevation"
    name = "Elevation"
    aliases = ()
    sides = ("White", "Black")
    results = ("1-0", "0-1")
    notations = _notation.NOTATIONS
    options = OPTIONS
    profiles = {"standard": {}}
    default_profile = "standard"
    rules_doc = "docs/rules/elevation.md"
    dialect = ElevationDialect()
    sampler = ElevationSampler()
    render_options = {}

    def check_rules(self, rules: Rules) -> None:
        """§8.2: ``samurai-undermine-and-move`` needs ``undermining``."""
        if rules["samurai-undermine-and-move"] and not rules["undermining"]:
            raise BadRulesError("samurai-undermine-and-move=yes needs undermining=yes", rule="§8.2")

    # ---- positions -----------------------------------------------------------------------

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> Position:
        """The start of a record (§3.3, §3.4).

        >>> from notation_tools.games.elevation import GAME
        >>> rules = GAME.parse_rules("initial-height=2")
        >>> GAME.format_position(GAME.start_position(rules, first_player=1))
        '222222/222222/222222/222222/222222/222222 sfddfs/6/6/6/6/SFDDFS b'
        """
        if fen is not None:
            pos = _position.parse_position(fen, rules)
            if first_player is not None and first_player != pos.turn:
                raise TagConflictError(
                    f"the FEN gives {self.sides[pos.turn]} to move but FirstPlayer says "
                    f"{self.sides[first_player]}", rule="§3.4")
            return pos
        board = [0] * 36
        ranks = START_PIECES.split("/")
        for index, char in enumerate(ranks[0]):
            board[30 + index] = PIECE_CODES[char]
        for index, char in enumerate(ranks[5]):
            board[index] = PIECE_CODES[char]
        return Position(rules, start_heights(config_of(rules)), board,
                        0 if first_player is None else first_player)

    def parse_position(self, text: str, rules: Rules) -> Position:
        return _position.parse_position(text, rules)

    def format_position(self, position: Any) -> str:
        return _position.format_position(position)

    # ---- moves ---------------------------------------------------------------------------

    def parse_move(self, text: str, position: Any, notation: str | None = None) -> Move | Turn:
        return _notation.parse_move(text, position, notation)

    def format_move(self, move: Any, position: Any, notation: str | None = None) -> str:
        return _notation.format_move(move, position, notation)

    def describe_move(self, move: Any, position: Any) -> dict[str, Any]:
        """What each piece-turn does: piece, option, digs, path, captures (§10)."""
        return stats.describe(move, position)

    # ---- output --------------------------------------------------------------------------

    def draw_text(self, position: Position, style: Style, marks: frozenset[str]) -> str:
        return render.text_diagram(position, style=style)

    def draw_svg(self, position: Position, last_move: Any, marks: frozenset[str]) -> str:
        return render.svg(position, last_move=last_move)

    def new_stats(self, rules: Rules) -> stats.ElevationStats:
        return stats.ElevationStats(rules)

    def check_data(self) -> list[str]:
        return pieces.check_tables()


GAME = ElevationGame()
