"""Dedicated PostgreSQL connections outside the store's pool, awaited in an event loop.

The live paths of a web worker (the hot statements of `pg_async`, the advisory-lock lease of
`pg_lease`, the listener of `pg_notify`) each keep psycopg's async connections of their own;
they open them here, from the store's URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg
    from sqlalchemy.engine import URL


def conninfo(url: URL) -> str:
    """A store's URL as libpq reads it (SQLAlchemy's driver name dropped)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


async def connect(url: URL, **options: Any) -> psycopg.AsyncConnection[Any]:
    """A new autocommit connection to the database of a store's URL (`options` go to
    psycopg)."""
    import psycopg

    return await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True, **options)
