"""Static files with versioned URLs (`url_for('static', ...)` adds `?v=<content hash>`, and
an answer to such a URL may be kept by the browser for a year without asking again), and
the web app manifest that "Add to Home screen" reads."""

from __future__ import annotations

import hashlib
import os
from typing import Any

from flask import Flask, Request, Response, current_app, jsonify, request, url_for
from flask_compress import Compress

from companion.lru import LRU
from companion.web.language import gettext as _

YEAR_SECONDS = 365 * 24 * 3600
IMMUTABLE = f"public, max-age={YEAR_SECONDS}, immutable"
STATIC_COMPRESSED_KEPT = 64  # static files' compressed bodies, by encoding and URL
THEME_COLOR = "#15120f"  # the pages' background (static/app.css --bg)
ICON_SIZES = (192, 512)


class StaticVersions:
    """Each static file's content hash, computed again only when the file changes."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self._known: dict[str, tuple[int, int, str]] = {}

    def version(self, filename: str) -> str | None:
        """The first hex digits of the file's SHA-256, or None if there is no such file."""
        path = os.path.join(self.folder, filename)
        try:
            stat = os.stat(path)
        except OSError:
            return None
        known = self._known.get(filename)
        if known and known[:2] == (stat.st_mtime_ns, stat.st_size):
            return known[2]
        with open(path, "rb") as file:
            digest = hashlib.sha256(file.read()).hexdigest()[:12]
        self._known[filename] = (stat.st_mtime_ns, stat.st_size, digest)
        return digest


class CompressedStatic:
    """Flask-Compress's cache, for versioned static files only: each is compressed once
    per encoding, not on every first load of every tablet. Pages are never kept."""

    def __init__(self) -> None:
        self._kept = LRU[str, bytes](STATIC_COMPRESSED_KEPT)

    def get(self, key: str) -> bytes | None:
        return self._kept.get(key)

    def set(self, key: str, value: bytes) -> None:
        if request.endpoint == "static" and request.args.get("v"):
            self._kept.put(key, value)


def _compressed_key(req: Request) -> str:
    return req.full_path


def _versions() -> StaticVersions:
    return current_app.extensions["static_versions"]  # type: ignore[no-any-return]


def add_version(endpoint: str, values: dict[str, Any]) -> None:
    """url_defaults: `static` URLs carry the file's content hash as `v`."""
    if endpoint != "static" or "v" in values or "filename" not in values:
        return
    version = _versions().version(str(values["filename"]))
    if version:
        values["v"] = version


def cache_static(response: Response) -> Response:
    """A static file asked for at its current version never changes: cache it for a year.
    Any other static URL (an old version, none) is checked again on each use."""
    if request.endpoint != "static" or response.status_code != 200:
        return response
    filename = (request.view_args or {}).get("filename", "")
    if request.args.get("v") and request.args.get("v") == _versions().version(filename):
        response.headers["Cache-Control"] = IMMUTABLE
    # Read into memory (the file is closed with the response), so Flask-Compress gzips it
    # whole with a Content-Length, rather than streaming it chunked from an open file.
    response.direct_passthrough = False
    response.make_sequence()
    return response


def manifest() -> Response:
    """The web app manifest: the installed app opens full screen on the home page."""
    icons = [
        {
            "src": url_for("static", filename=f"icons/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for size in ICON_SIZES
        for purpose in ("any", "maskable")  # full bleed: the sun is inside the safe zone
    ]
    answer = jsonify(
        name=_("Dune: Imperium companion"),
        short_name=_("Dune companion"),
        description=_("House Hagal rivals, score keeping and rules lookup at the table."),
        start_url=url_for("games.home"),
        scope="/",
        display="standalone",
        orientation="any",
        background_color=THEME_COLOR,
        theme_color=THEME_COLOR,
        icons=icons,
    )
    answer.mimetype = "application/manifest+json"
    return answer


def install(app: Flask) -> None:
    """Version the static URLs, cache and compress what they answer, serve the manifest."""
    app.extensions["static_versions"] = StaticVersions(app.static_folder or "")
    app.url_defaults(add_version)
    app.add_url_rule("/manifest.webmanifest", "manifest", manifest)
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.config.setdefault("COMPRESS_CACHE_BACKEND", CompressedStatic)
    app.config.setdefault("COMPRESS_CACHE_KEY", _compressed_key)
    # gzip (or br, zstd) for pages, fragments, scripts and styles
    app.extensions["compress"] = Compress(app)
    app.after_request(cache_static)  # registered after, so it runs before Compress's
