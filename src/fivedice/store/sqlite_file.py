"""What an existing SQLite file is, found out without changing a single byte of it.

Opening a file the normal way already changes it: ``PRAGMA journal_mode = WAL`` rewrites
header bytes 18-19 (and creates ``-wal`` and ``-shm`` files), and the migrations create
tables. So before the store opens a file it checks here, using only a plain read of the
header and a read-only, ``immutable`` SQLite connection (which takes no locks and creates no
files), that the file is one fivedice may use:

* no file, or an empty (0-byte) file: a new database. SQLite itself treats a 0-byte file as
  an empty database, there is nothing in it to lose, and it is what a crash while creating
  the database leaves behind;
* a SQLite database with fivedice's ``alembic_version`` and ``games`` tables, or one that
  holds only fivedice's tables or no tables at all (and no other program's application id
  or user version): ours;
* anything else is refused, and the file is left exactly as it was: not SQLite (a text file,
  random bytes), a SQLite database of another program (other tables, views or triggers, or
  another application id), or a damaged file (cut short, or a schema SQLite cannot read).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fivedice.core.errors import N_, FivediceError
from fivedice.core.names import visible_text

HEADER = b"SQLite format 3\x00"
HEADER_SIZE = 100
MARKER_TABLE = "games"
"""With ``alembic_version``, the table that marks a database as fivedice's."""
# Internal tables SQLite keeps (AUTOINCREMENT counters, ANALYZE statistics).
_INTERNAL_PREFIX = "sqlite_"


class NotOurFile(FivediceError):
    """Why a file is not one fivedice may open (the reason of a `DatabaseDamagedError`)."""


def check_sqlite_file(path: Path, own_tables: frozenset[str]) -> None:
    """Checks, without changing it, that the file at `path` may be opened as our database.

    Args:
        path: the database file (it need not exist).
        own_tables: the tables fivedice creates (besides ``alembic_version``).

    Raises:
        NotOurFile: the file is not SQLite, is another program's database, or is damaged.
        OSError: the file cannot be read.
    """
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    if not path.is_file():
        raise NotOurFile(N_("it is not a file"))
    if size == 0:
        return
    with path.open("rb") as file:
        header = file.read(HEADER_SIZE)
    if len(header) < HEADER_SIZE or not header.startswith(HEADER):
        raise NotOurFile(N_("it is not a SQLite database"))
    _check_header(header, size, has_journal=_has_content(path, "-wal"))
    application_id = int.from_bytes(header[68:72], "big")
    user_version = int.from_bytes(header[60:64], "big")
    if application_id or user_version:
        raise NotOurFile(
            N_("it belongs to another program (application id {app}, user version {user})"),
            app=application_id,
            user=user_version,
        )
    objects = _schema_objects(path)
    tables = {name for kind, name in objects if kind == "table"}
    if "alembic_version" in tables:
        if MARKER_TABLE in tables:
            return  # ours (tables someone added to it are tolerated, as they always were)
        raise NotOurFile(N_("its alembic_version table belongs to another program"))
    foreign = sorted(
        name if kind == "table" else f"{kind} {name}"
        for kind, name in objects
        if kind != "index"
        and not name.startswith(_INTERNAL_PREFIX)
        and not (kind == "table" and name in own_tables)
    )
    if foreign:
        raise NotOurFile(
            N_("it holds other tables: {names}"), names=visible_text(", ".join(foreign[:5]))
        )


def _has_content(path: Path, suffix: str) -> bool:
    try:
        return path.with_name(path.name + suffix).stat().st_size > 0
    except OSError:
        return False


def _check_header(header: bytes, size: int, *, has_journal: bool) -> None:
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise NotOurFile(N_("its header is damaged (page size {size})"), size=page_size)
    # The page count in the header is valid when the "version valid for" number matches the
    # change counter (always, for files written by SQLite 3.7 or later). While a write-ahead
    # log is waiting to be checkpointed the file may lag behind it: only check without one.
    pages = int.from_bytes(header[28:32], "big")
    if not has_journal and header[92:96] == header[24:28] and pages * page_size > size:
        raise NotOurFile(
            N_("it is cut short ({size} bytes, its header says {expected})"),
            size=size,
            expected=pages * page_size,
        )


def _schema_objects(path: Path) -> list[tuple[str, str]]:
    """(type, name) of every table, view, trigger and index, read without touching the file."""
    # immutable=1: no locks, no -wal/-shm files, no recovery; mode=ro: never a write.
    uri = path.resolve().as_uri() + "?mode=ro&immutable=1"
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as error:
        raise NotOurFile(
            N_("SQLite cannot open it ({reason})"), reason=visible_text(str(error))
        ) from None
    try:
        rows = connection.execute("SELECT type, name FROM sqlite_master").fetchall()
    except sqlite3.Error as error:
        raise NotOurFile(
            N_("SQLite cannot read it ({reason})"), reason=visible_text(str(error))
        ) from None
    finally:
        connection.close()
    return [(str(kind), str(name)) for kind, name in rows]
