"""The HTML replay viewer (issue #12): the time to write the viewer for an archive, and the size
of one page for a long game.

  * ``html ARCHIVE -o DIR --jobs N`` on one ``.tar.xz`` of generated Maka-Dai-Dai Shogi games
    (``--members`` members of the same ``--games`` games, so 10 x 1000 = 10,000 records by
    default, built as benchmarks/bench_scale.py builds its archives), whole process as a user
    runs it: seconds, records/s, CPU seconds, what was written;
  * the page of one ``--long``-ply generated Maka game (400 by default): its size, the size of
    one drawing of the game, the CPU seconds to build it, and the CPU seconds the game's own
    ``render_svg`` takes for the same drawings, measured in the same run (CPU time, since
    wall time is noisy on a shared machine).

Run:  python benchmarks/bench_html.py [--games 1000] [--members 10] [--plies 100] [--jobs 2]
      [--long 400] [--no-archive]
Archives are made once (fixed seed) in benchmarks/out/. Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_foundation import make_archive

from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.pages.viewer import build_page
from notation_tools.games.base import get_game

GAME = "maka-dai-dai-shogi"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def write_archive(archive: Path, jobs: int) -> None:
    with tempfile.TemporaryDirectory() as out:
        cpu = children_cpu()
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "notation_tools", "html", str(archive),
                               "-o", out, "--jobs", str(jobs), "--quiet"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seconds = time.perf_counter() - start
        cpu = children_cpu() - cpu
        if done.returncode != 0:
            raise SystemExit(f"html failed: {done.stderr[-2000:]}")
        names = os.listdir(out)
        size = sum(os.path.getsize(os.path.join(out, name)) for name in names)
    pages = len(names) - 1  # and index.html
    print(f"html {archive.name} --jobs {jobs}: {pages} pages in {seconds:.1f} s "
          f"({pages / seconds:.1f} records/s, {cpu:.1f} CPU s, {cpu / pages * 1000:.0f} CPU ms "
          f"a record); {size / 1e6:.1f} MB written, {size / pages / 1e3:.0f} kB a page")


class _Drawings(ReplayVisitor):
    """Draws every position of the main line once, as the page does, and nothing else."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.game = None

    def begin(self, game, rules, record):  # type: ignore[no-untyped-def]
        self.game = game

    def visit_move(self, node, move, before, ply, in_variation):  # type: ignore[no-untyped-def]
        after = before.copy()
        after.push(move)
        start = time.process_time()
        self.game.render_svg(after, last_move=move)
        self.seconds += time.process_time() - start


def long_page(plies: int) -> None:
    game = get_game(GAME)
    record = next(generate_records(game, game.parse_rules(None), count=1, seed=2026,
                                   max_plies=plies))
    start = time.process_time()
    page = build_page(record)
    seconds = time.process_time() - start
    drawing = len(game.render_svg(page.replay.position).encode("utf-8"))
    size = len(page.html.encode("utf-8"))
    record = next(generate_records(game, game.parse_rules(None), count=1, seed=2026,
                                   max_plies=plies))
    visitor = _Drawings()
    replay(record, visitor=visitor)
    print(f"one {page.replay.plies}-ply {game.name} page: {size:,} bytes ({size / 1e6:.2f} MB;"
          f" one drawing is {drawing:,} bytes, {size / drawing:.1f} drawings' worth); built in "
          f"{seconds:.1f} CPU s; the game's render_svg alone takes {visitor.seconds:.1f} CPU s "
          f"for those drawings ({visitor.seconds / seconds:.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--members", type=int, default=10)
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--long", type=int, default=400)
    parser.add_argument("--no-archive", action="store_true", help="only the long game's page")
    options = parser.parse_args()
    long_page(options.long)
    if not options.no_archive:
        archive, _ = make_archive(GAME, options.games, options.plies, options.members,
                                  compression="xz")
        write_archive(archive, options.jobs)


if __name__ == "__main__":
    main()
