"""The rule options and profiles of the Game of War (§12), as data.

Each disputed point of the rules is one :class:`RuleOption` row; profiles are differences from
the defaults. :class:`Options` is what the engine reads. This module does not apply any rule.
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.base import RuleOption, Rules, options_of

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("charge-size", "any", "a charge column holds 1-4 cavalry (any) or only four (four)",
               "§8.4", ("any", "four")),
    RuleOption("charge-directions", "all", "several columns may charge (all), only the longest "
               "(single), or only the one on the line of the last unit moved (last-moved)",
               "§8.4", ("all", "single", "last-moved")),
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
    RuleOption("attack-needs-move", "no", "an attack must follow at least one move of the same "
               "turn", "§8.1"),
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
    "jeudelaguerre": {"relay-activation": "line-or-adjacent", "charge-directions": "last-moved",
                      "retreat-to-enemy-arsenal": "destroy", "attack-needs-move": "yes"},
}


def _default_rules() -> Rules:
    texts = {option.name: option.default for option in OPTIONS}
    values = {option.name: option.value_of(option.default) for option in OPTIONS}
    return Rules("game-of-war", "debord", texts, values, dict(texts))


DEFAULT_RULES = _default_rules()
"""The ``debord`` rules, for the foreign-format readers, which check the position strings
they build before any record's rules are known."""


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """The option values of one rule set, one field per option (§12.1), as the engine reads
    them through ``base.options_of(Options, rules)``; the derived fields turn a choice the
    engine tests in its loops into a flag.

    >>> from notation_tools.games.gow import GAME
    >>> options_of(Options, GAME.parse_rules("rsg")).relay_range
    0
    """

    charge_size: str
    charge_directions: str
    fire_blocked_by: str
    relay_activation: str
    relay_range: int
    relay_status: str
    adjacency_via_relays: bool
    offline_units_block: bool
    two_step_via_online: bool
    terrain_bonus_scope: str
    retreat_range: str
    offline_retreat: str
    failed_retreat_uses_move: bool
    retreat_to_enemy_arsenal: str
    attack_needs_move: bool
    attack_minimum: str
    moves_after_arsenal: str
    relay_on_enemy_arsenal: str
    relay_collapse_win: bool
    map: str
    charge_four: bool = dataclasses.field(init=False)
    charge_single: bool = dataclasses.field(init=False)
    charge_last_moved: bool = dataclasses.field(init=False)
    relay_adjacent: bool = dataclasses.field(init=False)
    bonus_unit: bool = dataclasses.field(init=False)
    retreat_one: bool = dataclasses.field(init=False)
    offline_retreat_move: bool = dataclasses.field(init=False)
    retreat_arsenal: bool = dataclasses.field(init=False)
    arsenal_then_moves: bool = dataclasses.field(init=False)
    relay_on_arsenal: bool = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        derived = {
            "charge_four": self.charge_size == "four",
            "charge_single": self.charge_directions == "single",
            "charge_last_moved": self.charge_directions == "last-moved",
            "relay_adjacent": self.relay_activation == "line-or-adjacent",
            "bonus_unit": self.terrain_bonus_scope == "unit",
            "retreat_one": self.retreat_range == "one",
            "offline_retreat_move": self.offline_retreat == "move",
            "retreat_arsenal": self.retreat_to_enemy_arsenal == "destroy",
            "arsenal_then_moves": self.moves_after_arsenal == "allow",
            "relay_on_arsenal": self.relay_on_enemy_arsenal == "allow",
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)
