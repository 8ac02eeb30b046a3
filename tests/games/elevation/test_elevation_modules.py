"""Elevation package hygiene: doctests run, engines import no toolkit layer above them (G5, G12)."""

from __future__ import annotations

import ast
import doctest
import importlib
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[3] / "notation_tools" / "games" / "elevation"
MODULES = sorted(path.stem for path in PACKAGE.glob("*.py"))
FORBIDDEN = ("click", "notation_tools.records", "notation_tools.sources", "notation_tools.cli",
             "notation_tools.analysis")


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    """G12: every ``>>>`` example in the package passes."""
    module = importlib.import_module(f"notation_tools.games.elevation.{name}" if name != "__init__"
                                     else "notation_tools.games.elevation")
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


@pytest.mark.parametrize("name", MODULES)
def test_engine_imports_stay_below_the_toolkit(name):
    """G5: games/elevation never imports click, records, sources, cli or analysis, never opens
    files and never prints."""
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("open", "print", "input"), f"{name}: calls {node.func.id}"
            continue
        else:
            continue
        for imported in names:
            assert not imported.startswith(FORBIDDEN), f"{name} imports {imported}"


def test_registry_finds_the_game():
    from notation_tools.games.base import get_game
    assert get_game("elevation").name == "Elevation"
