"""Write docs/report-example.png and docs/report-phone.png: the HTML analysis report of
``sample_games/`` (``analyze --html``) in headless Chromium (the browser the tests use), one
game's section on a 1366x768 laptop screen and the same on a 390x844 phone screen.

Run from the checkout, with the test and report extras installed and Debian's Chromium
(``apt-get install -y chromium``):

    python docs/make_report_screenshot.py [--chromium /usr/bin/chromium] [--game elevation]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SCREENS = {"report-example.png": (1366, 768, 1200), "report-phone.png": (390, 844, 1400)}
"""Picture → viewport width and height, and how many px of the section to keep."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--game", default="elevation")
    parser.add_argument("--out", default=str(ROOT / "docs"))
    options = parser.parse_args()
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as work:
        page_file = Path(work) / "report.html"
        subprocess.run([sys.executable, "-m", "notation_tools", "analyze", "-q",
                        "sample_games", "--html", str(page_file)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        browser = playwright.chromium.launch(executable_path=options.chromium,
                                             args=CHROMIUM_ARGS)
        for name, (width, height, keep) in SCREENS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(page_file.as_uri())
            box = page.locator(f"#game-{options.game}").bounding_box()
            assert box is not None
            target = Path(options.out) / name
            page.screenshot(path=str(target), full_page=True,
                            clip={"x": 0, "y": box["y"] - 8, "width": width,
                                  "height": min(keep, box["height"] + 16)})
            page.close()
            print(target)
        browser.close()


if __name__ == "__main__":
    main()
