"""Marking the engine's player-facing words for translation, without importing Flask."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

ListStyle = Literal["standard", "or"]  # Babel's format_list styles the engine uses
# What a name of card_db names: a card of a player's deck or a Conflict card, a House Hagal
# card (named as the space it sends an Agent to), a board space, a Tech tile, a leader (or
# a leader's ability).
NameKind = Literal["card", "hagal", "space", "tile", "leader"]


def N_(message: str) -> str:
    """Mark `message` for `pybabel extract`; the web layer translates it where it is shown."""
    return message


class Plural(NamedTuple):
    """A count's wording: the English for one and for many (ngettext's two message ids)."""

    one: str
    many: str


def Nn_(one: str, many: str) -> Plural:
    """Mark a count's wording for `pybabel extract` (keyword `Nn_:1,2`, extracted as one
    plural entry, so each language writes its own forms: Polish "3 karty", "5 kart")."""
    return Plural(one, many)


def _filled(template: str, values: dict[str, object]) -> str:
    """`template` filled with `values`, or `template` itself where they do not fit (a log
    line of an older game)."""
    if not values:
        return template
    try:
        return template % values
    except (KeyError, TypeError, ValueError):
        return template


class Name(str):
    """A name of card_db filled into a sentence ("Arrakeen", "The Voice"): the web shows it
    through the `cards` catalog, in the marks each language's rulebook puts around such a
    name in running text (ja 〈card〉 《space》), with no space around it in Chinese or
    Japanese and the Korean particle after it that fits its last syllable. Its type says
    so, not the name of the placeholder it fills."""

    kind: NameKind

    def __new__(cls, text: str, kind: NameKind = "card") -> Name:
        name = super().__new__(cls, text)
        name.kind = kind
        return name


class Message(str):
    """English text that keeps its template and values, so the web can translate it.

    It is the filled-in English string everywhere a string is expected; `template` (marked
    with N_ where it is written) is the message id, and a value that is itself a Message
    (an engine word such as a Faction's name) is translated too. A count's Message
    (`counted`) has `plural` and `number` as well: the web picks the reader's plural form.
    """

    template: str
    values: dict[str, object]
    plural: str | None
    number: int  # the count a plural form is chosen by

    def __new__(cls, template: str, **values: object) -> Message:
        text = super().__new__(cls, _filled(template, values))
        text.template = template
        text.values = values
        text.plural = None
        text.number = 0
        return text


def counted(words: Plural, count: object, /, **values: object) -> Message:
    """ "1 troop", "2 troops": the wording of `words` for `count`, filled with `values`
    (`n` is the count unless given), as a Message the web shows in the reader's plural
    form."""
    number = count if isinstance(count, int) else 0
    values = {"n": count, **values}
    text = Message(words.one if number == 1 else words.many, **values)
    text.template = words.one
    text.plural = words.many
    text.number = number
    return text


class Listing(Message):
    """Parts as one list ("a, b, and c"; `style` "or": "a, b, or c"), which the web joins
    the reader's way (Babel's format_list, from the language's CLDR data)."""

    parts: tuple[str, ...]
    style: ListStyle

    def __new__(cls, parts: Sequence[str], style: ListStyle = "standard") -> Listing:
        text = str.__new__(cls, _english_list(parts, style))
        text.template = "%(list)s"
        text.values = {}
        text.plural = None
        text.number = 0
        text.parts = tuple(parts)
        text.style = style
        return text


def _english_list(parts: Sequence[str], style: ListStyle) -> str:
    """The parts joined as CLDR's English does (Babel's format_list for "en")."""
    word = "or" if style == "or" else "and"
    if len(parts) < 3:
        return f" {word} ".join(parts)
    return ", ".join(parts[:-1]) + f", {word} " + parts[-1]


def joined(parts: Sequence[str], template: str = N_("%(first)s, %(second)s")) -> str:
    """ "a, b, c" with `template` joining each next part (a Message from two parts on), so
    each language joins them its way: for a sequence that is not a list with "and" or
    "or" (the houses' strengths, the steps of a reward)."""
    if not parts:
        return ""
    result = parts[0]
    for part in parts[1:]:
        result = Message(template, first=result, second=part)
    return result


def listed(parts: Sequence[str], style: ListStyle = "standard") -> str:
    """ "a", "a and b", "a, b, and c" (`style` "or": "a or b"), joined in the reader's
    language where it is shown (a Listing from two parts on)."""
    if len(parts) < 2:
        return parts[0] if parts else ""
    return Listing(parts, style)
