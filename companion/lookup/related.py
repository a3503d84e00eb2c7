"""What an item's page links to: one function per kind of item, then the items of the same
name and those its texts name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Final

from companion.cards.index import KIND_NAMES
from companion.cards.search import ICON_NAMES, ROMAN, Item, SearchIndex, normalize
from companion.lookup.links import Link, Mentions, Related
from companion.rules.catalog import (
    FACTION_NAMES,
    CardDef,
    Catalog,
    ConflictDef,
    HagalCardDef,
    LeaderDef,
    SpaceDef,
    TechDef,
    TrackDef,
)
from companion.rules.i18n import N_, Message, Nn_, counted, joined

# The page's words are Messages (marked with N_), which the web layer shows in the reader's
# language; the names of card_db are translated there too.
SIGNET_NAMES: Final[Mapping[str, str]] = {
    "none": N_("No Rival Signet"),
    "leto_diplomacy": N_("Pay 1 spice for 1 Influence where an opponent is ahead"),
    "baron_scheme": N_("Pay 1 Solari for 1 Intrigue card"),
    "rabban_brutality": N_("Recruit 1 troop (2 with an Alliance)"),
    "gain_solari": N_("Gain 1 Solari"),
    "gain_spice": N_("Gain 1 spice"),
    "gain_water": N_("Gain 1 water"),
    "rhombur_tech": N_("Acquire Tech, else a Negotiator"),
    "hundro_freighter": N_("Pay 1 spice for a Freighter move"),
}
_RIVAL_TECH: Final = Related(
    Message(N_("Tech tiles a Rival may acquire")),
    search={"kind": "tech", "rival": "1"},
    search_label=Message(N_("The tiles with the House Hagal mark")),
)
_SENT_HERE: Final = Message(N_("House Hagal cards that send a Rival here"))

Groups = list[Related | None]


def _link(item: Item, note: str = "") -> Link:
    return Link(item.kind, item.id, item.entry.name, note)


def _space_link(catalog: Catalog, space_id: str | None, note: str = "") -> Link | None:
    if space_id is None or space_id not in catalog.spaces:
        return None
    return Link("space", space_id, catalog.spaces[space_id].name, note)


def _group(title: str, links: Iterable[Link | None], note: str = "") -> Related | None:
    found = tuple(link for link in links if link is not None)
    if not found:
        return None
    return Related(_message(title), found, _message(note) if note else "")


def _message(text: str) -> str:
    """`text` as a Message (marked with N_ where it is written), unless it is one already."""
    return text if isinstance(text, Message) else Message(text)


def _players_note(card: HagalCardDef) -> str:
    note = {"1P": N_("solo only"), "2P": N_("two-player only")}.get(card.players)
    return Message(note) if note else ""


def _notes(notes: list[str]) -> str:
    """Notes on one link, "a; b" (a Message)."""
    found = [n for n in notes if n]
    return joined(found, N_("%(first)s; %(second)s")) if found else ""


def _signet(signet: str) -> str:
    """What a Rival's Signet does (its note beside the leader)."""
    found = SIGNET_NAMES.get(signet)
    return Message(found) if found else ""


def _hagal_links(catalog: Catalog, chosen: Callable[[HagalCardDef], object]) -> list[Link]:
    """The House Hagal cards chosen, each with the games it is played in."""
    return [
        Link("hagal", h.id, h.name, _players_note(h)) for h in catalog.hagal.values() if chosen(h)
    ]


def _conflict_links(catalog: Catalog, chosen: Callable[[ConflictDef], bool]) -> list[Link]:
    """The Conflict cards chosen, each with its level."""
    return [
        Link("conflict", k.id, k.name, Message(N_("Conflict %(level)s"), level=ROMAN[k.level]))
        for k in catalog.conflicts.values()
        if chosen(k)
    ]


def _track_group(index: SearchIndex) -> Related | None:
    return _group(N_("Track"), (_link(i) for i in index.items if i.kind == "track"))


def _hagal_for_space(catalog: Catalog, space: SpaceDef) -> list[Link]:
    links: list[Link] = []
    for card in catalog.hagal.values():
        notes = [_players_note(card)] if card.players != "both" else []
        if card.space_if_guild_2 == space.id:
            notes.append(Message(N_("with 2+ Spacing Guild Influence")))
        elif card.space == space.id and card.space_if_guild_2:
            notes.append(Message(N_("with 0-1 Spacing Guild Influence")))
        elif card.space != space.id and not (card.harvest and space.maker):
            continue
        if card.harvest:
            notes.append(Message(N_("when this space has the most bonus spice")))
        if card.removed_with:
            notes.append(Message(N_("removed with Rise of Ix")))
        links.append(Link("hagal", card.id, card.name, _notes(notes)))
    return links


def _icon_search(index: SearchIndex, icon: str) -> Related:
    count = sum(1 for i in index.items if icon in i.icons and i.kind != "space")
    name = Message(ICON_NAMES[icon])
    return Related(
        Message(N_("Cards with the %(icon)s Agent icon"), icon=name),
        search={"icon": icon},
        search_label=counted(
            Nn_(
                "%(n)s card can send an Agent to %(icon)s spaces",
                "%(n)s cards can send an Agent to %(icon)s spaces",
            ),
            count,
            icon=name,
        ),
    )


def _space(index: SearchIndex, space: SpaceDef) -> Groups:
    catalog = index.catalog
    hagal = _hagal_for_space(catalog, space)
    never = Message(N_("None: a Rival never sends an Agent here, so it never blocks it."))
    groups: Groups = [_group(_SENT_HERE, hagal) if hagal else Related(_SENT_HERE, note=never)]
    controls = _conflict_links(catalog, lambda k: k.controlled_space == space.id)
    groups.append(_group(N_("Conflicts that give control of it"), controls))
    if space.removed_with:
        covers = [
            Link("space", s.id, s.name)
            for s in catalog.spaces.values()
            if s.set == "ix" and s.icon == space.icon
        ]
        overlay = N_("The CHOAM board overlay covers this space when you play with Rise of Ix.")
        groups.append(_group(N_("Rise of Ix covers it with"), covers, overlay))
    if space.set == "ix":
        covered = [
            Link("space", s.id, s.name)
            for s in catalog.spaces.values()
            if "ix" in s.removed_with and s.icon == space.icon
        ]
        groups.append(_group(N_("Base spaces it covers"), covered))
    if space.freighter:
        groups.append(_track_group(index))
    if space.acquire_tech:
        groups.append(
            Related(
                Message(N_("Tech tiles")),
                search={"kind": "tech"},
                search_label=Message(N_("All 18 Tech tiles")),
            )
        )
    groups.append(_icon_search(index, space.icon))
    return groups


def _hagal(index: SearchIndex, card: HagalCardDef) -> Groups:
    catalog = index.catalog
    dual = card.space_if_guild_2 is not None
    where = [
        _space_link(
            catalog, card.space, Message(N_("0-1 Spacing Guild Influence")) if dual else ""
        ),
        _space_link(catalog, card.space_if_guild_2, Message(N_("2+ Spacing Guild Influence"))),
        *(
            Link(
                "space",
                s.id,
                s.name,
                counted(Nn_("%(n)s base spice", "%(n)s base spice"), s.base_spice),
            )
            for s in catalog.spaces.values()
            if card.harvest and s.maker
        ),
    ]
    targets = {card.space, card.space_if_guild_2} - {None}
    groups: Groups = [
        _group(N_("Where it sends the Rival"), where),
        _group(
            N_("Other House Hagal cards for the same space"),
            _hagal_links(
                catalog,
                lambda h: h.id != card.id and targets & ({h.space, h.space_if_guild_2} - {None}),
            ),
        ),
    ]
    if card.signet:
        leaders = (
            Link("leader", x.id, x.name, _signet(x.rival_signet))
            for x in catalog.leaders.values()
            if x.rival_allowed
        )
        groups.append(_group(N_("Leaders a Rival can play, and their Signets"), leaders))
    if card.acquire_tech:
        groups.append(_RIVAL_TECH)
    if card.freighter or card.freighter_if_guild_2:
        groups.append(_track_group(index))
    return groups


def _conflict(index: SearchIndex, conflict: ConflictDef) -> Groups:
    catalog = index.catalog
    rewards = (conflict.first, conflict.second, conflict.third)
    controls = [conflict.controlled_space, *(w.control for w in rewards)]
    groups: Groups = [
        _group(
            N_("The space it is fought over"),
            (_space_link(catalog, c) for c in dict.fromkeys(controls) if c),
        )
    ]
    if conflict.controlled_space:
        same = _conflict_links(
            catalog,
            lambda k: k.id != conflict.id and k.controlled_space == conflict.controlled_space,
        )
        groups.append(_group(N_("Other Conflicts for the same space"), same))
    level = ROMAN[conflict.level]
    groups.append(
        Related(
            Message(N_("Conflict %(level)s cards"), level=level),
            search={"kind": "conflict", "level": str(conflict.level)},
            search_label=Message(N_("Every Conflict %(level)s card"), level=level),
        )
    )
    return groups


def _leader(index: SearchIndex, leader: LeaderDef) -> Groups:
    groups: Groups = []
    if leader.rival_allowed:
        signet = _hagal_links(index.catalog, lambda h: h.signet)
        groups.append(_group(N_("House Hagal cards that use its Signet"), signet))
    if leader.rival_signet == "rhombur_tech":
        groups.append(_RIVAL_TECH)
    if leader.rival_signet == "hundro_freighter":
        groups.append(_track_group(index))
    return groups


def _tech(index: SearchIndex, tile: TechDef) -> Groups:
    catalog = index.catalog
    where = [
        *(
            Link(
                "space",
                s.id,
                s.name,
                counted(Nn_("%(n)s spice off", "%(n)s spice off"), s.tech_discount),
            )
            if s.tech_discount
            else Link("space", s.id, s.name)
            for s in catalog.spaces.values()
            if s.acquire_tech
        ),
        *(_link(i, Message(N_("top step"))) for i in index.items if i.kind == "track"),
    ]
    groups: Groups = [_group(N_("Where you can acquire it"), where)]
    if tile.hagal_ok:
        buyers = _hagal_links(catalog, lambda h: h.acquire_tech)
        groups.append(_group(N_("House Hagal cards that buy Tech for a Rival"), buyers))
    groups.append(_RIVAL_TECH)
    return groups


def _track(index: SearchIndex) -> Groups:
    spaces = (
        Link("space", s.id, s.name, counted(Nn_("%(n)s move", "%(n)s moves"), s.freighter))
        for s in index.catalog.spaces.values()
        if s.freighter
    )
    hagal = _hagal_links(index.catalog, lambda h: h.freighter or h.freighter_if_guild_2)
    return [
        _group(N_("Spaces with Freighter moves"), spaces),
        _group(N_("House Hagal cards with Freighter moves"), hagal),
        Related(
            Message(N_("Freighter moves")),
            search={"q": "freighter"},
            search_label=Message(N_("Find Freighter")),
        ),
    ]


def _space_note(space: SpaceDef) -> str:
    if space.removed_with:
        return Message(N_("covered with Rise of Ix"))
    return Message(N_("Rise of Ix")) if space.set == "ix" else ""


def _replaces(item: Item) -> str | None:
    record = item.entry.record
    return record.replaces if isinstance(record, CardDef) else None


def _card(index: SearchIndex, card: CardDef) -> Groups:
    groups: Groups = []
    for icon in card.icons:
        spaces = [
            Link("space", s.id, s.name, _space_note(s))
            for s in index.catalog.spaces.values()
            if s.icon == icon
        ]
        title = Message(
            N_("%(icon)s spaces it can send an Agent to"), icon=Message(ICON_NAMES[icon])
        )
        groups.append(_group(title, spaces))
    if card.replaces:
        replaced = index.get("starter", card.replaces)
        if replaced is not None:
            per_player = Message(N_("one copy per player"))
            groups.append(_group(N_("Replaces"), [_link(replaced, per_player)]))
    epic = (_link(i) for i in index.items if _replaces(i) == card.id)
    groups.append(_group(N_("Replaced in Epic mode by"), epic))
    for faction in card.factions:
        name = Message(FACTION_NAMES[faction])
        groups.append(
            Related(
                Message(N_("%(faction)s cards"), faction=name),
                search={"faction": faction, "kind": "imperium"},
                search_label=Message(N_("Every %(faction)s Imperium card"), faction=name),
            )
        )
    return groups


def _by_kind(index: SearchIndex, item: Item) -> Groups:
    record = item.entry.record
    if isinstance(record, SpaceDef):
        return _space(index, record)
    if isinstance(record, HagalCardDef):
        return _hagal(index, record)
    if isinstance(record, ConflictDef):
        return _conflict(index, record)
    if isinstance(record, LeaderDef):
        return _leader(index, record)
    if isinstance(record, TechDef):
        return _tech(index, record)
    if isinstance(record, TrackDef):
        return _track(index)
    if isinstance(record, CardDef):
        return _card(index, record)
    return []  # an Intrigue card: only names link it


def _names(index: SearchIndex, mentions: Mentions, item: Item, groups: Groups) -> Groups:
    """Everything with the same name (Foldspace, Skirmish) and every name the texts use,
    unless a group above links it already."""
    own = normalize(item.entry.name)
    same = [
        _link(i, Message(KIND_NAMES[i.kind]))
        for i in index.items
        if i is not item and normalize(i.entry.name) == own and i.kind != "conflict"
    ]
    listed = {(link.kind, link.id) for g in groups if g is not None for link in g.links}
    found = [_group(N_("Same name"), (s for s in same if (s.kind, s.id) not in listed))]
    listed |= {(s.kind, s.id) for s in same}
    named = (m for m in mentions[(item.kind, item.id)] if (m.kind, m.id) not in listed)
    found.append(_group(N_("Named in its text"), named))
    return found


def related(index: SearchIndex, mentions: Mentions, item: Item) -> list[Related]:
    """The groups of related items an item's page shows, in order."""
    groups = _by_kind(index, item)
    groups += _names(index, mentions, item, groups)
    return [g for g in groups if g is not None]
