"""The ``notation-tools`` command line: one Click group, one module per subcommand (G10).

Commands parse their arguments, call one function of :mod:`notation_tools.analysis`, and hand
the result to a writer. No rules live here, and no game is named here.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Iterator, Mapping, MutableMapping

import click

from notation_tools import __version__

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
    "html": ("notation_tools.cli.html:html", "Write an HTML replay viewer page for every "
             "record."),
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
    exits 2; the run's other output stands)."""
    # A run makes many small objects that live for one record (moves, positions, reports)
    # and few reference cycles: the collector's default pace (a young collection every 700
    # allocations, each record's objects scanned again as they age) took about a tenth of a
    # validate run. What is loaded by now (Click and the command table) stays to the end:
    # frozen, it is left out of every collection.
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    try:
        main(prog_name="notation-tools")
    except MemoryError:
        sys.stderr.write("notation-tools: out of memory (see --limit to bound the input)\n")
        sys.exit(2)
    except Exception as error:  # noqa: BLE001 - the last guard: every fault ends here
        sys.stderr.write(f"notation-tools: internal error ({type(error).__name__}: {error}); "
                         "please report it with the input that caused it\n")
        sys.exit(2)
