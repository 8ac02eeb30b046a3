"""``notation-tools search``: the records of a results database that reach a position, by
its position index (:class:`notation_tools.storage.game_database.Database`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from notation_tools.analysis.explore import PositionError
from notation_tools.analysis.pattern import PatternError
from notation_tools.cli.options import (
    InputError,
    game_option,
    open_output,
    output_option,
    rules_option,
    table_format_option,
)
from notation_tools.render.tables import TABLE_WRITERS, Table
from notation_tools.storage.errors import DatabaseError
from notation_tools.storage.game_database import Database

SHOWN_TAGS = ("Date", "Event")
"""Tags shown beside the game's side tags in the table (--format json gives them all)."""


SEARCH_TOP = 100
"""Records ``search`` lists unless told (at the start position every record matches)."""


def top_option(default: int, what: str, which: str) -> Callable[[Any], Any]:
    """``--top N``: list only ``which`` N ``what`` (0: all); how many more is said. Not
    ``--limit``, which other commands take as ``--limit NAME=VALUE`` (limits on the input)."""
    return click.option("--top", "top", default=default, show_default=True,
                        type=click.IntRange(min=0),
                        help=f"List only {which} N {what} and say how many more there are "
                             "(0: all).")


def database_argument(func: Any) -> Any:
    return click.argument("database", metavar="DATABASE",
                          type=click.Path(dir_okay=False))(func)


def position_options(func: Any) -> Any:
    """``--position``, ``--moves``, ``--game``, ``--rules``: the position asked about."""
    func = rules_option(func)
    func = game_option()(func)
    func = click.option("--moves", "-m", metavar="MOVES",
                        help="Moves played from the position (default: the start), "
                             "separated by spaces, e.g. \"P-10m P-8g\"; move numbers are "
                             "skipped.")(func)
    return click.option("--position", "-p", "fen", metavar="POSITION",
                        help="The game's position string (default: the start position).")(func)


def open_database(path: str) -> Database:
    try:
        return Database(path)
    except DatabaseError as error:
        raise InputError(str(error)) from None


@click.command("search")
@database_argument
@position_options
@click.option("--variations", is_flag=True,
              help="Also find the position in the records' variations (when the database "
                   "indexed them: analyze --index variations).")
@click.option("--square", "squares", multiple=True, metavar="SQUARE=WHAT",
              help="Instead of a position, a pattern (docs/pattern.md): SQUARE holds WHAT, a "
                   "piece (Ln), a side's piece (White:Ln), a side, 'any' or 'empty'; "
                   "repeatable. Answered from the square index (analyze --index squares); "
                   "without it the records are replayed from the database's inputs.")
@click.option("--material", metavar="CONDITIONS",
              help="Pattern: piece counts per side, e.g. \"Black: Ln>=1, FK=0\".")
@click.option("--at", "at", metavar="RANGE", help="Pattern: only at these plies (10..40).")
@top_option(SEARCH_TOP, "records", "the first")
@table_format_option
@output_option
def search(database: str, fen: str | None, moves: str | None, game: str | None,
           rules: str | None, variations: bool, squares: tuple[str, ...],
           material: str | None, at: str | None, top: int, output_format: str,
           output: str) -> None:
    """List the records of a results database that reach a position, by any move order.

    DATABASE is a results database that 'analyze --db DATABASE --index positions' wrote. The
    position is --position (default: the start position) after --moves; --game says which
    game when the database holds several. Each record is listed once, with the first ply at
    which it reaches the position, its path, its index in its file, its result and tags.
    With --square/--material (a pattern) the records whose main line matches it at some ply
    are listed instead; 'select --square/--material' writes such records. Exit status 0 when
    the search ran (whether or not it found records), 2 for usage errors
    and a database that cannot be read or has no position index.
    """
    with open_database(database) as db:
        try:
            chosen = db.game(game)
            if squares or material is not None:
                found, total = db.pattern_counted(squares=squares, material=material, at=at,
                                                  game=game, limit=top or None)
            else:
                found = db.search(fen, moves=moves or (), game=game, rules=rules,
                                  variations=variations, limit=top or None)
                total = len(found) if not top or len(found) < top else db.count(
                    fen, moves=moves or (), game=game, rules=rules, variations=variations)
        except PatternError as error:
            raise click.BadParameter(error.message, param_hint=f"'{error.option}'") from None
        except PositionError as error:
            raise click.BadParameter(str(error), param_hint="'--position'/'--moves'") from None
        except DatabaseError as error:
            raise InputError(str(error)) from None
        warn_unindexed(db)
    if total > len(found):
        click.echo(f"{total - len(found)} more of {total} records not listed (--top 0 lists "
                   "them all)", err=True)
    shown_tags = [*chosen.sides, *SHOWN_TAGS]
    title = "records matching the pattern" if squares or material is not None \
        else "records reaching the position"
    if output_format == "json":
        rows = [[row["path"], row["record"], row["ply"], row["line"], row["result"],
                 row["tags"]] for row in found]
        table = Table(title, ["path", "record", "ply", "line", "result", "tags"], rows)
    else:
        rows = [[row["path"], row["record"], row["ply"], row["result"],
                 *[row["tags"].get(name) for name in shown_tags]] for row in found]
        table = Table(title, ["path", "record", "ply", "result", *shown_tags], rows)
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write([table], out)


def warn_unindexed(db: Database) -> None:
    """Say on standard error when some inputs are not in the index (their records cannot be
    found by it)."""
    indexed, stored = db.coverage()
    if indexed < stored:
        click.echo(f"warning: {stored - indexed} of {stored} inputs of {db.path} are not in "
                   "the position index (analyze them with --index positions)", err=True)
