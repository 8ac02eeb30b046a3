"""The files the pages are drawn from: style sheets, scripts and HTML frames shipped as
package data beside this module (``viewer.css``, ``viewer.js``, ``viewer-*.html``,
``report.css``), each read once per process."""

from __future__ import annotations

import functools
import importlib.resources


@functools.cache
def asset(name: str) -> str:
    """The text of the package data file ``name`` of :mod:`notation_tools.pages`."""
    return importlib.resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


@functools.cache
def script_asset(name: str) -> str:
    """The script ``name`` (a package data file) as a page carries it: without its comment
    lines (those whose first non-blank characters are ``//``), its blank lines and each line's
    indentation, which are a third of it. Every other line is kept whole, in order, with its
    line break, so no statement changes (the scripts hold no string or template literal that
    spans lines, where such a line could be text)."""
    kept = (line.strip() for line in asset(name).splitlines())
    return "".join(f"{line}\n" for line in kept if line and not line.startswith("//"))
