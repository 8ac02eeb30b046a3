"""Links from a diagnostic to the section of the rules reference that it cites.

The rules references are installed with the package (``share/doc/notation-tools/rules``) or
lie in the source tree's ``docs/rules`` (an editable install). A link is a ``file://`` URL to
that file with the heading's anchor, as the documentation site names it. Reads the reference
files, once each.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path
from typing import Any

SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
_HEADING = re.compile(r"^#+\s+(§\d+(?:\.\d+)*\b.*)$", re.MULTILINE)


def rules_file(rules_doc: str) -> Path | None:
    """Where a game's rules reference (``Game.rules_doc``) is on this machine."""
    installed = Path(sys.prefix, "share", "doc", "notation-tools", "rules", Path(rules_doc).name)
    if installed.is_file():
        return installed
    source = Path(__file__).resolve().parents[2] / rules_doc
    return source if source.is_file() else None


def anchor(heading: str) -> str:
    """The anchor the documentation site (myst-parser) gives a heading.

    >>> anchor("§9.2 Reading a TSA move")
    '92-reading-a-tsa-move'
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower().replace(" ", "-"))


@functools.lru_cache(maxsize=16)
def _anchors(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for heading in _HEADING.findall(text):
        number = SECTION.match(heading)
        if number is not None:
            found.setdefault(number.group(1), anchor(heading))
    return found


def section_url(game: Any, rule: str | None) -> str | None:
    """A ``file://`` URL to the first section ``rule`` cites (``"§4.3"``, ``"§6.1, §9"``) in
    the game's rules reference, or ``None`` when there is no such file or heading."""
    if game is None or not rule or not game.rules_doc:
        return None
    number = SECTION.search(rule)
    path = rules_file(game.rules_doc)
    if number is None or path is None:
        return None
    try:
        target = _anchors(path).get(number.group(1))
    except OSError:
        return None
    uri = path.as_uri()
    return f"{uri}#{target}" if target else uri
