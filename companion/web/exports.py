"""The exports (CSV, JSON), the import of an export or a backup file, and the backup
download. The routes are the history blueprint's (their endpoints stay `history.*`)."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from flask import Response, render_template, request
from flask.typing import ResponseReturnValue

from companion.db import db
from companion.db.backup import BackupRefused, backup_to
from companion.stats import store, transfer, untrusted
from companion.web.history import bp, catalog
from companion.web.language import gettext as _
from companion.web.language import ngettext


def _download(body: str, mimetype: str, name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")


@bp.get("/export/games.csv")
def export_csv() -> ResponseReturnValue:
    text = transfer.csv_text(reversed(store.for_app().records()))
    return _download(text, "text/csv", f"dune-games-{_stamp()}.csv")


@bp.get("/export/games.json")
def export_json() -> ResponseReturnValue:
    text = json.dumps(transfer.export_json(), ensure_ascii=False, indent=1)
    return _download(text, "application/json", f"dune-games-{_stamp()}.json")


@bp.get("/export/backup.sqlite")
def backup() -> ResponseReturnValue:
    folder = Path(tempfile.mkdtemp(prefix="companion-backup-"))
    try:
        copied = backup_to(db.engine.url, folder / "backup.sqlite")
    except (BackupRefused, sqlite3.Error, OSError) as exc:
        return render_template("history/message.html", message=str(exc), ok=False), 409
    data = copied.path.read_bytes()
    copied.path.unlink()
    folder.rmdir()
    response = Response(data, mimetype="application/vnd.sqlite3")
    response.headers["Content-Disposition"] = f'attachment; filename="companion-{_stamp()}.sqlite"'
    return response


@bp.post("/import")
def import_games() -> ResponseReturnValue:
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _message(_("Choose a games export (.json) or a backup (.sqlite) to import."), 422)
    raw = upload.read(untrusted.MAX_IMPORT_BYTES + 1)
    if len(raw) > untrusted.MAX_IMPORT_BYTES:
        return _message(_("That file is too large."), 413)
    try:
        imported = transfer.import_json(transfer.document_from_upload(raw), catalog())
    except transfer.ImportRefused as exc:
        return _message(str(exc), 422)
    already = ngettext("%(num)d was already here", "%(num)d were already here", imported.skipped)
    return _message(
        ngettext(
            "Imported %(num)d game; %(already)s.",
            "Imported %(num)d games; %(already)s.",
            imported.added,
            already=already,
        ),
        200,
    )


def _message(text: str, status: int) -> ResponseReturnValue:
    return render_template("history/message.html", message=text, ok=status == 200), status
