"""Diagnostic codes are data: every code the package can raise is declared, by its game or by
the container (notation_tools.codes.SHARED_CODES), with a severity, a meaning and a section."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from notation_tools.parallel.batch import iter_records
from notation_tools.analysis.replay import replay
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.codes import SHARED_CODES, Code, severity_of
from notation_tools.games.base import all_games, get_game
from tests.example_game.tictactoe import GAME as EXAMPLE

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "notation_tools"
GAMES = (*all_games(), EXAMPLE)
"""The installed games and the template's example game (tests/example_game)."""
CODE = re.compile(r"[EWI]-[A-Z0-9]+(?:-[A-Z0-9]+)*")
SHARED = {code.code for code in SHARED_CODES}


def codes_in(path: Path) -> set[str]:
    """Code-shaped string constants of one module (whole strings only, as raised), leaving
    out the declarations themselves (the first argument of ``Code(...)``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    declarations = {id(node.args[0]) for node in ast.walk(tree)
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Code" and node.args}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and CODE.fullmatch(node.value) and id(node) not in declarations}


def package_of(game) -> Path:
    return Path(__import__(game.position_type.__module__, fromlist=["_"]).__file__).parent


def test_code_type_checks_prefix_against_severity():
    assert Code("W-X", "warning", "a warning").severity == severity_of("W-X")
    with pytest.raises(ValueError):
        Code("E-X", "warning", "wrong prefix")


def test_shared_codes_are_unique():
    codes = [code.code for code in SHARED_CODES]
    assert len(codes) == len(set(codes))


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_every_code_a_game_raises_is_declared(game):
    declared = {code.code for code in game.codes}
    assert not declared & SHARED, "a game redeclares a shared code"
    raised = set().union(*(codes_in(p) for p in package_of(game).rglob("*.py")))
    assert raised - declared - SHARED == set()
    # and nothing is declared that the game never raises
    assert declared - raised == set()
    for code in game.codes:
        assert code.meaning and code.section and code.section.startswith("§"), code


def test_every_code_outside_the_games_is_shared():
    outside = [p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts]
    raised = set().union(*(codes_in(p) for p in outside))
    assert raised - SHARED == set()


def test_codes_met_on_the_samples_are_declared():
    declared = {game.id: {code.code for code in game.codes} for game in GAMES}
    seen, undeclared = 0, []
    for item in iter_records([str(ROOT / "sample_games")]):
        game_codes: set[str] = set()
        diagnostics = [item]
        if not isinstance(item, Diagnostic):
            result = replay(item)
            diagnostics = item.diagnostics
            game_codes = declared[result.game.id] if result.game else set()
        for diagnostic in diagnostics:
            seen += 1
            if diagnostic.code not in SHARED | game_codes:
                undeclared.append(str(diagnostic))
            assert diagnostic.severity == severity_of(diagnostic.code), str(diagnostic)
    assert not undeclared
    assert seen > 50


def test_game_lookup_of_codes():
    maka = get_game("maka")
    assert all(isinstance(code, Code) for code in maka.codes)


def test_the_readme_lists_every_shared_code():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([EWI]-[A-Z0-9-]+)` \|", readme, re.M))
    assert listed == SHARED
