"""Requests whose Host header is no host name are refused before the app sees them: the
app builds its links and the stickers' addresses from that header."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

# A DNS name (labels of 1 to 63 letters, digits or hyphens) or a bracketed IPv6 address,
# with an optional port.
_HOST = re.compile(
    r"(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?"
)
MAX_HOST = 253 + 6  # the longest DNS name, a colon and a port


def valid_host(host: str) -> bool:
    found = _HOST.fullmatch(host)
    port = found.group(1) if found else None
    return bool(found) and len(host) <= MAX_HOST and (port is None or int(port) <= 65535)


class RefuseBadHosts:
    """WSGI middleware: 400 for a Host header that is not a host name (a request without
    one, as HTTP/1.0 allows, gets the server's own name)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if "HTTP_HOST" in environ and not valid_host(environ["HTTP_HOST"]):
            body = b"Bad Host header."
            start_response(
                "400 Bad Request",
                [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
            )
            return [body]
        return self.app(environ, start_response)
