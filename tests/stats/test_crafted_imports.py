"""Issue 29, finding 3: `/import` ran what an uploaded backup file contained (a view named
`game` took the server from 131 MB to 1,103 MB; another file used 21 s of CPU). Each
crafted file is refused with its own message and changes nothing; measured in a process of
its own, each grows the server's memory by under 50 MB and costs it under 2 s of CPU."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from companion import services
from companion.stats import backup_file, transfer, untrusted
from tests.stats import crafted

# Each crafted file, and what the page answers.
FILES: dict[str, tuple[Callable[[Path], bytes], str]] = {
    "view": (crafted.view_named_game, "This backup has a view (game)"),
    "trigger": (crafted.with_trigger, "This backup has a trigger (game_added)"),
    "virtual": (crafted.virtual_game, "This backup has a virtual table (game)"),
    "computed": (crafted.computed_setup, "not a backup of this app, or it is damaged"),
    "billion": (crafted.billion_games, "This file holds more than 2000 games"),
    "blob": (crafted.huge_value(2**31), "A value in this backup is larger than 1 MB"),
    "bomb_in_backup": (crafted.bomb_in_backup, "A value in this backup is larger than 1 MB"),
    "wal": (crafted.wal_mode, "This database file is in WAL mode"),
    "not_sqlite": (lambda _path: b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40, "neither"),
    "json_bomb": (lambda _path: crafted.json_bomb(1_100_000), "more than 1000000 values"),
    # Just under the cap on values: parsed (the most a file can make the server build),
    # then refused for its count of games.
    "json_bomb_under_the_cap": (lambda _path: crafted.json_bomb(499_000), "than 2000 games"),
}


def _post(app: Flask, data: bytes) -> tuple[int, str]:
    """The file posted to /import (the form encoded in memory: the test client's own
    encoding spools a large one to a file it never closes)."""
    upload = FileStorage(io.BytesIO(data), filename="games.sqlite")
    boundary, body = encode_multipart({"file": upload})
    answer = app.test_client().post(
        "/import", data=body, content_type=f"multipart/form-data; boundary={boundary}"
    )
    return answer.status_code, answer.get_data(as_text=True)


@pytest.mark.parametrize("name", FILES)
def test_a_crafted_file_is_refused_with_its_message_and_imports_nothing(
    app: Flask, tmp_path: Path, name: str
) -> None:
    build, message = FILES[name]
    status, page = _post(app, build(tmp_path / "crafted.sqlite"))
    assert status == 422
    assert message in page
    with app.app_context():
        assert services.list_games() == []


def test_the_billion_rows_are_there_for_sqlite_itself(tmp_path: Path) -> None:
    """The crafted file does list more rows than the cap: SQLite reads past it."""
    path = tmp_path / "billion.sqlite"
    path.write_bytes(crafted.billion_games(tmp_path / "made.sqlite"))
    with closing(sqlite3.connect(path)) as plain:
        rows = plain.execute("SELECT count(*) FROM (SELECT id FROM game LIMIT 100000)")
        assert rows.fetchone()[0] == 100_000


def test_a_backup_takes_only_so_many_of_sqlites_steps(
    app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The progress handler stops a statement at the step budget (low here, and the
    billion rows allowed, so that the steps are what stops them)."""
    monkeypatch.setattr(backup_file, "MAX_STEPS", 200_000)
    monkeypatch.setattr(backup_file, "MAX_GAMES", 10**12)
    status, page = _post(app, crafted.billion_games(tmp_path / "made.sqlite"))
    assert status == 422
    assert "Reading this backup took too much work" in page


def test_the_authorizer_allows_the_reads_and_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "plain.sqlite"
    path.write_bytes(crafted.with_trigger(tmp_path / "made.sqlite"))
    with closing(backup_file._connect(path, backup_file._Work())) as backup:
        assert backup.execute("SELECT setup FROM game").fetchall() == []
        for refused in (
            f"ATTACH DATABASE '{tmp_path / 'other.sqlite'}' AS other",
            "SELECT hex(zeroblob(10))",
            "PRAGMA journal_mode",
            "SELECT * FROM sqlite_temp_master",
        ):
            with pytest.raises(sqlite3.DatabaseError, match=r"not authorized|prohibited"):
                backup.execute(refused)


def test_a_json_export_over_the_depth_or_the_counts_is_refused(app: Flask) -> None:
    document = {"format": transfer.EXPORT_FORMAT, "version": 1, "games": []}
    deep: object = 0
    for _ in range(untrusted.MAX_DEPTH):
        deep = [deep]
    cases = {
        "levels deep": {**document, "games": [{"setup": deep}]},
        "more than 2000 games": {**document, "games": [{}] * 2001},
        "more than 200000 events": {**document, "games": [{"events": [0] * 200_001}]},
    }
    for message, case in cases.items():
        status, page = _post(app, json.dumps(case).encode())
        assert (status, message in page) == (422, True), message


MEASURE = """
import ctypes, io, json, resource, sys, tempfile
from pathlib import Path

from tests.stats.test_crafted_imports import FILES, _post
from tests.web.conftest import make_app


def kib(field):
    lines = Path("/proc/self/status").read_text().splitlines()
    return int(next(line for line in lines if line.startswith(field)).split()[1])


def cpu():
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


app = make_app(SQLALCHEMY_DATABASE_URI="sqlite://")
folder = Path(tempfile.mkdtemp())
files = {name: build(folder / f"{name}.sqlite") for name, (build, _) in FILES.items()}
for name, data in files.items():  # loads the code of every path once
    _post(app, data)
figures = {}
libc = ctypes.CDLL("libc.so.6")
for name, data in files.items():
    libc.malloc_trim(0)  # what earlier files freed goes back: it can't hide a growth
    Path("/proc/self/clear_refs").write_text("5")  # the peak is the current size from here
    before, started = kib("VmRSS"), cpu()
    status, page = _post(app, data)
    assert status == 422, (name, status)
    figures[name] = {"kib": kib("VmHWM") - before, "cpu": round(cpu() - started, 3)}
print(json.dumps(figures))
"""


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="needs Linux's /proc")
def test_each_crafted_file_costs_the_server_under_50_mb_and_2_s_of_cpu() -> None:
    """Measured in a process of its own, as the pixel-bomb test does: the peak resident
    size while the file is posted less the size before, and the CPU time the process
    used (counted by the kernel, not a clock)."""
    root = Path(__file__).resolve().parent.parent.parent
    done = subprocess.run(
        [sys.executable, "-c", MEASURE], cwd=root, capture_output=True, text=True, check=True
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    print(figures)
    assert set(figures) == set(FILES)
    for name, used in figures.items():
        assert used["kib"] < 50 * 1024, (name, used)
        assert used["cpu"] < 2.0, (name, used)
    # The measure sees what a parse builds: the file under the cap makes some.
    assert figures["json_bomb_under_the_cap"]["kib"] > 5 * 1024
