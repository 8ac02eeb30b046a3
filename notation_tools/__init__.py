"""notation-tools: records of Maka-Dai-Dai Shogi, Game of War, Shih, Shuriken 2D and Elevation.

The Python API (``docs/api.md``): :func:`read`, :func:`read_one` and :func:`write` for
records, :func:`game` for a game's engine. The names are loaded when first used, so that
``import notation_tools`` (and the command line's start) stays cheap.

>>> import notation_tools
>>> notation_tools.game("shih").name
'Shih'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from notation_tools.version import __version__

_LAZY = {
    "read": "notation_tools.api", "read_one": "notation_tools.api",
    "write": "notation_tools.api", "game": "notation_tools.api",
    "GameRecord": "notation_tools.api", "ReplayedGame": "notation_tools.api",
    "ReadError": "notation_tools.api", "NoRecordError": "notation_tools.api",
    "CannotWriteError": "notation_tools.api",
    "Game": "notation_tools.games.base", "Position": "notation_tools.games.base",
    "Outcome": "notation_tools.games.base", "Rules": "notation_tools.games.base",
    "MoveSyntaxError": "notation_tools.games.base",
    "IllegalMoveError": "notation_tools.games.base",
    "AmbiguousMoveError": "notation_tools.games.base",
    "BadPositionError": "notation_tools.games.base",
    "BadRulesError": "notation_tools.games.base",
    "UnknownGameError": "notation_tools.games.base",
    "Diagnostic": "notation_tools.records.diagnostics",
}
__all__ = sorted(_LAZY)

if TYPE_CHECKING:  # what a type checker sees; at run time __getattr__ loads these
    from notation_tools.api import (
        CannotWriteError,
        GameRecord,
        NoRecordError,
        ReadError,
        ReplayedGame,
        game,
        read,
        read_one,
        write,
    )
    from notation_tools.games.base import (
        AmbiguousMoveError,
        BadPositionError,
        BadRulesError,
        Game,
        IllegalMoveError,
        MoveSyntaxError,
        Outcome,
        Position,
        Rules,
        UnknownGameError,
    )
    from notation_tools.records.diagnostics import Diagnostic


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'notation_tools' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
