"""Reading ShogiVar's save files (.svar) against reading the same games as its text scores
(issue #16).

For the two samples that have both (sample_games/maka/maka-cvc-A and -B), prints records/s
and plies/s of reading and replaying the ``.svar`` (which also rebuilds the start by undoing
every ply and replays the moves once more to check the saved board) and of the ``.txt`` text
score, in this process, and the ratio.

Run:  python benchmarks/bench_svar.py [--rounds 30]
Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from notation_tools.parallel.batch import iter_records
from notation_tools.analysis.replay import replay

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games" / "maka"


def rate(paths: list[Path], rounds: int) -> tuple[float, float]:
    """Records/s and plies/s of reading and replaying ``paths``, ``rounds`` times."""
    records = plies = 0
    start = time.perf_counter()
    for _ in range(rounds):
        for item in iter_records([str(p) for p in paths]):
            result = replay(item)
            records += 1
            plies += result.plies
    seconds = time.perf_counter() - start
    return records / seconds, plies / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds
    names = ["maka-cvc-A", "maka-cvc-B"]
    svar = rate([SAMPLES / f"{n}.svar" for n in names], rounds)
    text = rate([SAMPLES / f"{n}.txt" for n in names], rounds)
    print(f".svar save files:  {svar[0]:7.1f} records/s  {svar[1]:9,.0f} plies/s")
    print(f".txt text scores:  {text[0]:7.1f} records/s  {text[1]:9,.0f} plies/s")
    print(f"ratio (svar / txt): {svar[0] / text[0]:.2f}")


if __name__ == "__main__":
    main()
