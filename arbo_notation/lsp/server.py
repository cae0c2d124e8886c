"""The language server: pygls's server with arbo's features, over stdio (`arbo lsp`).

Each handler reads the open record as documents.py cuts it and answers from the features'
modules beside this one; this module only turns their values into the protocol's."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Coroutine, Iterable, Mapping
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument

from arbo_notation import __version__
from arbo_notation.errors import Severity
from arbo_notation.lsp.completion import Choice, choices_at
from arbo_notation.lsp.documents import MAX_CHECKED_CHARS, Cut, DiagnosticsCache, Found, check_cut, check_steps, placed
from arbo_notation.lsp.fixes import fixes
from arbo_notation.lsp.folders import Bounds, read_record, records_in
from arbo_notation.lsp.formatting import canonical
from arbo_notation.lsp.hints import hints
from arbo_notation.lsp.hover import hover_text
from arbo_notation.lsp.outline import Span, Symbol, card_places, folds, symbols
from arbo_notation.lsp.tables import Replays
from arbo_notation.lsp.tokens import TOKEN_TYPES, tokens
from arbo_notation.runtime.sources import RECORD_SUFFIX

#: How long the text must rest before it is checked again: a word typed is one check, not one a key.
DEBOUNCE_SECONDS = 0.15
#: A record longer than this is not formatted (documents.py's bound on what is checked): its
#: reading would hold the editor for seconds; `arbo fmt` formats it a game at a time.
MAX_FORMATTED_CHARS = MAX_CHECKED_CHARS
#: The files the client is asked to watch (when it lets a server register watchers).
WATCHED_RECORDS = "**/*.arb"


def workspace_options(options: object) -> Bounds | None:
    """What the client's initialization options ask of the workspace's diagnostics: the bounds
    they are checked within, or None for none at all (``"workspaceDiagnostics": false``). A value
    of the wrong type is not heeded (bad input from a client is normal input)."""
    given = options if isinstance(options, Mapping) else {}
    if given.get("workspaceDiagnostics") is False:
        return None
    default = Bounds()

    def count(key: str, fallback: int) -> int:
        value = given.get(key)
        return value if type(value) is int and value >= 0 else fallback

    return Bounds(count("workspaceMaxFiles", default.files), count("workspaceMaxBytes", default.size))


class ArboServer(LanguageServer):
    """pygls's server with the record files' cuts and caches."""

    def __init__(self) -> None:
        super().__init__("arbo", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.cache = DiagnosticsCache()
        self.replays = Replays()
        self._cuts: dict[str, tuple[int | None, str, Cut]] = {}
        self._pending: dict[str, asyncio.TimerHandle] = {}
        #: How much of the workspace is checked on disk; None: only the open files.
        self.bounds: Bounds | None = Bounds()
        self._stale: dict[str, None] = {}  # files on disk to check, in order
        self._on_disk: set[str] = set()  # files not open whose diagnostics are shown (cleared once gone)
        self._tasks: set[asyncio.Task[None]] = set()
        self._checker: asyncio.Task[None] | None = None
        self._found_files = self._found_bytes = 0  # what the scans found, against the bounds
        self._bounded = False  # a bound was reached (and said)

    def cut(self, document: TextDocument) -> Cut:
        """The document's text cut into games, made once a version."""
        kept = self._cuts.get(document.uri)
        source = document.source
        if kept is not None and kept[0] == document.version and kept[1] is source:
            return kept[2]
        cut = Cut(source)
        self._cuts[document.uri] = (document.version, source, cut)
        return cut

    def opened(self, uri: str) -> tuple[TextDocument, Cut] | None:
        """An open document and its cut; None for a document the editor has not opened (the
        server reads no file: what it serves is what the editor sends)."""
        document = self.workspace.text_documents.get(uri)
        return None if document is None else (document, self.cut(document))

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
                uri=uri, version=document.version, diagnostics=[protocol_diagnostic(document, cut, f) for f in found]
            )
        )

    # -- the workspace's files on disk ------------------------------------------------------------

    def background(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a coroutine beside the requests, kept until it ends (cancelled at shutdown)."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def stop_background(self) -> None:
        """Stop checking the workspace's files: no bounds left, every background task cancelled."""
        self.bounds = None
        for task in list(self._tasks):
            task.cancel()

    def folders(self) -> list[str]:
        """The workspace's folders on this machine: its folders, else its root."""
        uris = [folder.uri for folder in self.workspace.folders.values()] or [self.workspace.root_uri]
        paths = [to_fs_path(uri) for uri in uris if uri and uri.startswith("file:")]
        return [path for path in paths if path and os.path.isdir(path)]

    def in_workspace(self, uri: str) -> bool:
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if not path:
            return False
        return any(os.path.commonpath([path, folder]) == folder for folder in map(os.path.abspath, self.folders()))

    async def watch(self) -> None:
        """Ask the client to tell of the record files created, changed and deleted."""
        watcher = types.FileSystemWatcher(glob_pattern=WATCHED_RECORDS)
        registration = types.Registration(
            id="arbo-records",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[watcher]),
        )
        try:
            await self.client_register_capability_async(types.RegistrationParams([registration]))
        except JsonRpcException as error:  # a client that refuses: the files are checked when opened
            logging.getLogger(__name__).warning("the client did not watch the record files: %s", error)

    async def scan(self, folders: list[str]) -> None:
        """Find the records of these folders (in a thread: the walk waits on the disk) and check
        them, within what is left of the bounds; say once when a bound left some out."""
        bounds = self.bounds
        if bounds is None or self._bounded:
            return
        for folder in folders:
            left = Bounds(bounds.files - self._found_files, bounds.size - self._found_bytes, bounds.folders)
            found = await asyncio.to_thread(records_in, folder, left)
            self._found_files += len(found.paths)
            self._found_bytes += found.size
            self.recheck(from_fs_path(path) for path in found.paths)
            if found.bounded:
                self._bounded = True
                self.window_show_message(
                    types.ShowMessageParams(
                        types.MessageType.Warning,
                        f"arbo: the workspace's diagnostics are those of its first {self._found_files} record files "
                        f"({bounds.files} files and {bounds.size >> 20} MB at most): the others are checked when "
                        "opened (arbo check FOLDER checks them all)",
                    )
                )
                return

    def recheck(self, uris: Iterable[str]) -> None:
        """Check these files on disk again, after those waiting already."""
        for uri in uris:
            self._stale[uri] = None
        if self._stale and (self._checker is None or self._checker.done()):
            self._checker = self.background(self._check_stale())

    def cleared(self, uri: str) -> None:
        """A file gone from disk (or from the workspace): its diagnostics go (unless the editor
        has it open)."""
        self._stale.pop(uri, None)
        if uri in self._on_disk and uri not in self.workspace.text_documents:
            self._on_disk.discard(uri)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def back_to_disk(self, uri: str) -> bool:
        """A file the editor closed: whether its diagnostics become those of the file on disk
        (a record of the workspace), to be checked again; the editor's stay until then (and go if
        the file is not on disk)."""
        if self.bounds is None or not uri.endswith(RECORD_SUFFIX) or not self.in_workspace(uri):
            return False
        self._on_disk.add(uri)
        self.recheck([uri])
        return True

    def clear_outside(self) -> None:
        """The diagnostics of the files no longer in the workspace go (a folder taken out)."""
        for uri in sorted(self._on_disk | set(self._stale)):
            if not self.in_workspace(uri):
                self.cleared(uri)

    async def _check_stale(self) -> None:
        """Check the files waiting, one game at a time: between two games the server answers the
        editor. A file the editor has open is not checked: its diagnostics follow the editor's text."""
        while self._stale and self.bounds is not None:
            uri = next(iter(self._stale))
            del self._stale[uri]
            path = to_fs_path(uri)
            if uri in self.workspace.text_documents or not path:
                continue
            read = await asyncio.to_thread(read_record, path, self.bounds.size)
            if read is None:
                self.cleared(uri)
                continue
            document = TextDocument(uri, read.text or "", position_codec=self.workspace.position_codec)
            cut = Cut(document.source)
            if read.text is None:
                found = [placed(d, cut.lines) for d in read.diagnostics]
            else:
                steps = check_steps(cut, path, self.cache)
                while True:
                    try:
                        next(steps)
                    except StopIteration as done:
                        found = done.value
                        break
                    await asyncio.sleep(0)
            if uri in self.workspace.text_documents or uri in self._stale:
                continue  # opened, or changed again, meanwhile
            self._on_disk.add(uri)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri, diagnostics=[protocol_diagnostic(document, cut, f) for f in found]
                )
            )


def client_range(document: TextDocument, cut: Cut, line: int, start: int, end: int) -> types.Range:
    """A range of one line, in characters, in the client's units (UTF-16 unless agreed otherwise)."""
    text = cut.lines(line + 1)
    if line == 0 and cut.bom:  # the editor's line 1 holds the mark the reading dropped
        text, start, end = "\ufeff" + text, start + 1, end + 1
    if text.isascii():
        return types.Range(types.Position(line, start), types.Position(line, end))
    codec = document.position_codec
    first = codec.position_to_client_units([text], types.Position(0, start))
    last = codec.position_to_client_units([text], types.Position(0, end))
    return types.Range(types.Position(line, first.character), types.Position(line, last.character))


def server_column(document: TextDocument, cut: Cut, position: types.Position) -> int:
    """The character of a client's position on its line."""
    text = cut.lines(position.line + 1)
    if position.line == 0 and cut.bom:
        marked = "\ufeff" + text
        at = document.position_codec.position_from_client_units([marked], types.Position(0, position.character))
        return max(0, at.character - 1)
    if text.isascii():
        return min(position.character, len(text))
    return document.position_codec.position_from_client_units([text], types.Position(0, position.character)).character


def protocol_diagnostic(document: TextDocument, cut: Cut, found: Found) -> types.Diagnostic:
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
        if not ls.back_to_disk(uri):
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.INITIALIZE)
    def initialize(ls: ArboServer, params: types.InitializeParams) -> None:
        ls.bounds = workspace_options(params.initialization_options)

    @server.feature(types.INITIALIZED)
    def initialized(ls: ArboServer, params: types.InitializedParams) -> None:
        if ls.bounds is None:
            return
        watching = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
        if watching and watching.dynamic_registration:
            ls.background(ls.watch())
        ls.background(ls.scan(ls.folders()))

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_workspace_folders(ls: ArboServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        if ls.bounds is None:
            return
        ls.clear_outside()
        added = [to_fs_path(folder.uri) for folder in params.event.added if folder.uri.startswith("file:")]
        ls.background(ls.scan([path for path in added if path and os.path.isdir(path)]))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: ArboServer, params: types.DidChangeWatchedFilesParams) -> None:
        if ls.bounds is None:
            return
        for change in params.changes:
            if not change.uri.endswith(RECORD_SUFFIX):
                continue
            if change.type == types.FileChangeType.Deleted:
                ls.cleared(change.uri)
            elif ls.in_workspace(change.uri):
                ls.recheck([change.uri])

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: ArboServer, params: None) -> None:
        ls.stop_background()

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[" ", "@", "/", ":", "[", ","]),
    )
    def completion(ls: ArboServer, params: types.CompletionParams) -> types.CompletionList:
        served = ls.opened(params.text_document.uri)
        if served is None:
            return types.CompletionList(is_incomplete=False, items=[])
        document, cut = served
        line = params.position.line
        column = server_column(document, cut, params.position)
        choices = choices_at(cut, line, column)
        return types.CompletionList(
            is_incomplete=False, items=[_item(document, cut, line, column, c, i) for i, c in enumerate(choices)]
        )

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: ArboServer, params: types.HoverParams) -> types.Hover | None:
        served = ls.opened(params.text_document.uri)
        if served is None:
            return None
        document, cut = served
        line = params.position.line
        text = hover_text(cut, line, server_column(document, cut, params.position), ls.replays)
        if text is None:
            return None
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: ArboServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        served = ls.opened(params.text_document.uri)
        if served is None:
            return None
        document, cut = served
        if len(document.source) > MAX_FORMATTED_CHARS:
            return None
        formatted = canonical(document.source)
        if formatted is None or formatted == document.source:
            return None if formatted is None else []
        lines = document.source.split("\n")
        end = document.position_codec.position_to_client_units(lines, types.Position(len(lines) - 1, len(lines[-1])))
        return [types.TextEdit(types.Range(types.Position(0, 0), end), formatted)]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: ArboServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        served = ls.opened(params.text_document.uri)
        if served is None:
            return []
        document, cut = served
        return [_symbol(document, cut, s) for s in symbols(cut)]

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding_range(ls: ArboServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
        served = ls.opened(params.text_document.uri)
        if served is None:
            return []
        _, cut = served
        return [
            types.FoldingRange(first, last, kind=types.FoldingRangeKind.Region)
            for first, last in sorted(set(folds(cut)))
        ]

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: ArboServer, params: types.DefinitionParams) -> list[types.Location]:
        served = ls.opened(params.text_document.uri)
        if served is None:
            return []
        document, cut = served
        column = server_column(document, cut, params.position)
        return [
            types.Location(document.uri, _range(document, cut, span))
            for span in card_places(cut, params.position.line, column)
        ]

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    def inlay_hint(ls: ArboServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        served = ls.opened(params.text_document.uri)
        if served is None:
            return []
        document, cut = served
        found = hints(cut, params.range.start.line, params.range.end.line, ls.replays)
        return [
            types.InlayHint(
                position=client_range(document, cut, h.line, h.column, h.column).start,
                label=h.label,
                tooltip=h.tooltip,
                padding_left=True,
            )
            for h in found
        ]

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: ArboServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        served = ls.opened(params.text_document.uri)
        if served is None:
            return []
        document, cut = served
        actions = []
        for diagnostic in params.context.diagnostics:
            if diagnostic.source != "arbo":
                continue
            line = diagnostic.range.start.line
            column = server_column(document, cut, diagnostic.range.start)
            code = str(diagnostic.code) if diagnostic.code is not None else ""
            for fix in fixes(cut, line, column, diagnostic.message, code, ls.replays):
                edit = types.TextEdit(client_range(document, cut, fix.line, fix.start, fix.end), fix.text)
                actions.append(
                    types.CodeAction(
                        title=fix.title,
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        is_preferred=True,
                        edit=types.WorkspaceEdit(changes={document.uri: [edit]}),
                    )
                )
        return actions

    @server.feature(
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
        types.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=[]),
    )
    def semantic_tokens(ls: ArboServer, params: types.SemanticTokensParams) -> types.SemanticTokens:
        served = ls.opened(params.text_document.uri)
        if served is None:
            return types.SemanticTokens(data=[])
        document, cut = served
        data: list[int] = []
        last_line = last_start = 0
        for token in tokens(cut):
            where = client_range(document, cut, token.line, token.start, token.end)
            line, start = where.start.line, where.start.character
            data += [
                line - last_line,
                start - last_start if line == last_line else start,
                where.end.character - start,
                token.kind,
                0,
            ]
            last_line, last_start = line, start
        return types.SemanticTokens(data=data)

    return server


def _range(document: TextDocument, cut: Cut, span: Span) -> types.Range:
    first = client_range(document, cut, span.line, span.start, span.start)
    last = client_range(document, cut, span.end_line, span.end, span.end)
    return types.Range(first.start, last.end)


_SYMBOL_KINDS = {
    "game": types.SymbolKind.Module,
    "turn": types.SymbolKind.Event,
    "variation": types.SymbolKind.Namespace,
}


def _symbol(document: TextDocument, cut: Cut, symbol: Symbol) -> types.DocumentSymbol:
    whole = _range(document, cut, symbol.span)
    first_line = client_range(document, cut, symbol.span.line, symbol.span.start, len(cut.lines(symbol.span.line + 1)))
    return types.DocumentSymbol(
        name=symbol.name,
        kind=_SYMBOL_KINDS[symbol.kind],
        range=whole,
        selection_range=first_line if symbol.span.line != symbol.span.end_line else whole,
        children=[_symbol(document, cut, child) for child in symbol.children],
    )


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
