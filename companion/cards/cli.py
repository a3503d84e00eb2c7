"""`flask --app wsgi cards check [--json]`: the card_db check as a Flask CLI command.

Register it in the app factory with `app.cli.add_command(cards_cli)`.
"""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

from companion.cards import default_root
from companion.cards.__main__ import check

__all__ = ["cards_cli"]


def _echo(text: str, to_stderr: bool) -> None:
    click.echo(text, err=to_stderr)


# An AppGroup runs its commands inside the app context, so `check` reads the app's
# CARD_DB_PATH (which may differ from the repository's card_db).
cards_cli = AppGroup("cards", help="Check the card_db game data.")


@cards_cli.command("check")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="card_db folder (default: the app's CARD_DB_PATH, else the repository's).",
)
def check_command(as_json: bool, root: Path | None) -> None:
    """Validate every card_db file; print the copies per set and kind, or every problem."""
    if root is None:
        configured = current_app.config.get("CARD_DB_PATH")
        root = Path(configured) if configured else default_root()
    code = check(root, as_json, _echo)
    if code:
        click.get_current_context().exit(code)
