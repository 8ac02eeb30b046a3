"""Maka-Dai-Dai Shogi rule options (§7): one row per point the sources disagree on, the two
profiles, and :class:`Options`, the typed values the engine reads.

The engine gets its options with ``base.options_of(Options, rules)`` (cached per rules). No
combination of values is refused: an option without effect under the others (``lion-dog-leap``
with ``lion-dog=q3``) is accepted (§7).

>>> from notation_tools.games.maka import GAME
>>> from notation_tools.games.base import options_of
>>> options = options_of(Options, GAME.parse_rules("modern"))
>>> options.promotion, options.contagion, options.forbid_repetition
('forced-if-victim-promoted', True, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Literal

from notation_tools.games.base import RuleOption, Rules
from notation_tools.games.maka.pieces import ALTERNATIVE_MOVES


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


def _default_rules() -> Rules:
    texts = {option.name: option.default for option in OPTIONS}
    values = {option.name: option.value_of(option.default) for option in OPTIONS}
    return Rules("maka-dai-dai-shogi", "tsa", texts, values, dict(texts))


DEFAULT_RULES = _default_rules()
"""The ``tsa`` rules (ShogiVar's), for the ``.svar`` reader, which checks the positions it
builds before any record's rules are known."""


def check_alternative_moves() -> list[str]:
    """Problems where the alternative piece moves of ``pieces.ALTERNATIVE_MOVES`` (§6.12) and
    the option rows disagree: each row's option must exist and the rows cover its values.

    >>> check_alternative_moves()
    []
    """
    rows = {option.name: option for option in OPTIONS}
    problems = []
    for name, values in ALTERNATIVE_MOVES.items():
        if name not in rows:
            problems.append(f"alternative moves for unknown option {name}")
        elif set(values) != set(rows[name].values or ()):
            problems.append(f"option {name}: alternative rows do not cover its values")
    return problems


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """The rule options of one record, one field per row of :data:`OPTIONS` (each holds the
    option's text), plus the conveniences the generator reads in its loops."""

    promotion: Literal["forced", "forced-if-victim-promoted", "optional"]
    deva_contagion: Literal["off", "on"]
    contagion_immune: Literal["royals-and-elephant", "royals", "none"]
    lion_dog: Literal["q3", "linear"]
    lion_dog_leap: Literal["yes", "no"]
    teaching_king: Literal["1", "2"]
    emperor_capture: Literal["unprotected", "royals-only", "unattacked", "any"]
    emperor_protection: Literal["before", "after"]
    emperor_as_defender: Literal["legal-recapture", "always"]
    donkey_step: Literal["sideways", "orthogonal"]
    free_bear_jump: Literal["yes", "no"]
    free_dragon: Literal["fq-bk", "r-bb"]
    free_wolf: Literal["bvr-sr5", "frlr-fb"]
    deva_dark_spirit: Literal["ssz", "sz", "srz"]
    srz_pieces: Literal["off", "on"]
    lion_pass: Literal["needs-empty", "always"]
    self_check: Literal["allow", "warn", "forbid"]
    repetition: Literal["allowed", "forbidden"]
    no_legal_move: Literal["loss", "draw"]

    contagion: bool = dataclasses.field(init=False)
    """``deva-contagion=on`` (§6.9)."""
    lion_dog_leaps: bool = dataclasses.field(init=False)
    """``lion-dog-leap=yes`` (§6.5)."""
    pass_always: bool = dataclasses.field(init=False)
    """``lion-pass=always`` (§6.3)."""
    forbid_self_check: bool = dataclasses.field(init=False)
    """``self-check=forbid`` (§6.11)."""
    forbid_repetition: bool = dataclasses.field(init=False)
    """``repetition=forbidden`` (§6.13)."""
    filters_moves: bool = dataclasses.field(init=False)
    """Whether generated moves go through the self-check or repetition filter."""
    choices: tuple[tuple[str, str], ...] = dataclasses.field(init=False)
    """``(option name, text)`` of every option, sorted: the key of the compiled piece tables."""

    def __post_init__(self) -> None:
        derived: dict[str, object] = {
            "contagion": self.deva_contagion == "on",
            "lion_dog_leaps": self.lion_dog_leap == "yes",
            "pass_always": self.lion_pass == "always",
            "forbid_self_check": self.self_check == "forbid",
            "forbid_repetition": self.repetition == "forbidden",
        }
        derived["filters_moves"] = self.self_check == "forbid" or self.repetition == "forbidden"
        derived["choices"] = tuple(sorted((option.name, getattr(self, option.field_name))
                                          for option in OPTIONS))
        for name, value in derived.items():
            object.__setattr__(self, name, value)
