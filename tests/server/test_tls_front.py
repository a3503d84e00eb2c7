"""companion.tls_front in-process, over plain loopback TCP (the TLS itself is asyncio's):
what the app's server receives, and what a client that sends too much or nonsense gets."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from companion.tls_front import Front, Limits

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Unix sockets")

LIMITS = Limits(handshake_seconds=1, request_seconds=2, idle_seconds=2, body_bytes=1000)
ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"


async def exchange(folder: Path, sent: bytes) -> tuple[bytes, list[bytes]]:
    """What a client that sends `sent` and then waits gets back, and what the app's
    server (a fake that answers "ok" to each request) received."""
    received: list[bytes] = []

    async def app(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            (int(line.split(b":")[1]) for line in head.split(b"\r\n") if b"content-length" in line),
            0,
        )
        received.append(head + await reader.readexactly(length))
        writer.write(ANSWER)
        await writer.drain()
        writer.close()

    socket_path = folder / "app.sock"
    backend = await asyncio.start_unix_server(app, str(socket_path))
    front = await asyncio.start_server(Front(LIMITS, str(socket_path)).serve_client, "127.0.0.1", 0)
    port = front.sockets[0].getsockname()[1]
    async with backend, front:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(sent)
        async with asyncio.timeout(10):
            answer = await reader.read()  # until the front closes the connection
        writer.close()
    return answer, received


def run(folder: Path, sent: bytes) -> tuple[bytes, list[bytes]]:
    return asyncio.run(exchange(folder, sent))


def test_requests_reach_the_app_whole_with_the_scheme_and_no_claims_of_the_client(tmp_path):
    chunked = (
        b"POST /games/1/actions HTTP/1.1\r\nHost: table.local\r\n"
        b"Transfer-Encoding: chunked\r\nX-Forwarded-Proto: http\r\nX-Forwarded-For: 6.6.6.6\r\n"
        b"\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
    )
    closing = b"GET /cards HTTP/1.1\r\nHost: table.local\r\nConnection: close\r\n\r\n"
    answer, received = run(tmp_path, chunked + closing)  # two on one connection
    assert answer.count(b"HTTP/1.1 200 OK") == 2 and answer.endswith(b"ok")
    assert b"connection: close" in answer.lower()  # the second asked for it
    first, second = received
    assert first.endswith(b"\r\n\r\nhello world")
    assert b"content-length: 11\r\n" in first and b"transfer-encoding" not in first
    assert b"x-forwarded-proto: https\r\n" in first and b"x-forwarded-proto: http\r\n" not in first
    assert b"x-forwarded-for: 127.0.0.1\r\n" in first and b"6.6.6.6" not in first
    assert second.startswith(b"GET /cards HTTP/1.1\r\n")


def test_a_body_over_the_limit_is_refused_before_the_app_sees_it(tmp_path):
    sent = b"POST /import HTTP/1.1\r\nHost: t\r\nContent-Length: 1001\r\n\r\n" + b"x" * 1001
    answer, received = run(tmp_path, sent)
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert received == []


def test_a_request_that_is_not_http_gets_a_400(tmp_path):
    answer, received = run(tmp_path, b"\x00\x01 nonsense\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert received == []


def test_a_request_cut_at_its_deadline_gets_a_408(tmp_path):
    answer, received = run(tmp_path, b"GET / HTTP/1.1\r\nHost: t\r\n")  # never ends
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert received == []
