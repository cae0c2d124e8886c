"""The language server: pygls's server with arbo's features, over stdio (`arbo lsp`).

Each handler reads the open record as documents.py cuts it and answers from the features'
modules beside this one; this module only turns their values into the protocol's."""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from arbo_notation import __version__
from arbo_notation.errors import Severity
from arbo_notation.lsp.completion import Choice, choices_at
from arbo_notation.lsp.documents import Cut, DiagnosticsCache, Found, check_cut

#: How long the text must rest before it is checked again (as ruff's and pyright's servers wait).
DEBOUNCE_SECONDS = 0.15
#: A file larger than this is not read for any feature but its diagnostics' note (documents.py
#: caps those): a language server answers in milliseconds or not at all.
MAX_DOCUMENT_CHARS = 64 << 20


class ArboServer(LanguageServer):
    """pygls's server with the record files' cuts and caches."""

    def __init__(self) -> None:
        super().__init__("arbo", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.cache = DiagnosticsCache()
        self._cuts: dict[str, tuple[int | None, str, Cut]] = {}
        self._pending: dict[str, asyncio.TimerHandle] = {}

    def cut(self, document: TextDocument) -> Cut:
        """The document's text cut into games, made once a version."""
        kept = self._cuts.get(document.uri)
        source = document.source
        if kept is not None and kept[0] == document.version and kept[1] is source:
            return kept[2]
        cut = Cut(source)
        self._cuts[document.uri] = (document.version, source, cut)
        return cut

    def forget(self, uri: str) -> None:
        self._cuts.pop(uri, None)
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()

    def publish_later(self, uri: str, delay: float = DEBOUNCE_SECONDS) -> None:
        """Publish the document's diagnostics once its text has rested ``delay`` seconds."""
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._pending[uri] = asyncio.get_running_loop().call_later(delay, self.publish, uri)

    def publish(self, uri: str) -> None:
        self._pending.pop(uri, None)
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return
        cut = self.cut(document)
        found = check_cut(cut, document.filename or uri, self.cache)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri, version=document.version, diagnostics=[_diagnostic(document, cut, f) for f in found]
            )
        )


def client_range(document: TextDocument, cut: Cut, line: int, start: int, end: int) -> types.Range:
    """A range of one line, in characters, in the client's units (UTF-16 unless agreed otherwise)."""
    text = cut.lines(line + 1)
    if text.isascii():
        return types.Range(types.Position(line, start), types.Position(line, end))
    codec = document.position_codec
    first = codec.position_to_client_units([text], types.Position(0, start))
    last = codec.position_to_client_units([text], types.Position(0, end))
    return types.Range(types.Position(line, first.character), types.Position(line, last.character))


def server_column(document: TextDocument, cut: Cut, position: types.Position) -> int:
    """The character of a client's position on its line."""
    text = cut.lines(position.line + 1)
    if text.isascii():
        return min(position.character, len(text))
    return document.position_codec.position_from_client_units([text], types.Position(0, position.character)).character


def _diagnostic(document: TextDocument, cut: Cut, found: Found) -> types.Diagnostic:
    d = found.diagnostic
    return types.Diagnostic(
        range=client_range(document, cut, found.line, found.start, found.end),
        message=d.message,
        severity=types.DiagnosticSeverity.Error if d.severity is Severity.ERROR else types.DiagnosticSeverity.Warning,
        code=str(d.code),
        source="arbo",
    )


def make_server() -> ArboServer:
    server = ArboServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: ArboServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.publish_later(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: ArboServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.publish_later(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ArboServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.forget(uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[" ", "@", "/", ":", "[", ","]),
    )
    def completion(ls: ArboServer, params: types.CompletionParams) -> types.CompletionList:
        document = ls.workspace.get_text_document(params.text_document.uri)
        cut = ls.cut(document)
        line = params.position.line
        column = server_column(document, cut, params.position)
        choices = choices_at(cut, line, column)
        return types.CompletionList(
            is_incomplete=False, items=[_item(document, cut, line, column, c, i) for i, c in enumerate(choices)]
        )

    return server


_KINDS = {"move": types.CompletionItemKind.Value, "key": types.CompletionItemKind.Property}


def _item(document: TextDocument, cut: Cut, line: int, column: int, choice: Choice, order: int) -> types.CompletionItem:
    return types.CompletionItem(
        label=choice.label,
        kind=_KINDS.get(choice.kind, types.CompletionItemKind.EnumMember),
        sort_text=f"{order:05d}",
        filter_text=choice.text.strip(),
        text_edit=types.TextEdit(client_range(document, cut, line, choice.start, column), choice.text),
    )


def serve() -> None:
    """Serve on standard input and output until the client says exit or goes away.

    The protocol has standard output to itself: pygls writes to (and closes) a copy of it, and
    anything else printed goes to standard error instead of corrupting a message."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    kept, sys.stdout = sys.stdout, sys.stderr
    try:
        make_server().start_io(sys.stdin.buffer, channel)
    finally:
        sys.stdout = kept
