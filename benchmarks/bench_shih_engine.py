"""Shih engine throughput: replay validation (parse_move + push per turn token) and perft.

Generates random legal games from the default start with a fixed seed through the Game API,
formats every turn as its record token, then times validating them again from the tokens,
as ``notation-tools validate`` does for a self-play archive. Prints turns/s (one token = one
turn = one ply in Shih), records/s and perft nodes/s. Not a test.

    python benchmarks/bench_shih_engine.py [games] [max-turns]
"""

from __future__ import annotations

import sys
import time

from random_games import random_token_games

from notation_tools.games.shih import GAME
from notation_tools.analysis.perft import perft


def generate(games: int, max_turns: int, seed: int = 20061) -> list[list[str]]:
    return random_token_games(GAME, "standard", games, max_turns, seed)


def validate(records: list[list[str]]) -> int:
    rules = GAME.parse_rules("standard")
    turns = 0
    for tokens in records:
        position = GAME.start_position(rules)
        for token in tokens:
            position.push(GAME.parse_move(token, position))
            turns += 1
        position.outcome()
    return turns


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    max_turns = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    started = time.perf_counter()
    records = generate(games, max_turns)
    generated = time.perf_counter() - started
    total = sum(len(tokens) for tokens in records)
    print(f"generated {games} random games, {total} turns in {generated:.2f} s "
          f"({total / generated:,.0f} turns/s with full legal-move lists)")
    validate(records)  # warm the token cache as a long archive would
    started = time.perf_counter()
    turns = validate(records)
    elapsed = time.perf_counter() - started
    print(f"validated {turns} turns in {elapsed:.3f} s: {turns / elapsed:,.0f} turns/s "
          f"(= plies/s), {games / elapsed:,.1f} records/s")
    rules = GAME.parse_rules("standard")
    start = GAME.start_position(rules)
    for depth in (1, 2):
        started = time.perf_counter()
        nodes = perft(start, depth)
        elapsed = time.perf_counter() - started
        print(f"perft({depth}) from the default start = {nodes:,} in {elapsed:.2f} s: "
              f"{nodes / elapsed:,.0f} nodes/s")


if __name__ == "__main__":
    main()
