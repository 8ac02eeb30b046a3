"""The run-wide overrides (``--game``, ``--rules``, ``--to``, ``--notation``) checked before any
record is read.

A value that cannot apply to any record of the run is the user's mistake, not the records':
it is reported once, naming the option and the values it could take, and nothing is read
(exit status 2 on the command line, :class:`OverrideError` from Python). What can only be
judged record by record stays a diagnostic of that record:

- ``--rules`` with ``--game``: the rules must suit that game.
- ``--rules`` without ``--game``: the text must suit at least one installed game; a record
  of a game it does not suit gets an ``E-BAD-RULES`` diagnostic that names ``--rules``.
- ``--to NOTATION`` (and ``--notation``) with ``--game``: that game must have the notation; a
  game's own file format must be one that game writes.

Does not read files or print.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from notation_tools.games.base import (EngineError, Game, Rules, UnknownGameError, all_games,
                                       get_game)


class OverrideError(ValueError):
    """An override that cannot apply; ``option`` names it (``--rules``), ``message`` says why
    and what it could be."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


_REMEMBERED_LENGTH = 400
"""The longest rules text :func:`parsed_rules` keeps (real ones are a few dozen characters;
a hostile input's long texts are parsed each time rather than held)."""


def parsed_rules(game: Game[Any, Any], text: str | None) -> Rules:
    """``game.parse_rules(text)``, parsed once per game and text in a process: the check
    before a run and the replay of every record ask for the same few texts (``--rules``, the
    records' ``Rules`` tags). A text that does not parse raises each time it is asked."""
    if text is not None and len(text) > _REMEMBERED_LENGTH:
        return game.parse_rules(text)
    return _remembered_rules(game, text)


@functools.lru_cache(maxsize=256)
def _remembered_rules(game: Game[Any, Any], text: str | None) -> Rules:
    return game.parse_rules(text)


def check_game(name: str | None) -> Game[Any, Any] | None:
    """The game ``--game`` names (``None`` for none given); an unknown name raises
    :class:`OverrideError` listing the installed games."""
    if name is None:
        return None
    try:
        return get_game(name)
    except UnknownGameError as error:
        raise OverrideError("--game", str(error.args[0])) from None


def _parts(text: str) -> list[str]:
    return [part.strip() for part in text.split(";") if part.strip()]


def _unknown_names(game: Game[Any, Any], parts: Sequence[str]) -> list[str]:
    """The names in a rules text that ``game`` does not know (a leading profile counts as a
    name when it is neither a profile nor a bare option)."""
    unknown = []
    for index, part in enumerate(parts):
        name = part.partition("=")[0].strip()
        if index == 0 and "=" not in part and name in game.profiles:
            continue
        if name not in game.option_table:
            unknown.append(name)
    return unknown


def check_rules(rules: str | None, games: Iterable[Game[Any, Any]] | None = None,
                *, option: str = "--rules") -> tuple[Game[Any, Any], ...]:
    """The games among ``games`` (default: every installed game) that rules text ``rules``
    suits; :class:`OverrideError` when it suits none of them. ``None`` (no rules given) is
    not checked: the answer is then ``()``, and no game is loaded for it.

    >>> [game.id for game in check_rules("undermining=yes")]
    ['elevation']
    >>> check_rules("bogus", [get_game("shih")])
    Traceback (most recent call last):
    ...
    notation_tools.analysis.overrides.OverrideError: --rules: unknown rule profile 'bogus' (profiles: standard)
    """
    if rules is None:
        return ()
    candidates = tuple(games) if games is not None else all_games()
    if len(candidates) == 1:
        rules_for(candidates[0], rules, option=option)
        return candidates
    problems: dict[str, str] = {}
    suited = []
    for game in candidates:
        try:
            parsed_rules(game, rules)
        except EngineError as error:
            problems[game.id] = error.message
        else:
            suited.append(game)
    if suited:
        return tuple(suited)
    raise OverrideError(option, f"{rules!r} suits no game: {_why_none(rules, candidates, problems)}")


def rules_for(game: Game[Any, Any], rules: str | None, *, option: str = "--rules") -> Rules:
    """The rules that rules text ``rules`` gives ``game`` (``None``: its default profile),
    parsed once; :class:`OverrideError` worded as :func:`check_rules` words it for one game.

    >>> rules_for(get_game("shih"), None).describe()
    'standard'
    """
    try:
        return parsed_rules(game, rules)
    except EngineError as error:
        parts = _parts(rules or "")
        unknown = _unknown_names(game, parts)
        leading_profile = bool(parts) and "=" not in parts[0] and unknown == [parts[0]]
        hint = (f" ('notation-tools games {game.id}' lists its options)"
                if unknown and not leading_profile else "")
        raise OverrideError(option, error.message + hint) from None


def _why_none(rules: str, games: Sequence[Game[Any, Any]], problems: dict[str, str]) -> str:
    """Why a rules text suits none of ``games``, in one sentence that names what it could be."""
    parts = _parts(rules)
    unknown = {game.id: _unknown_names(game, parts) for game in games}
    if parts and "=" not in parts[0] and all(unknown[game.id][:1] == [parts[0]]
                                             for game in games):
        profiles = "; ".join(f"{game.id}: {', '.join(game.profiles)}" for game in games)
        return f"no game has a rule profile {parts[0]!r} (profiles: {profiles})"
    if all(unknown[game.id] for game in games):
        names = sorted({name for found in unknown.values() for name in found})
        owners = {name: [game.id for game in games if name not in unknown[game.id]]
                  for name in names}
        nowhere = [repr(name) for name in names if not owners[name]]
        if nowhere:
            return (f"no game has a rule profile or option {', '.join(nowhere)} ('notation-tools "
                    "games GAME' lists a game's profiles and options)")
        return "no one game has every name it gives (" + "; ".join(
            f"{name!r}: {', '.join(owners[name])}" for name in names) + ")"
    # Some games know every name: their objections (a value, a combination) are the ones meant.
    return "; ".join(f"{game.id}: {problems[game.id]}" for game in games if not unknown[game.id])


def check_notation(notation: str | None, games: Iterable[Game[Any, Any]],
                   *, option: str = "--notation") -> None:
    """:class:`OverrideError` unless one of ``games`` has move notation ``notation``."""
    games = tuple(games)
    if notation is None or not games or any(notation in game.notations for game in games):
        return
    having = "; ".join(f"{game.id}: {', '.join(game.notations)}" for game in games)
    owners = [game.id for game in all_games() if notation in game.notations]
    whose = f" ({notation!r} is a notation of {', '.join(owners)})" if owners else ""
    raise OverrideError(option, f"{' and '.join(game.id for game in games)} "
                                f"{'has' if len(games) == 1 else 'have'} no notation "
                                f"{notation!r}{whose}; notations: {having}")


def check_file_format(name: str, game: Game[Any, Any], *, option: str = "--to") -> None:
    """:class:`OverrideError` unless ``game`` writes file format ``name``."""
    written = [fmt.name for fmt in game.file_formats if fmt.write is not None]
    if name in written:
        return
    owners = [other.id for other in all_games()
              if any(fmt.name == name and fmt.write is not None for fmt in other.file_formats)]
    whose = f" ({name!r} is a format of {', '.join(owners)})" if owners else ""
    can = ", ".join([*game.notations, *written])
    raise OverrideError(option, f"{game.id} has no file format {name!r}{whose}; for "
                                f"{game.id} --to takes pgn, json, jsonl or {can}")


def check_overrides(*, game: str | None = None, rules: str | None = None,
                    notation: str | None = None, file_format: str | None = None,
                    notation_option: str = "--notation") -> Game[Any, Any] | None:
    """Check every override of one run together, before any record is read: the game named,
    the rules against it (or against every game), a move notation and a file format against
    it. Returns the game (``None`` without ``--game``); raises :class:`OverrideError`."""
    chosen = check_game(game)
    check_rules(rules, None if chosen is None else (chosen,))
    if chosen is not None:
        check_notation(notation, (chosen,), option=notation_option)
        if file_format is not None:
            check_file_format(file_format, chosen)
    return chosen


def game_and_rules(game: str, rules: str | None, *,
                   notation: str | None = None) -> tuple[Game[Any, Any], Rules]:
    """For a run about one game given by name (``moves``, ``perft``, ``generate``): the game,
    its rules parsed once (its default profile when ``rules`` is ``None``), and ``notation``
    checked against it, in :func:`check_overrides`' order; raises :class:`OverrideError`.

    >>> game, rules = game_and_rules("shih", "standard")
    >>> game.id, rules.describe()
    ('shih', 'standard')
    """
    chosen = check_game(game)
    assert chosen is not None  # a name was given
    parsed = rules_for(chosen, rules)
    check_notation(notation, (chosen,))
    return chosen, parsed
