"""``notation-tools explore``: the opening explorer over a results database's position
index (:class:`notation_tools.storage.game_database.Database`)."""

from __future__ import annotations

import functools
import json
from typing import Any

import click

from notation_tools.analysis.explore import PositionError
from notation_tools.cli.options import InputError, open_output, output_option, table_format_option
from notation_tools.cli.search import (
    database_argument,
    open_database,
    position_options,
    top_option,
    warn_unindexed,
)
from notation_tools.render.tables import TABLE_WRITERS, Table
from notation_tools.storage.errors import DatabaseError

EXPLORE_TOP = 40
"""Moves ``explore`` lists unless told: a Game of War position can have thousands, each
played once, and a move is read in the game's rules only when it is listed."""


@click.command("explore")
@database_argument
@position_options
@click.option("--suggest", metavar="N", type=click.IntRange(min=1),
              help="Instead: list the N move sequences from the start most played in the "
                   "archive (2 to 12 plies, each the longest shared by as many records), as "
                   "candidates for opening names.")
@click.option("--html", "html_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Also write an explorer page: the position, its moves, and the positions "
                   "they lead to, --depth moves deep (one self-contained file).")
@click.option("--depth", default=3, show_default=True, type=click.IntRange(0, 40),
              help="With --html: how many moves deep the page goes.")
@click.option("--max-positions", default=60, show_default=True, type=click.IntRange(min=1),
              help="With --html: at most this many positions in the page (each board is "
                   "drawn in full: a 19x19 board takes about 100 kB).")
@top_option(EXPLORE_TOP, "moves", "the most played")
@table_format_option
@output_option
def explore(database: str, fen: str | None, moves: str | None, game: str | None,
            rules: str | None, suggest: int | None, html_path: str | None, depth: int,
            max_positions: int, top: int, output_format: str, output: str) -> None:
    """Show the moves an archive played from a position, how often and how they scored.

    DATABASE is a results database that 'analyze --db DATABASE --index positions' wrote. The
    position is --position (default: the start position) after --moves. For every move
    played from it in the records' main lines: how many records played it, each side's
    wins, the draws and the unfinished games, their average final length in plies, the
    first and last Date, and one example record. The tree is over positions: a record that
    reached the position by another move order counts. Exit status 0 when the explorer ran,
    2 for usage errors and a database that cannot be read or has no position index.
    """
    from notation_tools.pages.explorer import explorer_page, explorer_tree  # --html only
    with open_database(database) as db:
        try:
            db.require_index()
            if suggest is not None:
                _write_suggestions(db.suggest(suggest, game=game), output_format, output)
                return
            chosen, position = db.position(fen, moves=moves or (), game=game, rules=rules)
            answer = db.explore_position(chosen, position, fens=output_format == "json",
                                         limit=top or None)
            tree = explorer_tree(chosen, position,
                                 functools.partial(db.explore_position, limit=top or None),
                                 depth=depth, max_positions=max_positions) \
                if html_path else None
        except PositionError as error:
            raise click.BadParameter(str(error), param_hint="'--position'/'--moves'") from None
        except DatabaseError as error:
            raise InputError(str(error)) from None
        warn_unindexed(db)
    if tree is not None and html_path is not None:
        with open_output(html_path) as out:
            out.write(explorer_page(tree, title=f"Explorer: {database}"))
    with open_output(output) as out:
        if output_format == "json":
            json.dump(answer, out, indent=2, ensure_ascii=False)
            out.write("\n")
            return
        TABLE_WRITERS[output_format]().write([_moves_table(answer, chosen.sides)], out)


def _moves_table(answer: dict[str, Any], sides: tuple[str, str]) -> Table:
    rows = [[move["move"], move["games"], move["wins"][0], move["draws"], move["wins"][1],
             move["unfinished"], f"{move['average_plies']:.1f}", move["first_date"],
             move["last_date"], f"{move['example']['path']} #{move['example']['record']}"]
            for move in answer["moves"]]
    rest = answer["rest"]
    more = f"; {rest['moves']} more moves ({rest['games']} records) not listed, --top 0 " \
        "lists them all" if rest["moves"] else ""
    return Table(f"{answer['games']} records reach the position ({answer['side']} to move)"
                 + more,
                 ["move", "records", f"{sides[0]} wins", "draws", f"{sides[1]} wins",
                  "unfinished", "average plies", "first date", "last date", "example"], rows)


def _write_suggestions(rows: list[dict[str, Any]], output_format: str, output: str) -> None:
    table = Table("most played move sequences (naming candidates)", ["moves", "plies", "records"],
                  [[row["moves"], row["plies"], row["games"]] for row in rows])
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write([table], out)
