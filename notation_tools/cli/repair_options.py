"""The repair options ``convert`` and ``fmt`` share (``--fix-result``, ``--keep-broken``, ...)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from notation_tools.analysis.repairs import Repairs

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS = (
    ("--fix-tags", "tags", "Read a malformed tag pair whose name and value are plain to see "
     "([Site Reading], a missing bracket or quote, quotes inside the value)."),
    ("--fix-result", "result", "Make the Result tag and result token say how the replayed game "
     "ended."),
    ("--fix-numbers", "numbers", "Give every move the move number PGN gives it (missing or "
     "wrong ones)."),
    ("--fix-moves", "moves", "Write every move text in the canonical spelling of the move it "
     "resolves to (ambiguous texts the replay settles included)."),
    ("--keep-broken", "keep_broken", "Keep the moves from a line's first unplayable move on as "
     "a comment after the move before it, so that the record replays and nothing is lost."),
    ("--note-fixes", "note_fixes", "Also write the notes of the fixes into the record, as its "
     "first comment."),
)


def repair_options(func: F) -> F:
    """Add the repair flags; the command receives them as one ``repairs`` argument."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        flags = {field: kwargs.pop(f"repair_{field}") for _, field, _ in _OPTIONS}
        return func(*args, repairs=Repairs(**flags), **kwargs)

    for option, field, text in reversed(_OPTIONS):
        wrapper = click.option(option, f"repair_{field}", is_flag=True, help=text)(wrapper)
    return wrapper  # type: ignore[return-value]
