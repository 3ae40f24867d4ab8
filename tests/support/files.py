"""SQLite files that are not ours (or no longer usable), made for the tests that open them."""

from __future__ import annotations

import os
import sqlite3

from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import Store
from tests.support.players import play_out, simple_cpu_factory


def url_of(path) -> str:
    """The SQLAlchemy URL of a SQLite file."""
    return f"sqlite:///{path}"


def sqlite_file(path, *statements: str, wal: bool = False) -> None:
    """A SQLite file made by another program: these statements, nothing of ours."""
    connection = sqlite3.connect(path)
    if wal:
        connection.execute("PRAGMA journal_mode = WAL")
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()


def fivedice_file(path) -> None:
    """A database of ours with three finished games."""
    service = GameService(Store(url_of(path)), cpu_factory=simple_cpu_factory)
    for seed in range(3):
        play_out(service, service.create_game(GameSettings((Seat("Ann"),)), seed=seed).game_id)
    service.store.close()


def truncated_fivedice_file(path) -> None:
    fivedice_file(path)
    data = path.read_bytes()
    assert len(data) > 8 * 4096 and not (path.parent / (path.name + "-wal")).exists()
    path.write_bytes(data[: 4 * 4096])  # cut short on a page boundary


def damaged_fivedice_file(path) -> None:
    fivedice_file(path)
    data = bytearray(path.read_bytes())
    data[4096:8192] = os.urandom(4096)  # a page of the schema or the data overwritten
    path.write_bytes(bytes(data))


# Files that are not a usable database of ours, by name: each makes one at a path.
FOREIGN = {
    "users-table": lambda p: sqlite_file(
        p,
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)",
        "INSERT INTO users VALUES (1, 'x')",
    ),
    "users-table-wal": lambda p: sqlite_file(
        p, "CREATE TABLE users (id INTEGER PRIMARY KEY)", wal=True
    ),
    "our-name-their-view": lambda p: sqlite_file(
        p, "CREATE TABLE games (id INTEGER)", "CREATE VIEW totals AS SELECT 1"
    ),
    "another-alembic-app": lambda p: sqlite_file(
        p,
        "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)",
        "INSERT INTO alembic_version VALUES ('0001')",
    ),
    "application-id": lambda p: sqlite_file(p, "PRAGMA application_id = 1234", "VACUUM"),
    "text": lambda p: p.write_text("my shopping list\nmilk\n"),
    "random": lambda p: p.write_bytes(b"\x00" * 100 + os.urandom(5000)),
    "short-header": lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x10"),
    "truncated-fivedice": truncated_fivedice_file,
    "damaged-fivedice": damaged_fivedice_file,
}  # fmt: skip
