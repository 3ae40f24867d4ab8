"""Throwaway PostgreSQL servers: a template database per session for the store tests, and a
cluster of its own for a test that stops and starts the server."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text

from tests.support.network import free_port

POSTGRES_ENV = "FIVEDICE_TEST_POSTGRES_URL"
"""The server `scripts/with-postgres.sh` starts for `make test` (unset: PostgreSQL cases skip)."""


def postgres_bin() -> Path | None:
    """The directory of PostgreSQL's initdb and pg_ctl, or None when it is not installed."""
    for directory in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(f"{directory}/initdb", os.X_OK) and os.access(f"{directory}/pg_ctl", os.X_OK):
            return Path(directory)
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    return None


class Cluster:
    """A throwaway PostgreSQL server on a free port of 127.0.0.1 that the test can stop and
    start again (as the `postgres` user when run as root, like scripts/with-postgres.sh)."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.as_root = os.geteuid() == 0
        # As root the server runs as `postgres`, which must reach the directory.
        self.dir = Path(tempfile.mkdtemp(prefix="fivedice-pgfault-", dir="/tmp"))
        os.chmod(self.dir, 0o755)
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self.data = self.dir / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
            "--no-sync",
        )  # fmt: skip

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin / tool), *args]
        if self.as_root:  # root cannot run the server
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        """Starts the server and waits until it accepts connections."""
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c full_page_writes=off"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-t", "60",
            "-o", options, "start",
        )  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        """Stops the server (`fast`: clients are disconnected, committed work is kept)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        """Stops the server if it runs and deletes its files."""
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


def database_url(server: str, name: str) -> str:
    """The URL of database `name` on the server of `server` (a URL of another database)."""
    base, _, _ = server.rpartition("/")
    return f"{base}/{name}"


class Databases:
    """Databases on one server, each a copy of a template: made once per session with every
    migration run, copied with `CREATE DATABASE ... TEMPLATE` (a file copy, no migrations)."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.admin = create_engine(server, isolation_level="AUTOCOMMIT")
        self.template: str | None = None

    def _execute(self, statement: str) -> None:
        with self.admin.connect() as connection:
            connection.execute(text(statement))

    def _migrated_template(self) -> str:
        if self.template is None:
            from fivedice.store import Store

            name = f"fivedice_template_{uuid.uuid4().hex[:12]}"
            self._execute(f'CREATE DATABASE "{name}"')
            Store(database_url(self.server, name)).close()  # opening a store migrates it
            self.template = name
        return self.template

    def create(self, *, migrated: bool = True) -> str:
        """A new database (a copy of the migrated template, or empty); returns its URL."""
        name = f"fivedice_{uuid.uuid4().hex[:12]}"
        if migrated:
            self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{self._migrated_template()}"')
        else:
            self._execute(f'CREATE DATABASE "{name}"')
        return database_url(self.server, name)

    def drop(self, url: str) -> None:
        """Drops a database made by `create` (its connections closed first)."""
        name = url.rpartition("/")[2]
        self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        """Drops the template and lets go of the server."""
        if self.template is not None:
            self._execute(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
        self.admin.dispose()
