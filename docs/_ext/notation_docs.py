"""Sphinx directives that write the generated parts of the documentation from the code.

* ``{click-command} NAME`` — a command's usage, description and options, from the Click
  command (``--help`` and the man pages read the same objects); no NAME: the program itself,
  with its commands.
* ``{game-table} GAME KIND`` — one table of a game, from its ``Game`` object: ``notations``
  (with an example move from the start position), ``options``, ``profiles``, ``codes`` or
  ``formats``.
* ``{shared-codes}`` — the diagnostic codes every game shares.

It also resolves a Python cross-reference that names an object by its short name from
another module's page: the package re-exports names (``notation_tools.Game`` is
``notation_tools.games.base.Game``), and a docstring written for the module that defines a
name (``:func:`options_of```) is shown under the package too. Only a reference that matches
exactly one documented object is resolved so.

Every directive builds docutils nodes directly, so no text from the code is read as markup.
A rules section a game table cites (``§6.1``) links to that heading of the game's rules
reference, which the game's page includes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import click
from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from notation_tools.cli import main
from tools.manpages import PROGRAM, command_context, help_paragraphs, option_rows
from notation_tools.codes import SHARED_CODES, Code
from notation_tools.games.base import Game, UnknownGameError, get_game

Cell = str | nodes.Node
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")


class section_ref(nodes.Inline, nodes.TextElement):  # noqa: N801 - docutils names nodes so
    """A rules section a table cites; replaced by a link to its heading once the page is read
    (:func:`link_sections`), or by its text where the page has no such heading."""


def _sections(text: str) -> Cell:
    """``text`` with each ``§N.M`` in it made a :class:`section_ref`."""
    parts: list[nodes.Node] = []
    position = 0
    for match in SECTION.finditer(text):
        if match.start() > position:
            parts.append(nodes.Text(text[position:match.start()]))
        parts.append(section_ref(match.group(0), match.group(0), number=match.group(1)))
        position = match.end()
    if not parts:
        return text
    if position < len(text):
        parts.append(nodes.Text(text[position:]))
    return nodes.inline("", "", *parts)


def link_sections(app: Sphinx, doctree: nodes.document) -> None:
    """Turn every :class:`section_ref` of a page into a link to the page's heading that starts
    with that section number."""
    headings = {}
    for section in doctree.findall(nodes.section):
        match = SECTION.match(section[0].astext()) if section.children else None
        if match and section["ids"]:
            headings.setdefault(match.group(1), section["ids"][0])
    for ref in list(doctree.findall(section_ref)):
        target = headings.get(ref["number"])
        if target is None:
            ref.replace_self(nodes.Text(ref.astext()))
        else:
            ref.replace_self(nodes.reference("", ref.astext(), internal=True, refid=target))


def _cell(value: Cell) -> nodes.entry:
    entry = nodes.entry()
    if isinstance(value, nodes.Node):
        entry += nodes.paragraph("", "", value)
    else:
        entry += nodes.paragraph(text=value)
    return entry


def _table(headers: Sequence[str], rows: Sequence[Sequence[Cell]],
           widths: Sequence[int]) -> nodes.table:
    table = nodes.table(classes=["generated"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += nodes.row("", *(_cell(header) for header in headers))
    group += head
    body = nodes.tbody()
    for row in rows:
        body += nodes.row("", *(_cell(value) for value in row))
    group += body
    return table


def _code_rows(codes: Sequence[Code]) -> list[list[Cell]]:
    return [[nodes.literal(text=code.code), code.severity, code.meaning,
             _sections(code.section or "")] for code in codes]


CODE_HEADERS = ("code", "severity", "meaning", "rules section")


class ClickCommand(SphinxDirective):
    """The usage, description and options of one command, from its Click object."""

    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0] if self.arguments else None
        if name is not None and name not in main.commands:
            raise self.error(f"no command {name!r} (commands: {', '.join(sorted(main.commands))})")
        command = main if name is None else main.commands[name]
        ctx = command_context(main, name)
        usage = f"{ctx.command_path} {' '.join(command.collect_usage_pieces(ctx))}"
        out: list[nodes.Node] = [nodes.literal_block(usage, usage, language="text")]
        out += [nodes.paragraph(text=text) for text in help_paragraphs(command.help or "")]
        rows = option_rows(command, ctx)
        if rows:
            options = nodes.definition_list()
            for names, help_text in rows:
                options += nodes.definition_list_item(
                    "", nodes.term("", "", nodes.literal(text=names)),
                    nodes.definition("", nodes.paragraph(text=help_text)))
            out.append(options)
        if isinstance(command, click.Group):
            listing = nodes.bullet_list()
            for sub_name, sub in sorted(command.commands.items()):
                link = addnodes.pending_xref("", refdomain="std", reftype="doc",
                                             reftarget=f"/commands/{sub_name}", refexplicit=True)
                link += nodes.literal(text=f"{PROGRAM} {sub_name}")
                item = nodes.paragraph("", "", link,
                                       nodes.Text(f": {sub.get_short_help_str(limit=200)}"))
                listing += nodes.list_item("", item)
            out.append(listing)
        return out


def _example_move(game: Game[Any, Any]) -> list[str]:
    """One move of the start position in every notation of the game: the first whose texts
    all differ, so the table shows what each notation adds."""
    position = game.start_position(game.parse_rules(None))
    first: list[str] | None = None
    for move in position.legal_moves():
        texts = [game.format_move(move, position, notation) for notation in game.notations]
        first = first or texts
        if len(set(texts)) == len(texts) and texts[0] != "--":
            return texts
    return first or ["" for _ in game.notations]


class GameTable(SphinxDirective):
    """One table of a game's data, from its ``Game`` object."""

    required_arguments = 2
    KINDS = ("notations", "options", "profiles", "codes", "formats")

    def run(self) -> list[nodes.Node]:
        name, kind = self.arguments
        try:
            game = get_game(name)
        except UnknownGameError as error:
            raise self.error(str(error)) from None
        if kind not in self.KINDS:
            raise self.error(f"no table {kind!r} (tables: {', '.join(self.KINDS)})")
        if kind == "notations":
            examples = _example_move(game)
            rows: list[list[Cell]] = [
                [nodes.literal(text=notation), "yes" if index == 0 else "",
                 nodes.literal(text=example)]
                for index, (notation, example) in enumerate(zip(game.notations, examples))]
            return [_table(("notation", "default", "the start position's move"), rows,
                           (2, 1, 3))]
        if kind == "options":
            rows = [[nodes.literal(text=option.name), option.default,
                     ", ".join(option.values) if option.values else "as the option says",
                     option.help, _sections(option.spec)] for option in game.options]
            return [_table(("option", "default", "values", "what it decides", "section"),
                           rows, (2, 1, 2, 5, 1))]
        if kind == "profiles":
            rows = [[nodes.literal(text=profile),
                     "yes" if profile == game.default_profile else "",
                     "; ".join(f"{option}={value}" for option, value in changes.items())
                     or "every option at its default"]
                    for profile, changes in game.profiles.items()]
            return [_table(("profile", "default", "options it changes"), rows, (1, 1, 5))]
        if kind == "codes":
            if not game.codes:
                return [nodes.paragraph(text=f"{game.name} raises only the shared codes.")]
            return [_table(CODE_HEADERS, _code_rows(game.codes), (2, 1, 6, 1))]
        if not game.file_formats:
            return [nodes.paragraph(text=f"{game.name} has no file format of its own: its "
                                         "records are PGN or JSON.")]
        rows = [[nodes.literal(text=fmt.name), fmt.help,
                 ", ".join(fmt.suffixes) or "recognised by content",
                 "read and written" if fmt.write else "read only"]
                for fmt in game.file_formats]
        return [_table(("format", "what it is", "file names", "convert"), rows, (1, 5, 2, 2))]


class SharedCodes(SphinxDirective):
    """The diagnostic codes of the container, the sources and the replay driver."""

    def run(self) -> list[nodes.Node]:
        return [_table(CODE_HEADERS[:3], [row[:3] for row in _code_rows(SHARED_CODES)],
                       (2, 1, 7))]


def resolve_by_short_name(app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref,
                          contnode: nodes.TextElement) -> nodes.reference | None:
    """The one documented Python object whose full name ends with the reference's target."""
    if node.get("refdomain") != "py" or "." in node["reftarget"].lstrip("~."):
        return None
    domain = env.get_domain("py")
    found = domain.find_obj(env, "", "", node["reftarget"].lstrip("~."), None, 1)  # type: ignore[attr-defined]
    canonical = {entry.node_id: (name, entry) for name, entry in found if not entry.aliased}
    if len(canonical) != 1:
        return None
    [(name, entry)] = canonical.values()
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode,
                        name)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("missing-reference", resolve_by_short_name)
    app.connect("doctree-read", link_sections)
    app.add_directive("click-command", ClickCommand)
    app.add_directive("game-table", GameTable)
    app.add_directive("shared-codes", SharedCodes)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
