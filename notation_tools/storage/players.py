"""Players and events from a results database: scores, ratings and crosstables.

A record is a game between the two players its side tags name (each game declares its sides:
``Black``/``White`` in Maka-Dai-Dai Shogi, ``North``/``South`` in the Game of War, ...), read
from the tags ``analyze --db`` stored. Only the complete inputs of the database are read.
What counts (docs/players.md):

- a *decided* game is a valid record whose ``Result`` is ``1-0``, ``0-1`` or ``1/2-1/2`` and
  whose two side tags name two players (a name that is empty, ``?`` or ``-`` names nobody):
  it counts in the scores and the ratings;
- an *unfinished* game (a valid record with result ``*`` or none) counts in a player's
  ``unfinished`` column only;
- an *invalid* record (replay found an error) counts in ``invalid`` only: its result cannot
  be trusted.

Every function takes the database as a path or as an object with an open ``sqlite3``
``connection`` attribute (a ``ResultsDatabase`` of ``notation_tools.storage.database``), and
returns rows as dicts (``pandas.DataFrame(rows)`` reads them). Does not print.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sqlite3
from collections import defaultdict
from collections.abc import Iterator
from typing import Any, Union

from notation_tools.games.base import UnknownGameError, get_game
from notation_tools.storage.database import DatabaseError, ResultsDatabase
from notation_tools.storage.ratings import Rating, bradley_terry

DatabaseLike = Union[str, "os.PathLike[str]", Any]
"""A results database: its path, or an object holding an open ``sqlite3`` ``connection``."""

POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
"""Points of the first side (``Game.sides[0]``) for each decided result."""
_NOBODY = frozenset({"", "?", "-", "??"})


@dataclasses.dataclass(frozen=True)
class StoredGame:
    """One record of the database, as players and events see it."""

    game: str
    players: tuple[str, str]
    """The players of ``Game.sides[0]`` and ``Game.sides[1]``."""
    sides: tuple[str, str]
    points: float | None
    """The first side's points: 1, ½ or 0; ``None`` when unfinished or invalid."""
    valid: bool
    date: str | None
    event: str | None
    round: str | None
    where: str
    """``source#record_index``: where the record is."""


@contextlib.contextmanager
def _connection(database: DatabaseLike) -> Iterator[sqlite3.Connection]:
    held = getattr(database, "connection", None)
    if isinstance(held, sqlite3.Connection):
        yield held
        return
    path = os.fspath(database)
    if not os.path.isfile(path):
        raise DatabaseError(f"{path}: no such results database")
    with ResultsDatabase(path) as opened:
        yield opened.connection


def stored_games(database: DatabaseLike, *, game: str | None = None) -> list[StoredGame]:
    """Every record of the complete inputs whose two side tags name players, in the order
    stored (``game``: of that game id only)."""
    out: list[StoredGame] = []
    with _connection(database) as connection:
        try:
            rows = connection.execute(
                "SELECT records.game, records.result, records.valid, records.tags_json, "
                "records.source, records.record_index FROM records JOIN inputs "
                "ON inputs.id = records.input_id WHERE inputs.complete = 1 "
                "ORDER BY inputs.id, records.seq").fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise DatabaseError(f"the records cannot be read ({error})") from None
    for game_id, result, valid, tags_json, source, index in rows:
        if not isinstance(game_id, str) or (game is not None and game_id != game):
            continue
        try:
            sides = get_game(game_id).sides
        except UnknownGameError:
            continue  # a game not installed here: its sides are unknown
        tags = _tags(tags_json)
        players = (tags.get(sides[0], "").strip(), tags.get(sides[1], "").strip())
        if players[0] in _NOBODY or players[1] in _NOBODY:
            continue
        is_valid = valid == 1
        out.append(StoredGame(game_id, players, sides,
                              POINTS.get(result) if is_valid else None, is_valid,
                              _known_date(tags.get("Date")), tags.get("Event"),
                              tags.get("Round"), f"{source}#{index}"))
    return out


def _tags(text: Any) -> dict[str, str]:
    """A record's tags by name (the first of a repeated name), from its stored JSON; a
    value that cannot be read (a database edited by hand) gives no tags."""
    try:
        pairs = json.loads(text) if isinstance(text, str) else []
    except ValueError:
        return {}
    tags: dict[str, str] = {}
    if isinstance(pairs, list):
        for pair in pairs:
            if isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str)
                                                                   for p in pair):
                tags.setdefault(pair[0], pair[1])
    return tags


def _known_date(text: str | None) -> str | None:
    """A PGN date (``2024.05.??``) when its year is known; they sort in calendar order."""
    if text is None or len(text) < 4 or not text[:4].isdigit():
        return None
    return text


# ------------------------------------------------------------------------------------------
# Players


@dataclasses.dataclass
class _Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    invalid: int = 0
    by_side: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    dates: list[str] = dataclasses.field(default_factory=list)
    results: list[tuple[float, str, str]] = dataclasses.field(default_factory=list)
    """(points, opponent, where) of every decided game."""


def players(database: DatabaseLike, *, game: str | None = None,
            min_games: int = 0) -> list[dict[str, Any]]:
    """One row per player and game: decided games, wins, draws, losses, score, the games and
    score as each side, unfinished and invalid records, first and last date, the rating with
    its 95% interval (:func:`notation_tools.storage.ratings.bradley_terry`, fitted per game
    over every decided game of the database), and the best and worst result.

    Sorted by game, then rating (highest first), score, name. ``min_games``: only players
    with at least that many decided games (the ratings are fitted over all of them)."""
    tallies: dict[tuple[str, str], _Tally] = defaultdict(_Tally)
    sides_of: dict[str, tuple[str, str]] = {}
    decided: dict[str, list[tuple[str, str, float]]] = defaultdict(list)
    for record in stored_games(database, game=game):
        sides_of[record.game] = record.sides
        if record.points is not None:
            decided[record.game].append((record.players[0], record.players[1], record.points))
        for seat in (0, 1):
            _count(tallies[(record.game, record.players[seat])], record, seat)
    ratings = {game_id: bradley_terry(games) for game_id, games in decided.items()}
    rows = []
    for (game_id, name), tally in tallies.items():
        decided_count = tally.wins + tally.draws + tally.losses
        if decided_count < min_games:
            continue
        rows.append(_player_row(game_id, name, tally, sides_of[game_id],
                                ratings.get(game_id, {})))
    rows.sort(key=lambda row: (row["game"], -(row["rating"] if row["rating"] is not None
                                              else float("-inf")),
                               -row["score"], row["player"]))
    return rows


def _count(tally: _Tally, record: StoredGame, seat: int) -> None:
    if record.date is not None:
        tally.dates.append(record.date)
    if not record.valid:
        tally.invalid += 1
        return
    if record.points is None:
        tally.unfinished += 1
        return
    points = record.points if seat == 0 else 1.0 - record.points
    tally.wins += points == 1.0
    tally.draws += points == 0.5
    tally.losses += points == 0.0
    side = tally.by_side.setdefault(record.sides[seat], [0, 0.0])
    side[0] += 1
    side[1] += points
    tally.results.append((points, record.players[1 - seat], record.where))


def _player_row(game_id: str, name: str, tally: _Tally, sides: tuple[str, str],
                ratings: dict[str, Rating]) -> dict[str, Any]:
    rating = ratings.get(name)
    row: dict[str, Any] = {
        "game": game_id, "player": name, "games": tally.wins + tally.draws + tally.losses,
        "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
        "score": tally.wins + tally.draws / 2}
    for side in sides:
        played, points = tally.by_side.get(side, [0, 0.0])
        row[f"{side}_games"] = int(played)
        row[f"{side}_score"] = points
    row.update({
        "unfinished": tally.unfinished, "invalid": tally.invalid,
        "first_date": min(tally.dates) if tally.dates else None,
        "last_date": max(tally.dates) if tally.dates else None,
        "rating": round(rating.rating, 1) if rating else None,
        "rating_low": round(rating.low, 1) if rating else None,
        "rating_high": round(rating.high, 1) if rating else None})
    row.update(_extremes(tally.results, ratings))
    return row


_WORDS = {1.0: "beat", 0.5: "drew with", 0.0: "lost to"}


def _extremes(results: list[tuple[float, str, str]],
              ratings: dict[str, Rating]) -> dict[str, Any]:
    """The best result (the most points, against the highest-rated opponent) and the worst
    (the fewest points, against the lowest-rated opponent), each with where it is."""
    def strength(name: str) -> float:
        found = ratings.get(name)
        return found.rating if found is not None else 0.0

    if not results:
        return {"best": None, "best_record": None, "worst": None, "worst_record": None}
    best = max(results, key=lambda r: (r[0], strength(r[1]), r[1]))
    worst = min(results, key=lambda r: (r[0], strength(r[1]), r[1]))

    def said(result: tuple[float, str, str]) -> str:
        return f"{_WORDS[result[0]]} {result[1]} ({strength(result[1]):.0f})"

    return {"best": said(best), "best_record": best[2],
            "worst": said(worst), "worst_record": worst[2]}
