"""A game's title: the line of the game list, the pages' titles.

Made here, not by the services: a game stores its title in English (`title_for`, given to
`services.create_game`), and every page shows it rebuilt from the game's setup, in the
reader's language (`game_title`).
"""

from __future__ import annotations

from flask import current_app

from companion.rules import codec
from companion.rules.actions import IllegalAction
from companion.rules.catalog import Catalog
from companion.rules.i18n import N_, Message, Name, listed
from companion.rules.state import Setup
from companion.services import GameSummary, GameView
from companion.web.language import translated

# The difficulty as a game's title names it (the stored English title says "(mentat)").
DIFFICULTY_WORDS = {
    "mercenary": N_("mercenary"),
    "sardaukar": N_("sardaukar"),
    "mentat": N_("mentat"),
    "kwisatz": N_("kwisatz"),
}


def title_for(setup: Setup, catalog: Catalog) -> Message:
    """A game's line in the game list: its players against its rivals (English, kept as the
    stored title; a Message, so a page shows it in the reader's language)."""

    def leader(lid: str) -> str:
        found = catalog.leaders.get(lid)
        return Name(found.name, "leader") if found else lid

    players = " & ".join(s.name for s in setup.humans)
    if setup.multiplayer:  # no House Hagal, no Rivals: the players are the title
        return Message(N_("%(players)s"), players=players)
    if setup.mode != "solo":
        return Message(N_("%(players)s vs House Hagal"), players=players)
    names = [leader(s.leader) for s in setup.rivals]
    rivals = listed(names)  # joined in the reader's language where the title is shown
    word = DIFFICULTY_WORDS.get(setup.difficulty or "")
    return Message(
        N_("%(players)s vs %(rivals)s (%(difficulty)s)"),
        players=players,
        rivals=rivals,
        difficulty=Message(word) if word else str(setup.difficulty),
    )


def shown_title(setup: Setup | dict[str, object], stored: str, catalog: Catalog) -> str:
    """A stored game's title rebuilt from its setup, so a page can translate it; the stored
    title when the setup can't be read."""
    try:
        decoded = setup if isinstance(setup, Setup) else codec.decode_setup(setup)
    except IllegalAction:
        return stored
    return title_for(decoded, catalog)


def game_title(game: GameView | GameSummary) -> str:
    """The game's title in the reader's language (the template filter `game_title`)."""
    setup = game.state.setup if isinstance(game, GameView) else game.setup
    catalog = current_app.extensions.get("catalog")
    if not isinstance(catalog, Catalog):
        return game.title
    return translated(shown_title(setup, game.title, catalog))
