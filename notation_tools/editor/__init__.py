"""Records in an editor: the document model, hover, completion and code actions of the
language server (``notation-tools lsp``, :mod:`notation_tools.editor.server`, which alone
needs the ``lsp`` extra)."""
