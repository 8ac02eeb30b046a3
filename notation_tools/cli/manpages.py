"""Man pages generated from the Click commands, so they say what ``--help`` says (G12).

``python -m notation_tools.cli.manpages man`` rewrites ``man/``; a test checks that the files
there are current. Does not run any command.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import click

from notation_tools import __version__

PROGRAM = "notation-tools"


def _escape(text: str) -> str:
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def _paragraphs(text: str) -> str:
    cleaned = inspect.cleandoc(text or "")
    blocks = [" ".join(block.split()) for block in cleaned.split("\n\n") if block.strip()]
    return "\n.PP\n".join(_escape(block) for block in blocks)


def _options(command: click.Command, ctx: click.Context) -> list[str]:
    out = []
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option):
            continue  # arguments are named in the synopsis
        record = param.get_help_record(ctx)
        if record is None:
            continue
        names, help_text = record
        out.append(f".TP\n\\fB{_escape(names)}\\fR\n{_escape(' '.join(help_text.split()))}")
    return out


def _page(name: str, command: click.Command, ctx: click.Context, see_also: list[str]) -> str:
    summary = command.get_short_help_str(limit=200).rstrip(".")
    usage = " ".join(command.collect_usage_pieces(ctx))
    parts = [
        f'.TH "{name.upper()}" "1" "" "{PROGRAM} {__version__}" "User Commands"',
        ".SH NAME",
        f"{_escape(name)} \\- {_escape(summary)}",
        ".SH SYNOPSIS",
        f"\\fB{_escape(ctx.command_path)}\\fR {_escape(usage)}",
        ".SH DESCRIPTION",
        _paragraphs(command.help or ""),
    ]
    options = _options(command, ctx)
    if options:
        parts += [".SH OPTIONS", *options]
    if isinstance(command, click.Group):
        parts.append(".SH COMMANDS")
        for sub_name, sub in sorted(command.commands.items()):
            parts.append(f".TP\n\\fB{_escape(sub_name)}\\fR\n"
                         f"{_escape(sub.get_short_help_str(limit=200))} "
                         f"See \\fB{PROGRAM}\\-{_escape(sub_name)}\\fR(1).")
    parts += [".SH EXIT STATUS",
              "0 when every record is valid, 1 when a record is invalid (for \\fBanalyze\\fR "
              "only with \\-\\-strict), 2 for usage or I/O errors.",
              ".SH SEE ALSO",
              ", ".join(f"\\fB{_escape(page)}\\fR(1)" for page in see_also)]
    return "\n".join(parts) + "\n"


def render_man_pages(group: click.Group) -> dict[str, str]:
    """File name → roff text, for the group and each subcommand."""
    # The group's context settings (help option names) as a real run has them: Click caches
    # each command's help option, so a page must not depend on what ran before.
    root = click.Context(group, info_name=PROGRAM, **group.context_settings)
    names = sorted(group.commands)
    pages = {f"{PROGRAM}.1": _page(PROGRAM, group, root,
                                   [f"{PROGRAM}-{name}" for name in names])}
    for name in names:
        command = group.commands[name]
        ctx = click.Context(command, info_name=name, parent=root)
        pages[f"{PROGRAM}-{name}.1"] = _page(f"{PROGRAM}-{name}", command, ctx, [PROGRAM])
    return pages


def write_man_pages(directory: Path) -> list[Path]:
    from notation_tools.cli import main

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, text in render_man_pages(main).items():
        path = directory / file_name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_man_pages(Path(sys.argv[1] if len(sys.argv) > 1 else "man")):
        print(written_path)
