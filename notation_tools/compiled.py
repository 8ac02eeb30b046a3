"""Which compiled parts are in use.

An inner loop may have a compiled path, built by ``pip install .`` when a C compiler is at
hand and skipped when not (issue #14); today two have: the Game of War lines of communication
that the statistics read after every turn (``games/gow/_lines.c``), and Game of War's key
tracker, which the position index steps once per turn (``games/gow/_keys.c``, issue #27).
Each has a Python reference that reads as the spec reads (for the tracker,
``games.gow.keys.GowTracker``); the tests compare the two. Set
``NOTATION_TOOLS_PURE_PYTHON=1`` in the environment to run the Python reference everywhere,
e.g. to compare results or timings.

>>> import notation_tools.compiled as compiled
>>> compiled.load("nonexistent_module") is None
True
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_PYTHON = os.environ.get("NOTATION_TOOLS_PURE_PYTHON", "") not in ("", "0")
"""Whether the environment asks for the Python reference everywhere."""


_LOADED: dict[str, bool] = {}
"""Each part :func:`load` was asked for, and whether it is in use."""


def load(name: str, *names: str) -> ModuleType | None:
    """The compiled module ``notation_tools.<name>`` when it was built and has each of
    ``names`` (a build left from an older version may lack one), else ``None``; ``None`` too
    when :data:`PURE_PYTHON` is set."""
    module = None
    if not PURE_PYTHON:
        try:
            module = importlib.import_module(f"notation_tools.{name}")
        except ImportError:
            pass  # not built: the Python path runs
        if module is not None and not all(hasattr(module, n) for n in names):
            module = None
    _LOADED[name] = module is not None
    return module


def in_use() -> dict[str, bool]:
    """Each compiled part the modules imported so far asked for, and whether it is in use
    (``games.gow._lines`` and ``games.gow._keys`` once a Game of War module is imported)."""
    return dict(_LOADED)
