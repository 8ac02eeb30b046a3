"""Options shared by several subcommands, each defined once as a decorator (G10).

Choices come from the game registry; no game is named here.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO, TypeVar, cast

import click

from notation_tools.analysis.overrides import OverrideError
from notation_tools.analysis.overrides import check_overrides as check_run_overrides
from notation_tools.analysis.overrides import game_and_rules as run_game_and_rules
from notation_tools.games.base import Game, Rules, UnknownGameError, all_games, get_game
from notation_tools.render.tables import TABLE_WRITERS
from notation_tools.limits import Limits, usable_cores
from notation_tools.sources import InputNotFound, check_paths
from notation_tools.sources.streams import shown
from notation_tools.sources.overlap import Output, OutputOverInput
from notation_tools.sources.overlap import check_outputs as check_overlap

if TYPE_CHECKING:  # imported where used: the reports bring the parallel runner
    from notation_tools.analysis.reports import Summary, Tally

F = TypeVar("F", bound=Callable[..., Any])


class InputError(click.ClickException):
    """An input that cannot be read at all, or an output that cannot be written: exit 2."""

    exit_code = 2


def check_game(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A ``--game`` option's callback: the game's id, or a usage error naming the games."""
    if value is None:
        return None
    try:
        return get_game(value).id
    except UnknownGameError as error:
        raise click.BadParameter(str(error.args[0]), ctx=ctx, param=param) from None


def game_option(*, required: bool = False) -> Callable[[F], F]:
    """``--game``: supplies or overrides every record's ``Variant`` tag."""
    help_text = ("The game (id or alias; see 'notation-tools games')."
                 if required else
                 "Treat every record as this game (id or alias), overriding its Variant tag.")
    return click.option("--game", "-g", "game", metavar="GAME", required=required,
                        callback=check_game, help=help_text)


def rules_option(func: F) -> F:
    """``--rules``: supplies or overrides every record's ``Rules`` tag."""
    return click.option(
        "--rules", "-r", "rules", metavar="RULES",
        help="Rules for every record, overriding its Rules tag: a profile and options, "
             "e.g. 'standard; undermining=yes'. Rules that suit no game (with --game: not "
             "that game) are a usage error; a record of a game they do not suit is invalid "
             "(E-BAD-RULES).")(func)


def check_overrides(game_id: str | None, rules: str | None, *, notation: str | None = None,
                    file_format: str | None = None, notation_option: str = "--notation") -> None:
    """Reject a --game, --rules, --notation (or --to) value that cannot apply, before any
    record is read: one usage error (exit 2) naming the option and what it could be. Without
    --game, --rules must suit at least one game (a record of a game it does not suit gets a
    diagnostic naming --rules)."""
    with usage_errors():
        check_run_overrides(game=game_id, rules=rules, notation=notation,
                            file_format=file_format, notation_option=notation_option)


def game_and_rules(game_id: str, rules: str | None, *,
                   notation: str | None = None) -> tuple[Game[Any, Any], Rules]:
    """A command about one game: the game, its rules parsed once and the notation checked
    (:func:`notation_tools.analysis.overrides.game_and_rules`), each fault a usage error."""
    with usage_errors():
        return run_game_and_rules(game_id, rules, notation=notation)


@contextlib.contextmanager
def usage_errors() -> Iterator[None]:
    """Turn an :class:`OverrideError` into a usage error (exit 2) naming its option."""
    try:
        yield
    except OverrideError as error:
        raise click.BadParameter(error.message, param_hint=f"'{error.option}'") from None


def table_format_option(func: F) -> F:
    return click.option("--format", "-f", "output_format", type=click.Choice(list(TABLE_WRITERS)),
                        default="table", show_default=True,
                        help="Output format.")(func)


def output_option(func: F) -> F:
    return click.option("--output", "-o", "output", type=click.Path(dir_okay=False, allow_dash=True),
                        default="-", show_default=True,
                        help="Write the results to this file ('-' is standard output).")(func)


def quiet_option(func: F) -> F:
    return click.option("--quiet", "-q", is_flag=True,
                        help="Print only errors (no warnings, no summary).")(func)


def jobs_option(default: int | None) -> Callable[[F], F]:
    shown = "all cores" if default is None else str(default)
    return click.option("--jobs", "-j", type=click.IntRange(min=1), default=default,
                        help=f"Worker processes (default: {shown}).")


def default_jobs() -> int:
    return usable_cores()


def paths_argument(func: F) -> F:
    return click.argument("paths", nargs=-1, required=True, metavar="PATH...",
                          type=click.Path(allow_dash=True))(func)


def every_game() -> tuple[Game[Any, Any], ...]:
    return all_games()


class WriteFailed(InputError):
    """A write that failed (a full disk, no permission, an I/O error): ``cannot write PATH:
    reason``, exit status 2."""

    def __init__(self, name: str, error: OSError) -> None:
        super().__init__(f"cannot write {name}: {error.strerror or error}")


class GuardedOutput:
    """A text output whose failed write or flush raises :class:`WriteFailed` naming the file,
    wherever in the command the write happens (a writer, a report, a trailer written on
    closing), so that no ``OSError`` escapes as a fault of the program. A reader of standard
    output that went away (``BrokenPipeError``) is left to :func:`open_output`."""

    def __init__(self, stream: TextIO, name: str) -> None:
        self.stream, self.name = stream, name

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise WriteFailed(self.name, error) from None

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise WriteFailed(self.name, error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextlib.contextmanager
def open_output(path: str, *, append: bool = False) -> Iterator[TextIO]:
    """The output stream (``-``: standard output), added to with ``append``. A failed write or
    close (a full disk, no permission, an I/O error) ends the command with one ``cannot write
    PATH: reason`` and exit status 2; a reader of standard output that went away (``| head``)
    ends it quietly with exit status 1. When the command fails, for this output or another,
    the output is closed without a second error."""
    name = "standard output" if path == "-" else shown(path)
    try:
        stream = click.open_file(path, "a" if append else "w", encoding="utf-8",
                                 errors="backslashreplace", lazy=False)
    except OSError as error:
        raise WriteFailed(name, error) from None
    guarded = GuardedOutput(cast(TextIO, stream), name)  # opened in text mode
    failed = True
    try:
        yield guarded  # type: ignore[misc]  # a TextIO in all a writer uses
        guarded.flush()
        failed = False
    except BrokenPipeError:
        _reader_gone()
    finally:
        try:
            stream.__exit__(None, None, None)  # closes a file; standard output stays open
        except BrokenPipeError:
            if not failed:
                _reader_gone()
        except OSError as error:
            if not failed:
                raise WriteFailed(name, error) from None


def _reader_gone() -> None:
    """The reader of standard output went away (``| head``): stop quietly, as other tools do."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)


def limits_options(func: F) -> F:
    """``--limit NAME=VALUE`` and ``--encoding``: how inputs are read."""
    func = click.option(
        "--encoding", metavar="ENCODING", default=None, callback=_check_encoding,
        help="Text encoding of the inputs (e.g. latin-1, cp932); default UTF-8, or what a "
             "byte-order mark says.")(func)
    return click.option(
        "--limit", "limits", metavar="NAME=VALUE", multiple=True, callback=_check_limits,
        help="Change a limit on the input (repeatable): " + ", ".join(Limits.NAMES) +
             "; sizes may end in KiB, MiB or GiB (see README: Limits).")(func)


def _check_limits(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> Limits:
    try:
        return Limits.parse(value)
    except ValueError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None


def _check_encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        info = codecs.lookup(value)
    except LookupError:
        raise click.BadParameter(f"unknown encoding {value!r}", ctx=ctx, param=param) from None
    # rot13, base64, zlib, hex...: codecs between bytes and bytes (or text and text)
    if not getattr(info, "_is_text_encoding", True):
        raise click.BadParameter(f"{value!r} is not a text encoding (e.g. utf-8, latin-1, "
                                 "cp932)", ctx=ctx, param=param)
    return value


def require_paths(paths: tuple[str, ...]) -> None:
    """A missing input path is a usage error (exit 2), reported before any work."""
    try:
        check_paths(paths)
    except InputNotFound as error:
        raise click.BadParameter(f"{error.args[0]}: no such file or directory",
                                 param_hint="PATH") from None


def check_outputs(paths: Iterable[str], *outputs: Output) -> None:
    """Refuse (exit 2, before any output is opened) an output that is one of the inputs (the
    same file, by name, symlink or hard link, reached directly, through a directory walk, an
    archive path or standard input) or the same file as another output: opening it for
    writing would destroy the input before it is read."""
    # Imported here, like the chart page's module below: they read the archives' formats
    # and the parallel runner, which the database commands (search, explore) never need.
    from notation_tools.analysis.foreign import game_suffixes
    try:
        check_overlap(outputs, paths, suffixes=game_suffixes, stdin=sys.stdin.buffer)
    except OutputOverInput as error:
        raise click.BadParameter(error.message, param_hint=f"'{error.option}'") from None


def exit_status(tally: Tally, *, strict: bool = True) -> int:
    """Every command's exit status: 2 when an input could not be read, 1 when a record is
    invalid, 0 otherwise. A report (``strict=False``) exits 0 once it is complete."""
    if not strict:
        return 0
    return 2 if tally.unreadable else 1 if tally.invalid else 0


def finish(tally: Tally, *, strict: bool = True) -> None:
    """End the command with :func:`exit_status` (returns when it is 0)."""
    status = exit_status(tally, strict=strict)
    if status:
        sys.exit(status)


def report_options(func: F) -> F:
    """``--figures`` and ``--html FILE``: how much of each game's figures the tables hold, and
    the chart page (analyze and report)."""
    from notation_tools.pages.report import INSTALL_HINT
    func = click.option(
        "--html", "html", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True),
        callback=_check_charts,
        help="Also write the report as one self-contained HTML page with charts to FILE "
             f"(needs {INSTALL_HINT}).")(func)
    return click.option(
        "--figures", "all_figures", is_flag=True,
        help="Every figure of each game in the tables, not only its key figures (--format "
             "json always holds every one).")(func)


def _check_charts(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from notation_tools.pages.report import ChartsUnavailable, check_available as check_charts
    if value is not None:
        try:
            check_charts()
        except ChartsUnavailable as error:
            raise click.BadParameter(str(error), ctx=ctx, param=param) from None
    return value


def new_summary(html: str | None) -> Summary:
    """What gathers the reports: with ``--html``, a summary that keeps what the page shows."""
    from notation_tools.analysis.reports import Summary
    from notation_tools.pages.report import HtmlReport
    return HtmlReport() if html is not None else Summary()


def write_report(report: Summary, *, output_format: str, output: str, all_figures: bool,
                 html: str | None) -> None:
    """Write the summary tables (every figure with ``all_figures`` or JSON), then the page."""
    from notation_tools.pages.report import HtmlReport
    with open_output(output) as out:
        TABLE_WRITERS[output_format]().write(
            report.tables(all_figures=all_figures or output_format == "json"), out)
    if isinstance(report, HtmlReport) and html is not None:
        with open_output(html) as out:
            report.write(out)
