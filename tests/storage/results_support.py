"""Results databases written straight from record reports (no replay), for the players and
crosstable tests: each game is ``(first side's player, second side's player, result)`` with
optional ``event``, ``round``, ``date``, ``valid`` and ``game``."""

from __future__ import annotations

from typing import Any

from notation_tools.games.base import get_game
from notation_tools.parallel.batch import RecordReport
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.storage.database import ResultsDatabase


def report_of(index: int, first: str, second: str, result: str, *,
              game: str = "maka-dai-dai-shogi", event: str | None = None,
              round: str | None = None, date: str | None = None,
              valid: bool = True) -> RecordReport:
    sides = get_game(game).sides
    tags = [("Variant", game), (sides[0], first), (sides[1], second), ("Result", result)]
    tags += [(name, value) for name, value in (("Event", event), ("Round", round),
                                               ("Date", date)) if value is not None]
    diagnostics = [] if valid else [Diagnostic("E-ILLEGAL-MOVE", "an illegal move", "t.pgn",
                                               9, 1, record=index)]
    return RecordReport("t.pgn", index, 1, get_game(game).id, "standard", 10, result, None,
                        diagnostics, {}, tags=tags)


def write_database(path: Any, games: list[tuple[Any, ...]], **common: Any) -> str:
    """A results database at ``path`` holding one input, ``t.pgn``, with these games."""
    reports = []
    for index, entry in enumerate(games, start=1):
        first, second, result, *rest = entry
        options = dict(common)
        if rest:
            options.update(rest[0])
        reports.append(report_of(index, first, second, result, **options))
    with ResultsDatabase(str(path)) as database:
        for _ in database.store("t.pgn", 1, f"digest-{len(reports)}", None, reports):
            pass
    return str(path)
