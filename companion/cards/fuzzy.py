"""Typo tolerance for the rules lookup ("did you mean"), with rapidfuzz's edit distances.

`Corrector.build(names, words)` keeps the catalog's names (folded, also without spaces, so
"gunthopter" finds Gun Thopter) and every word of its texts. `correct(folded)` gives the
nearest name when the whole query is close to one, else each unknown word replaced by its
nearest word, or None when nothing is near enough.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from rapidfuzz import fuzz, process

from companion.cards.words import has_cjk

# Similarity (0-100, rapidfuzz's normalized Indel ratio) a correction needs: one wrong
# letter in a five-letter word scores 80.
NAME_CUTOFF: Final[float] = 85.0
# A Chinese, Japanese or Korean character carries more than a letter: one wrong in a name
# of four characters (75) is still that name.
CJK_NAME_CUTOFF: Final[float] = 75.0
WORD_CUTOFF: Final[float] = 75.0
# Words shorter than this are left alone: too many words are one letter from them.
SHORTEST: Final[int] = 4


@dataclass(frozen=True, slots=True)
class Correction:
    """The corrected query, folded (to search) and as a player reads it (to show)."""

    folded: str
    shown: str
    name: bool = False  # the nearest name (else: words replaced one by one)


@dataclass(frozen=True, slots=True)
class Corrector:
    """The catalog's names and words, for the nearest match to a mistyped query."""

    joined: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # no spaces -> name
    words: frozenset[str] = frozenset()
    word_list: tuple[str, ...] = ()

    @classmethod
    def build(cls, names: Mapping[str, str], words: Iterable[str]) -> Corrector:
        """`names`: folded name -> name as written; `words`: every folded word."""
        joined = {folded.replace(" ", ""): (folded, shown) for folded, shown in names.items()}
        known = frozenset(w for w in words if w.isalpha())
        return cls(joined, known, tuple(sorted(w for w in known if len(w) >= SHORTEST)))

    def correct(self, folded: str) -> Correction | None:
        """The nearest name or words to a folded query, or None."""
        squeezed = folded.replace(" ", "")
        if len(squeezed) >= SHORTEST:
            cutoff = CJK_NAME_CUTOFF if has_cjk(squeezed) else NAME_CUTOFF
            near = process.extractOne(
                squeezed, self.joined.keys(), scorer=fuzz.ratio, score_cutoff=cutoff
            )
            if near is not None:
                name_folded, shown = self.joined[near[0]]
                return Correction(name_folded, shown, name=True)
        fixed = [self._word(w) for w in folded.split()]
        if fixed == folded.split():
            return None
        return Correction(" ".join(fixed), " ".join(fixed))

    def _word(self, word: str) -> str:
        if len(word) < SHORTEST or word in self.words or not word.isalpha():
            return word
        near = process.extractOne(word, self.word_list, scorer=fuzz.ratio, score_cutoff=WORD_CUTOFF)
        return word if near is None else str(near[0])
