"""The page script's own functions (from viewer.js), cut out to run alone in Chromium on
random input: the browser tests compare what they read with what Python wrote."""

from __future__ import annotations

import re

from notation_tools.pages.assets import asset

DECODERS = ("readNumber", "readNumbers", "unzigzag", "formatMilli", "fromTemplate", "readPieces",
            "readFrames", "readTextEdits", "readDrawing")
"""viewer.js's functions that read the page's data."""


def script_functions(names: tuple[str, ...] = DECODERS) -> str:
    """viewer.js's digit strings and the functions ``names``, as the page runs them."""
    source = asset("viewer.js")
    found = [re.search(r"  var %s = .*\n" % name, source) for name in ("LAST_DIGITS",
                                                                        "MORE_DIGITS")]
    found += [re.search(r"  function %s\(.*?\n  }\n" % name, source, re.S) for name in names]
    assert all(found), "viewer.js lost one of its decoders"
    return "".join(match.group(0) for match in found if match)
