"""Search the rules lookup: a normalized index built once, queried on every keystroke.

`SearchIndex(catalog)` turns every record of `index.entries(catalog)` into an `Item`:
labelled texts (the record's own words plus facts written out from its fields, such as
"Cost: 2 water" or a Conflict's rewards), each folded by `normalize` (NFKD, accents
stripped, casefolded, number words as digits), and the values the filters compare.
`SearchIndex.search(query)` ranks name matches first, then phrase matches in the text,
then items holding every word; a word matches the start of a word ("infiltrat" finds
Infiltration), and only when nothing matches that way does it match inside words.

Every language of the app: given the `cards` catalogs (companion/cards/languages.py), each
item also has its name in every language, and the index has one variant of each item per
reader's language: its name in that language first, every other language's name beside
it, and its texts in English and in that language. A name in any language finds the item
(players mix editions); the reader's own exact name ranks first, then an exact name in
another language (TIER_NAME_EXACT_OTHER). Chinese, Japanese and Korean text match by runs
of characters (words.normalize makes each character a word), Polish without its marks
("zolnierz" finds "żołnierz"), an exact spelling with the marks ranking first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from companion.cards.concepts import ConceptDef
from companion.cards.fuzzy import Corrector
from companion.cards.index import KIND_NAMES, Entry, concept_entries, entries
from companion.cards.languages import ENGLISH, CardLanguages, Gettext
from companion.cards.words import Words, has_cjk, marked
from companion.cards.words import normalize as normalize  # re-exported
from companion.rules.catalog import (
    FACTION_NAMES,
    CardDef,
    Catalog,
    ConflictDef,
    HagalCardDef,
    IntrigueDef,
    LeaderDef,
    Resources,
    Reward,
    SpaceDef,
    TechDef,
    TrackDef,
)
from companion.rules.i18n import N_, Message, Name, Nn_, counted, joined
from companion.rules.text import NEGOTIATORS, RESOURCE_AMOUNTS

# The labels people know the Agent icons, sets and Intrigue types by (marked with N_: the
# web layer shows them in the reader's language).
ICON_NAMES: Final[Mapping[str, str]] = {
    **FACTION_NAMES,
    "landsraad": N_("Landsraad"),
    "city": N_("City"),
    "spice_trade": N_("Spice Trade"),
}
SET_NAMES: Final[Mapping[str, str]] = {"base": N_("Base game"), "ix": N_("Rise of Ix")}
INTRIGUE_TYPE_NAMES: Final[Mapping[str, str]] = {
    "plot": N_("Plot"),
    "combat": N_("Combat"),
    "endgame": N_("Endgame"),
}
LEVELS: Final[tuple[int, ...]] = (1, 2, 3)
ROMAN: Final[Mapping[int, str]] = {1: "I", 2: "II", 3: "III"}
PLAYERS_NAMES: Final[Mapping[str, str]] = {
    "1P": N_("Solo games only (1P)"),
    "2P": N_("Two-player games only (2P)"),
    "both": N_("Solo and two-player games"),
}
# Kinds whose ids share the card namespace (validate.ID_NAMESPACES["cards"]): `/c/<id>`.
CARD_NAMESPACE: Final[tuple[str, ...]] = (
    "leader",
    "conflict",
    "imperium",
    "starter",
    "reserve",
    "control_the_spice",
    "intrigue",
    "tech",
)
# Player colours in the box: a per-player card (starting deck, Control the Spice) exists
# once per colour for each of its `copies`.
PLAYER_COLOURS: Final[int] = 4
MAX_QUERY: Final[int] = 200
MAX_NUMBER: Final[int] = 99

# Separates a record's texts in the haystack: a phrase never runs from one into the next.
_SEP: Final[str] = " | "


# --- facts written out from the typed fields ------------------------------------------


def plural(count: int, one: str, many: str | None = None) -> str:
    """'1 troop', '2 troops'."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


FREIGHTER_MOVES = Nn_("%(n)s Freighter move", "%(n)s Freighter moves")


def resources_text(resources: Resources, empty: str = Message(N_("free"))) -> str:
    """'2 Solari, 1 spice'; `empty` when there is nothing (a Message, as each part)."""
    parts = [
        counted(words, n)
        for n, words in (
            (resources.solari, RESOURCE_AMOUNTS["solari"]),
            (resources.spice, RESOURCE_AMOUNTS["spice"]),
            (resources.water, RESOURCE_AMOUNTS["water"]),
        )
        if n
    ]
    return joined(parts) or empty


def reward_text(reward: Reward, names: Mapping[str, str] | None = None) -> str:
    """A reward in words: '1 VP, 2 water, control of Arrakeen'."""
    parts: list[str] = []
    if reward.vp:
        parts.append(plural(reward.vp, "Victory Point"))
    if reward.influence:
        if reward.influence_factions > 1:
            parts.append(
                f"+{reward.influence} Influence with each of "
                f"{reward.influence_factions} different Factions"
            )
        else:
            parts.append(f"+{reward.influence} Influence with one Faction of your choice")
    for n, label in ((reward.solari, "Solari"), (reward.spice, "spice"), (reward.water, "water")):
        if n:
            parts.append(f"{n} {label}")
    if reward.intrigue:
        parts.append(plural(reward.intrigue, "Intrigue card"))
    if reward.troops:
        parts.append(f"recruit {plural(reward.troops, 'troop')}")
    if reward.freighter:
        parts.append(plural(reward.freighter, "Freighter move"))
    if reward.control:
        parts.append(f"control of {(names or {}).get(reward.control, reward.control)}")
    if reward.mentat:
        parts.append("the Mentat")
    if reward.trash:
        parts.append("trash a card")
    if reward.choose:
        options = " or ".join(reward_text(o, names) for o in reward.options)
        parts.append(f"choose {reward.choose}: {options}")
    for offer in reward.offers:
        parts.append(
            f"you may pay {resources_text(offer.cost)} for {plural(offer.vp, 'Victory Point')}"
        )
    return ", ".join(parts) or "nothing"


def hagal_facts(card: HagalCardDef, names: Mapping[str, str]) -> list[str]:
    """What a House Hagal card makes the Rival do, one short sentence each (Messages: the
    web layer shows them in the reader's language, the spaces' names too)."""
    facts: list[str] = []

    def gains(influence: str | None, freighter: int) -> list[str]:
        faction = Message(FACTION_NAMES[influence]) if influence else None
        found: list[str] = (
            [Message(N_("+1 %(faction)s Influence"), faction=faction)] if faction else []
        )
        moves = counted(FREIGHTER_MOVES, freighter)
        return found + ([moves] if freighter else [])

    def sentence(part: str) -> str:
        return Message(N_("%(what)s."), what=part)

    if card.reshuffle:
        facts.append(
            Message(N_("Reshuffle every House Hagal card into a new deck, then reveal again."))
        )
    elif card.harvest:
        facts.append(Message(N_("Sends the Agent to a maker space with bonus spice (see below).")))
    elif card.space and card.space_if_guild_2:
        # The two dual cards: each half has its own space and gains (FAQ, "Rivals").
        low_space = Name(names.get(card.space, card.space), "space")
        low: list[str] = [Message(N_("sends the Agent to %(space)s"), space=low_space)]
        low += gains(card.influence, card.freighter)
        high_space = Name(names.get(card.space_if_guild_2, card.space_if_guild_2), "space")
        high: list[str] = [Message(N_("sends it to %(space)s"), space=high_space)]
        high += gains(card.influence_if_guild_2, card.freighter_if_guild_2)
        facts.append(
            Message(
                N_("With 0 or 1 Spacing Guild Influence: %(what)s."),
                what=joined(low, N_("%(first)s; %(second)s")),
            )
        )
        facts.append(
            Message(
                N_("With 2 or more Spacing Guild Influence: %(what)s."),
                what=joined(high, N_("%(first)s; %(second)s")),
            )
        )
    elif card.space:
        space = Name(names.get(card.space, card.space), "space")
        facts.append(Message(N_("Sends the Agent to %(space)s."), space=space))
    if not card.space_if_guild_2:
        facts += [sentence(g) for g in gains(card.influence, card.freighter)]
    if card.troops:
        facts.append(counted(Nn_("Recruit %(n)s troop.", "Recruit %(n)s troops."), card.troops))
    if card.signet:
        facts.append(Message(N_("Signet Ring: the Rival uses its Leader's Signet ability (solo).")))
    facts += _dreadnought_and_tech(card.dreadnought, card.acquire_tech, card.tech_discount, True)
    if card.negotiator:
        facts.append(
            counted(
                Nn_(
                    "If it can't afford a tile: %(n)s Negotiator on Ix.",
                    "If it can't afford a tile: %(n)s Negotiators on Ix.",
                ),
                card.negotiator,
            )
        )
    facts.append(
        counted(Nn_("Combat bonus: %(n)s sword.", "Combat bonus: %(n)s swords."), card.swords)
    )
    return facts


def _dreadnought_and_tech(dreadnoughts: int, acquire: bool, discount: int, tile: bool) -> list[str]:
    """The Rise of Ix icons a House Hagal card and a board space share [IX pp.4-6]; `tile`:
    "a Tech tile" (a House Hagal card) rather than "Tech" (a space)."""
    commission = Nn_("Commission %(n)s dreadnought.", "Commission %(n)s dreadnoughts.")
    facts: list[str] = [counted(commission, dreadnoughts)] if dreadnoughts else []
    if acquire and discount:
        template = (
            Nn_(
                "Acquire a Tech tile with %(n)s spice off.",
                "Acquire a Tech tile with %(n)s spice off.",
            )
            if tile
            else Nn_("Acquire Tech with %(n)s spice off.", "Acquire Tech with %(n)s spice off.")
        )
        facts.append(counted(template, discount))
    elif acquire:
        facts.append(Message(N_("Acquire a Tech tile.") if tile else N_("Acquire Tech.")))
    return facts


def space_facts(space: SpaceDef) -> list[str]:
    """A board space's cost, requirements and Rise of Ix icons in words (Messages)."""
    cost = Message(space.cost_note) if space.cost_note else resources_text(space.cost)
    facts: list[str] = [Message(N_("Cost: %(cost)s."), cost=cost)]
    for faction, n in space.requires_influence.items():
        name = Message(FACTION_NAMES[faction]) if faction in FACTION_NAMES else faction
        facts.append(Message(N_("Needs %(n)s %(faction)s Influence."), n=n, faction=name))
    if space.combat:
        facts.append(Message(N_("Combat space.")))
    if space.maker:
        facts.append(
            counted(
                Nn_(
                    "Maker space: %(n)s base spice, plus any bonus spice.",
                    "Maker space: %(n)s base spice, plus any bonus spice.",
                ),
                space.base_spice,
            )
        )
    if space.control_bonus is not None:
        bonus = resources_text(space.control_bonus)
        facts.append(Message(N_("Control bonus: %(bonus)s."), bonus=bonus))
    if space.once_per_game:
        facts.append(Message(N_("Once per game.")))
    if space.freighter:
        moves = counted(FREIGHTER_MOVES, space.freighter)
        facts.append(Message(N_("%(what)s."), what=moves))
    facts += _dreadnought_and_tech(
        space.dreadnought, space.acquire_tech, space.tech_discount, False
    )
    if space.negotiator:
        negotiators = counted(NEGOTIATORS, space.negotiator)
        facts.append(Message(N_("%(what)s."), what=negotiators))
    return facts


# --- the index ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Text:
    """One labelled text of an item, as written and as folded for matching."""

    label: str
    text: str
    folded: str


@dataclass(frozen=True, slots=True)
class Item:
    """One record of the catalog, ready to match and filter."""

    entry: Entry
    order: int
    name: str  # folded, padded with a space on either side
    texts: tuple[Text, ...]
    haystack: str  # name and texts, normalized, space-padded, joined by _SEP
    summary: Text | None
    factions: frozenset[str] = frozenset()
    icons: frozenset[str] = frozenset()
    cost: int | None = None
    intrigue_types: frozenset[str] = frozenset()
    level: int | None = None
    rival_tech: bool = False
    copies: int = 1
    more_names: tuple[str, ...] = ()  # the reader's nicknames, folded and padded
    place: frozenset[str] = frozenset()  # a space's Faction, icon, "maker", "combat"
    # The item's names in the other languages (and their nicknames): folded and padded,
    # and as written (`other_written`, same order).
    other_names: tuple[str, ...] = ()
    other_written: tuple[str, ...] = ()
    written: str = ""  # the name in that language as written ("" when the English one)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.more_names, *self.other_names)

    @property
    def own_names(self) -> int:
        """How many of `names` are the reader's own (the rest: other languages)."""
        return 1 + len(self.more_names)

    def name_written(self, position: int) -> str:
        """`names[position]` as written."""
        if position == 0:
            return self.written or self.entry.name
        if position < self.own_names:
            return self.more_names[position - 1].strip()
        return self.other_written[position - self.own_names]

    @property
    def kind(self) -> str:
        return self.entry.kind

    @property
    def id(self) -> str:
        return self.entry.id


@dataclass(frozen=True, slots=True)
class Query:
    """A search: the words typed and the filters set (None: no filter)."""

    text: str = ""
    set: str | None = None
    kind: str | None = None
    faction: str | None = None
    icon: str | None = None
    cost_min: int | None = None
    cost_max: int | None = None
    intrigue_type: str | None = None
    level: int | None = None
    rival_tech: bool = False
    language: str = ENGLISH  # the reader's: its names and texts match, and rank first

    @property
    def filtered(self) -> bool:
        return any(
            v is not None
            for v in (
                self.set,
                self.kind,
                self.faction,
                self.icon,
                self.cost_min,
                self.cost_max,
                self.intrigue_type,
                self.level,
            )
        ) or bool(self.rival_tech)

    @property
    def empty(self) -> bool:
        return not normalize(self.text) and not self.filtered


@dataclass(frozen=True, slots=True)
class Hit:
    """A matching item, how well it matched (lower is better), and the text that matched.

    `text.text` is always card_db's English (a message of the `cards` catalogs, shown in
    the reader's language with companion.web.language.card_text), also when the words
    matched its translation. `name` is the name the query matched when it is one of
    another language ("Kartagin" for a Japanese reader), as written; None otherwise.
    """

    item: Item
    tier: int
    text: Text | None
    name: str | None = None

    @property
    def loose(self) -> bool:
        """True when the words are all there, but not together and not in the name."""
        return self.tier >= TIER_EVERY_WORD


TIER_NAME_EXACT: Final[int] = 0  # the name in the reader's language (or a nickname in it)
TIER_NAME_EXACT_OTHER: Final[int] = 1  # the name in another language
TIER_KIND: Final[int] = 2  # the items of a kind, or the spaces of a Faction or place, named
TIER_NAME_START: Final[int] = 3
TIER_NAME_PHRASE: Final[int] = 4
TIER_NAME_WORDS: Final[int] = 5
TIER_TEXT_PHRASE: Final[int] = 6
TIER_EVERY_WORD: Final[int] = 7
TIER_INSIDE_WORDS: Final[int] = 8
# How central a text is to its item: the kind's own facts, then what the card does, then
# the explanations around it (labels not listed rank last).
LABEL_RANKS: Final[Mapping[str, int]] = {
    **dict.fromkeys(("Icons", "Icon", "Type", "Level", "Cost", "Space"), 0),
    **dict.fromkeys(("Agent", "Reveal", "Acquire", "Plot", "Combat", "Endgame"), 1),
    **dict.fromkeys(("Effects", "Signet", "Ability", "Card", "1st", "2nd", "3rd"), 1),
    **dict.fromkeys(("Step 1", "Step 2", "Step 3", "Rule", "Ruling"), 1),
    **dict.fromkeys(("Rules", "Mark"), 2),
}
LABEL_RANK_LAST: Final[int] = 3


def _choice(value: str | None, allowed: Mapping[str, str] | tuple[str, ...]) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value if value in allowed else None


def _number(value: str | None, allowed: tuple[int, ...] | None = None) -> int | None:
    if value is None:
        return None
    value = value.strip()
    if not value.isascii() or not value.isdigit() or len(value) > 3:
        return None
    n = int(value)
    if allowed is not None and n not in allowed:
        return None
    return n if n <= MAX_NUMBER else None


def parse_query(args: Mapping[str, str], language: str = ENGLISH) -> Query:
    """A Query from request arguments; anything unknown or malformed is simply ignored.
    `language` is the reader's (not an argument: the page's language)."""
    return Query(
        language=language,
        text=(args.get("q") or "")[:MAX_QUERY],
        set=_choice(args.get("set"), SET_NAMES),
        kind=_choice(args.get("kind"), KIND_NAMES),
        faction=_choice(args.get("faction"), FACTION_NAMES),
        icon=_choice(args.get("icon"), ICON_NAMES),
        cost_min=_number(args.get("cost_min")),
        cost_max=_number(args.get("cost_max")),
        intrigue_type=_choice(args.get("type"), INTRIGUE_TYPE_NAMES),
        level=_number(args.get("level"), LEVELS),
        rival_tech=(args.get("rival") or "").strip().lower() in ("1", "on", "true", "yes"),
    )


def query_args(query: Query) -> dict[str, str]:
    """The request arguments that give back this query (for links and the form)."""
    args: dict[str, str] = {}
    pairs: tuple[tuple[str, object], ...] = (
        ("q", query.text),
        ("set", query.set),
        ("kind", query.kind),
        ("faction", query.faction),
        ("icon", query.icon),
        ("cost_min", query.cost_min),
        ("cost_max", query.cost_max),
        ("type", query.intrigue_type),
        ("level", query.level),
        ("rival", "1" if query.rival_tech else None),
    )
    for key, value in pairs:
        if value is not None and value != "":
            args[key] = str(value)
    return args


# A negated mention ("not a Combat space", "no Solari") is not what the text is about.
_NEGATED: Final = re.compile(
    r" (?:not|isnt|never|no|without|cant|cannot|nor) (?:(?:a|an|any|the) )?\w+(?: space| card)?"
)


def _text(label: str, text: str, words: Words) -> Text:
    folded = _NEGATED.sub(" ", " " + words.fold(text))
    return Text(label, text, folded.rstrip() + " ")


def _texts(entry: Entry, names: Mapping[str, str], words: Words) -> list[Text]:
    r = entry.record
    found: list[tuple[str, str]] = []
    if isinstance(r, CardDef):
        if r.cost is not None:
            found.append(("Cost", f"{r.cost} Persuasion"))
        found.append(("Agent", r.agent))
        reveal = [f"+{r.persuasion} Persuasion"] if r.persuasion else []
        reveal += [f"+{plural(r.swords, 'sword')}"] if r.swords else []
        found.append(("Reveal", " ".join([*(s + "." for s in reveal), r.reveal]).strip()))
        found.append(("Acquire", r.acquire))
        found.append(("Rules", r.special))
        facts = [FACTION_NAMES[f] for f in r.factions]
        facts += [f"{ICON_NAMES[i]} icon" for i in r.icons]
        facts += ["Infiltration"] if r.infiltration else []
        facts += ["Unload"] if r.unload else []
        found.append(("Icons", ", ".join(facts)))
    elif isinstance(r, IntrigueDef):
        found += [("Plot", r.plot), ("Combat", r.combat), ("Endgame", r.endgame)]
        found.append(("Type", ", ".join(INTRIGUE_TYPE_NAMES[t] for t in r.types)))
    elif isinstance(r, ConflictDef):
        found.append(("1st", reward_text(r.first, names)))
        found.append(("2nd", reward_text(r.second, names)))
        found.append(("3rd", reward_text(r.third, names)))
        found.append(("Level", f"Conflict {ROMAN[r.level]}"))
    elif isinstance(r, LeaderDef):
        found.append(("Signet", f"{r.signet_name}: {r.signet_text}"))
        found.append(("Ability", f"{r.ability_name}: {r.ability_text}"))
        found.append(("As a Rival", r.rival_explanation))
    elif isinstance(r, TechDef):
        found.append(("Cost", f"{r.cost} spice"))
        found.append(("Acquire", r.acquire))
        found.append(("Ability", r.ability))
        found.append(("Rival", r.rival_rule))
        found.append(("Mark", "Rivals may acquire it" if r.hagal_ok else ""))
    elif isinstance(r, SpaceDef):
        found.append(("Effects", r.effects))
        found.append(("Space", " ".join(space_facts(r))))
        icon = ICON_NAMES[r.icon]
        found.append(("Icon", f"{icon} icon" + (" Faction space" if r.faction else "")))
    elif isinstance(r, TrackDef):
        found.append(("Effects", r.effects))
        found += [(f"Step {s.step}", s.effects) for s in r.steps]
        found.append(("Rival", r.rival_rule))
    elif isinstance(r, HagalCardDef):
        found.append(("Card", " ".join(hagal_facts(r, names))))
    elif isinstance(r, ConceptDef):
        found.append(("Rule", r.rule))
        found += [("Ruling", ruling.text) for ruling in r.rulings]
    found.append(("Explanation", entry.explanation))
    return [_text(label, text, words) for label, text in found if text]


def _summary(entry: Entry, texts: list[Text]) -> Text | None:
    """The text a result row shows when the name is what matched."""
    prefer = {
        "imperium": ("Agent", "Reveal", "Rules"),
        "starter": ("Agent", "Reveal"),
        "reserve": ("Agent", "Reveal", "Acquire"),
        "control_the_spice": ("Agent", "Reveal"),
        "intrigue": ("Plot", "Combat", "Endgame"),
        "conflict": ("1st",),
        "leader": ("Signet",),
        "tech": ("Ability",),
        "space": ("Effects",),
        "track": ("Effects",),
        "hagal": ("Card",),
        "concept": ("Explanation",),
    }.get(entry.kind, ())
    for label in prefer:
        for t in texts:
            if t.label == label:
                return t
    return texts[0] if texts else None


def _place(space: SpaceDef) -> frozenset[str]:
    found: set[str] = {space.icon, *([space.faction] if space.faction else [])}
    found |= {"maker"} if space.maker else set()
    return frozenset(found | ({"combat"} if space.combat else set()))


def _source_texts(entry: Entry) -> list[tuple[str, str]]:
    """The record's own texts of card_db (messages of the `cards` catalogs), labelled as
    `_texts` labels them; a name of an ability after its text."""
    r = entry.record
    found: list[tuple[str, str]] = []
    if isinstance(r, CardDef):
        found += [("Agent", r.agent), ("Reveal", r.reveal), ("Acquire", r.acquire)]
        found.append(("Rules", r.special))
    elif isinstance(r, IntrigueDef):
        found += [("Plot", r.plot), ("Combat", r.combat), ("Endgame", r.endgame)]
    elif isinstance(r, LeaderDef):
        found += [("Signet", r.signet_text), ("Signet", r.signet_name)]
        found += [("Ability", r.ability_text), ("Ability", r.ability_name)]
        found.append(("As a Rival", r.rival_explanation))
    elif isinstance(r, TechDef):
        found += [("Acquire", r.acquire), ("Ability", r.ability), ("Rival", r.rival_rule)]
    elif isinstance(r, SpaceDef):
        found.append(("Effects", r.effects))
    elif isinstance(r, TrackDef):
        found.append(("Effects", r.effects))
        found += [(f"Step {s.step}", s.effects) for s in r.steps]
        found.append(("Rival", r.rival_rule))
    elif isinstance(r, ConceptDef):
        found.append(("Rule", r.rule))
        found += [("Ruling", ruling.text) for ruling in r.rulings]
    found.append(("Explanation", entry.explanation))
    return [(label, text) for label, text in found if text]


def _local_texts(sources: list[tuple[str, str]], gettext: Gettext, words: Words) -> list[Text]:
    """The translated texts, folded to match, each keeping its English text to show."""
    found: list[Text] = []
    for label, text in sources:
        local = gettext(text)
        if local and local != text:
            found.append(Text(label, text, f" {words.fold(local)} "))
    return found


def _padded(folded: str) -> str:
    return f" {folded} "


# An item's translated names: language -> (folded and padded, as written).
Translated = Mapping[str, tuple[str, str]]


def _variant(
    base: Item, language: str, written: Translated, local: list[Text], words: Words
) -> Item:
    """The item as a reader of `language` searches it: its name in that language (else
    the English one) and the nicknames words.toml gives in it first, every other name
    after them, its English texts and those of its language (`local`)."""
    entry = base.entry
    name, own_written = written.get(language, (base.name, ""))
    aliases = entry.record.aliases if isinstance(entry.record, ConceptDef) else ()
    own = [_padded(n) for n in words.own_names(language, entry.key)]
    others: list[tuple[str, str]] = []
    if language == ENGLISH:
        own += [_padded(words.fold(a)) for a in aliases]
    else:
        others.append((base.name, entry.name))
        others += [(_padded(words.fold(a)), a) for a in aliases]
    others += [pair for code, pair in written.items() if code != language]
    for code, table in words.names_by_language.items():
        if code != language:
            others += [(_padded(n), n) for n in table.get(entry.key, ())]
    more = tuple(dict.fromkeys(n for n in own if n != name))
    seen = {name, *more}
    other_names: list[str] = []
    other_written: list[str] = []
    for folded, shown in others:
        if folded.strip() and folded not in seen:
            seen.add(folded)
            other_names.append(folded)
            other_written.append(shown)
    texts = (*base.texts, *local)
    haystack = _SEP.join([name, *more, *other_names, *(t.folded for t in texts)])
    return replace(
        base,
        name=name,
        more_names=more,
        other_names=tuple(other_names),
        other_written=tuple(other_written),
        texts=texts,
        haystack=haystack,
        written=own_written,
    )


def _item(entry: Entry, order: int, names: Mapping[str, str], words: Words) -> Item:
    """The item in English alone (`_variant` adds the names and texts of a language)."""
    texts = _texts(entry, names, words)
    name = f" {words.fold(entry.name)} "
    haystack = _SEP.join([name, *(t.folded for t in texts)])
    r = entry.record
    extra: dict[str, object] = {}
    if isinstance(r, CardDef):
        per_player = PLAYER_COLOURS if r.per_player else 1
        extra = {
            "factions": frozenset(r.factions),
            "icons": frozenset(r.icons),
            "cost": r.cost,
            "copies": r.copies * per_player,
        }
    elif isinstance(r, SpaceDef):
        extra = {
            "factions": frozenset([r.faction] if r.faction else []),
            "icons": frozenset([r.icon]),
            "place": _place(r),
        }
    elif isinstance(r, HagalCardDef):
        found = {r.influence, r.influence_if_guild_2} - {None}
        extra = {"factions": frozenset(str(f) for f in found), "copies": r.copies}
    elif isinstance(r, IntrigueDef):
        extra = {"intrigue_types": frozenset(r.types), "copies": r.copies}
    elif isinstance(r, ConflictDef):
        extra = {"level": r.level}
    elif isinstance(r, TechDef):
        extra = {"rival_tech": r.hagal_ok}
    return Item(
        entry=entry,
        order=order,
        name=name,
        texts=tuple(texts),
        haystack=haystack,
        summary=_summary(entry, texts),
        **extra,  # type: ignore[arg-type]
    )


def _passes(item: Item, query: Query) -> bool:
    if query.set is not None and item.entry.set != query.set:
        return False
    if query.kind is not None and item.kind != query.kind:
        return False
    if query.faction is not None and query.faction not in item.factions:
        return False
    if query.icon is not None and query.icon not in item.icons:
        return False
    if query.cost_min is not None or query.cost_max is not None:
        if item.cost is None:
            return False
        if query.cost_min is not None and item.cost < query.cost_min:
            return False
        if query.cost_max is not None and item.cost > query.cost_max:
            return False
    if query.intrigue_type is not None and query.intrigue_type not in item.intrigue_types:
        return False
    if query.level is not None and item.level != query.level:
        return False
    return not (query.rival_tech and not item.rival_tech)


@dataclass(frozen=True, slots=True)
class Needles:
    """A folded query as the matcher looks for it: the whole phrase and each word, every
    one starting a word; a number matches only a whole word ("2" never matches "20")."""

    phrase: str
    words: tuple[str, ...]
    inner: tuple[str, ...]  # the bare words, for the last resort: inside words

    @classmethod
    def of(cls, folded: str) -> Needles:
        tokens = list(dict.fromkeys(folded.split()))
        last = folded.split()[-1] if folded else ""
        phrase = f" {folded} " if last.isdigit() else f" {folded}"
        words = tuple(f" {w} " if w.isdigit() else f" {w}" for w in tokens)
        return cls(phrase, words, tuple(tokens))


def _rank(text: Text) -> int:
    return LABEL_RANKS.get(text.label, LABEL_RANK_LAST)


def _first_text(item: Item, needles: tuple[str, ...]) -> Text | None:
    """The most central text holding every needle (else one holding the first)."""
    holding = [t for t in item.texts if all(n in t.folded for n in needles)]
    if holding:
        return min(holding, key=_rank)
    for t in item.texts:
        if needles and needles[0] in t.folded:
            return t
    return item.summary


def _name_tier(item: Item, needles: Needles) -> tuple[int, int] | None:
    """How well the best of the item's names matches, and its place in `item.names`
    (the reader's own names first: of two as good, theirs)."""
    phrase = needles.phrase.rstrip()
    own = item.own_names
    best: tuple[int, int] | None = None
    for position, name in enumerate(item.names):
        if name.rstrip() == phrase:
            if position < own:
                return TIER_NAME_EXACT, position
            tier = TIER_NAME_EXACT_OTHER
        elif name.startswith(needles.phrase):
            tier = TIER_NAME_START
        elif needles.phrase in name:
            tier = TIER_NAME_PHRASE
        elif all(w in name for w in needles.words):
            tier = TIER_NAME_WORDS
        else:
            continue
        if best is None or tier < best[0]:
            best = (tier, position)
    return best


def _tier(item: Item, needles: Needles) -> tuple[int, Text | None, int | None] | None:
    """How the needles match the item's names and texts, if they do, and which name."""
    if needles.words and needles.words[0] not in item.haystack:
        return None  # every way of matching needs the first word (the names are in it)
    found = _name_tier(item, needles)
    if found is not None:
        return found[0], item.summary, found[1]
    if needles.phrase in item.haystack:
        return TIER_TEXT_PHRASE, _first_text(item, (needles.phrase,)), None
    if all(w in item.haystack for w in needles.words):
        return TIER_EVERY_WORD, _first_text(item, needles.words), None
    return None


def _centrality(
    item: Item, text: Text | None, needles: Needles, position: int | None, spelled: str
) -> tuple[int, int, int]:
    """Within a tier. A name: the reader's own first, then one spelled as typed with its
    marks ("Żołnierz" before "Zolnierz" for "żołnierz", after it for "zolnierz"), then the
    shorter. A text: where the words matched (the item's own facts first), how often."""
    if position is not None:
        other = 0 if position < item.own_names else 1
        as_typed = 0 if spelled in marked(item.name_written(position)) else 1
        return (other, as_typed, len(item.name))
    rank = LABEL_RANK_LAST if text is None else _rank(text)
    return (rank, -item.haystack.count(needles.words[0]) if needles.words else 0, 0)


@dataclass(frozen=True, slots=True)
class Named:
    """What a query names besides words to match: a kind of item or a Faction or place,
    with the rest of its words."""

    kind: str | None
    place: str | None
    rest: Needles | None

    def covers(self, item: Item) -> bool:
        """The item is of the kind or at the place named, and holds the other words."""
        if self.kind is not None and item.kind != self.kind:
            return False
        if self.place is not None and self.place not in item.place:
            return False
        if self.kind is None and self.place is None:
            return False
        return self.rest is None or all(w in item.haystack for w in self.rest.words)


def _named(words: Words, folded: str) -> Named:
    place = words.split_place(folded)
    kind = words.split_kind(place[1] if place else folded)
    rest = kind[1] if kind else place[1] if place else ""
    return Named(
        kind=kind[0] if kind else None,
        place=place[0] if place else None,
        rest=Needles.of(rest) if rest else None,
    )


@dataclass(frozen=True, slots=True)
class Found:
    """A search's hits, and the query searched instead when the typed one found nothing."""

    hits: list[Hit]
    suggestion: str | None = None


def _corrector(items: tuple[Item, ...], words: Words) -> Corrector:
    """The names of every language and the words of one language's variant of the items;
    a name corrects to the item's name as its reader knows it, or to the other language's
    name as written."""
    names: dict[str, str] = {}
    for item in items:
        for position, name in enumerate(item.names):
            own = position < item.own_names
            names[name.strip()] = item.name_written(0 if own else position)
    vocabulary = set(words.vocabulary())
    for item in items:
        vocabulary.update(item.haystack.split())
    return Corrector.build(names=names, words=vocabulary)


@dataclass(slots=True)
class SearchIndex:
    """Every record of a catalog, normalized once, searchable and filterable; one variant
    of every item per reader's language (English and each of `languages`)."""

    catalog: Catalog
    words: Words = field(default_factory=Words)
    concepts: tuple[ConceptDef, ...] = ()
    languages: CardLanguages = field(default_factory=dict)  # locale -> the cards gettext
    items: tuple[Item, ...] = ()  # the English variants
    by_key: dict[tuple[str, str], Item] = field(default_factory=dict)
    by_card_id: dict[str, Item] = field(default_factory=dict)
    corrector: Corrector = field(default_factory=Corrector)
    by_language: dict[str, tuple[Item, ...]] = field(default_factory=dict)
    correctors: dict[str, Corrector] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = {s.id: s.name for s in self.catalog.spaces.values()}
        order = {kind: n for n, kind in enumerate(KIND_NAMES)}
        listed = sorted(
            [*entries(self.catalog), *concept_entries(self.concepts)],
            key=lambda e: (order[e.kind], normalize(e.name), e.id),
        )
        bases = [_item(e, n, names, self.words) for n, e in enumerate(listed)]
        written: list[Translated] = []
        for entry in listed:
            translated = {code: gettext(entry.name) for code, gettext in self.languages.items()}
            folded = {code: self.words.fold(name) for code, name in translated.items()}
            written.append(
                {
                    code: (_padded(folded[code]), name)
                    for code, name in translated.items()
                    if name != entry.name and folded[code]
                }
            )
        sources = [_source_texts(e) for e in listed]
        for language in (ENGLISH, *self.languages):
            gettext = self.languages.get(language)
            variants = tuple(
                _variant(
                    base,
                    language,
                    names_written,
                    _local_texts(texts, gettext, self.words) if gettext else [],
                    self.words,
                )
                for base, names_written, texts in zip(bases, written, sources, strict=True)
            )
            self.by_language[language] = variants
            self.correctors[language] = _corrector(variants, self.words)
        self.items = self.by_language[ENGLISH]
        self.corrector = self.correctors[ENGLISH]
        self.by_key = {(i.kind, i.id): i for i in self.items}
        self.by_card_id = {i.id: i for i in self.items if i.kind in CARD_NAMESPACE}

    def items_for(self, language: str) -> tuple[Item, ...]:
        """The items as a reader of `language` searches them (English when unknown)."""
        return self.by_language.get(language, self.items)

    def get(self, kind: str, item_id: str) -> Item | None:
        """The item of this kind and id, or None."""
        return self.by_key.get((kind, item_id))

    def search(self, query: Query) -> list[Hit]:
        """Items passing the filters and matching the words, best first."""
        candidates = [i for i in self.items_for(query.language) if _passes(i, query)]
        folded = self.words.fold(query.text)
        if not folded:
            return [Hit(i, TIER_NAME_EXACT, i.summary) for i in candidates]
        needles = Needles.of(folded)
        named = _named(self.words, folded)
        spelled = marked(query.text)
        ranked: list[tuple[int, tuple[int, int, int], int, Hit]] = []
        for item in candidates:
            found = _tier(item, needles)
            if named.covers(item) and (found is None or found[0] > TIER_KIND):
                text = _first_text(item, named.rest.words) if named.rest else item.summary
                found = (TIER_KIND, text, None)
            if found is not None:
                tier, text, position = found
                centrality = _centrality(item, text, named.rest or needles, position, spelled)
                # The name of another language that matched, as written.
                other = position is not None and position >= item.own_names
                name = item.name_written(position) if other and position is not None else None
                ranked.append((tier, centrality, item.order, Hit(item, tier, text, name)))
        if not ranked:
            # Nothing starts a word with what was typed: look inside words ("ater").
            for item in candidates:
                if all(w in item.haystack for w in needles.inner):
                    text = _first_text(item, needles.inner)
                    hit = Hit(item, TIER_INSIDE_WORDS, text)
                    ranked.append((TIER_INSIDE_WORDS, (0, 0, 0), item.order, hit))
        ranked.sort(key=lambda r: r[:3])
        return [r[3] for r in ranked]

    def find(self, query: Query) -> Found:
        """`search`, forgiving typos: when nothing matches the start of a word, the words
        are corrected to the nearest names and words of the catalog ("did you mean")."""
        hits = self.search(query)
        folded = self.words.fold(query.text)
        # CJK: every character is a word, so scattered characters of long texts match
        # loosely almost any query; a name one character off is the better answer.
        loose = has_cjk(folded) and all(h.tier >= TIER_EVERY_WORD for h in hits)
        if any(h.tier < TIER_INSIDE_WORDS for h in hits) and not loose:
            return Found(hits)
        corrector = self.correctors.get(query.language, self.corrector)
        corrected = corrector.correct(folded)
        if corrected is None or (loose and hits and not corrected.name):
            return Found(hits)
        better = self.search(replace(query, text=corrected.folded))
        if not better:
            return Found(hits)
        return Found(better, corrected.shown)
