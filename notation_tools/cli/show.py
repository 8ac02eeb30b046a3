"""``notation-tools show``: the position of a record at a ply, as a diagram, SVG or string."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from notation_tools.analysis.show import (SHOW_FORMATS, TooFewRecords, UnofferedMark,
                                          UnreadableInput, draw_position, pick_record,
                                          position_at)
from notation_tools.analysis.reports import Tally
from notation_tools.cli.options import (
    InputError,
    check_outputs,
    check_overrides,
    every_game,
    finish,
    game_option,
    limits_options,
    open_output,
    output_option,
    require_paths,
    rules_option,
)
from notation_tools.games.base import Style
from notation_tools.limits import Limits
from notation_tools.parallel.batch import Settings
from notation_tools.sources.overlap import Output

F = TypeVar("F", bound=Callable[..., Any])


def _render_flags(func: F) -> F:
    names: dict[str, str] = {}
    for game in every_game():
        for name, help_text in game.render_options.items():
            names.setdefault(name, f"{help_text} ({game.id})")
    for name, help_text in sorted(names.items(), reverse=True):
        func = click.option(f"--{name}", f"mark_{name.replace('-', '_')}", is_flag=True,
                            help=help_text)(func)
    return func


@click.command()
@click.argument("path", type=click.Path(allow_dash=True))
@click.option("--ply", "-p", type=click.IntRange(min=0), default=None,
              help="Show the position after this many plies (default: the end).")
@click.option("--game-index", "-k", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which record (1 is the first), counted across every file of a directory "
                   "and every member of an archive; PATH may be ARCHIVE:MEMBER, as "
                   "diagnostics print it.")
@game_option()
@rules_option
@click.option("--style", type=click.Choice([style.value for style in Style]), default="ascii",
              show_default=True, help="Diagram characters.")
@click.option("--format", "-f", "output_format", type=click.Choice(SHOW_FORMATS),
              default="text", show_default=True,
              help="text: a diagram; svg: a picture; fen: the game's position string.")
@output_option
@limits_options
@_render_flags
def show(path: str, ply: int | None, game_index: int, game: str | None, rules: str | None,
         style: str, output_format: str, output: str, limits: Limits, encoding: str | None,
         **marks: bool) -> None:
    """Print the position of a record after --ply plies (default: the end).

    The first line names the record, its game and effective rules, and the last move played.
    Diagnostics met before that ply go to standard error and make the exit status 1; the
    diagram then shows the position before the first illegal move.
    """
    require_paths((path,))
    check_overrides(game, rules)
    check_outputs((path,), Output("--output", output))
    try:
        record = pick_record(path, game_index, settings=Settings(limits=limits, encoding=encoding),
                             stdin=sys.stdin.buffer)
    except UnreadableInput as error:
        raise InputError(str(error)) from None
    except TooFewRecords as error:
        raise click.BadParameter(str(error), param_hint="'--game-index'") from None
    shown = position_at(record, ply, game_name=game, rules_text=rules)
    for diagnostic in record.diagnostics:
        click.echo(str(diagnostic), err=True)
    tally = Tally()
    tally.add(record)
    if shown.replayed.game is None or shown.replayed.position is None:
        finish(tally)
    if ply is not None and shown.replayed.plies < ply:
        click.echo(f"{path}: record {game_index} has only {shown.replayed.plies} playable "
                   f"plies; showing the position after ply {shown.replayed.plies}", err=True)
    chosen = [name[len("mark_"):].replace("_", "-") for name, value in marks.items() if value]
    try:
        drawing = draw_position(shown, output_format=output_format, style=Style(style),
                                marks=chosen)
    except UnofferedMark as error:
        raise click.UsageError(f"--{error}") from None
    with open_output(output) as out:
        out.write(drawing)
    finish(tally)
