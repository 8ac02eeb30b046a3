"""Write docs/images/viewer-<game>.png: the HTML replay viewer of a sample record of each game,
in headless Chromium (the browser the tests use), a few moves in, with a display option on
where the game has one.

Run from the checkout, with the test extra installed and Debian's Chromium
(``apt-get install -y chromium``):

    python docs/make_screenshots.py [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from notation_tools.pages.viewer import viewer_page
from notation_tools.records.pgn import read_records

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"
SHOTS = {
    # game: (sample record, plies to step forward, display options to switch on)
    "elevation": (SAMPLES / "container" / "hand-annotated-variations.pgn", 3, ()),
    "gow": (SAMPLES / "game-of-war" / "charge-column.pgn", 3, ("north-lines",)),
    "maka": (SAMPLES / "maka" / "tsa-sample-record.pgn", 7, ()),
    "shih": (SAMPLES / "shih" / "shih-opening-wall-notation.pgn", 6, ("regions",)),
    "shuriken": (SAMPLES / "shuriken-2d" / "ladder-black-two-single-loops.pgn", 69, ("loops",)),
}
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    options = parser.parse_args()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as work:
        browser = playwright.chromium.launch(executable_path=options.chromium,
                                             args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for game, (path, plies, marks) in SHOTS.items():
            with open(path, encoding="utf-8") as stream:
                record = next(read_records(stream, str(path.relative_to(ROOT))))
            html = Path(work) / f"{game}.html"
            html.write_text(viewer_page(record), encoding="utf-8")
            page.goto(html.as_uri())
            for _ in range(plies):
                page.keyboard.press("ArrowRight")
            for name in marks:
                page.check(f'#options input[name="{name}"]')
            target = out / f"viewer-{game}.png"
            page.screenshot(path=str(target), full_page=True)
            print(target)
        browser.close()


if __name__ == "__main__":
    main()
