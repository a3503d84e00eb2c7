"""The use cases against an in-memory repository (Cosmic Python's FakeRepository): no database."""

from __future__ import annotations

import copy
import itertools
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from companion import services, state_cache
from companion.db.repository import Bump, NewGame, StoredEvent, StoredGame, VersionConflict
from companion.rules import engine
from companion.rules.actions import Action, IllegalAction
from companion.rules.catalog import Catalog
from companion.rules.engine import legal_actions
from companion.services import GameNotFound, StaleVersion, Storage
from companion.state_cache import StateCache
from companion.web.present.titles import title_for
from tests.rules.helpers import catalog, solo_setup

START = datetime(2026, 11, 25, 19, 0)


class FakeRepository:
    """Games in dicts; a change is kept only if its block ends without an error."""

    def __init__(self) -> None:
        self.games: dict[int, StoredGame] = {}
        self.logs: dict[int, list[StoredEvent]] = {}
        self.ids = itertools.count(1)
        self.clock = (START + timedelta(minutes=n) for n in itertools.count())

    def add(self, game: NewGame) -> StoredGame:
        now = next(self.clock)
        stored = StoredGame(
            next(self.ids), now, now, 0, game.title, game.mode, game.round, game.status, game.setup
        )
        self.games[stored.id], self.logs[stored.id] = stored, []
        return stored

    def get(self, game_id: int) -> StoredGame | None:
        return self.games.get(game_id)

    def version(self, game_id: int) -> int | None:
        game = self.games.get(game_id)
        return None if game is None else game.version

    def events(self, game_id: int) -> list[StoredEvent]:
        return list(self.logs.get(game_id, []))

    def action(self, game_id: int, seq: int) -> dict[str, Any] | None:
        return next((e.action for e in self.logs.get(game_id, []) if e.seq == seq), None)

    def list_games(self) -> list[StoredGame]:
        return sorted(self.games.values(), key=lambda g: (g.updated_at, g.id), reverse=True)

    def delete(self, game_id: int) -> bool:
        self.logs.pop(game_id, None)
        return self.games.pop(game_id, None) is not None

    @contextmanager
    def change(self, bump: Bump) -> Iterator[None]:
        game = self.games.get(bump.game_id)
        if game is None or (game.version, game.created_at) != (bump.version, bump.created_at):
            raise VersionConflict(bump.game_id)
        kept = copy.deepcopy((self.games, self.logs))
        self.games[bump.game_id] = replace(
            game,
            version=bump.version + 1,
            round=bump.round,
            status=bump.status,
            updated_at=next(self.clock),
        )
        try:
            yield
        except BaseException:
            self.games, self.logs = kept
            raise

    def append(self, game_id: int, seq: int, action: dict[str, Any]) -> None:
        if self.action(game_id, seq) is not None:
            raise VersionConflict(game_id)
        self.logs[game_id].append(StoredEvent(seq, action, False))

    def mark_undone(self, game_id: int, seq: int, undone: bool) -> None:
        log = self.logs[game_id]
        log[:] = [replace(e, undone=undone) if e.seq == seq else e for e in log]

    def drop_undone(self, game_id: int) -> None:
        self.logs[game_id] = [e for e in self.logs[game_id] if not e.undone]


@pytest.fixture(scope="module")
def cards() -> Catalog:
    return catalog()


@pytest.fixture
def repo() -> FakeRepository:
    return FakeRepository()


@pytest.fixture
def storage(repo: FakeRepository) -> Storage:
    return Storage(repo, StateCache())


def restarted(repo: FakeRepository) -> Storage:
    """The same games with nothing cached, as after a restart (or on another server)."""
    return Storage(repo, StateCache())


def first_legal(storage: Storage, game_id: int, cards: Catalog) -> Action:
    return legal_actions(services.load(game_id, cards, storage).state)[0]


def play(storage: Storage, game_id: int, cards: Catalog, taps: int) -> services.GameView:
    """Make `taps` legal intents, each from the version the one before left."""
    view = services.load(game_id, cards, storage)
    for _ in range(taps):
        view = services.act(game_id, legal_actions(view.state)[0], view.version, cards, storage)
    return view


def test_a_new_game_is_stored_at_version_zero_and_loads(storage, repo, cards):
    title = title_for(solo_setup(), cards)
    game_id = services.create_game(solo_setup(), cards, storage, title=title)
    view = services.load(game_id, cards, storage)
    assert (view.version, view.can_undo, view.can_redo) == (0, False, False)
    assert repo.games[game_id].title == view.title == title
    assert view.title.startswith("You vs ") and view.title.endswith("(mentat)")
    assert services.current_version(game_id, storage) == 0


def test_the_services_import_no_flask() -> None:
    """The use cases run without a web framework (issue 29): the presenter titles games."""
    source = Path(services.__file__).read_text()
    assert not re.search(r"^\s*(from|import) flask", source, re.MULTILINE)


def test_act_stores_the_intent_and_bumps_the_version(storage, repo, cards):
    game_id = services.create_game(solo_setup(), cards, storage)
    action = first_legal(storage, game_id, cards)
    view = services.act(game_id, action, 0, cards, storage)
    assert (view.version, view.can_undo, view.can_redo) == (1, True, False)
    assert [(e.seq, e.undone) for e in repo.events(game_id)] == [(1, False)]
    assert services.load(game_id, cards, restarted(repo)).state == view.state


def test_act_from_a_stale_version_is_refused_and_stores_nothing(storage, repo, cards):
    game_id = services.create_game(solo_setup(), cards, storage)
    action = first_legal(storage, game_id, cards)
    services.act(game_id, action, 0, cards, storage)
    for stale in (0, None, 7):
        with pytest.raises(StaleVersion):
            services.act(game_id, action, stale, cards, storage)
    assert len(repo.events(game_id)) == 1 and repo.version(game_id) == 1


def test_a_change_another_device_stored_first_makes_this_one_stale(repo, cards):
    tablet, phone = restarted(repo), restarted(repo)
    game_id = services.create_game(solo_setup(), cards, tablet)
    first_legal(storage=phone, game_id=game_id, cards=cards)  # the phone caches version 0
    services.act(game_id, first_legal(tablet, game_id, cards), 0, cards, tablet)
    with pytest.raises(StaleVersion):
        services.act(game_id, first_legal(phone, game_id, cards), 0, cards, phone)
    assert len(repo.events(game_id)) == 1


def held(
    change: Callable[[Bump], Any], inside: threading.Event, release: threading.Event
) -> Callable[[Bump], Any]:
    """`change` that, once it has bumped the version, says so (`inside`) and holds the
    transaction open until `release`: a change being stored."""

    @contextmanager
    def held_change(bump: Bump) -> Iterator[None]:
        with change(bump):
            inside.set()
            release.wait(10)
            yield

    return held_change


def test_taps_that_come_while_another_changes_the_game_wait_and_get_the_game_as_it_is(
    repo, cards, monkeypatch
):
    """Four devices tap at once (issue 29): the first change is being stored when the
    others come. They wait for it instead of applying their intents too, then find the
    game moved on: StaleVersion with the game as it is now, nothing applied twice."""
    storage = Storage(repo, StateCache())
    game_id = services.create_game(solo_setup(), cards, storage)
    action = first_legal(storage, game_id, cards)
    inside, release = threading.Event(), threading.Event()
    waiting = threading.Semaphore(0)
    applied: list[Action] = []
    real_change = repo.change

    class CountedEvent(threading.Event):
        def wait(self, timeout: float | None = None) -> bool:
            waiting.release()  # a tap waits for the change under way
            return super().wait(timeout)

    monkeypatch.setattr(state_cache, "Event", CountedEvent)

    def counted_apply(state: Any, action: Action) -> Any:
        applied.append(action)
        return engine.apply(state, action)

    monkeypatch.setattr("companion.services.apply", counted_apply)
    monkeypatch.setattr(repo, "change", held(real_change, inside, release))
    answers: list[object] = []

    def tap() -> None:
        try:
            answers.append(services.act(game_id, action, 0, cards, storage).version)
        except StaleVersion as stale:
            answers.append(stale.now)

    first = threading.Thread(target=tap)
    first.start()
    assert inside.wait(10)
    others = [threading.Thread(target=tap) for _ in range(3)]
    for thread in others:
        thread.start()
    for _ in others:  # each of them is waiting before the first change ends
        assert waiting.acquire(timeout=10)
    release.set()
    for thread in [first, *others]:
        thread.join(10)
    assert applied == [action]
    assert answers[0] == 1
    assert [(a.version, a.state) for a in answers[1:]] == [  # type: ignore[attr-defined]
        (1, services.load(game_id, cards, storage).state)
    ] * 3
    assert len(repo.events(game_id)) == 1


def test_a_change_that_hangs_holds_the_next_tap_only_so_long(repo, cards, monkeypatch):
    """A change stuck in the database (a slow disk, a lock) holds the other taps of its
    game only CHANGE_WAIT_SECONDS; then they go on and the version check decides."""
    storage = Storage(repo, StateCache())
    game_id = services.create_game(solo_setup(), cards, storage)
    action = first_legal(storage, game_id, cards)
    inside, release = threading.Event(), threading.Event()
    real_change = repo.change

    monkeypatch.setattr(state_cache, "CHANGE_WAIT_SECONDS", 0.01)
    monkeypatch.setattr(repo, "change", held(real_change, inside, release))
    first = threading.Thread(target=lambda: services.act(game_id, action, 0, cards, storage))
    first.start()
    assert inside.wait(10)
    monkeypatch.setattr(repo, "change", real_change)
    try:
        with pytest.raises(StaleVersion):  # the hanging change had bumped the version
            services.act(game_id, action, 0, cards, storage)
        assert first.is_alive()
    finally:
        release.set()
        first.join(10)
    assert len(repo.events(game_id)) == 1


def test_an_intent_on_a_game_deleted_meanwhile_is_not_found(repo, cards):
    tablet, phone = restarted(repo), restarted(repo)
    game_id = services.create_game(solo_setup(), cards, tablet)
    action = first_legal(tablet, game_id, cards)
    services.delete_game(game_id, phone)
    with pytest.raises(GameNotFound):
        services.act(game_id, action, 0, cards, tablet)
    assert repo.games == {} and repo.logs == {}


def test_an_intent_from_a_deleted_game_is_refused_by_the_game_that_got_its_id(repo, cards):
    """A restored backup can give an id again; the process that still caches the deleted
    game (or the page that still shows it) must not write into the new one."""
    tablet, phone = restarted(repo), restarted(repo)
    game_id = services.create_game(solo_setup(), cards, tablet)
    old = services.load(game_id, cards, tablet)  # the tablet caches it at version 0
    services.delete_game(game_id, phone)
    repo.ids = itertools.count(game_id)  # the id is given again
    assert services.create_game(solo_setup(), cards, phone) == game_id
    action = first_legal(phone, game_id, cards)
    for storage in (tablet, phone):  # from the stale cache, and from the database
        with pytest.raises(services.OtherGame):
            services.act(game_id, action, 0, cards, storage, created=old.created)
        with pytest.raises(services.OtherGame):
            services.delete_game(game_id, storage, created=old.created)
    assert repo.logs[game_id] == [] and repo.version(game_id) == 0


@pytest.mark.parametrize("game_id", [0, -1, 42, 2**63])
def test_an_unknown_game_is_not_found_by_any_use_case(storage, cards, game_id):
    calls: list[Callable[[], object]] = [
        lambda: services.load(game_id, cards, storage),
        lambda: services.current_version(game_id, storage),
        lambda: services.summary(game_id, storage),
        lambda: services.delete_game(game_id, storage),
        lambda: services.undo(game_id, 0, cards, storage),
        lambda: services.redo(game_id, 0, cards, storage),
    ]
    for call in calls:
        with pytest.raises(GameNotFound):
            call()


def test_an_illegal_intent_stores_nothing(storage, repo, cards):
    game_id = services.create_game(solo_setup(), cards, storage)
    action = first_legal(storage, game_id, cards)
    services.act(game_id, action, 0, cards, storage)
    with pytest.raises(IllegalAction):
        services.act(game_id, action, 1, cards, storage)  # the space is taken now
    assert len(repo.events(game_id)) == 1 and repo.version(game_id) == 1


def test_undo_answers_from_the_saved_states_without_replaying(storage, repo, cards, monkeypatch):
    game_id = services.create_game(solo_setup(), cards, storage)
    before = services.load(game_id, cards, storage)
    after = services.act(game_id, first_legal(storage, game_id, cards), 0, cards, storage)

    def no_replay(*args: object) -> None:
        raise AssertionError("Undo replayed the log")

    monkeypatch.setattr(state_cache, "replay", no_replay)
    view = services.undo(game_id, after.version, cards, storage)
    assert view.state == before.state
    assert (view.version, view.can_undo, view.can_redo) == (2, False, True)
    assert [(e.seq, e.undone) for e in repo.events(game_id)] == [(1, True)]


def test_undo_without_saved_states_replays_the_log(storage, repo, cards):
    game_id = services.create_game(solo_setup(), cards, storage)
    earlier = play(storage, game_id, cards, 2)
    later = play(storage, game_id, cards, 1)
    fresh = restarted(repo)
    view = services.undo(game_id, later.version, cards, fresh)
    assert view.state == earlier.state and view.version == later.version + 1


def test_redo_reapplies_the_undone_intent(storage, repo, cards):
    game_id = services.create_game(solo_setup(), cards, storage)
    done = play(storage, game_id, cards, 1)
    services.undo(game_id, 1, cards, storage)
    view = services.redo(game_id, 2, cards, restarted(repo))
    assert view.state == done.state
    assert (view.version, view.can_undo, view.can_redo) == (3, True, False)
    assert [(e.seq, e.undone) for e in repo.events(game_id)] == [(1, False)]


def test_nothing_to_undo_or_redo_is_an_illegal_intent(storage, repo, cards):
    game_id = services.create_game(solo_setup(), cards, storage)
    with pytest.raises(IllegalAction, match="Nothing to undo"):
        services.undo(game_id, 0, cards, storage)
    with pytest.raises(IllegalAction, match="Nothing to redo"):
        services.redo(game_id, 0, cards, storage)
    assert repo.version(game_id) == 0


def test_a_new_intent_drops_what_was_undone(storage, repo, cards):
    game_id = services.create_game(solo_setup(), cards, storage)
    play(storage, game_id, cards, 2)
    services.undo(game_id, 2, cards, storage)
    view = services.undo(game_id, 3, cards, storage)
    other = legal_actions(view.state)[1]
    view = services.act(game_id, other, view.version, cards, storage)
    assert (view.can_undo, view.can_redo) == (True, False)
    assert [(e.seq, e.undone) for e in repo.events(game_id)] == [(1, False)]


def test_games_are_listed_and_deleted(storage, cards):
    first = services.create_game(solo_setup(), cards, storage)
    second = services.create_game(replace(solo_setup(seed=2), sets=("base", "ix")), cards, storage)
    play(storage, first, cards, 1)
    assert [game.id for game in services.list_games(storage)] == [first, second]
    summary = services.summary(second, storage)
    assert (summary.mode, summary.round, summary.status, summary.ix) == ("solo", 1, "active", True)
    services.delete_game(first, storage)
    assert [game.id for game in services.list_games(storage)] == [second]
    assert storage.states.get(first) is None


def test_the_game_list_keeps_to_the_games_in_progress_or_the_finished_ones(storage, cards, repo):
    playing = services.create_game(solo_setup(), cards, storage)
    finished = services.create_game(solo_setup(seed=2), cards, storage)
    repo.games[finished] = replace(repo.games[finished], status="ended")
    assert [g.id for g in services.list_games(storage, active=True)] == [playing]
    assert [g.id for g in services.list_games(storage, active=False)] == [finished]
    assert {g.id for g in services.list_games(storage)} == {playing, finished}
