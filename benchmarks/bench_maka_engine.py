"""Maka-Dai-Dai Shogi engine throughput: replay-validation plies/s and perft nodes/s.

Generates random legal games with a fixed seed through the Game API, formats them in TSA
(and tsa-full, coord), then times replay (parse_move + push for every token from the start).
Not a test. Usage:

    python benchmarks/bench_maka_engine.py [--games 20] [--plies 200] [--profile tsa]
"""

from __future__ import annotations

import argparse
import random
import time

from notation_tools.games.maka import GAME
from notation_tools.games.maka import notation as _notation
from notation_tools.analysis.perft import perft
from notation_tools.analysis.generate import random_move


def generate(rules, games: int, plies: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    records = []
    for _ in range(games):
        pos = GAME.start_position(rules)
        tokens = {n: [] for n in GAME.notations}
        for _ in range(plies):
            move = random_move(GAME, pos, rng)
            if move is None:
                break
            for n in tokens:
                tokens[n].append(GAME.format_move(move, pos, n))
            pos.push(move)
        records.append(tokens)
    return records


def replay(rules, records, notation: str) -> tuple[int, float]:
    plies = 0
    start = time.perf_counter()
    for record in records:
        pos = GAME.start_position(rules)
        for token in record[notation]:
            pos.push(GAME.parse_move(token, pos))
            plies += 1
    return plies, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plies", type=int, default=200)
    parser.add_argument("--profile", default="tsa")
    parser.add_argument("--seed", type=int, default=20260101)
    parser.add_argument("--perft", type=int, default=3)
    args = parser.parse_args()
    rules = GAME.parse_rules(args.profile)
    t0 = time.perf_counter()
    records = generate(rules, args.games, args.plies, args.seed)
    gen_time = time.perf_counter() - t0
    total = sum(len(r["tsa"]) for r in records)
    print(f"profile {args.profile}: generated {args.games} random games, {total} plies, "
          f"in {gen_time:.2f}s ({total / gen_time:.0f} plies/s incl. formatting 3 notations)")
    for notation in GAME.notations:
        _notation._parse_cached.cache_clear()
        plies, cold = replay(rules, records, notation)
        # best of three with the token cache warm, as when an archive repeats its tokens
        warm = min(replay(rules, records, notation)[1] for _ in range(3))
        print(f"replay-validation {notation:8s}: {plies} plies; cold token cache "
              f"{plies / cold:,.0f} plies/s, warm {plies / warm:,.0f} plies/s")
    pos = GAME.start_position(rules)
    for depth in range(1, args.perft + 1):
        seconds = float("inf")
        for _ in range(2 if depth < 3 else 1):
            start = time.perf_counter()
            nodes = perft(pos, depth)
            seconds = min(seconds, time.perf_counter() - start)
        print(f"perft({depth}) = {nodes} in {seconds:.2f}s = {nodes / max(seconds, 1e-9):,.0f} nodes/s")


if __name__ == "__main__":
    main()
