"""Shih rule options and profiles as data (spec §11), and the settings engines read from them.

Every point the sources leave open is one row of :data:`OPTIONS`; profiles are differences
from the defaults. :class:`Settings` copies the values a :class:`~notation_tools.games.base.Rules`
holds into plain attributes once, so the move generator does not index a mapping per move.
This module does not apply any rule.
"""

from __future__ import annotations

from typing import Any

from ..base import BadRulesError, RuleOption, Rules, int_option


def _off_or_count(text: str) -> int | None:
    if text == "off":
        return None
    return int_option(1)(text)


OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("pieces-per-player", "14", "pieces per side; 16 (one secondary description) "
               "has no default start and needs SetUp/FEN", "§2, §3.3", ("14", "16"), int),
    RuleOption("first-player", "blue", "side to move in the default start (a FEN's side "
               "field always wins)", "§2", ("blue", "red")),
    RuleOption("power-spins-per-player", "2", "Power Spins each side starts with in the "
               "default start", "§8", tuple(str(n) for n in range(10)), int),
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
               tuple(str(n) for n in range(1, 15)), int),
    RuleOption("no-legal-action", "pass", "a player with no legal action passes or loses",
               "§4, §10", ("pass", "lose")),
    RuleOption("draw-no-capture-turns", "off", "draw after N turns without capture or "
               "surrender", "§10", None, _off_or_count),
    RuleOption("draw-repetition", "off", "draw on the third occurrence of a position",
               "§10", ("off", "threefold")),
)

PROFILES: dict[str, dict[str, str]] = {"standard": {}}
"""Profile name → option texts that differ from the defaults (§11: ``standard`` = defaults)."""


def check_rules(rules: Rules) -> None:
    """Reject option combinations the spec does not allow (§11).

    Every combination of the option values of §11 is playable, so nothing is rejected today;
    ``pieces-per-player=16`` without a FEN is a start-position error (§3.3), not a rules error.
    """
    for option in OPTIONS:
        if option.name not in rules.values:
            raise BadRulesError(f"option {option.name} is missing", rule="§11")


class Settings:
    """The option values the engine reads on every move, as attributes."""

    __slots__ = ("rules", "pieces", "first", "power_spins", "split", "early_end", "cw_only",
                 "far_only", "exempt", "self_capture", "surrender_credit", "simultaneous",
                 "threshold", "lose_if_stuck", "quiet_limit", "repetition")

    def __init__(self, rules: Rules) -> None:
        value: Any = rules.__getitem__
        self.rules = rules
        self.pieces: int = value("pieces-per-player")
        self.first: int = 0 if value("first-player") == "blue" else 1
        self.power_spins: int = value("power-spins-per-player")
        self.split: bool = value("allow-split-mp-between-pieces")
        self.early_end: bool = value("allow-early-end")
        self.cw_only: bool = value("spin-directions") == "cw-only"
        self.far_only: bool = value("multi-region-capture") == "far-only"
        self.exempt: bool = value("already-enclosed") == "exempt"
        self.self_capture: bool = value("self-capture")
        self.surrender_credit: bool = value("surrender-counts-as-capture")
        self.simultaneous: str = value("simultaneous-nine")
        self.threshold: int = value("win-threshold")
        self.lose_if_stuck: bool = value("no-legal-action") == "lose"
        self.quiet_limit: int | None = value("draw-no-capture-turns")
        self.repetition: bool = value("draw-repetition") == "threefold"


_SETTINGS: dict[Rules, Settings] = {}


def settings_of(rules: Rules) -> Settings:
    """The (cached) :class:`Settings` of ``rules``."""
    found = _SETTINGS.get(rules)
    if found is None:
        found = _SETTINGS[rules] = Settings(rules)
    return found
