"""The ``notation-tools`` command line: one Click group, one module per subcommand (G10).

Commands parse their arguments, call one function of :mod:`notation_tools.analysis`, and hand
the result to a writer. No rules live here, and no game is named here.
"""

from __future__ import annotations

import sys

import click

from notation_tools import __version__
from notation_tools.cli.analyze import analyze
from notation_tools.cli.convert import convert
from notation_tools.cli.games import games
from notation_tools.cli.generate import generate
from notation_tools.cli.html import html
from notation_tools.cli.moves import moves, perft
from notation_tools.cli.report import report
from notation_tools.cli.select import select
from notation_tools.cli.show import show
from notation_tools.cli.stats import stats
from notation_tools.cli.validate import validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="notation-tools")
def main() -> None:
    """Parse, validate, convert, draw and analyse game records.

    'notation-tools games' lists the games installed, their notations and rule profiles.
    Records are PGN-style (tag pairs and movetext) or JSON; PATH may be a file, a directory, a zip or tar archive, a .gz/.bz2/.xz
    file, or '-' for standard input.

    Exit status: 0 when every record is valid, 1 when a record is invalid, 2 for usage or
    I/O errors.
    """


for command in (games, validate, show, convert, select, stats, analyze, report, moves,
                perft, generate, html):
    main.add_command(command)


def run() -> None:
    """The ``notation-tools`` program: the Click group, with a last guard so that no Python
    traceback reaches a user whatever happens (a fault of ours is reported in one line and
    exits 2; the run's other output stands)."""
    try:
        main(prog_name="notation-tools")
    except MemoryError:
        sys.stderr.write("notation-tools: out of memory (see --limit to bound the input)\n")
        sys.exit(2)
    except Exception as error:  # noqa: BLE001 - the last guard: every fault ends here
        sys.stderr.write(f"notation-tools: internal error ({type(error).__name__}: {error}); "
                         "please report it with the input that caused it\n")
        sys.exit(2)
