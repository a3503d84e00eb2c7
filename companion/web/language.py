"""Words in the reader's language: the web's `gettext`, `ngettext` and `npgettext` (every
web module imports them from here), engine Messages (`translated`), the words of card_db
(`card_text`, through the `cards` catalogs), numbers as the language writes them.

Which language that is, and the catalogs themselves, are companion/web/locales.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import TypeVar

from babel.lists import format_list
from babel.support import NullTranslations
from flask import Flask, current_app, has_app_context
from flask_babel import (
    Domain,
    LazyString,
    format_decimal,
    format_percent,
    get_locale,
    get_translations,
)

from companion.cards import i18n as card_i18n
from companion.lru import LRU
from companion.rules.actions import IllegalAction
from companion.rules.i18n import Listing, Message, Name, Plural, counted
from companion.web import request_words
from companion.web import wording as wording_rules
from companion.web.locales import DEFAULT
from companion.web.request_words import kept_here, per_request

# The words of card_db (names, effects, rulings): the `cards` catalogs (companion/cards/i18n.py),
# through a Domain per app (app.extensions), as a Domain keeps the catalogs it has read.
CARD_WORDS = "card_words"
PLACEHOLDER = wording_rules.PLACEHOLDER
# Words kept per language (`per_language`): the board's spaces, the Conflict cards'
# rewards, the VP ledger's sources, for a few languages and games at once.
KEPT_WORDS = "kept_words"
WORDS_KEPT = 1024
T = TypeVar("T")


def lazy_word(text: str) -> LazyString:
    """`text` translated each time it is shown, as Flask-Babel's lazy_gettext, but through
    this request's catalog (page_translations): lazy_gettext walks Flask-Babel's contexts
    and names the locale for every word, and a table tap shows about a hundred of them.
    The modules import it as `_l`, the keyword pybabel extracts (babel.cfg)."""
    return LazyString(_word, text)


def _word(text: str) -> str:
    word: str = page_translations().ugettext(text)
    return word


_l = lazy_word

# The names the set-up form gives an unnamed seat (companion/web/forms.py), stored in
# English with the game and shown in the reader's language.
DEFAULT_HOUSE_NAMES = {
    "Left Rival": _l("Left Rival"),
    "Right Rival": _l("Right Rival"),
    "House Hagal": _l("House Hagal"),
    "Player 1": _l("Player 1"),
    "Player 2": _l("Player 2"),
    "Player 3": _l("Player 3"),
    "Player 4": _l("Player 4"),
}


def shown_label(labels: Mapping[str, object], key: str) -> str:
    """The (lazy) label for `key` in the reader's language, or `key` itself."""
    label = labels.get(key)
    return str(label) if label is not None else key


def house_name(name: str) -> str:
    """A house's name as shown: a seat's default name in the reader's language."""
    return shown_label(DEFAULT_HOUSE_NAMES, name)


def refusal(exc: IllegalAction) -> str:
    """Why the rules refused an action, in the reader's language."""
    return translated(exc.text)


def translated(text: str, translations: NullTranslations | None = None) -> str:
    """An engine Message in the reader's language (its Message values too); other text as is.

    `translations` is the catalog, when a caller has it at hand for many lines. A count's
    Message takes the reader's plural form, a Listing is joined the reader's way; how the
    values sit in the sentence (a name's marks, a Korean particle, no space around a
    Chinese name) is companion/web/wording.py's.
    """
    return _translated(text, translations or page_translations(), page_locale(), False)


def translator() -> Callable[[str], str]:
    """`translated` for the many texts of one page, each distinct one translated once (the
    board's 22 spaces often give the same reason: "No Agent left", "taken")."""
    found, locale = page_translations(), page_locale()
    said: dict[Hashable, str] = {}

    def translate(text: str) -> str:
        key = _words_key(text)
        if key is None:
            return _translated(text, found, locale, False)
        words = said.get(key)
        if words is None:
            words = said[key] = _translated(text, found, locale, False)
        return words

    return translate


def _words_key(value: object) -> Hashable | None:
    """All that `translated` shows of `value` depends on (its text, type, template,
    count and values, a Name's kind, a Listing's parts), or None when that is not known."""
    if isinstance(value, Listing):
        parts = tuple(_words_key(p) for p in value.parts)
        return None if None in parts else ("listing", str(value), value.style, parts)
    if isinstance(value, Message):
        values = tuple((k, _words_key(v)) for k, v in value.values.items())
        if any(v is None for _k, v in values):
            return None
        return ("message", str(value), value.template, value.plural, value.number, values)
    if isinstance(value, Name):
        return ("name", str(value), value.kind)
    if type(value) in (str, int, bool) or value is None:
        return (type(value).__name__, value)
    return None


def _translated(text: str, found: NullTranslations, locale: str, in_text: bool) -> str:
    """`translated`; `in_text`: the text stands in running text (a Listing's names are
    marked as names in a sentence are)."""
    if not isinstance(text, Message):
        return text
    if isinstance(text, Listing):
        parts = [str(shown_value(p, found, locale, in_text)) for p in text.parts]
        return str(format_list(parts, style=text.style, locale=locale))
    wording: str
    if text.plural is not None:
        wording = found.ungettext(text.template, text.plural, text.number)
    else:
        wording = found.ugettext(text.template)
    if not text.values:
        return wording
    names = {k: v for k, v in text.values.items() if isinstance(v, Name)}
    wording = wording_rules.unmarked(wording, names) if names else wording
    # A value among words is in running text; one standing alone ("%(space)s") is not.
    running = bool(PLACEHOLDER.sub("", wording).strip())
    values = {k: shown_value(v, found, locale, running) for k, v in text.values.items()}
    if locale == "ko":
        wording = wording_rules.with_particles(wording, values)
    elif locale in wording_rules.NO_SPACES:
        # Around a name (a player's, a Name, a list of them), not a phrase of the engine
        # ("戦力 %(strengths)s": the space parts a label from its list).
        names_shown = {
            k: values[k]
            for k, v in text.values.items()
            if isinstance(v, str) and (isinstance(v, Listing) or not isinstance(v, Message))
        }
        wording = wording_rules.unspaced(wording, names_shown)
    try:
        return wording % values
    except (KeyError, TypeError, ValueError):  # a catalog entry that lost a placeholder
        if has_app_context() and current_app.testing:
            raise  # under test a catalog entry that does not fit fails
        return text


def gettext(template: str, **values: object) -> str:
    """Flask-Babel's `gettext`, its values filled as `translated` fills a Message's (the
    Korean particle after a house's name, no space around a Chinese one, a `Name` in its
    marks): the web's modules import it as `_`, the keyword pybabel extracts."""
    if not values:
        wording: str = page_translations().ugettext(template)
        return wording
    return translated(Message(template, **values))


def ngettext(singular: str, plural: str, num: int, **values: object) -> str:
    """Flask-Babel's `ngettext` (`num` is the count, and a value unless given), filled as
    `gettext` fills."""
    values.setdefault("num", num)
    return translated(counted(Plural(singular, plural), num, **values))


def pgettext(context: str, message: str) -> str:
    """`gettext` for a catalog entry of its own, told apart by `context` (pybabel's
    `pgettext` keyword): a word the English uses for two things that another language
    names apart (Japanese: an Intrigue card's Combat type 戦術, a Combat space 紛争)."""
    wording: str = page_translations().upgettext(context, message)
    return wording


def npgettext(context: str, singular: str, plural: str, num: int, **values: object) -> str:
    """`ngettext` for a catalog entry of its own, told apart by `context` (pybabel's
    `npgettext` keyword): an amount as a label ("Koszt: 1 woda") where the same English
    as the object of a verb reads "zapłać 1 wodę" in Polish. Its values are numbers."""
    values.setdefault("num", num)
    wording: str = page_translations().unpgettext(context, singular, plural, num)
    return wording % values


def page_locale() -> str:
    """The page's locale for Babel's formatting (English outside a request), named once
    per request (kept as page_translations is)."""
    kept = kept_here()
    if kept is None:
        return DEFAULT
    cached = kept.get("page_locale")
    if isinstance(cached, str):
        return cached
    named = str(get_locale() or DEFAULT)
    kept["page_locale"] = named
    return named


def forget_page_language() -> None:
    """Forget the request's language as page_translations, card_translations and
    page_locale keep it, inside Flask-Babel's `force_locale` (companion/web/review.py)."""
    kept = kept_here()
    for name in ("page_translations", "card_translations", "page_locale"):
        if kept is not None:
            kept.pop(name, None)


def shown_value(
    value: object, translations: NullTranslations, locale: str, in_text: bool = True
) -> object:
    """A Message's value as shown: a word of the engine or a seat's default name translated,
    a name of card_db (a `Name`: "Arrakeen", each name of "Arrakeen, Carthag and Imperial
    Basin") in the reader's language, in the marks of running text where `in_text`."""
    if isinstance(value, Message):
        return _translated(value, translations, locale, in_text)
    if isinstance(value, Name):
        shown = card_text(value, value.kind)
        return wording_rules.marked(shown, locale, value.kind) if in_text else shown
    if isinstance(value, str) and value in DEFAULT_HOUSE_NAMES:
        return translations.ugettext(value)
    return value


def install(app: Flask) -> None:
    """Give the app the words of card_db and the templates their words in the reader's
    language (after companion.web.locales.install, which chooses it)."""
    app.extensions[CARD_WORDS] = Domain(domain=card_i18n.DOMAIN)
    app.extensions[KEPT_WORDS] = LRU[tuple[object, ...], object](WORDS_KEPT)
    request_words.install(app)  # where page_translations and the others keep what they find
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda text: page_translations().ugettext(text),
        ngettext=lambda text, plural, n: page_translations().ungettext(text, plural, n),
        newstyle=True,
        pgettext=lambda context, text: page_translations().upgettext(context, text),
        npgettext=lambda context, text, plural, n: page_translations().unpgettext(
            context, text, plural, n
        ),
    )
    app.add_template_filter(house_name)
    app.add_template_filter(translated)
    app.add_template_filter(card_text)
    app.add_template_filter(decimal)
    app.add_template_filter(percent)
    # A card's name with its English beside it: HTML, so a macro of the templates.
    macros = app.jinja_env.get_template("_card_name.html").module
    app.add_template_filter(macros.card_name, "card_name")  # type: ignore[attr-defined]
    app.add_template_filter(shown_text)


def decimal(number: float, digits: int = 1, sign: bool = False) -> str:
    """A number with `digits` decimals as the reader's language writes it (7.4, pl 7,4);
    `sign` writes + before a positive one."""
    body = "#,##0" + ("." + "0" * digits if digits else "")
    return str(format_decimal(number, format=f"+{body};-{body}" if sign else body))


def percent(rate: float) -> str:
    """A share (0.62) as the reader's language writes a percentage (62%, fr 62 %)."""
    return str(format_percent(rate))


def card_text(text: str, kind: str | None = None) -> str:
    """A text of card_db (a name, an effect, a ruling) in the reader's language.

    `kind`, a deck card's kind (or "card" for any), first looks for the name the card has
    apart from the board space that shares its English name (cards.po's context "card",
    companion/cards/i18n.py: the Reserve card Foldspace is 〈空間転移〉 in the Japanese
    rulebook, the space 《宇宙航路》).
    """
    if not text:
        return text
    found = card_translations()
    if kind in card_i18n.CARD_CONTEXT_KINDS:
        own: str = found.upgettext(card_i18n.CARD_CONTEXT, text)
        if own != text:
            return own
    shown: str = found.ugettext(text)
    return shown


def card_translations() -> NullTranslations:
    """The `cards` catalog of this request's language, looked up once per request (kept in
    `g`, as page_translations does); none outside an app with languages."""
    kept = kept_here()
    cached = kept.get("card_translations") if kept is not None else None
    if isinstance(cached, NullTranslations):
        return cached
    domain = current_app.extensions.get(CARD_WORDS) if has_app_context() else None
    found: NullTranslations = (
        domain.get_translations() if isinstance(domain, Domain) else NullTranslations()
    )
    if kept is not None:
        kept["card_translations"] = found
    return found


def shown_text(text: str) -> str:
    """A text of the rules lookup in the reader's language: the app's own words come as
    engine Messages (companion/lookup, companion/cards/search.py), anything else is a text
    of card_db (a name, an effect, a ruling, a citation)."""
    return translated(text) if isinstance(text, Message) else card_text(text)


def page_translations() -> NullTranslations:
    """The translations of this request, looked up once: Flask-Babel's own lookup, which
    the templates' `_()` used, walks its contexts and names the locale for every message
    (a quarter of a table page's rendering)."""
    kept = kept_here()
    cached = kept.get("page_translations") if kept is not None else None
    if isinstance(cached, NullTranslations):  # Translations is one too
        return cached
    translations: NullTranslations = get_translations()
    if kept is not None:
        kept["page_translations"] = translations
    return translations


def per_language(key: Hashable, make: Callable[[], T]) -> T:
    """`make()`: words that depend on nothing but `key` and the page's language (the
    board's fixed words, a Conflict card's rewards), made once per language and key and
    kept in the app, whose catalogs they come from (made afresh outside an app). The key
    names everything else they depend on; `make` must not return None."""
    store: LRU[tuple[object, ...], object] | None = (
        per_request(KEPT_WORDS, lambda: current_app.extensions.get(KEPT_WORDS))
        if has_app_context()
        else None
    )
    if store is None:
        return make()
    full = (page_locale(), key)
    found = store.get(full)
    if found is None:
        found = make()
        store.put(full, found)
    return found  # type: ignore[return-value]
