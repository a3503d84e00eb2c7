"""Issue 29, findings 1 and 2: slow and silent clients cannot starve `companion.serve
--https`. Against the real server, with short deadlines: 50 connections that send their
request's headers a byte at a time, 50 that send a body a byte at a time and 50 that
never start a TLS handshake, all at once, while a player taps (places an Agent, undoes
it) on a server of two threads. Counted, not timed: every tap is answered, and each slow
or silent connection is closed by the server while its client is still sending (so a
limit per byte would never have cut it), no sooner than its deadline."""

from __future__ import annotations

import http.cookiejar
import socket
import ssl
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from companion.tls import ensure_certificate
from tests.server.test_https import start_server, stop, trusting
from tests.server.test_kill import TAPPABLE, NoRedirect, stamp, token, version
from tests.web.conftest import SOLO_FORM

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="gunicorn: Linux, macOS")

HANDSHAKE_SECONDS = 1.0
REQUEST_SECONDS = 2.0
EACH = 50  # slow-header, slow-body and silent connections
DRIP_SECONDS = 0.25  # a slow client's pause between two bytes
GIVE_UP_SECONDS = 6 * REQUEST_SECONDS  # a slow client stops here if still open
TAPS = 6


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    return ensure_certificate(tmp_path / "tls", [])


class Player:
    """A tablet over HTTPS: cookies, the page's CSRF token, form posts (303 expected)."""

    def __init__(self, port: int, context: ssl.SSLContext) -> None:
        self.base = f"https://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=context),
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            NoRedirect(),
        )

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=10) as response:
            return str(response.read().decode())

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        data = urllib.parse.urlencode(fields).encode()
        # Over HTTPS the CSRF check wants the page's address, as a browser sends it.
        sent = urllib.request.Request(self.base + path, data, {"Referer": self.base + "/"})
        try:
            with self.opener.open(sent, timeout=10) as response:
                return response.status, ""
        except urllib.error.HTTPError as exc:  # 303 arrives here with NoRedirect
            return exc.code, exc.headers.get("Location", "")


def new_game(player: Player) -> str:
    page = player.get("/games/new")
    status, location = player.post(
        "/games",
        SOLO_FORM | {"csrf_token": token(page), "difficulty": "sardaukar"},
    )
    assert status == 303, status
    return location.replace("/setup", "")


def tap(player: Player, game: str, change: str) -> int:
    """One tap on the table: place the player's Agent, or undo that; the answer's status."""
    page = player.get(game)
    fields = {"csrf_token": token(page), "version": version(page), "created": stamp(page)}
    if change == "undo":
        return player.post(f"{game}/undo", fields)[0]
    space = TAPPABLE.findall(page)[0]
    fields |= {"action": "place", "house": "p1", "space": space}
    return player.post(f"{game}/actions", fields)[0]


class Slow:
    """One connection whose client sends a byte every DRIP_SECONDS (a silent one:
    nothing) until the server closes it, or GIVE_UP_SECONDS pass."""

    def __init__(self, sock: socket.socket, head: bytes, drip: bytes) -> None:
        self.sock = sock
        self.drip = drip
        self.sent = 0
        self.started = time.monotonic()
        self.closed_after: float | None = None
        if head:
            sock.sendall(head)

    def step(self) -> None:
        """Send the next byte, or notice that the server closed the connection."""
        if self.closed_after is not None:
            return
        try:
            if self.server_closed():
                self.closed_after = time.monotonic() - self.started
                return
            if self.drip:
                at = self.sent % len(self.drip)
                self.sock.sendall(self.drip[at : at + 1])
                self.sent += 1
        except (OSError, ssl.SSLError):
            self.closed_after = time.monotonic() - self.started

    def server_closed(self) -> bool:
        """Whether the server ended the connection (its 408 and close, or a reset)."""
        self.sock.setblocking(False)
        try:
            while True:
                data = self.sock.recv(4096)
                if not data:
                    return True
        except (BlockingIOError, ssl.SSLWantReadError):
            return False
        finally:
            self.sock.setblocking(True)


def tls_connection(port: int, context: ssl.SSLContext) -> ssl.SSLSocket:
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    return context.wrap_socket(raw, server_hostname="127.0.0.1")


def test_slow_and_silent_clients_are_cut_at_their_deadline_while_every_tap_is_answered(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    options = ["--https", "--cert", str(cert), "--key", str(key), "--threads", "2"]
    options += ["--handshake-seconds", str(HANDSHAKE_SECONDS)]
    options += ["--request-seconds", str(REQUEST_SECONDS)]
    process, port = start_server(tmp_path, *options)
    context = trusting((cert, key))
    player = Player(port, context)
    slow: list[Slow] = []
    silent: list[Slow] = []
    try:
        game = new_game(player)
        for _ in range(EACH):  # TCP only: no ClientHello, ever
            silent.append(Slow(socket.create_connection(("127.0.0.1", port)), b"", b""))
        header_bytes = b"X-Slow: " + b"a" * 200 + b"\r\n"
        for _ in range(EACH):
            head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            slow.append(Slow(tls_connection(port, context), head, header_bytes))
        body_head = (
            f"POST {game}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            "Content-Length: 100000\r\n\r\n"
        ).encode()
        for _ in range(EACH):
            slow.append(Slow(tls_connection(port, context), body_head, b"action=place&"))

        answers: list[int] = []

        def tapping() -> None:
            for number in range(TAPS):
                answers.append(tap(player, game, "undo" if number % 2 else "place"))

        tapper = threading.Thread(target=tapping)
        tapper.start()
        give_up = time.monotonic() + GIVE_UP_SECONDS
        every = slow + silent
        while time.monotonic() < give_up and any(s.closed_after is None for s in every):
            for connection in every:
                connection.step()
            time.sleep(DRIP_SECONDS)
        tapper.join(30)
    finally:
        for connection in slow + silent:
            connection.sock.close()
        status, output = stop(process)
    assert status == 0, output

    assert answers == [303] * TAPS  # every tap answered, and applied
    cut = [s.closed_after for s in slow if s.closed_after is not None]
    assert len(cut) == 2 * EACH  # each slow connection closed while it still sent...
    assert min(cut) >= REQUEST_SECONDS  # ...and none before its deadline
    quiet = [s.closed_after for s in silent if s.closed_after is not None]
    assert len(quiet) == EACH  # each silent one closed...
    assert min(quiet) >= HANDSHAKE_SECONDS  # ...at its handshake's deadline
