"""Latency of ``players`` and ``crosstable``, and the cost of naming openings (issue #27).

Prints:
  * the time ``players()`` and ``crosstable()`` take on a results database of ``--records``
    generated records between made-up players (``--players`` names; every ``--event-size``
    players also play a round-robin event), wall and processor time, best of ``--repeat``;
  * analyze's replay rate (records/s, in this process, one job) on ``--games`` random games
    of ``--game`` with and without opening names, measured in alternation, and the ratio.

Run:  python benchmarks/bench_players.py [--records 10000] [--players 300] [--game maka]
      [--games 200] [--plies 60] [--repeat 3]
The database and the games are made in benchmarks/out/. Not a test.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

from bench_foundation import OUT, make_archive

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from notation_tools.parallel.batch import Settings, iter_reports  # noqa: E402
from notation_tools.storage.events import event_table  # noqa: E402
from notation_tools.storage.players import players  # noqa: E402
from tests.storage.results_support import report_of  # noqa: E402
from notation_tools.storage.database import ResultsDatabase  # noqa: E402


def make_database(records: int, names: int, event_size: int) -> Path:
    path = OUT / f"players-{records}-{names}.sqlite"
    if path.exists():
        return path
    OUT.mkdir(exist_ok=True)
    rng = random.Random(27)
    people = [f"{rng.choice('BCDFGKLMNPRST')}{rng.choice('aeiou')}{rng.choice('lnrst')}"
              f"{rng.choice('aeiou')} {number}" for number in range(names)]
    strength = {name: rng.gauss(0, 1) for name in people}

    def result(first: str, second: str) -> str:
        edge = strength[first] - strength[second]
        draw = rng.random() < 0.2
        return "1/2-1/2" if draw else ("1-0" if rng.random() < 1 / (1 + 10 ** -edge) else "0-1")

    reports = []
    for group, start in enumerate(range(0, names - event_size + 1, event_size)):
        members = people[start:start + event_size]
        for round_number, (a, b) in enumerate(itertools.combinations(members, 2), 1):
            reports.append(report_of(len(reports) + 1, a, b, result(a, b),
                                     event=f"Event {group + 1}", round=str(round_number),
                                     date=f"2025.{group % 12 + 1:02}.01"))
    while len(reports) < records:
        a, b = rng.sample(people, 2)
        reports.append(report_of(len(reports) + 1, a, b, rng.choice(
            [result(a, b)] * 9 + ["*"]), date=f"20{rng.randint(10, 25)}.01.01"))
    with ResultsDatabase(str(path)) as database:
        for _ in database.store("generated.pgn", None, "generated", None, reports[:records]):
            pass
    return path


def best_of(repeat: int, function):  # type: ignore[no-untyped-def]
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        value = function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return value, min(walls), min(cpus)


def replay_rate(archive: Path, openings: tuple[str, ...] | None) -> tuple[int, float]:
    settings = Settings(collect_stats=True, details=True, openings=openings)
    cpu = time.process_time()
    count = sum(1 for _ in iter_reports([str(archive)], settings, jobs=1))
    return count, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--event-size", type=int, default=10)
    parser.add_argument("--game", default="maka-dai-dai-shogi")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    path = make_database(options.records, options.players, options.event_size)
    rows, wall, cpu = best_of(options.repeat, lambda: players(str(path)))
    print(f"players():    {len(rows)} players of {options.records} records: "
          f"{wall * 1000:8.1f} ms wall, {cpu * 1000:8.1f} ms CPU")
    table, wall, cpu = best_of(options.repeat, lambda: event_table(str(path), "Event 1"))
    print(f"crosstable(): {len(table.rows)} players ({table.kind}): "
          f"{wall * 1000:8.1f} ms wall, {cpu * 1000:8.1f} ms CPU")
    archive, _ = make_archive(options.game, options.games, options.plies)
    rates: dict[str, list[float]] = {"without openings": [], "with openings": []}
    replay_rate(archive, ())  # warm: the catalogue is loaded once per process
    for _ in range(options.repeat):
        for label, openings in (("without openings", None), ("with openings", ())):
            count, seconds = replay_rate(archive, openings)
            rates[label].append(count / seconds)
    best = {label: max(values) for label, values in rates.items()}
    for label, rate in best.items():
        print(f"analyze {label:<17} {rate:9,.1f} records/s CPU ({options.games} "
              f"{options.game} games, up to {options.plies} plies)")
    print(f"ratio with/without: {best['with openings'] / best['without openings']:.3f} "
          "(rate; below 1 is slower)")


if __name__ == "__main__":
    main()
