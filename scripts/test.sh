#!/usr/bin/env bash
# Install everything (Python packages into .venv; Debian's chromium and a CJK font for the
# browser tests) and run every check: lint, types, card data, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# A CJK font (1.6 MB) so the layout tests measure Chinese, Japanese and Korean glyphs, not
# the boxes of a missing font.
missing=""
command -v chromium >/dev/null 2>&1 || missing="chromium"
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing="$missing fonts-wqy-microhei"
if [ -n "$missing" ] && command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python -m companion.cards
# Every core: pytest-xdist runs one worker a core, a test file per worker at a time (its
# module fixtures, a browser or a played game, made once).
# --tb=native: Python 3.11.7 can raise "SystemError: AST constructor recursion depth
# mismatch" while pytest parses the source of a failing browser test's traceback (Playwright
# runs in a greenlet), which crashes the worker and hides the failure; the plain traceback
# needs no parsing (pytest-dev/pytest#10763, pytest-dev/pytest-cov#606).
.venv/bin/python -m pytest -n auto --dist loadfile --tb=native "$@"
