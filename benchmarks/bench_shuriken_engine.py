"""Shuriken 2D engine throughput: replay validation (placements/s) and perft (nodes/s).

Generates random legal games with a fixed seed through the Game API, formats every move, then
times what ``validate`` does per token: ``parse_move`` + ``push`` (and ``outcome`` at the end).
The issue asks for at least 200,000 placements/s validated on one core. Not a test: it prints.

    python benchmarks/bench_shuriken_engine.py [--games 300] [--seed 2008]
"""

from __future__ import annotations

import argparse
import random
import time

from random_games import random_token_games

from notation_tools.games.shuriken import GAME
from notation_tools.analysis.perft import perft
from notation_tools.analysis.generate import random_move


def generate(count: int, seed: int, rules_text: str | None) -> list[list[str]]:
    # A placement game always ends (spec §8): 400 plies is more than the board holds.
    return random_token_games(GAME, rules_text, count, 400, seed)


def validate(games: list[list[str]], rules_text: str | None) -> float:
    rules = GAME.parse_rules(rules_text)
    start = time.perf_counter()
    for tokens in games:
        position = GAME.start_position(rules)
        parse_move, push = GAME.parse_move, position.push
        for token in tokens:
            push(parse_move(token, position))
        if position.outcome() is None:
            raise AssertionError("a generated game did not end")
    return time.perf_counter() - start


def validate_with_stats(games: list[list[str]]) -> float:
    rules = GAME.parse_rules(None)
    start = time.perf_counter()
    for tokens in games:
        position = GAME.start_position(rules)
        stats = GAME.new_stats(rules)
        for token in tokens:
            move = GAME.parse_move(token, position)
            before = position.copy()
            position.push(move)
            stats.add(before, move, position)
        stats.summary(position, position.outcome())
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2008)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    for rules_text in (None, "swap=yes"):
        games = generate(args.games, args.seed, rules_text)
        plies = sum(len(tokens) for tokens in games)
        best = min(validate(games, rules_text) for _ in range(args.repeat))
        label = rules_text or "standard"
        print(f"validate [{label}]: {len(games)} games, {plies} placements, "
              f"{plies / len(games):.1f} plies/game")
        print(f"  {plies / best:,.0f} placements/s   {len(games) / best:,.0f} records/s   "
              f"(best of {args.repeat}, one core)")
    games = generate(min(args.games, 60), args.seed, None)
    plies = sum(len(tokens) for tokens in games)
    elapsed = validate_with_stats(games)
    print(f"validate + statistics (copy per ply, as replay does): {plies / elapsed:,.0f} plies/s")

    position = GAME.start_position(GAME.parse_rules(None))
    start = time.perf_counter()
    nodes = perft(position, 2)
    elapsed = time.perf_counter() - start
    print(f"perft(2) from the start = {nodes} in {elapsed:.2f} s: {nodes / elapsed:,.0f} nodes/s")
    rng = random.Random(args.seed)
    for _ in range(150):
        position.push(random_move(GAME, position, rng))
    start = time.perf_counter()
    nodes = perft(position, 2)
    elapsed = time.perf_counter() - start
    print(f"perft(2) after 150 random plies = {nodes} in {elapsed:.2f} s: "
          f"{nodes / elapsed:,.0f} nodes/s")
    # Depth 3 where wins can occur inside the tree (leaves are counted, not pushed).
    while position.ply < 230 and position.outcome() is None:
        position.push(random_move(GAME, position, rng))
    start = time.perf_counter()
    nodes = perft(position, 3)
    elapsed = time.perf_counter() - start
    print(f"perft(3) after {position.ply} random plies = {nodes} in {elapsed:.2f} s: "
          f"{nodes / elapsed:,.0f} nodes/s")


if __name__ == "__main__":
    main()
