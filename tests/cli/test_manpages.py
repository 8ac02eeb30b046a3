"""Man pages are generated from the Click commands and must be current (STYLE G12)."""

from __future__ import annotations

from pathlib import Path

from notation_tools.cli import main
from tools.manpages import render_man_pages

ROOT = Path(__file__).resolve().parents[2]
MAN = ROOT / "man"


def test_man_pages_are_current():
    pages = render_man_pages(main, ROOT / "docs")
    on_disk = {path.name: path.read_text(encoding="utf-8") for path in MAN.glob("*.[1-9]")}
    stale = sorted(name for name in pages if on_disk.get(name) != pages[name])
    extra = sorted(set(on_disk) - set(pages))
    assert not stale and not extra, (
        f"regenerate with 'python -m tools.manpages man': stale {stale}, "
        f"extra {extra}")


def test_every_subcommand_has_a_page_with_its_options():
    pages = render_man_pages(main, ROOT / "docs")
    for name, command in main.commands.items():
        page = pages[f"notation-tools-{name}.1"]
        assert page.startswith('.TH "NOTATION-TOOLS-')
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("--"):
                    assert opt.replace("-", "\\-") in page, (name, opt)
