"""Persistence: games as settings plus an append-only action log, profiles, statistics.

SQLAlchemy 2 with Alembic migrations (shipped in `fivedice.store.migrations`, run when a
`Store` opens). SQLite in the user data directory by default; any SQLAlchemy URL (PostgreSQL
through psycopg 3) via `--db URL` or `$FIVEDICE_DATABASE_URL`.
"""

from fivedice.core.record import (
    ActionEntry,
    GameRecord,
    dice_for,
    parse_record,
    record_to_text,
    rules_key,
)
from fivedice.store.database import (
    DATABASE_URL_ENV,
    NewGame,
    Store,
    default_database_url,
    describe_database,
)
from fivedice.store.errors import (
    CommitmentUsedError,
    DatabaseDamagedError,
    GameClosedError,
    GameDamagedError,
    GameNotFoundError,
    RecordError,
    SchemaTooNewError,
    StaleVersionError,
    StoreConflictError,
    StoreError,
    StoreUnavailableError,
)
from fivedice.store.rows import (
    ABANDONED,
    DAMAGED,
    FINISHED,
    IN_PROGRESS,
    STATUSES,
    GameSummary,
    ResultRow,
)

__all__ = [
    "ABANDONED",
    "DAMAGED",
    "DATABASE_URL_ENV",
    "FINISHED",
    "IN_PROGRESS",
    "STATUSES",
    "ActionEntry",
    "CommitmentUsedError",
    "DatabaseDamagedError",
    "GameClosedError",
    "GameDamagedError",
    "GameNotFoundError",
    "GameRecord",
    "GameSummary",
    "NewGame",
    "RecordError",
    "ResultRow",
    "SchemaTooNewError",
    "StaleVersionError",
    "Store",
    "StoreConflictError",
    "StoreError",
    "StoreUnavailableError",
    "default_database_url",
    "describe_database",
    "dice_for",
    "parse_record",
    "record_to_text",
    "rules_key",
]
