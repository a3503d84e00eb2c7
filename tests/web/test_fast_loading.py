"""Issue 20: pages load fast on a weak Wi-Fi, the app installs on the home screen, and a
screen that follows a game keeps its connection open between polls."""

from __future__ import annotations

import gzip
import hashlib
import http.client
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

from companion import ROOT
from companion.web.assets import IMMUTABLE
from tests.web.conftest import HX

STATIC = ROOT / "static"


def static_urls(body: str) -> list[str]:
    return re.findall(r'(?:href|src|data-[a-z-]+)="(/static/[^"]+)"', body)


def test_the_table_page_is_gzipped(game, client):
    game_id = game.new_solo()
    plain = client.get(f"/games/{game_id}")
    packed = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.vary and "HX-Request" in packed.vary
    unpacked = gzip.decompress(packed.data)
    assert b'id="game"' in unpacked and len(unpacked) == len(plain.data)  # (a new CSRF token)
    assert len(packed.data) * 3 < len(plain.data)


def test_a_tap_answer_is_gzipped_too(game, client):
    game_id = game.new_solo()
    packed = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"} | HX)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert b'id="game"' in gzip.decompress(packed.data)


def test_static_urls_carry_the_files_content_hash(game, client):
    body = client.get(f"/games/{game.new_solo()}").get_data(as_text=True)
    urls = static_urls(body)
    names = {url.split("?")[0].removeprefix("/static/") for url in urls}
    assert {"app.css", "app.js", "follow.js", "awake.js", "vendor/htmx-2.0.11.min.js"} <= names
    for url in urls:
        path, _, query = url.partition("?v=")
        digest = hashlib.sha256((STATIC / path.removeprefix("/static/")).read_bytes())
        assert query == digest.hexdigest()[:12], url


def test_a_versioned_static_file_is_cached_for_a_year(client):
    digest = hashlib.sha256((STATIC / "app.css").read_bytes()).hexdigest()[:12]
    with client.get(f"/static/app.css?v={digest}") as response:
        assert response.status_code == 200
    assert response.headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"


@pytest.mark.parametrize("query", ["", "?v=0123456789ab", "?v="])
def test_an_unversioned_or_old_static_url_is_checked_again(client, query):
    with client.get(f"/static/app.css{query}") as response:
        assert response.status_code == 200
    assert "immutable" not in response.headers.get("Cache-Control", "")


def test_static_scripts_are_compressed(client):
    with client.get("/static/app.js", headers={"Accept-Encoding": "gzip, deflate"}) as response:
        assert response.headers["Content-Encoding"] in {"gzip", "deflate"}


def test_the_manifest_installs_a_full_screen_app_with_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["name"] == "Dune: Imperium companion"
    assert manifest["short_name"] == "Dune companion" and len(manifest["short_name"]) <= 15
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    sizes = set()
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as answer:
            assert answer.status_code == 200 and answer.mimetype == icon["type"] == "image/png"
            png = answer.data
        width, height = int.from_bytes(png[16:20]), int.from_bytes(png[20:24])
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes  # what Chrome wants to offer the install
    assert {"any", "maskable"} == {icon["purpose"] for icon in manifest["icons"]}


def test_every_page_links_the_manifest_icons_and_apple_tags(client):
    body = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in body
    assert '<meta name="apple-mobile-web-app-capable" content="yes">' in body
    assert '<meta name="apple-mobile-web-app-title" content="Dune companion">' in body
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)"', body)
    assert touch
    with client.get(touch.group(1)) as icon:
        assert icon.status_code == 200
    assert Path(STATIC / "icons" / "icon.svg").read_text().startswith("<svg")


def test_the_version_endpoint_answers_empty_until_the_game_changes(game, client):
    game_id = game.new_solo()
    unchanged = client.get(f"/games/{game_id}/version?v=0")
    assert unchanged.status_code == 200 and unchanged.data == b""
    assert unchanged.headers["Cache-Control"] == "no-store"
    game.do(game_id, game.legal(game_id)[0])
    changed = client.get(f"/games/{game_id}/version?v=0")
    assert changed.data == b"1" and changed.headers["Cache-Control"] == "no-store"
    assert client.get(f"/games/{game_id}/version?v=1").data == b""
    assert client.get("/games/999/version?v=0").status_code == 404


def test_only_game_screens_follow_the_game(game, client):
    game_id = game.new_solo()
    table = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert (
        f'<meta name="follow" data-poll="/games/{game_id}/version" '
        f'data-get="/games/{game_id}" data-target="#game"'
    ) in table
    assert '<meta name="follow"' not in client.get("/").get_data(as_text=True)
    assert '<meta name="follow"' not in client.get(f"/games/{game_id}/fix").get_data(as_text=True)


@pytest.fixture
def waitress_url(app: Flask) -> Iterator[tuple[str, int]]:
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    stop = threading.Event()

    def serve() -> None:
        # server.run() loops until its sockets close under it (EBADF in the thread when
        # closed from here): loop in short turns instead and stop between two of them.
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield "127.0.0.1", server.effective_port
    stop.set()
    thread.join()
    # The listening socket and every connection the loop had not yet seen closed (one
    # left to the garbage collector warned in a later test).
    wasyncore.close_all(server._map)
    server.task_dispatcher.shutdown()


@pytest.mark.parametrize("poll", ["/games/{id}/live/board?v=0", "/games/{id}/version?v=0"])
def test_an_unchanged_poll_keeps_the_connection_open(game, waitress_url, poll):
    """waitress closes the connection after every 204 or 304 (it sends no Content-Length
    there): the unchanged answer is an empty 200, so one connection serves every poll."""
    game_id = game.new_solo()
    host, port = waitress_url
    connection = http.client.HTTPConnection(host, port, timeout=10)
    connection.connect()
    sock = connection.sock
    for _ in range(3):
        connection.request("GET", poll.format(id=game_id), headers=HX)
        response = connection.getresponse()
        assert response.read() == b"" and response.status == 200
        assert response.getheader("Connection") != "close"
        assert response.getheader("Content-Length") == "0"
        assert not response.will_close
    assert connection.sock is sock  # the same socket all along
    connection.close()


def test_a_static_file_is_compressed_once_and_pages_every_time(game, app, client):
    digest = hashlib.sha256((STATIC / "app.css").read_bytes()).hexdigest()[:12]
    gzip_only = {"Accept-Encoding": "gzip"}
    with client.get(f"/static/app.css?v={digest}", headers=gzip_only) as first:
        packed = first.data
    with client.get(f"/static/app.css?v={digest}", headers=gzip_only) as again:
        assert again.data == packed
    assert gzip.decompress(packed) == (STATIC / "app.css").read_bytes()
    game_id = game.new_solo()
    client.get(f"/games/{game_id}", headers=gzip_only)
    kept = app.extensions["compress"].cache
    assert kept.get(f"gzip;/static/app.css?v={digest}") == packed
    assert kept.get(f"gzip;/games/{game_id}?") is None


def test_a_changed_static_file_gets_a_new_version(tmp_path):
    from companion.web.assets import StaticVersions

    versions = StaticVersions(str(tmp_path))
    (tmp_path / "a.css").write_text("body { color: red }")
    first = versions.version("a.css")
    assert first == hashlib.sha256(b"body { color: red }").hexdigest()[:12]
    (tmp_path / "a.css").write_text("body { color: blue; }")
    assert versions.version("a.css") not in {None, first}
    assert versions.version("missing.css") is None
