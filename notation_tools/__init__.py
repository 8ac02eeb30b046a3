"""notation-tools: records of Maka-Dai-Dai Shogi, Game of War, Shih, Shuriken 2D and Elevation.

The Python API (``docs/api.md``): :func:`read`, :func:`read_one`, :func:`read_text`,
:func:`parse` and :func:`write` for records, :func:`read_game`, :func:`read_headers` and
:func:`skip_game` for an open file a record at a time, :func:`record_from_moves` to build a
record, :func:`game` for a game's engine, :class:`Database` for a results database's
position search and opening explorer. The names are loaded when first used, so that
``import notation_tools`` (and the command line's start) stays cheap, and the package holds
nothing else (``dir(notation_tools)`` lists them).

>>> import notation_tools
>>> notation_tools.game("shih").name
'Shih'
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it as that)
from notation_tools.version import __version__  # noqa: E402  (one place for the version)

_LAZY = {
    **dict.fromkeys(("read", "read_one", "read_text", "parse", "read_game", "read_headers",
                     "skip_game", "record_from_moves", "write", "game", "GameRecord",
                     "ReplayedGame", "ReadError", "NoRecordError", "CannotWriteError"),
                    "notation_tools.api"),
    **dict.fromkeys(("Game", "Position", "Outcome", "Rules", "MoveSyntaxError",
                     "IllegalMoveError", "AmbiguousMoveError", "BadPositionError",
                     "BadRulesError", "UnknownGameError"), "notation_tools.games.base"),
    "Diagnostic": "notation_tools.records.diagnostics",
    "Database": "notation_tools.storage.game_database",
    "Tag": "notation_tools.records.model", "Tags": "notation_tools.records.model",
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
        parse,
        read,
        read_game,
        read_headers,
        read_one,
        read_text,
        record_from_moves,
        skip_game,
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
    from notation_tools.storage.game_database import Database
    from notation_tools.records.model import Tag, Tags

del TYPE_CHECKING  # the package's namespace holds its API only


def __getattr__(name: str) -> object:
    import importlib  # already loaded by the import system: costs nothing

    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'notation_tools' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
