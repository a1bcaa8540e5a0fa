"""`zero lsp`: the pygls language server for `.0` graphs and `.0c` memory documents.

Each handler is a few lines: it finds the document's analysis (parsed and
checked once per version, on a worker thread: `zerolang.lsp.worker`) and
hands it to the feature module that knows the answer (`diagnostics`,
`actions`, `hover`, `navigation`, `completion`, `symbols`, `compact`).
Positions are converted in the encoding the client chose.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from pathlib import Path
from typing import Any, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCNotification, LanguageServerProtocol
from pygls.workspace import TextDocument

from zerolang import __version__
from zerolang.lsp import actions, adapter, completion, navigation, symbols
from zerolang.lsp import compact as compact_features
from zerolang.lsp import hover as hover_feature
from zerolang.lsp.analysis import Analysis, analyse
from zerolang.lsp.diagnostics import config_diagnostic, diagnostics
from zerolang.lsp.positions import LineIndex
from zerolang.lsp.worker import Ticket, Worker
from zerolang.util.escapes import escaped

logger = logging.getLogger(__name__)

REQUEST_FAILED = -32803  # LSP's RequestFailed
# Seconds to wait after a change before checking: typing a word is one check, not one per key.
DEBOUNCE = 0.15


class ZeroProtocol(LanguageServerProtocol):
    """pygls' protocol, but a request that fails is answered without a traceback on stderr.

    A refused request (a `JsonRpcException` a handler raises on purpose, e.g. a rename to an
    id that is taken) is answered with its LSP error and logged as one line; anything else a
    handler raises is answered as an internal error, also one line: never a traceback.
    """

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        error = None if future.cancelled() else future.exception()
        if error is None:
            super()._send_handler_result(future, msg_id=msg_id)
            return
        self._request_futures.pop(msg_id, None)
        if isinstance(error, JsonRpcException):
            logger.warning("zero lsp: request refused: %s", escaped(str(error), exact=False))
            answer = error
        else:
            described = escaped(f"{type(error).__name__}: {error}", exact=False)
            logger.error("zero lsp: internal error: %s", described)
            answer = JsonRpcInternalError(f"internal error: {described}")
        self._send_response(msg_id, error=answer.to_response_error())

    def __init__(self, server: Any, converter: Any) -> None:
        super().__init__(server, converter)
        self._writes: set[asyncio.Future[Any]] = set()

    def serialise_notification(self, method: str, params: Any) -> bytes:
        """The whole message `notify(method, params)` would send, made wherever it is called.

        A thousand diagnostics take tens of milliseconds to convert and serialise: the
        worker thread does it (the converter only reads its hooks), so the event loop,
        which answers requests, only writes the bytes (`send_serialised`).
        """
        kind = self.get_message_type(method) or JsonRPCNotification
        message = kind(method=method, params=params, jsonrpc=self.VERSION)
        body = json.dumps(message, default=self._serialize_message).encode(self.CHARSET)
        if not self._include_headers:
            return body
        header = f"Content-Length: {len(body)}\r\n"
        header += f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        return header.encode(self.CHARSET) + body

    def send_serialised(self, message: bytes) -> None:
        """Write a message `serialise_notification` made (on the event loop, as every write)."""
        if self.writer is None:
            logger.error("zero lsp: no transport to send to")
            return
        written = self.writer.write(message)
        if inspect.isawaitable(written):  # an asynchronous transport: keep the write until it is done
            pending = asyncio.ensure_future(written)
            self._writes.add(pending)
            pending.add_done_callback(self._writes.discard)


class ZeroLanguageServer(LanguageServer):
    """A language server that keeps one `Analysis` per open `.0` document and version."""

    def __init__(self) -> None:
        super().__init__(
            "zero-lsp",
            __version__,
            protocol_cls=ZeroProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self.analyses: dict[str, tuple[int | None, str, Analysis]] = {}
        self.debounce = DEBOUNCE
        self.worker = Worker(self._delivered)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lines: dict[str, tuple[int | None, str, LineIndex]] = {}
        self.config_problems: dict[str, adapter.ConfigProblem] = {}  # pyproject.toml URI -> what is wrong

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)

    def document(self, uri: str) -> TextDocument:
        return self.workspace.get_text_document(uri)

    def _kept(self, uri: str, version: int | None, source: str) -> Analysis | None:
        """The kept analysis of exactly this text of the document, if there is one."""
        cached = self.analyses.get(uri)
        return cached[2] if cached is not None and cached[:2] == (version, source) else None

    def analysis(self, document: TextDocument) -> Analysis:
        """The analysis of the current text: cached, the worker's when it is at it, else made now."""
        source = document.source
        kept = self._kept(document.uri, document.version, source)
        if kept is not None:
            return kept
        ticket = self.worker.pending(document.uri, document.version)
        result = None
        if ticket is not None and ticket.source == source:
            ticket.done.wait()
            result = ticket.result
        if result is None:
            with self.worker.settled():
                result = analyse(source, document.path, self.encoding)
        self.worker.release_entry(self.analyses, document.uri)
        self.analyses[document.uri] = (document.version, source, result)
        return result

    async def current(self, document: TextDocument) -> Analysis | None:
        """The analysis of the document's text as it is now, awaited without holding the event loop:
        the kept one, else the worker's (queued now if it is not at it), while every other request
        is answered. None when the text changes or the document closes before its analysis is done
        (the request was about a text that is gone)."""
        uri, version, source = document.uri, document.version, document.source
        if uri not in self.workspace.text_documents:  # a file the editor has not opened: read now
            return self.analysis(document)
        while True:
            kept = self._kept(uri, version, source)
            if kept is not None:
                return kept
            now = self.workspace.text_documents.get(uri)
            if now is None or (now.version, now.source) != (version, source):
                return None
            ticket = self.worker.pending(uri, version)
            if ticket is None or ticket.source != source:
                self._loop = asyncio.get_running_loop()  # where the worker delivers (`_delivered`)
                ticket = self.worker.submit(Ticket(uri, version, source, document.path, self.encoding))
            await ticket.finished()
            if ticket.result is not None and ticket.source == source:
                return ticket.result
            # cancelled: the text changed, or the same text was queued again (a save): look again

    def latest(self, document: TextDocument, offset: int) -> tuple[Analysis, int, int] | None:
        """An analysis that can answer at `offset` now, without waiting for the one under way.

        The current text's when it is done; else the last one made, when `offset` lies outside
        the text changed since (before the first changed character, or after the last: then
        shifted). Returns (analysis, offset in its text, shift to add to its offsets), or None.
        """
        cached = self.analyses.get(document.uri)
        if cached is None:
            return None
        old, new = cached[1], document.source
        if cached[0] == document.version and old == new:
            return cached[2], offset, 0
        head = common_prefix(old, new)
        if offset < head:
            return cached[2], offset, 0
        tail = common_suffix(old, new, limit=min(len(old), len(new)) - head)
        if offset >= len(new) - tail:
            shift = len(new) - len(old)
            return cached[2], offset - shift, shift
        return None

    def lines(self, document: TextDocument) -> LineIndex:
        """The document's line index, made once per version."""
        cached = self._lines.get(document.uri)
        if cached is not None and cached[0] == document.version and cached[1] is document.source:
            return cached[2]
        index = LineIndex(document.source, self.encoding)
        self._lines[document.uri] = (document.version, document.source, index)
        return index

    def offset(self, document: TextDocument, position: types.Position) -> int:
        return self.lines(document).offset(position)

    def publish(self, uri: str) -> None:
        """Check the document and publish its diagnostics: `.0` documents on the worker thread."""
        document = self.document(uri)
        if is_compact(document):
            problem = adapter.checked_settings(document.path)[1]
            findings = adapter.compact_findings(document.source, document.path)
            found = diagnostics(findings, LineIndex(document.source, self.encoding), problem)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=document.version)
            )
            self.report_config(document.path, problem)
            return
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:  # called outside the event loop (a test's direct call): check here
            self._publish(uri, document.version, self.analysis(document))
            return
        self.worker.submit(Ticket(uri, document.version, document.source, document.path, self.encoding))

    def _delivered(self, ticket: Ticket) -> None:
        """On the worker thread: a finished analysis's diagnostics are serialised here, then it goes
        to the event loop to be kept and published."""
        loop = self._loop
        if loop is None or loop.is_closed() or ticket.result is None:
            return
        found = diagnostics(ticket.result.findings, ticket.result.lines, ticket.result.config)
        params = types.PublishDiagnosticsParams(uri=ticket.uri, diagnostics=found, version=ticket.version)
        message = self.zero_protocol.serialise_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)
        loop.call_soon_threadsafe(self._finished, ticket, message)

    @property
    def zero_protocol(self) -> ZeroProtocol:
        return cast(ZeroProtocol, self.protocol)

    def _finished(self, ticket: Ticket, message: bytes) -> None:
        document = self.workspace.text_documents.get(ticket.uri)
        if (
            ticket.result is None
            or document is None
            or (document.version, document.source) != (ticket.version, ticket.source)
        ):
            # closed or changed meanwhile: a newer analysis is due, or none is wanted
            self.worker.release_result(ticket)
            return
        self.worker.release_entry(self.analyses, ticket.uri)  # the old text's, dropped on the worker
        self.analyses[ticket.uri] = (ticket.version, ticket.source, ticket.result)
        self.zero_protocol.send_serialised(message)
        self.report_config(ticket.path, ticket.result.config)

    def _publish(self, uri: str, version: int | None, analysis: Analysis) -> None:
        found = diagnostics(analysis.findings, analysis.lines, analysis.config)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version)
        )
        self.report_config(analysis.path, analysis.config)

    def report_config(self, path: str | None, problem: adapter.ConfigProblem | None) -> None:
        """Say what is wrong with a document's `[tool.zero]`: a diagnostic on pyproject.toml, and once per
        problem a message in the editor's window; the diagnostic is cleared once the file is fixed."""
        if problem is None:
            pyproject = None
            if path and self.config_problems:
                pyproject = adapter.find_pyproject(Path(path).resolve())
            if pyproject is not None and self.config_problems.pop(pyproject.as_uri(), None) is not None:
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=pyproject.as_uri(), diagnostics=[])
                )
            return
        uri = problem.pyproject.as_uri()
        if self.config_problems.get(uri) == problem:
            return
        self.config_problems[uri] = problem
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[config_diagnostic(problem)])
        )
        where = f"{problem.pyproject}:{problem.line + 1}:{problem.column + 1}"
        self.window_show_message(
            types.ShowMessageParams(
                type=types.MessageType.Warning,
                message=escaped(f"zero: {where}: {problem.message}; using the default settings", exact=False),
            )
        )


def common_prefix(old: str, new: str) -> int:
    """How many leading characters two texts share (bisection over C-level slice comparisons)."""
    low, high = 0, min(len(old), len(new))
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def common_suffix(old: str, new: str, limit: int) -> int:
    """How many trailing characters two texts share, at most `limit`."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if old[len(old) - middle : len(old) - low] == new[len(new) - middle : len(new) - low]:
            low = middle
        else:
            high = middle - 1
    return low


def is_compact(document: TextDocument) -> bool:
    return document.uri.endswith(".0c") or document.language_id in COMPACT_LANGUAGES


# The `.0c` language's id in our editors (`zero-compact` before it was renamed apart from
# vercel-labs/zerolang's `zero`).
COMPACT_LANGUAGES = frozenset({"zerolang-compact", "zero-compact"})


def create_server() -> ZeroLanguageServer:
    """A new server with every feature registered (tests start one per session)."""
    server = ZeroLanguageServer()
    _register(server)
    return server


def _register(server: ZeroLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: ZeroLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: ZeroLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        """Check once the user pauses: a change that a newer one replaced within `debounce` is skipped."""
        uri, version = params.text_document.uri, params.text_document.version
        await asyncio.sleep(ls.debounce)
        open_now = ls.workspace.text_documents.get(uri)  # it may have been closed meanwhile
        if open_now is not None and open_now.version == version:
            ls.publish(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: ZeroLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)  # pyproject.toml settings may have changed

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: ZeroLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.worker.cancel(params.text_document.uri)
        ls.worker.release_entry(ls.analyses, params.text_document.uri)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL]),
    )
    async def code_action(
        ls: ZeroLanguageServer, params: types.CodeActionParams
    ) -> list[types.CodeAction] | None:
        document = ls.document(params.text_document.uri)
        if is_compact(document):
            return None
        only = [str(kind) for kind in params.context.only] if params.context.only else None
        analysis = await ls.current(document)
        return None if analysis is None else actions.code_actions(analysis, document.uri, params.range, only)

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: ZeroLanguageServer, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
        document = ls.document(params.text_document.uri)
        source = document.source
        try:
            formatted = adapter.format_text(source, document.path or _suffix_path(document))
        except adapter.ZeroError as error:
            ls.window_log_message(
                types.LogMessageParams(
                    type=types.MessageType.Warning,
                    message=f"not formatted: {escaped(str(error), exact=False)}",
                )
            )
            return []
        if formatted == source:
            return []
        lines = LineIndex(source, ls.encoding)
        return [types.TextEdit(range=lines.range(0, len(source)), new_text=formatted)]

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: ZeroLanguageServer, params: types.HoverParams) -> types.Hover | None:
        document = ls.document(params.text_document.uri)
        offset = ls.offset(document, params.position)
        if is_compact(document):
            return compact_features.hover(document.source, offset, ls.encoding)
        found = ls.latest(document, offset)
        if found is None:
            analysis = await ls.current(document)
            return None if analysis is None else hover_feature.hover(analysis, offset)
        analysis, there, shift = found
        answer = hover_feature.hover(analysis, there)
        if answer is not None and answer.range is not None and (shift or analysis.source != document.source):
            start = analysis.lines.offset(answer.range.start) + shift
            end = analysis.lines.offset(answer.range.end) + shift
            answer.range = ls.lines(document).range(start, end)
        return answer

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: ZeroLanguageServer, params: types.DefinitionParams) -> types.Location | None:
        document = ls.document(params.text_document.uri)
        offset = ls.offset(document, params.position)
        if is_compact(document):
            return compact_features.definition(document.source, document.uri, offset, ls.encoding)
        analysis = await ls.current(document)
        return None if analysis is None else navigation.definition(analysis, document.uri, offset)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: ZeroLanguageServer, params: types.ReferenceParams) -> list[types.Location]:
        document = ls.document(params.text_document.uri)
        offset = ls.offset(document, params.position)
        declaration = params.context.include_declaration
        if is_compact(document):
            return compact_features.references(
                document.source, document.uri, offset, declaration, ls.encoding
            )
        analysis = await ls.current(document)
        return [] if analysis is None else navigation.references(analysis, document.uri, offset, declaration)

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(
        ls: ZeroLanguageServer, params: types.PrepareRenameParams
    ) -> types.PrepareRenamePlaceholder | None:
        document = ls.document(params.text_document.uri)
        if is_compact(document):
            return None
        offset = ls.offset(document, params.position)
        analysis = await ls.current(document)
        return None if analysis is None else navigation.prepare_rename(analysis, offset)

    @server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    async def rename(ls: ZeroLanguageServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        document = ls.document(params.text_document.uri)
        if is_compact(document):
            return None
        offset = ls.offset(document, params.position)
        analysis = await ls.current(document)
        if analysis is None:
            return None
        try:
            return navigation.rename(analysis, document.uri, offset, params.new_name)
        except navigation.RenameError as error:
            raise JsonRpcException(str(error), code=REQUEST_FAILED) from None

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=completion.TRIGGERS)
    )
    def complete(ls: ZeroLanguageServer, params: types.CompletionParams) -> types.CompletionList | None:
        document = ls.document(params.text_document.uri)
        if is_compact(document):
            return None
        source = document.source
        offset = ls.offset(document, params.position)
        cached = ls.analyses.get(document.uri)  # the last analysis, even of an older text
        if cached is None or cached[2].outline is None:
            return completion.completions(source, offset, ls.encoding, lines=ls.lines(document))
        unchanged = len(source) if cached[1] == source else common_prefix(cached[1], source)
        return completion.completions(
            source,
            offset,
            ls.encoding,
            outline=cached[2].outline,
            unchanged=unchanged,
            lines=ls.lines(document),
        )

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbol(
        ls: ZeroLanguageServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol]:
        document = ls.document(params.text_document.uri)
        if is_compact(document):
            return symbols.compact_symbols(document.source, ls.encoding)
        analysis = await ls.current(document)
        return [] if analysis is None else symbols.graph_symbols(analysis)


def _suffix_path(document: TextDocument) -> str | None:
    """A name for a document that is not a file: its suffix still says `.0` or `.0c`."""
    return "untitled.0c" if is_compact(document) else None


# How long the analysis thread may hold the GIL while a request waits for it (Python's default is
# 5 ms): each request passes the GIL between threads several times (read, answer, write), so with
# the default a hover during a long analysis waited tens of milliseconds for nothing.
SWITCH_INTERVAL = 0.0005


def serve_stdio(**_: Any) -> None:
    """Serve one client over stdin and stdout until it sends `exit`.

    The process is the server's own, so it may settle the cycle collector for it: what is
    loaded by now (modules, the catalog) and each analysis are frozen out of the collector's
    reach (`zerolang.util.gcpause.frozen_after`), so no collection walks them again.
    """
    import gc
    import sys

    sys.setswitchinterval(SWITCH_INTERVAL)
    server = create_server()
    server.worker.freeze = True
    gc.collect()
    gc.freeze()
    server.start_io()
