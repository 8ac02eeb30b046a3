"""Game of War engine throughput: replay validation of generated games, and perft.

Generates random legal games with a fixed seed through the Game API (``random_move``), formats
every turn, then measures replay validation (``parse_move`` + ``push`` of every token, from the
start position) on one core. Reports turns/s (plies: one turn token each), actions/s (unit moves
plus attacks, the figure the issue asks for) and perft nodes/s (spec §17 action tree).

Run: python benchmarks/bench_gow_engine.py [--games N] [--turns N] [--rules TEXT]
"""

from __future__ import annotations

import argparse
import time

from random_games import random_token_games

from notation_tools.games.gow import GAME
from notation_tools.analysis.perft import perft


def generate(games: int, turns: int, rules_text: str | None, seed: int) -> list[list[str]]:
    return random_token_games(GAME, rules_text, games, turns, seed)


def replay(records: list[list[str]], rules_text: str | None) -> tuple[int, int, int, float]:
    rules = GAME.parse_rules(rules_text)
    turns = actions = attacks = 0
    started = time.perf_counter()
    for tokens in records:
        position = GAME.start_position(rules)
        for token in tokens:
            move = GAME.parse_move(token, position)
            position.push(move)
            turns += 1
            actions += len(move.steps) + (move.attack is not None)
            attacks += move.attack is not None
        position.outcome()
    return turns, actions, attacks, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--rules", default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--perft-depth", type=int, default=2)
    args = parser.parse_args()

    started = time.perf_counter()
    records = generate(args.games, args.turns, args.rules, args.seed)
    generated = time.perf_counter() - started
    total_turns = sum(map(len, records))
    print(f"generated {len(records)} games, {total_turns} turns in {generated:.2f} s "
          f"({total_turns / generated:,.0f} turns/s)")

    best = None
    for _ in range(3):
        result = replay(records, args.rules)
        if best is None or result[3] < best[3]:
            best = result
    assert best is not None
    turns, actions, attacks, seconds = best
    print(f"replay validation: {turns} turns, {actions} actions ({attacks} attacks) in {seconds:.3f} s")
    print(f"  {turns / seconds:,.0f} turns/s (plies/s)")
    print(f"  {actions / seconds:,.0f} actions/s (moves + attacks)")

    position = GAME.start_position(GAME.parse_rules(args.rules))
    started = time.perf_counter()
    nodes = perft(position, args.perft_depth)
    seconds = time.perf_counter() - started
    print(f"perft({args.perft_depth}) from the book opening: {nodes} nodes in {seconds:.3f} s "
          f"({nodes / seconds:,.0f} nodes/s)")


if __name__ == "__main__":
    main()
