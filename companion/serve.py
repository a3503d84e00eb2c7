"""Start the companion for the table: `python -m companion.serve [--port 5000]`.

Brings the database schema up to date (migrations), then serves on every network
interface with waitress and prints the addresses to open on the tablet.
"""

from __future__ import annotations

import argparse
import socket
from collections.abc import Sequence

from flask_migrate import upgrade
from waitress import serve

from companion import create_app


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that other devices on the network can reach."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    return sorted(a for a in found if not a.startswith("127."))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.serve", description=__doc__)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args(argv)
    app = create_app()
    with app.app_context():
        upgrade()
    print(
        f"Games are stored in {app.config['SQLALCHEMY_DATABASE_URI']} "
        f"(instance folder: {app.instance_path})"
    )
    print(f"On this machine: http://localhost:{args.port}/")
    for address in lan_addresses():
        print(f"On the tablet (same network): http://{address}:{args.port}/")
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="companion")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
