"""htmx helpers (htmx-flask gives `request.htmx`)."""

from __future__ import annotations

from flask import Response, render_template
from flask.typing import ResponseReturnValue
from htmx_flask import request


def is_htmx() -> bool:
    """True for htmx swaps; False for full loads and history restores (STYLE.md §2.5)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def add_vary(response: Response) -> Response:
    """A cache must never serve a fragment where a page was wanted."""
    response.vary.add("HX-Request")
    return response


def alert(message: str) -> str:
    """A message alone, for an htmx swap that has no page around it."""
    return render_template("_alert.html", message=message)


def error_answer(code: int, message: str, template: str = "error.html") -> ResponseReturnValue:
    """The message alone for an htmx swap, else the page `template` around it."""
    if is_htmx():
        return alert(message), code
    return render_template(template, code=code, message=message), code
