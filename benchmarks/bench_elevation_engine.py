"""Elevation engine throughput: replay validation (plies/s) and perft (nodes/s).

Generates random legal games with a fixed seed through the Game API, formats every turn, then
times what ``validate`` does per ply: ``parse_move`` + ``push`` + ``outcome``. The first replay
runs with an empty token cache (every token text new to the parser), the second with the cache
warm (as in an archive whose openings repeat). Then times perft from the default start.

Run: ``python benchmarks/bench_elevation_engine.py [--games N] [--plies N] [--seed N]``.
Not a test: it prints numbers and asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import time

from random_games import random_token_games

from notation_tools.games.elevation import GAME
from notation_tools.games.elevation.notation import parse_pattern
from notation_tools.analysis.perft import perft


def generate(rules_text: str | None, games: int, plies: int, seed: int) -> list[list[str]]:
    return random_token_games(GAME, rules_text, games, plies, seed)


def replay(rules_text: str | None, records: list[list[str]]) -> tuple[int, float]:
    rules = GAME.parse_rules(rules_text)
    plies = 0
    started = time.perf_counter()
    for tokens in records:
        pos = GAME.start_position(rules)
        for token in tokens:
            pos.push(GAME.parse_move(token, pos))
            pos.outcome()
            plies += 1
    return plies, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--seed", type=int, default=2013)
    parser.add_argument("--depth", type=int, default=2, help="deepest perft (3 takes minutes)")
    args = parser.parse_args()

    for rules_text in (None, "two-pieces-per-turn"):
        label = rules_text or "standard"
        games = args.games if rules_text is None else max(1, args.games // 4)
        started = time.perf_counter()
        records = generate(rules_text, games, args.plies, args.seed)
        generated = sum(map(len, records))
        print(f"[{label}] generated {len(records)} games, {generated} plies "
              f"in {time.perf_counter() - started:.2f} s")
        parse_pattern.cache_clear()
        plies, seconds = replay(rules_text, records)
        print(f"[{label}] replay validation, cold token cache: {plies / seconds:,.0f} plies/s")
        plies, seconds = replay(rules_text, records)
        print(f"[{label}] replay validation, warm token cache: {plies / seconds:,.0f} plies/s")

    pos = GAME.start_position(GAME.parse_rules(None))
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        nodes = perft(pos, depth)
        seconds = time.perf_counter() - started
        print(f"perft({depth}) = {nodes:,} in {seconds:.3f} s: {nodes / seconds:,.0f} nodes/s")
    started = time.perf_counter()
    built = 0
    for _ in range(50):
        built += len(list(pos.generate_legal_moves()))
    seconds = time.perf_counter() - started
    print(f"legal_moves() building Move objects: {built / seconds:,.0f} moves/s")


if __name__ == "__main__":
    main()
