"""A killed server loses no acknowledged action: the real server process is SIGKILLed
mid-game and restarted on the same database, and the game resumes at the same state."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from companion import create_app, services
from companion.rules import codec
from tests import database

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """Just enough of a browser: cookies, CSRF token from the page, form posts."""

    def __init__(self, base: str) -> None:
        self.base = base
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(jar), NoRedirect()
        )

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=10) as response:
            return str(response.read().decode())

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        data = urllib.parse.urlencode(fields).encode()
        try:
            with self.opener.open(self.base + path, data=data, timeout=10) as response:
                return response.status, ""
        except urllib.error.HTTPError as exc:  # 303 arrives here with NoRedirect
            return exc.code, exc.headers.get("Location", "")


# A board space the player can tap: its place form names the space.
TAPPABLE = re.compile(
    r'name="action" value="place">\s*<input type="hidden" name="house" value="p1">\s*'
    r'<input type="hidden" name="space" value="(\w+)">'
)


def token(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found
    return found.group(1)


def version(html: str) -> str:
    found = re.search(r'data-version="(\d+)"', html)
    assert found
    return found.group(1)


def stamp(html: str) -> str:
    """The game's created stamp, which every write about it sends back."""
    found = re.search(r'name="created" value="([^"]+)"', html)
    assert found
    return found.group(1)


def start(db_url: str, port: int, instance: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, COMPANION_SQLALCHEMY_DATABASE_URI=db_url, COMPANION_SECRET_KEY="kill")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60  # a loaded machine (every core busy) starts it slowly
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    process.wait()
    pytest.fail("the server did not start")


def test_sigkill_loses_no_acknowledged_action(tmp_path):
    db_file = tmp_path / "kill.sqlite"
    db_url = database.file_uri(db_file)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start(db_url, port, tmp_path)
    try:
        browser = Browser(base)
        page = browser.get("/games/new")
        status, location = browser.post(
            "/games",
            {
                "csrf_token": token(page),
                "mode": "solo",
                "difficulty": "sardaukar",  # no Expert deployment question
                "p1_name": "Ann",
                "p1_leader": "paul_atreides",
                "p1_color": "green",
                "r1_leader": "glossu_rabban",
                "r1_color": "red",
                "r2_leader": "memnon_thorvald",
                "r2_color": "yellow",
            },
        )
        assert status == 303
        game_path = location.replace("/setup", "")
        acknowledged = 0
        for _ in range(3):
            page = browser.get(game_path)
            tappable = TAPPABLE.findall(page)
            if not tappable:
                break
            space = tappable[0]
            status, _ = browser.post(
                game_path + "/actions",
                {
                    "csrf_token": token(page),
                    "version": version(page),
                    "created": stamp(page),
                    "action": "place",
                    "house": "p1",
                    "space": space,
                },
            )
            assert status == 303
            acknowledged += 1
        assert acknowledged >= 1
        before = browser.get(game_path)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)

    server = start(db_url, port, tmp_path)
    try:
        after = Browser(base).get(game_path)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
    assert version(after) == version(before)
    assert int(version(after)) == acknowledged

    # The stored log replays to the state the server showed before it was killed.
    app = create_app({"SQLALCHEMY_DATABASE_URI": db_url, "SECRET_KEY": "kill"})
    game_id = int(game_path.rsplit("/", 1)[1])
    with app.app_context():
        services.forget_cache()
        view = services.load(game_id, app.extensions["catalog"])
    occupied = {space for space, house in view.state.occupants.items() if house == "p1"}
    assert len(occupied) == acknowledged
    for space in occupied:
        assert f'id="space-{space}"' in after
    assert codec.encode_setup(view.state.setup)["mode"] == "solo"
