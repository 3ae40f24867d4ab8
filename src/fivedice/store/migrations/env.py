"""Alembic environment: always run on a connection handed over by `fivedice.store`."""

from __future__ import annotations

from alembic import context

from fivedice.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("fivedice migrations run through fivedice.store.Store.migrate()")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
