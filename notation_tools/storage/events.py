"""Events from a results database: the crosstable of one ``Event`` tag's games.

An event is every record whose ``Event`` tag has one value. Its decided games
(:mod:`notation_tools.storage.players` says what counts) are scored 1, ½ and 0, and the players
ranked by score, then by the event's tie-breaks:

- a *round-robin* (every pair of players met the same number of times, at least once) is
  drawn player against player, ranked by score then Sonneborn–Berger (the sum, over a
  player's games, of the opponent's final score times the points the player took from that
  game), then wins;
- a *Swiss* event (``Round`` tags, each player in at most one game per round, and some pairs
  never met) is drawn round by round (``+3`` a win against the player ranked 3rd, ``=3`` a
  draw, ``-3`` a loss, ``*3`` unfinished), ranked by score, then Buchholz (the sum of the
  final scores of every opponent met, once per game), then Sonneborn–Berger;
- any other event (no usable rounds) is drawn player against player as a round-robin is,
  with the Swiss tie-breaks.

Byes and forfeits are not game records, so they score nothing here. Does not print.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from typing import Any

from notation_tools.storage.players import DatabaseLike, StoredGame, stored_games

ROUND_ROBIN, SWISS, OTHER = "round-robin", "swiss", "other"


class UnknownEvent(ValueError):
    """No record has this ``Event`` tag; ``events`` lists the ones there are."""

    def __init__(self, event: str, events: list[str]) -> None:
        super().__init__(f"no event {event!r}")
        self.event, self.events = event, events


@dataclasses.dataclass
class Crosstable:
    """An event's table: its kind, the column names of its cells (opponents' ranks for a
    round-robin, ``R1``... for a Swiss event), a row per player, and the records of the event
    not scored (invalid or unfinished)."""

    event: str
    kind: str
    columns: list[str]
    rows: list[dict[str, Any]]
    unscored: int = 0


def events(database: DatabaseLike, *, game: str | None = None) -> list[dict[str, Any]]:
    """Every event of the database (``game``: with records of that game id): name, game(s),
    records with two players, players."""
    by_event: dict[str, list[StoredGame]] = defaultdict(list)
    for record in stored_games(database, game=game):
        if record.event not in (None, "", "?"):
            by_event[str(record.event)].append(record)
    return [{"event": name, "games": ", ".join(sorted({r.game for r in records})),
             "records": len(records),
             "players": len({p for r in records for p in r.players})}
            for name, records in sorted(by_event.items())]


def crosstable(database: DatabaseLike, event: str, *,
               game: str | None = None) -> list[dict[str, Any]]:
    """The crosstable of ``event`` as rows (see :func:`event_table`)."""
    return event_table(database, event, game=game).rows


def event_table(database: DatabaseLike, event: str, *, game: str | None = None) -> Crosstable:
    """The crosstable of ``event`` (``game``: of its records of that game id only: an event
    name two games share); :class:`UnknownEvent` when no such record has that tag."""
    records = [r for r in stored_games(database, game=game) if r.event == event]
    if not records:
        raise UnknownEvent(event, [row["event"] for row in events(database, game=game)])
    scored = [r for r in records if r.points is not None]
    names = sorted({p for r in records for p in r.players})
    score: dict[str, float] = dict.fromkeys(names, 0.0)
    wins: Counter[str] = Counter()
    for record in scored:
        for seat in (0, 1):
            points = _points(record, seat)
            score[record.players[seat]] += points
            wins[record.players[seat]] += points == 1.0
    kind = _kind(names, records)
    sonneborn = dict.fromkeys(names, 0.0)
    buchholz = dict.fromkeys(names, 0.0)
    for record in scored:
        for seat in (0, 1):
            player, opponent = record.players[seat], record.players[1 - seat]
            sonneborn[player] += _points(record, seat) * score[opponent]
            buchholz[player] += score[opponent]
    if kind == ROUND_ROBIN:
        order = sorted(names, key=lambda n: (-score[n], -sonneborn[n], -wins[n], n))
    else:
        order = sorted(names, key=lambda n: (-score[n], -buchholz[n], -sonneborn[n], n))
    rank = {name: number for number, name in enumerate(order, 1)}
    rounds = _rounds(records) if kind == SWISS else []
    columns = [f"R{r}" for r in rounds] if kind == SWISS else [str(n) for n in range(
        1, len(order) + 1)]
    rows = []
    for name in order:
        row: dict[str, Any] = {"rank": rank[name], "player": name}
        mine = [(r, r.players.index(name)) for r in records if name in r.players]
        if kind == SWISS:
            row.update(_round_cells(mine, rank, rounds))
        else:
            row.update(_opponent_cells(mine, rank, len(order), rank[name]))
        row.update({"games": sum(1 for r, _ in mine if r.points is not None),
                    "score": score[name], "wins": wins[name],
                    "sonneborn_berger": sonneborn[name]})
        if kind != ROUND_ROBIN:
            row["buchholz"] = buchholz[name]
        rows.append(row)
    return Crosstable(event, kind, columns, rows, len(records) - len(scored))


def _points(record: StoredGame, seat: int) -> float:
    assert record.points is not None
    return record.points if seat == 0 else 1.0 - record.points


def _round_number(text: str | None) -> int | None:
    """``3`` or ``3.2`` (round 3, board 2) → 3; ``?``, ``-`` or none → ``None``."""
    head = (text or "").split(".")[0].strip()
    return int(head) if head.isdigit() else None


def _kind(names: list[str], scored: list[StoredGame]) -> str:
    """The pairing pattern of an event's records (unfinished and invalid ones included: a
    pairing was made whether or not its game was finished)."""
    pairs = Counter(frozenset(r.players) for r in scored if r.players[0] != r.players[1])
    every_pair = len(names) * (len(names) - 1) // 2
    if len(names) > 1 and len(pairs) == every_pair and len(set(pairs.values())) == 1:
        return ROUND_ROBIN
    rounds = [_round_number(r.round) for r in scored]
    if scored and all(number is not None for number in rounds):
        seen = Counter((number, p) for number, r in zip(rounds, scored) for p in r.players)
        if max(seen.values()) == 1:
            return SWISS
    return OTHER


def _rounds(records: list[StoredGame]) -> list[int]:
    return sorted({n for r in records if (n := _round_number(r.round)) is not None})


def _mark(record: StoredGame, seat: int) -> str:
    if record.points is None:
        return "*"
    return {1.0: "1", 0.5: "½", 0.0: "0"}[_points(record, seat)]


def _opponent_cells(mine: list[tuple[StoredGame, int]], rank: dict[str, int],
                    size: int, own: int) -> dict[str, str]:
    """One cell per opponent's rank: the player's results against them, in record order."""
    cells = {str(n): "" for n in range(1, size + 1)}
    for record, seat in mine:
        opponent = record.players[1 - seat]
        cells[str(rank[opponent])] += _mark(record, seat)
    cells[str(own)] = "x"  # the diagonal
    return cells


def _round_cells(mine: list[tuple[StoredGame, int]], rank: dict[str, int],
                 rounds: list[int]) -> dict[str, str]:
    """One cell per round: ``+3`` (won against the player ranked 3rd), ``=3``, ``-3``, ``*3``."""
    cells = {f"R{n}": "" for n in rounds}
    for record, seat in mine:
        number = _round_number(record.round)
        if number is None:
            continue
        mark = {"1": "+", "½": "=", "0": "-", "*": "*"}[_mark(record, seat)]
        cells[f"R{number}"] += f"{mark}{rank[record.players[1 - seat]]}"
    return cells
