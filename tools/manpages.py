"""Man pages generated from the Click commands, so they say what ``--help`` says (G12).

Each command's page also carries the console examples of its documentation page
(``docs/commands/<command>.md``, read by :mod:`tools.examples`: the site, the
man page and the test that runs the examples share them) and the diagnostic codes every game
shares; ``notation-tools-codes(7)`` lists every code, the shared ones and each game's.

``python -m tools.manpages man`` (from the repository root) rewrites ``man/``; a test
checks that the files there are current. Does not run any command.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import click

from notation_tools import __version__
from tools.examples import Example, page_examples
from notation_tools.codes import SHARED_CODES, Code
from notation_tools.games.base import all_games

PROGRAM = "notation-tools"
DOCS = Path(__file__).resolve().parents[1] / "docs"
"""The documentation of a source checkout, where the examples are read from."""
CODES_PAGE = f"{PROGRAM}-codes"


def _escape(text: str) -> str:
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def help_paragraphs(text: str) -> list[str]:
    """A command's help text as paragraphs of one line each."""
    cleaned = inspect.cleandoc(text or "")
    return [" ".join(block.split()) for block in cleaned.split("\n\n") if block.strip()]


def _paragraphs(text: str) -> str:
    return "\n.PP\n".join(_escape(block) for block in help_paragraphs(text))


def option_rows(command: click.Command, ctx: click.Context) -> list[tuple[str, str]]:
    """``(names, help)`` of every option as ``--help`` shows it (arguments are in the usage)."""
    rows = []
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option):
            continue
        record = param.get_help_record(ctx)
        if record is not None:
            rows.append((record[0], " ".join(record[1].split())))
    return rows


def command_context(group: click.Group, name: str | None) -> click.Context:
    """The context a real run gives the group (``name`` ``None``) or one of its commands.

    The group's context settings (help option names) are applied as a real run has them:
    Click caches each command's help option, so a page must not depend on what ran before.
    """
    root = click.Context(group, info_name=PROGRAM, **group.context_settings)
    if name is None:
        return root
    return click.Context(group.commands[name], info_name=name, parent=root)


def _options(command: click.Command, ctx: click.Context) -> list[str]:
    return [f".TP\n\\fB{_escape(names)}\\fR\n{_escape(help_text)}"
            for names, help_text in option_rows(command, ctx)]


def _examples(examples: list[Example]) -> list[str]:
    if not examples:
        return []
    parts = [".SH EXAMPLES"]
    for example in examples:
        if example.description:
            parts += [".PP", _escape(example.description)]
        lines = []
        for step in example.steps:
            lines.append(f"$ {step.command}")
            lines += step.output
        parts += [".PP", ".RS 4", ".nf", _escape("\n".join(lines)), ".fi", ".RE"]
    return parts


def _code_list(codes: tuple[Code, ...]) -> list[str]:
    return [f".TP\n\\fB{_escape(code.code)}\\fR\n{_escape(code.meaning)}"
            + (f" ({_escape(code.section)})" if code.section else "")
            for code in codes]


def _diagnostics() -> list[str]:
    return [".SH DIAGNOSTICS",
            _escape("Diagnostics go to standard error as path:line:column: severity[CODE]: "
                    "move N (Side) token: message [rules section]. Codes starting E- are "
                    "errors (the record is invalid), W- warnings, I- notes. The codes every "
                    "game shares:"),
            *_code_list(SHARED_CODES),
            ".PP",
            f"Each game adds codes of its own: see \\fB{_escape(CODES_PAGE)}\\fR(7) and "
            f"\\fB{_escape(PROGRAM)} games\\fR \\fIGAME\\fR \\fB\\-\\-codes\\fR."]


def _page(name: str, command: click.Command, ctx: click.Context, see_also: list[str],
          examples: list[Example]) -> str:
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
    parts += _examples(examples)
    parts += [".SH EXIT STATUS",
              "0 when every record is valid, 1 when a record is invalid (for \\fBanalyze\\fR "
              "only with \\-\\-strict), 2 for usage or I/O errors."]
    parts += _diagnostics()
    parts += [".SH SEE ALSO",
              ", ".join(f"\\fB{_escape(page)}\\fR({section})"
                        for page, section in [*((page, 1) for page in see_also),
                                              (CODES_PAGE, 7)])]
    return "\n".join(parts) + "\n"


def _codes_page() -> str:
    parts = [f'.TH "{CODES_PAGE.upper()}" "7" "" "{PROGRAM} {__version__}" '
             '"Miscellaneous Information"',
             ".SH NAME",
             f"{_escape(CODES_PAGE)} \\- the diagnostic codes of {_escape(PROGRAM)}",
             ".SH DESCRIPTION",
             _escape("Every diagnostic names a code: E- for an error (the record is invalid), "
                     "W- for a warning, I- for a note. The container, the sources and the "
                     "replay driver raise the shared codes; each game raises its own for its "
                     "own rules, citing the section of its rules reference."),
             ".SH SHARED CODES",
             *_code_list(SHARED_CODES)]
    for game in sorted(all_games(), key=lambda game: game.id):
        parts.append(f'.SH "{_escape(game.name.upper())} ({_escape(game.id)})"')
        parts += _code_list(game.codes) or ["Only the shared codes."]
    parts += [".SH SEE ALSO", f"\\fB{PROGRAM}\\fR(1), \\fB{PROGRAM} games\\fR \\fIGAME\\fR "
              "\\fB\\-\\-codes\\fR"]
    return "\n".join(parts) + "\n"


def render_man_pages(group: click.Group, docs: Path = DOCS) -> dict[str, str]:
    """File name → roff text, for the group, each subcommand and the codes page.

    A command's examples are those of ``docs/commands/<command>.md`` (the group's:
    ``docs/commands/index.md``); a page without examples has no EXAMPLES section.
    """
    def examples(page: str) -> list[Example]:
        path = docs / "commands" / f"{page}.md"
        return page_examples(path) if path.is_file() else []

    names = sorted(group.commands)
    pages = {f"{PROGRAM}.1": _page(PROGRAM, group, command_context(group, None),
                                   [f"{PROGRAM}-{name}" for name in names],
                                   examples("index"))}
    for name in names:
        pages[f"{PROGRAM}-{name}.1"] = _page(f"{PROGRAM}-{name}", group.commands[name],
                                             command_context(group, name), [PROGRAM],
                                             examples(name))
    pages[f"{CODES_PAGE}.7"] = _codes_page()
    return pages


def write_man_pages(directory: Path, docs: Path = DOCS) -> list[Path]:
    from notation_tools.cli import main

    if not (docs / "commands").is_dir():
        raise FileNotFoundError(f"{docs / 'commands'}: the man pages' examples are read from "
                                "the documentation of a source checkout")
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, text in render_man_pages(main, docs).items():
        path = directory / file_name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_man_pages(Path(sys.argv[1] if len(sys.argv) > 1 else "man")):
        print(written_path)
