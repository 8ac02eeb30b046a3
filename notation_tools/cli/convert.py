"""``notation-tools convert``: rewrite records in another container or move notation."""

from __future__ import annotations

import sys
from typing import Any

import click

from notation_tools.analysis.batch import iter_records
from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.cli.options import (
    check_rules,
    every_game,
    game_option,
    open_output,
    output_option,
    paths_argument,
    require_paths,
    rules_option,
)
from notation_tools.games.base import Game
from notation_tools.records.diagnostics import WARNING, Diagnostic
from notation_tools.records.jsonio import write_json_record
from notation_tools.records.model import Move, Record
from notation_tools.records.pgn import write_record

CONTAINERS = ("pgn", "json", "jsonl")


def _notations() -> list[str]:
    names: dict[str, None] = {}
    for game in every_game():
        names.update(dict.fromkeys(game.notations))
    return list(names)


class _Rewrite(ReplayVisitor):
    """Re-writes every move it sees (main line and variations) in place."""

    def __init__(self, record: Record, game: Game, notation: str | None, with_data: bool) -> None:
        self.record, self.game, self.notation, self.with_data = record, game, notation, with_data

    def visit_move(self, node: Move, move: Any, before: Any, ply: int, in_variation: bool) -> None:
        if self.notation is not None:
            for code, message in self.game.format_warnings(move, before, self.notation):
                self.record.diagnostics.append(Diagnostic(
                    code, message, self.record.path, node.line, node.column, severity=WARNING,
                    ply=ply, side=self.game.sides[before.turn], move=node.text,
                    record=self.record.index))
            node.text = self.game.format_move(move, before, self.notation)
        if self.with_data:
            node.data = self.game.move_to_json(move, before)


def _has_json_moves(game: Game) -> bool:
    return type(game).move_to_json is not Game.move_to_json


def _convert(record: Record, game: str | None, rules: str | None, notation: str | None,
             container: str) -> None:
    if game is not None:
        record.set_tag("Variant", game)
    needs_replay = notation is not None or container != "pgn"
    if not needs_replay:
        return
    probe = replay(record, game_name=game, rules_text=rules)  # finds the game and checks
    if probe.game is None:
        return
    if notation is not None and notation not in probe.game.notations:
        record.diagnostics.append(Diagnostic(
            "E-BAD-NOTATION", f"{probe.game.id} has no notation {notation!r} "
            f"(it has {', '.join(probe.game.notations)})", record.path, record.line, 1,
            record=record.index))
        return
    if rules is not None and probe.rules is not None:
        record.set_tag("Rules", probe.rules.describe())
    with_data = container != "pgn" and _has_json_moves(probe.game)
    if notation is None and not with_data:
        return
    record.diagnostics.clear()
    replay(record, game_name=game, rules_text=rules,
           visitor=_Rewrite(record, probe.game, notation, with_data))


@click.command()
@paths_argument
@click.option("--to", "-t", "target", required=True, metavar="FORMAT",
              type=click.Choice([*CONTAINERS, *_notations()]),
              help="pgn, json or jsonl (the container; move texts kept), or a move notation "
                   "(PGN with every move re-written; see 'notation-tools games').")
@click.option("--notation", "-n", metavar="NOTATION", type=click.Choice(_notations()),
              help="With --to json/jsonl/pgn: also re-write the moves in this notation.")
@game_option()
@rules_option
@output_option
def convert(paths: tuple[str, ...], target: str, notation: str | None, game: str | None,
            rules: str | None, output: str) -> None:
    """Rewrite records in another container (PGN, JSON, JSON Lines) or move notation.

    Tags, comments, NAGs and variations survive every conversion, so converting back gives
    the same record. Re-writing moves replays the record; an invalid record is written as it
    stands (moves after the first illegal one unchanged), its diagnostics go to standard
    error, and the exit status is 1. --game and --rules are written into the Variant and
    Rules tags.
    """
    require_paths(paths)
    check_rules(game, rules)
    container = target if target in CONTAINERS else "pgn"
    if target not in CONTAINERS:
        notation = target
    invalid = io_errors = 0
    with open_output(output) as out:
        if container == "json":
            out.write("[\n")
        first = True
        for item in iter_records(list(paths), stdin=sys.stdin.buffer):
            if isinstance(item, Diagnostic):
                io_errors += 1
                click.echo(str(item), err=True)
                continue
            _convert(item, game, rules, notation, container)
            for diagnostic in item.diagnostics:
                click.echo(str(diagnostic), err=True)
            invalid += any(d.is_error for d in item.diagnostics)
            if container == "pgn":
                out.write(write_record(item))
            else:
                line = write_json_record(item)
                if container == "json":
                    out.write(("" if first else ",\n") + line.rstrip("\n"))
                else:
                    out.write(line)
            first = False
        if container == "json":
            out.write("\n]\n")
    if io_errors:
        sys.exit(2)
    if invalid:
        sys.exit(1)
