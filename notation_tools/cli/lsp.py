"""``notation-tools lsp``: the language server, for editors (the ``lsp`` extra)."""

from __future__ import annotations

import click


@click.command()
@click.option("--debounce", type=click.FloatRange(min=0), default=0.2, show_default=True,
              metavar="SECONDS",
              help="Wait this long after the last change before checking a document again "
                   "(a client's 'debounce' initialization option overrides it).")
def lsp(debounce: float) -> None:
    """Run the language server for record files, speaking LSP on standard input and output.

    An editor starts it and shows, as the records are typed, every diagnostic with its rules
    section, the move and the position on hover, the legal moves as completions, and fixes
    as code actions (docs/editors.md sets up VS Code, Neovim and Emacs). Needs the lsp extra:
    pip install 'notation-tools[lsp]'.
    """
    try:
        from notation_tools.editor.server import serve  # noqa: PLC0415 - the extra, on use
    except ImportError as error:
        raise click.UsageError(f"the language server needs the lsp extra ({error.name} is "
                               "missing): pip install 'notation-tools[lsp]'") from None
    serve(debounce)
