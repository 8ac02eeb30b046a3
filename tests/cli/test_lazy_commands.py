"""The command line imports a subcommand only when it is used (issue #14: a quick --help)."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from notation_tools.cli import COMMANDS, main


def first_paragraph(command) -> str:
    return " ".join((command.help or "").split("\n\n")[0].split())


def test_every_summary_is_its_commands_first_paragraph():
    for name, (_, summary) in COMMANDS.items():
        assert summary == first_paragraph(main.commands[name]), name


def test_group_help_lists_what_clicks_own_listing_would():
    for width in (60, 80, 120):
        ctx = click.Context(main, info_name="notation-tools", terminal_width=width)
        lazy, eager = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
        main.format_commands(ctx, lazy)
        click.Group.format_commands(main, ctx, eager)  # imports every command
        assert lazy.getvalue() == eager.getvalue()
        assert "validate" in lazy.getvalue()


def test_help_imports_no_game_and_no_command_module():
    probe = ("import sys\n"
             "from notation_tools.cli import main\n"
             "try:\n"
             "    main(['--help'], prog_name='notation-tools')\n"
             "except SystemExit:\n"
             "    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith(('notation_tools.games.',"
             " 'notation_tools.analysis', 'notation_tools.cli.'))))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.splitlines()[-1] == "[]"


def test_an_unknown_command_is_a_usage_error():
    result = CliRunner().invoke(main, ["no-such-command"])
    assert result.exit_code == 2 and "No such command" in result.output
