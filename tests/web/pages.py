"""Read pages as a browser would: the forms on a page, the URLs it loads, its version.

The route tests drive the table screen through the forms it shows (like a player tapping),
so they keep working while the templates change around them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from html.parser import HTMLParser

from companion.rules.actions import Action

# Attributes that make a browser (or htmx) load or send to a URL.
URL_ATTRIBUTES = frozenset(
    {"src", "href", "action", "formaction", "poster", "srcset", "data", "manifest"}
    | {f"hx-{verb}" for verb in ("get", "post", "put", "patch", "delete")}
)


@dataclass
class Form:
    """One <form>: where it posts, its fields (hidden and visible) and its button labels."""

    method: str
    action: str
    attrs: dict[str, str]
    fields: dict[str, str] = field(default_factory=dict)
    buttons: list[str] = field(default_factory=list)
    disabled: list[bool] = field(default_factory=list)  # per button
    titles: list[str] = field(default_factory=list)  # per button

    @property
    def htmx(self) -> bool:
        return "hx-post" in self.attrs


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.urls: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.metas: dict[str, str] = {}
        self.ids: list[str] = []
        self._form: Form | None = None
        self._button: list[str] | None = None
        self._select: str | None = None
        self._selected = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for name, value in a.items():
            if name in URL_ATTRIBUTES:
                self.urls.append((tag, name, value))
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "meta" and "name" in a:
            self.metas[a["name"]] = a.get("content", "")
        elif tag == "form":
            self._form = Form(a.get("method", "get").lower(), a.get("action", ""), a)
            self.forms.append(self._form)
        elif tag == "select" and self._form is not None and "name" in a:
            self._select, self._selected = a["name"], False
        elif tag == "option" and self._form is not None and self._select is not None:
            # A browser sends the selected option, else the first one that is enabled.
            first = self._select not in self._form.fields and "disabled" not in a
            if (first and not self._selected) or "selected" in a:
                self._form.fields[self._select] = a.get("value", "")
                self._selected = self._selected or "selected" in a
        elif tag in ("input", "textarea") and self._form is not None and "name" in a:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self._form.fields[a["name"]] = a.get("value", "")
        elif tag == "button":
            self._button = []
            if self._form is not None:
                self._form.disabled.append("disabled" in a)
                self._form.titles.append(a.get("title", ""))

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._form = None
        elif tag == "button" and self._button is not None:
            if self._form is not None:
                self._form.buttons.append(" ".join("".join(self._button).split()))
            self._button = None


def parse(html: str) -> _PageParser:
    parser = _PageParser()
    parser.feed(html)
    parser.close()
    return parser


def forms(html: str) -> list[Form]:
    """Every form of a page or fragment, in document order."""
    return parse(html).forms


def action_forms(html: str, **match: str) -> list[Form]:
    """The POST forms whose fields include every `name=value` in `match`."""
    return [
        f
        for f in forms(html)
        if f.method == "post" and all(f.fields.get(k) == v for k, v in match.items())
    ]


def urls(html: str) -> list[tuple[str, str, str]]:
    """Every (tag, attribute, URL) the page would load or send to."""
    return parse(html).urls


def version(html: str) -> int:
    """The version of the game a table page or fragment was rendered from (a tap's answer
    of only what changed has it on the banner)."""
    found = re.search(r'id="(?:game|live|banner)"[^>]*data-version="(\d+)"', html)
    assert found, "no data-version on #game, #live or #banner"
    return int(found.group(1))


VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
    | {"track", "wbr"}
)


class _Spans(HTMLParser):
    """Where each element with an id starts and ends (offsets into the HTML) and which of
    them are at the top level."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self._lines = [0]  # where each line starts (HTMLParser counts "\n" only)
        self._lines += [i + 1 for i, c in enumerate(html) if c == "\n"]
        self._open: list[tuple[str, str | None, int]] = []  # tag, id, start
        self.spans: dict[str, tuple[int, int]] = {}
        self.top: list[str] = []
        self.feed(html)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        ident = dict(attrs).get("id")
        if tag in VOID:
            if ident is not None:
                end = start + len(self.get_starttag_text() or "")
                self.spans[ident] = (start, end)
                if not self._open:
                    self.top.append(ident)
            return
        self._open.append((tag, ident, start))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            opened, ident, start = self._open.pop()
            if opened == tag:
                break
        else:
            return
        if ident is not None:
            end = self._offset() + len(f"</{tag}>")
            self.spans[ident] = (start, end)
            if not self._open:
                self.top.append(ident)


def swap_in(page: str, answer: str) -> str:
    """`page` after htmx swaps `answer` into it, as the table screen's answers are made:
    each element at the answer's top level takes the place of the page's element with its
    id (the answer's target, or out of band)."""
    found = _Spans(answer)
    assert found.top, "nothing to swap in"
    spans = _Spans(page).spans
    at = {}
    for ident in found.top:
        assert ident in spans, f"#{ident} is not on the page"
        at[spans[ident]] = ident
    for (start, end), ident in sorted(at.items(), reverse=True):  # distinct regions
        new_start, new_end = found.spans[ident]
        new = answer[new_start:new_end].replace(' hx-swap-oob="true"', "", 1)
        page = page[:start] + new + page[end:]
    return page


def csrf_meta(html: str) -> str:
    """The CSRF token htmx sends (the page's <meta name="csrf-token">)."""
    token = parse(html).metas.get("csrf-token", "")
    assert token, "no csrf-token meta tag"
    return token


# The form's `action` value for each engine action type (companion.web.forms.action_from).
FORM_ACTIONS = {
    "PlaceAgent": "place",
    "Reveal": "reveal",
    "Choose": "choose",
    "Voice": "voice",
    "Adjust": "adjust",
    "SetControl": "set_control",
    "SetTiebreak": "tiebreak",
    "CornerTheMarket": "corner",
    "Acquire": "acquire",
    "Freighter": "freighter",
    "Dreadnought": "dreadnought",
    "Tech": "tech",
}


def form_for(action: Action) -> dict[str, str]:
    """The form fields that post `action` (the inverse of companion.web.forms.action_from):
    one field per dataclass field, a checked checkbox ("on") for a true flag."""
    kind = FORM_ACTIONS.get(type(action).__name__)
    assert kind is not None, f"no form for {action!r}"
    form = {"action": kind}
    for f in fields(action):
        value = getattr(action, f.name)
        if isinstance(value, bool):
            if value:
                form[f.name] = "on"
        else:
            form[f.name] = str(value)
    return form


def tapped(shown: str, answer: str) -> str:
    """The table screen `shown` after htmx swaps in the answer to its tap, and
    static/app.js gives #game the banner's version."""
    after = swap_in(shown, answer)
    return re.sub(
        r'(<main id="game"[^>]*data-version=")\d+',
        lambda m: m.group(1) + str(version(answer)),
        after,
        count=1,
    )
