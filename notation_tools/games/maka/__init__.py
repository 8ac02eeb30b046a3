"""Maka-Dai-Dai Shogi (spec ``maka-dai-dai-shogi.md``): the Game object of the package.

Identity, the rule options and profiles of §7, and the engine entry points, each delegated
to the module that owns it (rules, notation, position string, rendering, statistics).
This module holds no rule itself.

>>> from notation_tools.games.maka import GAME
>>> pos = GAME.start_position(GAME.parse_rules("modern"))
>>> GAME.format_move(GAME.parse_move("P-10m", pos), pos, "coord")
'10n10m'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from notation_tools.games.base import (BadPositionError, Dialect, EngineError, Game,
                                       IllegalMoveError, MoveSyntaxError, RuleOption, Rules,
                                       Side, Style, TagConflictError)

from . import notation as _notation
from . import pieces as _pieces
from . import position as _position
from . import render as _render
from .explain import describe
from .pieces import TYPE_OF_ID, parse_square, square_name
from .rules import ZOBRIST_WHITE, Move, Position
from .stats import MakaStats, move_facts


def _option(name: str, values: tuple[str, ...], default: str, spec: str, help: str) -> RuleOption:
    return RuleOption(name=name, default=default, help=help, spec=spec, values=values)


OPTIONS = (
    _option("promotion", ("forced", "forced-if-victim-promoted", "optional"), "forced", "§6.8",
            "when a capture promotes"),
    _option("deva-contagion", ("off", "on"), "off", "§6.9",
            "capturing DV/TK or DSp/BSp converts the capturer"),
    _option("contagion-immune", ("royals-and-elephant", "royals", "none"), "royals-and-elephant",
            "§6.9", "who is exempt from contagion"),
    _option("lion-dog", ("q3", "linear"), "q3", "§6.5", "Lion Dog move, also in FF and TK v1"),
    _option("lion-dog-leap", ("yes", "no"), "yes", "§6.5",
            "linear Lion Dog may reach d2/d3 over pieces"),
    _option("teaching-king", ("1", "2"), "1", "§6.7",
            "TK = Q + Lion Dog, or Q + 3-step Lion"),
    _option("emperor-capture", ("unprotected", "royals-only", "unattacked", "any"), "unprotected",
            "§6.6", "the Emperor's capture restriction"),
    _option("emperor-protection", ("before", "after"), "before", "§6.6",
            "position in which protection is judged"),
    _option("emperor-as-defender", ("legal-recapture", "always"), "legal-recapture", "§6.6",
            "when an Emperor protects its own pieces"),
    _option("donkey-step", ("sideways", "orthogonal"), "sideways", "§6.12", "Donkey steps"),
    _option("free-bear-jump", ("yes", "no"), "yes", "§6.12", "Free Bear forward-diagonal jump"),
    _option("free-dragon", ("fq-bk", "r-bb"), "fq-bk", "§6.12", "Free Dragon move"),
    _option("free-wolf", ("bvr-sr5", "frlr-fb"), "bvr-sr5", "§6.12", "Free Wolf move"),
    _option("deva-dark-spirit", ("ssz", "sz", "srz"), "ssz", "§6.12", "Deva and Dark Spirit moves"),
    _option("srz-pieces", ("off", "on"), "off", "§6.12",
            "ten alternative moves from the 象棋六種之図式"),
    _option("lion-pass", ("needs-empty", "always"), "needs-empty", "§6.3",
            "may a Lion-type piece pass with no empty neighbour"),
    _option("self-check", ("allow", "warn", "forbid"), "allow", "§6.11",
            "leaving one's last royal capturable"),
    _option("repetition", ("allowed", "forbidden"), "allowed", "§6.13",
            "fourth occurrence of a position"),
    _option("no-legal-move", ("loss", "draw"), "loss", "§6.16",
            "side to move without a legal move"),
)

PROFILES: Mapping[str, Mapping[str, str]] = {
    "tsa": {},
    "modern": {"promotion": "forced-if-victim-promoted", "deva-contagion": "on",
               "lion-dog": "linear", "emperor-protection": "after", "donkey-step": "orthogonal",
               "free-bear-jump": "no", "free-dragon": "r-bb", "free-wolf": "frlr-fb",
               "repetition": "forbidden"},
}


class MakaDialect(Dialect):
    """How ShogiVar writes Maka records (§9.8): its text score's title lines, the word
    ``mate``, and the ``-`` placeholder of a handicap game's first move."""

    suffixes = (".txt", ".tsa", ".kif")
    placeholder = "-"
    fork_warning = "W-AMBIGUOUS-GOLD"  # §9.2 step 6
    ignored_words = frozenset({"mate"})  # ShogiVar appends it to a mating move (§9.8)

    def preamble_length(self, move_texts: Sequence[str]) -> int:
        """ShogiVar's text score opens with two title lines (§9.8): ``Ultra Great Great Shogi
        -  Game Record`` and a line of underscores; their words are skipped."""
        title = ["Ultra", "Great", "Great", "Shogi", "-", "Game", "Record"]
        if list(move_texts[:7]) != title:
            return 0
        rule = move_texts[7:8]
        return 8 if rule and set(rule[0]) == {"_"} else 7

    def sniff(self, move_texts: Sequence[str]) -> bool:
        """Whether untagged movetext looks like ShogiVar's TSA notation (§9.8)."""
        words = [w for w in move_texts if w not in ("-", "mate")]
        if not words:
            return False
        good = 0
        for word in words:
            try:
                pattern = _notation.parse_pattern(word, "tsa")
            except EngineError:
                continue
            if pattern.kind == "tsa":
                good += 1
        return good >= max(1, (len(words) * 4 + 4) // 5)


class MakaGame(Game[Position, Move]):
    """Maka-Dai-Dai Shogi: Black (side 0) moves first; ``1-0`` means Black wins."""

    id = "maka-dai-dai-shogi"
    name = "Maka-Dai-Dai Shogi"
    aliases = ("maka", "mdd")
    sides = ("Black", "White")
    results = ("1-0", "0-1")
    notations = _notation.NOTATIONS
    options = OPTIONS
    profiles = PROFILES
    default_profile = "tsa"
    rules_doc = "docs/rules/maka-dai-dai-shogi.md"
    dialect = MakaDialect()

    # ---- positions ------------------------------------------------------------------------

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> Position:
        """The initial position (§4), or the ``FEN`` one; handicap records start with White."""
        position = _position.parse_position(fen or _position.INITIAL, rules)
        if first_player is not None:
            if fen is not None and first_player != position.turn:
                raise TagConflictError(
                    f"FirstPlayer says {self.sides[first_player]} but the FEN has "
                    f"{self.sides[position.turn]} to move", rule="§6.15")
            position.turn = first_player
            position.key ^= ZOBRIST_WHITE if first_player else 0
            position.counts = {position.key: 1}
        return position

    def parse_position(self, text: str, rules: Rules) -> Position:
        return _position.parse_position(text, rules)

    def format_position(self, position: Position) -> str:  # type: ignore[override]
        return _position.format_position(position)

    # ---- moves ----------------------------------------------------------------------------

    def parse_move(self, text: str, position: Position,  # type: ignore[override]
                   notation: str | None = None) -> Move:
        """The legal move named by ``text`` (§9.2); warnings are dropped (see
        :meth:`resolve_move`). Raises E-SYNTAX, E-ILLEGAL-MOVE, E-AMBIGUOUS and the game's codes.
        """
        return _notation.resolve(text, position, notation).move

    def resolve_move(self, text: str, position: Position,
                     notation: str | None = None) -> _notation.Resolution:
        """Like :meth:`parse_move`, with warnings and the Gold-case alternatives."""
        return _notation.resolve(text, position, notation)

    def format_move(self, move: Move, position: Position,  # type: ignore[override]
                    notation: str | None = None) -> str:
        if notation == "json":
            return json.dumps(self.move_to_json(move, position))
        return _notation.format_move(move, position, notation)

    def move_to_json(self, move: Move, position: Position) -> Any:  # type: ignore[override]
        """The §9.7 object of a legal move."""
        board = position.board
        code = board[move.origin]
        data: dict[str, Any] = {"from": square_name(move.origin),
                                "legs": [square_name(s) for s in move.path]}
        if move.is_pass:
            data["pass"] = True
        mark = _notation.mark_text(move, position)
        if mark:
            data["mark"] = mark
        data.update({
            "side": "bw"[code & 1], "piece": TYPE_OF_ID[code >> 1].abbr,
            "to": square_name(move.to),
            "captures": [square_name(c) for c in move.captures],
            "captured": [TYPE_OF_ID[board[c] >> 1].abbr for c in move.captures],
            "becomes": TYPE_OF_ID[move.becomes].abbr if move.becomes != code >> 1 else None,
            "tsa": _notation.format_move(move, position, "tsa"),
            "coord": _notation.format_move(move, position, "coord"),
        })
        return data

    def move_from_json(self, data: Any, position: Position) -> Move:  # type: ignore[override]
        """Read a §9.7 object (or a tsa/coord string); extra keys are checked."""
        if isinstance(data, str):
            return self.parse_move(data, position, "coord" if data[:1].isdigit() else "tsa")
        if not isinstance(data, dict):
            raise MoveSyntaxError(f"a Maka move in JSON is an object or a string, not "
                                  f"{type(data).__name__}", rule="§9.7")
        origin = data.get("from")
        if not isinstance(origin, str) or parse_square(origin) is None:
            raise MoveSyntaxError('a JSON move needs "from" (a square)', rule="§9.7")
        mark = data.get("mark", "")
        if mark not in ("", "+", "=", None):
            raise MoveSyntaxError(f'"mark" is "+" or "=", not {mark!r}', rule="§9.7")
        if data.get("pass") is True:
            text = f"{origin}!{mark or ''}"
        else:
            legs = data.get("legs")
            if not isinstance(legs, list) or not legs or not all(isinstance(s, str) for s in legs):
                raise MoveSyntaxError('a JSON move needs "legs" (a list of squares) or '
                                      '"pass": true', rule="§9.7")
            text = origin + "".join(legs) + (mark or "")
        move = self.parse_move(text, position, "coord")
        written = self.move_to_json(move, position)
        for key in ("side", "piece", "to", "captures", "captured", "becomes", "tsa", "coord"):
            if key in data and data[key] != written[key]:
                raise IllegalMoveError(f"JSON key {key!r} is {data[key]!r}, but the move gives "
                                       f"{written[key]!r}", rule="§9.7")
        return move

    def format_warnings(self, move: Move, position: Position,  # type: ignore[override]
                        notation: str | None = None) -> Sequence[tuple[str, str]]:
        """W-AMBIGUOUS-OUTPUT when the canonical TSA token reads back as more than one move."""
        if notation not in (None, "tsa") or not _notation.output_is_ambiguous(move, position):
            return ()
        text = _notation.format_move(move, position, "tsa")
        return (("W-AMBIGUOUS-OUTPUT", f"{text} is ambiguous on reading back; use --to tsa-full"),)

    def describe_move(self, move: Move, position: Position) -> dict[str, Any]:  # type: ignore[override]
        facts = move_facts(position, move)
        return {"piece": facts["piece"], "captures": facts["captures"],
                "captured": ", ".join(f"{a}@{square_name(s)}" for s, a, _ in facts["captured"]),
                "becomes": TYPE_OF_ID[move.becomes].abbr}

    # ---- output ---------------------------------------------------------------------------

    def draw_text(self, position: Position, style: Style, marks: frozenset[str]) -> str:
        return _render.text_diagram(position, unicode=style is Style.UNICODE)

    def draw_svg(self, position: Position, last_move: Move | None, marks: frozenset[str]) -> str:
        return _render.svg(position, last_move=last_move)

    def new_stats(self, rules: Rules) -> MakaStats:
        return MakaStats(rules)

    def check_data(self) -> list[str]:
        problems = _pieces.check_tables()
        names = {o.name for o in self.options}
        for option, values in _pieces.ALTERNATIVE_MOVES.items():
            if option not in names:
                problems.append(f"alternative moves for unknown option {option}")
            elif set(values) != set(self.option_table[option].values or ()):
                problems.append(f"option {option}: alternative rows do not cover its values")
        return problems


GAME = MakaGame()

__all__ = ["GAME", "MakaGame", "Move", "Position", "BadPositionError", "describe"]
