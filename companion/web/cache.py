"""Rendered HTML kept between requests, so that a tap re-renders only what it changed.

- Pages per game version (`render_cache`): a game's page only changes when its version
  does. Pages carry a CSRF token that differs per browser session, and forms carry the
  game's version and the house whose turn it is, so these are rendered as placeholders
  and put in for each response (`with_token`). A board space or the turn panel thus
  looks the same whoever's turn it is, and is rendered again only when what it shows
  changed.
- The parts of a game's page (`fragments`): each board space and side panel keeps the
  HTML it was last rendered to, with the view it was rendered from; while its view stays
  equal, the next page reuses the HTML. A placement changes a few spaces, the banner and
  the log, so that is all a tap renders.
- Pieces that depend on nothing but their arguments and the language (a house's chip, a
  rules link, a space's name and cost): `piece("chip", color, name)` renders the macro of
  games/_pieces.html once.

Kept HTML is ASCII (`ascii_html`: other characters become character references, which
browsers show the same), so that a page put together from it is ASCII too: Python then
joins it, fills in its placeholders and encodes it at one byte a character instead of two
or four (one "⚔" made the whole table screen two bytes a character).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextvars import ContextVar

from flask import Flask, current_app, get_template_attribute, has_request_context
from jinja2.runtime import Macro
from markupsafe import Markup

from companion.web.csrf import csrf_token
from companion.web.i18n import translations

PLACEHOLDER = "\x00csrf-token\x00"  # can't occur in rendered HTML
VERSION = "\x00version\x00"
HOUSE = "\x00house\x00"  # the house whose turn it is, as the Agent turn's forms post it
_PLACEHOLDERS = re.compile(f"({'|'.join(re.escape(p) for p in (PLACEHOLDER, VERSION, HOUSE))})")
SIZE = 256
GAMES = 64  # games whose page parts are kept
PIECES = "games/_pieces.html"
PIECES_SIZE = 4096


class RenderCache:
    """A small LRU of rendered HTML, one per app."""

    def __init__(self) -> None:
        self.items: OrderedDict[Hashable, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(
        self,
        key: Hashable,
        render: Callable[[], str],
        version: int | None = None,
        house: str | None = None,
    ) -> str:
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
        return with_token(html, version, house)


def ascii_html(html: str) -> Markup:
    """`html` with every character outside ASCII as a character reference."""
    if not html.isascii():
        html = html.encode("ascii", "xmlcharrefreplace").decode("ascii")
    return html if isinstance(html, Markup) else Markup(html)


def with_token(html: str, version: int | None = None, house: str | None = None) -> str:
    """Put this session's CSRF token, the game's version and the house whose turn it is
    where their placeholders were rendered (in one pass: each pass over a table page
    takes some 20 µs)."""
    pieces = _PLACEHOLDERS.split(html)  # text, placeholder, text, ..., text
    found = set(pieces[1::2])
    if not found:
        return html
    values: dict[str, str] = {}
    if PLACEHOLDER in found:
        enabled = current_app.config.get("WTF_CSRF_ENABLED", True)
        values[PLACEHOLDER] = csrf_token() if enabled else ""
    if version is not None:
        values[VERSION] = str(version)
    if house is not None:
        values[HOUSE] = house
    pieces[1::2] = [values.get(p, p) for p in pieces[1::2]]
    return "".join(pieces)


def placeholder_token() -> str:
    return PLACEHOLDER


def render_cache() -> RenderCache:
    cache = current_app.extensions.get("render_cache")
    if cache is None:
        cache = current_app.extensions.setdefault("render_cache", RenderCache())
    return cache  # type: ignore[no-any-return]


class Fragments:
    """One game's page parts: per slot, the HTML last rendered and what it came from.

    A slot's macro may read only its arguments and what is the same for the whole game
    (the game's URLs, the placeholders, the language), so equal arguments give equal
    HTML. Each slot keeps one rendering, the latest: a part is rendered again exactly
    when what it shows changed since the game's last page.
    """

    def __init__(self) -> None:
        self.parts: dict[Hashable, tuple[tuple[object, ...], Markup]] = {}

    def get(self, slot: Hashable, macro: Macro | Callable[..., str], *args: object) -> Markup:
        """`macro(*args)`, or the same HTML as last time if `slot` was last rendered from
        equal arguments."""
        key = (translations(), *args)
        known = self.parts.get(slot)
        if known is not None and known[0] == key:
            return known[1]
        html = ascii_html(macro(*args))
        self.parts[slot] = (key, html)  # one assignment: a concurrent reader sees either
        return html


def fragments(game_id: int, created: str) -> Fragments:
    """The page parts kept for this game (a new game that reused the id starts afresh)."""
    games = current_app.extensions.get("fragments")
    if games is None:
        games = current_app.extensions.setdefault("fragments", _Games())
    return games.get((game_id, created))  # type: ignore[no-any-return]


class _Games:
    def __init__(self) -> None:
        self.items: OrderedDict[tuple[int, str], Fragments] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[int, str]) -> Fragments:
        with self.lock:
            found = self.items.get(key)
            if found is None:
                found = self.items[key] = Fragments()
                while len(self.items) > GAMES:
                    self.items.popitem(last=False)
            else:
                self.items.move_to_end(key)
            return found


class _Pieces:
    """Rendered macro calls of PIECES, by macro, arguments and language."""

    def __init__(self) -> None:
        self.items: dict[Hashable, Markup] = {}
        self.lock = threading.Lock()


# The app's pieces, kept for the rest of the request from its first piece: a table screen
# asks for some hundred pieces, and reaching the app through `current_app` each time cost
# a microsecond or more. Each thread of the server has its own; `_forget` ends it.
_request_pieces: ContextVar[_Pieces | None] = ContextVar("companion_pieces", default=None)


def _pieces() -> _Pieces:
    found = _request_pieces.get()
    if found is None:
        found = current_app.extensions.get("pieces")
        if found is None:
            found = current_app.extensions.setdefault("pieces", _Pieces())
        if has_request_context():
            _request_pieces.set(found)
    return found


def _forget(_exc: BaseException | None = None) -> None:
    _request_pieces.set(None)


def install(app: Flask) -> None:
    """End each request's hold on the app's pieces when the request ends."""
    app.teardown_request(_forget)


def piece(macro: str, *args: Hashable) -> Markup:
    """The macro `macro` of PIECES called with `args`: rendered once per language."""
    cache = _pieces()
    key = (macro, args, translations())
    found: Markup | None = cache.items.get(key)
    if found is None:
        found = ascii_html(get_template_attribute(PIECES, macro)(*args))
        with cache.lock:
            if len(cache.items) >= PIECES_SIZE:
                cache.items.clear()
            cache.items[key] = found
    return found
