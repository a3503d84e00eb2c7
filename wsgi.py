"""WSGI entry point: `flask --app wsgi ...` or any WSGI server."""

from companion import create_app

app = create_app()
