"""``notation-tools moves`` and ``perft``: legal moves of a position, move-generation counts."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import click

from notation_tools.analysis.moves import TooManyMoves, legal_moves_table, start_position
from notation_tools.analysis.perft import divide as divide_perft
from notation_tools.analysis.perft import timed_perft
from notation_tools.cli.options import (
    game_and_rules,
    game_option,
    open_output,
    output_option,
    rules_option,
    table_format_option,
    usage_errors,
)
from notation_tools.render.tables import TABLE_WRITERS

F = TypeVar("F", bound=Callable[..., Any])

MOST_MOVES = 100_000
"""The default of ``moves --max``: more rows than anyone reads, far fewer than fill memory."""


def _fen_option(func: F) -> F:
    return click.option("--fen", "fen", metavar="POSITION",
                        help="Start from this position string (default: the game's start).")(func)


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
    chosen, parsed_rules = game_and_rules(game, rules, notation=notation)
    with usage_errors():
        position = start_position(chosen, parsed_rules, fen)
    try:
        table = legal_moves_table(chosen, position, notation=notation, most=most)
    except TooManyMoves as error:
        raise click.BadParameter(
            f"the position has {error.count:,} legal moves, more than --max {most:,}: give a "
            "larger --max (0: no limit) to list them all, or count them with 'perft "
            "--depth 1'", param_hint="'--max'") from None
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
    chosen, parsed_rules = game_and_rules(game, rules)
    with usage_errors():
        position = start_position(chosen, parsed_rules, fen)
    with open_output("-") as out:
        if divide:
            for move, count in divide_perft(position, depth):
                out.write(f"{chosen.format_move(move, position)}: {count}\n")
        for level in timed_perft(position, depth):
            out.write(f"perft({level.depth}) = {level.nodes}  ({level.seconds:.3f} s, "
                      f"{level.rate:,.0f} nodes/s)\n")
            out.flush()  # each depth as soon as it is counted
