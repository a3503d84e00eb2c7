"""companion.tls: the server's TLS connections wait for a silent client a bounded time
and then end as if it had hung up (issue 17, finding 3: a tablet gone mid-handshake)."""

from __future__ import annotations

import socket
import ssl
import threading
from collections.abc import Iterator

import pytest

from companion.tls import BoundedWaitsSocket, ensure_certificate, server_context

LIMIT = 0.2  # seconds


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    server, client = socket.socketpair()
    yield server, client
    server.close()
    client.close()


def test_the_certificate_names_loopback_and_is_made_once(tmp_path):
    cert, key = ensure_certificate(tmp_path, ["192.168.1.20"])
    made = cert.read_bytes()
    assert ensure_certificate(tmp_path, ["192.168.1.20"]) == (cert, key)
    assert cert.read_bytes() == made  # kept: the tablet trusts this one
    assert key.stat().st_mode & 0o777 == 0o600


def test_a_client_silent_in_the_handshake_ends_it_as_an_eof(tmp_path, pair):
    context = server_context(*ensure_certificate(tmp_path, []), LIMIT, LIMIT)
    server, client = pair
    client.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03")  # a ClientHello's start
    tls = context.wrap_socket(server, server_side=True, do_handshake_on_connect=False)
    assert isinstance(tls, BoundedWaitsSocket)
    with tls, pytest.raises(ssl.SSLEOFError) as ended:
        tls.do_handshake()
    assert ended.value.args[0] == ssl.SSL_ERROR_EOF  # gunicorn closes such a one quietly


def test_a_client_silent_after_the_handshake_ends_its_read_as_an_eof(tmp_path, pair):
    cert, key = ensure_certificate(tmp_path, [])
    context = server_context(cert, key, 5.0, LIMIT)
    server, client = pair
    client_context = ssl.create_default_context(cafile=str(cert))
    client_tls: list[ssl.SSLSocket] = []
    shaking = threading.Thread(
        target=lambda: client_tls.append(
            client_context.wrap_socket(client, server_hostname="localhost")
        )
    )
    shaking.start()
    with context.wrap_socket(server, server_side=True, do_handshake_on_connect=False) as tls:
        tls.do_handshake()
        shaking.join(5)
        assert client_tls, "the client's handshake did not finish"
        with client_tls[0]:
            reads_are_bounded(tls, client_tls[0])


def reads_are_bounded(tls: ssl.SSLSocket, client: ssl.SSLSocket) -> None:
    """A silent client's read ends as an EOF after the limit; a speaking one's is read."""
    assert tls.gettimeout() == LIMIT
    tls.setblocking(True)  # as gunicorn does before each request: still bounded
    assert tls.gettimeout() == LIMIT
    with pytest.raises(ssl.SSLEOFError):
        tls.recv(1)
    client.sendall(b"GET / HTTP/1.1\r\n")
    assert tls.recv(3) == b"GET"  # a client that speaks is read as usual
    tls.setblocking(False)
    assert tls.gettimeout() == 0.0
