"""Files in a game's own format (``Game.file_formats``): recognising them and reading them
into Records, so the rest of the toolkit treats them like PGN records.

Does not print; read faults become diagnostics on the record.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from notation_tools.games.base import EngineError, Game, all_games
from notation_tools.games.file_formats import FileFormat
from notation_tools.records.diagnostics import ERROR, NOTE, WARNING, Diagnostic
from notation_tools.records.model import Move, Record, Tag, Tags
from notation_tools.sources import CONTAINER_SUFFIXES, ForeignText

_TAG_PAIR_HEAD = re.compile(r'\ufeff?\s*\[[A-Za-z0-9_]+\s+"')
"""The head of a PGN file: a tag pair first. No game's file format opens so (a format
whose files end in a container's suffix must not, for this shortcut to hold)."""


@functools.cache
def formats() -> dict[str, tuple[Game[Any, Any], FileFormat]]:
    """``"game-id:format"`` → (game, format), for every registered game."""
    return {f"{game.id}:{fmt.name}": (game, fmt)
            for game in all_games() for fmt in game.file_formats}


@functools.cache
def game_suffixes() -> tuple[str, ...]:
    """The file name endings the games read beside the container's (``.kfen``, ``.tsa``):
    their dialects' and their file formats'."""
    found: dict[str, None] = {}
    for game in all_games():
        found.update(dict.fromkeys(game.dialect.suffixes))
        for fmt in game.file_formats:
            found.update(dict.fromkeys(fmt.suffixes))
    return tuple(found)


def claim_format(head: str, name: str = "") -> str | None:
    """The key of the first format whose sniff accepts a file's head, else of the format whose
    file ending ``name`` has (so a damaged ``.svar`` gets the save format's own diagnostic,
    not the container's), or ``None``.

    A PGN file that opens with a tag pair is the container's: no game is asked (and none
    imported) for it.

    >>> claim_format('[Variant "shuriken"]\\n', "games.pgn") is None
    True
    """
    if name.lower().endswith(CONTAINER_SUFFIXES) and _TAG_PAIR_HEAD.match(head):
        return None
    for key, (_, fmt) in formats().items():
        try:
            if fmt.sniff(head):
                return key
        except Exception:  # noqa: BLE001 - a sniffer's fault must not stop the run
            continue
    lower = name.lower()
    for key, (_, fmt) in formats().items():
        if fmt.suffixes and lower.endswith(fmt.suffixes):
            return key
    return None


def _severity(code: str) -> str:
    return NOTE if code.startswith("I-") else WARNING if code.startswith("W-") else ERROR


def foreign_record(unit: ForeignText) -> Record:
    """The record a foreign file holds; an unreadable file gives a record with its error."""
    game, fmt = formats()[unit.format_key]
    record = Record(path=unit.path, index=1, line=1, tags=Tags([Tag("Variant", game.id, 1, 1)]))
    record.diagnostics.extend(unit.problems)
    try:
        found = fmt.read(unit.text)
    except EngineError as error:
        record.diagnostics.append(Diagnostic(
            error.code, f"{fmt.name}: {error.message}", unit.path, 1, 1 + error.offset,
            rule=error.rule, record=1))
        return record
    record.tags.entries().extend(Tag(name, value, 1, 1) for name, value in found.tags.items()
                                 if name != "Variant")
    record.moves = [Move(token, 1, 1) for token in found.tokens]
    if found.comment:
        record.final_comments.append(found.comment)
    record.result = found.tags.get("Result")
    for code, message in found.notes:
        record.diagnostics.append(Diagnostic(code, message, unit.path, 1, 1,
                                             severity=_severity(code), record=1))
    return record
