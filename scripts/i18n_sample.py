"""A seeded random sample of each language's catalogs, printed for a native reader's review.

    .venv/bin/python scripts/i18n_sample.py [--lang ko ...] [--seed 28] [--count 40]

For each language, `--count` messages of the app's own words (messages.po) and `--count`
card texts (cards.po, the words of card_db), each English message id beside its
translation (a plural entry with each of its forms; a card text with where it is used and
where its name comes from). The same seed prints the same sample, so two reviewers can
read the same entries; an empty or fuzzy translation is marked as such. Entries are drawn
from the catalogs on disk: re-extract and update them first (README, "Translators").
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.pofile import read_po

TRANSLATIONS = Path(__file__).resolve().parents[1] / "companion" / "translations"
LOCALES = ("zh_Hans", "zh_Hant", "pl", "ja", "ko")
DOMAINS = ("messages", "cards")
DEFAULT_SEED = 28  # issue 28, where the review asked for this sample
DEFAULT_COUNT = 40


def entries(locale: str, domain: str) -> list[Message]:
    """A catalog's messages without its header, in the catalog's order."""
    with (TRANSLATIONS / locale / "LC_MESSAGES" / f"{domain}.po").open("rb") as po_file:
        catalog = read_po(po_file, locale=locale)
    return [m for m in catalog if m.id]


def sample(messages: Sequence[Message], count: int, seed: int, label: str) -> list[Message]:
    """`count` messages drawn with a generator seeded by `seed` and `label` (the language
    and domain), so each language and catalog has its own sample, the same every run."""
    rng = random.Random(f"{seed}:{label}")
    return rng.sample(list(messages), min(count, len(messages)))


def described(message: Message) -> list[str]:
    """A message as lines: where it is used (the card texts' comments), the English id,
    the translation (each plural form)."""
    lines = [f"  # {comment}" for comment in message.auto_comments]
    lines += [f"  # {comment}" for comment in message.user_comments]
    if message.context:
        lines.append(f"  context: {message.context}")
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    strings = [message.string] if isinstance(message.string, str) else list(message.string)
    lines.append(f"  en: {ids[0]}")
    if len(ids) > 1:
        lines.append(f"  en (many): {ids[1]}")
    for n, string in enumerate(strings):
        form = f"[{n}]" if len(strings) > 1 else ""
        lines.append(f"  {form}→ {string}" if string else f"  {form}→ (not translated)")
    if message.fuzzy:
        lines.append("  (fuzzy: to check)")
    return lines


def report(locale: str, count: int, seed: int) -> list[str]:
    out = [f"==== {locale} (seed {seed}) ===="]
    for domain in DOMAINS:
        found = entries(locale, domain)
        drawn = sample(found, count, seed, f"{locale}:{domain}")
        out.append(f"--- {domain}.po: {len(drawn)} of {len(found)} ---")
        for number, message in enumerate(drawn, 1):
            out.append(f"{number}.")
            out += described(message)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", action="append", choices=LOCALES, help="a language (repeat)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT)
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be 1 or more")
    lines: list[str] = []
    for locale in args.lang or LOCALES:
        lines += report(locale, args.count, args.seed)
        lines.append("")
    sys.stdout.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
