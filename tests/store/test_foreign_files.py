"""A file that is not ours is never modified: not by a pragma (WAL mode
rewrites header bytes 18-19), not by a migration, not by -wal/-shm files left beside it."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from fivedice.cli import app
from fivedice.core.game import GameSettings, Seat
from fivedice.service.games import GameService
from fivedice.store import DatabaseDamagedError, Store
from tests.support.files import (
    FOREIGN,
    fivedice_file,
    sqlite_file,
    truncated_fivedice_file,
    url_of,
)

runner = CliRunner()


@pytest.mark.slow  # (≥ 0.5 s: `make test`, not the fast lane)
@pytest.mark.parametrize("kind", list(FOREIGN))
def test_a_file_that_is_not_ours_is_never_modified(tmp_path, kind):
    path = tmp_path / "other.sqlite3"
    FOREIGN[kind](path)
    before = path.read_bytes()
    beside = sorted(os.listdir(tmp_path))
    for args in (["games"], ["games", "--json"], ["stats"], ["export", "1"], ["play", "--plain"]):
        result = runner.invoke(app, [*args, "--db", url_of(path)], input="roll\n")
        assert result.exit_code == 2, (args, result.output)
        assert "not a fivedice database" in result.stderr and "left as it is" in result.stderr
        assert "Traceback" not in result.output
    assert path.read_bytes() == before  # byte for byte: header bytes 18-19 included
    assert sorted(os.listdir(tmp_path)) == beside  # no -wal, -shm or -journal left behind


def test_the_refusal_says_what_the_file_is(tmp_path):
    path = tmp_path / "other.sqlite3"
    FOREIGN["users-table"](path)
    with pytest.raises(DatabaseDamagedError, match="it holds other tables: users"):
        Store(url_of(path))
    FOREIGN["text"](path)
    with pytest.raises(DatabaseDamagedError, match="it is not a SQLite database"):
        Store(url_of(path))
    truncated = tmp_path / "cut.sqlite3"
    truncated_fivedice_file(truncated)
    with pytest.raises(DatabaseDamagedError, match="it is cut short"):
        Store(url_of(truncated))
    directory = tmp_path / "folder.sqlite3"
    directory.mkdir()
    with pytest.raises(DatabaseDamagedError, match="it is not a file"):
        Store(url_of(directory))


def wal_header(path) -> bytes:
    return path.read_bytes()[18:20]


def test_a_new_path_is_created_and_set_up(tmp_path):
    path = tmp_path / "deep" / "new.sqlite3"
    store = Store(url_of(path))
    assert store.schema_version()
    store.close()
    assert wal_header(path) == b"\x02\x02"  # write-ahead log mode


def test_an_empty_file_is_taken_as_a_new_database(tmp_path):
    # Decision: a 0-byte file holds nothing to lose, SQLite reads it as an empty database,
    # and it is what a crash while the database was being created leaves behind.
    path = tmp_path / "empty.sqlite3"
    path.write_bytes(b"")
    GameService(Store(url_of(path))).create_game(GameSettings((Seat("Ann"),)), seed=1)
    assert wal_header(path) == b"\x02\x02"
    assert len(GameService(Store(url_of(path))).list_games()) == 1


def test_an_empty_sqlite_database_is_taken_as_new(tmp_path):
    path = tmp_path / "blank.sqlite3"
    sqlite_file(path, "VACUUM")
    assert wal_header(path) == b"\x01\x01"
    Store(url_of(path)).close()
    assert wal_header(path) == b"\x02\x02"


def test_our_database_with_a_table_added_by_hand_still_opens(tmp_path):
    path = tmp_path / "ours.sqlite3"
    fivedice_file(path)
    sqlite_file(path, "CREATE TABLE my_notes (note TEXT)")
    assert len(GameService(Store(url_of(path))).list_games()) == 3
