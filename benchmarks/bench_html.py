"""The HTML replay viewer (issue #12): the time to write the viewer for an archive, and the size
of one page for a long game.

  * ``html ARCHIVE -o DIR --jobs N`` on one ``.tar.xz`` of generated Maka-Dai-Dai Shogi games
    (``--members`` members of the same ``--games`` games, so 10 x 1000 = 10,000 records by
    default, built as benchmarks/bench_scale.py builds its archives), whole process as a user
    runs it: seconds, records/s, CPU seconds, what was written;
  * the page of one ``--long``-ply generated Maka game (400 by default): its size, the size of
    one drawing of the game, the CPU seconds to build it, and the CPU seconds the game's own
    ``render_svg`` takes for the same drawings, measured in the same run (CPU time, since
    wall time is noisy on a shared machine);
  * with ``--generated GAME`` (issue #29's archive case), ``html FILE -o DIR --jobs N`` on the
    file ``notation-tools generate -g GAME -c COUNT -s 3 --max-plies PLIES`` writes (20 records
    of 80 plies by default, made once): records/s and CPU seconds, as for the archive;
  * with ``--per-game N`` (issue #29), for every game, the page of the record
    ``notation-tools generate -g GAME -c 1 -s 7 --max-plies N`` writes: its size, what its
    data holds (templates, pieces, frames, position strings), the CPU seconds to build it
    (best of ``--repeat``) and the part of those the game's ``render_svg`` takes; and with
    ``--browser``, in headless Chromium (the system's, as the tests launch it), the time from
    opening the page to its first paint and the time the End key takes to show the last ply.

Run:  python benchmarks/bench_html.py [--games 1000] [--members 10] [--plies 100] [--jobs 2]
      [--long 400] [--no-archive] [--per-game 200 [--repeat 3] [--browser]]
      [--generated gow [--count 20] [--max-plies 80]]
Archives are made once (fixed seed) in benchmarks/out/. Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_foundation import make_archive

from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.pages import viewer
from notation_tools.pages.viewer import build_page
from notation_tools.games.base import all_games, get_game
from notation_tools.records.pgn import read_records

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


def generated(game_id: str, plies: int, count: int = 1, seed: int = 7) -> Path:
    """The records ``generate -g GAME -c COUNT -s SEED --max-plies PLIES`` writes, made
    once."""
    name = f"{game_id}-{plies}.pgn" if count == 1 else f"{game_id}-{count}x{plies}-{seed}.pgn"
    path = Path(__file__).resolve().parent / "out" / name
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        subprocess.run([sys.executable, "-m", "notation_tools", "generate", "-g", game_id,
                        "-c", str(count), "-s", str(seed), "--max-plies", str(plies),
                        "-o", str(path)], check=True)
    return path


def timed_page(path: Path, repeat: int) -> tuple[str, float, float]:
    """The page of the record at ``path``, its best build CPU time of ``repeat`` and the
    drawing time of that build."""
    best, drawing = float("inf"), 0.0
    real_draw = viewer._draw
    for _ in range(repeat):
        record = next(read_records(path.read_text(encoding="utf-8").splitlines(),
                                   path=path.name))
        spent = [0.0]

        def draw(*args, **keywords):  # type: ignore[no-untyped-def]
            begin = time.process_time()
            svg = real_draw(*args, **keywords)
            spent[0] += time.process_time() - begin
            return svg

        viewer._draw = draw
        try:
            start = time.process_time()
            page = build_page(record)
            seconds = time.process_time() - start
        finally:
            viewer._draw = real_draw
        if seconds < best:
            best, drawing = seconds, spent[0]
    return page.html, best, drawing


def data_sizes(html: str) -> str:
    found = re.search(r'<script type="application/json" id="viewer-data">(.*?)</script>',
                      html, re.S)
    data = json.loads(found.group(1)) if found else {}
    return ", ".join(f"{name} {len(json.dumps(data[name], separators=(',', ':'))) / 1e3:.0f}"
                     for name in ("templates", "pieces", "piece_texts", "piece_heads", "frames",
                                  "layers", "fens", "labels", "legend")
                     if name in data)


BROWSER_TIMES = """async () => {
  // The first contentful paint, waited for (it may be reported after the load event).
  const paint = await new Promise(done => {
    new PerformanceObserver(list => {
      const entry = list.getEntries().find(e => e.name === "first-contentful-paint");
      if (entry) { done(entry); }
    }).observe({type: "paint", buffered: true});
    setTimeout(() => done(null), 5000);
  });
  const start = performance.now();
  document.getElementById("viewer").dispatchEvent(
      new KeyboardEvent("keydown", {key: "End", bubbles: true}));
  await new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
  return [paint ? paint.startTime : -1, performance.now() - start,
          document.getElementById("status").textContent];
}"""


def browser_times(pages: dict[str, str]) -> None:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("NOTATION_TOOLS_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = playwright.chromium.launch(executable_path=chromium,
                                             args=["--headless", "--no-sandbox",
                                                   "--disable-gpu"])
        for name, html in pages.items():
            path = Path(folder) / f"{name}.html"
            path.write_text(html, encoding="utf-8")
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            paint, end, status = page.evaluate(BROWSER_TIMES)
            print(f"  {name}: first paint {paint:.0f} ms; End (to '{status}') {end:.0f} ms")
            page.close()
        browser.close()


def per_game(plies: int, repeat: int, browser: bool) -> None:
    pages = {}
    for game in all_games():
        html, seconds, drawing = timed_page(generated(game.id, plies), repeat)
        pages[game.id] = html
        size = len(html.encode("utf-8"))
        print(f"{game.id} {plies} plies ({2 ** len(game.render_options)} mark sets): "
              f"{size / 1e3:.0f} kB ({data_sizes(html)} kB); built in {seconds:.2f} CPU s, "
              f"{drawing:.2f} of them in render_svg")
    if browser:
        print("in Chromium at 1366x768:")
        browser_times(pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--members", type=int, default=10)
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--long", type=int, default=400)
    parser.add_argument("--no-archive", action="store_true", help="only the long game's page")
    parser.add_argument("--archive-game", default=GAME)
    parser.add_argument("--per-game", type=int, default=0, metavar="PLIES",
                        help="each game's page of a PLIES-ply generated record")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--browser", action="store_true",
                        help="with --per-game: first paint and End in Chromium")
    parser.add_argument("--generated", metavar="GAME",
                        help="html over COUNT generated records of GAME (issue #29's case)")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--max-plies", type=int, default=80)
    options = parser.parse_args()
    if options.generated:
        write_archive(generated(options.generated, options.max_plies, options.count, seed=3),
                      options.jobs)
    if options.per_game:
        per_game(options.per_game, options.repeat, options.browser)
    elif not options.generated:
        long_page(options.long)
    if not options.no_archive and not options.generated:
        archive, _ = make_archive(options.archive_game, options.games, options.plies, options.members,
                                  compression="xz")
        write_archive(archive, options.jobs)


if __name__ == "__main__":
    main()
