"""Imports flow one way (STYLE G5): engines never reach files, the CLI or the container."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "notation_tools"
FORBIDDEN_IN_GAMES = ("click", "notation_tools.records", "notation_tools.sources",
                      "notation_tools.cli", "notation_tools.analysis", "tabulate")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_games_import_no_io_layer():
    offenders = []
    for path in (PACKAGE / "games").rglob("*.py"):
        for name in imported_modules(path):
            if name.startswith(FORBIDDEN_IN_GAMES):
                offenders.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert not offenders


def test_engines_never_open_files_or_print():
    offenders = []
    for path in (PACKAGE / "games").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("open", "print", "input"):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.func.id}()")
    assert not offenders


def test_container_and_sources_know_no_game():
    for folder in ("records", "sources"):
        for path in (PACKAGE / folder).rglob("*.py"):
            assert not any(name.startswith("notation_tools.games")
                           for name in imported_modules(path)), path


def test_cli_holds_no_game_names():
    names = ["elevation", "maka", "shogi", "kriegspiel", "shih", "shuriken", "game-of-war"]
    for path in (PACKAGE / "cli").rglob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        assert not [n for n in names if n in text], path
