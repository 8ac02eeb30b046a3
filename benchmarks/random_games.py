"""Random legal games as token lists, for the engine benchmarks (one generator for all)."""

from __future__ import annotations

from notation_tools.analysis.generate import generate_records
from notation_tools.games.base import Game


def random_token_games(game: Game, rules_text: str | None, count: int, plies: int,
                       seed: int) -> list[list[str]]:
    """``count`` random games of at most ``plies`` plies, each as its move texts."""
    records = generate_records(game, game.parse_rules(rules_text), count=count, seed=seed,
                               max_plies=plies)
    return [[move.text for move in record.moves] for record in records]
