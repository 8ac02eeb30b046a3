"""Rule options (rules §4): one row per disputed point, the profiles, and the typed options
the engine reads."""

from __future__ import annotations

import dataclasses

from notation_tools.games.base import RuleOption

OPTIONS = (
    RuleOption("misere", "no", "three in a row loses instead of winning", "§4"),
)
PROFILES = {"standard": {}, "misere": {"misere": "yes"}}


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """The engine's view of the rules (``base.options_of(Options, rules)``)."""

    misere: bool
