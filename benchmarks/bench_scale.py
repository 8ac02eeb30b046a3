"""Archives at scale (issue #10): record-level parallelism, the results database's cost,
peak memory as the archive grows, and the Dask path's overhead.

On one ``.tar.xz`` of generated Maka-Dai-Dai Shogi games (``--members`` members of the same
``--games`` games, so 10 x 1000 = 10,000 records by default), whole process as a user runs
it, prints:
  * ``analyze --jobs 1`` and ``--jobs 2``: seconds, records/s, and the speed-up;
  * ``analyze --jobs 2 --db`` (a new database): the cost of the database over no database;
  * ``analyze --scheduler local --jobs 2`` (a Dask LocalCluster of 2 worker processes)
    against ``--jobs 2``;
  * the peak resident memory of the largest process of ``analyze --jobs 2`` on this archive
    and on one ``--scale`` times larger.

Run:  python benchmarks/bench_scale.py [--games 1000] [--members 10] [--plies 100]
      [--scale 10] [--no-large]
Archives are made once (fixed seed) in benchmarks/out/. Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_foundation import make_archive as make_foundation_archive

GAME = "maka-dai-dai-shogi"


def make_archive(games: int, members: int, plies: int) -> Path:
    archive, _ = make_foundation_archive(GAME, games, plies, members, compression="xz")
    return archive


def run(args: list[str]) -> tuple[float, int]:
    """Seconds, and the peak RSS in KiB of the largest process, of one command."""
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "notation_tools",
                           *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr[-2000:]}")
    return seconds, int(done.stderr.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--members", type=int, default=10)
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--no-large", action="store_true", help="skip the larger archive")
    parser.add_argument("--no-dask", action="store_true")
    options = parser.parse_args()
    archive = make_archive(options.games, options.members, options.plies)
    records = options.games * options.members
    print(f"archive: {archive.name}: {records:,} records ({options.members} members of "
          f"{options.games} games, up to {options.plies} plies), "
          f"{archive.stat().st_size / 1e6:.1f} MB; load {os.getloadavg()[0]:.2f}")
    one, rss_one = run(["analyze", "-q", "--jobs", "1", str(archive)])
    two, rss_two = run(["analyze", "-q", "--jobs", "2", str(archive)])
    with tempfile.TemporaryDirectory() as folder:
        db, _ = run(["analyze", "-q", "--jobs", "2", "--db", f"{folder}/r.sqlite",
                     str(archive)])
        again, _ = run(["analyze", "-q", "--jobs", "2", "--db", f"{folder}/r.sqlite",
                        str(archive)])
    print(f"analyze --jobs 1          {one:7.1f} s  {records / one:8,.0f} records/s")
    print(f"analyze --jobs 2          {two:7.1f} s  {records / two:8,.0f} records/s  "
          f"speed-up {one / two:.2f}x")
    print(f"analyze --jobs 2 --db     {db:7.1f} s  {records / db:8,.0f} records/s  "
          f"database cost {100 * (db / two - 1):+.1f} %")
    print(f"  the same again (stored) {again:7.1f} s")
    if not options.no_dask:
        dask, _ = run(["analyze", "-q", "--scheduler", "local", "--jobs", "2", str(archive)])
        print(f"analyze --scheduler local {dask:7.1f} s  {records / dask:8,.0f} records/s  "
              f"{dask / two:.2f}x the time of --jobs 2")
    print(f"peak RSS --jobs 2, {records:,} records: {rss_two / 1024:.1f} MiB "
          f"(--jobs 1: {rss_one / 1024:.1f} MiB)")
    if not options.no_large:
        large = make_archive(options.games, options.members * options.scale, options.plies)
        seconds, rss_large = run(["analyze", "-q", "--jobs", "2", str(large)])
        print(f"peak RSS --jobs 2, {records * options.scale:,} records: "
              f"{rss_large / 1024:.1f} MiB ({seconds:.0f} s; {rss_large / rss_two:.2f}x the "
              "smaller archive's)")


if __name__ == "__main__":
    main()
