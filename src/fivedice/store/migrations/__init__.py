"""Alembic migrations of the fivedice store; run programmatically by `Store.migrate`."""
