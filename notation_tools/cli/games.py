"""``notation-tools games``: the registered games, their notations, profiles and options."""

from __future__ import annotations

import sys

import click

from notation_tools.cli.options import (
    every_game,
    open_output,
    output_option,
    resolve_game,
    table_format_option,
)
from notation_tools.render.tables import TABLE_WRITERS, Table


@click.command()
@click.argument("game", required=False, metavar="[GAME]")
@click.option("--check", is_flag=True,
              help="Check every game's data tables; exit 1 if any row is wrong.")
@table_format_option
@output_option
def games(game: str | None, check: bool, output_format: str, output: str) -> None:
    """List the games: id, name, aliases, sides, notations and rule profiles.

    With GAME (an id or alias), list that game's rule options instead: name, values, default,
    the spec section, and what each profile sets.
    """
    if check:
        problems = [f"{g.id}: {problem}" for g in every_game() for problem in g.check_tables()]
        for problem in problems:
            click.echo(problem, err=True)
        click.echo(f"{len(every_game())} games checked, {len(problems)} problems")
        sys.exit(1 if problems else 0)
    if game is None:
        rows = [[g.id, g.name, ", ".join(g.aliases), " / ".join(g.sides),
                 ", ".join(g.notations),
                 ", ".join(f"{p}*" if p == g.default_profile else p for p in g.profiles)]
                for g in every_game()]
        table = Table("", ["game", "name", "aliases", "sides (first player first)",
                           "notations", "rule profiles (* default)"], rows)
    else:
        try:
            chosen = resolve_game(game)
        except LookupError as error:
            raise click.BadParameter(str(error.args[0]), param_hint="GAME") from None
        headers = ["option", "values", "default", *[f"profile {p}" for p in chosen.profiles],
                   "spec", "meaning"]
        rows = []
        for option in chosen.options:
            per_profile = [chosen.profiles[p].get(option.name, "") for p in chosen.profiles]
            values = ", ".join(option.values) if option.values else "(see meaning)"
            rows.append([option.name, values, option.default, *per_profile, option.spec,
                         option.help])
        table = Table(f"{chosen.name} ({chosen.id}) rule options", headers, rows)
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write([table], out)
