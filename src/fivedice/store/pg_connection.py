"""Dedicated PostgreSQL connections outside the store's pool, awaited in an event loop.

The live paths of a web worker (the hot statements of `pg_async`, the advisory-lock lease of
`pg_lease`, the listener of `pg_notify`) each keep psycopg's async connections of their own;
they open them here, from the store's URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

    from fivedice.store.database import Store


def conninfo(store: Store) -> str:
    """The store's URL as libpq reads it (SQLAlchemy's driver name dropped)."""
    return store.url.set(drivername="postgresql").render_as_string(hide_password=False)


async def connect(store: Store, **options: Any) -> psycopg.AsyncConnection[Any]:
    """A new autocommit connection to the store's database (`options` go to psycopg)."""
    import psycopg

    return await psycopg.AsyncConnection.connect(conninfo(store), autocommit=True, **options)
