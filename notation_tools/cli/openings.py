"""The opening-catalogue options shared by ``analyze`` and ``select``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from notation_tools.analysis.openings import (CatalogueError, cached_catalogue,
                                              catalogue_identity)

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["catalogue_identity", "check_openings", "openings_options"]


def check_openings(ctx: click.Context, param: click.Parameter,
                    value: tuple[str, ...]) -> tuple[str, ...]:
    """The catalogue files, each read and replayed now: a bad one is a usage error (exit
    status 2) that lists its problems, before any record is read."""
    try:
        cached_catalogue(tuple(value))
    except CatalogueError as error:
        shown = "\n".join(str(problem) for problem in error.problems[:10])
        more = len(error.problems) - 10
        raise click.BadParameter(
            "the catalogue cannot be used:\n" + shown
            + (f"\n({more} more problems)" if more > 0 else ""), ctx=ctx,
            param=param) from None
    return tuple(value)


def openings_options(func: F) -> F:
    """``--openings FILE`` (repeatable) and ``--no-openings``; the command receives one
    keyword, ``openings``: the catalogue files (``()``: the games' own only), or ``None``
    with ``--no-openings``."""
    @functools.wraps(func)
    def command(*args: Any, opening_files: tuple[str, ...], no_openings: bool,
                **kwargs: Any) -> Any:
        if no_openings and opening_files:
            raise click.BadParameter("goes with --openings FILE, which it contradicts",
                                     param_hint="'--no-openings'")
        return func(*args, openings=None if no_openings else opening_files, **kwargs)

    decorated: Any = click.option(
        "--no-openings", "no_openings", is_flag=True,
        help="Do not name the records' openings.")(command)
    decorated = click.option(
        "--openings", "opening_files", multiple=True, metavar="FILE",
        type=click.Path(exists=True, dir_okay=False), callback=check_openings,
        help="An opening catalogue (records each with an Opening tag and the moves it "
             "names, PGN or JSON) added to the games' own; its names win (repeatable).")(
        decorated)
    return decorated  # type: ignore[no-any-return]
