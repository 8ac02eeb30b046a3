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
