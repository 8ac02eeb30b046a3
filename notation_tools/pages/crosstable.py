"""An event's crosstable as one small self-contained HTML page (``crosstable --format html``).

Takes the table already computed (the columns and rows of
:func:`notation_tools.storage.events.event_table`) and writes one page: inline CSS (the package
data file ``crosstable.css``), no script, nothing fetched from the network, a viewport for
phones (the table scrolls inside its own box, the page never sideways). Does not compute.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any, TextIO

from notation_tools.pages.assets import asset
from notation_tools.version import __version__

_KINDS = {"round-robin": "round-robin: ranked by score, then Sonneborn–Berger, then wins",
          "swiss": "Swiss: ranked by score, then Buchholz, then Sonneborn–Berger",
          "other": "ranked by score, then Buchholz, then Sonneborn–Berger"}
_KEYS = {"round-robin": "A cell holds the row player's results against the column's player "
                        "(1 a win, ½ a draw, 0 a loss, * unfinished), in record order.",
         "swiss": "A cell holds the round's result and the opponent's rank: +3 a win against "
                  "the player ranked 3rd, =3 a draw, -3 a loss, *3 unfinished.",
         "other": "A cell holds the row player's results against the column's player (1 a "
                  "win, ½ a draw, 0 a loss, * unfinished), in record order."}
_NAMES = {"rank": "#", "player": "Player", "games": "Games", "score": "Score", "wins": "Wins",
          "sonneborn_berger": "SB", "buchholz": "Buchholz"}


def _number(value: Any) -> str:
    if isinstance(value, float):
        whole, half = divmod(value * 2, 2)
        return f"{int(whole)}½" if half == 1 and whole else ("½" if half == 1 else
                                                              f"{value:g}")
    return str(value)


def _cell(name: str, value: Any, columns: Sequence[str]) -> str:
    text = html.escape(_number(value))
    if name == "player":
        return f'<td class="name">{text}</td>'
    if name in columns:
        kind = ("self" if value == "x" else "win" if str(value) in ("1", "11") or
                str(value).startswith("+") else "loss" if str(value) in ("0", "00") or
                str(value).startswith("-") else "")
        return f'<td class="{kind}">{"" if value == "x" else text}</td>'
    return f'<td class="n">{text}</td>'


def write_crosstable_page(event: str, kind: str, columns: Sequence[str],
                          rows: Sequence[dict[str, Any]], out: TextIO, *,
                          unscored: int = 0) -> None:
    """Write the page of ``event``'s crosstable (``kind``: ``round-robin``, ``swiss`` or
    ``other``) onto ``out``."""
    names = list(rows[0]) if rows else ["rank", "player"]
    head = "".join(f'<th class="{"name" if n == "player" else ""}" scope="col">'
                   f'{html.escape(_NAMES.get(n, n))}</th>' for n in names)
    body = "\n".join("<tr>" + "".join(_cell(n, row.get(n, ""), columns) for n in names)
                     + "</tr>" for row in rows)
    table = f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"
    about = f"{len(rows)} players; {_KINDS.get(kind, kind)}."
    if unscored:
        about += f" {unscored} records of the event are not scored (unfinished or invalid)."
    out.write(asset("crosstable.html").format(
        version=__version__, title=html.escape(f"Crosstable: {event}"),
        style=asset("crosstable.css"), about=html.escape(about),
        table=table, key=html.escape(_KEYS.get(kind, ""))))
