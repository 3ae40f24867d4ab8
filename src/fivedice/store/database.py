"""The store: one database (SQLite file by default, PostgreSQL by URL) of games and profiles.

Every write is one short transaction (`Store.writing`). SQLite runs in WAL mode with a busy
timeout and takes the write lock at the start of each write transaction (``BEGIN
IMMEDIATE``), so two processes on one file wait for each other instead of failing half-way or
corrupting it; within one process the writers take turns on a lock first (one writer per
process), so threads never collide in SQLite's busy handler, which sleeps 1-100 ms a try.
SQLite commits with ``synchronous=NORMAL`` (WAL): a commit is safe from a crash of the
program, but the last commits before a power cut or an OS crash may be lost (never
corrupted); see the README. Read-only
transactions begin deferred (plain ``BEGIN``): in WAL mode they read a snapshot and never
queue behind a writer. Database errors are turned into the typed errors of
`fivedice.store.errors`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import platformdirs
from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    DateTime,
    Engine,
    Table,
    Text,
    create_engine,
    delete,
    event,
    exc,
    func,
    insert,
    inspect,
    select,
    type_coerce,
    update,
)
from sqlalchemy.dialects import postgresql as postgresql_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import URL, make_url

from fivedice.core.errors import N_, FivediceError, Phrase
from fivedice.core.fairdice import LEGACY_SCHEME, DiceSeeds
from fivedice.core.game import GameSettings, GameState, rank
from fivedice.core.names import name_key, visible_text
from fivedice.core.record import (
    ActionEntry,
    GameRecord,
    dice_text,
    rules_key,
    rules_to_json,
)
from fivedice.store import schema, statements
from fivedice.store import signals as store_signals
from fivedice.store.errors import (
    CommitmentUsedError,
    DatabaseDamagedError,
    GameClosedError,
    GameDamagedError,
    GameNotFoundError,
    SchemaTooNewError,
    StaleVersionError,
    StoreConflictError,
    StoreError,
    StoreUnavailableError,
)
from fivedice.store.expiry import Expired, delete_expired
from fivedice.store.notices import CHANNEL, Notice, Topic
from fivedice.store.rows import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    STATUSES,
    Damage,
    GameSummary,
    ResultRow,
    action_entry_from_row,
    record_from_rows,
    result_from_row,
    summary_from_rows,
)
from fivedice.store.sqlite_file import HEADER as SQLITE_HEADER
from fivedice.store.sqlite_file import MARKER_TABLE, NotOurFile, check_sqlite_file

log = logging.getLogger(__name__)

DATABASE_URL_ENV = "FIVEDICE_DATABASE_URL"
DEFAULT_BUSY_TIMEOUT_MS = 5_000

PING_AFTER_IDLE_SECONDS = 2.0  # a pooled server connection idle this long is pinged first
_IDLE_SINCE = "fivedice_idle_since"

# Execution option of the connections of read-only transactions (`Store._reader`).
_READ_ONLY = "fivedice_read_only"


def default_database_url() -> str:
    """`$FIVEDICE_DATABASE_URL`, else a SQLite file in the user data directory."""
    configured = os.environ.get(DATABASE_URL_ENV, "").strip()
    if configured:
        return configured
    path = Path(platformdirs.user_data_dir("fivedice")) / "fivedice.sqlite3"
    return f"sqlite:///{path}"


def describe_database(url: str | None = None) -> str:
    """A database as a player can find it: a SQLite file's path, else the URL without its
    password (`url` None: `default_database_url`); text that is no URL at all, as it is."""
    text = url or default_database_url()
    try:
        parsed = make_url(text)
    except Exception:  # not a URL at all: show it as it was given
        return text
    if parsed.get_backend_name() == "sqlite":
        return str(parsed.database or ":memory:")
    return parsed.render_as_string(hide_password=True)


def utc_now() -> datetime:
    return datetime.now(UTC)


def result_rows(game_id: int, state: GameState, game_number: int) -> list[dict[str, Any]]:
    """The `results` rows of a game that just finished (profile ids are filled in later)."""
    if state.is_game_over and state.game_number == game_number:
        cards, totals, winner = state.cards, state.totals, state.instant_winner
    else:
        finished = state.finished_games[game_number - 1]
        cards, totals, winner = finished.cards, finished.totals, finished.instant_winner
    ranks = rank(totals, winner)
    rows = []
    for seat, card in enumerate(cards):
        boxes = {
            c.key: [column.score(c) or 0 for column in card.columns] for c in card.columns[0].boxes
        }
        yahtzee_box = state.rules.all_same_box
        rows.append(
            {
                "game_id": game_id,
                "game_number": game_number,
                "seat": seat,
                "total": totals[seat],
                "rank": ranks[seat],
                "upper_bonuses": sum(1 for col in card.columns if col.upper_bonus(state.rules)),
                "yahtzees": sum(
                    (1 if yahtzee_box and (col.score(yahtzee_box) or 0) > 0 else 0)
                    + col.extra_yahtzees
                    for col in card.columns
                ),
                "boxes_json": json.dumps(boxes),
            }
        )
    return rows


@dataclass(frozen=True)
class NewGame:
    """A game to save: its settings and dice (the arguments of `Store.create_game`)."""

    settings: GameSettings
    seed: int | None = None
    practice: bool = False
    opening_dice: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    dice_seeds: DiceSeeds | None = None


def use_commitment(connection: Connection, commitment: str, *, forget_before: datetime) -> None:
    """Records, in the caller's transaction, that a commitment drawn before its client seeds
    (`fivedice.core.fairdice.Commitment`) made a game or a room: each makes one only,
    whichever worker each request reaches (one insert that does nothing on a conflict, so
    of two transactions at once the second waits for the first and finds it used). Uses
    older than `forget_before` are dropped first (their handles have expired).

    Raises:
        CommitmentUsedError: this commitment already made a game or a room.
    """
    used = schema.used_commitments
    values = {"commitment": commitment, "used_at": utc_now()}
    connection.execute(delete(used).where(used.c.used_at < forget_before))
    added = _insert_or_nothing(connection, used, values, used.c.commitment, used.c.commitment)
    if added is None:
        raise CommitmentUsedError(N_("this commitment has already made a game: draw a new one"))


def insert_game(connection: Connection, game: NewGame) -> GameRecord:
    """Writes a new game inside the caller's transaction and returns its (empty) record.

    Its seats' profiles are made too; nothing is committed here, so a caller that fails
    later in the same transaction leaves no game behind (a room's start).
    """
    settings = game.settings
    seed = secrets.randbits(62) if game.seed is None else game.seed
    now = utc_now()
    game_id = connection.execute(
        insert(schema.games)
        .values(
            created_at=now,
            updated_at=now,
            status=IN_PROGRESS,
            rules_json=rules_to_json(settings.rules),
            rules_key=rules_key(settings.rules),
            first_player=settings.first_player.value,
            match_length=settings.match_length,
            seed=seed,
            practice=game.practice,
            seat_count=len(settings.seats),
            opening_dice=dice_text(game.opening_dice),
            version=0,
            totals_json=json.dumps(list(game.totals) or [0] * len(settings.seats)),
            kind=settings.kind.value,
            **_dice_columns(game.dice_seeds),
        )
        .returning(schema.games.c.id)
    ).scalar_one()
    for index, seat in enumerate(settings.seats):
        profile_id = None if seat.is_cpu else _profile_id(connection, seat.name, now)
        connection.execute(
            insert(schema.game_seats).values(
                game_id=game_id,
                seat=index,
                name=seat.name,
                cpu_level=seat.cpu_level,
                profile_id=profile_id,
            )
        )
    return GameRecord(
        settings=settings,
        seed=seed,
        opening_dice=game.opening_dice,
        practice=game.practice,
        game_id=int(game_id),
        started=now,
        status=IN_PROGRESS,
        totals=game.totals or None,
        **_dice_fields(game.dice_seeds),
    )


class Store:
    """A fivedice database. Opening it runs the migrations (see `migrate`).

    Args:
        url: any SQLAlchemy URL (``sqlite:///path``, ``postgresql+psycopg://...``); default
            `default_database_url()`.
        busy_timeout_ms: how long SQLite waits for another writer before giving up with a
            retryable `StoreUnavailableError`.
        migrate: run the migrations now (False only for tools that inspect a database).

    Raises:
        StoreError: the URL cannot be used; DatabaseDamagedError, SchemaTooNewError,
            StoreUnavailableError as described there.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        migrate: bool = True,
    ) -> None:
        text = url or default_database_url()
        try:
            parsed = make_url(text)
        except exc.ArgumentError:
            raise StoreError(N_("not a database URL: {url!r}"), url=text) from None
        self.url = parsed
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        self.signals = store_signals.StoreSignals()  # errors and retries, for a server's metrics
        # SQLite: one writer per process at a time (see the module docstring).
        self._write_lock: threading.Lock | None = threading.Lock() if self.is_sqlite else None
        self._sqlite_append: _SqliteAppend | None = None
        self.description = self._describe()
        path = _sqlite_path(parsed) if self.is_sqlite else None
        if path is not None:
            self._check_file(path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreUnavailableError(
                    N_("cannot create {path}: {reason}"), path=str(path), reason=str(error)
                ) from None
        try:
            if self.is_sqlite:
                self.engine = create_engine(
                    parsed, connect_args={"timeout": busy_timeout_ms / 1000}
                )
                self._configure_sqlite(self.engine, busy_timeout_ms)
            else:
                self.engine = create_engine(parsed)
                self._ping_when_idle(self.engine, self.signals)
        except (exc.ArgumentError, exc.NoSuchModuleError, ImportError) as error:
            raise StoreError(
                N_("cannot use the database {database}: {reason}"),
                database=self.description,
                reason=str(error),
            ) from None
        # The same engine and pool; its transactions only read (SQLite: a deferred BEGIN,
        # which reads one WAL snapshot). On a server, REPEATABLE READ: the several queries of
        # one read (a game row, its seats, its actions) see one snapshot too, so an action
        # saved in between can never make a game look damaged (its version and log disagree).
        isolation = {} if self.is_sqlite else {"isolation_level": "REPEATABLE READ"}
        self._reader = self.engine.execution_options(**{_READ_ONLY: True}, **isolation)
        # Single statements that read (a snapshot of their own): no transaction on a server.
        self._tail_reader = (
            self._reader
            if self.is_sqlite
            else self.engine.execution_options(isolation_level="AUTOCOMMIT")
        )
        if migrate:
            try:
                self.migrate()
            except BaseException:
                # Close at once: a SQLite connection left open keeps its -wal and -shm files.
                self.engine.dispose()
                raise

    def _check_file(self, path: Path) -> None:
        """Refuses a file that is not ours before anything (even a pragma) can change it."""
        try:
            check_sqlite_file(path, schema.TABLE_NAMES)
        except NotOurFile as reason:
            raise self._damaged(reason) from None
        except OSError as error:
            raise StoreUnavailableError(
                N_("cannot read {path}: {reason}"), path=str(path), reason=str(error)
            ) from None

    def _columns(self, table: Table) -> list[ColumnElement[Any]]:
        """The columns to select from `table`; on SQLite, dates as the stored text.

        SQLite keeps any text in a date column, and SQLAlchemy would fail on the whole query
        when one cannot be parsed; `fivedice.store.rows` parses them per row instead.
        """
        if not self.is_sqlite:
            return list(table.c)
        return [
            type_coerce(column, Text).label(column.name)
            if isinstance(column.type, DateTime)
            else column
            for column in table.c
        ]

    def _describe(self) -> str:
        if self.is_sqlite:
            return str(self.url.database or ":memory:")
        return self.url.render_as_string(hide_password=True)

    @staticmethod
    def _configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection: Any, _record: Any) -> None:
            # Let us issue BEGIN ourselves (pysqlite's own BEGIN is deferred).
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            try:
                cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
                cursor.execute("PRAGMA journal_mode = WAL")
                # NORMAL in WAL: a commit survives the program crashing, and the file is never
                # corrupted; a power cut may lose the last commits (the WAL is synced at
                # checkpoints, not at every commit). FULL would fsync on every commit while
                # holding the write lock (README: "Safety" and "Capacity").
                cursor.execute("PRAGMA synchronous = NORMAL")
                cursor.execute("PRAGMA foreign_keys = ON")
            finally:
                cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(connection: Connection) -> None:
            if connection.get_execution_options().get(_READ_ONLY):
                # Only reads: a deferred transaction reads a WAL snapshot and never waits for
                # (or holds up) a writer.
                connection.exec_driver_sql("BEGIN")
            else:
                # Take the write lock up front: a deferred transaction that reads and then
                # writes fails at once with "database is locked" when another process wrote
                # meanwhile.
                connection.exec_driver_sql("BEGIN IMMEDIATE")

    @staticmethod
    def _ping_when_idle(engine: Engine, signals: store_signals.StoreSignals) -> None:
        """Checks a pooled server connection before use only when it has been idle a while.

        A connection that was just used is alive; one left idle may have been closed (the
        server restarted): it is pinged, and a dead one is replaced before the request uses
        it. (SQLAlchemy's `pool_pre_ping` would ping before every use: one more round trip
        for every transaction.)
        """

        @event.listens_for(engine, "checkin")
        def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
            record.info[_IDLE_SINCE] = time.monotonic()

        @event.listens_for(engine, "checkout")
        def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
            since = record.info.get(_IDLE_SINCE)
            if since is None or time.monotonic() - since < PING_AFTER_IDLE_SECONDS:
                return
            try:
                alive = engine.dialect.do_ping(dbapi_connection)
            except Exception:
                alive = False
            if not alive:  # the pool drops it and checks out a new connection
                signals.retry(store_signals.CONNECTION)
                raise exc.DisconnectionError("the pooled connection was closed")

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A write transaction (committed at the end, rolled back on an error).

        On SQLite the threads of this process take turns first, so only one of them at a
        time holds (or waits for) the database's write lock.
        """
        if self._write_lock is None:
            with self.engine.begin() as connection:
                yield connection
            return
        with self._write_lock, self.engine.begin() as connection:
            yield connection

    def close(self) -> None:
        """Closes every pooled connection."""
        self.engine.dispose()

    # -- notices --------------------------------------------------------------------------

    @property
    def announces_changes(self) -> bool:
        """Whether this store tells the other processes of its database what changed (on
        PostgreSQL: every saved action's notice, in the action's own statement; other
        changes through `notify`). SQLite serves one process: there is nobody to tell."""
        return not self.is_sqlite

    def notify(self, notice: Notice) -> None:
        """Tells every process listening to this database (`pg_notify.NoticeListener`) of a
        committed change; nothing on SQLite.

        Never raises: the change is saved either way, and the others see it when they next
        read it; a notice that cannot be sent is logged.
        """
        if not self.announces_changes:
            return
        try:
            # One statement in autocommit: no BEGIN and COMMIT round trips around it.
            with self._tail_reader.connect() as connection:
                connection.execute(
                    statements.NOTIFY, {"n_channel": CHANNEL, "n_payload": notice.payload}
                )
        except Exception as error:
            log.warning("could not notify the other workers: %s", error)

    # -- errors ---------------------------------------------------------------------------

    @contextmanager
    def _errors(self, doing: str, *, writing: bool = False) -> Iterator[None]:
        """Turns database errors into typed, worded errors.

        A value the driver cannot convert is damage when reading (e.g. a date edited by hand),
        and a refused write (e.g. a number too large for SQLite) when `writing`.
        """
        try:
            yield
        except exc.SQLAlchemyError as error:
            raise self._refusal(error, doing) from None
        except FivediceError:
            raise
        except (ValueError, TypeError, OverflowError) as error:
            if not writing:
                raise self._damaged(visible_text(str(error))) from None
            raise StoreError(
                N_("could not {doing} ({database}): {reason}"),
                doing=Phrase(doing),
                database=self.description,
                reason=str(error),
            ) from None

    def _refusal(self, error: exc.SQLAlchemyError, doing: str) -> StoreError:
        """`error`, met while trying to `doing`, as the store's typed error (and told to
        `signals`)."""
        refusal = self._refusal_of(error, doing)
        if isinstance(refusal, StoreConflictError):
            self.signals.error(store_signals.CONFLICT)
        elif isinstance(refusal, StoreUnavailableError):
            self.signals.error(store_signals.UNAVAILABLE)
        elif isinstance(refusal, DatabaseDamagedError):
            self.signals.error(store_signals.DAMAGED)
        else:
            self.signals.error(store_signals.OTHER)
        return refusal

    def _refusal_of(self, error: exc.SQLAlchemyError, doing: str) -> StoreError:
        kind: type[StoreError] = StoreError
        template = N_("could not {doing} ({database}): {reason}")
        reason = str(error)
        if isinstance(error, exc.DatabaseError):
            reason = str(error.orig) if error.orig is not None else reason
            if isinstance(error, exc.IntegrityError):
                # A constraint refused the write: not damage, but a write that collided with
                # another one made at the same moment. The transaction was rolled back.
                kind = StoreConflictError
                template = N_(
                    "could not {doing} ({database}): another change got there first"
                    " ({reason}); nothing was changed, try again"
                )
            elif isinstance(error, exc.OperationalError) and not _is_damage(reason):
                kind = StoreUnavailableError
                template = N_(
                    "could not {doing} ({database}): {reason}; nothing was changed, try again"
                )
            else:
                return self._damaged(reason)
        return kind(template, doing=Phrase(doing), database=self.description, reason=reason)

    def _damaged(self, reason: object) -> DatabaseDamagedError:
        # `reason`: a FivediceError (translated with the message), or the driver's words.
        return DatabaseDamagedError(
            N_(
                "{database} is damaged or is not a fivedice database ({reason})."
                " It was left as it is; move it away, or choose another with --db"
            ),
            database=self.description,
            reason=reason,
        )

    # -- schema ---------------------------------------------------------------------------

    def _alembic_config(self) -> Any:
        return _alembic_config()

    def migrate(self) -> None:
        """Brings the schema up to date (an empty database gets every table).

        Raises:
            SchemaTooNewError: the database was migrated by a newer fivedice.
            DatabaseDamagedError: the file is not a fivedice database.
        """
        from alembic import command
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        config = _alembic_config()
        script = ScriptDirectory.from_config(config)
        known = {revision.revision for revision in script.walk_revisions()}
        heads = set(script.get_heads())
        with self._errors(N_("open the database")), self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Two processes starting at once on a new server database: one migrates,
                # the other waits and then finds the schema current. (SQLite: BEGIN IMMEDIATE.)
                connection.exec_driver_sql("SELECT pg_advisory_xact_lock(1460076601)")
            current = set(MigrationContext.configure(connection).get_current_heads())
            tables = set(inspect(connection).get_table_names())
            if current and MARKER_TABLE not in tables:
                # Another program that also uses Alembic: its revisions are not ours.
                raise self._damaged(
                    NotOurFile(
                        N_("its alembic_version table belongs to another program ({revisions})"),
                        revisions=visible_text(", ".join(sorted(current))),
                    )
                )
            newer = current - known
            if newer:
                raise SchemaTooNewError(
                    N_(
                        "{database} was written by a newer version of fivedice (schema"
                        " {schema}; this version knows up to {known}). Upgrade fivedice to"
                        " open it"
                    ),
                    database=self.description,
                    schema=visible_text(", ".join(sorted(newer))),
                    known=", ".join(sorted(heads)),
                )
            if not current:
                foreign = tables - schema.TABLE_NAMES - {"alembic_version"}
                if foreign:
                    raise self._damaged(
                        NotOurFile(
                            N_("it holds other tables: {names}"),
                            names=visible_text(", ".join(sorted(foreign)[:5])),
                        )
                    )
            if current != heads:
                config.attributes["connection"] = connection
                command.upgrade(config, "heads")

    def schema_is_current(self) -> bool:
        """Whether the database answers now and is at this fivedice's newest migration
        (the readiness check of a server: `/readyz`). Changes nothing.

        On SQLite the file must still be at its path and still be a SQLite file: a pooled
        connection keeps reading a file removed or replaced under it, so the pool alone
        would answer for a database nobody can open any more.

        Raises:
            StoreUnavailableError: the database cannot be reached (a server down, a file
                gone or unreadable).
            DatabaseDamagedError: the file is no longer a SQLite database.
        """
        path = _sqlite_path(self.url) if self.is_sqlite else None
        if path is not None:
            try:
                with path.open("rb") as file:
                    header = file.read(len(SQLITE_HEADER))
            except OSError as error:
                raise StoreUnavailableError(
                    N_("cannot read {path}: {reason}"), path=str(path), reason=str(error)
                ) from None
            if header != SQLITE_HEADER:
                raise self._damaged(NotOurFile(N_("it is not a SQLite database")))
        return set(self.schema_version()) == _migration_heads()

    def schema_version(self) -> tuple[str, ...]:
        """The migration revision(s) the database is at."""
        from alembic.runtime.migration import MigrationContext

        with self._errors(N_("read the database")), self._reader.connect() as connection:
            return tuple(MigrationContext.configure(connection).get_current_heads())

    # -- games ----------------------------------------------------------------------------

    def create_game(
        self,
        settings: GameSettings,
        *,
        seed: int | None = None,
        practice: bool = False,
        opening_dice: Sequence[int] = (),
        totals: Sequence[int] = (),
        dice_seeds: DiceSeeds | None = None,
    ) -> GameRecord:
        """Saves a new game and returns its (empty) record; human seats get profiles.

        With `dice_seeds` the game rolls by the verifiable scheme (`fivedice.core.fairdice`);
        without, by the legacy one from `seed`.
        """
        return self.save_new_game(
            NewGame(settings, seed, practice, tuple(opening_dice), tuple(totals), dice_seeds)
        )

    def save_new_game(self, game: NewGame) -> GameRecord:
        """`create_game` for a game described as one value."""
        with self._errors(N_("save the new game"), writing=True), self.writing() as connection:
            return insert_game(connection, game)

    def save_committed_game(self, game: NewGame, *, forget_before: datetime) -> GameRecord:
        """`save_new_game` for a game whose server seed was committed to before its client
        seeds: the commitment is recorded in the same transaction, so it makes one game
        only, whichever worker each request reaches. Records used before `forget_before`
        are dropped first (their handles have expired; the caller knows the lifetime).

        Raises:
            CommitmentUsedError: this commitment already made a game (nothing is saved).
        """
        if game.dice_seeds is None:
            raise TypeError("save_committed_game: a game without dice seeds commits to nothing")
        with self._errors(N_("save the new game"), writing=True), self.writing() as connection:
            use_commitment(connection, game.dice_seeds.commitment, forget_before=forget_before)
            return insert_game(connection, game)

    def load_game(self, game_id: int) -> GameRecord:
        """The saved record of a game (settings, seed and the whole action log).

        Every value is checked (`fivedice.store.rows`); the log is not replayed here.

        Raises:
            GameNotFoundError: no such game.
            GameDamagedError: its rows cannot be what fivedice wrote (nothing is written).
        """
        with self._errors(N_("read the game")), self._reader.begin() as connection:
            game = connection.execute(
                select(*self._columns(schema.games)).where(schema.games.c.id == game_id)
            ).one_or_none()
            if game is None:
                raise GameNotFoundError(N_("there is no saved game {game_id}"), game_id=game_id)
            seats = connection.execute(
                select(schema.game_seats)
                .where(schema.game_seats.c.game_id == game_id)
                .order_by(schema.game_seats.c.seat)
            ).all()
            logged = connection.execute(
                select(schema.actions)
                .where(schema.actions.c.game_id == game_id)
                .order_by(schema.actions.c.seq)
            ).all()
        return record_from_rows(game, seats, logged)

    def append_parameters(
        self, game_id: int, expected_version: int, entry: ActionEntry, after: GameState
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
        """The bound values of an append's statements: the game's row (`b_`), the action's
        (`a_`, for the one-statement form) and its notice (`n_`; None on SQLite, which has
        no one else to tell)."""
        now = utc_now()
        advance = {
            "b_id": game_id,
            "b_expected": expected_version,
            "b_version": expected_version + 1,
            "b_now": now,
            "b_status": FINISHED if after.is_match_over else IN_PROGRESS,
            "b_totals": json.dumps(list(after.match_totals)),
        }
        in_one = {"a_seq": entry.seq, "a_seat": entry.seat, "a_action": entry.action}
        in_one |= {"a_dice": dice_text(entry.dice), "a_at": now}
        notice = None
        if self.announces_changes:
            # (The action itself travels with it: a listener that keeps the version before
            # applies it without reading the game back, see `notices`.)
            saved = (
                Notice.logging(game_id, entry)
                if entry.seq == expected_version + 1
                else Notice(Topic.GAME, game_id, expected_version + 1)
            )
            notice = {"n_channel": CHANNEL, "n_payload": saved.payload}
        return advance, in_one, notice

    def append_action(
        self,
        game_id: int,
        expected_version: int,
        entry: ActionEntry,
        after: GameState,
        finished_game_numbers: Sequence[int] = (),
    ) -> None:
        """Writes one action in one transaction, if the game is still at `expected_version`.

        Also stores the running totals, the game's status, and the results of any game of the
        match that this action finished.

        Raises:
            StaleVersionError: another action was saved first (nothing is written).
            GameClosedError: the game is finished or abandoned.
            StoreUnavailableError: the write failed (locked, disk full, ...): nothing written.
        """
        advance, in_one, notice = self.append_parameters(game_id, expected_version, entry, after)
        now = advance["b_now"]
        action = {
            "game_id": game_id,
            "seq": entry.seq,
            "seat": entry.seat,
            "action": entry.action,
            "dice": in_one["a_dice"],
            "created_at": now,
        }
        with self._errors(N_("save the action"), writing=True):
            try:
                if not self.is_sqlite and not finished_game_numbers:
                    # The usual action on a server: one statement, one round trip (its
                    # NOTIFY included).
                    statement = (
                        statements.APPEND_IN_ONE if notice is None else statements.APPEND_AND_NOTIFY
                    )
                    with self._tail_reader.connect() as connection:
                        saved = connection.execute(
                            statement, {**advance, **in_one, **(notice or {})}
                        )
                        if saved.first() is None:  # the version check failed: nothing saved
                            self._refuse(connection, game_id, expected_version)
                    return
                if self._write_lock is not None and not finished_game_numbers:
                    # SQLite's usual action: its two statements straight on the driver.
                    if not self._append_sqlite(advance, action):
                        with self.engine.connect() as connection:
                            self._refuse(connection, game_id, expected_version)
                    return
                with self.writing() as connection:
                    changed = connection.execute(statements.ADVANCE_GAME, advance).rowcount
                    if changed != 1:
                        self._refuse(connection, game_id, expected_version)
                    connection.execute(statements.INSERT_ACTION, action)
                    if notice is not None:
                        connection.execute(statements.NOTIFY, notice)  # (sent at the commit)
                    if finished_game_numbers:
                        # (dict(result) would call result.keys(), the column names.)
                        profiles = {
                            int(seat): profile
                            for seat, profile in connection.execute(
                                select(
                                    schema.game_seats.c.seat, schema.game_seats.c.profile_id
                                ).where(schema.game_seats.c.game_id == game_id)
                            )
                        }
                        rows = [
                            {**row, "profile_id": profiles.get(row["seat"]), "finished_at": now}
                            for number in finished_game_numbers
                            for row in result_rows(game_id, after, number)
                        ]
                        connection.execute(insert(schema.results), rows)
            except exc.IntegrityError:
                # The same action number was inserted by someone else first.
                raise StaleVersionError(game_id, expected_version, None) from None

    def _append_sqlite(self, advance: dict[str, Any], action: dict[str, Any]) -> bool:
        """`append_action`'s two statements (the game's row, then the action's) in one
        SQLite transaction, on the pooled driver connection: the same SQL and values as
        through SQLAlchemy's `Connection` (whose machinery cost more CPU than the write
        itself), under the process's write lock. False (nothing written): the game is not
        at the expected version (or not in progress).

        Raises:
            sqlalchemy.exc.DBAPIError: as SQLAlchemy would raise it (`_errors` words it).
        """
        appending = self._sqlite_append
        if appending is None:
            appending = self._sqlite_append = _SqliteAppend(self.engine.dialect)
        assert self._write_lock is not None
        with self._write_lock:
            pooled = self.engine.raw_connection()
            try:
                cursor = pooled.cursor()
                try:
                    return appending.run(cursor, advance, action)
                finally:
                    cursor.close()
            finally:
                pooled.close()  # (back to the pool)

    def game_tail(self, game_id: int, after: int) -> tuple[int, str, tuple[ActionEntry, ...]]:
        """The game's version and status now, and the actions saved after version `after`.

        One short read (one query) instead of the whole game: what a cached game needs to
        catch up (`GameService.latest`).

        Raises:
            GameNotFoundError: no such game.
            GameDamagedError: an action's row cannot be what fivedice wrote.
        """
        # One statement: it reads one snapshot by itself, so on a server it runs without a
        # transaction around it (no BEGIN and COMMIT round trips).
        with self._errors(N_("read the game")), self._tail_reader.connect() as connection:
            rows = connection.execute(
                statements.GAME_TAIL, {"b_id": game_id, "b_after": after}
            ).all()
        return self.tail_of(game_id, after, rows)

    def tail_of(
        self, game_id: int, after: int, rows: Sequence[Any]
    ) -> tuple[int, str, tuple[ActionEntry, ...]]:
        """`game_tail`'s answer from the rows of its query (`statements.GAME_TAIL`), checked."""
        if not rows:
            raise GameNotFoundError(N_("there is no saved game {game_id}"), game_id=game_id)
        version, status = int(rows[0].version), str(rows[0].status)
        if version <= after:
            return version, status, ()
        try:
            entries = tuple(action_entry_from_row(row) for row in rows if row.seq is not None)
        except Damage as damage:
            raise self._damaged(damage) from None
        return version, status, entries

    @staticmethod
    def _refuse(connection: Connection, game_id: int, expected_version: int) -> None:
        row = connection.execute(
            select(schema.games.c.version, schema.games.c.status).where(
                schema.games.c.id == game_id
            )
        ).one_or_none()
        Store.refuse(game_id, expected_version, row)

    @staticmethod
    def refuse(game_id: int, expected_version: int, row: Any) -> None:
        """Raises why an append was refused, from the game's row (version, status) now.

        Raises:
            GameNotFoundError, GameClosedError, StaleVersionError.
        """
        if row is None:
            raise GameNotFoundError(N_("there is no saved game {game_id}"), game_id=game_id)
        _check_status(game_id, row.status)
        if row.status != IN_PROGRESS:
            raise GameClosedError(
                N_("game {game_id} is {status}; it takes no more actions"),
                game_id=game_id,
                status=row.status,
            )
        raise StaleVersionError(game_id, expected_version, int(row.version))

    def expire_unstarted(
        self, *, games_made_before: datetime, rooms_made_before: datetime, batch: int = 500
    ) -> tuple[Expired, bool]:
        """Deletes games never played and rooms never started, made before these times, in
        one transaction (`fivedice.store.expiry`): (what was deleted, whether a full batch was).

        Raises:
            StoreUnavailableError: nothing was deleted.
        """
        with self._errors(N_("delete expired rooms and games")), self.writing() as db:
            return delete_expired(
                db,
                games_made_before=games_made_before,
                rooms_made_before=rooms_made_before,
                batch=batch,
            )

    def abandon_game(self, game_id: int) -> None:
        """Marks an unfinished game abandoned (kept, but no longer offered for resuming).

        Raises:
            GameNotFoundError, GameClosedError.
        """
        games = schema.games
        with self._errors(N_("abandon the game"), writing=True), self.writing() as connection:
            changed = connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.status == IN_PROGRESS)
                .values(status=ABANDONED, updated_at=utc_now())
            ).rowcount
            if changed != 1:
                status = connection.execute(
                    select(games.c.status).where(games.c.id == game_id)
                ).scalar_one_or_none()
                if status is None:
                    raise GameNotFoundError(N_("there is no saved game {game_id}"), game_id=game_id)
                _check_status(game_id, status)
                raise GameClosedError(
                    N_("game {game_id} is already {status}"), game_id=game_id, status=status
                )

    def save_session(self, game_id: int, session_json: str) -> None:
        """Keeps a front end's session of a game (JSON text), replacing the one saved before.

        Raises:
            GameNotFoundError; StoreUnavailableError (nothing changed, try again).
        """
        sessions = schema.game_sessions
        now = utc_now()
        with self._errors(N_("save the session")), self.writing() as connection:
            exists = connection.execute(
                select(schema.games.c.id).where(schema.games.c.id == game_id)
            ).scalar_one_or_none()
            if exists is None:
                raise GameNotFoundError(N_("there is no saved game {game_id}"), game_id=game_id)
            changed = connection.execute(
                update(sessions)
                .where(sessions.c.game_id == game_id)
                .values(session_json=session_json, updated_at=now)
            ).rowcount
            if changed != 1:
                connection.execute(
                    insert(sessions).values(
                        game_id=game_id, session_json=session_json, updated_at=now
                    )
                )

    def load_session(self, game_id: int) -> str | None:
        """The session JSON text saved with a game, or None when there is none."""
        sessions = schema.game_sessions
        with self._errors(N_("read the session")), self._reader.begin() as connection:
            found = connection.execute(
                select(sessions.c.session_json).where(sessions.c.game_id == game_id)
            ).scalar_one_or_none()
        return None if found is None else str(found)

    def list_games(
        self, status: str | None = None, limit: int | None = None, kind: str | None = None
    ) -> list[GameSummary]:
        """Saved games, newest first (optionally only those of a status, or of a kind); a
        damaged game is listed with its `damage` set."""
        games, seats, actions = schema.games, schema.game_seats, schema.actions
        query = select(*self._columns(games)).order_by(games.c.id.desc())
        if status is not None:
            query = query.where(games.c.status == status)
        if kind is not None:
            query = query.where(games.c.kind == kind)
        if limit is not None:
            query = query.limit(limit)
        with self._errors(N_("list the games")), self._reader.begin() as connection:
            rows = connection.execute(query).all()
            seat_rows: dict[int, list[Any]] = {}
            logged: dict[int, int] = {}
            if rows:
                ids = [row.id for row in rows]
                for seat in connection.execute(
                    select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.seat)
                ):
                    seat_rows.setdefault(int(seat.game_id), []).append(seat)
                for game_id, count in connection.execute(
                    select(actions.c.game_id, func.count())
                    .where(actions.c.game_id.in_(ids))
                    .group_by(actions.c.game_id)
                ):
                    logged[int(game_id)] = int(count)
            return [
                summary_from_rows(row, seat_rows.get(int(row.id), []), logged.get(int(row.id), 0))
                for row in rows
            ]

    def results(self, profile: str | None = None) -> list[ResultRow]:
        """Every result of a human profile in a finished, non-practice game.

        Raises:
            GameDamagedError: a result row cannot be read (the message names its game).
        """
        games, results, profiles = schema.games, schema.results, schema.profiles
        query = (
            select(
                *self._columns(results),
                profiles.c.name.label("profile"),
                games.c.rules_key,
                games.c.rules_json,
                games.c.seat_count,
                games.c.kind,
            )
            .join(games, games.c.id == results.c.game_id)
            .join(profiles, profiles.c.id == results.c.profile_id)
            .where(games.c.practice.is_(False))
            .order_by(results.c.game_id, results.c.game_number, results.c.seat)
        )
        if profile is not None:
            query = query.where(profiles.c.name_key == name_key(profile))
        with self._errors(N_("read the statistics")), self._reader.begin() as connection:
            rows = connection.execute(query).all()
            return [result_from_row(row) for row in rows]

    def games_with_cpus(self) -> list[tuple[int, int, bool, bool]]:
        """The games in progress with a CPU seat: (id, version, leased, people), `leased`
        whether a worker holds the game's CPU lease now (`pg_lease`; always False on SQLite,
        whose one worker needs no lease), `people` whether a person has a seat in it."""
        query = statements.GAMES_WITH_CPUS if self.is_sqlite else statements.GAMES_WITH_CPUS_LEASED
        with self._errors(N_("look for CPU turns")), self._reader.begin() as connection:
            rows = connection.execute(query)
            return [
                (int(row.id), int(row.version), bool(row.leased), bool(row.people)) for row in rows
            ]

    def profile_names(self) -> list[str]:
        with self._errors(N_("read the profiles")), self._reader.begin() as connection:
            return [
                str(name)
                for name in connection.execute(
                    select(schema.profiles.c.name).order_by(func.lower(schema.profiles.c.name))
                ).scalars()
            ]


def _dice_columns(seeds: DiceSeeds | None) -> dict[str, Any]:
    """The `games` columns of a new game's dice seeds (none: the legacy scheme)."""
    if seeds is None:
        return {"dice_scheme": LEGACY_SCHEME}
    return {
        "dice_scheme": seeds.scheme,
        "server_seed": seeds.server_seed_hex,
        "dice_commitment": seeds.commitment,
        "client_seeds_json": json.dumps(list(seeds.client_seeds)),
    }


def _dice_fields(seeds: DiceSeeds | None) -> dict[str, Any]:
    """The `GameRecord` fields of a game's dice seeds."""
    if seeds is None:
        return {}
    return {
        "dice_scheme": seeds.scheme,
        "dice_commitment": seeds.commitment,
        "client_seeds": seeds.client_seeds,
        "server_seed": seeds.server_seed,
    }


@functools.cache
def _migration_heads() -> frozenset[str]:
    """The newest revision(s) of the migrations this fivedice ships (read once)."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(_alembic_config()).get_heads())


def _alembic_config() -> Any:
    from alembic.config import Config

    config = Config()
    location = resources.files("fivedice.store") / "migrations"
    config.set_main_option("script_location", str(location))
    return config


def _sqlite_path(url: URL) -> Path | None:
    """The file of a SQLite URL (None: in memory)."""
    database = url.database or ""
    if database.startswith("file:") and str(url.query.get("uri", "")).lower() in ("true", "1"):
        parts = urlsplit(database)
        if "mode=memory" in parts.query:
            return None
        database = unquote(parts.path)
    if not database or database == ":memory:":
        return None
    return Path(database).expanduser()


def _check_status(game_id: int, status: object) -> None:
    if status not in STATUSES:
        raise GameDamagedError(
            game_id,
            Damage(
                N_("games.status {value!r} is not one of {statuses}"),
                value=status,
                statuses=", ".join(STATUSES),
            ),
        )


def _profile_id(connection: Connection, name: str, now: datetime) -> int:
    """The id of the profile `name` (matched by `name_key`), created if it is new.

    Race-free: two transactions creating the same new profile at once both get its id. On
    SQLite and PostgreSQL the insert does nothing on a conflicting name key (PostgreSQL waits
    for the other transaction, then sees its committed row); elsewhere a savepoint catches
    the unique-key violation. Either way the row is then read back.
    """
    key = name_key(name)
    profiles = schema.profiles
    find = select(profiles.c.id).where(profiles.c.name_key == key)
    found = connection.execute(find).scalar_one_or_none()
    if found is not None:
        return int(found)
    values = {"name": name.strip(), "name_key": key, "created_at": now}
    inserted = _insert_or_nothing(connection, profiles, values, profiles.c.name_key, profiles.c.id)
    if inserted is not None:
        return int(inserted)
    return int(connection.execute(find).scalar_one())


def _insert_or_nothing(
    connection: Connection,
    table: Table,
    values: dict[str, Any],
    key: Column[Any],
    returning: Column[Any],
) -> Any:
    """Inserts a row unless one with the same unique `key` exists: the new row's `returning`,
    or None. SQLite and PostgreSQL do nothing on the conflict (PostgreSQL waits for the other
    transaction, then sees its committed row); elsewhere a savepoint catches the violation."""
    dialect = connection.dialect.name
    if dialect in ("sqlite", "postgresql"):
        module = sqlite_dialect if dialect == "sqlite" else postgresql_dialect
        return connection.execute(
            module.insert(table)
            .values(**values)
            .on_conflict_do_nothing(index_elements=[key])
            .returning(returning)
        ).scalar_one_or_none()
    try:
        with connection.begin_nested():
            return connection.execute(
                insert(table).values(**values).returning(returning)
            ).scalar_one()
    except exc.IntegrityError:
        return None


_DAMAGE_WORDS = ("not a database", "malformed", "file is encrypted", "unsupported file format")


def _is_damage(reason: str) -> bool:
    lowered = reason.lower()
    return any(word in lowered for word in _DAMAGE_WORDS)


class _SqliteAppend:
    """`statements.ADVANCE_GAME` and `statements.INSERT_ACTION` compiled once for SQLite's
    driver (named parameters), with the values SQLAlchemy would bind: the statements'
    constants and the dates as SQLAlchemy's SQLite `DateTime` stores them."""

    def __init__(self, dialect: Any) -> None:
        named = sqlite_dialect.dialect(paramstyle="named")
        advance = statements.ADVANCE_GAME.compile(dialect=named)
        insert_action = statements.INSERT_ACTION.compile(
            dialect=named, column_keys=[column.name for column in schema.actions.c]
        )
        self.advance_sql, self.insert_sql = str(advance), str(insert_action)
        self.constants = {
            key: value for key, value in advance.params.items() if not key.startswith("b_")
        }
        self.game_date = _binding(schema.games.c.updated_at, dialect)
        self.action_date = _binding(schema.actions.c.created_at, dialect)
        self.dbapi_error = dialect.loaded_dbapi.Error

    def run(self, cursor: Any, advance: dict[str, Any], action: dict[str, Any]) -> bool:
        advance = {**advance, **self.constants, "b_now": self.game_date(advance["b_now"])}
        action = {**action, "created_at": self.action_date(action["created_at"])}
        statement, parameters = "BEGIN IMMEDIATE", {}
        try:
            cursor.execute(statement)
            try:
                statement, parameters = self.advance_sql, advance
                cursor.execute(statement, parameters)
                if cursor.rowcount != 1:
                    cursor.execute("ROLLBACK")
                    return False
                statement, parameters = self.insert_sql, action
                cursor.execute(statement, parameters)
                statement, parameters = "COMMIT", {}
                cursor.execute(statement)
            except BaseException:
                with contextlib.suppress(self.dbapi_error):
                    cursor.execute("ROLLBACK")
                raise
        except self.dbapi_error as error:
            raise exc.DBAPIError.instance(statement, parameters, error, self.dbapi_error) from error
        return True


def _binding(column: Column[Any], dialect: Any) -> Callable[[Any], Any]:
    """What the dialect makes of a value bound to `column` (as it is, without a processor)."""
    processor = column.type.dialect_impl(dialect).bind_processor(dialect)
    return processor if processor is not None else (lambda value: value)
