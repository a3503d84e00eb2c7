"""Setting up a game: the difficulty table, the checks of a Setup, the houses at the start
and the Conflict deck [RB pp.4-5, p.19 Two-Player, p.20 Solo; IX p.10 Epic]."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.rules.actions import IllegalAction
from companion.rules.catalog import Catalog
from companion.rules.draft import Draft
from companion.rules.i18n import N_, Message, Name, joined
from companion.rules.state import MODES, MULTIPLAYER, ConflictSlot, House, Setup

# Difficulty table [RB p.20]: rival garrison, rival Intrigue, conflict cards above the
# rival Swordmasters (= the round they arrive), 5-Solari Mentat.
DIFFICULTY = {
    "mercenary": {"garrison": 0, "intrigue": 0, "swordmaster_round": 5, "mentat_cost": 2},
    "sardaukar": {"garrison": 3, "intrigue": 1, "swordmaster_round": 4, "mentat_cost": 5},
    "mentat": {"garrison": 3, "intrigue": 1, "swordmaster_round": 3, "mentat_cost": 5},
    "kwisatz": {"garrison": 3, "intrigue": 1, "swordmaster_round": 3, "mentat_cost": 5},
}
CONFLICT_LEVELS = ((1, 1), (2, 5), (3, 4))  # [RB p.4] setup B: 1 x I, 5 x II, 4 x III
EPIC_LEVELS = ((2, 5), (3, 5))  # [IX p.10] Epic: no Conflict I, 5 x II over 5 x III
# What a player starts with that the engine does not track for humans (their troops, water
# and cards stay on the table), and the Rivals' share of it: 1 water each [RB p.5, F1; p.20
# Solo], 3 troops in the garrison [RB p.5, G5], with Epic 5 instead of 3 and an Intrigue
# card [IX p.10]; Mercenary difficulty gives you 1 Solari and 1 spice [RB p.20].
START_WATER = 1
START_GARRISON = 3
EPIC_GARRISON = 5
EPIC_INTRIGUE = 1
MERCENARY_SOLARI = 1
MERCENARY_SPICE = 1
IMPERIUM_ROW = 5  # cards dealt face up [RB p.4, C2]


def mentat_cost(setup: Setup) -> int:
    """The Mentat space costs 5 Solari with the token from Sardaukar difficulty up [RB p.20]."""
    if setup.mode == "solo" and setup.difficulty is not None:
        return DIFFICULTY[setup.difficulty]["mentat_cost"]
    return 2


def swordmaster_round(setup: Setup) -> int | None:
    """The round whose Conflict card sits right above the rival Swordmasters [RB p.20]."""
    if setup.mode != "solo" or setup.difficulty is None:
        return None
    return DIFFICULTY[setup.difficulty]["swordmaster_round"]


def check_setup(setup: Setup, catalog: Catalog) -> None:
    """Raise IllegalAction listing every problem of a setup, or return if there is none."""
    if setup.mode not in MODES:
        problems: list[str] = [Message(N_("Unknown mode %(mode)r."), mode=setup.mode)]
    elif setup.mode == "solo":
        problems = _solo_problems(setup, catalog)
    elif setup.mode == "2p":
        problems = _two_player_problems(setup)
    else:
        problems = _multiplayer_problems(setup)
    problems += _seat_problems(setup, catalog)
    problems += _first_player_problems(setup)
    if "base" not in setup.sets or any(s not in ("base", "ix") for s in setup.sets):
        problems.append(Message(N_("Unknown card sets.")))
    elif "ix" not in setup.sets and (setup.options.epic or setup.options.physical_tech):
        problems.append(Message(N_("Epic mode and Tech tiles need the Rise of Ix expansion.")))
    if problems:
        raise IllegalAction(joined(problems, N_("%(first)s %(second)s")))


def _solo_problems(setup: Setup, catalog: Catalog) -> list[str]:
    problems: list[str] = []
    if len(setup.humans) != 1 or len(setup.rivals) != 2:
        problems.append(Message(N_("A solo game has one player and two Rivals.")))
    if setup.difficulty not in DIFFICULTY:
        problems.append(
            Message(N_("Choose a difficulty: Mercenary, Sardaukar, Mentat or Kwisatz Haderach."))
        )
    for seat in setup.rivals:
        leader = catalog.leaders.get(seat.leader)
        if leader is None:
            problems.append(
                Message(N_("Unknown leader %(leader)r for a Rival."), leader=seat.leader)
            )
        elif not leader.rival_allowed:
            problems.append(
                Message(
                    N_("%(leader)s can't be a Rival (rulebook p.20)."),
                    leader=Name(leader.name, "leader"),
                )
            )
    if len({s.leader for s in setup.rivals}) < len(setup.rivals):
        problems.append(Message(N_("The two Rivals need different leaders.")))
    return problems


def _two_player_problems(setup: Setup) -> list[str]:
    problems: list[str] = []
    if len(setup.humans) != 2 or len(setup.rivals) != 1:
        problems.append(Message(N_("A two-player game has two players and House Hagal.")))
    if setup.difficulty is not None:
        problems.append(Message(N_("Difficulty applies to solo games only.")))
    if not 0 <= setup.first_player < max(1, len(setup.humans)):
        problems.append(Message(N_("The first player must be one of the two players.")))
    if setup.options.brutal_escalation or setup.options.churn:
        problems.append(
            Message(
                N_(
                    "Brutal Escalation and the Imperium Row churn are solo variants "
                    "(Rise of Ix rulebook p.9)."
                )
            )
        )
    return problems


SEATS_PROBLEM = {
    "3p": N_("A three-player game has three players and no Rivals."),
    "4p": N_("A four-player game has four players and no Rivals."),
}


def _multiplayer_problems(setup: Setup) -> list[str]:
    """Three or four players: no Rival and none of the solo or two-player rules [RB p.19-20;
    IX p.8-9]."""
    problems: list[str] = []
    if len(setup.humans) != MULTIPLAYER[setup.mode] or setup.rivals:
        problems.append(Message(SEATS_PROBLEM[setup.mode]))
    if setup.difficulty is not None:
        problems.append(Message(N_("Difficulty applies to solo games only.")))
    if not 0 <= setup.first_player < max(1, len(setup.humans)):
        problems.append(Message(N_("The first player must be one of the players.")))
    options = setup.options
    if options.brutal_escalation or options.churn:
        problems.append(
            Message(
                N_(
                    "Brutal Escalation and the Imperium Row churn are solo variants "
                    "(Rise of Ix rulebook p.9)."
                )
            )
        )
    if options.physical_hagal or options.hagal_dreadnought_home or options.epic_rivals_standard:
        problems.append(
            Message(N_("House Hagal and the Rivals play only in solo and two-player games."))
        )
    return problems


def drawn_first_player(seed: int, players: int) -> int:
    """The first player drawn at random [RB p.5, H]: from the game's seed, so the same
    seed draws the same player."""
    return random.Random(f"{seed}:first player").randrange(players)


def _first_player_problems(setup: Setup) -> list[str]:
    """A first player drawn by the app is the one the seed draws; solo has no draw."""
    if not setup.options.draw_first_player:
        return []
    if setup.mode == "solo":
        return [Message(N_("In a solo game the Rival on your left is the first player."))]
    if setup.humans and setup.first_player != drawn_first_player(setup.seed, len(setup.humans)):
        return [Message(N_("The first player drawn by the app is not the one its seed draws."))]
    return []


def _seat_problems(setup: Setup, catalog: Catalog) -> list[str]:
    """Leaders known, in the sets played and used once; colors and names for every seat."""
    problems: list[str] = []
    for seat in setup.humans:
        if seat.leader not in catalog.leaders:
            problems.append(Message(N_("Unknown leader %(leader)r."), leader=seat.leader))
    for seat in (*setup.humans, *setup.rivals):
        leader = catalog.leaders.get(seat.leader)
        if leader is not None and leader.set not in setup.sets:
            problems.append(
                Message(
                    N_("%(leader)s needs the Rise of Ix expansion."),
                    leader=Name(leader.name, "leader"),
                )
            )
    leaders = [s.leader for s in setup.humans] + [s.leader for s in setup.rivals if s.leader]
    if len(set(leaders)) < len(leaders):
        problems.append(Message(N_("Each leader can be used only once.")))
    colors = [s.color for s in setup.humans + setup.rivals]
    if len(set(colors)) < len(colors):
        problems.append(Message(N_("Each house needs its own color.")))
    if any(not s.name.strip() for s in setup.humans + setup.rivals):
        problems.append(Message(N_("Every house needs a name.")))
    return problems


def starting_houses(setup: Setup) -> tuple[tuple[House, ...], str]:
    """The houses at the table, clockwise, and who takes the First Player marker."""
    humans = tuple(
        House(id=f"p{i + 1}", kind="human", name=seat.name, leader=seat.leader, color=seat.color)
        for i, seat in enumerate(setup.humans)
    )
    if setup.mode == "solo":
        # The Rival on your left takes the First Player marker [RB p.20].
        return humans + _solo_rivals(setup), "r1"
    first = f"p{setup.first_player + 1}"
    if setup.multiplayer:
        # In a 4-player game each Score marker starts on the 1 space, otherwise on 0 [RB
        # p.4, G2]; `engine.new_game` writes that VP in the ledger.
        start_vp = 1 if setup.players == 4 else 0
        return tuple(replace(h, vp=start_vp) for h in humans), first
    seat = setup.rivals[0]
    # House Hagal: three Agents, no troops in its garrison, no resources [RB p.19].
    hagal = House(id="hagal", kind="hagal", name=seat.name, leader="", color=seat.color, agents=3)
    return (*humans, hagal), first


def table_houses(setup: Setup) -> tuple[House, ...]:
    """The starting houses with what the players hold on the table though the engine does
    not track it for humans: troops in the garrison, water, Intrigue cards, Solari and
    spice [RB p.5, F1 and G5; p.20 Mercenary; IX p.10 Epic]. For the set-up checklist."""
    epic = setup.options.epic
    mercenary = setup.mode == "solo" and setup.difficulty == "mercenary"
    return tuple(
        replace(
            house,
            garrison=EPIC_GARRISON if epic else START_GARRISON,
            water=START_WATER,
            intrigue=EPIC_INTRIGUE if epic else 0,
            solari=MERCENARY_SOLARI if mercenary else 0,
            spice=MERCENARY_SPICE if mercenary else 0,
        )
        if house.is_human
        else house
        for house in starting_houses(setup)[0]
    )


def _solo_rivals(setup: Setup) -> tuple[House, ...]:
    assert setup.difficulty is not None
    difficulty = DIFFICULTY[setup.difficulty]
    garrison, intrigue = difficulty["garrison"], difficulty["intrigue"]
    if setup.options.epic and not setup.options.epic_rivals_standard:
        # Epic [IX p.10]: "each player" starts with 5 garrison troops "instead of 3"
        # and draws an Intrigue card. Our ruling for Rivals: those starting with 3
        # troops get 5 (Mercenary Rivals start with none and keep none), and every
        # Rival draws the Intrigue card. A setting starts them as in a standard game.
        garrison = EPIC_GARRISON if garrison == START_GARRISON else garrison
        intrigue += EPIC_INTRIGUE
    # Everyone starts with 1 water, rivals with the difficulty's extras [RB p.20].
    return tuple(
        House(
            id=f"r{i + 1}",
            kind="rival",
            name=seat.name,
            leader=seat.leader,
            color=seat.color,
            water=START_WATER,
            garrison=garrison,
            intrigue=intrigue,
        )
        for i, seat in enumerate(setup.rivals)
    )


def conflict_deck(draft: Draft) -> list[ConflictSlot]:
    """1 Conflict I on top of 5 Conflict II on top of 4 Conflict III [RB p.4]."""
    levels = EPIC_LEVELS if draft.setup.options.epic else CONFLICT_LEVELS
    if draft.setup.options.physical_conflicts:
        return [ConflictSlot(level, None) for level, n in levels for _ in range(n)]
    rng = draft.random()
    deck: list[ConflictSlot] = []
    for level, n in levels:
        ids = [
            c.id
            for c in draft.catalog.conflicts.values()
            if c.level == level and c.set in draft.setup.sets
        ]
        deck.extend(ConflictSlot(level, cid) for cid in rng.sample(ids, n))
    return deck
