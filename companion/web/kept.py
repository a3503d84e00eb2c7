"""HTML kept from one tap to the next (issue 26's tap budget): parts of the table screen
that a tap's answer draws again although they mostly look as they did.

- The board's 22 spaces: a placement changes one or two of them, and the others look to
  the next player as they did on that player's last turn (94% of the spaces drawn over the
  four-player golden game were kept ones).
- Each house's VP ledger in the score, which changes only with that house's VP.

Such a part's HTML depends only on its macro's arguments (frozen views), the language and
the app's root, so the macro draws it once per such key. A tappable space's form starts
with the version's own opening (its CSRF token and version: `place`), put in where PLACE
marks it; a space the acting player may infiltrate has a form of its own, and is drawn
every time. tests/web/test_kept_html.py compares the kept HTML with a fresh drawing at
every step of a game.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request
from flask_babel import get_locale
from markupsafe import Markup

from companion.lru import LRU
from companion.web.present.views import SpaceView

PLACE = Markup("<!--place-->")
# A few screens in a few languages, four players, the spaces' states between two taps.
KEPT = 4096


def install(app: Flask) -> None:
    app.extensions["kept_html"] = LRU[tuple[object, ...], str](KEPT)
    app.add_template_global(kept)
    app.add_template_global(kept_space)


def kept(draw: Any, *args: object) -> Markup:
    """The HTML of `draw(*args)`, a macro whose HTML depends on nothing else than its
    arguments and the page's language, drawn once per key and kept."""
    store: LRU[tuple[object, ...], str] = current_app.extensions["kept_html"]
    key = (request.script_root, str(get_locale()), draw.name, args)
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
