"""``python -m notation_tools``: the same as the ``notation-tools`` command."""

from notation_tools.cli import run

run()
