"""Statistics over finished games' records: per human player (by name) and overall, in
every mode (solo, two, three and four players) or in one."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from statistics import fmean

from companion.rules.state import MODES, MULTIPLAYER
from companion.stats.summary import VP_SOURCES, Record

HAGAL = "hagal"  # the "rival leader" of a two-player game: House Hagal


@dataclass(frozen=True, slots=True)
class Result:
    """One human seat in one finished game."""

    game_id: int
    ended_at: str
    player: str
    won: bool
    rank: int | None  # the place at the end [RB p.12 Endgame]; shared on a tie still open
    vp: int
    margin: int  # VP minus the best other scoring house's VP
    sources: dict[str, int]
    rounds: int
    minutes: int
    mode: str  # "solo", "2p", "3p" or "4p"
    difficulty: str | None
    expansion: str  # "base" or "ix"
    epic: bool
    leader: str
    rivals: tuple[str, ...]  # the Rival leaders; (HAGAL,) in a two-player game; none with 3-4

    @property
    def multiplayer(self) -> bool:
        """A seat of a three- or four-player game (no Rival, no House Hagal)."""
        return self.mode in MULTIPLAYER


@dataclass(frozen=True, slots=True)
class Tally:
    """Games and wins for one value of a breakdown (a difficulty, a leader...)."""

    key: str
    games: int
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Streaks:
    """The current run of wins or losses, and the longest winning and losing runs."""

    current: int
    current_won: bool
    longest_wins: int
    longest_losses: int


@dataclass(frozen=True, slots=True)
class Statistics:
    """Everything the statistics page shows for a set of results. Games and wins count
    games (a game of two to four players is one game, won when one of these seats won:
    with everyone's seats, always, since House Hagal never wins [RB p.19]); averages,
    shares, best and worst count seats. `places`: how often these seats finished first,
    second... in three- and four-player games, where the place says more than a win."""

    games: int
    wins: int
    average_vp: float
    average_margin: float
    average_rounds: float
    average_minutes: float
    shares: dict[str, float]  # VP source -> its share of all VP scored
    by: dict[str, list[Tally]]  # breakdown name -> tallies, most played first
    best: Result | None
    worst: Result | None
    streaks: Streaks
    places: tuple[tuple[int, int], ...]  # (place, seats) in 3-4 player games, best first
    average_place: float | None  # over the seats of 3-4 player games; None without one
    results: tuple[Result, ...]  # oldest first

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def results(records: Iterable[Record]) -> list[Result]:
    """Every human seat of these games, oldest game first."""
    out: list[Result] = []
    for record in sorted(records, key=lambda r: (r["ended_at"], r["game_id"])):
        scoring = [h for h in record["houses"] if h["kind"] != "hagal"]
        rivals = tuple(h["leader"] or HAGAL for h in record["houses"] if h["kind"] != "human")
        for house in (h for h in record["houses"] if h["kind"] == "human"):
            others = [h["vp"] for h in scoring if h["id"] != house["id"]]
            out.append(
                Result(
                    game_id=record["game_id"],
                    ended_at=record["ended_at"],
                    player=house["name"],
                    won=house["rank"] == 1,
                    rank=house["rank"],
                    vp=house["vp"],
                    margin=house["vp"] - max(others, default=0),
                    sources=house["sources"],  # without "start" in records made before it
                    rounds=record["rounds"],
                    minutes=record["minutes"],
                    mode=record["mode"],
                    difficulty=record["difficulty"],
                    expansion="ix" if record["ix"] else "base",
                    epic=record["epic"],
                    leader=house["leader"],
                    rivals=rivals,
                )
            )
    return out


BREAKDOWNS: dict[str, Callable[[Result], Sequence[str]]] = {
    "mode": lambda r: (r.mode,),
    "difficulty": lambda r: (r.difficulty,) if r.difficulty else (),
    "expansion": lambda r: (r.expansion + ("_epic" if r.epic else ""),),
    "leader": lambda r: (r.leader,),
    "rival": lambda r: tuple(dict.fromkeys(r.rivals)),
    "player": lambda r: (r.player,),
}


def _tallies(seats: Sequence[Result], keys: Callable[[Result], Sequence[str]]) -> list[Tally]:
    games: defaultdict[str, set[int]] = defaultdict(set)
    wins: defaultdict[str, set[int]] = defaultdict(set)
    for seat in seats:
        for key in keys(seat):
            games[key].add(seat.game_id)
            if seat.won:
                wins[key].add(seat.game_id)
    return sorted(
        (Tally(k, len(games[k]), len(wins[k])) for k in games),
        key=lambda t: (-t.games, -t.wins, t.key),
    )


def outcomes(seats: Sequence[Result]) -> list[bool]:
    """Per game, in the order the games ended: whether one of these seats won it."""
    won: dict[int, bool] = {}
    for seat in seats:
        won[seat.game_id] = won.get(seat.game_id, False) or seat.won
    return list(won.values())


def streaks(games: Sequence[bool]) -> Streaks:
    """Runs of wins and losses, in the order the games ended."""
    current, longest = 0, {True: 0, False: 0}
    last: bool | None = None
    for won in games:
        current = current + 1 if won == last else 1
        last = won
        longest[last] = max(longest[last], current)
    return Streaks(current, bool(last), longest[True], longest[False])


def statistics(seats: Sequence[Result]) -> Statistics:
    """The statistics of these seats (oldest first)."""
    total_vp = sum(sum(s.sources.values()) for s in seats)
    by_source = {src: sum(s.sources.get(src, 0) for s in seats) for src in VP_SOURCES}
    ranked = sorted(seats, key=lambda s: (s.margin, s.vp, s.ended_at))
    games = outcomes(seats)
    placed = [s.rank for s in seats if s.multiplayer and s.rank is not None]
    return Statistics(
        games=len(games),
        wins=sum(games),
        average_vp=_mean(s.vp for s in seats),
        average_margin=_mean(s.margin for s in seats),
        average_rounds=_mean(s.rounds for s in seats),
        average_minutes=_mean(s.minutes for s in seats),
        shares={k: v / total_vp for k, v in by_source.items() if v} if total_vp > 0 else {},
        by={name: _tallies(seats, keys) for name, keys in BREAKDOWNS.items()},
        best=ranked[-1] if ranked else None,
        worst=ranked[0] if ranked else None,
        streaks=streaks(games),
        places=tuple(sorted(Counter(placed).items())),
        average_place=fmean(placed) if placed else None,
        results=tuple(seats),
    )


def _mean(values: Iterable[int]) -> float:
    numbers = list(values)
    return fmean(numbers) if numbers else 0.0


def players(seats: Iterable[Result]) -> list[str]:
    """The human players' names, most games first."""
    counts: defaultdict[str, int] = defaultdict(int)
    for seat in seats:
        counts[seat.player] += 1
    return sorted(counts, key=lambda name: (-counts[name], name.casefold()))


def difficulty_rates(seats: Sequence[Result]) -> dict[str, Tally]:
    """Solo games and wins per difficulty and expansion, keyed "mentat/base", "mentat/ix"."""
    tallies = _tallies(seats, lambda r: (f"{r.difficulty}/{r.expansion}",) if r.difficulty else ())
    return {t.key: t for t in tallies}


def in_mode(seats: Iterable[Result], mode: str | None) -> list[Result]:
    """The seats of games of this mode ("solo", "2p", "3p", "4p"); all with None."""
    return [s for s in seats if s.mode == mode] if mode else list(seats)


def modes(seats: Iterable[Result]) -> list[str]:
    """The modes these seats were played in, in the order of `MODES`."""
    played = {s.mode for s in seats}
    return [mode for mode in MODES if mode in played]
