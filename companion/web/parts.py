"""The table screen's game area, put together in Python, and the parts of it that almost
every tap changes, built in Python too: the banner, the board map, the game log, the
scoreboard, the Agent turn's panel, the rival turns and the rivals' panels. The panels
that change now and then (a question, the Conflict, the Tech tiles, purchases, the end) are
macros of games/_macros.html, made only when their part must be rendered again.

A placement re-renders the board spaces whose view changed (on a player's last Agent,
most of the 22, as each one's "No Agent left" appears), the log and, most often, the
Influence. As Jinja macros these cost some 20-30 µs a space and 70 µs each for the log
and the scoreboard (an attribute lookup, an escape and a Markup per expression, a call
frame per macro), and the template that put the parts together cost some 100 µs more
even when nothing in it changed: together the largest part of a write's time
(scripts/bench_web.py, scripts/count_web.py). Here they are f-strings whose every value
goes through `escape`, and the game's `Fragments` keep each one's HTML while its view is
equal. Like the macros of games/_macros.html, this HTML depends on nothing but the
arguments, the placeholders (cache.py) and the language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask import current_app
from markupsafe import Markup, escape

from companion.web.cache import HOUSE, PLACEHOLDER, VERSION, Fragments, ascii_html, piece
from companion.web.i18n import gettext as _
from companion.web.present import (
    AREAS,
    BOARD_COLUMNS,
    Chip,
    Page,
    RivalTurn,
    RivalView,
    ScoreView,
    SpaceView,
)

# The hidden fields every form posts: the CSRF token and the version it was made from.
HIDDEN = (
    f'<input type="hidden" name="csrf_token" value="{PLACEHOLDER}">\n'
    f'<input type="hidden" name="version" value="{VERSION}">'
)
_LABELS = dict(AREAS)


def _chip(c: Chip) -> Markup:
    return piece("chip", c.color, c.name)


def _place_form(url: Markup, house: str, space: str, extra: str = "", cls: str = "") -> str:
    """The opening of a form that places `house`'s Agent on `space`."""
    return (
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#game" '
        f'hx-swap="outerHTML"{cls}>\n{HIDDEN}\n'
        '<input type="hidden" name="action" value="place">\n'
        f'<input type="hidden" name="house" value="{escape(house)}">\n'
        f'<input type="hidden" name="space" value="{escape(space)}">{extra}\n'
    )


def space(s: SpaceView, acting: str, tap: bool, acting_ix: str, act_url: str) -> Markup:
    """One board space; `acting` (the house that would place there) is set when it is
    tappable, `acting_ix` when that house may infiltrate it [IX p.7]."""
    url = escape(act_url)
    out = [
        f'<div class="space{" occupied" if s.occupant else ""}{" combat" if s.combat else ""}"'
        f' id="space-{escape(s.id)}">\n',
        piece("info", "space", s.id, s.name),
        "\n",
    ]
    if tap:
        out.append(_place_form(url, acting, s.id))
        out.append('<button class="space-button" type="submit">\n')
    else:
        disabled = ' aria-disabled="true"' if s.problem else ""
        out.append(f'<div class="space-button"{disabled}>\n')
    out.append(piece("space_label", s.name, s.combat, s.cost))
    if s.requirement and not s.problem:
        out.append(piece("requirement", s.requirement))
    if s.bonus_spice is not None:
        has = " has" if s.bonus_spice else ""
        out.append(f'\n<span class="bonus{has}">+{s.bonus_spice} {escape(_("bonus spice"))}</span>')
    if s.control_bonus:
        who = _chip(s.controller) if s.controller else escape(_("nobody"))
        out.append(
            f'\n<span class="control">{escape(_("control:"))} {who} '
            f"({escape(s.control_bonus)})</span>"
        )
    if s.dreadnought:
        covers = (
            " · " + escape(_("covers %(house)s's marker", house=s.covered.name))
            if s.covered
            else ""
        )
        out.append(
            f'\n<span class="dreadnought">{escape(_("dreadnought on the flag"))}{covers}</span>'
        )
    if s.occupant:
        others = "".join(f" {_chip(c)}" for c in s.infiltrators)
        out.append(f'\n<span class="occupant">{_chip(s.occupant)}{others}</span>')
    if s.voice:
        out.append(f'\n<span class="voice">{escape(_("The Voice:"))} {_chip(s.voice)}</span>')
    if s.problem and not s.occupant:
        out.append(f'\n<span class="why">{escape(s.problem)}</span>')
    out.append("\n</button>\n</form>\n" if tap else "\n</div>\n")
    if s.infiltrate and acting_ix:
        title = _(
            "A card with the Infiltration icon sends the Agent past the enemy Agent here "
            "(Rise of Ix p.7)."
        )
        out.append(
            _place_form(
                url,
                acting_ix,
                s.id,
                '\n<input type="hidden" name="infiltrate" value="1">',
                ' class="infiltrate"',
            )
        )
        out.append(
            f'<button class="button small" type="submit" title="{escape(title)}">'
            f"{escape(_('Infiltrate'))}</button>\n</form>\n"
        )
    out.append("</div>")
    return Markup("".join(out))


def board(
    spaces: Mapping[str, Sequence[SpaceView]],
    parts: Fragments,
    act_url: str,
    interactive: bool = True,
) -> Markup:
    """The board's three columns of areas and spaces, as on the printed board; each space
    a kept part of the game's page. Spaces are tappable only when `interactive`."""
    out = [f'<section class="board" aria-label="{escape(_("Board"))}">']
    for column in BOARD_COLUMNS:
        out.append('\n<div class="board-column">')
        for area in column:
            in_area = spaces[area]
            if not in_area:
                continue
            out.append(
                f'\n<div class="area a-{area}">\n<h3>{escape(_LABELS[area])}</h3>\n'
                '<div class="spaces">\n'
            )
            for s in in_area:
                tap = interactive and s.tappable
                ix = HOUSE if interactive and s.infiltrate else ""
                out.append(
                    parts.get(
                        ("space", s.id, interactive),
                        space,
                        s,
                        HOUSE if tap else "",
                        tap,
                        ix,
                        act_url,
                    )
                )
                out.append("\n")
            out.append("</div>\n</div>")
        out.append("\n</div>")
    out.append("\n</section>")
    return Markup("".join(out))


_LINES: dict[tuple[int, str], str] = {}  # a log line's HTML, by round and sentence
LINES_KEPT = 5000


def _line(rnd: int, text: str) -> str:
    key = (rnd, text)
    html = _LINES.get(key)
    if html is None:
        if len(_LINES) >= LINES_KEPT:
            _LINES.clear()
        html = _LINES[key] = f'<li><span class="muted">R{rnd}</span> {escape(text)}</li>'
    return html


def log(lines: Iterable[tuple[int, str]]) -> Markup:
    """The game log, newest line first: (round, sentence) per line. A tap adds a line or
    a few to the 60 shown, so each line's HTML is kept."""
    items = "".join([_line(rnd, text) for rnd, text in lines])
    return Markup(
        f'<details class="log panel" open>\n<summary>{escape(_("Game log"))}</summary>\n'
        f"<ol reversed>\n{items}\n</ol>\n</details>"
    )


def _vp(rows: tuple[tuple[str, Chip, int, tuple[tuple[int, str, str, str], ...]], ...]) -> Markup:
    """The VP of each house, with its ledger (round, source, note, VP) behind a tap."""
    head = (
        f"<thead><tr><th>{escape(_('Round'))}</th><th>{escape(_('Source'))}</th><th></th>"
        "<th>VP</th></tr></thead>"
    )
    out = ['<ul class="vp">']
    for _id, house, vp, ledger in rows:
        lines = (
            "".join(
                f"<tr><td>{rnd}</td><td>{escape(source)}</td><td>{escape(note)}</td>"
                f"<td>{escape(delta)}</td></tr>"
                for rnd, source, note, delta in ledger
            )
            or f'<tr><td colspan="4">{escape(_("No VP yet."))}</td></tr>'
        )
        out.append(
            f'\n<li><details><summary>{_chip(house)} <strong class="vpnum">{vp}</strong> VP'
            f'</summary>\n<table class="ledger">{head}<tbody>{lines}</tbody></table>'
            "</details></li>"
        )
    out.append("\n</ul>")
    return Markup("".join(out))


def short_labels(houses: Sequence[Chip]) -> dict[Chip, str]:
    """A label of at most three characters per house for the Influence table's narrow
    columns, different for each house: the name's first three characters ("Ann", "Lef");
    where two names share them, the initials ("Player 1" and "Player 2": "P1", "P2"); where
    those are shared too, the first letter and the seat ("A1", "A2")."""
    first = [h.name.strip()[:3] for h in houses]
    labels = [
        label if first.count(label) == 1 else "".join(w[0] for w in h.name.split())[:3]
        for h, label in zip(houses, first, strict=True)
    ]
    if len(set(labels)) < len(labels) or "" in labels:
        labels = [f"{h.name.strip()[:1]}{seat}" for seat, h in enumerate(houses, 1)]
    return dict(zip(houses, labels, strict=True))


def _tiny(c: Chip, label: str) -> str:
    return (
        f'<span class="chip tiny c-{escape(c.color)}" title="{escape(c.name)}">'
        f"{escape(label)}</span>"
    )


def scoreboard(score: ScoreView, parts: Fragments, oob: bool = False) -> Markup:
    """VP (a kept part of its own: it changes far less often than the Influence) and the
    four Influence tracks with each Alliance's holder; `oob` for htmx's out-of-band swap."""
    swap = ' hx-swap-oob="true"' if oob else ""
    labels = short_labels(score.houses)
    houses = "".join(f"<th>{_tiny(h, labels[h])}</th>" for h in score.houses)
    rows = []
    for faction, name, values, ally in score.influence:
        cells = "".join(
            f'<td class="{"two four" if v >= 4 else "two" if v >= 2 else ""}">{v}</td>'
            for v in values
        )
        holder = _tiny(ally, labels.get(ally, ally.name[:3])) if ally else "—"
        rows.append(
            f'\n<tr class="f-{escape(faction)}"><th>{escape(name)}</th>{cells}'
            f"<td>{holder}</td></tr>"
        )
    return Markup(
        f'<aside id="scoreboard" class="scoreboard"{swap}>\n'
        f"<h2>{escape(_('Score'))}</h2>\n{parts.get('score-vp', _vp, score.vp)}\n"
        f"<h2>{escape(_('Influence'))}</h2>\n"
        f'<table class="influence">\n<thead><tr><th></th>{houses}'
        f"<th>{escape(_('Ally'))}</th></tr></thead>\n<tbody>{''.join(rows)}\n</tbody>\n"
        "</table>\n</aside>"
    )


def turn(
    acting: str, voice_spaces: Sequence[tuple[str, str]], buttons: str, act_url: str
) -> Markup:
    """A player's Agent turn: the `buttons` (Reveal, card effects: a kept part of their
    own), and The Voice with the spaces it may block, which change with each placement."""
    url = escape(act_url)
    options = "".join(f'<option value="{escape(i)}">{escape(n)}</option>' for i, n in voice_spaces)
    label = escape(_("Space opponents can't use until your next turn"))
    return Markup(
        f'<section class="turn panel">\n{buttons}\n<details class="voice-form">\n'
        f"<summary>{escape(_('Play The Voice'))}</summary>\n"
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#game" '
        f'hx-swap="outerHTML" class="inline">\n{HIDDEN}'
        '<input type="hidden" name="action" value="voice">'
        f'<input type="hidden" name="house" value="{escape(acting)}">\n'
        f"<label>{label}\n"
        f'<select name="space">{options}</select></label>\n'
        f'<button class="button" type="submit">{escape(_("Block it"))}</button>\n'
        "</form>\n</details>\n</section>"
    )


def _phase(phase: str) -> str:
    if phase == "round_start":
        return _("Round start")
    if phase == "agents":
        return _("Phase 2: Player turns")
    if phase == "combat":
        return _("Phase 3: Combat")
    if phase == "makers":
        return _("Phase 4: Makers")
    if phase == "recall":
        return _("Phase 5: Recall")
    return _("Game over")


def _undo_form(url: str, label: str, enabled: bool) -> str:
    url = escape(url)
    return (
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#game" '
        f'hx-swap="outerHTML">\n{HIDDEN}<button class="button" type="submit"'
        f"{'' if enabled else ' disabled'}>{escape(label)}</button>\n</form>"
    )


def banner(
    round_: int,
    phase: str,
    text: str,
    detail: str,
    color: str,
    can_undo: bool,
    can_redo: bool,
    undo_url: str,
    redo_url: str,
) -> Markup:
    """What happens now, in the colour of the house that acts, with Undo and Redo."""
    where = escape(_("Round %(n)s", n=round_) + " · " + _phase(phase))
    more = f"\n<p>{escape(detail)}</p>" if detail else ""
    return Markup(
        f'<header class="banner {"c-" + escape(color) if color else ""}">\n'
        f'<div class="banner-text">\n<p class="round">{where}</p>\n'
        f"<h1>{escape(text)}</h1>{more}\n</div>\n"
        f'<div class="undo">\n{_undo_form(undo_url, "↶ " + _("Undo"), can_undo)}\n'
        f"{_undo_form(redo_url, '↷ ' + _('Redo'), can_redo)}\n</div>\n</header>"
    )


MACROS = "games/_macros.html"


class Macros:
    """The macros of games/_macros.html with a page's context, made on first use: most taps
    render none of them (making the module costs some 20 µs)."""

    def __init__(self, context: Mapping[str, Any]) -> None:
        self.context = context
        self.module: Any = None

    def __getitem__(self, name: str) -> Any:
        return lambda *args: self.call(name, *args)

    def call(self, name: str, *args: object) -> str:
        if self.module is None:
            template = current_app.jinja_env.get_template(MACROS)
            self.module = template.make_module(dict(self.context))
        return str(getattr(self.module, name)(*args))


def _rival_turn(t: RivalTurn) -> str:
    """A rival's revealed House Hagal card and what to do with its pieces."""
    lines = "".join(f"<li>{escape(line)}</li>" for line in t.lines)
    listed = f"\n<ul>{lines}</ul>" if lines else ""
    return (
        f'\n<section class="hagal-card b-{escape(t.house.color)}">\n<p class="who">'
        f"{piece('chip', t.house.color, t.house.name)} <strong>{escape(t.card)}&nbsp;"
        f'<span class="swords">⚔{t.swords}</span></strong> '
        f"{piece('info', 'hagal', t.card_id, t.card)}</p>\n"
        f'<p class="where">{escape(_("Agent to %(space)s", space=t.space))}</p>'
        f"{listed}\n</section>"
    )


def game(p: Page, parts: Fragments, macros: Macros, error: str | None = None) -> Markup:
    """The table screen's game area (#game): the banner, what the table must do now, the
    board, the panels and the log."""
    c = macros.context
    act_url = c["act_url"]
    out = [
        f'<main id="game" class="game" data-version="{p.view.version}">\n',
        parts.get(
            "banner",
            banner,
            p.state.round,
            p.state.phase,
            p.banner,
            p.banner_detail,
            p.acting.color if p.acting else "",
            p.view.can_undo,
            p.view.can_redo,
            c["undo_url"],
            c["redo_url"],
        ),
    ]
    if error:
        out.append(
            ascii_html(f'\n<p class="error alerts" role="alert" id="error">{escape(error)}</p>')
        )
    out.append('\n<div class="actions">\n')
    if p.prompt:
        out.append(parts.get("prompt", macros["prompt"], p.prompt))
    if p.acting and p.acting.is_human and not p.prompt and p.state.phase == "agents":
        buttons = parts.get("turn-buttons", macros["turn_buttons"], HOUSE, p.factions, p.ix_turn)
        out.append(parts.get("turn", turn, HOUSE, p.voice_spaces, buttons, act_url))
    out.extend(ascii_html(_rival_turn(t)) for t in p.rival_turns)
    if p.just_now:
        lines = "".join(f"<li>{escape(line)}</li>" for line in p.just_now)
        out.append(ascii_html(f'\n<section class="just-now panel">\n<ul>{lines}</ul>\n</section>'))
    out.append("\n</div>\n")
    out.append(board(p.spaces, parts, act_url))
    if p.conflict:
        out.append(parts.get("conflict", macros["conflict"], p.conflict))
    out.append(rivals_part(p.rivals, parts, macros))
    if p.tech:
        out.append(parts.get("tech", macros["tech"], p.tech))
    if p.purchases:
        out.append(parts.get("purchases", macros["purchases"], p.purchases))
    if p.state.phase == "ended":  # once a game: not kept
        out.append(macros.call("end", p))
    out.append("\n")
    out.append(piece("corrections", c["fix_url"]))
    out.append("\n")
    out.append(parts.get("log", log, p.log))
    out.append("\n</main>")
    return Markup("".join(out))


def _dl(label: str, value: object) -> str:
    return f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>"


def rivals(rs: Sequence[RivalView], macros: Macros) -> Markup:
    """One panel per rival: Agents, troops and, for solo Rivals, resources, VP and the
    Swordmaster; their Rise of Ix pieces and tiles as the Tech panel shows a player's."""
    out = ['<section class="rivals">']
    for r in rs:
        leader = (
            f" <small>{escape(r.leader_name)}</small> "
            f"{piece('info', 'leader', r.leader, r.leader_name)}"
            if r.leader
            else ""
        )
        rows = [
            _dl(_("Agents left"), r.agents),
            _dl(_("Garrison"), r.garrison),
            _dl(_("In Conflict"), r.troops),
        ]
        if r.rival:
            rows += [
                _dl(_("Solari"), r.solari),
                _dl(_("Spice"), r.spice),
                _dl(_("Water"), r.water),
                _dl(_("Intrigue"), r.intrigue),
                _dl("VP", r.vp),
                _dl(_("Swordmaster"), r.swordmaster),
            ]
        if r.mentat:
            rows.append(_dl(_("Mentat"), _("this round")))
        if r.ix:
            rows.append(macros.call("ix_pieces", r.ix))
        tiles = macros.call("tech_owned", r.ix) if r.ix and r.ix.tech else ""
        out.append(
            f'\n<article class="rival panel b-{escape(r.chip.color)}">\n'
            f"<h3>{_chip(r.chip)}{leader}</h3>\n<dl>{''.join(rows)}</dl>{tiles}\n</article>"
        )
    out.append("\n</section>")
    return Markup("".join(out))


def rivals_part(rs: Sequence[RivalView], parts: Fragments, macros: Macros) -> Markup:
    """The rivals' panels as a kept part (its key is the views alone, not the macros)."""
    return parts.get("rivals", lambda views: rivals(views, macros), rs)
