"""The rules travel with the code: every rules section a game cites resolves to a heading of its
rules reference in docs/rules/, and nothing in the repository points outside it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from notation_tools.games.base import all_games

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "notation_tools"
GAMES = all_games()
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^#{1,6}\s+§(\d+(?:\.\d+)*)[\s.]", re.M)


def package_of(game) -> Path:
    return Path(__import__(game.position_type.__module__, fromlist=["_"]).__file__).parent


def cited_sections(folder: Path) -> dict[str, str]:
    """Every section cited in a string of the package (messages, ``rule=``, option rows and
    docstrings alike) → one place that cites it."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for number in SECTION.findall(node.value):
                    found.setdefault(number.rstrip("."), f"{path.name}:{node.lineno}")
    return found


def headings(text: str) -> set[str]:
    return set(HEADING.findall(text))


def test_heading_pattern():
    text = "# Title\n## §9 Options\n### §9.2 Reading a TSA move\n#### §10.1. Text\n§4.3 in prose\n"
    assert headings(text) == {"9", "9.2", "10.1"}


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_every_cited_section_is_a_heading_of_the_rules_reference(game):
    assert game.rules_doc == f"docs/rules/{game.id}.md"
    doc = ROOT / game.rules_doc
    assert doc.is_file(), f"{game.id}: no rules reference at {game.rules_doc}"
    present = headings(doc.read_text(encoding="utf-8"))
    cited = cited_sections(package_of(game))
    assert cited, f"{game.id} cites no rules section"
    missing = {f"§{number}": where for number, where in cited.items() if number not in present}
    assert not missing, f"{game.rules_doc} lacks headings for {missing}"


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_every_option_cites_a_section_of_the_reference(game):
    present = headings((ROOT / game.rules_doc).read_text(encoding="utf-8"))
    for option in game.options:
        numbers = SECTION.findall(option.spec)
        assert numbers and all(n in present for n in numbers), (option.name, option.spec)


def test_nothing_points_outside_the_repository():
    outside = re.compile(r"shared/specs|\.\./shared|beside this repository")
    offenders = []
    for folder in ("notation_tools", "docs", "man", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".md", ".1", ".txt", ".rst", ".toml"):
                if path == Path(__file__):
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
                offenders += [f"{path.relative_to(ROOT)}" for _ in outside.findall(text)[:1]]
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    offenders += ["README.md" for _ in outside.findall(text)[:1]]
    assert not offenders
