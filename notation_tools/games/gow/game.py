"""The Game of War :class:`~notation_tools.games.base.Game`: identity, diagnostic codes, and
the game object built from the package's modules.

Side 0 is North, side 1 South; ``1-0`` means North wins. A move is a whole turn
(:class:`~notation_tools.games.gow.moves.Turn`, one token such as ``G8-H9,G6-G5,xJ13=D``);
``generate_legal_moves``, ``perft`` and ``push`` also work action by action inside a turn
(§17). This module holds no rule and no format of its own.

>>> GAME.id, GAME.aliases
('game-of-war', ('gow', 'kriegspiel', 'debord'))
>>> pos = GAME.start_position(GAME.parse_rules("rsg"))
>>> GAME.format_position(pos)[-17:]
'B15,D8,T3,T23 - 1'
>>> GAME.annotate_move(Turn(), pos)
Turn(())
"""

from __future__ import annotations

from typing import Any

from notation_tools.codes import ERROR, NOTE, WARNING, Code
from notation_tools.games.base import Game
from notation_tools.games.gow.keys import KEYS, SQUARE_NAMES, material, occupants
from notation_tools.games.gow import formats, notation, pieces, position, render, sampling, stats
from notation_tools.games.gow.moves import Attack, Turn
from notation_tools.games.gow.options import OPTIONS, PROFILES, Options
from notation_tools.games.gow.rules import Position

CODES: tuple[Code, ...] = (
    Code("E-SQUARE", ERROR, "a letter and number that name no square (U3, A26, A0)", "§13.2"),
    Code("E-TOO-MANY-MOVES", ERROR, "more than five moves in a turn", "§4"),
    Code("E-ATTACK-NOT-LAST", ERROR, "an action after the attack", "§13.2"),
    Code("E-TWO-ATTACKS", ERROR, "a second attack in a turn", "§4"),
    Code("E-NO-UNIT", ERROR, "no unit on the square a move starts from", "§7.1"),
    Code("E-NOT-OWN-UNIT", ERROR, "a move of an enemy unit", "§7.1"),
    Code("E-UNIT-MOVED-TWICE", ERROR, "a unit moved a second time in one turn", "§7.1"),
    Code("E-UNIT-OFFLINE", ERROR, "a fighting unit out of communication tries to move", "§7.1"),
    Code("E-DEST-OCCUPIED", ERROR, "a move onto a square that holds a unit", "§7.1"),
    Code("E-DEST-MOUNTAIN", ERROR, "a move onto a mountain", "§7.1"),
    Code("E-TOO-FAR", ERROR, "a move longer than the unit's speed", "§7.1"),
    Code("E-PATH-BLOCKED", ERROR, "a two-square move without a usable square between", "§7.2"),
    Code("E-RETREAT-FIRST", ERROR, "a forced retreat is pending and another unit moves first",
         "§9"),
    Code("E-RETREAT-MISSING", ERROR, "a forced retreat is pending and possible, and the turn "
         "has no move", "§9"),
    Code("E-RETREAT-ARSENAL", ERROR, "a retreat onto an enemy arsenal, which the rules forbid",
         "§7.3"),
    Code("E-SECOND-ARSENAL", ERROR, "a second enemy arsenal entered in one turn", "§7.3"),
    Code("E-ATTACK-AFTER-ARSENAL", ERROR, "an attack in a turn that destroyed an arsenal",
         "§7.3"),
    Code("E-MOVE-AFTER-ARSENAL", ERROR, "a move after an arsenal's destruction, which the "
         "rules forbid", "§7.3"),
    Code("E-RELAY-ON-ARSENAL", ERROR, "a relay onto an enemy arsenal, which the rules forbid",
         "§7.3"),
    Code("E-ATTACK-NO-TARGET", ERROR, "an attack on an empty square, an arsenal or an own unit",
         "§8.1"),
    Code("E-ATTACK-NO-OFFENCE", ERROR, "an attack with no offence", "§8.1"),
    Code("E-ATTACK-NO-MOVE", ERROR, "an attack in a turn with no move before it "
         "(attack-needs-move=yes)", "§8.1"),
    Code("E-ATTACK-NOT-WINNING", ERROR, "an attack whose offence does not exceed the defence, "
         "under attack-minimum=winning", "§8.1"),
    Code("E-OUTCOME-MISMATCH", ERROR, "a written outcome mark that the combat sums contradict",
         "§8.6"),
    Code("E-SETUP-TERRITORY", ERROR, "a turn-1 position with a unit outside its territory",
         "§5.1"),
    Code("E-FIRST-PLAYER", ERROR, "a bad FirstPlayer value, or one the FEN contradicts",
         "§13.1"),
    Code("E-KFEN", ERROR, "an unreadable KFEN string or pykrieg .kfen record", "§14"),
    Code("E-EBARJOU", ERROR, "an unreadable JeuDeLaGuerre save file", "§14"),
    Code("W-SETUP-INCOMPLETE", WARNING, "a turn-1 position with fewer units than the roster",
         "§5.1"),
    Code("W-MOVE-NUMBER", WARNING, "a move number that does not follow the turn count", "§15"),
    Code("W-MAP-DIFFERS", WARNING, "a foreign file's terrain differs from the standard map",
         "§14"),
    Code("W-MID-TURN", WARNING, "a foreign position saved inside a turn", "§14"),
    Code("W-KFEN-HISTORY", WARNING, "a pykrieg history that cannot be replayed: a "
         "position-only record is made", "§14"),
    Code("I-TURN-ASSUMED", NOTE, "a turn number the source does not give", "§14"),
)
"""The diagnostic codes the Game of War raises beyond the shared ones (§15)."""


def annotate_move(move: Any, position: Position) -> Any:
    """The turn with its attack's computed outcome mark (§13.2 ``--annotate-outcomes``); a
    single action, or a turn whose mark is written or that has no attack, as it is."""
    if not isinstance(move, Turn) or move.attack is None or move.attack.mark is not None:
        return move
    mark = stats.describe_move(move, position)["mark"]
    return Turn(move.steps, Attack(move.attack.target, mark))


GAME: Game[Position, Turn] = Game(
    keys=KEYS, occupants=occupants, material=material, square_names=SQUARE_NAMES,
    id="game-of-war", name="Game of War", sides=pieces.SIDE_NAMES, default_profile="debord",
    position_type=Position, notation=notation, positions=position, render=render, stats=stats,
    aliases=("gow", "kriegspiel", "debord"), options=OPTIONS, options_type=Options,
    profiles=PROFILES, rules_doc="docs/rules/game-of-war.md", codes=CODES,
    sampler=sampling.SAMPLER, file_formats=formats.FILE_FORMATS,
    data_checks=(pieces.check_tables,), first_player_error=("E-FIRST-PLAYER", "§13.1"),
    annotator=annotate_move,
    render_options={
        "north-lines": "mark the squares covered by North's lines of communication",
        "south-lines": "mark the squares covered by South's lines of communication",
    },
)
"""Debord's Game of War (§1)."""
