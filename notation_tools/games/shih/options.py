"""Shih rule options and profiles as data (§11), and the typed options engines read.

Every point the sources leave open is one row of :data:`OPTIONS`; profiles are differences
from the defaults. :class:`Options` holds the values of one ``Rules`` as typed fields; the
engine obtains it with ``base.options_of(Options, rules)`` (cached per rules), so the move
generator reads attributes, not a mapping, on every move. Every combination of values is
playable, so there is no ``check_rules``. This module applies no rule.

>>> from notation_tools.games.base import options_of
>>> from notation_tools.games.shih import GAME
>>> options = options_of(Options, GAME.parse_rules("standard; spin-directions=cw-only"))
>>> options.spin_directions, options.cw_only, options.win_threshold
('cw-only', True, 9)
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.base import RuleOption, int_option
from notation_tools.games.shih.pieces import BLUE, MAX_POWER_SPINS, PIECES_PER_PLAYER, RED


def _off_or_count(text: str) -> int | None:
    if text == "off":
        return None
    count: int = int_option(1)(text)
    return count


OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("pieces-per-player", str(PIECES_PER_PLAYER), "pieces per side; 16 (one "
               "secondary description) has no default start and needs SetUp/FEN", "§2, §3.3",
               ("14", "16"), int),
    RuleOption("first-player", "blue", "side to move in the default start (a FEN's side "
               "field always wins)", "§2", ("blue", "red")),
    RuleOption("power-spins-per-player", "2", "Power Spins each side starts with in the "
               "default start", "§8", tuple(str(n) for n in range(MAX_POWER_SPINS + 1)), int),
    RuleOption("allow-split-mp-between-pieces", "yes", "no: both 1-MP actions of a turn use "
               "one piece", "§4"),
    RuleOption("allow-early-end", "yes", "no: a turn may end with MP unspent only when no "
               "legal action exists", "§4"),
    RuleOption("spin-directions", "both", "cw-only: every rotation (Spin and Power Spin) is "
               "clockwise", "§7", ("both", "cw-only")),
    RuleOption("multi-region-capture", "all", "which newly sealed regions may be captured",
               "§9.2", ("all", "far-only")),
    RuleOption("already-enclosed", "capture", "exempt: pieces already sealed in an "
               "all-enemy full region before the action are not captured", "§9.2",
               ("capture", "exempt")),
    RuleOption("self-capture", "no", "yes: sealing only your own pieces loses them to the "
               "opponent", "§9.2"),
    RuleOption("surrender-counts-as-capture", "yes", "surrendered pieces are credited to "
               "the opponent", "§8"),
    RuleOption("simultaneous-nine", "draw", "both sides reach the threshold (or lose their "
               "last piece) in the same action", "§10", ("draw", "mover-wins", "mover-loses")),
    RuleOption("win-threshold", "9", "captures needed to win", "§10",
               tuple(str(n) for n in range(1, PIECES_PER_PLAYER + 1)), int),
    RuleOption("no-legal-action", "pass", "a player with no legal action passes or loses",
               "§4, §10", ("pass", "lose")),
    RuleOption("draw-no-capture-turns", "off", "draw after N turns without capture or "
               "surrender", "§10", None, _off_or_count),
    RuleOption("draw-repetition", "off", "draw on the third occurrence of a position",
               "§10", ("off", "threefold")),
)

PROFILES: dict[str, dict[str, str]] = {"standard": {}}
"""Profile name → option texts that differ from the defaults (§11: ``standard`` = defaults)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """The option values of one ``Rules``, one field per row of :data:`OPTIONS` (``-`` written
    ``_``), plus the derived flags the move generator tests on every move (``init=False``).

    >>> Options(14, "red", 2, True, True, "both", "far-only", "capture", False, True, "draw",
    ...         9, "lose", None, "off").first_side
    1
    """

    pieces_per_player: int
    first_player: str
    power_spins_per_player: int
    allow_split_mp_between_pieces: bool
    allow_early_end: bool
    spin_directions: str
    multi_region_capture: str
    already_enclosed: str
    self_capture: bool
    surrender_counts_as_capture: bool
    simultaneous_nine: str
    win_threshold: int
    no_legal_action: str
    draw_no_capture_turns: int | None
    draw_repetition: str

    first_side: int = dataclasses.field(init=False)
    """``first-player`` as a side index (§2)."""
    cw_only: bool = dataclasses.field(init=False)
    """``spin-directions=cw-only`` (§7)."""
    far_only: bool = dataclasses.field(init=False)
    """``multi-region-capture=far-only`` (§9.2 step 3)."""
    exempt: bool = dataclasses.field(init=False)
    """``already-enclosed=exempt`` (§9.2 step 5)."""
    lose_if_stuck: bool = dataclasses.field(init=False)
    """``no-legal-action=lose`` (§4, §10)."""
    threefold: bool = dataclasses.field(init=False)
    """``draw-repetition=threefold`` (§10)."""

    def __post_init__(self) -> None:
        derived = {
            "first_side": BLUE if self.first_player == "blue" else RED,
            "cw_only": self.spin_directions == "cw-only",
            "far_only": self.multi_region_capture == "far-only",
            "exempt": self.already_enclosed == "exempt",
            "lose_if_stuck": self.no_legal_action == "lose",
            "threefold": self.draw_repetition == "threefold",
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)
