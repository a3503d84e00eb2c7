"""Simulator: plays whole games with the rivals and a scripted human, checks every state.

    python -m companion.sim --games 500 --mode solo --difficulty mentat --seed 1 --json
    python -m companion.sim --games 500 --mode 2p --expansion ix --epic --json
    python -m companion.sim --games 1000 --mode 4p --expansion ix --epic --json
    python -m companion.sim --report --games 200 --out companion/stats/simulated.json

The scripted human places Agents on random legal spaces, sometimes gains Influence from
its cards (and, with Rise of Ix, uses a card's Freighter, dreadnought or Tech icon),
enters a random plausible strength and answers prompts at random. With three or four
players half the tables reveal their own Conflict cards (and Tech tiles), and a player
sometimes loses an Influence (as Shifting Allegiances costs one). Every state
of every game is checked against the invariants below; a finished game's log is replayed
and must rebuild the same state. Exit status 1 if any invariant is broken. Speed is
reported in wall-clock time and in CPU time (`time.process_time`), which the load of a
shared machine distorts less.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.cards import load_catalog
from companion.rules.actions import (
    Action,
    Adjust,
    Choose,
    Dreadnought,
    Freighter,
    PlaceAgent,
    Reveal,
    SetTiebreak,
    Tech,
)
from companion.rules.catalog import FACTIONS, Catalog
from companion.rules.engine import apply, hagal_cards, legal_actions, new_game, replay
from companion.rules.scoring import final_ranking
from companion.rules.state import (
    DIFFICULTIES,
    DREADNOUGHTS,
    MAX_INFLUENCE,
    MODES,
    MULTIPLAYER,
    TRACK_TOP,
    TROOPS_PER_HOUSE,
    UNKNOWN_TILE,
    Difficulty,
    GameState,
    House,
    Options,
    SeatSetup,
    Setup,
)

COLORS = ("red", "blue", "green", "yellow")
MAX_STEPS = 2000


@dataclass
class Played:
    """One finished game: its initial state, its actions and its final state."""

    initial: GameState
    actions: list[Action] = field(default_factory=list)
    final: GameState | None = None
    violations: list[str] = field(default_factory=list)


def make_setup(
    catalog: Catalog,
    mode: str,
    difficulty: Difficulty | None,
    seed: int,
    options: Options | None = None,
    sets: tuple[str, ...] = ("base",),
) -> Setup:
    """A random but valid setup for this seed."""
    rng = random.Random(seed)
    leaders = [lid for lid, lead in catalog.leaders.items() if lead.set in sets]
    rival_ok = [lid for lid in leaders if catalog.leaders[lid].rival_allowed]
    colors = list(COLORS)
    rng.shuffle(colors)
    if mode == "solo":
        rivals = rng.sample(rival_ok, 2)
        human = rng.choice([lid for lid in leaders if lid not in rivals])
        return Setup(
            mode="solo",
            seed=seed,
            humans=(SeatSetup("You", human, colors[0]),),
            rivals=tuple(
                SeatSetup(f"Rival {i + 1}", lid, colors[i + 1]) for i, lid in enumerate(rivals)
            ),
            difficulty=difficulty,
            options=options or Options(),
            sets=sets,
        )
    if mode in MULTIPLAYER:
        players = MULTIPLAYER[mode]
        names = ("Ann", "Ben", "Cal", "Dee")
        picked = rng.sample(leaders, players)
        first = rng.randrange(players)
        # Half the tables reveal their own Conflict cards (and Tech tiles), so the
        # questions those ask are played too.
        physical_conflicts = rng.random() < 0.5
        physical_tech = "ix" in sets and rng.random() < 0.5
        return Setup(  # no Rival: the solo and two-player options don't apply (IX p.8)
            mode=mode,
            seed=seed,
            humans=tuple(SeatSetup(names[i], picked[i], colors[i]) for i in range(players)),
            rivals=(),
            first_player=first,
            options=Options(
                epic=bool(options and options.epic),
                physical_conflicts=physical_conflicts,
                physical_tech=physical_tech,
            ),
            sets=sets,
        )
    humans = rng.sample(leaders, 2)
    return Setup(  # Brutal Escalation and the churn are solo variants (Ix p.9)
        mode="2p",
        seed=seed,
        humans=(SeatSetup("Ann", humans[0], colors[0]), SeatSetup("Ben", humans[1], colors[1])),
        rivals=(SeatSetup("House Hagal", "", colors[2]),),
        first_player=rng.randrange(2),
        options=Options(epic=options.epic) if options else Options(),
        sets=sets,
    )


def choose_action(state: GameState, rng: random.Random) -> Action:
    """The scripted human's next action."""
    p = state.prompt
    if p is not None:
        if p.number:
            if p.kind == "strength" and rng.random() < 0.3:
                return Choose("0")
            return Choose(str(rng.randint(p.minimum, min(p.maximum, 24))))
        return Choose(rng.choice(p.options))
    actions = legal_actions(state)
    places = [a for a in actions if isinstance(a, PlaceAgent)]
    turn = state.turn
    assert turn is not None
    if state.ix and rng.random() < 0.12:
        ix_action = _ix_icon(state, turn, rng)
        if ix_action is not None:
            return ix_action
    if rng.random() < 0.15:
        # Cards often give a player Influence: model it as the correction the app offers.
        house = state.house(turn)
        faction = rng.choice(FACTIONS)
        if house.inf(faction) < MAX_INFLUENCE:
            return Adjust(turn, f"influence:{faction}", 1, "card")
    if state.setup.multiplayer and rng.random() < 0.04:
        # Some cards cost Influence (Shifting Allegiances): an Alliance holder can lose
        # its token, to a tied player or back to the board [FAQ Alliance].
        house = state.house(turn)
        held = [f for f in FACTIONS if state.alliances.get(f) == turn] or list(FACTIONS)
        faction = rng.choice(held)
        if house.inf(faction) > 0:
            return Adjust(turn, f"influence:{faction}", -1, "card")
    if places and rng.random() < 0.93:
        return rng.choice(places)
    return Reveal(turn)


def _ix_icon(state: GameState, turn: str, rng: random.Random) -> Action | None:
    """A Rise of Ix icon from one of the player's cards, when it can be used now."""
    house = state.house(turn)
    choice = rng.randrange(5)
    if choice == 0:
        return Freighter(turn, "recall" if house.freighter == TRACK_TOP else "advance")
    if choice == 1 and house.dn_supply:
        return Dreadnought(turn, "commission")
    if choice == 2 and house.dn_garrison:
        return Dreadnought(turn, "deploy")
    tops = [stack[0] for stack in state.tech_stacks if stack and stack[0] != UNKNOWN_TILE]
    if choice == 3 and tops:
        return Tech(turn, "acquire", rng.choice(tops))
    if choice == 4:
        return Tech(turn, "negotiator")
    return None


def play(catalog: Catalog, setup: Setup, check: bool = True) -> Played:
    """Play one game to its end with the scripted human."""
    rng = random.Random(setup.seed ^ 0x5EED)
    state = new_game(setup, catalog)
    game = Played(initial=state)
    if check:
        game.violations.extend(invariants(state))
    for _ in range(MAX_STEPS):
        if state.phase == "ended":
            break
        action = choose_action(state, rng)
        state = apply(state, action)
        game.actions.append(action)
        if check:
            game.violations.extend(invariants(state))
    else:
        game.violations.append(f"seed {setup.seed}: no end after {MAX_STEPS} actions")
    if state.phase == "ended":
        for human in state.humans:  # the players count their tie-break resources
            action = SetTiebreak(
                human.id, rng.randint(0, 9), rng.randint(0, 9), rng.randint(0, 4), rng.randint(0, 6)
            )
            state = apply(state, action)
            game.actions.append(action)
    game.final = state
    return game


def invariants(state: GameState) -> list[str]:
    """Every broken invariant of one state, as readable lines."""
    where = f"seed {state.setup.seed} step {state.step}"
    bad: list[str] = []
    for h in state.houses:
        bad += _house_invariants(state, h, where)
        if h.kind == "rival" and state.phase != "ended":
            bad += _exchange_invariants(state, h, where)
        if h.kind != "hagal":
            bad += _scoring_invariants(state, h, where)
    placed = sum(h.placed for h in state.houses)
    agents = len(state.occupants) + len(state.infiltrators)
    if placed != agents:
        bad.append(f"{where}: {placed} Agents placed but {agents} on the board")
    if state.ix:
        bad += _ix_invariants(state, where)
        if state.phase == "ended":  # the whole log once, not at every step
            bad += _tile_invariants(state, where)
    bad += _seat_invariants(state, where)
    if state.phase == "ended" and state.setup.multiplayer:  # the whole log once
        bad += _turn_order_invariants(state, where)
    return bad + _table_invariants(state, where)


def _seat_invariants(state: GameState, where: str) -> list[str]:
    """The houses the mode has, and the Score markers' start: with four players each on 1,
    with one "start" line in the ledger, otherwise on 0 [RB p.4, G2]."""
    bad: list[str] = []
    setup = state.setup
    humans = [h.id for h in state.houses if h.is_human]
    if humans != [f"p{i + 1}" for i in range(setup.players)]:
        bad.append(f"{where}: the players are {humans}, not {setup.players} in seat order")
    if setup.multiplayer and len(state.houses) != setup.players:
        bad.append(f"{where}: a {setup.mode} game has a Rival or House Hagal")
    if setup.multiplayer and (state.hagal_deck or state.hagal_discard):
        bad.append(f"{where}: a {setup.mode} game has House Hagal cards")
    start = 1 if setup.players == 4 else 0
    for h in state.scoring:
        lines = [e for e in state.ledger if e.house == h.id and e.source == "start"]
        wanted = [(start, 0)] if start else []
        if [(e.delta, e.round) for e in lines] != wanted:
            bad.append(f"{where}: {h.id} starts on {sum(e.delta for e in lines)} VP, not {start}")
    return bad


def _turn_order_invariants(state: GameState, where: str) -> list[str]:
    """Three or four players, over a whole log: each round's Agent and Reveal turns go
    clockwise from the First Player, skipping whoever has revealed [RB p.8], and the First
    Player marker passes clockwise at each Recall [RB p.12]; nobody else takes a turn."""
    seats = [h.id for h in state.houses]
    first = f"p{state.setup.first_player + 1}"
    bad: list[str] = []
    turn, revealed, round_ = first, set[str](), 1
    for e in state.log:
        if e.kind == "recall":
            nxt = seats[(seats.index(first) + 1) % len(seats)]
            if e.data.get("first") != nxt:
                bad.append(f"{where}: round {e.round} passed the marker to {e.data.get('first')}")
            first = nxt
        elif e.kind in ("agent", "reveal"):
            if e.round != round_:
                turn, revealed, round_ = first, set(), e.round
            if len(revealed) == len(seats):
                bad.append(f"{where}: round {e.round}: {e.house} played after every Reveal turn")
                break
            while turn in revealed:
                turn = seats[(seats.index(turn) + 1) % len(seats)]
            if e.house != turn:
                bad.append(f"{where}: round {e.round}: {e.house} played in {turn}'s turn")
                break
            if e.kind == "reveal":
                revealed.add(turn)
            turn = seats[(seats.index(turn) + 1) % len(seats)]
        elif e.kind.startswith(("rival_", "hagal_")):
            bad.append(f"{where}: a {e.kind} entry in a {state.setup.mode} game")
    return bad


def _house_invariants(state: GameState, house: House, where: str) -> list[str]:
    """One house's counts: VP as in the ledger, nothing negative, units conserved."""
    bad: list[str] = []
    ledger = sum(e.delta for e in state.ledger if e.house == house.id)
    if house.vp != ledger:
        bad.append(f"{where}: {house.id} VP {house.vp} != ledger {ledger}")
    counts = (
        house.solari,
        house.spice,
        house.water,
        house.intrigue,
        house.garrison,
        house.troops,
        house.swords,
        house.vp,
        house.placed,
    )
    if min(counts) < 0:
        bad.append(f"{where}: {house.id} has a negative count {counts}")
    if house.garrison + house.troops + house.negotiators > TROOPS_PER_HOUSE:
        bad.append(f"{where}: {house.id} has more than {TROOPS_PER_HOUSE} troops")
    dn = (house.dn_garrison, house.dn_conflict, house.dn_posted, house.negotiators, house.freighter)
    if min(dn) < 0 or house.dn_supply < 0 or house.dn_supply > DREADNOUGHTS:
        bad.append(f"{where}: {house.id} dreadnoughts not conserved {dn}")
    if house.dn_posted != sum(1 for p in state.posted.values() if p.house == house.id):
        bad.append(f"{where}: {house.id} has {house.dn_posted} dreadnoughts on flags")
    if not 0 <= house.freighter <= TRACK_TOP:
        bad.append(f"{where}: {house.id} Freighter off the track at {house.freighter}")
    if house.kind != "rival" and (house.tech or house.negotiators) and not house.is_human:
        bad.append(f"{where}: House Hagal holds Tech tiles or Negotiators")
    if house.kind == "rival" and any(not state.catalog.tech[t].hagal_ok for t in house.tech):
        bad.append(f"{where}: {house.id} owns a Tech tile without the House Hagal mark")
    if any(not 0 <= v <= MAX_INFLUENCE for v in house.influence):
        bad.append(f"{where}: {house.id} influence out of range {house.influence}")
    if house.agents_left < 0:
        bad.append(f"{where}: {house.id} placed more Agents than it has")
    if house.agents > 3:
        bad.append(f"{where}: {house.id} has {house.agents} Agents")
    if house.kind == "hagal" and (
        house.vp or house.solari or house.spice or house.water or house.intrigue
    ):
        bad.append(f"{where}: House Hagal holds VP or resources")
    if house.kind == "human" and (
        house.solari
        or house.spice
        or house.water
        or house.intrigue
        or house.garrison
        or house.troops
    ):
        bad.append(f"{where}: {house.id} has tracked resources")
    return bad


def _exchange_invariants(state: GameState, house: House, where: str) -> list[str]:
    """A solo Rival at rest never sits on resources it could exchange for VP."""
    if state.prompt is not None or state.queue:
        return []
    exchanges = [("intrigue", 3), ("water", 3), ("solari", 7)]
    if not state.ix or state.conflict_level == 3:  # Ix: spice waits for Conflict III
        exchanges.append(("spice", 7))
    return [
        f"{where}: {house.id} kept {getattr(house, res)} {res} unconverted"
        for res, price in exchanges
        if getattr(house, res) >= price
    ]


def _scoring_invariants(state: GameState, house: House, where: str) -> list[str]:
    """Influence and Alliance VP in the ledger match the tracks and the tokens held."""
    bad: list[str] = []
    scored = {e.note for e in state.ledger if e.house == house.id and e.source == "influence"}
    inf_vp = sum(e.delta for e in state.ledger if e.house == house.id and e.source == "influence")
    at_two = sum(1 for v in house.influence if v >= 2)
    if inf_vp != at_two:
        bad.append(f"{where}: {house.id} influence VP {inf_vp} != tracks at 2+ {at_two} {scored}")
    ally_vp = sum(e.delta for e in state.ledger if e.house == house.id and e.source == "alliance")
    held = sum(1 for holder in state.alliances.values() if holder == house.id)
    if ally_vp != held:
        bad.append(f"{where}: {house.id} alliance VP {ally_vp} != alliances held {held}")
    return bad


def _ix_invariants(state: GameState, where: str) -> list[str]:
    """Tech tiles conserved, a marked tile face up in solo, dreadnoughts on flags only."""
    bad: list[str] = []
    tiles = [t for stack in state.tech_stacks for t in stack] + list(state.tech_trash)
    tiles += [t for h in state.houses for t in h.tech]
    expected = sorted(t.id for t in state.catalog.tech.values() if t.set in state.setup.sets)
    known = sorted(t for t in tiles if t != UNKNOWN_TILE)
    complete = state.setup.options.physical_tech or known == expected
    if len(tiles) != len(expected) or len(set(known)) != len(known) or not complete:
        bad.append(f"{where}: Tech tiles not conserved")
    if state.prompt is None and not state.queue and state.setup.mode == "solo":
        tops = [stack[0] for stack in state.tech_stacks if stack]
        if tops and not any(state.catalog.tech[t].hagal_ok for t in tops):
            bad.append(f"{where}: no face-up Tech tile with the House Hagal mark")
    for space in state.posted:
        if state.catalog.spaces[space].control_bonus is None:
            bad.append(f"{where}: a dreadnought controls {space}")
    return bad


def _tile_invariants(state: GameState, where: str) -> list[str]:
    """Each Tech tile effect the app applies happens once per trigger [IX p.4, p.9]:
    Shuttle Fleet at each round start, Windtraps at each won Conflict, Troop Transports'
    third troop at each Shipping recruit, Training Drones in each round a Rival takes an
    Agent turn, Holtzman Engine at the end. Counted in the log per house."""
    bad: list[str] = []
    for house in state.houses:
        for tile, (triggers, effects) in _tile_counts(state, house).items():
            if triggers != effects:
                bad.append(
                    f"{where}: {house.id}'s {tile} triggered {triggers} times, applied {effects}"
                )
    return bad


def _tile_counts(state: GameState, house: House) -> dict[str, tuple[int, int]]:
    """Per tile: how often its trigger happened while the house owned it, and how often
    its effect shows in the log."""
    acquired = {
        str(e.data.get("tile")): i
        for i, e in enumerate(state.log)
        if e.kind == "tech" and e.house == house.id
    }
    rival = house.kind == "rival"
    triggers: Counter[str] = Counter()
    effects: Counter[str] = Counter()
    drone_rounds: set[int] = set()

    def owns(tile: str, index: int) -> bool:
        return tile in house.tech and acquired.get(tile, -1) < index

    for i, e in enumerate(state.log):
        mine = e.house == house.id
        tile = e.data.get("tile")
        if rival and e.kind == "recall" and owns("shuttle_fleet", i):
            triggers["shuttle_fleet"] += 1
        if rival and mine and e.kind == "reward" and e.data.get("place") == "first":
            triggers["windtraps"] += owns("windtraps", i)
        if mine and e.kind == "freighter_recall" and int(str(e.data.get("step"))) >= 2:
            triggers["troop_transports"] += owns("troop_transports", i)
        if rival and mine and e.kind in ("rival_agent", "tech") and owns("training_drones", i + 1):
            drone_rounds.add(e.round)
        if rival and e.kind == "game_end" and owns("holtzman_engine", i):
            triggers["holtzman_engine"] += 1
        if mine and e.kind in ("tech_income", "tech_flip", "tech_vp"):
            effects[str(tile)] += 1
        shipped = e.kind == "recruit" and e.data.get("source") == "shipping"
        if mine and (e.kind == "transports_player" or (shipped and e.data.get("wanted") == 3)):
            effects["troop_transports"] += 1
    triggers["training_drones"] = len(drone_rounds)
    tiles = ("shuttle_fleet", "windtraps", "troop_transports", "training_drones")
    return {t: (triggers[t], effects[t]) for t in (*tiles, "holtzman_engine")}


def _table_invariants(state: GameState, where: str) -> list[str]:
    """The Mentat, Alliances, House Hagal and Conflict cards, bonus spice and Control."""
    bad: list[str] = []
    if sum(1 for h in state.houses if h.mentat) > 1:
        bad.append(f"{where}: more than one house holds the Mentat")
    if state.prompt is None and not state.queue:
        for faction, holder in state.alliances.items():
            mine = state.house(holder).inf(faction)
            # A holder dropping 2+ past a house it was not tied with keeps the token
            # (FAQ Alliance, read literally), so only "at 4 or more" always holds.
            if mine < 4:
                bad.append(f"{where}: {holder} holds the {faction} Alliance with {mine} Influence")
        for faction in FACTIONS:
            if faction not in state.alliances and any(h.inf(faction) >= 4 for h in state.houses):
                bad.append(f"{where}: nobody holds the {faction} Alliance though a house has 4+")
    composition = Counter(hagal_cards(state.setup, state.catalog))
    if Counter(state.hagal_deck) + Counter(state.hagal_discard) != composition:
        bad.append(f"{where}: House Hagal cards not conserved")
    if len(state.conflict_deck) + len(state.conflicts_done) != 10 or len(
        set(state.conflicts_done)
    ) != len(state.conflicts_done):
        bad.append(f"{where}: Conflict cards not conserved")
    if any(v < 0 for v in state.bonus_spice.values()):
        bad.append(f"{where}: negative bonus spice")
    for space, holder in state.control.items():
        if state.house(holder).kind == "hagal":
            bad.append(f"{where}: House Hagal controls {space}")
    return bad


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m companion.sim", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--mode", choices=MODES, default="solo")
    parser.add_argument("--difficulty", choices=DIFFICULTIES, default="mentat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--brutal", action="store_true", help="Brutal Escalation")
    parser.add_argument("--churn", action="store_true", help="dice-based Imperium Row churn")
    parser.add_argument(
        "--expansion", choices=("base", "ix"), default="base", help="ix: with Rise of Ix"
    )
    parser.add_argument("--epic", action="store_true", help="Epic Game mode (Rise of Ix)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--report",
        action="store_true",
        help="solo difficulty table: how often and by which round the Rivals reach 10 VP, "
        "--games per difficulty and expansion",
    )
    parser.add_argument("--out", help="--report: also write the table as JSON to this file")
    return parser.parse_args(argv)


def _round_reached(state: GameState, target: int) -> int | None:
    """The round in which a Rival first had `target` VP (its ledger's running total)."""
    totals: Counter[str] = Counter()
    for entry in state.ledger:
        if state.house(entry.house).kind == "rival":
            totals[entry.house] += entry.delta
            if totals[entry.house] >= target:
                return entry.round
    return None


def report_row(
    catalog: Catalog, difficulty: Difficulty, sets: tuple[str, ...], games: int, seed: int
) -> dict[str, object]:
    """One line of the difficulty table: solo games against two Rivals at `difficulty`."""
    reached: Counter[int] = Counter()
    human_wins = 0
    for i in range(games):
        final = play(
            catalog, make_setup(catalog, "solo", difficulty, seed + i, None, sets), False
        ).final
        assert final is not None
        when = _round_reached(final, final.vp_to_end)
        if when is not None:
            reached[when] += 1
        human_wins += any(s.rank == 1 and s.house == "p1" for s in final_ranking(final))
    total = sum(reached.values())
    return {
        "expansion": "ix" if "ix" in sets else "base",
        "difficulty": difficulty,
        "games": games,
        "rivals_reach_rate": round(total / games, 3),
        "reach_round_mean": round(sum(r * n for r, n in reached.items()) / total, 2)
        if total
        else None,
        "reach_by_round": {str(r): reached[r] for r in sorted(reached)},
        "human_win_rate": round(human_wins / games, 3),
    }


def difficulty_report(games: int, seed: int) -> dict[str, object]:
    """The simulated difficulty table, per expansion and difficulty, with the scripted human."""
    rows = []
    for sets in (("base",), ("base", "ix")):
        catalog = load_catalog(sets=sets)
        rows += [report_row(catalog, d, sets, games, seed) for d in DIFFICULTIES]
    return {
        "simulated": True,
        "games_per_row": games,
        "seed": seed,
        "human": "scripted",
        "rows": rows,
    }


def _print_report(report: dict[str, object]) -> None:
    header = ("expansion", "difficulty", "games", "reach 10", "mean round", "you win")
    print("{:<10}{:<12}{:>6}{:>10}{:>12}{:>9}".format(*header))
    rows = report["rows"]
    assert isinstance(rows, list)
    for row in rows:
        mean = row["reach_round_mean"]
        print(
            f"{row['expansion']:<10}{row['difficulty']:<12}{row['games']:>6}"
            f"{row['rivals_reach_rate']:>10.0%}{'-' if mean is None else mean:>12}"
            f"{row['human_win_rate']:>9.0%}"
        )


def _report_main(args: argparse.Namespace) -> int:
    started, cpu = time.perf_counter(), time.process_time()
    report = difficulty_report(args.games, args.seed)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1)
            out.write("\n")
    if args.json:
        print(json.dumps(report))
    else:
        _print_report(report)
        wall, used = time.perf_counter() - started, time.process_time() - cpu
        print(f"{wall:.1f} s wall, {used:.1f} s CPU")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    if args.epic and args.expansion != "ix":
        print("--epic needs --expansion ix", file=sys.stderr)
        return 2
    if args.report:
        return _report_main(args)
    sets = ("base", "ix") if args.expansion == "ix" else ("base",)
    catalog = load_catalog(sets=sets)
    difficulty = args.difficulty if args.mode == "solo" else None
    options = Options(brutal_escalation=args.brutal, churn=args.churn, epic=args.epic)
    setups = [
        make_setup(catalog, args.mode, difficulty, args.seed + i, options, sets)
        for i in range(args.games)
    ]

    started = time.perf_counter()
    play_wall, play_cpu = _timed_play(catalog, setups)
    games = [play(catalog, setup, check=True) for setup in setups]
    violations = [v for g in games for v in g.violations]
    replay_wall, replay_cpu = _timed_replays(games, violations)
    report = {
        "games": len(games),
        "mode": args.mode,
        "expansion": args.expansion,
        "epic": args.epic,
        "difficulty": difficulty,
        "seed": args.seed,
        "seconds": round(time.perf_counter() - started, 3),
        "play_seconds": round(play_wall, 3),
        "games_per_second": round(len(games) / play_wall, 1),
        "games_per_cpu_second": round(len(games) / play_cpu, 1),
        **_outcomes(games),
        "replay_ms_median": round(statistics.median(replay_wall), 3),
        "replay_cpu_ms_median": round(statistics.median(replay_cpu), 3),
        "invariant_violations": len(violations),
    }
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>22}: {value}")
        for line in violations[:20]:
            print("VIOLATION", line)
    return 1 if violations else 0


def _timed_play(catalog: Catalog, setups: Sequence[Setup]) -> tuple[float, float]:
    """Seconds of wall-clock and of CPU time to play these games unchecked: the engine and
    the scripted human only."""
    wall, cpu = time.perf_counter(), time.process_time()
    for setup in setups:
        play(catalog, setup, check=False)
    return time.perf_counter() - wall, time.process_time() - cpu


def _timed_replays(
    games: Sequence[Played], violations: list[str]
) -> tuple[list[float], list[float]]:
    """Replay each game's log: milliseconds of wall-clock and of CPU time per replay. A
    replay that doesn't rebuild the played game's final state adds a violation."""
    wall_ms: list[float] = []
    cpu_ms: list[float] = []
    for g in games:
        wall, cpu = time.perf_counter(), time.process_time()
        rebuilt = replay(g.initial, g.actions)
        wall_ms.append((time.perf_counter() - wall) * 1000)
        cpu_ms.append((time.process_time() - cpu) * 1000)
        if rebuilt != g.final:
            violations.append(f"seed {g.initial.setup.seed}: replay differs from play")
    return wall_ms, cpu_ms


def _outcomes(games: Sequence[Played]) -> dict[str, object]:
    """How the games ended: rounds, end reasons, winners, VP and actions on average."""
    finals = [g.final for g in games if g.final is not None]
    winners: Counter[str] = Counter()
    for s in finals:
        best = [st.house for st in final_ranking(s) if st.rank == 1]
        winners[best[0] if len(best) == 1 else "tie"] += 1
    rival_vps = [h.vp for s in finals for h in s.houses if h.kind == "rival"]
    return {
        "rounds_mean": round(statistics.fmean(s.round for s in finals), 2),
        "end_reasons": dict(Counter(s.end_reason or "none" for s in finals)),
        "winners": dict(winners),
        "rival_vp_mean": round(statistics.fmean(rival_vps), 2) if rival_vps else None,
        "human_vp_mean": round(statistics.fmean(h.vp for s in finals for h in s.humans), 2),
        "actions_mean": round(statistics.fmean(len(g.actions) for g in games), 1),
    }


if __name__ == "__main__":
    raise SystemExit(main())
