"""``notation-tools players``: per player, games, scores, dates, a rating, best and worst."""

from __future__ import annotations

import os

import click

from notation_tools.cli.options import (InputError, check_outputs, game_option, open_output,
                                        output_option, table_format_option)
from notation_tools.render.tables import TABLE_WRITERS, rows_to_table
from notation_tools.sources.overlap import Output
from notation_tools.storage.database import DatabaseError
from notation_tools.storage.players import players as player_rows


def existing_database(path: str) -> None:
    """A usage error (exit 2) when the results database ``path`` is not a file."""
    if not os.path.isfile(path):
        raise click.BadParameter(f"{path}: no such file (write one with 'notation-tools "
                                 "analyze PATH... --db FILE')", param_hint="DATABASE")


@click.command()
@click.argument("database", metavar="DATABASE", type=click.Path(dir_okay=False))
@game_option()
@click.option("--min-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Only players with at least this many decided games (the ratings are "
                   "fitted over every player).")
@table_format_option
@output_option
def players(database: str, game: str | None, min_games: int, output_format: str,
            output: str) -> None:
    """Print every player of a results database: games, scores, dates, rating, best, worst.

    The players are the names in each record's side tags (Black/White, North/South, ...: the
    sides its game declares), one row per player and game. A decided game is a valid record
    with the result 1-0, 0-1 or 1/2-1/2: it counts in wins, draws, losses, the score (and the
    games and score as each side) and the rating. A valid record with result * counts as
    unfinished, an invalid record as invalid, and neither in the score or the rating. The
    rating is a Bradley-Terry fit on the Elo scale (1500 the anchor) with its 95% interval
    (rating_low..rating_high); best is the win against the highest-rated opponent, worst the
    loss against the lowest-rated one. Rows are sorted by game, then rating, score and name.
    Exit status 0, or 2 when DATABASE is not a results database.
    """
    existing_database(database)
    check_outputs((database,), Output("--output", output))
    try:
        rows = player_rows(database, game=game, min_games=min_games)
    except DatabaseError as error:
        raise InputError(str(error)) from None
    if output_format == "table":
        rows = [{name: value for name, value in row.items()
                 if name not in ("best_record", "worst_record")} for row in rows]
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write([rows_to_table("", rows)], out)
