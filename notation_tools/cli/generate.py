"""``notation-tools generate``: random legal games written as records."""

from __future__ import annotations

import click

from notation_tools.analysis.generate import generate_records
from notation_tools.cli.options import (
    game_and_rules,
    game_option,
    open_output,
    output_option,
    rules_option,
)
from notation_tools.records.writers import RECORD_WRITERS


@click.command()
@game_option(required=True)
@rules_option
@click.option("--count", "-c", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games.")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Random seed: the same seed gives the same games.")
@click.option("--max-plies", type=click.IntRange(min=0), default=200, show_default=True,
              help="Stop a game after this many plies (result '*').")
@click.option("--notation", "-n", metavar="NOTATION", help="Move notation (default: the game's).")
@click.option("--format", "-f", "output_format", type=click.Choice(list(RECORD_WRITERS)),
              default="pgn", show_default=True, help="Container.")
@output_option
def generate(game: str, rules: str | None, count: int, seed: int, max_plies: int,
             notation: str | None, output_format: str, output: str) -> None:
    """Write random legal games: each ply is drawn uniformly from the legal moves.

    A game ends when the engine says it is over (its Result tag then gives the outcome) or
    after --max-plies plies (Result '*'). For tests, benchmarks and fuzzing other tools.
    """
    chosen, rules_value = game_and_rules(game, rules, notation=notation)
    with open_output(output) as out:
        writer = RECORD_WRITERS[output_format](out)
        for record in generate_records(chosen, rules_value, count=count, seed=seed,
                                       max_plies=max_plies, notation=notation):
            writer.write(record)
        writer.end()
