"""Everything a page shows, computed from a GameView so that templates stay dumb.

The board spaces and the side panels each get a frozen view of exactly what they show,
so that a page can reuse a part's HTML while its view is equal to the one it was last
rendered from (companion/web/cache.py, `Fragments`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from companion.cards.search import resources_text
from companion.cards.search import reward_text as cards_reward_text
from companion.rules.catalog import FACTION_NAMES, FACTIONS, Catalog, ConflictDef, Reward, SpaceDef
from companion.rules.engine import mentat_cost, space_problems, strengths, swordmaster_round
from companion.rules.ix import NONE, SKIP
from companion.rules.scoring import Standing, final_ranking
from companion.rules.state import TRACK_TOP, UNKNOWN_TILE, Entry, GameState, House
from companion.rules.text import describe
from companion.services import GameView
from companion.web.i18n import gettext as _
from companion.web.i18n import translations

AREAS = (
    ("emperor", "Emperor"),
    ("spacing_guild", "Spacing Guild"),
    ("bene_gesserit", "Bene Gesserit"),
    ("fremen", "Fremen"),
    ("landsraad", "Landsraad"),
    ("choam", "CHOAM"),
    ("city", "Cities"),
    ("desert", "Desert"),
)
# The board's three columns, as on the printed board: the Factions, the Landsraad and
# CHOAM, then Arrakis.
BOARD_COLUMNS = (
    ("emperor", "spacing_guild", "bene_gesserit", "fremen"),
    ("landsraad", "choam"),
    ("city", "desert"),
)
T = TypeVar("T")
LOG_LINES = 60  # the table shows the newest lines; the whole log stays in the state
PLACES = {"first": "1st", "second": "2nd", "third": "3rd"}
VP_SOURCES = {
    "conflict": "Conflict",
    "influence": "2 Influence",
    "alliance": "Alliance",
    "exchange": "Exchange",
    "card": "Card",
    "endgame": "Endgame",
    "manual": "Correction",
    "tech": "Tech",
}
# Log lines that belong to the rival turn they follow.
RIVAL_TURN_KINDS = frozenset(
    {
        "influence",
        "influence_choice",
        "recruit",
        "deploy",
        "expert_hold",
        "signet",
        "rival_harvest",
        "control_bonus",
        "exchange",
        "alliance",
        # Rise of Ix
        "agent_infiltrate",
        "deploy_units",
        "freighter",
        "freighter_recall",
        "dividends",
        "transports",
        "tech",
        "tech_paid",
        "tech_none",
        "tech_up",
        "tech_trash_unmarked",
        "negotiator",
        "tech_flip",
        "tech_income",
        "commission",
    }
)
HOUSE_FIELDS = (
    ("solari", "Solari"),
    ("spice", "Spice"),
    ("water", "Water"),
    ("intrigue", "Intrigue"),
    ("garrison", "Garrison"),
    ("troops", "In Conflict"),
    ("swords", "Swords"),
)
# The Rise of Ix numbers a correction can change (House Hagal has no Negotiators).
IX_HOUSE_FIELDS = (
    ("freighter", "Freighter step"),
    ("negotiators", "Negotiators on Ix"),
    ("dn_garrison", "Dreadnoughts in the garrison"),
    ("dn_conflict", "Dreadnoughts in the Conflict"),
)


def sentence(entry: Entry, state: GameState) -> str:
    """A log entry in the reader's language (the template is the message id)."""
    template, values = describe(entry, state)
    translated: str = translations().gettext(template)
    try:
        return translated % values
    except (KeyError, TypeError, ValueError):
        return translated


class _Sentences:
    """Log lines already put in words, so that the table screen, which shows the same 60
    lines after every tap, words only the new ones.

    A line depends on its entry, the entry after it (`describe` reads it for some kinds),
    the game's setup (the names) and the language. Entries are immutable and shared by
    the states that follow, so a line is reused only for the very same objects: they are
    kept by reference, so their ids are never reused while a line is kept.
    """

    SIZE = 20_000

    def __init__(self) -> None:
        # id(entry) -> (entry, the entry after it, setup, language, sentence)
        self.lines: dict[int, tuple[Entry, Entry | None, object, object, str]] = {}
        self.lock = threading.Lock()

    def newest(self, state: GameState, n: int) -> list[tuple[int, str]]:
        """The newest `n` lines of the log, newest first, as (round, sentence)."""
        language = translations()
        setup = state.setup
        log = state.log
        lines = self.lines
        out: list[tuple[int, str]] = []
        after: Entry | None = None
        for i in range(len(log) - 1, max(0, len(log) - n) - 1, -1):
            entry = log[i]
            known = lines.get(id(entry))
            if (
                known is not None
                and known[0] is entry
                and known[1] is after
                and known[2] is setup
                and known[3] is language
            ):
                text = known[4]
            else:
                text = sentence(entry, state)
                with self.lock:
                    if len(lines) >= self.SIZE:
                        lines.clear()
                    lines[id(entry)] = (entry, after, setup, language, text)
            out.append((entry.round, text))
            after = entry
        return out


_sentences = _Sentences()


def area_of(space: SpaceDef) -> str:
    if space.icon == "spice_trade":
        return "desert" if space.maker else "choam"
    return space.faction or space.icon


def reward_text(r: Reward, state: GameState) -> str:
    """A reward in words, as the rules lookup words it."""
    names = _kept(
        state.catalog, "space names", lambda: {s: sp.name for s, sp in state.catalog.spaces.items()}
    )
    return cards_reward_text(r, names)


# What the pages work out from the card data alone, kept per catalog (the app has one)
# and key; the catalog is kept too, so that its id stays its own.
_per_catalog: dict[tuple[int, Hashable], tuple[Catalog, Any]] = {}


def _kept(catalog: Catalog, key: Hashable, make: Callable[[], T]) -> T:
    found = _per_catalog.get((id(catalog), key))
    if found is None or found[0] is not catalog:
        found = _per_catalog[(id(catalog), key)] = (catalog, make())
    return found[1]


def cost_text(space: SpaceDef, state: GameState) -> str:
    if space.id == "mentat":
        return f"{mentat_cost(state.setup)} Solari"
    if space.cost_note:
        return space.cost_note
    return resources_text(space.cost, "")


class Chip(NamedTuple):
    """A house as its colored name tag shows it."""

    color: str
    name: str


def chip(house: House) -> Chip:
    return Chip(house.color, house.name)


class SpaceView(NamedTuple):
    """A board space as the board map shows it (a tuple: made and compared on every
    tap, for each of the 22 spaces)."""

    id: str
    name: str
    area: str
    cost: str
    requirement: str
    occupant: Chip | None
    bonus_spice: int | None
    controller: Chip | None
    control_bonus: str
    combat: bool
    voice: Chip | None
    problem: str | None
    tappable: bool
    # Rise of Ix: the dreadnought on the Control flag, Agents that infiltrated the space,
    # and whether the acting player may infiltrate it now.
    dreadnought: Chip | None = None
    covered: Chip | None = None  # the Control marker under the dreadnought
    infiltrators: tuple[Chip, ...] = ()
    infiltrate: bool = False


class _Fixed(NamedTuple):
    """What a board space shows that never changes during a game."""

    id: str
    name: str
    area: str
    cost: str
    requirement: str
    control_bonus: str
    combat: bool
    maker: bool


def _board(state: GameState) -> tuple[_Fixed, ...]:
    """The board's spaces with their fixed words: they depend on the sets in play and,
    for the Mentat, the difficulty (worked out once for each)."""
    setup = state.setup
    return _kept(
        state.catalog,
        ("board", setup.sets, mentat_cost(setup)),
        lambda: tuple(_fixed(s, state) for s in state.catalog.board(setup.sets).values()),
    )


def _fixed(space: SpaceDef, state: GameState) -> _Fixed:
    bonus = space.control_bonus
    return _Fixed(
        id=space.id,
        name=space.name,
        area=area_of(space),
        cost=cost_text(space, state),
        requirement=", ".join(
            f"{n} {FACTION_NAMES.get(f, f)} Influence" for f, n in space.requires_influence.items()
        ),
        control_bonus=(
            f"{bonus.solari} Solari"
            if bonus and bonus.solari
            else f"{bonus.spice} spice"
            if bonus
            else ""
        ),
        combat=space.combat,
        maker=space.maker,
    )


@dataclass(frozen=True)
class ConflictView:
    card_id: str
    name: str
    level: str
    rewards: tuple[tuple[str, str], ...]
    remaining: int
    # Per house: chip, troops, swords, strength (blank where the table keeps the count),
    # dreadnoughts in the Conflict (Rise of Ix).
    rows: tuple[tuple[Chip, str, str, str, str], ...]
    swords: tuple[tuple[Chip, str, int], ...]  # this round's revealed sword cards
    ix: bool = False


@dataclass(frozen=True)
class IxHouseView:
    """A house's Rise of Ix pieces: Freighter, dreadnoughts, Negotiators, Tech tiles."""

    id: str
    chip: Chip
    is_human: bool
    freighter: int
    dn_garrison: int
    dn_conflict: int
    dn_posted: int
    dn_supply: int
    negotiators: int
    # Per tile owned: id, name, flipped face down this round.
    tech: tuple[tuple[str, str, bool], ...]


@dataclass(frozen=True)
class StackView:
    """One Tech stack: its face-up tile (id "" when empty, UNKNOWN_TILE before the table
    turned it up) and how many tiles are left in it."""

    number: int
    tile: str
    name: str
    cost: int
    hagal_mark: bool
    left: int
    unknown: bool  # face down: the table turns it up when the app asks


@dataclass(frozen=True)
class TechView:
    stacks: tuple[StackView, ...]
    trashed: int
    solo: bool  # show the House Hagal mark: solo Rivals buy only marked tiles
    # Who may buy a face-up tile now (chips and ids), and the players' Ix pieces.
    buyers: tuple[tuple[str, Chip], ...]
    players: tuple[IxHouseView, ...]
    can_trash: bool


@dataclass(frozen=True)
class IxTurnView:
    """The acting player's Rise of Ix buttons: what their cards' icons may do now."""

    freighter: int
    advance: bool
    recall: bool
    commission: bool
    deploy: bool


@dataclass(frozen=True)
class RivalView:
    chip: Chip
    leader: str
    leader_name: str
    agents: str
    garrison: int
    troops: int
    rival: bool  # a solo Rival (House Hagal in a two-player game has no resources)
    solari: int
    spice: int
    water: int
    intrigue: int
    vp: int
    swordmaster: str  # "yes", the round it comes, or ""
    mentat: bool
    ix: IxHouseView | None = None


@dataclass(frozen=True)
class ScoreView:
    # Per house but House Hagal: id, chip, VP and its ledger (round, source, note, delta).
    vp: tuple[tuple[str, Chip, int, tuple[tuple[int, str, str, str], ...]], ...]
    houses: tuple[Chip, ...]
    # Per Faction: id, name, each house's Influence, the Alliance's holder.
    influence: tuple[tuple[str, str, tuple[int, ...], Chip | None], ...]


@dataclass
class PromptView:
    kind: str
    question: str
    decider: str
    number: bool
    minimum: int
    maximum: int
    default: int
    options: list[tuple[str, str]] = field(default_factory=list)
    info: list[str] = field(default_factory=list)


@dataclass
class RivalTurn:
    house: House
    card_id: str
    card: str
    swords: int
    space: str
    lines: list[str] = field(default_factory=list)


@dataclass
class Page:
    """The table screen's content."""

    view: GameView
    state: GameState
    banner: str
    banner_detail: str
    acting: House | None
    prompt: PromptView | None
    spaces: dict[str, list[SpaceView]]
    voice_spaces: tuple[tuple[str, str], ...]  # where The Voice can go: id, name
    rival_turns: list[RivalTurn]
    just_now: list[str]
    log: tuple[tuple[int, str], ...]
    conflict: ConflictView | None
    standings: list[Standing]  # once the game is over
    score: ScoreView
    rivals: tuple[RivalView, ...]
    purchases: tuple[tuple[Chip, tuple[tuple[str, int, str, int], ...]], ...]
    tech: TechView | None = None  # Rise of Ix games only
    ix_turn: IxTurnView | None = None
    fields: tuple[tuple[str, str], ...] = HOUSE_FIELDS
    ix_fields: tuple[tuple[str, str], ...] = IX_HOUSE_FIELDS
    factions: tuple[tuple[str, str], ...] = tuple((f, FACTION_NAMES[f]) for f in FACTIONS)


def _prompt(state: GameState) -> PromptView | None:
    p = state.prompt
    if p is None:
        return None
    who = state.house(p.house)
    cat = state.catalog
    labels: list[tuple[str, str]] = []
    if p.kind in ("influence", "rival_influence"):
        labels = [(o, FACTION_NAMES.get(o, o)) for o in p.options]
        amount = p.task.n
        if p.kind == "influence":
            question = _(
                "%(house)s: choose the Faction for +%(n)s Influence.", house=who.name, n=amount
            )
        else:
            question = _(
                "%(house)s ties for its lowest Influence: choose the Faction for +%(n)s "
                "Influence (rulebook p.20: you decide).",
                house=who.name,
                n=amount,
            )
    elif p.kind == "rival_reward":
        reward = getattr(cat.conflicts[state.conflict or ""], p.task.ref)
        labels = [(o, reward_text(reward.options[int(o)], state)) for o in p.options]
        question = _("Choose %(house)s's reward (rulebook p.20: you decide).", house=who.name)
    elif p.kind == "alliance":
        labels = [(o, state.house(o).name) for o in p.options]
        question = _(
            "Several houses could take the Alliance %(house)s lost: choose who takes it "
            "(FAQ: Alliance).",
            house=who.name,
        )
    elif p.kind == "hagal_card":
        labels = [(o, cat.hagal[o].name) for o in p.options]
        question = _(
            "Reveal the top House Hagal card for %(house)s. Which card is it?", house=who.name
        )
    elif p.kind == "conflict_card":
        labels = [
            (o, f"{cat.conflicts[o].name} ({reward_text(cat.conflicts[o].first, state)})")
            for o in p.options
        ]
        question = _("Reveal the top Conflict card. Which one is it?")
    elif p.kind == "strength":
        question = _(
            "Combat: enter %(house)s's strength on the Combat track (0 without troops "
            "in the Conflict).",
            house=who.name,
        )
    elif p.kind == "expert_strength":
        question = _(
            "Expert deployment: a Rival leads by 4 or more. What is %(house)s's strength "
            "on the Combat track right now?",
            house=who.name,
        )
    elif p.kind.startswith(IX_PROMPT_PREFIXES):
        question, labels = _ix_prompt(state, who, p.kind, p.task.ref, p.task.n, p.options)
    else:
        labels = [(o, o) for o in p.options]
        question = p.kind
    return PromptView(
        p.kind,
        question,
        state.house(p.decider).name,
        p.number,
        p.minimum,
        p.maximum,
        p.default,
        labels,
    )


IX_PROMPT_PREFIXES = (
    "tech",
    "negotiators_back",
    "freighter",
    "shipping_first",
    "commission",
    "post",
    "offer",
)


def _ix_prompt(
    state: GameState, who: House, kind: str, ref: str, n: int, options: tuple[str, ...]
) -> tuple[str, list[tuple[str, str]]]:
    """The question and the answers' labels of a Rise of Ix prompt [IX pp.4-6, 9]."""
    cat = state.catalog

    def tile(o: str) -> str:
        if o == NONE:
            return str(_("None"))
        t = cat.tech[o]
        return str(_("%(tile)s (%(cost)s spice)", tile=t.name, cost=t.cost))

    if kind == "tech_tile":
        return (
            _(
                "Turn up the next Tech tile of stack %(n)s. Which tile is it?",
                n=int(ref) + 1,
            ),
            [(o, cat.tech[o].name) for o in options],
        )
    if kind == "tech":
        off = _(" (%(n)s spice off)", n=n) if n else ""
        return (
            _(
                "%(house)s acquires a Tech tile%(off)s: which face-up tile did you buy?",
                house=who.name,
                off=off,
            ),
            [(o, tile(o)) for o in options],
        )
    if kind == "negotiators_back":
        return (
            _(
                "%(house)s: how many Negotiators do you return from Ix to supply? Each one "
                "takes 1 spice off the price.",
                house=who.name,
            ),
            [],
        )
    if kind == "tech_negotiation":
        return (
            _(
                "%(house)s on Tech Negotiation: acquire Tech (1 spice off) or send a Negotiator?",
                house=who.name,
            ),
            [
                (
                    o,
                    {
                        "tech": _("Acquire Tech"),
                        "negotiator": _("Negotiator to Ix"),
                        SKIP: _("Neither"),
                    }[o],
                )
                for o in options
            ],
        )
    if kind == "freighter":
        names = {
            "advance": _("Advance to step %(n)s", n=who.freighter + 1),
            "recall": _("Recall from step %(n)s", n=who.freighter),
            SKIP: _("Neither"),
        }
        return (
            _(
                "%(house)s: a Freighter icon. Advance the Freighter or recall it "
                "(step %(n)s of %(top)s)?",
                house=who.name,
                n=who.freighter,
                top=TRACK_TOP,
            ),
            [(o, names[o]) for o in options],
        )
    if kind == "shipping_first":
        return (
            _("%(house)s: Freighter recalled. First step: Dividends or 2 spice?", house=who.name),
            [
                (
                    o,
                    {
                        "dividends": _("Dividends: 5 Solari, 1 to each opponent"),
                        "spice": _("2 spice"),
                    }[o],
                )
                for o in options
            ],
        )
    if kind == "commission":
        return (
            _("%(house)s: commission a dreadnought from supply to your garrison?", house=who.name),
            [(o, {"yes": _("Yes"), "no": _("No")}[o]) for o in options],
        )
    if kind == "post":
        return (
            _(
                "%(house)s won with a dreadnought: which space does it take control of, "
                "until the end of the next Combat?",
                house=who.name,
            ),
            [
                (
                    o,
                    _("Detonation Devices: supply, +1 VP")
                    if o == "detonate"
                    else cat.spaces[o].name,
                )
                for o in options
            ],
        )
    # "offer": a reward's purchase, such as Economic Supremacy's
    conflict = cat.conflicts[state.conflict or ""]
    offer = getattr(conflict, ref).offers[n]
    return (
        _(
            "%(house)s: do you pay %(cost)s for %(vp)s VP (%(conflict)s)?",
            house=who.name,
            cost=resources_text(offer.cost),
            vp=offer.vp,
            conflict=conflict.name,
        ),
        [(o, {"yes": _("Yes, paid"), "no": _("No")}[o]) for o in options],
    )


def _spaces(state: GameState) -> dict[str, list[SpaceView]]:
    acting = state.house(state.turn) if state.turn else None
    human_turn = acting is not None and acting.is_human and state.prompt is None
    problems = space_problems(state, acting.id) if human_turn and acting else {}
    # Infiltration [IX p.7]: an occupied space the acting player may still enter.
    infiltrable = (
        {s for s, why in space_problems(state, acting.id, infiltrate=True).items() if why is None}
        if state.ix and human_turn and acting
        else set()
    )
    chips = {h.id: chip(h) for h in state.houses}
    infiltrators: dict[str, list[Chip]] = {}
    for space_id, house_id in state.infiltrators:
        infiltrators.setdefault(space_id, []).append(chips[house_id])
    occupants, voices, posted = state.occupants, state.voice, state.posted
    control, bonus_spice = state.control, state.bonus_spice
    out: dict[str, list[SpaceView]] = {area: [] for area, _label in AREAS}
    for f in _board(state):
        sid = f.id
        occupant = occupants.get(sid)
        post = posted.get(sid)
        controller = post.house if post is not None else control.get(sid)
        voice = voices.get(sid)
        problem = problems.get(sid) if human_turn else None
        marker = control.get(sid) if post else None
        out[f.area].append(
            SpaceView(
                sid,
                f.name,
                f.area,
                f.cost,
                f.requirement,
                chips[occupant] if occupant else None,
                bonus_spice.get(sid) if f.maker else None,
                chips[controller] if controller else None,
                f.control_bonus,
                f.combat,
                chips[voice] if voice else None,
                problem,
                human_turn and problem is None,
                chips[post.house] if post else None,
                chips[marker] if marker else None,
                tuple(infiltrators.get(sid, ())),
                sid in infiltrable,
            )
        )
    return out


def _rival_turns(state: GameState) -> tuple[list[RivalTurn], list[str]]:
    """The rival turns the last action triggered, and every other line it logged."""
    turns: list[RivalTurn] = []
    other: list[str] = []
    skipped: list[str] = []
    current: RivalTurn | None = None
    for entry in state.last_entries:
        if entry.kind == "hagal_skip":
            skipped.append(sentence(entry, state))
            continue
        if entry.kind == "rival_agent":
            card = state.catalog.hagal[str(entry.data["card"])]
            space = state.catalog.spaces[str(entry.data["space"])]
            current = RivalTurn(
                state.house(entry.house or ""), card.id, card.name, card.swords, space.name, skipped
            )
            skipped = []
            turns.append(current)
            continue
        if current is not None and entry.kind in RIVAL_TURN_KINDS:
            if entry.kind != "influence_choice":
                current.lines.append(sentence(entry, state))
            continue
        current = None
        other.extend(skipped)
        skipped = []
        other.append(sentence(entry, state))
    other.extend(skipped)
    return turns, other


def _banner(state: GameState) -> tuple[str, str, House | None]:
    if state.phase == "ended":
        return (
            _("The game is over."),
            _("Play Endgame Intrigue cards, then see the standings."),
            None,
        )
    if state.prompt is not None:
        decider = state.house(state.prompt.decider)
        return _("%(house)s, answer the question below.", house=decider.name), "", decider
    if state.phase == "agents" and state.turn:
        house = state.house(state.turn)
        if house.is_human:
            if house.agents_left > 0:
                return (
                    _(
                        "%(house)s: your turn, Round %(round)s.",
                        house=house.name,
                        round=state.round,
                    ),
                    _(
                        "Tap the space where you sent an Agent (%(n)s left), "
                        "or take your Reveal turn.",
                        n=house.agents_left,
                    ),
                    house,
                )
            return (
                _("%(house)s: take your Reveal turn.", house=house.name),
                _("No Agent left this round."),
                house,
            )
    return _("Round %(round)s", round=state.round), "", None


def _score(state: GameState) -> ScoreView:
    ledger: dict[str, list[tuple[int, str, str, str]]] = {h.id: [] for h in state.houses}
    for e in state.ledger:
        ledger[e.house].append(
            (
                e.round,
                VP_SOURCES.get(e.source, e.source),
                FACTION_NAMES.get(e.note, e.note.replace("_", " ")),
                f"{e.delta:+d}",
            )
        )
    influence = []
    for faction in FACTIONS:
        holder = state.alliances.get(faction)
        influence.append(
            (
                faction,
                FACTION_NAMES[faction],
                tuple(h.inf(faction) for h in state.houses),
                chip(state.house(holder)) if holder else None,
            )
        )
    return ScoreView(
        vp=tuple(
            (h.id, chip(h), h.vp, tuple(ledger[h.id])) for h in state.houses if h.kind != "hagal"
        ),
        houses=tuple(chip(h) for h in state.houses),
        influence=tuple(influence),
    )


def _conflict(state: GameState) -> ConflictView | None:
    if state.conflict is None:
        return None
    card = state.catalog.conflicts[state.conflict]
    swords = []
    for e in reversed(state.log):  # only this round's entries: stop at the previous round
        if e.round != state.round:
            break
        if e.kind == "swords":
            swords.append(e)
    swords.reverse()
    strength = strengths(state)
    combat = state.phase == "combat"
    return ConflictView(
        card_id=card.id,
        name=card.name,
        level="I" * card.level,
        rewards=_rewards(card, state),
        remaining=len(state.conflict_deck),
        rows=tuple(
            (
                chip(h),
                "" if h.is_human else str(h.troops),
                "" if h.is_human else str(h.swords),
                str(strength[h.id]) if combat or not h.is_human else "",
                str(h.dn_conflict),
            )
            for h in state.houses
        ),
        swords=tuple(
            (
                chip(state.house(e.house or "")),
                state.catalog.hagal[str(e.data["card"])].name,
                int(str(e.data["swords"])),
            )
            for e in swords
        ),
        ix=state.ix,
    )


def _rewards(card: ConflictDef, state: GameState) -> tuple[tuple[str, str], ...]:
    """A Conflict card's rewards in words."""
    return _kept(
        state.catalog,
        ("rewards", card.id),
        lambda: tuple(
            (PLACES[p], reward_text(getattr(card, p), state)) for p in ("first", "second", "third")
        ),
    )


def _rivals(state: GameState) -> tuple[RivalView, ...]:
    comes = swordmaster_round(state.setup)
    later = _("round %(n)s", n=comes) if comes else ""
    leaders = state.catalog.leaders
    return tuple(
        RivalView(
            chip=chip(h),
            leader=h.leader,
            leader_name=leaders[h.leader].name if h.leader else "",
            agents=f"{h.agents_left} / {h.agents + (1 if h.mentat else 0)}",
            garrison=h.garrison,
            troops=h.troops,
            rival=h.kind == "rival",
            solari=h.solari,
            spice=h.spice,
            water=h.water,
            intrigue=h.intrigue,
            vp=h.vp,
            swordmaster=_("yes") if h.swordmaster else later,
            mentat=h.mentat,
            ix=_ix_house(state, h) if state.ix else None,
        )
        for h in state.rivals
    )


def _ix_house(state: GameState, h: House) -> IxHouseView:
    tech = state.catalog.tech
    return IxHouseView(
        id=h.id,
        chip=chip(h),
        is_human=h.is_human,
        freighter=h.freighter,
        dn_garrison=h.dn_garrison,
        dn_conflict=h.dn_conflict,
        dn_posted=h.dn_posted,
        dn_supply=h.dn_supply,
        negotiators=h.negotiators,
        tech=tuple((t, tech[t].name, t in h.flipped) for t in h.tech),
    )


def _open_for_players(state: GameState) -> bool:
    """Players may use their cards' Rise of Ix icons: no question waits, the game goes on."""
    return state.prompt is None and state.phase != "ended"


def _tech(state: GameState, acting: House | None) -> TechView | None:
    """The Tech stacks and the players' Rise of Ix pieces [IX pp.4-6]."""
    if not state.ix:
        return None
    tech = state.catalog.tech
    stacks = []
    for k, stack in enumerate(state.tech_stacks):
        top = stack[0] if stack else ""
        known = tech.get(top)
        stacks.append(
            StackView(
                number=k + 1,
                tile=top,
                name=known.name if known else "",
                cost=known.cost if known else 0,
                hagal_mark=bool(known and known.hagal_ok),
                left=len(stack),
                unknown=top == UNKNOWN_TILE,
            )
        )
    open_ = _open_for_players(state)
    if not open_:
        buyers: tuple[House, ...] = ()
    elif acting is not None and acting.is_human:
        buyers = (acting,)
    else:
        buyers = state.humans
    return TechView(
        stacks=tuple(stacks),
        trashed=len(state.tech_trash),
        solo=state.setup.mode == "solo",
        buyers=tuple((h.id, chip(h)) for h in buyers),
        players=tuple(_ix_house(state, h) for h in state.humans),
        can_trash=open_,
    )


def _ix_turn(state: GameState, acting: House | None) -> IxTurnView | None:
    """The acting player's Freighter and dreadnought buttons [IX pp.5-6]."""
    if not state.ix or acting is None or not acting.is_human or not _open_for_players(state):
        return None
    return IxTurnView(
        freighter=acting.freighter,
        advance=acting.freighter < TRACK_TOP,
        recall=acting.freighter > 0,
        commission=acting.dn_supply > 0,
        deploy=acting.dn_garrison > 0 and state.phase == "agents",
    )


def page(view: GameView) -> Page:
    """Build the table screen's content from a game view."""
    state = view.state
    banner, detail, acting = _banner(state)
    turns, other = _rival_turns(state)
    spaces = _spaces(state)
    return Page(
        view=view,
        state=state,
        banner=banner,
        banner_detail=detail,
        acting=acting,
        prompt=_prompt(state),
        spaces=spaces,
        voice_spaces=tuple(
            (s.id, s.name)
            for area, _label in AREAS
            for s in spaces[area]
            if not s.occupant and not s.voice
        ),
        rival_turns=turns,
        just_now=other,
        log=tuple(_sentences.newest(state, LOG_LINES)),
        conflict=_conflict(state),
        standings=final_ranking(state) if state.phase == "ended" else [],
        score=_score(state),
        rivals=_rivals(state),
        purchases=_purchases(state),
        tech=_tech(state, acting),
        ix_turn=_ix_turn(state, acting),
    )


def _purchases(state: GameState) -> tuple[tuple[Chip, tuple[tuple[str, int, str, int], ...]], ...]:
    """The players' bought cards: per player who bought any, name, copy, Acquire reminder
    and round."""
    out: dict[str, list[tuple[str, int, str, int]]] = {h.id: [] for h in state.humans}
    for a in state.acquisitions:
        card = state.catalog.cards.get(a.card)
        if card is not None and a.house in out:
            out[a.house].append((card.name, a.copy, card.acquire, a.round))
    return tuple((chip(h), tuple(out[h.id])) for h in state.humans if out[h.id])
