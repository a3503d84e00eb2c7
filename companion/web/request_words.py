"""What a request finds once and asks for many times (its catalogs and locale, the app's
kept HTML): kept for the request in a ContextVar, which one call reads, where a look-up
through Flask's `g`, a proxy, takes several (a table tap asks about a hundred times)."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import TypeVar

from flask import Flask, g, has_request_context

T = TypeVar("T")

# Set for each request (`install`), else None.
_KEPT: ContextVar[dict[str, object] | None] = ContextVar("request_words", default=None)


def kept_here() -> dict[str, object] | None:
    """What this request keeps (None outside a request)."""
    kept = _KEPT.get()
    if kept is None and has_request_context():  # a request context pushed by hand (tests)
        kept = g.setdefault("request_words", {})
    return kept


def per_request(name: str, make: Callable[[], T]) -> T:
    """`make()`, made once per request and kept (every time outside a request); `make`
    must not return None."""
    kept = kept_here()
    if kept is None:
        return make()
    found = kept.get(name)
    if found is None:
        found = kept[name] = make()
    return found  # type: ignore[return-value]


def install(app: Flask) -> None:
    """Keep for each request of `app` from its start to its end."""
    app.before_request(_open)
    app.teardown_request(_close)


def _open() -> None:
    kept: dict[str, object] = {}
    kept["token"] = _KEPT.set(kept)


def _close(_error: BaseException | None) -> None:
    kept = _KEPT.get()
    if kept is None:
        return
    try:
        _KEPT.reset(kept["token"])  # type: ignore[arg-type]
    except ValueError:  # set in another context: forget it here all the same
        _KEPT.set(None)
