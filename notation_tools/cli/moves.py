"""``notation-tools moves`` and ``perft``: legal moves of a position, move-generation counts."""

from __future__ import annotations

import time

import click

from notation_tools.cli.options import (
    check_overrides,
    game_option,
    open_output,
    output_option,
    resolve_game,
    rules_option,
    table_format_option,
)
from notation_tools.analysis.perft import divide as divide_perft
from notation_tools.analysis.perft import perft as count_perft
from notation_tools.games.base import EngineError, Game, Position
from notation_tools.render.tables import TABLE_WRITERS, Table


MOST_MOVES = 100_000
"""The default of ``moves --max``: more rows than anyone reads, far fewer than fill memory."""


def _fen_option(func):  # type: ignore[no-untyped-def]
    return click.option("--fen", "fen", metavar="POSITION",
                        help="Start from this position string (default: the game's start).")(func)


def _position(game: Game, rules: str | None, fen: str | None) -> Position:
    try:
        return game.start_position(game.parse_rules(rules), fen=fen)
    except EngineError as error:
        option = "--rules" if error.code == "E-BAD-RULES" else "--fen"
        raise click.BadParameter(error.message, param_hint=f"'{option}'") from None


@click.command()
@game_option(required=True)
@rules_option
@_fen_option
@click.option("--notation", "-n", metavar="NOTATION", help="Notation of the listed moves.")
@click.option("--max", "most", type=click.IntRange(min=0), default=MOST_MOVES,
              show_default=True,
              help="List at most this many moves: a position with more is refused before any "
                   "is made, with its count (0: no limit; the moves are held in memory).")
@table_format_option
@output_option
def moves(game: str, rules: str | None, fen: str | None, notation: str | None, most: int,
          output_format: str, output: str) -> None:
    """List the legal moves of a position, one per row, with the game's facts about each.

    The moves are counted first (as perft counts them, without making them): a position with
    more than --max legal moves is a usage error that gives the count, since listing millions
    of moves (a position of a game whose turn is two moves can have twenty million) would
    take minutes and gigabytes.
    """
    check_overrides(game, rules, notation=notation)
    chosen = resolve_game(game)
    position = _position(chosen, rules, fen)
    if most:
        count = position.count_legal_moves()
        if count > most:
            raise click.BadParameter(
                f"the position has {count:,} legal moves, more than --max {most:,}: give a "
                "larger --max (0: no limit) to list them all, or count them with 'perft "
                "--depth 1'", param_hint="'--max'")
    rows = []
    for move in position.legal_moves():
        rows.append({"move": chosen.format_move(move, position, notation),
                     **chosen.describe_move(move, position)})
    headers: dict[str, None] = {}
    for row in rows:
        headers.update(dict.fromkeys(row))
    names = list(headers) or ["move"]
    side = chosen.sides[position.turn]
    table = Table(f"{len(rows)} legal moves for {side}", names,
                  [[row.get(name) for name in names] for row in rows])
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write([table], out)


@click.command()
@game_option(required=True)
@rules_option
@_fen_option
@click.option("--depth", "-d", type=click.IntRange(min=1), default=2, show_default=True,
              help="Count move sequences up to this many plies.")
@click.option("--divide", is_flag=True, help="Also print the count below each first move.")
def perft(game: str, rules: str | None, fen: str | None, depth: int, divide: bool) -> None:
    """Count the legal move sequences of 1..DEPTH plies from a position, with nodes/s."""
    check_overrides(game, rules)
    chosen = resolve_game(game)
    position = _position(chosen, rules, fen)
    with open_output("-") as out:
        if divide:
            for move, count in divide_perft(position, depth):
                out.write(f"{chosen.format_move(move, position)}: {count}\n")
        for level in range(1, depth + 1):
            start = time.perf_counter()
            nodes = count_perft(position, level)
            seconds = time.perf_counter() - start
            rate = nodes / seconds if seconds > 0 else float("inf")
            out.write(f"perft({level}) = {nodes}  ({seconds:.3f} s, {rate:,.0f} nodes/s)\n")
            out.flush()  # each depth as soon as it is counted
