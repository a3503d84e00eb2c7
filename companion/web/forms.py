"""Turn posted form fields into engine actions and setups; bad input -> IllegalAction."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import replace

from flask_babel import lazy_gettext as _l

from companion import services
from companion.rules.actions import (
    Acquire,
    Action,
    Adjust,
    Choose,
    CornerTheMarket,
    Dreadnought,
    Freighter,
    IllegalAction,
    PlaceAgent,
    Reveal,
    SetControl,
    SetTiebreak,
    Tech,
    Voice,
)
from companion.rules.hagal import EXPERT_DEPLOYMENT
from companion.rules.setup import drawn_first_player
from companion.rules.state import (
    DIFFICULTIES,
    MODES,
    MULTIPLAYER,
    Mode,
    Options,
    SeatSetup,
    Setup,
)
from companion.web.language import gettext as _
from companion.web.language import house_name

MAX_TEXT = 80
COLORS = ("red", "blue", "green", "yellow")
# The new-game form's expansion choice and the card sets it plays with.
EXPANSIONS: dict[str, tuple[str, ...]] = {"base": ("base",), "ix": ("base", "ix")}
# A game's mode as the pages name it (home, delete, the new-game form's defaults).
MODE_NAMES = {
    "solo": _l("Solo"),
    "2p": _l("Two players"),
    "3p": _l("Three players"),
    "4p": _l("Four players"),
}
DRAW = "draw"  # the first player of three or four, drawn by the app [RB p.5, H]


def _text(form: Mapping[str, str], name: str, default: str | None = None) -> str:
    value = form.get(name, default)
    if value is None:
        raise IllegalAction(_("Missing %(field)s.", field=name))
    value = str(value).strip()
    if len(value) > MAX_TEXT:
        raise IllegalAction(_("%(field)s is too long.", field=name))
    return value


def _int(form: Mapping[str, str], name: str, default: int | None = None) -> int:
    raw = form.get(name)
    if raw is None or raw == "":
        if default is None:
            raise IllegalAction(_("Missing %(field)s.", field=name))
        return default
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise IllegalAction(_("%(field)s must be a whole number.", field=name)) from None
    if abs(value) > 10**6:
        raise IllegalAction(_("%(field)s is out of range.", field=name))
    return value


def version(form: Mapping[str, str]) -> int | None:
    """The version the page was rendered from, or None if missing or malformed."""
    raw = form.get("version")
    try:
        return int(str(raw)) if raw is not None else None
    except ValueError:
        return None


class MissingStamp(services.StaleVersion):
    """A write that names no game (no `created` stamp): a page from before the stamps, or
    not from this app. Answered as a stale page is (409, nothing changed)."""


def created(form: Mapping[str, str], game_id: int = 0) -> str:
    """The stamp of the game the page was rendered from (GameView.created), which every
    write about a game must send: MissingStamp when it is missing or empty."""
    raw = form.get("created")
    if not raw:
        raise MissingStamp(game_id)
    return str(raw)


def action_from(form: Mapping[str, str]) -> Action:
    """Build the action a form describes."""
    kind = _text(form, "action")
    if kind == "place":
        return PlaceAgent(_text(form, "house"), _text(form, "space"), _flag(form, "infiltrate"))
    if kind == "reveal":
        return Reveal(_text(form, "house"))
    if kind == "choose":
        return Choose(_text(form, "option"))
    if kind == "voice":
        return Voice(_text(form, "house"), _text(form, "space"))
    if kind == "adjust":
        return Adjust(
            _text(form, "house"),
            _text(form, "field"),
            _int(form, "delta"),
            _text(form, "reason", "manual"),
        )
    if kind == "set_control":
        return SetControl(_text(form, "space"), _text(form, "house", ""))
    if kind == "tiebreak":
        return SetTiebreak(
            _text(form, "house"),
            _int(form, "spice"),
            _int(form, "solari"),
            _int(form, "water"),
            _int(form, "garrison"),
        )
    if kind == "acquire":
        return Acquire(
            _text(form, "house"), _text(form, "card"), _int(form, "copy"), _flag(form, "move")
        )
    if kind == "corner":
        return CornerTheMarket(_text(form, "house"), _int(form, "own"), _int(form, "other", 0))
    if kind == "freighter":
        return Freighter(_text(form, "house"), _text(form, "op"))
    if kind == "dreadnought":
        return Dreadnought(_text(form, "house"), _text(form, "op"))
    if kind == "tech":
        return Tech(_text(form, "house"), _text(form, "op"), _text(form, "tile", ""))
    raise IllegalAction(_("Unknown action."))


def _flag(form: Mapping[str, str], name: str) -> bool:
    return form.get(name) in ("on", "1", "true", "yes")


def setup_from(form: Mapping[str, str], seed: int) -> Setup:
    """Build a setup from the new-game form; the engine checks the rules of it."""
    chosen = _text(form, "mode")
    if chosen not in MODES:
        raise IllegalAction(_("Choose solo, two, three or four players."))
    mode = MODES[MODES.index(chosen)]  # the Mode itself, typed
    expansion = _text(form, "expansion", "base")
    if expansion not in EXPANSIONS:
        raise IllegalAction(_("Choose the base game or the base game with Rise of Ix."))
    ix = expansion == "ix"
    rivals = mode in ("solo", "2p")  # House Hagal's variants and rulings need Rivals
    # Like the solo variants in a two-player game, the Ix-only options are dropped with
    # the base game, and the Rivals' options with three or four players: the page hides
    # them then, but a browser still posts their boxes.
    options = Options(
        brutal_escalation=mode == "solo" and _flag(form, "brutal_escalation"),
        churn=mode == "solo" and _flag(form, "churn"),
        physical_hagal=rivals and _flag(form, "physical_hagal"),
        physical_conflicts=_flag(form, "physical_conflicts"),
        epic=ix and _flag(form, "epic"),
        physical_tech=ix and _flag(form, "physical_tech"),
        hagal_dreadnought_home=ix and mode == "2p" and _flag(form, "hagal_dreadnought_home"),
        swords_need_troops=ix and rivals and _flag(form, "swords_need_troops"),
        epic_rivals_standard=ix
        and mode == "solo"
        and _flag(form, "epic")
        and _flag(form, "epic_rivals_standard"),
        # Only solo Rivals deploy by the Expert rule and own Tech tiles [RB p.20; IX p.8].
        expert_dreadnoughts_deploy=ix
        and mode == "solo"
        and _text(form, "difficulty") in EXPERT_DEPLOYMENT
        and _flag(form, "expert_dreadnoughts_deploy"),
        transports_kept_after_combat=ix
        and mode == "solo"
        and _flag(form, "transports_kept_after_combat"),
        brutal_first_card_out=mode == "solo"
        and _flag(form, "brutal_escalation")
        and _flag(form, "brutal_first_card_out"),
        turn_clock=_flag(form, "turn_clock"),
    )
    sets = EXPANSIONS[expansion]
    if mode in MULTIPLAYER:
        return _multiplayer_setup(form, mode, seed, options, sets)
    for name in ("p1_color", "p2_color", "r1_color", "r2_color", "hagal_color"):
        if name in form and form[name] not in COLORS:
            raise IllegalAction(_("Choose one of the four player colors."))
    if mode == "solo":
        difficulty = _text(form, "difficulty")
        if difficulty not in DIFFICULTIES:
            raise IllegalAction(_("Choose a difficulty."))
        return Setup(
            mode="solo",
            seed=seed,
            # Not "You": the log's sentences read "You's strength", "You takes".
            humans=(_seat(form, "p1", "Player 1"),),
            rivals=(_seat(form, "r1", "Left Rival"), _seat(form, "r2", "Right Rival")),
            difficulty=difficulty,
            options=options,
            sets=sets,
        )
    return Setup(
        mode="2p",
        seed=seed,
        humans=(_seat(form, "p1", "Player 1"), _seat(form, "p2", "Player 2")),
        rivals=(SeatSetup("House Hagal", "", _text(form, "hagal_color")),),
        first_player=_int(form, "first_player", 0),
        options=options,
        sets=sets,
    )


def _multiplayer_setup(
    form: Mapping[str, str], mode: Mode, seed: int, options: Options, sets: tuple[str, ...]
) -> Setup:
    """Three or four players, each with a name, a color and a leader, in clockwise order;
    the first player chosen or drawn from the seed [RB pp.4-5, D, G and H]."""
    players = MULTIPLAYER[mode]
    humans = []
    for n in range(1, players + 1):
        unnamed = f"Player {n}"
        for field, problem in (
            ("leader", _("Choose a leader for %(player)s.", player=house_name(unnamed))),
            ("color", _("Choose a color for %(player)s.", player=house_name(unnamed))),
        ):
            if not str(form.get(f"p{n}_{field}", "")).strip():
                raise IllegalAction(problem)
        if form[f"p{n}_color"] not in COLORS:
            raise IllegalAction(_("Choose one of the four player colors."))
        humans.append(_seat(form, f"p{n}", unnamed))
    first = form.get(f"first_player_{mode}", DRAW)
    drawn = first == DRAW
    return Setup(
        mode=mode,
        seed=seed,
        humans=tuple(humans),
        rivals=(),
        first_player=drawn_first_player(seed, players)
        if drawn
        else _int(form, f"first_player_{mode}"),
        options=replace(options, draw_first_player=drawn),
        sets=sets,
    )


def _without_controls(text: str) -> str:
    """`text` without control characters (NUL included; PostgreSQL can't store it): the
    ones that break a line or tab become spaces, the others are dropped."""
    return "".join(
        (" " if char.isspace() else "") if unicodedata.category(char) == "Cc" else char
        for char in text
    ).strip()


def _seat(form: Mapping[str, str], seat: str, unnamed: str) -> SeatSetup:
    """The seat whose fields are named `seat`_name, _leader and _color."""
    return SeatSetup(
        _without_controls(_text(form, f"{seat}_name", "")) or unnamed,
        _text(form, f"{seat}_leader"),
        _text(form, f"{seat}_color"),
    )
