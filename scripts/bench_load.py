"""Measure what a tablet downloads to open the table screen, with and without compression.

    nice .venv/bin/python scripts/bench_load.py

Starts the real server (waitress, as `companion.serve` runs it) on a temporary SQLite file
with a solo game a few taps in, then loads the table screen as a browser does: the page,
then every static file it links. It does this twice over one keep-alive connection:
once asking for no compression (what every load cost before issue 20) and once with
`Accept-Encoding: gzip, deflate` (what a browser sends over plain HTTP). For each it prints
the bytes on the wire, the server's and this client's CPU time and the wall time; then
how long those bytes take on a weak Wi-Fi (1 Mbit/s) and what a second visit asks for.

    .venv/bin/python scripts/bench_load.py --clients 4

measures instead N devices tapping one game at the same moment, once a second, with a
live view polling it, against the real `companion.serve` (scripts/bench_club.py with
one game and N tablets: see there).
"""

from __future__ import annotations

import argparse
import http.client
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

from waitress.server import create_server

from companion import create_app, services
from companion.db.migrate import migrated
from companion.rules.engine import legal_actions
from companion.sim import make_setup

WEAK_WIFI_BYTES_PER_S = 1_000_000 / 8
ROUNDS = 20  # loads per variant; the medians are printed


def solo_game(app: object) -> int:
    """A solo game with a few taps in its log."""
    with app.app_context():  # type: ignore[attr-defined]
        catalog = app.extensions["catalog"]  # type: ignore[attr-defined]
        game_id = services.create_game(make_setup(catalog, "solo", "mentat", seed=1), catalog)
        for _ in range(6):
            view = services.load(game_id, catalog)
            services.act(game_id, legal_actions(view.state)[0], view.version, catalog)
        return game_id


def fetch(connection: http.client.HTTPConnection, path: str, encoding: str) -> tuple[bytes, str]:
    connection.request("GET", path, headers={"Accept-Encoding": encoding})
    response = connection.getresponse()
    body = response.read()
    return body, response.getheader("Cache-Control") or ""


def static_urls(port: int, path: str) -> list[str]:
    """The static files the table screen links (what a browser fetches next)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    html, _ = fetch(connection, path, "identity")
    connection.close()
    return sorted({u.decode() for u in re.findall(rb'(?:href|src)="(/static/[^"]+)"', html)})


def load_table(port: int, urls: list[str], encoding: str) -> tuple[int, int, list[str]]:
    """One first load: bytes of the page, bytes of all, and each static file's caching."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    page, _ = fetch(connection, urls[0], encoding)
    total = len(page)
    caching = []
    for url in urls[1:]:
        body, cache_control = fetch(connection, url, encoding)
        total += len(body)
        caching.append(f"{url.partition('?')[0]}: {cache_control or 'no-cache'}")
    connection.close()
    return len(page), total, caching


def measure(port: int, urls: list[str], encoding: str) -> None:
    walls, cpus = [], []
    for _ in range(ROUNDS):
        wall, cpu = time.perf_counter(), time.process_time()
        page, total, caching = load_table(port, urls, encoding)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    walls.sort()
    cpus.sort()
    print(
        f"{encoding:>14}: page {page / 1024:5.1f} KB, page + {len(urls) - 1} static files "
        f"{total / 1024:6.1f} KB; median wall {walls[ROUNDS // 2] * 1000:5.1f} ms, CPU "
        f"(server + client) {cpus[ROUNDS // 2] * 1000:5.1f} ms; its transfer at 1 Mbit/s "
        f"{total / WEAK_WIFI_BYTES_PER_S:4.2f} s"
    )
    if encoding != "identity":
        print("second visit: none of them is asked for again (" + "; ".join(caching) + ")")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="scripts/bench_load.py")
    parser.add_argument("--clients", type=int, help="N devices tapping one game at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="with --clients (20)")
    args, rest = parser.parse_known_args(argv)
    if args.clients is not None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_club

        club = ["--games", "1", "--tablets", str(args.clients), "--tap-every", "1"]
        club += ["--seconds", str(args.seconds)]
        bench_club.main([*club, *rest])
        return
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    with tempfile.TemporaryDirectory() as tmp:
        app = migrated(
            create_app(
                {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp) / 'load.sqlite'}"}
                | {"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False}
            )
        )
        path = f"/games/{solo_game(app)}"
        server = create_server(app, host="127.0.0.1", port=0, threads=4)
        threading.Thread(target=server.run, daemon=True).start()
        print(f"Table screen {path}, {ROUNDS} first loads each (one keep-alive connection):")
        urls = [path, *static_urls(server.effective_port, path)]
        for encoding in ("identity", "gzip, deflate"):
            measure(server.effective_port, urls, encoding)
        server.close()


if __name__ == "__main__":
    main()
