#!/usr/bin/env bash
# The PostgreSQL leg of the tests: starts a throwaway PostgreSQL cluster (Debian's package,
# in a temporary folder, on a loopback port) and runs the tests that touch the database
# against it (COMPANION_TEST_DATABASE_URI); pytest's arguments may follow (test paths first
# run only those). Needs .venv (scripts/test.sh makes it).
# Without PostgreSQL and no apt-get to install it, it says SKIPPED and exits with 3.
set -euo pipefail
cd "$(dirname "$0")/.."
pg_bin() { { ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true; } | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ] && command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi
BIN="$(pg_bin)"
if [ -z "$BIN" ]; then
  echo "PostgreSQL leg SKIPPED: PostgreSQL is not installed and apt-get is not available." >&2
  exit 3
fi
# initdb refuses to run as root: then the cluster belongs to the package's postgres user.
AS=()
if [ "$(id -u)" = "0" ]; then AS=(runuser -u postgres --); fi
DIR="$(mktemp -d /tmp/companion-pg.XXXXXX)"
chmod 755 "$DIR"
if [ "$(id -u)" = "0" ]; then chown postgres "$DIR"; fi
FREE_PORT='import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
PORT="${COMPANION_TEST_PG_PORT:-$(.venv/bin/python -c "$FREE_PORT")}"
stop() {
  "${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT
"${AS[@]}" "$BIN/initdb" -D "$DIR/data" -U companion -A trust -E UTF8 --no-locale >/dev/null
"${AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -o \
  "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c max_connections=200 -c fsync=off" start \
  >/dev/null
"$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U companion companion_test
export COMPANION_TEST_DATABASE_URI="postgresql+psycopg://companion@127.0.0.1:$PORT/companion_test"
echo "PostgreSQL leg: $("$BIN/postgres" --version) on 127.0.0.1:$PORT"
# The database, route, fuzz, crash (kill -9) and race tests; or the tests named first.
TESTS=(tests/db tests/web tests/server tests/stats tests/test_services.py)
# Not the files whose only database work is storing a game and reading it to draw a page
# (the route tests above cover that), nor the TLS front's and the start's options (no
# database): on PostgreSQL they would test the same reads again, for a third of the time.
DRAWN_ONLY=(
  tests/web/test_amount_labels.py tests/web/test_card_words.py tests/web/test_checklist.py
  tests/web/test_engine_buttons.py tests/web/test_fast_loading.py
  tests/web/test_first_player_names.py tests/web/test_hosts.py tests/web/test_ix_table.py
  tests/web/test_kept_html.py tests/web/test_lan_address.py tests/web/test_module_size.py
  tests/web/test_multiplayer_table.py tests/web/test_present_imports.py
  tests/web/test_round_end_page.py tests/web/test_rulings_web.py tests/web/test_table_parts.py
  tests/web/test_tap_answer.py tests/web/test_undo_words.py tests/web/test_vp_sources.py
  tests/web/test_winner_line.py
  tests/server/test_https.py tests/server/test_https_headers.py
  tests/server/test_https_slow_clients.py tests/server/test_tls.py
  tests/server/test_tls_front.py tests/server/test_serve_host.py
)
SKIP=()
for path in "${DRAWN_ONLY[@]}"; do SKIP+=("--ignore=$path"); done
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then TESTS=(); SKIP=(); fi
# One worker a core (pytest-xdist), each on its own database (tests/database.py).
.venv/bin/python -m pytest -n auto --dist loadfile -m "not browser" "${SKIP[@]}" "${TESTS[@]}" "$@"
