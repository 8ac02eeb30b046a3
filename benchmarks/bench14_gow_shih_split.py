"""Where validation time goes for one file, in one process: reading the records (container,
no game), replaying them (engine plus replay driver), replaying them with statistics, and the
engine's part of the replay (``resolve_move`` + ``push`` of every main-line move, with no
driver around it).

Prints CPU seconds (best of --repeat) and plies/s for each part, so that the engine's share
of a ``validate`` run can be told from the common code's (issue #14).

Run: python benchmarks/bench14_gow_shih_split.py FILE [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from notation_tools.analysis.replay import replay
from notation_tools.games.base import get_game
from notation_tools.records.pgn import read_records


def _best(repeat: int, work) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.process_time()
        result = work()
        best = min(best, time.process_time() - started)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    lines = args.file.read_text().splitlines(keepends=True)

    read_time, records = _best(args.repeat, lambda: list(read_records(lines, str(args.file))))

    def replay_all() -> int:
        return sum(replay(record).plies for record in read_records(lines, str(args.file)))

    replay_time, plies = _best(args.repeat, replay_all)

    def replay_with_stats() -> int:
        return sum(replay(record, collect_stats=True).plies
                   for record in read_records(lines, str(args.file)))

    stats_time, _ = _best(args.repeat, replay_with_stats)

    def engine_only() -> None:
        for record in records:
            game = get_game(record.find_tag("Variant").value)
            rules = game.parse_rules(record.find_tag("Rules").value)
            position = game.start_position(rules)
            for node in record.moves:
                position.push(game.resolve_move(node.text, position).move)

    engine_time, _ = _best(args.repeat, engine_only)
    for name, seconds in (("read records", read_time), ("read + replay", replay_time),
                          ("... + stats", stats_time), ("engine alone", engine_time)):
        print(f"{name:14} {seconds:7.2f} s cpu {plies / seconds:10,.0f} plies/s")
    print(f"{plies} plies; the engine is {engine_time / replay_time:.0%} of read + replay; "
          f"statistics cost {stats_time / replay_time:.2f}x read + replay")


if __name__ == "__main__":
    main()
