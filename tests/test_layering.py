"""Imports flow one way (STYLE G5): engines never reach files, the CLI or the container."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "notation_tools"
FORBIDDEN_IN_GAMES = ("click", "notation_tools.records", "notation_tools.sources",
                      "notation_tools.cli", "notation_tools.analysis", "tabulate",
                      "notation_tools.parallel", "notation_tools.storage", "notation_tools.pages",
                      "notation_tools.render.tables")


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


NEVER_IMPORTS = {
    "records": ("analysis", "parallel", "storage", "pages", "cli", "editor"),
    "sources": ("analysis", "parallel", "storage", "pages", "cli", "editor"),
    "analysis": ("storage", "pages", "cli", "editor"),
    "parallel": ("pages", "cli", "editor"),
    "storage": ("pages", "cli", "editor"),
    "pages": ("storage", "cli", "editor"),
    "editor": ("parallel", "storage", "pages", "cli"),
}
"""For each package below the CLI, the packages it never imports (docs/development.md, "Layers"):
the container and the readers know no replay, runner, storage or page; replay knows no storage
or page; the runner, storage and pages never reach the CLI; pages are drawn from results, not
stored ones. The editor (the language server, issue #28) reads and replays records as replay
does, and no layer below the CLI reaches it."""


@pytest.mark.parametrize("package", sorted(NEVER_IMPORTS))
def test_each_package_imports_only_the_layers_below_it(package):
    forbidden = tuple(f"notation_tools.{name}" for name in NEVER_IMPORTS[package])
    offenders = []
    for path in (PACKAGE / package).rglob("*.py"):
        offenders += [f"{path.relative_to(PACKAGE)} imports {name}"
                      for name in sorted(imported_modules(path))
                      if name in forbidden or name.startswith(tuple(f + "." for f in forbidden))]
    assert not offenders


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(
        ".__init__")


def ancestor_imports(path: Path) -> list[str]:
    """What ``path`` takes from the ``__init__`` of a package it lies in: ``import PACKAGE``,
    or ``from PACKAGE import NAME`` where NAME is no submodule of PACKAGE (importing a sibling
    module as ``from PACKAGE import module`` is an import of that module)."""
    name = module_name(path)
    ancestors = {name.rsplit(".", depth)[0] for depth in range(1, name.count(".") + 1)}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name in ancestors]
        elif isinstance(node, ast.ImportFrom) and node.module in ancestors:
            folder = PACKAGE.parent.joinpath(*node.module.split("."))
            found += [f"{node.module}.{alias.name}" for alias in node.names
                      if not (folder / f"{alias.name}.py").exists()
                      and not (folder / alias.name / "__init__.py").exists()]
    return found


def test_no_module_imports_an_ancestor_package_init():
    """No module reaches back up into the ``__init__`` of a package it lies in (a package's
    own ``__init__`` re-exporting its submodules is no such edge); only the CLI and
    ``__main__`` may import the package root, ``notation_tools``, whose face they are."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        allowed: set[str] = set()
        if name.startswith(("notation_tools.cli", "notation_tools.__main__")):
            allowed.add("notation_tools")
        offenders += [f"{name} imports {target}" for target in ancestor_imports(path)
                      if target.rpartition(".")[0] not in allowed and target not in allowed]
    assert not offenders


def test_cli_holds_no_game_names():
    names = ["elevation", "maka", "shogi", "kriegspiel", "shih", "shuriken", "game-of-war"]
    for path in (PACKAGE / "cli").rglob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        assert not [n for n in names if n in text], path


# ---- one package template for every game (docs/development.md) -------------------------------

from notation_tools.games.base import all_games  # noqa: E402
from tests.example_game.tictactoe import GAME as EXAMPLE  # noqa: E402

TEMPLATE = ("__init__", "pieces", "options", "moves", "rules", "notation", "position", "render",
            "stats", "game")
"""The files every game package has, in the order the layers build on each other."""
MAY_IMPORT = {
    "pieces": set(),
    "options": {"pieces"},
    "moves": {"pieces"},
    "rules": {"pieces", "options", "moves"},
    "notation": {"pieces", "options", "moves", "rules"},
    "position": {"pieces", "options", "moves", "rules"},
    "render": {"pieces", "options", "moves", "rules", "notation", "position"},
    "stats": {"pieces", "options", "moves", "rules", "notation"},
    "game": set(TEMPLATE) - {"__init__", "game"},
}
"""For each template module, the template modules it may import (extras are free, but never
``game`` or ``__init__``)."""
EXTRAS = {"sampling", "formats", "explain", "forks", "keys"}
SHARED_FOR_GAMES = ("notation_tools.games.base", "notation_tools.games.runs",
                    "notation_tools.games.file_formats", "notation_tools.codes",
                    "notation_tools.render.svg", "notation_tools.compiled")
GAMES = (*all_games(), EXAMPLE)
"""The installed games and the template's example game (tests/example_game)."""


def game_package(game) -> Path:
    return Path(__import__(game.position_type.__module__, fromlist=["_"]).__file__).parent


def codec_modules(game) -> set[str]:
    return {fmt.name.split("-")[0].replace("-", "_") for fmt in game.file_formats}


def internal_imports(path: Path, package: str) -> set[str]:
    """The modules of ``package`` that ``path`` imports, by their last name."""
    found = set()
    for name in imported_modules(path):
        if name.startswith(package + "."):
            found.add(name[len(package) + 1:].split(".")[0])
        elif name == package:
            found.add("__init__")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):  # "from notation_tools.games.maka import notation"
        if isinstance(node, ast.ImportFrom) and node.module == package:
            found.discard("__init__")
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_every_game_package_has_the_template_files_and_only_documented_extras(game):
    names = {path.stem for path in game_package(game).glob("*.py")}
    assert set(TEMPLATE) <= names, f"missing: {set(TEMPLATE) - names}"
    assert names - set(TEMPLATE) <= EXTRAS | codec_modules(game), names - set(TEMPLATE)


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_every_game_module_imports_only_what_its_layer_may(game):
    folder = game_package(game)
    package = game.position_type.__module__.rpartition(".")[0]
    extras = {path.stem for path in folder.glob("*.py")} - set(TEMPLATE)
    offenders = []
    for path in sorted(folder.glob("*.py")):
        module = path.stem
        imported = internal_imports(path, package)
        allowed = (MAY_IMPORT[module] | extras if module in MAY_IMPORT
                   else set(TEMPLATE) | extras) - {"game", "__init__", module}
        if module == "__init__":
            continue
        offenders += [f"{module} imports {name}" for name in sorted(imported - allowed)]
        for name in imported_modules(path):
            if name.startswith("notation_tools") and not name.startswith(package) \
                    and name != "notation_tools.games" and not name.startswith(SHARED_FOR_GAMES):
                offenders.append(f"{module} imports {name}")
    assert not offenders


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_game_init_only_re_exports(game):
    path = game_package(game) / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for index, node in enumerate(tree.body):
        docstring = index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        exports = isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["__all__"]
        assert docstring or exports or isinstance(node, (ast.Import, ast.ImportFrom)), \
            f"{path.name}:{node.lineno} is not an import"


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_one_import_style_absolute_imports_only(game):
    for path in game_package(game).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            assert not (isinstance(node, ast.ImportFrom) and node.level), \
                f"{path.name}:{node.lineno} uses a relative import"


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_the_same_names_in_every_game(game):
    module = __import__(game.position_type.__module__.rpartition(".")[0], fromlist=["_"])
    for name in ("GAME", "Position", "Options", "Stats", "Move"):
        assert hasattr(module, name), f"{module.__name__} does not export {name}"
    assert module.GAME is game and module.Position.game is game
    position = module.Position
    for gone in ("is_game_over", "game_over"):
        assert not hasattr(position, gone), f"{gone}: the one spelling is is_over()"
    signature = inspect.signature(position.legal_moves)
    assert [p.name for p in signature.parameters.values()][1:] == ["origin", "target"]
    assert all(p.kind is p.KEYWORD_ONLY for p in list(signature.parameters.values())[1:])


def test_no_import_cycles_counting_imports_inside_functions():
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            edges[name] |= {t for t in targets if t in modules and t != name
                            and not name.startswith(t + ".")}
    state: dict[str, int] = {}

    def visit(name: str, stack: list[str]) -> None:
        state[name] = 1
        stack.append(name)
        for other in edges[name]:
            if state.get(other) == 1:
                cycle = stack[stack.index(other):] + [other]
                # a package importing its own submodules is its face, not a cycle
                if not any(a.startswith(b + ".") or b.startswith(a + ".")
                           for a, b in zip(cycle, cycle[1:])):
                    raise AssertionError("import cycle: " + " -> ".join(cycle))
            elif other not in state:
                visit(other, stack)
        stack.pop()
        state[name] = 2

    for name in sorted(modules):
        if name not in state:
            visit(name, [])
