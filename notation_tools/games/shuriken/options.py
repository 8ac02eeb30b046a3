"""The rule options of Shuriken 2D (§6): the option rows, the profiles, and ``Options``, the
typed values the engine reads.

The rule sheet has no pie rule; option ``swap`` adds one [reconstruction]. The board geometry
is fixed, so ``standard`` is the only profile and it sets nothing. No combination of options is
refused, so there is no ``check_rules``.

>>> STANDARD_OPTIONS
Options(swap=False)
"""

from __future__ import annotations

import dataclasses

from notation_tools.games.base import RuleOption

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("swap", "no", "pie rule: White's first turn may be 'swap' (the black stone "
               "is replaced by a white one on the transposed cell)", "§6"),
)
"""One row per point the sources leave open (§6)."""

PROFILES: dict[str, dict[str, str]] = {"standard": {}}
"""Profile name → the option texts it changes from the defaults: ``standard`` changes none."""


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """The engine values of the rule options, one field per option (``base.options_of``).

    >>> Options(swap=True).swap
    True
    """

    swap: bool
    """``swap=yes``: White's first turn (ply 2 of a game from the standard start) may be
    ``swap`` (§6)."""


STANDARD_OPTIONS = Options(**{
    option.field_name: option.value_of(PROFILES["standard"].get(option.name, option.default))
    for option in OPTIONS})
"""The options of the ``standard`` profile: what a position built without rules plays by."""
