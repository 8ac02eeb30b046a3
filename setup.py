"""The compiled parts (see notation_tools/compiled.py): built when a C compiler is at hand,
skipped when not (``optional=True``), so that ``pip install .`` works on any machine; the
Python reference of each runs in their place. Everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("notation_tools.games.gow._lines", ["notation_tools/games/gow/_lines.c"],
              optional=True),
    Extension("notation_tools.games.gow._keys", ["notation_tools/games/gow/_keys.c"],
              optional=True),
])
