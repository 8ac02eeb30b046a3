"""``notation-tools show``: the position of a record at a ply, as a diagram, SVG or string."""

from __future__ import annotations

import sys
from typing import Any

import click

from notation_tools.parallel.batch import Settings, iter_records
from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.analysis.reports import Tally
from notation_tools.cli.options import (
    InputError,
    Output,
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
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Record


class _StopAt(ReplayVisitor):
    def __init__(self, ply: int | None) -> None:
        self.ply = ply
        self.last: tuple[str, int, Any] | None = None

    def visit_move(self, node: Any, move: Any, before: Any, ply: int, in_variation: bool) -> None:
        if not in_variation:
            self.last = (node.text, ply, move)

    def stop_after(self, ply: int) -> bool:
        return self.ply is not None and ply >= self.ply


def _render_flags(func: Any) -> Any:
    names: dict[str, str] = {}
    for game in every_game():
        for name, help_text in game.render_options.items():
            names.setdefault(name, f"{help_text} ({game.id})")
    for name, help_text in sorted(names.items(), reverse=True):
        func = click.option(f"--{name}", f"mark_{name.replace('-', '_')}", is_flag=True,
                            help=help_text)(func)
    return func


def _pick(path: str, index: int, settings: Settings) -> Record:
    """The ``index``-th record of ``path``, counted across every file of a directory and
    every member of an archive (``archive:member`` reads one member)."""
    seen = 0
    for item in iter_records([path], stdin=sys.stdin.buffer, settings=settings):
        if isinstance(item, Diagnostic):
            raise InputError(str(item))
        seen += 1
        if seen == index:
            return item
    raise click.BadParameter(f"{path} has {seen} records, fewer than {index}",
                             param_hint="'--game-index'")


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
@click.option("--format", "-f", "output_format", type=click.Choice(["text", "svg", "fen"]),
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
    record = _pick(path, game_index, Settings(limits=limits, encoding=encoding))
    visitor = _StopAt(ply)
    result = replay(record, game_name=game, rules_text=rules, visitor=visitor)
    for diagnostic in record.diagnostics:
        click.echo(str(diagnostic), err=True)
    tally = Tally()
    tally.add(record)
    if result.game is None or result.position is None:
        finish(tally)
    if ply is not None and result.plies < ply:
        click.echo(f"{path}: record {game_index} has only {result.plies} playable plies; "
                   f"showing the position after ply {result.plies}", err=True)
    chosen = {name[len("mark_"):].replace("_", "-"): value for name, value in marks.items()
              if value}
    unknown = sorted(set(chosen) - set(result.game.render_options))
    if unknown:
        raise click.UsageError(f"--{unknown[0]} is not offered by {result.game.id}")
    last = f", last move {visitor.last[1]}: {visitor.last[0]}" if visitor.last else ""
    keywords = {name.replace("-", "_"): True for name in chosen}
    with open_output(output) as out:
        if output_format == "fen":
            out.write(result.game.format_position(result.position) + "\n")
        elif output_format == "svg":
            last_move = visitor.last[2] if visitor.last else None
            out.write(result.game.render_svg(result.position, last_move=last_move, **keywords)
                      + "\n")
        else:
            out.write(f"{record.path} record {record.index}: {result.game.id} ({result.rules.describe()}),"
                      f" after ply {result.plies}{last}\n")
            out.write(result.game.render_text(result.position, style=Style(style), **keywords))
            out.write("\n")
    finish(tally)
