"""No input ever yields a 500, and a refused request changes nothing (issue 3, "Errors").

Random and malformed data goes to every POST endpoint (/games, actions, undo, redo, delete)
and junk query strings to every page. After each request: the status is below 500, and on
a 4xx the game's version, stored log and state are exactly as before. Legal moves are mixed
in so the junk also lands on prompts, combat and later rounds.

Two drivers share the request model: a Hypothesis test (shrinks a failure to a short
replayable list of requests) and a seeded random loop (hundreds of requests, same each run).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from companion import GAME_SETS, services
from companion.cards import load_catalog
from companion.db import db
from companion.rules.actions import ADJUSTABLE, IX_FIELDS
from companion.rules.catalog import FACTIONS
from companion.rules.engine import apply, legal_actions, new_game
from companion.rules.state import DIFFICULTIES
from companion.sim import choose_action
from companion.web import forms
from tests.web import pages
from tests.web.conftest import SOLO_FORM, TWO_PLAYER_FORM, GameActions

# -- the vocabulary: names and values the app knows, and junk --------------------------

ACTION_NAMES = tuple(pages.FORM_ACTIONS.values())
ACTION_FIELDS = (
    "action",
    "house",
    "space",
    "option",
    "field",
    "delta",
    "reason",
    "spice",
    "solari",
    "water",
    "garrison",
    "own",
    "other",
    "card",
    "copy",
    "move",
    "op",
    "tile",
    "infiltrate",
    "version",
    "csrf_token",
)
SETUP_FIELDS = tuple(
    sorted(
        {*SOLO_FORM, *TWO_PLAYER_FORM}
        | {"r1_name", "r2_name", "brutal_escalation", "churn", "physical_hagal"}
        | {"physical_conflicts", "expansion", "epic", "physical_tech"}
    )
)
GET_PATHS = (
    "/",
    "/games/new",
    "/games/{id}/setup",
    "/games/{id}",
    "/games/{id}/live",
    "/games/{id}/live/board",
    "/games/{id}/delete",  # the question only: GET never deletes
)
POST_PATHS = ("/games/{id}/actions", "/games/{id}/undo", "/games/{id}/redo")

_catalog = load_catalog(sets=GAME_SETS)
KNOWN_VALUES: tuple[str, ...] = (
    *ACTION_NAMES,
    *(s for s in _catalog.board(("base", "ix"))),
    *_catalog.leaders,
    *_catalog.tech,
    *FACTIONS,
    *ADJUSTABLE,
    *IX_FIELDS,
    "advance",
    "recall",
    "commission",
    "deploy",
    "acquire",
    "negotiator",
    "trash",
    "skip",
    "none",
    "detonate",
    "yes",
    "no",
    "ix",
    "base",
    *DIFFICULTIES,
    "p1",
    "p2",
    "r1",
    "r2",
    "hagal",
    "solo",
    "2p",
    "red",
    "blue",
    "green",
    "yellow",
    "manual",
    "card",
    "endgame",
    "on",
    "0",
    "1",
    "2",
    "7",
    "-1",
    "50",
    "51",
    "200",
    "201",
)
JUNK_VALUES: tuple[str, ...] = (
    "",
    " ",
    "9" * 30,
    "9" * 5000,  # longer than int() accepts by default
    "-" + "9" * 19,
    str(2**63),
    "1e9",
    "0x10",
    "1_000",
    " 7 ",
    "٣",  # an Arabic-Indic digit: int() accepts it
    "\uff17",  # a fullwidth 7
    "3.5",
    "NaN",
    "∞",
    "\x00",
    "null",
    "None",
    "true",
    "[]",
    "{}",
    '{"type": "Reveal"}',
    "<script>alert(1)</script>",
    "%(house)s %s {0}",
    "../../etc/passwd",
    "' OR 1=1 --",
    "é" * 81,
    "x" * 20_000,
    "🏜️" * 50,
    "influence:",
    "influence:emperor:1",
)
GAME_IDS: tuple[object, ...] = (0, -1, 1, 2, 3, 999_999, 2**31, 2**63 - 1, 2**63, 10**30)
GAME_IDS += ("abc", "1.0", "%20", "1e3")


@dataclass
class Request:
    """One request, with the game id and version left symbolic until it is sent."""

    kind: str  # "get", "post", "create", "delete", "raw", "legal"
    path: str = ""
    game: object = "live"  # "live" (the game under test) or a literal id
    version: object = "current"  # "current", "stale", "next", "missing" or a literal
    stamp: object = "current"  # the game's created stamp: "current", "missing" or a literal
    data: list[tuple[str, str]] = field(default_factory=list)
    query: list[tuple[str, str]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    content_type: str = ""
    pick: int = 0  # "legal": which legal action


# -- Hypothesis strategies -------------------------------------------------------------

text = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)  # no lone surrogates
values = st.one_of(
    st.sampled_from(KNOWN_VALUES),
    st.sampled_from(JUNK_VALUES),
    text,
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)
keys = st.one_of(st.sampled_from(ACTION_FIELDS + SETUP_FIELDS), text)
pairs = st.lists(st.tuples(keys, values), max_size=12)
headers = st.fixed_dictionaries(
    {},
    optional={
        "HX-Request": st.sampled_from(["true", "false", "", "1"]),
        "HX-History-Restore-Request": st.sampled_from(["true", "x"]),
        "HX-Target": st.sampled_from(["game", "#live", ""]),
        "HX-Current-URL": st.sampled_from(["http://127.0.0.1/", "::junk"]),
    },
)
game_ids = st.one_of(st.just("live"), st.sampled_from(GAME_IDS))
versions = st.one_of(st.sampled_from(["current", "current", "stale", "next", "missing"]), values)
STAMPS = ("current", "current", "current", "missing", "2020-01-01T00:00:00", "")
stamps = st.one_of(st.sampled_from(STAMPS), values)


def _action_form(draw_pairs: list[tuple[str, str]], action: str | None) -> list[tuple[str, str]]:
    return ([("action", action)] if action is not None else []) + draw_pairs


requests = st.one_of(
    st.builds(
        Request,
        kind=st.just("post"),
        path=st.sampled_from(POST_PATHS),
        game=game_ids,
        version=versions,
        stamp=stamps,
        data=st.builds(_action_form, pairs, st.one_of(st.none(), st.sampled_from(ACTION_NAMES))),
        headers=headers,
    ),
    st.builds(Request, kind=st.just("create"), data=pairs, headers=headers),
    st.builds(
        Request,
        kind=st.just("create"),
        data=st.builds(
            lambda base, extra, drop: [(k, v) for k, v in base.items() if k not in drop] + extra,
            st.sampled_from([SOLO_FORM, TWO_PLAYER_FORM]),
            pairs,
            st.sets(st.sampled_from(SETUP_FIELDS), max_size=3),
        ),
    ),
    st.builds(
        Request, kind=st.just("delete"), game=st.sampled_from(GAME_IDS), stamp=stamps, data=pairs
    ),
    st.builds(
        Request,
        kind=st.just("get"),
        path=st.sampled_from(GET_PATHS),
        game=game_ids,
        query=st.lists(st.tuples(st.one_of(st.just("v"), text), values), max_size=4),
        headers=headers,
    ),
    st.builds(
        Request,
        kind=st.just("raw"),
        path=st.sampled_from(("/games", *POST_PATHS)),
        body=st.binary(max_size=300),
        content_type=st.sampled_from(
            [
                "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=xyz",
                "multipart/form-data",
                "application/json",
                "text/plain",
                "",
            ]
        ),
    ),
    st.builds(Request, kind=st.just("legal"), pick=st.integers(0, 40), headers=headers),
)


# -- the seeded random loop makes the same kinds of request ----------------------------


def random_value(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.45:
        return rng.choice(KNOWN_VALUES)
    if roll < 0.75:
        return rng.choice(JUNK_VALUES)
    if roll < 0.9:
        return str(rng.randint(-(10**12), 10**12))
    return "".join(
        chr(rng.choice([rng.randint(32, 0x2FF), rng.randint(0xE000, 0x10FFFF)]))
        for _ in range(rng.randint(0, 30))
    )


def random_pairs(rng: random.Random, names: tuple[str, ...]) -> list[tuple[str, str]]:
    out = []
    for _ in range(rng.randint(0, 10)):
        key = rng.choice(names) if rng.random() < 0.85 else random_value(rng)
        out.append((key, random_value(rng)))
    return out


def random_request(rng: random.Random) -> Request:
    kind = rng.choices(
        ["post", "create", "delete", "get", "raw", "legal"], weights=[35, 8, 4, 15, 5, 33]
    )[0]
    game = "live" if rng.random() < 0.8 else rng.choice(GAME_IDS)
    version: object = rng.choice(["current", "current", "stale", "next", "missing"])
    if rng.random() < 0.15:
        version = random_value(rng)
    hx = {"HX-Request": "true"} if rng.random() < 0.5 else {}
    stamp = rng.choice(STAMPS)
    if kind == "post":
        data = random_pairs(rng, ACTION_FIELDS)
        if rng.random() < 0.8:
            data.insert(0, ("action", rng.choice(ACTION_NAMES)))
        return Request("post", rng.choice(POST_PATHS), game, version, stamp, data, headers=hx)
    if kind == "create":
        base = rng.choice([SOLO_FORM, TWO_PLAYER_FORM, {}])
        data = [(k, v) for k, v in base.items() if rng.random() < 0.9]
        for i, (k, _v) in enumerate(data):
            if rng.random() < 0.15:
                data[i] = (k, random_value(rng))
        return Request("create", data=data + random_pairs(rng, SETUP_FIELDS)[:3])
    if kind == "delete":
        data = random_pairs(rng, ACTION_FIELDS)
        return Request("delete", game=rng.choice(GAME_IDS), stamp=stamp, data=data)
    if kind == "get":
        query = [("v" if rng.random() < 0.5 else random_value(rng), random_value(rng))]
        return Request("get", rng.choice(GET_PATHS), game, query=query, headers=hx)
    if kind == "raw":
        body = bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
        ctype = rng.choice(["application/x-www-form-urlencoded", "multipart/form-data; boundary=b"])
        return Request("raw", rng.choice(("/games", *POST_PATHS)), body=body, content_type=ctype)
    return Request("legal", pick=rng.randrange(40), headers=hx)


# -- running requests and checking what they left behind -------------------------------


class Fuzzer:
    """Sends requests at one live game and checks every answer."""

    def __init__(self, game: GameActions, seed: int, warmup: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.live = self.new_game(warmup)
        self.sent = 0

    def new_game(self, warmup: int = 0) -> int:
        """A game for the junk to land on, played `warmup` moves in (prompts, combat...)."""
        self.game.next_seed = self.seed
        form = SOLO_FORM if self.seed % 3 else TWO_PLAYER_FORM
        if self.seed % 2:  # every other game with Rise of Ix, its questions and actions
            form = form | {"expansion": "ix"}
        game_id = self.game.create(form, self.seed)
        rng = random.Random(self.seed)
        with self.game.app.app_context():
            for _ in range(warmup):
                view = services.load(game_id, self.game.catalog)
                if view.state.phase == "ended":
                    break
                action = choose_action(view.state, rng)
                services.act(game_id, action, view.version, self.game.catalog)
        return game_id

    def _version(self, symbol: object) -> str | None:
        current = self.game.version(self.live)
        return {
            "current": str(current),
            "stale": str(current - 1),
            "next": str(current + 1),
            "missing": None,
        }.get(str(symbol), str(symbol))

    def _stamp(self, game_id: object, symbol: object) -> str | None:
        if symbol == "missing":
            return None
        if symbol == "current":
            return self.game.stamp(game_id) if isinstance(game_id, int) else ""
        return str(symbol)

    def send(self, r: Request) -> Any:
        game_id = self.live if r.game == "live" else r.game
        client = self.game.client
        if r.kind == "legal":
            legal = legal_actions(self.game.state(self.live))
            if not legal:
                return None
            form = pages.form_for(legal[r.pick % len(legal)])
            return self.game.act_form(self.live, form, htmx=bool(r.headers))
        if r.kind == "raw":
            path = r.path.format(id=self.live)
            return client.post(path, data=r.body, content_type=r.content_type or None)
        if r.kind == "get":
            path = r.path.format(id=game_id)
            return client.get(path, query_string=MultiDict(r.query), headers=r.headers)
        data = MultiDict(r.data)
        stamp = self._stamp(game_id, r.stamp)
        if stamp is not None and r.kind in ("post", "delete"):
            data["created"] = stamp
        if r.kind == "create":
            return client.post("/games", data=data, headers=r.headers)
        if r.kind == "delete":
            return client.post(f"/games/{game_id}/delete", data=data, headers=r.headers)
        data.pop("version", None)
        version = self._version(r.version)
        if version is not None:
            data["version"] = version
        return client.post(r.path.format(id=game_id), data=data, headers=r.headers)

    def check(self, r: Request) -> None:
        before = self.game.snapshot(self.live)
        games = self.game.game_count()
        events = self.game.all_event_count()
        with self.send(r) or _NoResponse() as response:
            status = response.status_code
            body = response.get_data(as_text=True) if status in (409, 422) else ""
        self.sent += 1
        assert status < 500, (r, status)
        if status == 0:
            return
        if r.kind == "get" or status >= 400:
            assert self.game.game_count() == games, (r, status)
            assert self.game.all_event_count() == events, (r, status)
            assert self.game.snapshot(self.live) == before, (r, status)
            if status in (409, 422) and r.kind in ("post", "legal", "raw", "create"):
                assert 'role="alert"' in body, (r, status)  # the message, in place
                if r.kind in ("post", "legal") and r.game == "live":
                    if "its address now shows another game" in body:  # a wrong stamp only
                        assert r.stamp not in ("current", "missing", ""), (r, status)
                    else:
                        assert pages.version(body) == before[0], (r, status)  # the fresh view
            return
        # Accepted: the game may have moved on, but exactly one step, and the stored log
        # must replay to the state the server keeps in its cache.
        if r.kind == "delete" and r.game == self.live:
            self.live = self.new_game()
            return
        after = self.game.snapshot(self.live)
        assert after[0] in (before[0], before[0] + 1), (r, status)
        assert self.game.state(self.live, fresh=True) == after[2], r


class _NoResponse:
    status_code = 0

    def __enter__(self) -> _NoResponse:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def get_data(self, as_text: bool = False) -> str:
        return ""


def fresh_database(game: GameActions) -> None:
    with game.app.app_context():
        services.forget_cache()
        game.app.extensions.pop("render_cache", None)  # pages of the games dropped here
        db.drop_all()
        db.create_all()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    seed=st.integers(1, 10_000),
    warmup=st.integers(0, 60),
    batch=st.lists(requests, min_size=1, max_size=12),
)
def test_random_requests_never_fail_and_refusals_change_nothing(game, seed, warmup, batch):
    fresh_database(game)
    fuzzer = Fuzzer(game, seed, warmup)
    for request in batch:
        fuzzer.check(request)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_random_loop_never_fails_and_refusals_change_nothing(game, seed):
    rng = random.Random(seed)
    fuzzer = Fuzzer(game, seed, warmup=rng.randint(0, 30))
    for _ in range(250):
        fuzzer.check(random_request(rng))
    assert fuzzer.sent == 250
    # The junk was mixed with real play: the game got somewhere.
    assert game.version(fuzzer.live) > 0


@pytest.mark.parametrize("size", [400_000, 600_000])
def test_a_huge_form_is_refused_without_a_500(game, client, size):
    game_id = game.new_solo()
    before = game.snapshot(game_id)
    response = game.act(game_id, action="adjust", house="p1", reason="x" * size)
    assert 400 <= response.status_code < 500
    assert game.snapshot(game_id) == before


def test_many_values_for_one_field_are_refused_or_use_the_first(game):
    game_id = game.new_solo()
    data = MultiDict([("version", "0"), ("version", "5"), ("action", "reveal")])
    data.add("action", "place")
    data.add("house", "p1")
    response = game.client.post(f"/games/{game_id}/actions", data=data)
    assert response.status_code < 500
    assert game.version(game_id) == (1 if response.status_code == 303 else 0)


IX = {"expansion": "ix"}


@pytest.mark.parametrize(
    "form",
    [SOLO_FORM, TWO_PLAYER_FORM, SOLO_FORM | IX, TWO_PLAYER_FORM | IX],
    ids=["solo", "2p", "ix-solo", "ix-2p"],
)
def test_every_legal_action_survives_its_form(form):
    """The form fields the table posts rebuild the very action the engine listed."""
    rng = random.Random(3)
    state = new_game(forms.setup_from(form, seed=3), _catalog)
    for _ in range(150):
        if state.phase == "ended":
            break
        for action in legal_actions(state):
            assert forms.action_from(pages.form_for(action)) == action
        state = apply(state, choose_action(state, rng))
