"""The rule options and profiles of the Game of War (spec §12), as data.

Each disputed point of the rules is one :class:`RuleOption` row; profiles are differences from
the defaults. :class:`Options` turns a :class:`~notation_tools.games.base.Rules` into plain
attributes that the engine reads in its inner loops. This module does not apply any rule.

>>> Options.of(GAME_RULES_DEFAULT).relay_range
2
"""

from __future__ import annotations

import functools

from notation_tools.games.base import RuleOption, Rules

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("charge-size", "any", "a charge column holds 1-4 cavalry (any) or only four (four)",
               "§8.4", ("any", "four")),
    RuleOption("charge-directions", "all", "several columns may charge (all) or only the longest (single)",
               "§8.4", ("all", "single")),
    RuleOption("fire-blocked-by", "none", "units between a firing unit and the target that stop its fire",
               "§8.2", ("none", "enemy", "any")),
    RuleOption("relay-activation", "line", "a relay re-emits when on a covered square (line), or also "
               "when adjacent to an online fighting unit (line-or-adjacent)", "§6.1",
               ("line", "line-or-adjacent")),
    RuleOption("relay-range", "2", "range of a relay's supporting defence", "§8.5", ("2", "0"),
               convert=int),
    RuleOption("relay-status", "covered-or-adjacent", "when a relay's defence counts", "§6.1",
               ("covered-or-adjacent", "covered", "always")),
    RuleOption("adjacency-via-relays", "no", "indirect communication runs through relays", "§6.1"),
    RuleOption("offline-units-block", "yes", "an offline enemy fighting unit still cuts lines", "§6.2"),
    RuleOption("two-step-via-online", "no", "a two-square move needs an online intermediate square",
               "§7.2"),
    RuleOption("terrain-bonus-scope", "unit", "supporting units count their own pass/fort bonus (unit) "
               "or only the target does (target)", "§8.5", ("unit", "target")),
    RuleOption("retreat-range", "speed", "a forced retreat is an ordinary move (speed) or one square (one)",
               "§9", ("speed", "one")),
    RuleOption("offline-retreat", "destroy", "a dislodged unit offline at the start of its turn is "
               "destroyed (destroy) or may still retreat (move)", "§9", ("destroy", "move")),
    RuleOption("failed-retreat-uses-move", "no", "an impossible retreat uses one of the five moves", "§9"),
    RuleOption("retreat-to-enemy-arsenal", "forbid", "a retreat may end on an enemy arsenal, "
               "destroying it", "§7.3", ("forbid", "destroy")),
    RuleOption("attack-minimum", "positive", "which attacks may be declared: offence >= 1 (positive), "
               "any, or offence > defence (winning)", "§8.1", ("positive", "any", "winning")),
    RuleOption("moves-after-arsenal", "allow", "moves may follow an arsenal destruction in the same turn",
               "§7.3", ("allow", "forbid")),
    RuleOption("relay-on-enemy-arsenal", "allow", "a relay may step onto an enemy arsenal (no effect)",
               "§7.3", ("allow", "forbid")),
    RuleOption("relay-collapse-win", "no", "RSG's extra victory: no relay and no online fighting unit "
               "loses", "§10"),
    RuleOption("map", "standard", "the map (only the standard map exists)", "§2.1", ("standard",)),
)

PROFILES: dict[str, dict[str, str]] = {
    "debord": {},
    "rsg": {"relay-range": "0", "two-step-via-online": "yes", "relay-collapse-win": "yes"},
    "book": {"relay-activation": "line-or-adjacent"},
}


def _default_rules() -> Rules:
    texts = {option.name: option.default for option in OPTIONS}
    values = {option.name: option.value_of(option.default) for option in OPTIONS}
    return Rules("game-of-war", "debord", texts, values, dict(texts))


GAME_RULES_DEFAULT = _default_rules()


class Options:
    """The option values of one rule set as attributes (spec §12.1)."""

    __slots__ = ("charge_four", "charge_single", "fire_blocked", "relay_adjacent", "relay_range",
                 "relay_status", "adjacency_via_relays", "offline_block", "two_step_online",
                 "bonus_unit", "retreat_one", "offline_retreat_move", "failed_uses_move",
                 "retreat_arsenal", "attack_minimum", "moves_after_arsenal", "relay_on_arsenal",
                 "relay_collapse", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.charge_four = rules["charge-size"] == "four"
        self.charge_single = rules["charge-directions"] == "single"
        self.fire_blocked = rules["fire-blocked-by"]
        self.relay_adjacent = rules["relay-activation"] == "line-or-adjacent"
        self.relay_range = rules["relay-range"]
        self.relay_status = rules["relay-status"]
        self.adjacency_via_relays = rules["adjacency-via-relays"]
        self.offline_block = rules["offline-units-block"]
        self.two_step_online = rules["two-step-via-online"]
        self.bonus_unit = rules["terrain-bonus-scope"] == "unit"
        self.retreat_one = rules["retreat-range"] == "one"
        self.offline_retreat_move = rules["offline-retreat"] == "move"
        self.failed_uses_move = rules["failed-retreat-uses-move"]
        self.retreat_arsenal = rules["retreat-to-enemy-arsenal"] == "destroy"
        self.attack_minimum = rules["attack-minimum"]
        self.moves_after_arsenal = rules["moves-after-arsenal"] == "allow"
        self.relay_on_arsenal = rules["relay-on-enemy-arsenal"] == "allow"
        self.relay_collapse = rules["relay-collapse-win"]

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def of(rules: Rules) -> Options:
        """The (cached) options of ``rules``."""
        return Options(rules)
