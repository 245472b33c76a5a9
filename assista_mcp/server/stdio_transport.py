"""The stdio transport ``assista-odoo serve`` uses: frames read and written on the event loop.

The SDK's ``stdio_server`` moves every line read, every write and every flush to a worker
thread (three thread hand-offs per request); under CPU contention each hand-off waits for the
scheduler. Here stdin and stdout are non-blocking pipes driven by asyncio, which cut the
server's CPU per ``read_file`` round trip by about a quarter (see benchmarks/mcp_roundtrip.py).
Frames are parsed exactly as the SDK does, and stray output is kept off the wire the same way:
while serving, fd 0 reads /dev/null and fd 1 writes to stderr; the wire uses private copies.
Unlike the SDK, a malformed request whose id can be read is answered with Invalid Request.
Before anything is parsed, a frame's bytes are scanned (``_frame_shape``): one nested deeper than
``MAX_DEPTH`` or holding more than ``MAX_VALUES`` values is refused unparsed, since building it
would recurse past Python's limit or take gigabytes (30 million small integers fit in 60 MB).

Only pipes and sockets (what MCP hosts use) are driven this way; for anything else (a terminal,
stdin redirected from a file) ``serve`` falls back to the SDK's transport.

The SDK has no public way to serve an ``MCPServer`` over given streams: ``serve_loop_stdio``
hands ours to it through ``sdk_adapter``, which says why.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import re
import stat
from collections.abc import AsyncIterator, Iterator
from typing import Any

import anyio
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.mcpserver import MCPServer
from mcp.shared.message import SessionMessage

from assista_mcp.server.sdk_adapter import run_over_streams

log = logging.getLogger("assista_mcp.stdio")

MAX_FRAME_BYTES = 64 * 1024 * 1024  # one JSON-RPC line; larger frames are dropped, not buffered
MAX_DEPTH = 64  # real MCP frames nest about 6 deep
MAX_VALUES = 100_000  # arrays and objects members in one frame; a file's text is one value
Incoming = SessionMessage | Exception
Streams = tuple[MemoryObjectReceiveStream[Incoming], MemoryObjectSendStream[SessionMessage]]


def serve_stdio(server: MCPServer[Any]) -> None:
    """Serve ``server`` on stdin/stdout until the client closes stdin."""
    if loop_stdio_supported():
        anyio.run(serve_loop_stdio, server, backend="asyncio")
    else:  # stdin from a regular file: the SDK's threaded transport reads any file
        server.run("stdio")


async def serve_loop_stdio(server: MCPServer[Any]) -> None:
    """Serve one connection over stdin/stdout, as ``MCPServer.run_stdio_async`` does over the
    SDK's threaded streams (same lifespan, same initialization options)."""
    async with loop_stdio() as (read_stream, write_stream):
        await run_over_streams(server, read_stream, write_stream)


def loop_stdio_supported() -> bool:
    """Whether fds 0 and 1 are things asyncio can drive without threads."""
    try:
        return all(_drivable(os.fstat(fd).st_mode) for fd in (0, 1))
    except OSError:
        return False


def _drivable(mode: int) -> bool:
    # Pipes and sockets only: a terminal's non-blocking flag is shared with the shell, and would
    # stay set if the server were killed; a person typing frames needs no speed anyway.
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


@contextlib.asynccontextmanager
async def loop_stdio() -> AsyncIterator[Streams]:
    """(read stream, write stream) for ``Server.run``, over the process's stdin and stdout."""
    with _claimed_std_fds() as (wire_in, wire_out):
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_FRAME_BYTES)
        in_transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(wire_in, "rb", buffering=0, closefd=False)
        )
        out_transport, out_protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(wire_out, "wb", buffering=0, closefd=False)
        )
        writer = asyncio.StreamWriter(out_transport, out_protocol, None, loop)
        send_in, read_stream = anyio.create_memory_object_stream[Incoming](0)
        write_stream, receive_out = anyio.create_memory_object_stream[SessionMessage](0)
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(_pump_in, reader, send_in, write_stream.clone())
                tg.start_soon(_pump_out, writer, receive_out, tg.cancel_scope)
                yield read_stream, write_stream
        finally:
            in_transport.close()
            out_transport.close()


async def _pump_in(
    reader: asyncio.StreamReader,
    send_in: MemoryObjectSendStream[Incoming],
    replies: MemoryObjectSendStream[SessionMessage],
) -> None:
    """One JSON-RPC message per line. A malformed request whose id can be read gets a JSON-RPC
    error instead of silence (the SDK drops it and the client waits until its timeout)."""
    async with send_in, replies:
        while True:
            try:
                line = await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as exc:
                if not exc.partial.strip():
                    return  # EOF: the client is gone
                line = exc.partial
            except asyncio.LimitOverrunError as exc:
                await _drop_oversized_line(reader, exc.consumed)
                log.warning("dropped a frame larger than %d bytes", MAX_FRAME_BYTES)
                continue
            if not line.strip():
                continue
            try:
                reply, message = _read_frame(line)
            except Exception:  # one bad frame never stops the server
                log.exception("could not handle a frame: %.200r", line)
                continue
            if reply is not None:
                await replies.send(reply)
            elif message is not None:
                await send_in.send(message)


def _read_frame(line: bytes) -> tuple[SessionMessage | None, SessionMessage | None]:
    """(the error to send back, the message to serve): at most one of them."""
    costly = _frame_shape(line)
    if costly is not None:
        ident = _top_level_id(line)
        log.warning("refused a frame: %s", costly)
        return (_invalid(ident, f"Invalid request: {costly}.") if ident is not None else None), None
    text = line.decode("utf-8", errors="replace")
    try:
        return None, SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(text, by_name=False))
    except Exception:
        reply = reply_to_malformed(text)
    if reply is None:
        log.warning("dropped a malformed frame: %.200r", text)
    else:
        log.warning("answered a malformed request with Invalid Request: %.200r", text)
    return reply, None


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _frame_shape(line: bytes) -> str | None:
    """Why building ``line`` would cost too much, or None. Linear in its length and in C (no
    regex, no Python loop over the text), builds nothing: escapes go first (JSON reads runs of
    backslashes pairwise from the left, as ``replace`` does), then the text between quotes."""
    plain = line.replace(b"\\\\", b"").replace(b'\\"', b"")
    if plain.count(b'"') > 4 * MAX_VALUES:  # every member has a key: two strings per value
        return f"it holds more than {MAX_VALUES} values"
    bare = b"".join(plain.split(b'"')[0::2])
    brackets = bare.translate(None, _NOT_BRACKETS)
    if len(brackets) + bare.count(b",") > 2 * MAX_VALUES:
        return f"it holds more than {MAX_VALUES} values"
    depth = deepest = 0
    for byte in brackets:
        depth += 1 if byte in b"[{" else -1
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        return f"it is nested deeper than {MAX_DEPTH} levels"
    return None


_KEY_END = re.compile(rb"\s*:")
_ID_VALUE = re.compile(rb'\s*:\s*(-?\d{1,18}(?![\d.eE])|"[^"\\]{0,200}")')


def _top_level_id(line: bytes, prefix_bytes: int = 4096) -> str | int | None:
    """The ``id`` of a request too costly to parse, read from the frame's first bytes when it
    sits at the top level (None for a response: ``result`` or ``error`` at the top level)."""
    head = line[:prefix_bytes]
    depth, position, ident = 0, 0, None
    for match in _STRING.finditer(head):
        gap = head[position : match.start()].translate(None, _NOT_BRACKETS)
        depth += sum(1 if byte in b"[{" else -1 for byte in gap)
        position = match.end()
        is_key = _KEY_END.match(head, position) is not None
        if depth != 1 or not is_key:
            continue
        if match.group() in (b'"result"', b'"error"'):
            return None
        value = _ID_VALUE.match(head, position) if match.group() == b'"id"' else None
        if value is not None and ident is None:
            ident = json.loads(value.group(1))
    return ident if isinstance(ident, int | str) and _encodable(str(ident)) else None


def _invalid(ident: str | int, message: str) -> SessionMessage:
    error = mcp_types.ErrorData(code=mcp_types.INVALID_REQUEST, message=message)
    return SessionMessage(mcp_types.JSONRPCError(jsonrpc="2.0", id=ident, error=error))


def reply_to_malformed(text: str) -> SessionMessage | None:
    """An Invalid Request error for a frame that names a request id; None when nobody waits."""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(raw, dict) or "result" in raw or "error" in raw:
        return None  # not a request (a response, even a broken one, is never answered)
    ident = raw.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int | str) or not _encodable(str(ident)):
        return None
    return _invalid(ident, _what_is_wrong(raw))


def _what_is_wrong(raw: dict[str, object]) -> str:
    if raw.get("jsonrpc") != "2.0":
        reason = '"jsonrpc" must be "2.0"'
    elif "method" not in raw:
        reason = '"method" is missing'
    elif not isinstance(raw.get("method"), str):
        reason = '"method" must be a string'
    elif "params" in raw and not isinstance(raw["params"], dict):
        reason = '"params" must be an object'
    elif not _encodable(json.dumps(raw, ensure_ascii=False)):
        reason = "it contains text that is not valid Unicode (a lone surrogate escape)"
    else:
        reason = "it does not match a JSON-RPC 2.0 request"
    return f"Invalid request: {reason}. Send one JSON-RPC 2.0 request object per line."


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


async def _drop_oversized_line(reader: asyncio.StreamReader, buffered: int) -> None:
    await reader.readexactly(buffered)
    while True:
        try:
            await reader.readuntil(b"\n")
            return
        except asyncio.LimitOverrunError as exc:
            await reader.readexactly(exc.consumed)
        except asyncio.IncompleteReadError:
            return


async def _pump_out(
    writer: asyncio.StreamWriter,
    receive_out: MemoryObjectReceiveStream[SessionMessage],
    scope: anyio.CancelScope,
) -> None:
    async with receive_out:
        async for session_message in receive_out:
            frame = session_message.message.model_dump_json(by_alias=True, exclude_unset=True)
            try:
                writer.write(frame.encode("utf-8") + b"\n")
                await writer.drain()
            except (BrokenPipeError, ConnectionResetError):
                log.info("the client closed stdout; stopping")
                scope.cancel()
                return


@contextlib.contextmanager
def _claimed_std_fds() -> Iterator[tuple[int, int]]:
    """Private copies of fds 0/1 for the wire; fd 0 reads /dev/null and fd 1 goes to stderr."""
    wire_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    wire_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
    blocking = (os.get_blocking(wire_in), os.get_blocking(wire_out))
    devnull = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(devnull, 0)
        os.dup2(2, 1)
        yield wire_in, wire_out
    finally:
        os.close(devnull)
        # Whoever else holds these pipes shares their blocking mode: give it back as it was.
        for fd, was_blocking in zip((wire_in, wire_out), blocking, strict=True):
            with contextlib.suppress(OSError):
                os.set_blocking(fd, was_blocking)
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        os.close(wire_in)
        os.close(wire_out)
