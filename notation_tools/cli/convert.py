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


def _file_formats() -> list[str]:
    names: dict[str, None] = {}
    for game in every_game():
        names.update(dict.fromkeys(fmt.name for fmt in game.file_formats))
    return list(names)


class _MainLine(ReplayVisitor):
    """Collects the main line's moves, stopping after ``ply`` plies when given."""

    def __init__(self, ply: int | None) -> None:
        self.ply = ply
        self.moves: list[Any] = []

    def visit_move(self, node: Move, move: Any, before: Any, ply: int, in_variation: bool) -> None:
        if not in_variation:
            self.moves.append(move)

    def stop_after(self, ply: int) -> bool:
        return self.ply is not None and ply >= self.ply


def _write_foreign(record: Record, game: str | None, rules: str | None, name: str,
                   ply: int | None) -> str | None:
    """The record in a game's own file format, or None (with a diagnostic) when it cannot be."""
    line = _MainLine(ply)
    result = replay(record, game_name=game, rules_text=rules, visitor=line, keep_start=True)
    if result.game is None or result.position is None:
        return None
    fmt = next((f for f in result.game.file_formats if f.name == name), None)
    if fmt is None:
        record.diagnostics.append(Diagnostic(
            "E-BAD-NOTATION", f"{result.game.id} has no file format {name!r}", record.path,
            record.line, 1, record=record.index))
        return None
    tags = {tag.name: tag.value for tag in record.tags}
    return fmt.write(result.start, line.moves, tags, result.position)


class _Rewrite(ReplayVisitor):
    """Re-writes every move it sees (main line and variations) in place."""

    def __init__(self, record: Record, game: Game, notation: str | None, with_data: bool,
                 annotate: bool) -> None:
        self.record, self.game, self.notation, self.with_data = record, game, notation, with_data
        self.annotate = annotate

    def visit_move(self, node: Move, move: Any, before: Any, ply: int, in_variation: bool) -> None:
        if self.annotate:
            move = self.game.annotate_move(move, before)
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
             container: str, annotate: bool = False) -> None:
    """Rewrite ``record`` in place for the container and notation asked for."""
    if game is not None:
        record.set_tag("Variant", game)
    needs_replay = notation is not None or container != "pgn" or annotate
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
    if notation is None and not with_data and not annotate:
        return
    if annotate and notation is None:
        notation = probe.game.notations[0]
    record.diagnostics.clear()
    replay(record, game_name=game, rules_text=rules,
           visitor=_Rewrite(record, probe.game, notation, with_data, annotate))


@click.command()
@paths_argument
@click.option("--to", "-t", "target", required=True, metavar="FORMAT",
              type=click.Choice([*CONTAINERS, *_notations(), *_file_formats()]),
              help="pgn, json or jsonl (the container; move texts kept), a move notation "
                   "(PGN with every move re-written), or a game's own file format (see "
                   "'notation-tools games').")
@click.option("--notation", "-n", metavar="NOTATION", type=click.Choice(_notations()),
              help="With --to json/jsonl/pgn: also re-write the moves in this notation.")
@click.option("--ply", "-p", type=click.IntRange(min=0), default=None,
              help="For a format that holds one position: the position after this many plies "
                   "(default: the end).")
@click.option("--annotate-outcomes", "annotate", is_flag=True,
              help="Write the claims a notation may carry as the rules compute them (e.g. "
                   "every attack's outcome mark), where the game has such claims.")
@game_option()
@rules_option
@output_option
def convert(paths: tuple[str, ...], target: str, notation: str | None, ply: int | None,
            annotate: bool, game: str | None, rules: str | None, output: str) -> None:
    """Rewrite records in another container (PGN, JSON, JSON Lines) or move notation.

    Tags, comments, NAGs and variations survive every conversion, so converting back gives
    the same record. Re-writing moves replays the record; an invalid record is written as it
    stands (moves after the first illegal one unchanged), its diagnostics go to standard
    error, and the exit status is 1. --game and --rules are written into the Variant and
    Rules tags. A game's own file format (e.g. a position string other programs read) is
    written from the replayed record; files in such formats are also read as input.
    """
    require_paths(paths)
    check_rules(game, rules)
    foreign = target in _file_formats() and target not in _notations()
    container = target if target in CONTAINERS else "pgn"
    if target not in CONTAINERS and not foreign:
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
            written = (_write_foreign(item, game, rules, target, ply) if foreign
                       else _convert(item, game, rules, notation, container, annotate))
            for diagnostic in item.diagnostics:
                click.echo(str(diagnostic), err=True)
            invalid += any(d.is_error for d in item.diagnostics)
            if foreign:
                if written is not None:
                    out.write(written)
            elif container == "pgn":
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
