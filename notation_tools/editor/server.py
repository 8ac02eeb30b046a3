"""``notation-tools lsp``: the Language Server Protocol server over stdio, built on pygls.

The server holds one :class:`EditorDocument` per open document. On open it checks the
document at once; on each change it waits ``debounce`` seconds (a later change restarts the
wait), then checks again, replaying only the records whose text changed, and publishes every
diagnostic. Columns go to clients in UTF-16 code units. Needs the ``lsp`` extra.
"""

from __future__ import annotations

import asyncio

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from notation_tools.editor.actions import code_actions
from notation_tools.editor.document import (
    EditorDocument,
    RecordText,
    Span,
    codepoint_column,
    utf16_column,
)
from notation_tools.editor.features import completions, hover
from notation_tools.editor.references import section_url
from notation_tools.records.diagnostics import WARNING, Diagnostic
from notation_tools.version import __version__

DEBOUNCE = 0.2
"""Seconds between the last change and the new check (the ``debounce`` initialization
option, or ``lsp --debounce``, sets another)."""
SEVERITIES = {"error": types.DiagnosticSeverity.Error,
              WARNING: types.DiagnosticSeverity.Warning}


class RecordServer:
    """The server's state: the documents open, and the pending checks of changed ones."""

    def __init__(self, debounce: float = DEBOUNCE) -> None:
        self.server = LanguageServer("notation-tools", __version__)
        self.debounce = debounce
        self.documents: dict[str, EditorDocument] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        _register(self)

    def text(self, uri: str) -> str:
        return self.server.workspace.get_text_document(uri).source

    def check(self, uri: str) -> None:
        """Check the document now and publish its diagnostics."""
        document = self.documents.get(uri)
        if document is None:
            document = self.documents[uri] = EditorDocument(self.text(uri))
        else:
            document.update(self.text(uri))
        self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[lsp_diagnostic(text, found)
                                  for text, found in document.diagnostics()]))

    def changed(self, uri: str) -> None:
        """Check the document once no change has come for ``debounce`` seconds."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.ensure_future(self._later(uri))

    async def _later(self, uri: str) -> None:
        await asyncio.sleep(self.debounce)
        self.pending.pop(uri, None)
        self.check(uri)

    def document(self, uri: str) -> EditorDocument:
        """The document as it is now (checked again if a change is pending)."""
        if uri in self.pending or uri not in self.documents:
            waiting = self.pending.pop(uri, None)
            if waiting is not None:
                waiting.cancel()
            self.check(uri)
        return self.documents[uri]

    def place(self, uri: str, position: types.Position) -> tuple[EditorDocument, int, int]:
        """The document and the place of an LSP position in it (code-point column)."""
        document = self.document(uri)
        line = document.lines[position.line] if position.line < len(document.lines) else ""
        return document, position.line, codepoint_column(line, position.character)


def lsp_range(lines: list[str], span: Span, first_line: int = 0) -> types.Range:
    """An LSP range (UTF-16 columns) of a span of ``lines``, whose first is document line
    ``first_line``."""
    def text(row: int) -> str:
        return lines[row - first_line] if 0 <= row - first_line < len(lines) else ""

    return types.Range(
        start=types.Position(line=span.line, character=utf16_column(text(span.line), span.column)),
        end=types.Position(line=span.end_line,
                           character=utf16_column(text(span.end_line), span.end_column)))


def lsp_diagnostic(text: RecordText, found: Diagnostic) -> types.Diagnostic:
    """A diagnostic as LSP publishes it: its word's range, severity, code, the rules
    section's link, and the message with the move it is about."""
    span = text.word_span(found.line, found.column)
    game = text.checks[0].replay.game if text.checks else None
    href = section_url(game, found.rule)
    where = f"{found.path}:{found.line}:{found.column}: {found.severity}[{found.code}]: "
    message = str(found).removeprefix(where)
    return types.Diagnostic(
        range=lsp_range(text.lines, span, text.first_line),
        message=message, severity=SEVERITIES.get(found.severity,
                                                 types.DiagnosticSeverity.Information),
        code=found.code, source="notation-tools",
        code_description=types.CodeDescription(href=href) if href else None)


def _register(state: RecordServer) -> None:
    server = state.server

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
            state.debounce = float(options["debounce"])

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        state.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        state.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        state.documents.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    _register_requests(state)


def _register_requests(state: RecordServer) -> None:
    server = state.server

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(params: types.HoverParams) -> types.Hover | None:
        document, line, column = state.place(params.text_document.uri, params.position)
        found = hover(document, line, column)
        if found is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=found.markdown),
                           range=lsp_range(document.lines, found.span))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION)
    def on_completion(params: types.CompletionParams) -> types.CompletionList:
        document, line, column = state.place(params.text_document.uri, params.position)
        items = [types.CompletionItem(
            label=item.label, detail=item.detail, kind=types.CompletionItemKind.Value,
            text_edit=types.TextEdit(range=lsp_range(document.lines, item.span),
                                     new_text=item.label))
            for item in completions(document, line, column)]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]))
    def on_code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        document = state.document(uri)
        answer = []
        for action in code_actions(document, params.range.start.line, params.range.end.line):
            edits = [types.TextEdit(range=lsp_range(document.lines, edit.span),
                                    new_text=edit.new_text) for edit in action.edits]
            answer.append(types.CodeAction(
                title=action.title, kind=action.kind,
                edit=types.WorkspaceEdit(changes={uri: edits})))
        return answer


def serve(debounce: float = DEBOUNCE) -> None:
    """Run the server on standard input and output until the client ends it."""
    RecordServer(debounce).server.start_io()
