"""Sphinx configuration of the notation-tools documentation site.

Build: ``pip install '.[docs]' && sphinx-build -W -b html docs docs/_build/html``.
The pages are Markdown (MyST). Command options, the games' tables (notations, options,
profiles, diagnostic codes) and the Python API are generated from the code by the directives
of ``_ext/notation_docs.py`` and by autodoc, so they cannot drift from it.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))

from notation_tools import __version__  # noqa: E402

project = "notation-tools"
author = "the notation-tools authors"
copyright = "the notation-tools authors"  # noqa: A001 - Sphinx's name for it
version = release = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "notation_docs",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
# The rules references are included whole into their game's page (docs/games/), so they are
# not pages of their own; _build is the default output.
exclude_patterns = ["_build", "rules", "README.md"]

# Option names and quoted values are shown as the program prints them ("--quiet", not an
# en dash; straight quotes).
smartquotes = False

myst_heading_anchors = 4
myst_enable_extensions = ["deflist"]
suppress_warnings = ["myst.header"]

nitpicky = True
# Names in signatures that have no page of their own: type variables, and types of the
# standard library and of Click, which this site does not describe.
nitpick_ignore_regex = [
    ("py:(class|obj)", r".*\.(MoveT|PositionT|OptionsT|T|T_co|K|V)"),
    ("py:class", r"(MoveT|PositionT|OptionsT|Side)"),
    ("py:class", r"(collections\.abc|typing|pathlib|os|io|enum|dataclasses|abc|re|random)\..*"),
    ("py:class", r"(click|pyparsing|tabulate|sqlite3|concurrent|multiprocessing)\..*"),
    ("py:class", r"(Any|Iterator|Iterable|Sequence|Mapping|Callable|ClassVar|Generic|Protocol)"),
    ("py:class", r"(Path|TextIO|BinaryIO|IO|Enum|ABC|ValueError|LookupError|Exception)"),
    # Private helpers and the batch runner's settings, which signatures name but this site
    # does not describe; and a subscripted annotation Sphinx splits at its comma.
    ("py:(class|obj)", r"notation_tools\..*\._[A-Za-z]\w*|notation_tools\.parallel\.batch\.Settings"),
    ("py:class", r"dict\[str"),
    ("py:class", r"notation_tools\.games\.base\.\w+\[~typing\.Any"),
    ("py:class", r"(int|str|bool|float|bytes|None|dict|list|tuple|set|frozenset|object|type)"),
]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}

html_theme = "alabaster"
html_title = f"notation-tools {__version__}"
html_static_path: list[str] = []
