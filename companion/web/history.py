"""History, game summaries and statistics (the exports, the import and the backup download:
`web.exports`, on this blueprint)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

from babel import Locale
from babel.dates import format_date, format_time, get_datetime_format
from flask import Blueprint, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l

from companion import services
from companion.rules.catalog import Catalog
from companion.rules.scoring import TIEBREAKS
from companion.rules.state import DIFFICULTIES
from companion.stats import aggregate, bgstats, simulated, store
from companion.stats import summary as summary_module
from companion.stats.charts import line_chart
from companion.stats.summary import Record, summarize
from companion.web.forms import MODE_NAMES
from companion.web.language import card_text, house_name, page_locale
from companion.web.language import gettext as _
from companion.web.present import clock
from companion.web.present.panels import VP_SOURCES as PANEL_SOURCES
from companion.web.present.standings import TIEBREAK_NAMES

bp = Blueprint("history", __name__)
HISTORY_SHOWN = 100  # the most recent finished games the history lists
TREND_GAMES = 30  # the games in a player's VP chart
MODES = MODE_NAMES
# Where VP came from, in the summaries' order ("start": the Score marker's starting space,
# 1 VP each in a four-player game, RB p.4 G2).
SOURCES = {source: PANEL_SOURCES[source] for source in summary_module.VP_SOURCES}
DIFFICULTY_NAMES = {
    "mercenary": _l("Mercenary"),
    "sardaukar": _l("Sardaukar"),
    "mentat": _l("Mentat"),
    "kwisatz": _l("Kwisatz Haderach"),
}
EXPANSIONS = {
    "base": _l("Base game"),
    "ix": _l("Rise of Ix"),
    "ix_epic": _l("Rise of Ix, Epic"),
}
FILTER_NAMES = {
    "mode": _l("mode"),
    "difficulty": _l("difficulty"),
    "expansion": _l("expansion"),
    "leader": _l("leader"),
}
BREAKDOWN_TITLES = {
    "mode": _l("By mode"),
    "difficulty": _l("By difficulty"),
    "expansion": _l("By expansion"),
    "leader": _l("By your leader"),
    "rival": _l("By Rival leader"),
    "player": _l("By player"),
}


def catalog() -> Catalog:
    return current_app.extensions["catalog"]  # type: ignore[no-any-return]


def leader_name(leader_id: str) -> str:
    """A leader's name in the reader's language; House Hagal for a two-player game's third
    house."""
    if leader_id in ("", aggregate.HAGAL):
        return str(_("House Hagal"))
    return card_text(leader_english(leader_id))


def leader_english(leader_id: str) -> str:
    """A leader's name as BG Stats knows it (English)."""
    if leader_id in ("", aggregate.HAGAL):
        return "House Hagal"
    found = catalog().leaders.get(leader_id)
    return found.name if found else leader_id


def key_name(breakdown: str, key: str) -> str:
    """The label of one value of a breakdown (a mode, a difficulty, a leader...)."""
    names: dict[str, Any] = {"mode": MODES, "difficulty": DIFFICULTY_NAMES, "expansion": EXPANSIONS}
    if breakdown in names:
        return str(names[breakdown].get(key, key))
    return leader_name(key)


@bp.app_template_global()
def local_time(iso: str) -> dict[str, str]:
    """A UTC time for a <time> element: the ISO value, and a UTC text shown until the
    page's script writes it in the viewer's own time zone."""
    moment = datetime.fromisoformat(iso.removesuffix("Z")).replace(tzinfo=UTC)
    return {"iso": iso, "text": _("%(time)s UTC", time=moment_text(moment))}


def moment_text(moment: datetime) -> str:
    """A date and time in the page's language, as the page's script writes it (its medium
    date, its short time, joined by the language's own pattern: ja "2026/11/28 9:54", pl
    "28 lis 2026, 09:54"), in UTC: Babel's CLDR data, never the browser's locale."""
    locale = Locale.parse(page_locale())
    pattern = get_datetime_format("medium", locale=locale)
    date = format_date(moment, "medium", locale=locale)
    time = format_time(moment, "short", tzinfo=UTC, locale=locale)
    return str(pattern).replace("{1}", date).replace("{0}", time)


def _filters() -> tuple[store.RecordFilter, list[str]]:
    """The history's filters from the query string, and a message per value refused."""
    args = request.args
    problems: list[str] = []

    def choice(name: str, allowed: Any) -> str | None:
        value = args.get(name, "")
        if value and value not in allowed:
            what = FILTER_NAMES[name]
            problems.append(_("Unknown %(what)s: %(value)s", what=what, value=value))
            return None
        return value or None

    expansion = choice("expansion", ("base", "ix"))
    since, until = _dates(args.get("from", ""), args.get("to", ""), args.get("tz", ""), problems)
    where = store.RecordFilter(
        mode=choice("mode", MODES),
        difficulty=choice("difficulty", DIFFICULTIES),
        ix=None if expansion is None else expansion == "ix",
        epic=True if args.get("epic") else None,
        leader=choice("leader", catalog().leaders),
        since=since,
        until=until,
    )
    return where, problems


def _dates(
    start: str, end: str, tz: str, problems: list[str]
) -> tuple[datetime | None, datetime | None]:
    """The date range as UTC times: the dates are the viewer's, `tz` its offset in minutes
    (JavaScript's getTimezoneOffset; UTC without it)."""
    minutes = int(tz) if re.fullmatch(r"-?\d{1,4}", tz) else 0
    offset = timedelta(minutes=minutes if abs(minutes) < 1440 else 0)
    out: list[datetime | None] = []
    for value, days in ((start, 0), (end, 1)):
        try:
            out.append(
                datetime.strptime(value, "%Y-%m-%d") + timedelta(days=days) + offset
                if value
                else None
            )
        except (ValueError, OverflowError):  # not a date, or out of the calendar with tz
            problems.append(_("Not a date: %(value)s", value=value))
            out.append(None)
    return out[0], out[1]


def _leaders() -> list[tuple[str, str]]:
    leaders = catalog().leaders.items()
    return sorted(((lid, card_text(lead.name)) for lid, lead in leaders), key=lambda p: p[1])


@bp.get("/history")
def index() -> ResponseReturnValue:
    where, problems = _filters()
    records, matching = store.for_app().newest(where, HISTORY_SHOWN)
    return render_template(
        "history/index.html",
        records=records,
        matching=matching,
        problems=problems,
        args=request.args,
        modes=MODES,
        difficulties=DIFFICULTY_NAMES,
        leaders=_leaders(),
        leader_name=leader_name,
        active=services.list_games(active=True),
    )


def _standings(record: Record) -> list[dict[str, Any]]:
    """The houses, best first; House Hagal (which never scores) last."""
    return sorted(record["houses"], key=lambda h: (h["rank"] is None, h["rank"] or 0, h["id"]))


def tie_lines(houses: list[dict[str, Any]]) -> list[str]:
    """How each tie on VP was broken [RB p.12 Endgame], from the standings (best first):
    the count that decided it, or Chaumurky (which wins ties, Rise of Ix)."""
    scoring = [h for h in houses if h["rank"] is not None]
    return [
        _tie_line(ahead, behind)
        for ahead, behind in pairwise(scoring)
        # Records written before the tie-break counts were kept have no "tiebreak".
        if ahead["vp"] == behind["vp"]
        and ahead["rank"] < behind["rank"]
        and "tiebreak" in ahead
        and "tiebreak" in behind
    ]


def _tie_line(ahead: dict[str, Any], behind: dict[str, Any]) -> str:
    mine, theirs = ahead.get("tiebreak"), behind.get("tiebreak")
    first, second = house_name(ahead["name"]), house_name(behind["name"])
    index = next(
        (i for i, (a, b) in enumerate(zip(mine or (), theirs or (), strict=True)) if a != b),
        None,
    )
    if mine is None or theirs is None or index is None:
        return str(
            _(
                "%(ahead)s is ahead of %(behind)s on equal VP: Chaumurky wins ties.",
                ahead=first,
                behind=second,
            )
        )
    return str(
        _(
            "%(ahead)s is ahead of %(behind)s on equal VP by %(count)s: %(mine)d to %(theirs)d.",
            ahead=first,
            behind=second,
            count=TIEBREAK_NAMES[TIEBREAKS[index]],
            mine=mine[index],
            theirs=theirs[index],
        )
    )


def _summary_by_replay(game_id: int) -> Record | None:
    """A finished game without a stored summary (ended before the summaries were kept,
    until `flask --app wsgi stats rebuild`): summarized from its replayed state."""
    view = services.load(game_id, catalog())  # GameNotFound: 404
    if view.state.phase != "ended":
        return None
    ended = services.summary(game_id).updated_at
    return summarize(game_id, view.state, datetime.fromisoformat(view.created), ended)


@bp.get("/games/<int:game_id>/summary")
def summary(game_id: int) -> ResponseReturnValue:
    if not 0 < game_id <= services.MAX_ID:
        raise services.GameNotFound(game_id)
    record = store.for_app().get(game_id) or _summary_by_replay(game_id)
    if record is None:
        return render_template("history/unfinished.html", game_id=game_id), 404
    scoring = [h for h in _standings(record) if h["kind"] != "hagal"]
    vp_chart = line_chart([(house_name(h["name"]), h["color"], h["vp_by_round"]) for h in scoring])
    influence_chart = line_chart(
        [(house_name(h["name"]), h["color"], h["influence_by_round"]) for h in _standings(record)]
    )
    cards = catalog().cards
    conflicts = catalog().conflicts
    return render_template(
        "history/summary.html",
        record=record,
        houses=_standings(record),
        ties=tie_lines(_standings(record)),
        vp_chart=vp_chart,
        influence_chart=influence_chart,
        sources=SOURCES,
        leader_name=leader_name,
        card_name=lambda cid: cards[cid].name if cid in cards else cid,
        conflict_name=lambda cid: conflicts[cid].name if cid in conflicts else cid,
        modes=MODES,
        difficulties=DIFFICULTY_NAMES,
        bgstats_url=bgstats.create_play_url(record, leader_english),
        thinking=clock.game_summary(game_id, catalog()),
    )


@dataclass(frozen=True)
class _Seats:
    """The statistics' input as last computed: the rows' version, each game's seats with
    the time its row was written, and all the seats in the order the games ended."""

    version: tuple[object, ...]
    by_game: dict[int, tuple[datetime, list[aggregate.Result]]]
    seats: list[aggregate.Result]


def _seats() -> list[aggregate.Result]:
    """Every human seat of the finished games. Computed again only when the summary rows
    changed (their version is one query), so every process sees every change; then only
    the rows written since are read and decoded, the other games' seats are kept."""
    records = store.for_app()
    version = records.version()
    cached: _Seats | None = current_app.extensions.get("stats_seats")
    if cached is not None and cached.version == version:
        return cached.seats
    known = cached.by_game if cached is not None else {}
    stamps = records.stamps()
    changed = records.some(
        [gid for gid, written in stamps if known.get(gid, (None,))[0] != written]
    )
    by_game: dict[int, tuple[datetime, list[aggregate.Result]]] = {}
    for game_id, written in stamps:
        if game_id in changed:
            by_game[game_id] = (written, aggregate.results([changed[game_id]]))
        elif game_id in known:
            by_game[game_id] = known[game_id]
        # else: deleted between the two queries; the next version reads again
    seats = [seat for _, game_seats in by_game.values() for seat in game_seats]
    current_app.extensions["stats_seats"] = _Seats(version, by_game, seats)
    return seats


@bp.get("/stats")
def statistics() -> ResponseReturnValue:
    seats = _seats()
    names = aggregate.players(seats)
    player = request.args.get("player", "")
    mode = request.args.get("mode", "")
    problems: list[str] = []
    if player and player not in names:
        problems.append(_("No finished game has a player named %(name)s.", name=player))
        player = ""
    if mode and mode not in MODES:
        problems.append(_("Unknown %(what)s: %(value)s", what=FILTER_NAMES["mode"], value=mode))
        mode = ""
    chosen = aggregate.in_mode([s for s in seats if s.player == player] if player else seats, mode)
    recent = chosen[-TREND_GAMES:]
    trend = line_chart(
        [
            (player, "yellow", [s.vp for s in recent]),
            (str(_("Best other house")), "blue", [s.vp - s.margin for s in recent]),
        ]
    )
    played = aggregate.modes(seats if not player else [s for s in seats if s.player == player])
    return render_template(
        "history/stats.html",
        stats=aggregate.statistics(chosen),
        own=aggregate.difficulty_rates(chosen),
        trend=trend if player and recent else None,
        trend_games=len(recent),
        players=aggregate.players(aggregate.in_mode(seats, mode)),
        player=player,
        mode=mode,
        modes={m: MODES[m] for m in played},
        problems=problems,
        titles=BREAKDOWN_TITLES,
        key_name=key_name,
        sources=SOURCES,
        simulated=simulated.table() if mode in ("", "solo") else None,
        difficulties=DIFFICULTY_NAMES,
        expansions=EXPANSIONS,
    )
