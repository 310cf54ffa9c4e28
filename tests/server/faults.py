"""A deliberately broken HTTP server for the faults a real Mastra server will not show on demand:
auth refused, a connection dropped mid-stream, a server that stalls, keepalive comments, a redirect,
an endless error body, workflow cancels that fail or hang; and a flaky proxy in front of a real
server (connections refused, 503 answers) for retries."""

from __future__ import annotations

import asyncio
import base64
import socket
import struct
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

EVENTS = [
    b'{"type":"start","runId":"r1","from":"AGENT","payload":{"id":"fault"}}',
    b'{"type":"text-delta","runId":"r1","from":"AGENT","payload":{"id":"t","text":"Hello "}}',
    b'{"type":"text-delta","runId":"r1","from":"AGENT","payload":{"id":"t","text":"world"}}',
]
FINISH = (
    b'{"type":"finish","runId":"r1","from":"AGENT","payload":{"stepResult":{"reason":"stop"},"output":{}}}'
)
SSE_HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
BASIC_USER, BASIC_PASSWORD = "ada", "s3cr3t-pa55"
BASIC = base64.b64encode(f"{BASIC_USER}:{BASIC_PASSWORD}".encode())
REDIRECT_TO = "https://mastra.example.com/api/agents/moved/stream"
WORKFLOW_CHUNK = (
    b'{"type":"workflow-step-output","runId":"w1","from":"WORKFLOW","payload":{"stepName":"s","output":1}}'
)


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


def _event(data: bytes) -> bytes:
    return _chunk(b"data: " + data + b"\n\n")


def _answer(status: bytes, body: bytes, extra: bytes = b"") -> bytes:
    return b"HTTP/1.1 %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n%s\r\n%s" % (
        status,
        len(body),
        extra,
        body,
    )


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        await _respond(reader, writer)
    finally:
        writer.close()


async def _respond(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)  # fmt: skip
    await reader.readexactly(length)
    path = head.split(b" ")[1].decode()
    if path.startswith("/api/agents/auth/"):
        if b"authorization: bearer secret" not in head.lower():
            body = b'{"error":"Unauthorized"}'
            writer.write(b"HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\n"
                         b"content-length: %d\r\n\r\n%s" % (len(body), body))  # fmt: skip
        else:
            writer.write(
                SSE_HEAD
                + b"".join(_event(e) for e in [*EVENTS, FINISH])
                + _chunk(b"data: [DONE]\n\n")
                + b"0\r\n\r\n"
            )
    elif path.startswith("/api/agents/basic/"):  # HTTP Basic auth, as from http://user:password@host
        if b"authorization: basic " + BASIC.lower() not in head.lower():
            writer.write(_answer(b"401 Unauthorized", b'{"error":"Unauthorized"}'))
        else:
            writer.write(SSE_HEAD + b"".join(_event(e) for e in [*EVENTS, FINISH]) + b"0\r\n\r\n")
    elif path.startswith("/api/agents/moved/"):
        page = b"<html><body>Moved to <a href='%s'>here</a></body></html>" % REDIRECT_TO.encode()
        writer.write(_answer(b"307 Temporary Redirect", page, b"location: %s\r\n" % REDIRECT_TO.encode()))
    elif path.startswith("/api/agents/hugeerror/"):  # an error page that never ends
        writer.write(b"HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/html\r\n"
                     b"transfer-encoding: chunked\r\n\r\n")  # fmt: skip
        for _ in range(20_000):  # 320 MB at most, if the client read it all
            writer.write(_chunk(b"<p>Internal error</p>" * 780))
            try:
                await writer.drain()
            except ConnectionError:  # the client read enough and closed
                return
    elif path.startswith("/api/workflows/") and "/stream" in path:  # a slow workflow, \x1e framed
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n")
        for _ in range(200):
            writer.write(_chunk(WORKFLOW_CHUNK + b"\x1e"))
            try:
                await writer.drain()
            except ConnectionError:
                return
            await asyncio.sleep(0.05)
        writer.write(b"0\r\n\r\n")
    elif path.startswith("/api/workflows/refuse/runs/"):  # the cancel fails
        writer.write(_answer(b"500 Internal Server Error", b'{"error":"cannot cancel that run"}'))
    elif path.startswith("/api/workflows/hang/runs/"):  # the cancel never answers
        await asyncio.sleep(30)
    elif path.startswith("/api/agents/keepalive/"):
        writer.write(SSE_HEAD)
        for event in [*EVENTS, FINISH]:
            writer.write(_chunk(b": keepalive\n\n") + _event(event))
            await writer.drain()
            await asyncio.sleep(0.01)
        writer.write(_chunk(b"data: [DONE]\n\n") + b"0\r\n\r\n")
    elif path.startswith("/api/agents/drop/"):
        writer.write(SSE_HEAD + b"".join(_event(e) for e in EVENTS))
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.transport.abort()  # no terminating chunk: the connection just goes
        return
    elif path.startswith("/api/agents/stall/"):
        writer.write(SSE_HEAD + b"".join(_event(e) for e in EVENTS))
        await writer.drain()
        await asyncio.sleep(30)
    await writer.drain()


@contextmanager
def fault_server() -> Iterator[str]:
    """A fault server on a free loopback port, for the duration of the block."""
    with _serving(_handle) as url:
        yield url


Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@contextmanager
def _serving(handler: Handler) -> Iterator[str]:
    """``handler`` serving every connection on a free loopback port, from a loop of its own thread."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    holder: dict[str, asyncio.AbstractServer] = {}

    async def serve() -> None:
        holder["server"] = await asyncio.start_server(handler, "127.0.0.1", 0)
        started.set()

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    asyncio.run_coroutine_threadsafe(serve(), loop)
    started.wait(60)
    port = holder["server"].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        asyncio.run_coroutine_threadsafe(_shutdown(holder["server"]), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(60)
        loop.close()


async def _shutdown(server: asyncio.AbstractServer) -> None:
    """Close the server and end every handler still running (a stalled one sleeps for long)."""
    server.close()
    handlers = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in handlers:
        task.cancel()
    await asyncio.gather(*handlers, return_exceptions=True)


# ---- a flaky network in front of a real server -------------------------------------------------


@dataclass
class Proxy:
    """A TCP proxy in front of ``target``: its first ``refuse`` connections are reset at once (a
    refused connection, as near as a listening socket comes), the next ``unavailable`` requests
    answered 503, and the rest passed through. It counts what it saw."""

    target: str
    refuse: int = 0
    unavailable: int = 0
    url: str = ""
    connections: int = 0  # every connection the client opened
    forwarded: int = 0  # connections passed on to the target: what the server saw
    requests: list[str] = field(default_factory=list)  # each forwarded connection's first request line

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        if self.connections <= self.refuse:
            sock = writer.get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()  # RST: the client's request goes nowhere
            return
        try:
            if self.connections <= self.refuse + self.unavailable:
                await _read_request(reader)
                body = b'{"error":"Service Unavailable: try again"}'
                writer.write(_answer(b"503 Service Unavailable", body, b"connection: close\r\n"))
                await writer.drain()
                return
            self.forwarded += 1
            host, port = self.target.removeprefix("http://").split(":")
            upstream_reader, upstream_writer = await asyncio.open_connection(host, int(port))
            head = await reader.readuntil(b"\r\n\r\n")
            self.requests.append(head.split(b"\r\n", 1)[0].decode())
            upstream_writer.write(head)
            await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))
        finally:
            writer.close()


async def _read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)  # fmt: skip
    return head + await reader.readexactly(length)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while piece := await reader.read(65536):
            writer.write(piece)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


@contextmanager
def flaky_proxy(target: str, *, refuse: int = 0, unavailable: int = 0) -> Iterator[Proxy]:
    """A :class:`Proxy` to ``target`` on a free loopback port, for the duration of the block."""
    proxy = Proxy(target, refuse, unavailable)
    with _serving(proxy.handle) as url:
        proxy.url = url
        yield proxy
