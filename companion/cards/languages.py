"""The words of card_db in the players' languages, as the rules lookup's search reads them.

`load_card_languages(root)` gives, per locale of `SEARCH_LOCALES` whose `cards` catalog
exists under `root` (companion/translations: <locale>/LC_MESSAGES/cards.po and the .mo the
app compiles at start, companion.web.locales.compile_catalogs), the catalog's gettext: an
English text of card_db in, its translation out (the text itself when untranslated). A .mo
older than its .po, or missing, is compiled in memory from the .po, so the search never
reads a stale catalog whichever of the app's start-up steps runs first; fuzzy entries are
left out, as compile_catalogs leaves them out.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from companion.cards.i18n import DOMAIN

# The reader's language when no other is given, and the one card_db is written in.
ENGLISH: Final[str] = "en"
# The languages of the app besides English (companion.web.locales.LANGUAGES), as the
# catalogs' folders name them.
SEARCH_LOCALES: Final[tuple[str, ...]] = ("zh_Hans", "zh_Hant", "pl", "ja", "ko")
TRANSLATIONS: Final[Path] = Path(__file__).resolve().parent.parent / "translations"

Gettext = Callable[[str], str]
CardLanguages = Mapping[str, Gettext]


def _paths(root: Path, locale: str) -> tuple[Path, Path]:
    po = root / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    return po, po.with_suffix(".mo")


def _compiled(root: Path, locale: str) -> Translations | None:
    po, mo = _paths(root, locale)
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        loaded = Translations.load(str(root), [locale], DOMAIN)
        return loaded if isinstance(loaded, Translations) else None
    if not po.is_file():
        return None
    with po.open("rb") as po_file:
        catalog = read_po(po_file, locale=locale)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, DOMAIN)


def load_card_languages(root: Path = TRANSLATIONS) -> dict[str, Gettext]:
    """The `cards` catalog's gettext of each locale that has one under `root`."""
    found: dict[str, Gettext] = {}
    for locale in SEARCH_LOCALES:
        translations = _compiled(root, locale)
        if translations is not None:
            found[locale] = translations.gettext
    return found


def stamp(root: Path = TRANSLATIONS) -> tuple[int, ...]:
    """When each locale's `cards` catalog last changed (0: none), to notice a new one."""
    times: list[int] = []
    for locale in SEARCH_LOCALES:
        for path in _paths(root, locale):
            times.append(path.stat().st_mtime_ns if path.is_file() else 0)
    return tuple(times)
