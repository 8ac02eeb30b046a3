"""Maka-Dai-Dai Shogi, the Game object: identity, diagnostic codes, and the game object built
from the package's modules (rules, notation, position string, rendering, statistics). This
module holds no rule itself; the rules reference is ``docs/rules/maka-dai-dai-shogi.md``.

>>> pos = GAME.start_position(GAME.parse_rules("modern"))
>>> GAME.format_move(GAME.parse_move("P-10m", pos), pos, "coord")
'10n10m'
"""

from __future__ import annotations

from notation_tools.codes import ERROR, WARNING, Code
from notation_tools.games.base import Game
from notation_tools.games.maka.keys import KEYS, SQUARE_NAMES, material, occupants
from notation_tools.games.maka import formats, notation, pieces, position, render, stats
from notation_tools.games.maka.moves import Move
from notation_tools.games.maka.options import (OPTIONS, PROFILES, Options,
                                               check_alternative_moves)
from notation_tools.games.maka.rules import Position

CODES: tuple[Code, ...] = (
    Code("E-BAD-SQUARE", ERROR, "a square outside files 1-19 and ranks a-s, or with a leading "
         "zero", "§9.1"),
    Code("E-UNKNOWN-PIECE", ERROR, "a designation that names no piece, or + before a piece that "
         "never promotes", "§3.4"),
    Code("E-NO-PIECE", ERROR, "the side to move has no such piece (on the origin written)",
         "§9.2"),
    Code("E-CAPTURE-MARK", ERROR, "x onto a square without an enemy, or - onto an enemy", "§9.1"),
    Code("E-MULTI-LEG", ERROR, "several legs, ! or x! for a piece without Lion power, or more "
         "legs than the piece has", "§9.1"),
    Code("E-PROMOTION", ERROR, "a promotion mark the rules forbid: = on a compulsory promotion "
         "or contagion, + or = where no promotion is possible", "§6.8"),
    Code("W-PROMOTION-MARK", WARNING, "a promotion mark missing or superfluous where it is "
         "tolerated", "§9.2"),
    Code("W-SELF-CHECK", WARNING, "a move leaves the mover's only royal piece capturable "
         "(self-check=warn)", "§6.11"),
    Code("W-AMBIGUOUS-GOLD", WARNING, "G without an origin fits an original and a gold-promoted "
         "Gold, and the rest of the record never tells them apart", "§9.2"),
    Code("E-SVAR", ERROR, "a ShogiVar save file (.svar) whose layout cannot be read", "§9.9"),
    Code("E-SVAR-BOARD", ERROR, "the moves of a ShogiVar save, replayed, do not end on the "
         "board it saved", "§9.9"),
    Code("W-SVAR-TAKEN-BACK", WARNING, "a ShogiVar save whose board differs from the replayed "
         "one only where Take Back of ShogiVar's extra ply after a mate changed it", "§9.9"),
    Code("W-AMBIGUOUS-OUTPUT", WARNING, "convert wrote a TSA token that reads back as more than "
         "one move", "§9.4"),
)
"""The diagnostic codes of Maka-Dai-Dai Shogi beyond the shared ones (§11)."""

GAME: Game[Position, Move] = Game(
    keys=KEYS, occupants=occupants, material=material, square_names=SQUARE_NAMES,
    id="maka-dai-dai-shogi", name="Maka-Dai-Dai Shogi", sides=pieces.SIDE_NAMES,
    default_profile="tsa", position_type=Position, notation=notation, positions=position,
    render=render, stats=stats, aliases=("maka", "mdd"), options=OPTIONS, options_type=Options,
    profiles=PROFILES, rules_doc="docs/rules/maka-dai-dai-shogi.md", codes=CODES,
    file_formats=formats.FILE_FORMATS, json_moves=notation,
    format_checker=notation.format_warnings,
    data_checks=(pieces.check_tables, check_alternative_moves),
)
"""Maka-Dai-Dai Shogi: Black (side 0) moves first; ``1-0`` means Black wins."""
