"""HTML kept from one tap to the next (issue 26's tap budget): parts of the table screen
that a tap's answer draws again although they mostly look as they did.

- The board's 22 spaces: a placement changes one or two of them, and the others look to
  the next player as they did on that player's last turn (94% of the spaces drawn over the
  four-player golden game were kept ones); and its 8 areas, each with its spaces, most
  of which the three turns since look the same.
- Each house's VP ledger in the score, which changes only with that house's VP, and its
  VP and Influence cells.
- A player's turn buttons (Reveal, the card effects, the Rise of Ix icons), the same on
  most of that player's turns, and the banner's Undo and Redo.

Such a part's HTML depends only on its macro's arguments (frozen views), the language and
the app's root, so the macro draws it once per such key. A tappable space's form starts
with the version's own opening (its CSRF token and version: `place`), put in where PLACE
marks it; a space the acting player may infiltrate has a form of its own, and is drawn
every time. The forms of the other kept parts get the version's hidden fields where
HIDDEN marks them (`kept_forms`). tests/web/test_kept_html.py compares the kept HTML
with a fresh drawing at every step of a game.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request
from markupsafe import Markup

from companion.lru import LRU
from companion.web.language import page_locale
from companion.web.present.views import SpaceView
from companion.web.request_words import per_request

PLACE = Markup("<!--place-->")
HIDDEN = Markup("<!--hidden-->")
# A few screens in a few languages, four players, the spaces' states between two taps.
KEPT = 4096


def install(app: Flask) -> None:
    app.extensions["kept_html"] = LRU[tuple[object, ...], str](KEPT)
    app.add_template_global(kept)
    app.add_template_global(kept_space)
    app.add_template_global(kept_area)
    app.add_template_global(kept_forms)


def _kept_html() -> tuple[LRU[tuple[object, ...], str], str]:
    """The app's kept HTML, and the app's root, which its links begin with."""
    return current_app.extensions["kept_html"], request.script_root


def kept(draw: Any, *args: object) -> Markup:
    """The HTML of `draw(*args)`, a macro whose HTML depends on nothing else than its
    arguments and the page's language, drawn once per key and kept."""
    store, root = per_request("kept_html", _kept_html)
    key = (root, page_locale(), draw.name, args)
    html = store.get(key)
    if html is None:
        html = str(draw(*args))
        store.put(key, html)
    return Markup(html)


def kept_space(
    draw: Any,
    space: SpaceView,
    acting: str | None,
    interactive: bool,
    board_wide: str | None,
    place: str,
) -> Markup:
    """The HTML of `draw(space, acting, interactive, board_wide, place)` (the `space`
    macro), kept as `kept` keeps it, with the version's `place` put in."""
    if interactive and space.infiltrate:  # its own form, with the version in it
        return Markup(draw(space, acting, interactive, board_wide, place))
    html = kept(draw, space, None, interactive, board_wide, PLACE)
    return Markup(html.replace(PLACE, place)) if space.tappable and interactive else html


def kept_area(
    draw: Any,
    area: str,
    label: str,
    spaces: tuple[SpaceView, ...],
    acting: str | None,
    interactive: bool,
    board_wide: str | None,
    place: str,
) -> Markup:
    """The HTML of `draw(area, label, spaces, acting, interactive, board_wide, place)` (an
    area of the board with its spaces, each drawn by `kept_space`), kept as `kept_space`
    keeps a space, with the version's `place` put in; an area with a space the acting
    player may infiltrate is drawn every time (its spaces are kept ones)."""
    if interactive and any(space.infiltrate for space in spaces):
        return Markup(draw(area, label, spaces, acting, interactive, board_wide, place))
    html = kept(draw, area, label, spaces, None, interactive, board_wide, PLACE)
    return Markup(html.replace(PLACE, place)) if interactive else html


def kept_forms(draw: Any, hidden: str, *args: object) -> Markup:
    """The HTML of `draw(*args, hidden)`, a macro whose forms carry the version's hidden
    fields (`hidden`: its CSRF token, version and stamp) and whose HTML depends on nothing
    else than its arguments and the page's language: kept as `kept` keeps it, drawn with
    HIDDEN in the hidden fields' place, which they take each time."""
    return Markup(kept(draw, *args, HIDDEN).replace(HIDDEN, hidden))
