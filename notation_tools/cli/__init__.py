"""The ``notation-tools`` command line: one Click group, one module per subcommand (G10).

Commands parse their arguments, call one function of :mod:`notation_tools.analysis`, and hand
the result to a writer. No rules live here, and no game is named here.
"""

from __future__ import annotations

import errno
import gc
import importlib
import os
import sys
from collections.abc import Iterator, Mapping, MutableMapping

import click

from notation_tools.version import __version__

COMMANDS: Mapping[str, tuple[str, str]] = {
    "games": ("notation_tools.cli.games:games", "List the games: id, name, aliases, sides, "
              "notations, rule profiles and rules reference."),
    "validate": ("notation_tools.cli.validate:validate", "Replay every record against its "
                 "game's rules and report what is wrong."),
    "show": ("notation_tools.cli.show:show", "Print the position of a record after --ply plies "
             "(default: the end)."),
    "convert": ("notation_tools.cli.convert:convert", "Rewrite records in another container "
                "(PGN, JSON, JSON Lines) or move notation."),
    "select": ("notation_tools.cli.select:select", "Write the records that match every "
               "criterion given; drop duplicates; split."),
    "search": ("notation_tools.cli.search:search", "List the records of a results database "
               "that reach a position, by any move order."),
    "explore": ("notation_tools.cli.explore:explore", "Show the moves an archive played from "
                "a position, how often and how they scored."),
    "stats": ("notation_tools.cli.stats:stats", "Print per-record statistics: plies, result, "
              "captures and each game's own figures."),
    "analyze": ("notation_tools.cli.analyze:analyze", "Replay every record of directories, "
                "archives and files, and print summary tables."),
    "report": ("notation_tools.cli.report:report", "Print the report 'analyze --db DATABASE' "
               "printed, from the database alone."),
    "moves": ("notation_tools.cli.moves:moves", "List the legal moves of a position, one per "
              "row, with the game's facts about each."),
    "perft": ("notation_tools.cli.moves:perft", "Count the legal move sequences of 1..DEPTH "
              "plies from a position, with nodes/s."),
    "generate": ("notation_tools.cli.generate:generate", "Write random legal games: each ply is "
                 "drawn uniformly from the legal moves."),
    "fmt": ("notation_tools.cli.fmt:fmt", "Rewrite PGN record files in one canonical form: tag "
            "order, move spellings, numbers."),
    "html": ("notation_tools.cli.html:html", "Write an HTML replay viewer page for every "
             "record."),
    "lsp": ("notation_tools.cli.lsp:lsp", "Run the language server for record files, speaking "
            "LSP on standard input and output."),
    "players": ("notation_tools.cli.players:players", "Print every player of a results "
                "database: games, scores, dates, rating, best, worst."),
    "crosstable": ("notation_tools.cli.crosstable:crosstable", "Print the crosstable of one "
                   "event of a results database, with its tie-breaks."),
}
"""Every subcommand: where it is defined, and the first paragraph of its help (what
``notation-tools --help`` lists). A command's module is imported only when the command runs or
its own help is asked for, so that starting the program costs no game and no engine; a test
checks that each summary is still the command's own first paragraph."""


class _Commands(MutableMapping[str, click.Command]):
    """The group's commands by name, each imported on first use."""

    def __init__(self, references: Mapping[str, tuple[str, str]]) -> None:
        self.references = {name: reference for name, (reference, _) in references.items()}
        self.loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self.loaded:
            module_name, _, attribute = self.references[name].partition(":")
            self.loaded[name] = getattr(importlib.import_module(module_name), attribute)
        return self.loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self.loaded[name] = command
        self.references.setdefault(name, "")

    def __delitem__(self, name: str) -> None:
        self.loaded.pop(name, None)
        del self.references[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.references)

    def __len__(self) -> int:
        return len(self.references)


class LazyGroup(click.Group):
    """A Click group whose subcommands are imported when they are used; its own help lists
    them from :data:`COMMANDS` without importing any."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.commands = _Commands(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            # A bare command carrying the summary shortens it as the real one would.
            command = click.Command(name, help=COMMANDS[name][1]) if name in COMMANDS \
                else self.commands[name]
            rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="notation-tools")
def main() -> None:
    """Parse, validate, convert, draw and analyse game records.

    'notation-tools games' lists the games installed, their notations and rule profiles.
    Records are PGN-style (tag pairs and movetext) or JSON; PATH may be a file, a directory, a zip or tar archive, a .gz/.bz2/.xz
    file, or '-' for standard input.

    Exit status: 0 when every record is valid, 1 when a record is invalid, 2 for usage or
    I/O errors.
    """


def run() -> None:
    """The ``notation-tools`` program: the Click group, with a last guard so that no Python
    traceback reaches a user whatever happens (a fault of ours is reported in one line and
    exits 2; the run's other output stands). Standard output and standard error are flushed
    here, so that one that cannot be written (a full disk) is told in one line with exit
    status 2 instead of Python's "Exception ignored" at exit."""
    # A run makes many small objects that live for one record (moves, positions, reports)
    # and few reference cycles: the collector's default pace (a young collection every 700
    # allocations, each record's objects scanned again as they age) took about a tenth of a
    # validate run. What is loaded by now (Click and the command table) stays to the end:
    # frozen, it is left out of every collection.
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    status: int | str | None = 0
    try:
        main(prog_name="notation-tools")
    except SystemExit as end:
        status = end.code
    except MemoryError:
        _say("notation-tools: out of memory (see --limit to bound the input)")
        status = 2
    except OSError as error:
        status = _write_failed(error)
    except Exception as error:  # noqa: BLE001 - the last guard: every fault ends here
        _internal_error(error)
        status = 2
    sys.exit(_flushed(status))


_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EIO, errno.EACCES, errno.EPERM, errno.EROFS,
                           errno.EDQUOT, errno.EFBIG, errno.EPIPE})
"""What a failed write says: a full disk or quota, an I/O error, no permission, a read-only
file system, a file too large, a reader gone."""


def _write_failed(error: OSError) -> int:
    """An ``OSError`` that reached the last guard: a failed write to standard output or
    standard error (the commands turn a failed write to a file into ``cannot write PATH``
    themselves), told in one line when it can be; any other is a fault of ours."""
    from notation_tools.sources.streams import shown

    stream = _broken_stream()
    if stream is not None or error.errno in _WRITE_ERRORS and error.filename is not None:
        name = stream if stream is not None else shown(str(error.filename))
        if not (stream == "standard output" and isinstance(error, BrokenPipeError)):
            _say(f"notation-tools: cannot write {name}: {error.strerror or error}")
        return 1 if isinstance(error, BrokenPipeError) else 2
    _internal_error(error)
    return 2


def _broken_stream() -> str | None:
    """Which of standard output and standard error cannot be written (its buffered text
    cannot be flushed); it is pointed at the null device, so that nothing tries again."""
    for name, stream in (("standard output", sys.stdout), ("standard error", sys.stderr)):
        if stream is None or stream.closed:
            continue
        try:
            stream.flush()
        except OSError:
            _silence(stream)
            return name
    return None


def _flushed(status: int | str | None) -> int | str | None:
    """``status``, or 2 when standard output or standard error cannot be flushed (told on
    standard error when that one still works); a reader of standard output gone gives 1."""
    for name, stream in (("standard output", sys.stdout), ("standard error", sys.stderr)):
        if stream is None or stream.closed:
            continue  # a command's writer closed it: nothing is left to write
        try:
            stream.flush()
        except BrokenPipeError:
            _silence(stream)
            status = status or 1
        except OSError as error:
            _silence(stream)
            _say(f"notation-tools: cannot write {name}: {error.strerror or error}")
            status = 2
    return status


def _silence(stream: object) -> None:
    """Point a standard stream that cannot be written at the null device, so that Python's
    own flush at exit finds nothing to complain of."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())  # type: ignore[attr-defined]
    except (OSError, ValueError, AttributeError):
        pass


def _internal_error(error: BaseException) -> None:
    _say(f"notation-tools: internal error ({type(error).__name__}: {error}); please report it "
         "with the input that caused it")


def _say(line: str) -> None:
    """Write one line on standard error, if it can be written at all."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        _silence(sys.stderr)
