"""``notation-tools games``: the registered games, their notations, profiles, options and codes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

import notation_tools
from notation_tools.analysis.openings import check_catalogue
from notation_tools.codes import SHARED_CODES, Code
from notation_tools.cli.options import (
    every_game,
    open_output,
    output_option,
    table_format_option,
)
from notation_tools.games.base import get_game
from notation_tools.render.tables import TABLE_WRITERS, Table


def rules_reference(game: Any) -> str:
    """Where the game's rules reference is on this machine: installed beside the man pages
    (``share/doc/notation-tools/rules``), or in the source tree's ``docs/rules``."""
    installed = Path(sys.prefix, "share", "doc", "notation-tools", "rules",
                     Path(game.rules_doc).name)
    if installed.is_file():
        return str(installed)
    source = Path(notation_tools.__file__).resolve().parents[1] / game.rules_doc
    return str(source) if source.is_file() else game.rules_doc


def _codes_table(title: str, codes: tuple[Code, ...]) -> Table:
    return Table(title, ["code", "severity", "meaning", "section"],
                 [[code.code, code.severity, code.meaning, code.section or ""] for code in codes])


@click.command()
@click.argument("game", required=False, metavar="[GAME]")
@click.option("--check", is_flag=True,
              help="Check every game's data tables and opening catalogue (every line must "
                   "replay legally); exit 1 if any row is wrong.")
@click.option("--codes", is_flag=True,
              help="List diagnostic codes: the game's own with GAME, else those every game "
                   "shares.")
@table_format_option
@output_option
def games(game: str | None, check: bool, codes: bool, output_format: str, output: str) -> None:
    """List the games: id, name, aliases, sides, notations, rule profiles and rules reference.

    With GAME (an id or alias), list that game's rule options instead: name, values, default,
    the rules section, and what each profile sets; the rules reference (a Markdown file,
    docs/rules/GAME.md) explains every section. With --codes, list diagnostic codes.
    """
    if check:
        problems = [f"{g.id}: {problem}" for g in every_game() for problem in g.check_tables()]
        problems += [f"{g.id}: opening catalogue: {problem}" for g in every_game()
                     for problem in check_catalogue(g)]
        for problem in problems:
            click.echo(problem, err=True)
        with open_output(output) as out:
            out.write(f"{len(every_game())} games checked, {len(problems)} problems\n")
        sys.exit(1 if problems else 0)
    chosen = None
    if game is not None:
        try:
            chosen = get_game(game)
        except LookupError as error:
            raise click.BadParameter(str(error.args[0]), param_hint="GAME") from None
    if codes:
        table = (_codes_table(f"{chosen.name} ({chosen.id}) diagnostic codes", chosen.codes)
                 if chosen is not None else
                 _codes_table("Diagnostic codes every game shares", SHARED_CODES))
    elif chosen is None:
        rows = [[g.id, g.name, ", ".join(g.aliases), " / ".join(g.sides),
                 ", ".join(g.notations),
                 ", ".join(f"{p}*" if p == g.default_profile else p for p in g.profiles),
                 g.rules_doc]
                for g in every_game()]
        table = Table("", ["game", "name", "aliases", "sides (first player first)",
                           "notations", "rule profiles (* default)", "rules reference"], rows)
    else:
        headers = ["option", "values", "default", *[f"profile {p}" for p in chosen.profiles],
                   "section", "meaning"]
        rows = []
        for option in chosen.options:
            per_profile = [chosen.profiles[p].get(option.name, "") for p in chosen.profiles]
            values = ", ".join(option.values) if option.values else "(see meaning)"
            rows.append([option.name, values, option.default, *per_profile, option.spec,
                         option.help])
        table = Table(f"{chosen.name} ({chosen.id}) rule options; sections refer to "
                      f"{rules_reference(chosen)}", headers, rows)
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write([table], out)
