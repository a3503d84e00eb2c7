"""Crafted files for `/import`: what a guest on the Wi-Fi could upload (issue 29, finding 3).

Each is built small and cheap: the two that claim more than the file holds (a billion
rows, a 2 GB value) are written by rewriting pages of a small database by hand, as the
file format says (https://www.sqlite.org/fileformat2.html, "B-tree Pages").
"""

from __future__ import annotations

import json
import sqlite3
import struct
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

SCHEMA = (
    "CREATE TABLE game (id INTEGER PRIMARY KEY, created_at, updated_at, mode, ruleset, "
    "setup, title, status, round, version)",
    "CREATE TABLE game_event (id INTEGER PRIMARY KEY, game_id, seq, actor, action, undone, "
    "created_at)",
)
BILLION = 1_000_000_000


def _database(path: Path, statements: tuple[str, ...], page_size: int = 4096) -> bytes:
    with closing(sqlite3.connect(path)) as made:
        made.execute(f"PRAGMA page_size={page_size}")
        for statement in statements:
            made.execute(statement)
        made.commit()
    return path.read_bytes()


def view_named_game(path: Path) -> bytes:
    """`game` is a view whose rows never end: reading it runs the query (it took the
    server from 131 MB to 1,103 MB)."""
    view = (
        "CREATE VIEW game AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
        "SELECT i AS id, '2026-01-01' AS created_at, '2026-01-01' AS updated_at, "
        "'x' AS ruleset, hex(zeroblob(100000)) AS title, '{}' AS setup FROM n"
    )
    return _database(path, (SCHEMA[1], view))


def with_trigger(path: Path) -> bytes:
    trigger = "CREATE TRIGGER game_added AFTER INSERT ON game BEGIN SELECT 1; END"
    return _database(path, (*SCHEMA, trigger))


def virtual_game(path: Path) -> bytes:
    return _database(path, ("CREATE VIRTUAL TABLE game USING fts5(setup, title)", SCHEMA[1]))


def computed_setup(path: Path) -> bytes:
    """`setup` is a column computed on every read."""
    game = (
        "CREATE TABLE game (id INTEGER PRIMARY KEY, created_at, updated_at, ruleset, title, "
        "setup AS (hex(zeroblob(100000))))"
    )
    return _database(path, (game, SCHEMA[1]))


def wal_mode(path: Path) -> bytes:
    """A database in WAL mode (its header says so even once the log is checkpointed)."""
    with closing(sqlite3.connect(path)) as made:
        made.execute("PRAGMA journal_mode=WAL")
        for statement in SCHEMA:
            made.execute(statement)
        made.commit()
        made.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.read_bytes()


def _varint(value: int) -> bytes:
    """SQLite's variable-length integer (big-endian, 7 bits a byte, up to 9 bytes)."""
    if value < 0x80:
        return bytes([value])
    groups = []
    while value:
        groups.append(value & 0x7F)
        value >>= 7
    groups.reverse()
    return bytes([g | 0x80 for g in groups[:-1]] + [groups[-1]])


def _page(header: bytes, cells: list[bytes], size: int) -> bytes:
    """A b-tree page: its header, the cell pointers, the cells at the end."""
    body = bytearray(size)
    end = size
    pointers = []
    for cell in cells:
        end -= len(cell)
        body[end : end + len(cell)] = cell
        pointers.append(end)
    start = len(header) + 2 * len(cells)
    assert start <= end
    counts = struct.pack(">HHB", len(cells), end if end < 65536 else 0, 0)
    page = header[:1] + b"\x00\x00" + counts + header[8:]
    body[: len(page)] = page
    body[len(page) : start] = b"".join(struct.pack(">H", p) for p in pointers)
    return bytes(body)


def _interior(child: int, size: int) -> bytes:
    """An interior table page whose every cell, and its right pointer, is `child`."""
    cell = struct.pack(">I", child) + b"\x01"
    count = (size - 12) // (len(cell) + 2)
    return _page(b"\x05" + b"\x00" * 7 + struct.pack(">I", child), [cell] * count, size)


def _root(data: bytes, table: str, size: int) -> int:
    with closing(sqlite3.connect(":memory:")) as probe:
        probe.deserialize(data)
        root = probe.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,))
        return int(root.fetchone()[0])


def _with_pages(data: bytes, changed: dict[int, bytes], size: int) -> bytes:
    """The file with these pages (by number, from 1) replaced or added at its end."""
    pages = [data[i : i + size] for i in range(0, len(data), size)]
    for number, page in sorted(changed.items()):
        if number == len(pages) + 1:
            pages.append(page)
        else:
            pages[number - 1] = page
    out = bytearray(b"".join(pages))
    out[28:32] = struct.pack(">I", len(pages))  # the database's size in pages
    return bytes(out)


def billion_games(path: Path) -> bytes:
    """A 500 KB file whose `game` table lists about 160 billion rows: its root page points
    9,361 times at one interior page, which points 9,361 times at one leaf of rows."""
    size = 65536
    rows = ",".join("(NULL)" for _ in range(10_000))
    data = _database(path, (*SCHEMA, f"INSERT INTO game (id) VALUES {rows}"), size)
    root = _root(data, "game", size)
    page = data[(root - 1) * size : root * size]
    assert page[0] == 0x05, "the table should have an interior root"
    leaf = struct.unpack(">I", page[8:12])[0]
    extra = len(data) // size + 1
    return _with_pages(data, {root: _interior(extra, size), extra: _interior(leaf, size)}, size)


def huge_value(claimed: int) -> Callable[[Path], bytes]:
    """A file whose one game's `setup` claims `claimed` bytes: its overflow chain is two
    pages pointing at each other."""

    def build(path: Path) -> bytes:
        size = 4096
        data = _database(path, (*SCHEMA, "INSERT INTO game (id) VALUES (1)"), size)
        root = _root(data, "game", size)
        first = len(data) // size + 1
        # Columns: id (the rowid: NULL), four empty texts, setup (a blob), four NULLs.
        serials = [0, 13, 13, 13, 13, claimed * 2 + 12, 0, 0, 0, 0]
        header = b"".join(_varint(s) for s in serials)
        header = _varint(len(header) + 1) + header
        payload = len(header) + claimed
        usable = size
        most = ((usable - 12) * 32 // 255) - 23  # the local part of an overflowing payload
        local = most + (payload - most) % (usable - 4)
        if local > usable - 35:
            local = most
        start = header + b"\x00" * (local - len(header))
        cell = _varint(payload) + _varint(1) + start + struct.pack(">I", first)
        leaf = _page(b"\x0d" + b"\x00" * 7, [cell], size)
        chain = {
            first: struct.pack(">I", first + 1) + b"\x00" * (size - 4),
            first + 1: struct.pack(">I", first) + b"\x00" * (size - 4),
        }
        return _with_pages(data, {root: leaf, **chain}, size)

    return build


def json_bomb(games: int) -> bytes:
    """An export whose games are `games` empty objects: 3 bytes each, some 64 bytes each
    once parsed."""
    head = json.dumps({"format": "dune-imperium-companion/games", "version": 1, "games": []})
    return (head[:-3] + "[" + ",".join(["{}"] * games) + "]}").encode()


def bomb_in_backup(path: Path) -> bytes:
    """A real backup's shape whose one game's setup is 9 MB of empty JSON objects (what
    SQLite returns as it is, and a parse would make 200 MB of)."""
    setup = "[" + ",".join(["{}"] * 3_000_000) + "]"
    with closing(sqlite3.connect(path)) as made:
        for statement in SCHEMA:
            made.execute(statement)
        made.execute("INSERT INTO game (id, setup) VALUES (1, ?)", (setup,))
        made.commit()
    return path.read_bytes()
