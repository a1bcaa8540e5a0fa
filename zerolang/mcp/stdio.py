"""Serving over stdin and stdout on the event loop itself, without worker threads.

The SDK's stdio transport reads and writes through `anyio.wrap_file`: every line read, every
write and every flush is a hand-off to a worker thread and back (about a dozen per tool call),
which on a busy machine waits for the scheduler each time. Here the event loop watches the pipes
(`connect_read_pipe`, `connect_write_pipe`) and hands the SDK's own stdio framing
(`stdio_server(stdin, stdout)`: one JSON-RPC message a line) objects that read and write them
directly. While serving, fd 0 reads the null device and fd 1 writes to stderr, as the SDK does,
so a stray `print` cannot break the wire; both are restored on exit.

A server with a `direct` table (`zerolang.mcp.direct`) answers the calls it is sure of from their
line; every other line goes to the SDK, whose answers `direct` watches to learn the envelope.

Where the streams are not pipes or sockets (a regular file, a terminal, or another platform), or the SDK lacks
what this uses, the SDK's own transport serves instead: slower, the same protocol.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

import anyio

from zerolang.util.limits import MAX_DEPTH, too_deep_at

if TYPE_CHECKING:
    from zerolang.mcp.direct import Direct

LINE_LIMIT = 1 << 30  # a JSON-RPC message is one line; the SDK's transport sets no limit either


class _Lines:
    """stdin as the SDK's transport iterates it: text lines, decoded as UTF-8 (bad bytes replaced)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    async def __aiter__(self) -> AsyncIterator[str]:
        while True:
            line = await self._reader.readline()
            if not line:
                return
            yield line.decode("utf-8", errors="replace")


class Sink(Protocol):
    """Where the framing writes: a message's line, then `flush`."""

    async def write(self, text: str) -> None: ...
    async def flush(self) -> None: ...


class _Sink:
    """stdout as the SDK's transport writes it: `write` a message's line, then `flush` (drain)."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, text: str) -> None:
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._writer.drain()


@contextmanager
def _claimed() -> Iterator[tuple[int, int]]:
    """Private duplicates of fds 0 and 1 for the wire; meanwhile fd 0 is the null device and fd 1
    is stderr (restored on exit)."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
    finally:
        os.close(null)
    try:
        yield wire_in, wire_out
    finally:
        sys.stdout.flush()
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        os.close(wire_in)
        os.close(wire_out)


def watchable() -> bool:
    """Whether stdin and stdout are pipes or sockets the event loop can watch (a terminal is left to
    the SDK: watching it would leave it non-blocking for the shell after exit)."""
    import stat

    if sys.platform == "win32":
        return False
    try:
        modes = [os.fstat(fd).st_mode for fd in (0, 1)]
    except OSError:
        return False
    return all(stat.S_ISFIFO(m) or stat.S_ISSOCK(m) for m in modes)


def run_stdio(server: Any) -> None:
    """Serve `server` (an SDK `MCPServer`) over stdin and stdout until stdin closes."""
    lowlevel = getattr(server, "_lowlevel_server", None)
    if lowlevel is None or not watchable():
        server.run("stdio")
        return
    anyio.run(_serve, lowlevel, getattr(server, "direct", None))


async def _serve(lowlevel: Any, direct: Direct | None) -> None:
    loop = asyncio.get_running_loop()
    with _claimed() as (wire_in, wire_out):
        source = os.fdopen(wire_in, "rb", buffering=0, closefd=False)
        target = os.fdopen(wire_out, "wb", buffering=0, closefd=False)
        reader = asyncio.StreamReader(limit=LINE_LIMIT)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), source)
        transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, target)
        writer = asyncio.StreamWriter(transport, protocol, None, loop)
        try:
            await _frame(lowlevel, _Lines(reader), _Sink(writer), direct)
        finally:
            transport.close()


async def _frame(lowlevel: Any, lines: AsyncIterable[str], sink: Sink, direct: Direct | None = None) -> None:
    """The SDK's stdio framing (one JSON-RPC message a line, each way), except that a line that is
    not a JSON-RPC message gets an error response (`malformed`) instead of none, and that `direct`
    answers the lines it can."""
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    read_writer, read_stream = anyio.create_memory_object_stream[Any](0)
    write_stream, write_reader = anyio.create_memory_object_stream[Any](0)

    async def read() -> None:
        async with read_writer:
            async for line in lines:
                if too_deep_at(line) is not None:  # past any decoder's recursion: a parse error, answered
                    await sink.write(_error(None, PARSE_ERROR, TOO_DEEP_LINE) + "\n")
                    await sink.flush()
                    continue
                reply = None if direct is None else direct.answer(line)
                if reply is not None:
                    await sink.write(reply + "\n")
                    await sink.flush()
                    continue
                try:
                    message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                except Exception:
                    reply = malformed(line)
                    if reply is not None:
                        await sink.write(reply + "\n")
                        await sink.flush()
                    continue
                await read_writer.send(SessionMessage(message))

    async def write() -> None:
        async with write_reader:
            async for session_message in write_reader:
                message = session_message.message
                if direct is not None and isinstance(message, types.JSONRPCResponse):
                    direct.learn(message.id, message.result)
                elif direct is not None and isinstance(message, types.JSONRPCError):
                    direct.learn(message.id, None)
                text = message.model_dump_json(by_alias=True, exclude_unset=True)
                await sink.write(text + "\n")
                await sink.flush()

    async with anyio.create_task_group() as group:
        group.start_soon(read)
        group.start_soon(write)
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
        group.cancel_scope.cancel()


PARSE_ERROR = -32700
INVALID_REQUEST = -32600
TOO_DEEP_LINE = f"Parse error: the line nests arrays or objects deeper than {MAX_DEPTH}"


def malformed(line: str) -> str | None:
    """The JSON-RPC error response to a line that is not a JSON-RPC message: -32700 (parse error,
    id null) where it is not JSON the protocol can carry (bad JSON, a lone surrogate), -32600
    (invalid request, with its id where it has one) where it is JSON but no message. A blank line,
    and a malformed notification or response (no `method` with an `id`), get none."""
    import json

    if not line.strip():
        return None
    if too_deep_at(line) is not None:
        return _error(None, PARSE_ERROR, TOO_DEEP_LINE)
    try:
        value = json.loads(line)
    except ValueError:
        return _error(None, PARSE_ERROR, "Parse error: the line is not JSON")
    ident = value.get("id") if isinstance(value, dict) else None
    if not isinstance(ident, (str, int)) or isinstance(ident, bool):
        ident = None
    if isinstance(value, dict) and "method" not in value and ident is not None:
        return None  # a response we cannot read: answering it would answer a response
    if isinstance(value, dict) and "method" in value and "id" not in value:
        return None  # a notification: never answered
    if _has_lone_surrogate(value):
        return _error(ident, PARSE_ERROR, "Parse error: a string holds a lone surrogate (not valid Unicode)")
    return _error(ident, INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 message")


def _has_lone_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def _error(ident: str | int | None, code: int, message: str) -> str:
    import json

    return json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}})
