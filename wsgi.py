"""WSGI entry point: `flask --app wsgi ...` or any WSGI server (`gunicorn wsgi:app`).

The app brings the database schema up to date (the migrations) before it serves,
however it is started; worker processes starting together take turns through a lock
file in the instance folder.
"""

from __future__ import annotations

from companion import create_app
from companion.db.migrate import migrated

app = migrated(create_app())
