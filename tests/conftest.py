from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests import database

# derandomize: every run tries the same examples, so a run's result never depends on luck
# (a property that fails must fail every time; a new seed is a deliberate change here).
settings.register_profile("dev", max_examples=25, deadline=None, derandomize=True)
# CI tries 40 derandomized examples a property; the seed sweep after it (scripts/seed_sweep.py)
# adds 3 x 25 fresh ones, so CI sees 115 a property without paying 100 twice over.
settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
# HYPOTHESIS_PROFILE=explore hunts with fresh random examples (a deliberate search, not CI).
settings.register_profile("explore", max_examples=500, deadline=None, derandomize=False)
# HYPOTHESIS_PROFILE=sweep: scripts/seed_sweep.py's runs, one per `--hypothesis-seed=N`:
# other examples than CI's derandomized ones, the same again for the same seed (no
# example database), a failure printed with what reproduces it.
settings.register_profile(
    "sweep",
    max_examples=int(os.environ.get("SWEEP_EXAMPLES", "25")),
    deadline=None,
    derandomize=False,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(autouse=database.SERVER_URI != "")
def empty_test_server_database() -> Iterator[None]:
    """On the PostgreSQL leg, each test starts on an empty database (on SQLite, each has
    its own in-memory or temporary file database), and the connections its apps opened
    are closed after it."""
    database.empty_server_database()
    with database.engines_closed_after():
        yield
