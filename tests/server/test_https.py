"""Issue 17, finding 3: the real `python -m companion.serve --https` on a loopback port.
A connection that sends nothing, or stops in the middle of its TLS handshake, does not
delay another client's request; connections are kept alive between polls. (Many slow
and silent clients at once: test_https_slow_clients.py.)"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.serve import HANDSHAKE_SECONDS
from companion.tls import ensure_certificate
from tests import database
from tests.server.test_kill import ROOT, free_port

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="gunicorn: Linux, macOS")

TIMEOUT = 5.0  # seconds: a blocked server makes the request time out instead
CLIENT_HELLO_START = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"  # then nothing


def start_server(tmp_path: Path, *options: str) -> tuple[subprocess.Popen[bytes], int]:
    """The real server on a free loopback port, once it accepts connections."""
    port = free_port()
    env = dict(
        os.environ,
        COMPANION_SQLALCHEMY_DATABASE_URI=database.file_uri(tmp_path / "https.sqlite"),
        COMPANION_SECRET_KEY="https",
    )
    command = [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1"]
    process = subprocess.Popen(
        [*command, "--port", str(port), *options],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail(f"the server did not start: {process.communicate()[0].decode()}")


def stop(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    """SIGTERM, as a service manager stops it: its exit status and what it printed."""
    process.send_signal(signal.SIGTERM)
    try:
        output, _ = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    return process.returncode, output.decode()


@pytest.fixture
def certificate(tmp_path) -> tuple[Path, Path]:
    return ensure_certificate(tmp_path / "tls", [])


@pytest.fixture
def https_server(tmp_path, certificate) -> Iterator[int]:
    cert, key = certificate
    process, port = start_server(tmp_path, "--https", "--cert", str(cert), "--key", str(key))
    yield port
    status, output = stop(process)
    assert status == 0, output


def trusting(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(certificate[0]))


def https_get(port: int, context: ssl.SSLContext, path: str = "/") -> http.client.HTTPResponse:
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=TIMEOUT, context=context)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_an_idle_connection_does_not_delay_another_clients_request(https_server, certificate):
    with socket.create_connection(("127.0.0.1", https_server), timeout=TIMEOUT) as idle:
        time.sleep(0.2)  # the server has accepted it; it sends no ClientHello
        response = https_get(https_server, trusting(certificate))
        assert response.status == 200
        again = https_get(https_server, trusting(certificate), "/cards")
        assert again.status == 200
        idle.settimeout(0)
        with pytest.raises(BlockingIOError):
            idle.recv(1)  # still open and waiting: nothing was cut short to answer


def test_a_handshake_stopped_halfway_does_not_delay_another_clients_request(
    https_server, certificate
):
    stalled = socket.create_connection(("127.0.0.1", https_server), timeout=TIMEOUT)
    try:
        stalled.sendall(CLIENT_HELLO_START)
        time.sleep(0.2)
        assert https_get(https_server, trusting(certificate)).status == 200
    finally:
        stalled.close()


def test_more_stalled_handshakes_than_threads_are_cut_off_after_the_time_limit(
    tmp_path, certificate
):
    """A stalled handshake holds no server thread, and is cut at the handshake's
    deadline (--handshake-seconds; serve.HANDSHAKE_SECONDS by default)."""
    cert, key = certificate
    options = ("--https", "--cert", str(cert), "--key", str(key), "--threads", "2")
    process, port = start_server(tmp_path, *options, "--handshake-seconds", "1")
    stalled = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
    try:
        for held in stalled:
            held.sendall(CLIENT_HELLO_START)
        time.sleep(0.5)  # the server has all three
        context = trusting(certificate)
        connection = http.client.HTTPSConnection(
            "127.0.0.1", port, timeout=3 * HANDSHAKE_SECONDS, context=context
        )
        connection.request("GET", "/")
        assert connection.getresponse().status == 200
        connection.close()
        for cut_off in stalled[:2]:
            cut_off.settimeout(TIMEOUT)
            assert cut_off.recv(1) == b""  # the server closed it
    finally:
        for held in stalled:
            held.close()
        status, output = stop(process)
    assert status == 0, output


def test_https_answers_keep_the_connection_alive_and_carry_secure_cookies(
    https_server, certificate
):
    connection = http.client.HTTPSConnection(
        "127.0.0.1", https_server, timeout=TIMEOUT, context=trusting(certificate)
    )
    try:
        connection.request("GET", "/games/new")
        first = connection.getresponse()
        first.read()
        used = connection.sock
        connection.request("GET", "/", headers={"Host": f"companion.example:{https_server}"})
        second = connection.getresponse()
        second.read()
        assert connection.sock is used  # the second poll rode the same TLS connection
    finally:
        connection.close()
    assert first.status == 200 and second.status == 200
    cookie = first.getheader("Set-Cookie") or ""
    assert "; Secure" in cookie and "SameSite=Lax" in cookie
    assert first.getheader("Strict-Transport-Security") is None  # an IP address
    assert second.getheader("Strict-Transport-Security") == "max-age=3600"


def test_plain_http_with_two_workers_serves_without_secure_cookies_and_stops_cleanly(
    tmp_path,
):
    process, port = start_server(tmp_path, "--workers", "2")
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        connection.request("GET", "/games/new", headers={"X-Forwarded-Proto": "https"})
        response = connection.getresponse()
        response.read()
        connection.close()
    finally:
        status, output = stop(process)
    assert response.status == 200
    assert "Secure" not in (response.getheader("Set-Cookie") or "")
    assert response.getheader("Strict-Transport-Security") is None  # no proxy is trusted
    assert status == 0, output
