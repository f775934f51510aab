"""The schema, as Alembic migrations, brought up to date under a lock.

Tables live for weeks and must outlive an upgrade of the app, so the schema
changes only through migrations (``migrations/versions/``, one file per
change), never by ``create_all``. Every process that opens the database first
upgrades it to the newest migration (``upgrade``). Several server workers may
start at once on a fresh database, so the upgrade runs inside a lock
(``locked``): on PostgreSQL an advisory lock held for one transaction, on
SQLite a ``BEGIN EXCLUSIVE`` transaction. The first worker creates the
tables, the others wait and find nothing left to do. Both databases roll a
failed upgrade back whole.

A database made before migrations existed (by ``create_all``; it has the
tables but no ``alembic_version``) holds exactly the first migration's
schema, so it is stamped with that migration and upgraded from there
(``adopt``), its rows untouched. A database upgraded by a newer referee than
this one is refused with a sentence rather than half understood.

No Flask here: ``flask --app referee db ...`` (Flask-Migrate, wired in
``referee.web.migrations``) runs these same migrations through ``env.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

if TYPE_CHECKING:  # Alembic is imported when a schema is opened, not with the store
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

#: The migration environment: ``alembic.ini``, ``env.py`` and ``versions/``.
MIGRATIONS = Path(__file__).resolve().with_name("migrations")

#: The first migration: the schema ``create_all`` made before there were migrations.
BASELINE = "0001"

#: The tables ``create_all`` made before there were migrations (the baseline's tables).
LEGACY_TABLES = frozenset({"game_tables", "seats", "season_sheets", "season_scores"})

#: PostgreSQL advisory lock key for upgrades (any fixed 64-bit number; this one spells "referee").
POSTGRES_LOCK_KEY = 0x7265_6665_7265_65

#: How long (ms) an SQLite process waits for another one's upgrade before giving up.
SQLITE_LOCK_WAIT_MS = 300_000


class SchemaTooNew(RuntimeError):
    """The database was upgraded by a newer referee, to a migration this one does not know."""


def alembic_config(engine: Engine | None = None, migrations: Path = MIGRATIONS) -> Config:
    """Alembic's settings for the migrations in ``migrations``, with the engine
    ``env.py`` should use. The process's logging is left alone (an app starting
    under gunicorn); the ``flask db`` commands configure it to say what they do."""
    from alembic.config import Config

    config = Config(str(migrations / "alembic.ini"))
    config.set_main_option("script_location", str(migrations))
    config.attributes["configure_logger"] = False
    if engine is not None:
        config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head", migrations: Path = MIGRATIONS) -> None:
    """Bring the database to ``revision`` (the newest migration unless told),
    under the lock; nothing happens when it is there already."""
    from alembic import command

    command.upgrade(alembic_config(engine, migrations), revision)


def head() -> str:
    """The newest migration's revision."""
    from alembic.script import ScriptDirectory

    found = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert found is not None, "no migrations"
    return found


def revision_of(connection: Connection) -> str | None:
    """The migration the database stands at (None before any)."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


@contextmanager
def locked(connection: Connection) -> Iterator[Connection]:
    """One transaction on ``connection`` that no other process's upgrade runs
    beside; committed when the block ends, rolled back if it raises."""
    dialect = connection.dialect.name
    if dialect == "sqlite":
        with _sqlite_exclusive(connection):
            yield connection
        return
    if dialect == "postgresql":
        # Held until the transaction ends: a second worker waits here, then finds the schema made.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": POSTGRES_LOCK_KEY})
    try:
        yield connection
    except BaseException:
        connection.rollback()
        raise
    connection.commit()


@contextmanager
def _sqlite_exclusive(connection: Connection) -> Iterator[None]:
    """``BEGIN EXCLUSIVE`` ... ``COMMIT`` on SQLite, with foreign keys off meanwhile.

    Python's sqlite3 driver opens transactions itself, and only before DML,
    so the connection is switched to autocommit and the transaction is begun
    and ended here; the DDL inside it then commits or rolls back whole.
    Foreign keys are off because a migration in Alembic's batch mode copies a
    table and drops the old one, and with them on, dropping ``seats`` would
    cascade to every sheet. ``PRAGMA foreign_key_check`` runs before the commit."""
    connection.execution_options(isolation_level="AUTOCOMMIT")
    waited = connection.exec_driver_sql("PRAGMA busy_timeout").scalar()
    connection.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_LOCK_WAIT_MS}")
    connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # a no-op inside a transaction
    try:
        connection.exec_driver_sql("BEGIN EXCLUSIVE")
        try:
            yield
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"the upgrade left rows pointing at nothing: {broken[:5]}")
        except BaseException:
            connection.exec_driver_sql("ROLLBACK")
            raise
        connection.exec_driver_sql("COMMIT")
    finally:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        connection.exec_driver_sql(f"PRAGMA busy_timeout={int(waited or 0)}")


def adopt(context: MigrationContext, script: ScriptDirectory) -> bool:
    """Stamp a database made before migrations with the first one, so the
    upgrade starts after it instead of creating its tables again. True when
    it did. A database with only some of those tables is refused: what made
    it is not known."""
    found = set(inspect(context.bind).get_table_names()) if context.bind is not None else set()
    if "alembic_version" in found or not found & LEGACY_TABLES:
        return False
    missing = LEGACY_TABLES - found
    if missing:
        raise RuntimeError(
            f"The database has some of referee's tables but not {', '.join(sorted(missing))}, "
            "and no record of its migrations; restore it from a backup or point DATABASE_URL elsewhere."
        )
    context.stamp(script, BASELINE)
    return True


def check_known(context: MigrationContext, script: ScriptDirectory) -> None:
    """Refuse a database that stands at a migration this referee does not have."""
    from alembic.util import CommandError

    for revision in context.get_current_heads():
        try:
            script.get_revision(revision)
        except CommandError:
            raise SchemaTooNew(
                f"The database is at migration {revision}, which this version of referee does not know: "
                "a newer version upgraded it. Run that version, or restore the database from a backup."
            ) from None
