"""Elevation's rule options (§9): one row per point the rules' revisions leave open, the
profiles, the typed :class:`Options` the engine reads, and the combinations refused.

The engine reads ``base.options_of(Options, rules)``: a cached frozen dataclass with one field
per option (``max-height`` → ``max_height``) and three conveniences derived from them. This
module knows no rule of play beyond which options need which.

>>> from notation_tools.games.base import options_of
>>> from notation_tools.games.elevation import GAME
>>> options = options_of(Options, GAME.parse_rules("capture-height=exactly-2; max-height=6"))
>>> options.max_height, options.capture_exactly_2, options.ocean_climb
(6, True, False)
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.base import BadRulesError, RuleOption, Rules, int_option

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

PROFILES: dict[str, dict[str, str]] = {"standard": {}}
"""§9: the one profile, ``standard``, is every default."""


def check_rules(rules: Rules) -> None:
    """§8.2: ``samurai-undermine-and-move`` needs ``undermining``."""
    if rules["samurai-undermine-and-move"] and not rules["undermining"]:
        raise BadRulesError("samurai-undermine-and-move=yes needs undermining=yes", rule="§8.2")


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """The rule options of §9 as the engine reads them, one field per option.

    ``capture_exactly_2``, ``ocean_climb`` and ``ocean_capture`` are derived from
    ``capture_height`` and ``ocean_free_move`` for the hot loops.
    """

    initial_height: int
    capture_height: str
    basic_dig_optional: bool
    basic_move_optional: bool
    fish_diag2_model: str
    dragon_mm_max_captures: int
    dragon_mm_forbid_return: bool
    dragon_c2_requires_climb2: bool
    forbid_null_dig_pair: bool
    max_height: int | None
    repetition_rule: str
    two_pieces_per_turn: bool
    undermining: bool
    samurai_undermine_and_move: bool
    ocean_free_move: str
    capture_exactly_2: bool = dataclasses.field(init=False)
    """``capture-height=exactly-2`` (§4.3)."""
    ocean_climb: bool = dataclasses.field(init=False)
    """A step from height 0 ignores the climb limit (``ocean-free-move`` ``climb`` or
    ``climb-capture``, §8.3)."""
    ocean_capture: bool = dataclasses.field(init=False)
    """A step from height 0 captures whatever the heights (``climb-capture``, §8.3)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "capture_exactly_2", self.capture_height == "exactly-2")
        object.__setattr__(self, "ocean_climb", self.ocean_free_move != "off")
        object.__setattr__(self, "ocean_capture", self.ocean_free_move == "climb-capture")
