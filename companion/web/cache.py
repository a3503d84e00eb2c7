"""Rendered pages per game version: a game's page only changes when its version does.

Pages carry a CSRF token that differs per browser session, so they are rendered once with
a placeholder and the token is put in for each response.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import current_app
from flask_wtf.csrf import generate_csrf

PLACEHOLDER = "\x00csrf-token\x00"  # can't occur in rendered HTML
SIZE = 256


class RenderCache:
    """A small LRU of rendered HTML, one per app."""

    def __init__(self) -> None:
        self.items: OrderedDict[Hashable, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable, render: Callable[[], str]) -> str:
        with self.lock:
            html = self.items.get(key)
            if html is not None:
                self.items.move_to_end(key)
        if html is None:
            html = render()
            with self.lock:
                self.items[key] = html
                while len(self.items) > SIZE:
                    self.items.popitem(last=False)
        return with_token(html)


def with_token(html: str) -> str:
    """Put this session's CSRF token where the placeholder was rendered."""
    if PLACEHOLDER not in html:
        return html
    token = generate_csrf() if current_app.config.get("WTF_CSRF_ENABLED", True) else ""
    return html.replace(PLACEHOLDER, token)


def placeholder_token() -> str:
    return PLACEHOLDER


def render_cache() -> RenderCache:
    cache = current_app.extensions.get("render_cache")
    if cache is None:
        cache = current_app.extensions.setdefault("render_cache", RenderCache())
    return cache  # type: ignore[no-any-return]
