"""``notation-tools crosstable``: an event's round-robin or Swiss table with tie-breaks."""

from __future__ import annotations

import click

from notation_tools.cli.options import (InputError, check_game, check_outputs, open_output,
                                        output_option)
from notation_tools.cli.players import existing_database
from notation_tools.pages.crosstable import write_crosstable_page
from notation_tools.render.tables import TABLE_WRITERS, rows_to_table
from notation_tools.sources.overlap import Output
from notation_tools.storage.database import DatabaseError
from notation_tools.storage.events import UnknownEvent, event_table


@click.command()
@click.argument("database", metavar="DATABASE", type=click.Path(dir_okay=False))
@click.option("--event", "-e", required=True, metavar="NAME",
              help="The event: the value of its records' Event tag.")
@click.option("--game", "-g", "game", metavar="GAME", callback=check_game,
              help="Only the event's records of this game (id or alias): an event name "
                   "records of two games share.")
@click.option("--format", "-f", "output_format",
              type=click.Choice([*TABLE_WRITERS, "html"]), default="table", show_default=True,
              help="Output format; html is one self-contained page.")
@output_option
def crosstable(database: str, event: str, game: str | None, output_format: str,
               output: str) -> None:
    """Print the crosstable of one event of a results database, with its tie-breaks.

    The event's records are those whose Event tag is NAME; their players are the names in
    the side tags. A round-robin (every pair met equally often) is drawn player against
    player and ranked by score, then Sonneborn-Berger, then wins; a Swiss event (Round tags,
    one game per player and round, not every pair met) is drawn round by round and ranked
    by score, then Buchholz, then Sonneborn-Berger. Unfinished and invalid records are shown
    as * where they fall but not scored. With --game, only the records of that game count.
    An event no record has (of that game) is a usage error (exit status 2) that lists the
    events there are.
    """
    existing_database(database)
    check_outputs((database,), Output("--output", output))
    try:
        table = event_table(database, event, game=game)
    except UnknownEvent as error:
        known = "; ".join(error.events) if error.events else "none: no record has an Event tag"
        of_game = f" of {game}" if game is not None else ""
        raise click.BadParameter(f"{database} holds no event {event!r}{of_game} "
                                 f"(events: {known})",
                                 param_hint="'--event'") from None
    except DatabaseError as error:
        raise InputError(str(error)) from None
    with open_output(output) as out:
        if output_format == "html":
            write_crosstable_page(table.event, table.kind, table.columns, table.rows, out,
                                  unscored=table.unscored)
            return
        title = f"{table.event} ({table.kind})"
        TABLE_WRITERS[output_format]().write([rows_to_table(title, table.rows)], out)
