"""A real LSP session per test: pytest-lsp's client and our server, talking JSON-RPC over OS pipes.

The server runs in a thread of the test process (`start_io` on the pipes, as
`zero lsp` runs on stdin and stdout); the client is pytest-lsp's
`LanguageClient`, which records published diagnostics. Every request goes
through the protocol's framing, serialisation and capability negotiation.
`test_cli.py` starts `zero lsp` as a process once, the way an editor does.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest_asyncio
from lsprotocol import types
from pygls.io_ import StdoutWriter, run_async
from pytest_lsp import LanguageClient
from pytest_lsp.client import make_test_lsp_client

from zerolang.lsp.server import ZeroLanguageServer, create_server

TIMEOUT = 30  # seconds: generous, for a loaded machine; nothing here measures time


class Session:
    """A client connected to a fresh server, with helpers to open documents and wait for diagnostics."""

    def __init__(self, client: LanguageClient, server: ZeroLanguageServer, folder: Path) -> None:
        self.client = client
        self.server = server
        self.folder = folder
        self.versions: dict[str, int] = {}

    def uri(self, name: str) -> str:
        return (self.folder / name).as_uri()

    async def open(self, name: str, text: str) -> str:
        """Write `text` to `name` in the session's folder and open it; returns its URI."""
        (self.folder / name).write_text(text, encoding="utf-8")
        uri = self.uri(name)
        self.versions[uri] = 1
        language = "zerolang-compact" if name.endswith(".0c") else "zerolang"
        waiting = self.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
            )
        )
        await asyncio.wait_for(waiting, TIMEOUT)
        return uri

    async def change(self, uri: str, text: str) -> None:
        """Replace the whole text, as an editor sends a change; waits for the new diagnostics."""
        self.versions[uri] += 1
        waiting = self.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        await asyncio.wait_for(waiting, TIMEOUT)

    def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        return list(self.client.diagnostics.get(uri, []))

    def doc(self, uri: str) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(uri=uri)


def position_of(text: str, needle: str, nth: int = 0, shift: int = 0) -> types.Position:
    """The position of the `nth` occurrence of `needle` (plus `shift` characters) in ASCII `text`."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += shift
    line = text.count("\n", 0, index)
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """The text after the edits (positions in UTF-16 units, as the server was told)."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        units, index = 0, 0
        while index < len(line) and units < position.character:
            units += 2 if ord(line[index]) > 0xFFFF else 1
            index += 1
        return before + index

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def _connect(
    folder: Path,
) -> tuple[LanguageClient, ZeroLanguageServer, threading.Thread, Callable[[], None]]:
    to_server_read, to_server_write = os.pipe()
    to_client_read, to_client_write = os.pipe()
    server = create_server()
    thread = threading.Thread(
        target=server.start_io,
        args=(os.fdopen(to_server_read, "rb"), os.fdopen(to_client_write, "wb")),
        name="zero-lsp",
        daemon=True,
    )
    thread.start()
    client = make_test_lsp_client()
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(to_client_read, "rb")
    )
    to_server = os.fdopen(to_server_write, "wb")
    client.protocol.set_writer(StdoutWriter(to_server))
    task = asyncio.create_task(
        run_async(stop_event=client._stop_event, reader=reader, protocol=client.protocol)
    )

    def close() -> None:
        to_server.close()
        task.cancel()

    return client, server, thread, close


@contextlib.asynccontextmanager
async def open_session(
    folder: Path, capabilities: types.ClientCapabilities | None = None
) -> AsyncIterator[Session]:
    """Start a server, initialize it as a client with `capabilities` would, and shut it down after."""
    client, server, thread, close = await _connect(folder)
    await asyncio.wait_for(
        client.initialize_session(
            types.InitializeParams(
                capabilities=capabilities or types.ClientCapabilities(),
                root_uri=folder.as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="work")],
            )
        ),
        TIMEOUT,
    )
    try:
        yield Session(client, server, folder)
    finally:
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
        close()
        await asyncio.to_thread(thread.join, TIMEOUT)
    assert not thread.is_alive(), "the server did not stop after `exit`"


@pytest_asyncio.fixture
async def session(tmp_path: Path) -> AsyncIterator[Session]:
    async with open_session(tmp_path) as started:
        yield started
