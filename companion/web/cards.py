"""Rules lookup: search every card, space, leader, Conflict, tile and House Hagal card.

Pages: `/cards` (search and filters), `/cards/<kind>/<id>` (one item, with its rulings
and related items), `/cards/<kind>/<id>/panel` (the same rules panel alone, for a dialog
on the table screen), and `/c/<card-id>[/<copy>]` for the QR stickers on physical cards.

The full catalog (base and Rise of Ix) is loaded once when the blueprint is registered,
into `app.extensions["card_catalog"]`, with its search index in
`app.extensions["card_lookup"]`; games keep their own base catalog.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import urlencode

from flask import (
    Blueprint,
    current_app,
    make_response,
    redirect,
    render_template,
    render_template_string,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from jinja2_fragments.flask import render_block
from markupsafe import Markup, escape

from companion.cards import load_catalog
from companion.cards.index import KIND_NAMES
from companion.cards.search import (
    ICON_NAMES,
    INTRIGUE_TYPE_NAMES,
    LEVELS,
    PLAYERS_NAMES,
    ROMAN,
    SET_NAMES,
    Hit,
    Item,
    SearchIndex,
    hagal_facts,
    normalize,
    parse_query,
    plural,
    query_args,
    reward_text,
    space_facts,
)
from companion.rules.catalog import (
    FACTION_NAMES,
    CardDef,
    Catalog,
    ConflictDef,
    HagalCardDef,
    IntrigueDef,
    LeaderDef,
    SpaceDef,
    TechDef,
    TrackDef,
)
from companion.web.htmx import is_htmx

bp = Blueprint("cards", __name__)
SETS: Final[tuple[str, ...]] = ("base", "ix")
INDEX: Final[str] = "cards/index.html"
SHOW: Final[str] = "cards/show.html"
# Rows a search shows before "Show all": enough for any sensible query, and the empty
# search (every item) stays quick to render on a tablet.
LIMIT: Final[int] = 60
TIMINGS: Final[Mapping[str, str]] = {
    "reveal": "During your Reveal turn",
    "after_conflict": "After you win a Conflict",
    "round_start": "At the start of each round",
    "once_per_round": "Once per round (flip the tile)",
    "one_time": "Once (then trash the tile)",
    "any_turn": "On any of your turns",
    "passive": "Always on",
    "endgame": "At the end of the game",
}
SIGNET_NAMES: Final[Mapping[str, str]] = {
    "none": "No Rival Signet",
    "leto_diplomacy": "Pay 1 spice for 1 Influence where an opponent is ahead",
    "baron_scheme": "Pay 1 Solari for 1 Intrigue card",
    "rabban_brutality": "Recruit 1 troop (2 with an Alliance)",
    "gain_solari": "Gain 1 Solari",
    "gain_spice": "Gain 1 spice",
    "gain_water": "Gain 1 water",
    "rhombur_tech": "Acquire Tech, else a Negotiator",
    "hundro_freighter": "Pay 1 spice for a Freighter move",
}


# --- what detail pages link to, and loading ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Link:
    """A link to another item, with a short note on how it relates."""

    kind: str
    id: str
    name: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Related:
    """A group of related items on a detail page, or a search that lists them."""

    title: str
    links: tuple[Link, ...] = ()
    note: str = ""
    search: Mapping[str, str] | None = None
    search_label: str = ""


@dataclass(frozen=True, slots=True)
class Ruling:
    """A rule that applies to the item, in our words, and where it comes from."""

    text: str
    source: str


@dataclass(slots=True)
class Lookup:
    """The search index plus what detail pages need: mentions of other items' names."""

    index: SearchIndex
    mentions: dict[tuple[str, str], tuple[Link, ...]] = field(default_factory=dict)
    space_names: dict[str, str] = field(default_factory=dict)

    @property
    def catalog(self) -> Catalog:
        return self.index.catalog

    def __post_init__(self) -> None:
        self.mentions = _mentions(self.index)
        self.space_names = {s.id: s.name for s in self.catalog.spaces.values()}


_LOADED: dict[str, tuple[tuple[int, ...], Lookup]] = {}
_LOCK = threading.Lock()


def _stamp(root: Path) -> tuple[int, ...]:
    return tuple(p.stat().st_mtime_ns for p in sorted(root.rglob("*.toml")))


def load_lookup(root: Path) -> Lookup:
    """The lookup for this card_db folder, shared by every app of the process until a
    file changes (tests build many apps)."""
    key = str(root.resolve())
    stamp = _stamp(root)
    with _LOCK:
        found = _LOADED.get(key)
        if found is not None and found[0] == stamp:
            return found[1]
    lookup = Lookup(SearchIndex(load_catalog(root, SETS)))
    with _LOCK:
        _LOADED[key] = (stamp, lookup)
    return lookup


@bp.record_once
def _load(state: BlueprintSetupState) -> None:
    app = state.app
    lookup = load_lookup(Path(app.config["CARD_DB_PATH"]))
    app.extensions["card_catalog"] = lookup.catalog
    app.extensions["card_lookup"] = lookup


def lookup() -> Lookup:
    return current_app.extensions["card_lookup"]  # type: ignore[no-any-return]


# --- text with our icons -------------------------------------------------------------

_AMOUNT: Final = re.compile(
    r"(?<![\w.])(\(?)([+-]?)(\d+)(\+?) (Solari|spice|water|Persuasion|[Ss]words?|troops?|"
    r"Victory Points?|VP|Intrigue cards?|Intrigue)\b"
)
_RESOURCE_CLASS: Final[Mapping[str, str]] = {
    "solari": "solari",
    "spice": "spice",
    "water": "water",
    "persuasion": "persuasion",
    "sword": "swords",
    "swords": "swords",
    "troop": "troops",
    "troops": "troops",
    "victory point": "vp",
    "victory points": "vp",
    "vp": "vp",
    "intrigue card": "intrigue",
    "intrigue cards": "intrigue",
    "intrigue": "intrigue",
}


@bp.app_template_filter("iconize")
def iconize(text: str) -> Markup:
    """Escape text, then put our resource badge before each amount ('2 water')."""

    def badge(m: re.Match[str]) -> str:
        paren, sign, n, plus, word = m.groups()
        cls = _RESOURCE_CLASS[word.lower()]
        badge = f'<span class="rl-res rl-{cls}">{n}{plus}</span>'
        return f'<span class="rl-amount">{paren}{sign}{badge} {word}</span>'

    return Markup(_AMOUNT.sub(badge, str(escape(text))))


# --- related items and rulings -------------------------------------------------------

# Names too common in effect text to mean the item of that name.
_NOT_MENTIONS: Final[frozenset[tuple[str, str]]] = frozenset(
    {
        ("space", "wealth"),
        ("space", "secrets"),
        ("space", "dreadnought"),
        ("space", "conspire"),
        ("starter", "diplomacy"),
        ("starter", "reconnaissance"),
        ("imperium", "appropriate"),
        ("imperium", "treachery"),
        ("imperium", "scout"),
        ("imperium", "opulence"),
        ("intrigue", "ambush"),
        ("intrigue", "infiltrate"),
        ("intrigue", "bribery"),
        ("intrigue", "finesse"),
        ("intrigue", "diversion"),
        ("intrigue", "expedite"),
        ("intrigue", "cull"),
        ("intrigue", "blackmail"),
        ("intrigue", "strongarm"),
        ("intrigue", "reinforcements"),
        ("intrigue", "tiebreaker"),
        ("intrigue", "windfall"),
        ("tech", "artillery"),
        ("tech", "flagship"),
        ("tech", "spaceport"),
    }
)
_MENTION_KINDS: Final[tuple[str, ...]] = (
    "imperium",
    "starter",
    "reserve",
    "control_the_spice",
    "intrigue",
    "leader",
    "tech",
    "space",
    "track",
)


def _mentions(index: SearchIndex) -> dict[tuple[str, str], tuple[Link, ...]]:
    """For each item, the other items whose full name its texts use."""
    targets = [
        (" " + normalize(i.entry.name) + " ", i)
        for i in index.items
        if i.kind in _MENTION_KINDS and (i.kind, i.id) not in _NOT_MENTIONS
    ]
    found: dict[tuple[str, str], tuple[Link, ...]] = {}
    for item in index.items:
        if item.kind == "hagal":  # its texts name spaces, already linked
            found[(item.kind, item.id)] = ()
            continue
        text = " ".join(t.folded for t in item.texts) + " "
        own = normalize(item.entry.name)
        links = [
            Link(other.kind, other.id, other.entry.name, KIND_NAMES[other.kind])
            for needle, other in targets
            if other is not item and needle.strip() != own and needle in text
        ]
        found[(item.kind, item.id)] = tuple(links)
    return found


def _link(item: Item, note: str = "") -> Link:
    return Link(item.kind, item.id, item.entry.name, note)


def _space_link(catalog: Catalog, space_id: str | None, note: str = "") -> Link | None:
    if space_id is None or space_id not in catalog.spaces:
        return None
    return Link("space", space_id, catalog.spaces[space_id].name, note)


def _group(title: str, links: Iterable[Link | None], note: str = "") -> Related | None:
    found = tuple(link for link in links if link is not None)
    return Related(title, found, note) if found else None


def _players_note(h: HagalCardDef) -> str:
    return {"1P": "solo only", "2P": "two-player only"}.get(h.players, "")


def _hagal_for_space(catalog: Catalog, s: SpaceDef) -> list[Link]:
    links: list[Link] = []
    for h in catalog.hagal.values():
        notes = [_players_note(h)] if h.players != "both" else []
        if h.space_if_guild_2 == s.id:
            notes.append("with 2+ Spacing Guild Influence")
        elif h.space == s.id and h.space_if_guild_2:
            notes.append("with 0-1 Spacing Guild Influence")
        elif h.space != s.id and not (h.harvest and s.maker):
            continue
        if h.harvest:
            notes.append("when this space has the most bonus spice")
        if h.removed_with:
            notes.append("removed with Rise of Ix")
        links.append(Link("hagal", h.id, h.name, "; ".join(n for n in notes if n)))
    return links


def _space_note(s: SpaceDef) -> str:
    if s.removed_with:
        return "covered with Rise of Ix"
    return "Rise of Ix" if s.set == "ix" else ""


def _replaces(item: Item) -> str | None:
    r = item.entry.record
    return r.replaces if isinstance(r, CardDef) else None


def _icon_search(lookup: Lookup, icon: str) -> Related:
    count = sum(1 for i in lookup.index.items if icon in i.icons and i.kind != "space")
    name = ICON_NAMES[icon]
    return Related(
        f"Cards with the {name} Agent icon",
        search={"icon": icon},
        search_label=f"{plural(count, 'card')} can send an Agent to {name} spaces",
    )


def _related(lookup: Lookup, item: Item) -> list[Related]:
    catalog = lookup.catalog
    index = lookup.index
    r = item.entry.record
    groups: list[Related | None] = []
    if isinstance(r, SpaceDef):
        hagal = _hagal_for_space(catalog, r)
        if hagal:
            groups.append(_group("House Hagal cards that send a Rival here", hagal))
        else:
            groups.append(
                Related(
                    "House Hagal cards that send a Rival here",
                    note="None: a Rival never sends an Agent here, so it never blocks it.",
                )
            )
        groups.append(
            _group(
                "Conflicts that give control of it",
                (
                    Link("conflict", k.id, k.name, f"Conflict {ROMAN[k.level]}")
                    for k in catalog.conflicts.values()
                    if k.controlled_space == r.id
                ),
            )
        )
        if r.removed_with:
            groups.append(
                _group(
                    "Rise of Ix covers it with",
                    (
                        Link("space", s.id, s.name)
                        for s in catalog.spaces.values()
                        if s.set == "ix" and s.icon == r.icon
                    ),
                    "The CHOAM board overlay covers this space when you play with Rise of Ix.",
                )
            )
        if r.set == "ix":
            groups.append(
                _group(
                    "Base spaces it covers",
                    (
                        Link("space", s.id, s.name)
                        for s in catalog.spaces.values()
                        if "ix" in s.removed_with and s.icon == r.icon
                    ),
                )
            )
        if r.freighter:
            groups.append(_group("Track", (_link(i) for i in index.items if i.kind == "track")))
        if r.acquire_tech:
            groups.append(
                Related("Tech tiles", search={"kind": "tech"}, search_label="All 18 Tech tiles")
            )
        groups.append(_icon_search(lookup, r.icon))
    elif isinstance(r, HagalCardDef):
        dual = r.space_if_guild_2 is not None
        groups.append(
            _group(
                "Where it sends the Rival",
                [
                    _space_link(catalog, r.space, "0-1 Spacing Guild Influence" if dual else ""),
                    _space_link(catalog, r.space_if_guild_2, "2+ Spacing Guild Influence"),
                ]
                + [
                    Link("space", s.id, s.name, f"{s.base_spice} base spice")
                    for s in catalog.spaces.values()
                    if r.harvest and s.maker
                ],
            )
        )
        targets = {r.space, r.space_if_guild_2} - {None}
        groups.append(
            _group(
                "Other House Hagal cards for the same space",
                (
                    Link("hagal", h.id, h.name, _players_note(h))
                    for h in catalog.hagal.values()
                    if h.id != r.id and targets & ({h.space, h.space_if_guild_2} - {None})
                ),
            )
        )
        if r.signet:
            groups.append(
                _group(
                    "Leaders a Rival can play, and their Signets",
                    (
                        Link("leader", x.id, x.name, SIGNET_NAMES.get(x.rival_signet, ""))
                        for x in catalog.leaders.values()
                        if x.rival_allowed
                    ),
                )
            )
        if r.acquire_tech:
            groups.append(
                Related(
                    "Tech tiles a Rival may acquire",
                    search={"kind": "tech", "rival": "1"},
                    search_label="The tiles with the House Hagal mark",
                )
            )
        if r.freighter or r.freighter_if_guild_2:
            groups.append(_group("Track", (_link(i) for i in index.items if i.kind == "track")))
    elif isinstance(r, ConflictDef):
        rewards = (r.first, r.second, r.third)
        controls = [r.controlled_space, *(w.control for w in rewards)]
        groups.append(
            _group(
                "The space it is fought over",
                (_space_link(catalog, c) for c in dict.fromkeys(controls) if c),
            )
        )
        if r.controlled_space:
            groups.append(
                _group(
                    "Other Conflicts for the same space",
                    (
                        Link("conflict", k.id, k.name, f"Conflict {ROMAN[k.level]}")
                        for k in catalog.conflicts.values()
                        if k.id != r.id and k.controlled_space == r.controlled_space
                    ),
                )
            )
        groups.append(
            Related(
                f"Conflict {ROMAN[r.level]} cards",
                search={"kind": "conflict", "level": str(r.level)},
                search_label=f"Every Conflict {ROMAN[r.level]} card",
            )
        )
    elif isinstance(r, LeaderDef):
        if r.rival_allowed:
            groups.append(
                _group(
                    "House Hagal cards that use its Signet",
                    (
                        Link("hagal", h.id, h.name, _players_note(h))
                        for h in catalog.hagal.values()
                        if h.signet
                    ),
                )
            )
        if r.rival_signet == "rhombur_tech":
            groups.append(
                Related(
                    "Tech tiles a Rival may acquire",
                    search={"kind": "tech", "rival": "1"},
                    search_label="The tiles with the House Hagal mark",
                )
            )
        if r.rival_signet == "hundro_freighter":
            groups.append(_group("Track", (_link(i) for i in index.items if i.kind == "track")))
    elif isinstance(r, TechDef):
        groups.append(
            _group(
                "Where you can acquire it",
                [
                    *(
                        Link("space", s.id, s.name, f"{s.tech_discount} spice off")
                        if s.tech_discount
                        else Link("space", s.id, s.name)
                        for s in catalog.spaces.values()
                        if s.acquire_tech
                    ),
                    *(_link(i, "top step") for i in index.items if i.kind == "track"),
                ],
            )
        )
        if r.hagal_ok:
            groups.append(
                _group(
                    "House Hagal cards that buy Tech for a Rival",
                    (
                        Link("hagal", h.id, h.name, _players_note(h))
                        for h in catalog.hagal.values()
                        if h.acquire_tech
                    ),
                )
            )
        groups.append(
            Related(
                "Tech tiles a Rival may acquire",
                search={"kind": "tech", "rival": "1"},
                search_label="The tiles with the House Hagal mark",
            )
        )
    elif isinstance(r, TrackDef):
        groups.append(
            _group(
                "Spaces with Freighter moves",
                (
                    Link("space", s.id, s.name, plural(s.freighter, "move"))
                    for s in catalog.spaces.values()
                    if s.freighter
                ),
            )
        )
        groups.append(
            _group(
                "House Hagal cards with Freighter moves",
                (
                    Link("hagal", h.id, h.name, _players_note(h))
                    for h in catalog.hagal.values()
                    if h.freighter or h.freighter_if_guild_2
                ),
            )
        )
        groups.append(
            Related("Freighter moves", search={"q": "freighter"}, search_label="Find Freighter")
        )
    elif isinstance(r, CardDef):
        for icon in r.icons:
            spaces = [
                Link("space", s.id, s.name, _space_note(s))
                for s in catalog.spaces.values()
                if s.icon == icon
            ]
            groups.append(_group(f"{ICON_NAMES[icon]} spaces it can send an Agent to", spaces))
        if r.replaces:
            replaced = index.get("starter", r.replaces)
            if replaced is not None:
                groups.append(_group("Replaces", [_link(replaced, "one copy per player")]))
        groups.append(
            _group(
                "Replaced in Epic mode by",
                (_link(i) for i in index.items if _replaces(i) == r.id),
            )
        )
        for faction in r.factions:
            groups.append(
                Related(
                    f"{FACTION_NAMES[faction]} cards",
                    search={"faction": faction, "kind": "imperium"},
                    search_label=f"Every {FACTION_NAMES[faction]} Imperium card",
                )
            )
    # Everything with the same name (Foldspace, Skirmish) and every name the texts use.
    own = normalize(item.entry.name)
    same = [
        _link(i, KIND_NAMES[i.kind])
        for i in index.items
        if i is not item and normalize(i.entry.name) == own and i.kind != "conflict"
    ]
    listed = {(link.kind, link.id) for g in groups if g is not None for link in g.links}
    groups.append(_group("Same name", (s for s in same if (s.kind, s.id) not in listed)))
    listed |= {(s.kind, s.id) for s in same}
    groups.append(
        _group(
            "Named in its text",
            (m for m in lookup.mentions[(item.kind, item.id)] if (m.kind, m.id) not in listed),
        )
    )
    return [g for g in groups if g is not None]


RB19: Final = "Rulebook p.19, House Hagal cards"
RB20: Final = "Rulebook p.20, Solo play"
RB13: Final = "Rulebook p.13, Clarifications"
IX8: Final = "Rise of Ix rulebook p.8, Solo & two-player"
IX9: Final = "Rise of Ix rulebook p.9, Solo & two-player"
IX10: Final = "Rise of Ix rulebook p.10, Clarifications"
H: Final = "House Hagal rules (HAGAL.md)"

# Rulings for one item, in our words, with their source: FAQ entries (February 2022),
# the clarifications of both rulebooks, and HAGAL.md. Each block: "kind:id | source", then
# the ruling's text over as many lines as it needs; blocks are separated by a blank line.
_RULINGS_TABLE: Final[str] = """
imperium:assassination_mission | FAQ, Assassination Mission
It can't trash itself: only another card or effect that trashes it pays the 4 Solari.

imperium:carryall | FAQ, Carryall
The base spice it doubles is 1 at Imperial Basin, 2 at Hagga Basin and 3 at The Great
Flat; bonus spice is not doubled.

imperium:chani | FAQ, Retreat
Retreating 'any number' of troops includes zero.

imperium:duncan_idaho | FAQ, paying a cost
A cost behind an arrow is paid at most once: one water for one troop and one card, never
two water for two.

imperium:guild_bankers | FAQ, Guild Bankers
The discount applies to every copy of The Spice Must Flow you acquire that turn.

imperium:gun_thopter | FAQ, Gun Thopter
An opponent with no troops in their garrison is not affected by its Agent box.

imperium:imperial_spy | FAQ, Imperial Spy
You only draw the Intrigue card when the card trashes itself; trashed by anything else,
it gives nothing.

imperium:kwisatz_haderach | Rulebook p.13, Clarifications
You may play it with no Agent left in your supply: it moves an Agent already on the
board, even back to the space it just left, but never to a once-per-game space it
already used.

imperium:kwisatz_haderach | Rulebook p.13, Clarifications
A space marked by The Voice stops it too.

imperium:liet_kynes | FAQ, Liet Kynes
Count the cards of your Agent turns this round and of your current Reveal turn: 2
Persuasion for each that qualifies.

imperium:missionaria_protectiva | FAQ, Errata
It is a Bene Gesserit card: the first English printing left the Faction off. There are
only two copies in the Imperium Deck.

imperium:reverend_mother_mohiam | FAQ, Reverend Mother Mohiam
Opponents pick which cards they discard, starting on your left and going clockwise;
discards come from the hand.

imperium:shifting_allegiances | FAQ, Shifting Allegiances
You may lose and gain Influence with the same Faction (a net gain of one), but you must
really lose one: not with a Faction where you have none.

imperium:test_of_humanity | Rulebook p.13, Clarifications
Opponents choose from your left, clockwise, and must pick something they can do; a
discard comes from the hand and they choose the card.

imperium:the_voice | Rulebook p.13, Clarifications
Mark the space with one of your Control markers and remove it on your next turn; it only
stops opponents for that one turn.

imperium:appropriate | Rise of Ix rulebook p.10, Clarifications
Solari and spice can't be mixed to pay a Tile; Negotiators returned from Ix take 1
Solari off each.

imperium:imperial_bashar | Rise of Ix rulebook p.10, Clarifications
Only other cards that really give swords this turn count (not a Bene Gesserit Sister
that chose Persuasion).

imperium:court_intrigue | Rise of Ix rulebook p.10, Clarifications
The card you put at the bottom of the Intrigue deck stays hidden from your opponents.

imperium:treachery | Rise of Ix rulebook p.10, Clarifications
Its Agent box trashes the card itself, which triggers its Unload Reveal box.

reserve:foldspace | FAQ, Foldspace
You can only acquire it with the Foldspace icon: the board space of the same name, or
Ilesa Ecaz.

reserve:the_spice_must_flow | FAQ, The Spice Must Flow
You keep the Victory Point for acquiring it even if you trash the card later.

reserve:the_spice_must_flow | Rulebook p.20, Solo play
Corner the Market treats each solo Rival as holding two of these.

intrigue:bindu_suspension | Rulebook p.13, Clarifications
Play it at the very start of your turn: draw a card, and your turn ends at once.

intrigue:calculated_hire | Rulebook p.13, Clarifications
It only takes the Mentat from its starting space in the Landsraad.

intrigue:charisma | FAQ, Intrigue cards
Its effect waits for your Reveal turn: keep it face up in front of you until then.

intrigue:corner_the_market | FAQ, Corner the Market
Count the copies in your deck and discard pile against each opponent separately; an
opponent with as many or more stops the second point.

intrigue:corner_the_market | Rulebook p.20, Solo play
Against solo Rivals, each counts as having two The Spice Must Flow, so you need three
for both points.

intrigue:demand_respect | Rulebook p.13, Clarifications
You may take a Conflict's spice reward first and use it to pay for this card (To the
Victor… can give you that spice).

intrigue:double_cross | FAQ, Double Cross
At least one opponent must have a troop in the Conflict; you need no troops in your own
supply.

intrigue:plans_within_plans | FAQ, Plans Within Plans
Each Influence track has six spaces; 3 Influence is the space just above the one that
scores a Victory Point.

intrigue:poison_snooper | FAQ, Reveal turn
A card drawn during your Reveal turn is revealed and used that same turn.

intrigue:poison_snooper | Rulebook p.13, Clarifications
With an empty deck you can't look at its top card; the discard pile is only reshuffled
when you must draw.

intrigue:rapid_mobilization | FAQ, Retreat
Retreating 'any number' of troops includes zero.

intrigue:recruitment_mission | FAQ, Recruitment Mission
It applies only to your Reveal turn this round, and you choose top of deck or discard
pile for each card you acquire.

intrigue:refocus | FAQ, Refocus
If your discard pile is empty, reshuffle your deck. A card drawn during your Reveal turn
is revealed and used at once.

intrigue:staged_incident | FAQ, Staged Incident
Lower your Combat marker for it like any other strength change from a Combat Intrigue
card.

intrigue:to_the_victor | FAQ, When you win a Conflict
It can't be played when you tie for first place: a tie is not a win.

intrigue:second_wave | Rise of Ix rulebook p.10, Clarifications
Like every Combat Intrigue card, you must already have a unit in the Conflict to play
it.

leader:armand_ecaz | FAQ, Archduke Armand Ecaz
Coordination needs at least two of your Agents on spaces with any of the listed icons;
they need not share an icon.

leader:vladimir_harkonnen | FAQ, Baron Vladimir Harkonnen
Pick the two Factions for Masterstroke after setup, before round one; you reveal them
and gain the Influence only once per game.

leader:ilban_richese | FAQ, Count Ilban Richese
Ruthless Negotiator only works when paying Solari for the printed cost of a board space,
not for a card's Solari cost.

leader:ariana_thorvald | FAQ, Countess Ariana Thorvald
Spice Addict is not optional, and only touches spice harvested at The Great Flat, Hagga
Basin and Imperial Basin.

leader:helena_richese | FAQ, Helena Richese
Opponents can't acquire the card Manipulate removes; you may, by any means (her discount
only on her own). Unbought by the end of your next Reveal turn, it leaves the game.

leader:ilesa_ecaz | FAQ, Ilesa Ecaz
'Otherwise' means the set-aside card sent an Agent but had more or fewer than one Agent
icon; if you never use it, you get nothing.

leader:ilesa_ecaz | Rise of Ix rulebook p.10, Clarifications
Taking a Reveal turn first adds the set-aside card to your revealed cards, without the
spice or Solari.

leader:yuna_moritani | FAQ, Yuna Moritani
Smuggling Operation applies each time you gain Solari in a turn (a Freighter recall and
Windfall give 2 extra Solari in all).

leader:paul_atreides | Rulebook p.13, Clarifications
You can't look at the top card of an empty deck.

conflict:sort_through_the_chaos | FAQ, Sort Through the Chaos
The winner takes the Mentat at the start of the next round.

hagal:hall_of_oratory | FAQ, Errata
With Rise of Ix, remove both copies from the House Hagal deck (missing from the first
English printing).

hagal:rally_troops | FAQ, Errata
With Rise of Ix, remove both copies from the House Hagal deck (missing from the first
English printing).

hagal:harvest_spice | House Hagal rules (HAGAL.md) §2, from the Spice Flow mod; medium confidence
It sends the Agent to the free maker space with the most bonus spice (ties: The Great
Flat, Hagga Basin, Imperial Basin); with no bonus spice anywhere, reveal another card.

hagal:harvest_spice | Rulebook p.20, Solo play
The bonus spice leaves the space: a solo Rival gains it with the base spice, House Hagal
(two players) returns it to the bank.

hagal:reshuffle | Rulebook p.19, House Hagal cards
Two-player only: shuffle every House Hagal card into a new deck, then reveal again.

hagal:dreadnought_1p | Rise of Ix rulebook p.8, Solo & two-player
Skipped when the Rival already has both dreadnoughts: reveal the next card.

hagal:dreadnought_2p | Rise of Ix rulebook p.8, Solo & two-player
Skipped when House Hagal already has both dreadnoughts: reveal the next card.

hagal:tech_negotiation | Rise of Ix rulebook p.9, Solo & two-player
The Rival buys the most expensive House Hagal-marked tile it can afford (ties: the
topmost stack); if none can be afforded, a troop from its supply becomes a Negotiator.

track:shipping_track | FAQ, Rivals
A Rival's Influence from the second step goes where it has the least; on a tie, the
First Player (or whoever acts next after a Rival holding it) chooses.
"""


def _parse_rulings(table: str) -> dict[str, tuple[Ruling, ...]]:
    found: dict[str, list[Ruling]] = {}
    for block in table.strip().split("\n\n"):
        head, *text = block.strip().splitlines()
        key, source = (part.strip() for part in head.split(" | ", 1))
        found.setdefault(key, []).append(Ruling(" ".join(line.strip() for line in text), source))
    return {key: tuple(rulings) for key, rulings in found.items()}


RULINGS: Final[Mapping[str, tuple[Ruling, ...]]] = _parse_rulings(_RULINGS_TABLE)

_DUAL = Ruling(
    "Use only the half that matches the Rival's Spacing Guild Influence. If that space is "
    "taken, don't use the other half: reveal a new card.",
    "FAQ, Rivals",
)


def _rulings(catalog: Catalog, item: Item) -> list[Ruling]:
    r = item.entry.record
    found: list[Ruling] = []
    if isinstance(r, SpaceDef):
        targeted = any(r.id in (h.space, h.space_if_guild_2) for h in catalog.hagal.values())
        if targeted or r.maker:
            found.append(
                Ruling(
                    "A Rival sent here pays none of the cost and ignores the space's effects: "
                    "it only does what its House Hagal card shows. If the space is taken, its "
                    "card is ignored and the next one revealed.",
                    RB19,
                )
            )
        if r.combat:
            found.append(
                Ruling(
                    "Sending an Agent here lets you deploy every troop you recruit this turn, "
                    "from any source, plus up to two from your garrison; troops already in the "
                    "garrison can't be recruited again to pass that limit.",
                    "FAQ, troops",
                )
            )
            if targeted or r.maker:
                found.append(
                    Ruling(
                        "A Rival sent here puts its recruited troops in the Conflict and also "
                        "deploys up to two from its garrison.",
                        RB19,
                    )
                )
        if r.control_bonus is not None:
            found.append(
                Ruling(
                    "Whoever sends an Agent here, a Rival included, the player holding its "
                    "control takes the control bonus; a solo Rival can hold control too.",
                    RB20,
                )
            )
        if r.maker:
            found.append(
                Ruling(
                    "Bonus spice keeps growing on a maker space left empty until the Makers "
                    "phase, even if an Agent was moved away from it.",
                    RB13,
                )
            )
        if r.requires_influence:
            found.append(
                Ruling(
                    "Rivals need the Influence too: a House Hagal card for this space is skipped "
                    "(or its other half used) when the Rival lacks it.",
                    IX8,
                )
            )
        if r.id == "mentat":
            found.append(
                Ruling(
                    "No House Hagal card sends a Rival here, but a solo Rival can win the "
                    "Mentat as a Conflict reward; it then plays it as an extra Agent.",
                    RB20,
                )
            )
        if r.id == "high_council":
            found.append(Ruling("A Rival never takes a seat on the High Council.", f"{H} §5"))
        if r.id == "foldspace":
            found.append(RULINGS["reserve:foldspace"][0])
        if r.id == "tech_negotiation":
            found.append(
                Ruling("You can't recruit a Negotiator back from Ix as a troop.", "FAQ, troops")
            )
        if r.removed_with:
            found.append(
                Ruling(
                    "With Rise of Ix the CHOAM board overlay covers the Landsraad and CHOAM "
                    "sections of the board, this space included.",
                    "Rise of Ix rulebook p.2, Setup",
                )
            )
    elif isinstance(r, HagalCardDef):
        if r.space or r.harvest:
            found.append(
                Ruling(
                    "Revealed on a Rival's Agent turn. If its space is taken, ignore it and "
                    "reveal the next card. The Rival pays no cost and ignores the space's own "
                    "effects.",
                    RB19,
                )
            )
        target = catalog.spaces.get(r.space or "")
        if r.troops and target is not None:
            where = "the Conflict" if target.combat else "the garrison"
            found.append(
                Ruling(
                    f"The recruited troops go to {where} ({target.name} is "
                    f"{'a' if target.combat else 'not a'} Combat space).",
                    RB19,
                )
            )
        if (target is not None and target.combat) or r.harvest:
            found.append(
                Ruling(
                    "On a Combat space the Rival also deploys up to two troops from its "
                    "garrison, even when the card recruits none.",
                    RB19,
                )
            )
        if r.influence or r.influence_if_guild_2:
            found.append(
                Ruling(
                    "A Rival gets no Influence-track bonuses, but takes an Alliance when it can. "
                    "In solo it scores the Victory Points for 2 Influence and for an Alliance, "
                    "never the 4-Influence bonus.",
                    "FAQ, Solo Play",
                )
            )
        if r.signet:
            found.append(
                Ruling(
                    "Solo only: the Rival uses its Leader's Signet ability if it has what it "
                    "costs; in two-player games the Signet does nothing.",
                    RB20,
                )
            )
        if r.space_if_guild_2:
            found.append(_DUAL)
        found.append(
            Ruling(
                "For the combat bonus, each Rival with a troop in the Conflict reveals one card "
                "and adds only its swords.",
                RB19,
            )
        )
        if r.players != "both":
            mode = "two-player games" if r.players == "1P" else "solo games"
            found.append(Ruling(f"Removed from the deck in {mode}.", RB19))
    elif isinstance(r, LeaderDef):
        if r.rival_allowed:
            found.append(
                Ruling(
                    "A Rival uses only the Signet (right-hand) ability, never the left one, and "
                    "only when it has what the Signet costs.",
                    RB20,
                )
            )
        elif r.set == "base":
            found.append(Ruling("Paul Atreides and Helena Richese can't be Rivals.", RB20))
        else:
            found.append(
                Ruling(
                    "Of the Rise of Ix Leaders, only Rhombur Vernius and Hundro Moritani can be "
                    "Rivals.",
                    IX8,
                )
            )
    elif isinstance(r, ConflictDef):
        found.append(
            Ruling(
                "Rewards work the same with one, two or three players; the third reward is "
                "only paid in four-player games.",
                "FAQ, Conflict",
            )
        )
        found.append(
            Ruling(
                "Solo Rivals take first and second rewards in full, control and the Mentat "
                "included. House Hagal (two players) takes nothing, but its win removes another "
                "player's Control marker from the space.",
                f"{RB19}; {RB20}",
            )
        )
        if r.first.intrigue or any(o.intrigue for o in r.first.options):
            found.append(
                Ruling(
                    "An Intrigue card won here that says 'when you win a Conflict' may be played "
                    "at once.",
                    "FAQ, When you win a Conflict",
                )
            )
    elif isinstance(r, IntrigueDef):
        found.append(
            Ruling(
                "To play it you must meet its conditions and pay its costs. Plot cards are "
                "played on an Agent or a Reveal turn.",
                "FAQ, Intrigue cards",
            )
        )
        if "win" in r.combat.lower():
            found.append(
                Ruling(
                    "A 'when you win a Conflict' card can't be played on a tie for first.",
                    "FAQ, When you win a Conflict",
                )
            )
    elif isinstance(r, TechDef):
        if "once_per_round" in r.timing:
            found.append(
                Ruling(
                    "A once-per-round ability (flip the tile) works on your Agent or your "
                    "Reveal turn; the first printing said Agent turn only.",
                    "FAQ, Errata (Rise of Ix p.4)",
                )
            )
        if r.hagal_ok:
            found.append(
                Ruling(
                    "A solo Rival may acquire it: it buys the most expensive marked tile it can "
                    "afford, ties to the topmost stack.",
                    IX9,
                )
            )
        else:
            found.append(
                Ruling("It lacks the House Hagal mark, so a Rival never acquires it.", IX9)
            )
        found.append(Ruling("House Hagal (two players) ignores Tech tiles.", IX8))
    elif isinstance(r, CardDef):
        if r.infiltration:
            found.append(
                Ruling(
                    "Infiltration: enemy Agents don't block this Agent on spaces with its icon. "
                    "It never gets you a second Agent on a space you hold, doesn't beat The "
                    "Voice, and icons added by Dispatch an Envoy don't infiltrate.",
                    "Rise of Ix rulebook p.7",
                )
            )
        if r.unload:
            found.append(
                Ruling(
                    "Unload: the Reveal box also triggers when the card is discarded or "
                    "trashed; the card gives no way to do either by itself.",
                    "Rise of Ix rulebook p.7",
                )
            )
    found.extend(RULINGS.get(item.entry.key, ()))
    return found


# --- what the pages show ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Detail:
    """Everything a detail page (or rules panel) shows for one item."""

    item: Item
    kind_name: str
    facts: tuple[tuple[str, str], ...]
    related: tuple[Related, ...]
    rulings: tuple[Ruling, ...]
    copy: int | None = None


def _facts(catalog: Catalog, item: Item) -> list[tuple[str, str]]:
    """Short labelled facts shown under the title (texts get their own boxes)."""
    r = item.entry.record
    names = {s.id: s.name for s in catalog.spaces.values()}
    facts: list[tuple[str, str]] = [("Set", SET_NAMES[item.entry.set])]
    if isinstance(r, CardDef):
        copies = plural(r.copies, "copy", "copies")
        facts.append(("Copies", copies + (" per player" if r.per_player else "")))
    elif isinstance(r, HagalCardDef | IntrigueDef):
        facts.append(("Copies", plural(r.copies, "copy", "copies")))
    if isinstance(r, HagalCardDef):
        facts.append(("Games", PLAYERS_NAMES[r.players]))
    if isinstance(r, SpaceDef):
        facts += [("", f) for f in space_facts(r)]
    if isinstance(r, ConflictDef):
        facts.append(("Level", f"Conflict {ROMAN[r.level]}"))
        if r.controlled_space:
            facts.append(("Control of", names.get(r.controlled_space, r.controlled_space)))
    if isinstance(r, TechDef):
        facts.append(("When", "; ".join(TIMINGS[t] for t in r.timing)))
    return facts


def detail(item: Item, copy: int | None = None) -> Detail:
    """The page for one item."""
    found = lookup()
    return Detail(
        item=item,
        kind_name=KIND_NAMES[item.kind],
        facts=tuple(_facts(found.catalog, item)),
        related=tuple(_related(found, item)),
        rulings=tuple(_rulings(found.catalog, item)),
        copy=copy,
    )


def _labels() -> dict[str, object]:
    """Names for the filter menus and badges."""
    return {
        "kinds": KIND_NAMES,
        "sets": SET_NAMES,
        "factions": FACTION_NAMES,
        "icons": ICON_NAMES,
        "intrigue_types": INTRIGUE_TYPE_NAMES,
        "levels": [(n, f"Conflict {ROMAN[n]}") for n in LEVELS],
        "roman": ROMAN,
    }


def _helpers(found: Lookup) -> dict[str, object]:
    """What the templates call: texts written out from typed fields, names, labels."""
    names = found.space_names
    return {
        "reward_text": lambda w: reward_text(w, names),
        "hagal_facts": lambda h: hagal_facts(h, names),
        "names": names,
        "L": _labels(),
    }


def _not_found(message: str) -> ResponseReturnValue:
    if is_htmx():
        return f'<p class="error" role="alert">{escape(message)}</p>', 404
    return render_template("cards/missing.html", message=message), 404


# --- routes -------------------------------------------------------------------------


_ROW: Final[str] = '{% from "cards/_macros.html" import row with context %}{{ row(hit) }}'


def _row_html(hit: Hit, helpers: Mapping[str, object]) -> Markup:
    """A result row. Rows differ only by item and the text shown, so each is rendered once
    per app and locale: the empty search and "Show all" stay fast."""
    cache: dict[tuple[str, ...], Markup] = current_app.extensions.setdefault("card_rows", {})
    label = hit.text.label if hit.text is not None else ""
    key = (str(get_locale()), hit.item.kind, hit.item.id, label)
    html = cache.get(key)
    if html is None:
        html = cache[key] = Markup(render_template_string(_ROW, hit=hit, **helpers))
    return html


@bp.get("/cards")
def index() -> ResponseReturnValue:
    query = parse_query(request.args)
    hits = lookup().index.search(query)
    show_all = request.args.get("all") == "1"
    shown: list[Hit] = hits if show_all else hits[:LIMIT]
    args = query_args(query)
    helpers = _helpers(lookup())
    helpers["row_html"] = lambda hit: _row_html(hit, helpers)
    context = {
        "query": query,
        "args": args,
        "hits": shown,
        "total": len(hits),
        "more_args": {**args, "all": "1"} if len(shown) < len(hits) else None,
        "first_loose": next((n for n, h in enumerate(shown) if h.loose), None),
        **helpers,
    }
    if is_htmx():
        response = make_response(render_block(INDEX, "results", **context))
        # The address bar shows the search without the form's empty fields.
        canonical = {**args, "all": "1"} if show_all else args
        search = "?" + urlencode(canonical) if canonical else ""
        response.headers["HX-Replace-Url"] = url_for("cards.index") + search
        return response
    return render_template(INDEX, **context)


def _show(kind: str, item_id: str, panel: bool) -> ResponseReturnValue:
    if kind not in KIND_NAMES:
        return _not_found(f"There is no kind of item called '{kind}' in the rules lookup.")
    item = lookup().index.get(kind, item_id)
    if item is None:
        return _not_found(
            f"Nothing in the rules lookup has the id '{item_id}' ({KIND_NAMES[kind]})."
        )
    copy = request.args.get("copy", type=int)
    if copy is not None and not 1 <= copy <= item.copies:
        copy = None
    context = {"d": detail(item, copy), "panel": panel, **_helpers(lookup())}
    if panel or is_htmx():
        return render_block(SHOW, "rules_panel", **context)
    return render_template(SHOW, **context)


@bp.get("/cards/<kind>/<item_id>")
def show(kind: str, item_id: str) -> ResponseReturnValue:
    return _show(kind, item_id, panel=False)


@bp.get("/cards/<kind>/<item_id>/panel")
def panel(kind: str, item_id: str) -> ResponseReturnValue:
    return _show(kind, item_id, panel=True)


@bp.get("/c/<card_id>")
@bp.get("/c/<card_id>/<int(signed=True):copy>")
def sticker(card_id: str, copy: int | None = None) -> ResponseReturnValue:
    item = lookup().index.by_card_id.get(card_id)
    if item is None:
        return _not_found(f"No card has the id '{card_id}'. Check the sticker's code.")
    if copy is None:
        return redirect(url_for("cards.show", kind=item.kind, item_id=item.id), 302)
    if not 1 <= copy <= item.copies:
        many = plural(item.copies, "copy", "copies")
        return _not_found(
            f"{item.entry.name} has {many}, so there is no copy {copy}. Check the sticker's number."
        )
    return redirect(url_for("cards.show", kind=item.kind, item_id=item.id, copy=copy), 302)
