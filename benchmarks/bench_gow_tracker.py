"""Game of War's key tracker alone: the compiled one (``_keys.c``) against its Python reference.

Plays random legal games with a fixed seed, keeps every turn's position (its board, arsenals,
side and retreat, as the tracker reads them) and the turn played, then steps each tracker over
them as a replay that indexes positions does (``step(position, turn)``), in alternation, and
prints the least CPU time of ``--repeat`` runs per turn. The keys and material answers of the
two are compared first.

Run: python benchmarks/bench_gow_tracker.py [--games N] [--turns N] [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import time
from types import SimpleNamespace

from notation_tools.analysis.generate import random_playout
from notation_tools.games.gow import GAME
from notation_tools.games.gow.keys import KEYS, GowTracker


def positions(games: int, turns: int, seed: int) -> list[list[tuple[SimpleNamespace, object]]]:
    """Per game, each position (its rows, copied) and the turn that led to it."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        position = GAME.start_position(GAME.parse_rules(None))
        line: list[tuple[SimpleNamespace, object]] = []
        previous: object = None
        # Each position is kept when the next move is about to be played in it, the last
        # after the play-out.
        for move in random_playout(GAME, position, rng, turns):
            line.append((_rows(position), previous))
            previous = move
        line.append((_rows(position), previous))
        out.append(line)
    return out


def _rows(position: object) -> SimpleNamespace:
    """The rows the tracker reads of ``position``, copied."""
    return SimpleNamespace(board=bytearray(position.board), alive=list(position.alive),
                           turn=position.turn, retreat=position.retreat)


def run(make, games) -> tuple[float, list[tuple[int, bool]]]:
    answers = []
    started = time.process_time()
    for line in games:
        tracker = make(line[0][0])
        tracker.before(line[0][0])
        for position, move in line[1:]:
            answers.append((tracker.step(position, move), tracker.material_same))
    return time.process_time() - started, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    games = positions(args.games, args.turns, args.seed)
    steps = sum(len(line) - 1 for line in games)
    trackers = {"python": lambda position: GowTracker(KEYS, position),
                "library": KEYS.tracker}
    print(f"{steps} turns of {len(games)} games; the library's tracker: "
          f"{type(KEYS.tracker(games[0][0][0])).__module__}")
    best = dict.fromkeys(trackers, float("inf"))
    answers = {}
    for _ in range(args.repeat):
        for name, make in trackers.items():
            spent, answers[name] = run(make, games)
            best[name] = min(best[name], spent)
    if answers["python"] != answers["library"]:
        raise SystemExit("the trackers' keys or material answers differ")
    for name, spent in best.items():
        print(f"{name:8} {spent / steps * 1e6:6.2f} µs a turn (least of {args.repeat})")


if __name__ == "__main__":
    main()
