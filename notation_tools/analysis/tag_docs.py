"""What each tag a record may carry means, and the values it allows: one table for every
reader of tags (the language server's hover, and any other help that explains a tag).

The seven-tag roster comes from PGN; the tags the replay reads (``Variant``, ``Rules``,
``SetUp``, ``FEN``, ``FirstPlayer``) take their allowed values from the games installed.
Does not read files or print.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from notation_tools.games.base import Game, all_games

RESULT_FORMS = ("1-0", "0-1", "1/2-1/2", "*")
"""The four result texts of the ``Result`` tag and of the movetext's last token."""

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""PGN's seven-tag roster, in its order."""


@dataclasses.dataclass(frozen=True)
class TagDoc:
    """One tag: its name, what it means, and the values it allows (``None``: any text)."""

    name: str
    meaning: str
    values: str | None = None


TAG_DOCS: dict[str, TagDoc] = {doc.name: doc for doc in (
    TagDoc("Event", "The name of the tournament, match or occasion (seven-tag roster).",
           'any text; "?" when unknown'),
    TagDoc("Site", "Where the game was played (seven-tag roster).", 'any text; "?" when unknown'),
    TagDoc("Date", "When the game started (seven-tag roster).",
           'YYYY.MM.DD, with "??" for an unknown part ("2024.??.??")'),
    TagDoc("Round", "The round of the event (seven-tag roster).",
           'any text ("3", "2.1"); "-" when there are no rounds, "?" when unknown'),
    TagDoc("White", "The first side's player, whatever the game calls the side (seven-tag "
           "roster).", 'any text; "?" when unknown'),
    TagDoc("Black", "The second side's player, whatever the game calls the side (seven-tag "
           "roster).", 'any text; "?" when unknown'),
    TagDoc("Result", "How the game ended; the replay checks it against the replayed end and "
           "the movetext's own result token.",
           "1-0 (first side won), 0-1 (second side won), 1/2-1/2 (draw), * (unknown or "
           "unfinished)"),
    TagDoc("Variant", "The game the record is of, by id or alias; without it a record with "
           "tags names no game (E-UNKNOWN-VARIANT)."),
    TagDoc("Game", "Another name of the Variant tag, read when Variant is missing."),
    TagDoc("Rules", "The rules profile and options the record was played under, separated "
           "by ';' (a boolean option alone means yes); without it, the game's default "
           "profile."),
    TagDoc("SetUp", 'Whether the record starts from a position of its own: "1" with a FEN '
           "tag.", '"1" (start from FEN) or "0"'),
    TagDoc("FEN", "The start position, in the game's own position string (what "
           "'show --format fen' prints); read when SetUp is \"1\".",
           "the game's position string"),
    TagDoc("FirstPlayer", "Which side moves first, where a game lets either side start."),
    TagDoc("Annotator", "Who wrote the comments.", "any text"),
    TagDoc("PlyCount", "The number of plies of the main line.", "a whole number"),
    TagDoc("TimeControl", "The time control of the game.", "any text"),
    TagDoc("Termination", "How the game ended, in words (resignation, time, agreement).",
           "any text"),
)}
"""Every tag with a documented meaning. Other tags are kept and written back unread."""


def _variant_values() -> str:
    return "; ".join(f"{game.id}" + (f" (or {', '.join(game.aliases)})" if game.aliases else "")
                     for game in all_games())


def _rules_values(game: Game[Any, Any] | None) -> str:
    games = (game,) if game is not None else all_games()
    parts = []
    for one in games:
        profiles = ", ".join(f"{name}{'*' if name == one.default_profile else ''}"
                             for name in one.profiles or {one.default_profile: {}})
        parts.append(f"{one.id}: profiles {profiles}")
        parts += [f"  {option.name}={'|'.join(option.values) if option.values else '...'}"
                  f"  [{option.spec}]" for option in one.options]
    return "\n".join(parts)


def allowed_values(name: str, game: Game[Any, Any] | None = None) -> str | None:
    """The values ``name`` allows, for ``game`` when the record's game is known (the game ids
    for ``Variant``, profiles and options for ``Rules``, side names for ``FirstPlayer``).

    >>> allowed_values("Result")
    '1-0 (first side won), 0-1 (second side won), 1/2-1/2 (draw), * (unknown or unfinished)'
    >>> "elevation" in (allowed_values("Variant") or "")
    True
    """
    if name in ("Variant", "Game"):
        return _variant_values()
    if name == "Rules":
        return _rules_values(game)
    if name == "FirstPlayer":
        games = (game,) if game is not None else all_games()
        return "; ".join(f"{one.id}: {' or '.join(one.sides)}" for one in games)
    doc = TAG_DOCS.get(name)
    return doc.values if doc is not None else None


def describe_tag(name: str, game: Game[Any, Any] | None = None) -> str | None:
    """A tag's meaning and allowed values as Markdown, or ``None`` for a tag nobody documents.

    >>> print(describe_tag("Round"))
    **Round**: The round of the event (seven-tag roster).
    <BLANKLINE>
    Allowed values: any text ("3", "2.1"); "-" when there are no rounds, "?" when unknown
    """
    doc = TAG_DOCS.get(name)
    if doc is None:
        return None
    values = allowed_values(name, game)
    text = f"**{name}**: {doc.meaning}"
    if values is not None and "\n" in values:
        text += f"\n\nAllowed values:\n\n```\n{values}\n```"
    elif values is not None:
        text += f"\n\nAllowed values: {values}"
    return text
