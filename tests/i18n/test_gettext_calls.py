"""The code's gettext calls as the catalogs need them (issue 28, "Done when"): no gettext
call nested in another's arguments, no marked sentence (a message id ending in
punctuation) filled into another message, no English word of a template outside gettext.

A value filled into a sentence is a Message (`translated` shows it in the reader's
language, with the particle or marks it wants: companion/web/wording.py), never the answer
of a gettext call inside the sentence's call; `_("Take %(what)s.", what=_("the Shipping
track"))` put English in all five checklists. Each scan has a test that it finds a bad
example.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from jinja2 import Environment, nodes
from jinja2.ext import i18n

from tests.i18n.catalogs import ROOT

# The calls that translate or mark a message (babel.cfg's keywords and Flask-Babel's).
GETTEXT = frozenset(
    {"_", "gettext", "ngettext", "pgettext", "npgettext", "_l", "lazy_gettext", "N_", "Nn_"}
)
# The calls that fill values into a message.
FILLING = GETTEXT | {"Message", "counted", "IllegalAction"}
SENTENCE_END = (".", "!", "?", ":", ";")
PYTHON = sorted((ROOT / "companion").rglob("*.py"))
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
_JINJA = Environment(extensions=[i18n])


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _arguments(node: ast.Call) -> list[ast.expr]:
    return [*node.args, *(k.value for k in node.keywords)]


def nested_calls(source: str) -> list[int]:
    """The lines of Python `source` where a gettext call sits in another's arguments."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _called(node) in GETTEXT:
            for argument in _arguments(node):
                found += [
                    inner.lineno
                    for inner in ast.walk(argument)
                    if isinstance(inner, ast.Call) and _called(inner) in GETTEXT
                ]
    return found


def nested_template_calls(source: str) -> list[int]:
    """The lines of a template where a gettext call sits in another's arguments."""
    found = []
    for node in _JINJA.parse(source).find_all(nodes.Call):
        if isinstance(node.node, nodes.Name) and node.node.name in GETTEXT:
            for argument in [*node.args, *(k.value for k in node.kwargs)]:
                calls = [argument, *argument.find_all(nodes.Call)]  # the argument too
                found += [
                    inner.lineno
                    for inner in calls
                    if isinstance(inner, nodes.Call)
                    and isinstance(inner.node, nodes.Name)
                    and inner.node.name in GETTEXT
                ]
    return found


def punctuated_values(source: str) -> list[str]:
    """The marked messages of Python `source` that end in punctuation and are filled as a
    value (a keyword argument) into another message."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and _called(node) in FILLING):
            continue
        for keyword in node.keywords:
            for inner in ast.walk(keyword.value):
                if isinstance(inner, ast.Call) and _called(inner) in GETTEXT:
                    found += [
                        a.value
                        for a in inner.args
                        if isinstance(a, ast.Constant)
                        and isinstance(a.value, str)
                        and a.value.rstrip().endswith(SENTENCE_END)
                    ]
    return found


# Attributes a reader sees or hears; the rest (class, href, data-...) are the page's own.
_SHOWN_ATTRIBUTES = re.compile(r'\b(?:title|alt|placeholder|aria-label)="([^"]*)"')
# Words of a template that are the same in every language: a file format's name.
SAME_IN_EVERY_LANGUAGE = frozenset({"PNG"})


def words_outside_gettext(source: str) -> list[str]:
    """The English words of a template's own text (outside {{ }}, {% %}, scripts and
    styles, tags and their attributes but those a reader sees), e.g. `VP` after a number."""
    text = "".join(n.data for n in _JINJA.parse(source).find_all(nodes.TemplateData))
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.DOTALL)
    shown = _SHOWN_ATTRIBUTES.findall(text)
    text = re.sub(r"<[^>]*>", " ", text)
    text = re.sub(r'[\w-]+="[^"]*"', " ", text)  # a block of a tag's attributes
    text = re.sub(r"&#?\w+;", " ", text)  # &nbsp;
    words = [w for chunk in (text, *shown) for w in re.findall(r"[A-Za-z]{2,}", chunk)]
    return [w for w in words if w not in SAME_IN_EVERY_LANGUAGE]


def _relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_no_gettext_call_is_nested_in_another() -> None:
    found = [(_relative(p), n) for p in PYTHON for n in nested_calls(p.read_text("utf-8"))]
    found += [
        (_relative(p), n) for p in TEMPLATES for n in nested_template_calls(p.read_text("utf-8"))
    ]
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        'x = _("Take %(what)s.", what=_("the Shipping track"))',
        'x = Message(N_("a %(b)s"), b=1) or _("%(n)s", n=ngettext("a", "b", 2))',
        'x = gettext("%(a)s", a=[lazy_gettext("b")])',
    ],
)
def test_a_nested_gettext_call_is_found(source: str) -> None:
    assert nested_calls(source) == [1]


def test_a_message_value_is_no_nested_call() -> None:
    source = 'x = translated(Message(N_("%(icon)s icon"), icon=Message(ICON_NAMES[i])))'
    assert nested_calls(source) == []


def test_a_nested_gettext_call_in_a_template_is_found() -> None:
    bad = '<p>\n{{ _("Take %(what)s.", what=_("the Shipping track")) }}</p>'
    good = '{{ _("Take %(what)s.", what=track|translated) }} {{ ngettext("a", "b", n) }}'
    assert nested_template_calls(bad) == [2]
    assert nested_template_calls(good) == []


def test_no_marked_sentence_is_filled_into_another_message() -> None:
    """A value is a noun phrase, never a sentence: "책략 카드 1장.을(를) 받으세요" (issue 28).
    The log's values, which come from tables, are checked on the golden games
    (tests/rules/test_plain_words.py)."""
    found = [(_relative(p), v) for p in PYTHON for v in punctuated_values(p.read_text("utf-8"))]
    assert found == []


def test_a_marked_sentence_filled_in_is_found() -> None:
    bad = 'x = Message(N_("%(house)s takes %(reward)s."), reward=Message(N_("1 Intrigue card.")))'
    assert punctuated_values(bad) == ["1 Intrigue card."]
    assert punctuated_values('x = _("%(a)s.", a=_("the Mentat"))') == []


def test_no_template_has_an_english_word_outside_gettext() -> None:
    found = [(_relative(p), w) for p in TEMPLATES for w in words_outside_gettext(p.read_text())]
    assert found == []


def test_a_word_outside_gettext_is_found() -> None:
    bad = '<td title="Victory Points">{{ vp }} VP</td><style>.a { color: red }</style>'
    good = '<td class="vp" title="{{ _("Victory Points") }}">{{ _("%(n)s VP", n=vp) }}</td>'
    assert words_outside_gettext(bad) == ["VP", "Victory", "Points"]
    assert words_outside_gettext(good) == []
