"""The TLS front of `python -m companion.serve --https`: one asyncio process that shakes
hands with each tablet and reads each request whole, then hands it to the app's server
(waitress or gunicorn, plain HTTP on a Unix socket only this user can open).

A connection costs no server thread until its request is complete: a TLS handshake must
end within `--handshake-seconds` of the connection, and a request (its headers and its
body) within `--request-seconds` of its first byte, however the client spaces its bytes;
then the connection is closed (a 408 first, once its headers are in). Between requests a
kept-alive connection waits up to `--idle-seconds` for the next one (the live view's
polls ride one connection). The answer is read whole from the app's server at once, so
a tablet that reads slowly holds no server thread either, and it is written to the
tablet within the request's deadline again.

Imports only the standard library and h11 (the HTTP/1.1 parser), so
`companion.serve` starts it as a small process of its own: `python -P tls_front.py`.
It stops on SIGTERM or SIGINT, or when its standard input closes (the server that
started it has gone).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import ssl
from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus

import h11

READ_CHUNK = 64 * 1024
HEADERS_LIMIT = 64 * 1024  # bytes of a request's line and headers
BACKEND_START_SECONDS = 30.0  # how long a request waits for the app's server to start
BACKEND_ANSWER_SECONDS = 300.0  # a guard only: the app answers in well under a second
# Said by the client about its own connection, or claimed for a proxy: never passed on.
REQUEST_DROPPED = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-connection",
        b"transfer-encoding",
        b"content-length",
        b"te",
        b"trailer",
        b"upgrade",
        b"expect",
        b"forwarded",
        b"x-forwarded-for",
        b"x-forwarded-proto",
        b"x-forwarded-protocol",
        b"x-forwarded-ssl",
        b"x-forwarded-host",
        b"x-forwarded-port",
        b"x-real-ip",
    }
)
# Said by the app's server about its connection to this front.
RESPONSE_DROPPED = frozenset(
    {b"connection", b"keep-alive", b"proxy-connection", b"transfer-encoding", b"trailer"}
)


@dataclass(frozen=True)
class Limits:
    """How long a client may take, and how much it may send."""

    handshake_seconds: float
    request_seconds: float
    idle_seconds: float
    body_bytes: int


class Refused(Exception):
    """The client is answered with `status` (raw, no body) and its connection closed."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status

    def response(self) -> bytes:
        reason = HTTPStatus(self.status).phrase
        return (
            f"HTTP/1.1 {self.status} {reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ).encode("ascii")


@dataclass
class Whole:
    """A request read whole: its head and its body."""

    request: h11.Request
    body: bytes


async def next_event(connection: h11.Connection, reader: asyncio.StreamReader) -> object:
    """The next event of the client's request, reading as needed."""
    while True:
        event = connection.next_event()
        if event is not h11.NEED_DATA:
            return event
        connection.receive_data(await reader.read(READ_CHUNK))


async def next_request_begins(
    connection: h11.Connection, reader: asyncio.StreamReader, idle: float
) -> bool:
    """Whether the next request has begun: its bytes are in (a pipelined one), or come
    within `idle` seconds; False if the client hung up or stayed quiet (the connection
    is then closed quietly)."""
    if connection.their_state is not h11.IDLE:
        return False
    if connection.trailing_data[0]:
        return True
    try:
        async with asyncio.timeout(idle):
            data = await reader.read(READ_CHUNK)
    except (TimeoutError, OSError):
        return False
    if not data:
        return False
    connection.receive_data(data)
    return True


async def read_request(
    connection: h11.Connection,
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    limits: Limits,
) -> Whole | None:
    """The request whose first bytes are in, read whole; None if the client hung up."""
    event = await next_event(connection, reader)
    if isinstance(event, h11.ConnectionClosed):
        return None
    if not isinstance(event, h11.Request):
        raise Refused(400, "Bad Request")
    for name, value in event.headers:
        if name == b"content-length" and int(value) > limits.body_bytes:
            raise Refused(413, "Content Too Large")
    body = bytearray()
    while True:
        if connection.they_are_waiting_for_100_continue:
            writer.write(connection.send(h11.InformationalResponse(status_code=100, headers=[])))
        part = await next_event(connection, reader)
        if isinstance(part, h11.Data):
            body += part.data
            if len(body) > limits.body_bytes:
                raise Refused(413, "Content Too Large")
        elif isinstance(part, h11.EndOfMessage):
            return Whole(event, bytes(body))
        else:  # the client hung up mid-request
            return None


def backend_head(whole: Whole, client: str) -> h11.Request:
    """The request's head as the app's server gets it: on a connection of its own, with
    the client's address and the scheme it used, the body's length known."""
    request = whole.request
    headers = [(n, v) for n, v in request.headers if n not in REQUEST_DROPPED]
    if not any(n == b"host" for n, _ in headers):
        headers.append((b"host", b"localhost"))
    headers += [
        (b"connection", b"close"),
        (b"x-forwarded-proto", b"https"),
        (b"x-forwarded-for", client.encode("ascii")),
        (b"content-length", str(len(whole.body)).encode("ascii")),
    ]
    return h11.Request(method=request.method, target=request.target, headers=headers)


async def open_backend(path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the app's server, waiting for it while it starts."""
    async with asyncio.timeout(BACKEND_START_SECONDS):
        while True:
            try:
                return await asyncio.open_unix_connection(path)
            except (FileNotFoundError, ConnectionRefusedError):
                await asyncio.sleep(0.05)


async def ask_backend(path: str, whole: Whole, client: str) -> tuple[h11.Response, bytes]:
    """The app's answer to the request, read whole."""
    try:
        reader, writer = await open_backend(path)
    except (TimeoutError, OSError) as down:
        raise Refused(502, "Bad Gateway") from down
    backend = h11.Connection(h11.CLIENT)
    try:
        async with asyncio.timeout(BACKEND_ANSWER_SECONDS):
            for outgoing in (backend_head(whole, client), h11.Data(data=whole.body)):
                writer.write(backend.send(outgoing) or b"")
            writer.write(backend.send(h11.EndOfMessage()) or b"")
            response: h11.Response | None = None
            body = bytearray()
            while True:
                event = backend.next_event()
                if event is h11.NEED_DATA:
                    backend.receive_data(await reader.read(READ_CHUNK))
                elif isinstance(event, h11.Response):
                    response = event
                elif isinstance(event, h11.Data):
                    body += event.data
                elif isinstance(event, h11.EndOfMessage) and response is not None:
                    return response, bytes(body)
                elif not isinstance(event, h11.InformationalResponse):
                    raise Refused(502, "Bad Gateway")
    except (TimeoutError, OSError, h11.ProtocolError) as failed:
        raise Refused(502, "Bad Gateway") from failed
    finally:
        writer.close()


async def answer(
    connection: h11.Connection,
    writer: asyncio.StreamWriter,
    response: h11.Response,
    body: bytes,
    seconds: float,
) -> None:
    """Write the app's answer to the client, within `seconds`."""
    headers = [(n, v) for n, v in response.headers if n not in RESPONSE_DROPPED]
    head = h11.Response(status_code=response.status_code, headers=headers, reason=response.reason)
    writer.write(connection.send(head) or b"")
    if body:
        writer.write(connection.send(h11.Data(data=body)) or b"")
    writer.write(connection.send(h11.EndOfMessage()) or b"")
    async with asyncio.timeout(seconds):
        await writer.drain()


class Front:
    """The listening front: its limits, where the app's server listens, and the count of
    connections cut at a deadline (for the tests and the log)."""

    def __init__(self, limits: Limits, backend: str) -> None:
        self.limits = limits
        self.backend = backend

    async def serve_client(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """Every request of one client connection, one at a time, each read whole."""
        peer = writer.get_extra_info("peername")
        client = str(peer[0]) if isinstance(peer, tuple) else "unknown"
        connection = h11.Connection(h11.SERVER, max_incomplete_event_size=HEADERS_LIMIT)
        limits = self.limits
        goodbye = True
        try:
            while await next_request_begins(connection, reader, limits.idle_seconds):
                try:
                    async with asyncio.timeout(limits.request_seconds):
                        whole = await read_request(connection, reader, writer, limits)
                except TimeoutError as late:
                    raise Refused(408, "Request Timeout") from late
                except h11.RemoteProtocolError as bad:
                    raise Refused(bad.error_status_hint, str(bad)) from bad
                if whole is None:
                    break
                response, body = await ask_backend(self.backend, whole, client)
                await answer(connection, writer, response, body, limits.request_seconds)
                if connection.our_state is not h11.DONE or connection.their_state is not h11.DONE:
                    break
                connection.start_next_cycle()
        except Refused as refused:
            with contextlib.suppress(OSError, RuntimeError):
                writer.write(refused.response())
                async with asyncio.timeout(1.0):
                    await writer.drain()
        except (OSError, TimeoutError, h11.ProtocolError):
            pass  # the client went away, or reads too slowly: let it go
        except asyncio.CancelledError:
            goodbye = False  # the front stops (the task ends as if it had finished)
        if goodbye:
            writer.close()  # after what was written, and the TLS close
            with contextlib.suppress(OSError, TimeoutError, ssl.SSLError):
                async with asyncio.timeout(1.0):
                    await writer.wait_closed()
        writer.transport.abort()


async def run(args: argparse.Namespace) -> None:
    """Listen until SIGTERM, SIGINT or the end of standard input."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(args.cert, args.key)
    limits = Limits(
        handshake_seconds=args.handshake_seconds,
        request_seconds=args.request_seconds,
        idle_seconds=args.idle_seconds,
        body_bytes=args.body_bytes,
    )
    front = Front(limits, args.backend)
    server = await asyncio.start_server(
        front.serve_client,
        args.host,
        args.port,
        ssl=context,
        ssl_handshake_timeout=limits.handshake_seconds,
        backlog=1024,
    )
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopped.set)
    if args.parent_pipe:  # its end closes with the server that started this front
        loop.add_reader(0, lambda: None if os.read(0, 1024) else stopped.set())
    print("ready", flush=True)
    async with server:
        await stopped.wait()


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--backend", required=True, help="the app's server's Unix socket")
    parser.add_argument("--handshake-seconds", type=float, default=5.0)
    parser.add_argument("--request-seconds", type=float, default=60.0)
    parser.add_argument("--idle-seconds", type=float, default=75.0)
    parser.add_argument("--body-bytes", type=int, default=14 * 1024 * 1024)
    parser.add_argument(
        "--parent-pipe", action="store_true", help="stop when standard input closes"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    raise_open_files_limit()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))
    return 0


def raise_open_files_limit() -> None:
    """Room for many waiting connections (each is one open file while it waits)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


if __name__ == "__main__":
    raise SystemExit(main())
