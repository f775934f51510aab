"""The database: an engine for a URL, the schema on it, and a session factory.

Plain SQLAlchemy 2 rather than Flask-SQLAlchemy, so the models stay ordinary
classes and the same code runs from a script, a test or the app: nothing here
imports Flask (the app keeps one session per request in ``referee.web.database``).
SQLite is the default (a file in the instance folder); ``DATABASE_URL`` may
name PostgreSQL instead. SQLite gets foreign keys, WAL and a busy timeout so
that several followers polling while the host reveals do not trip over each
other's locks.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from referee.store import schema

#: Connections a server process keeps open to PostgreSQL (and as many more
#: it may open for a burst). A gevent worker serves hundreds of pages at once,
#: and with SQLAlchemy's default of 5 kept, a hall's phones arriving together
#: made it open and close a connection for nearly every request.
POOL_SIZE = 10

#: How long (ms) an SQLite writer waits for another writer before giving up.
SQLITE_BUSY_TIMEOUT_MS = 10_000


def engine_url(url: str) -> str:
    """The URL SQLAlchemy should use: plain ``postgresql://`` (as hosting
    services write it) means the psycopg 3 driver, the one we install."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        _into_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


def _into_wal(cursor: sqlite3.Cursor) -> None:
    """Switch the database to WAL (a no-op once it is).

    Only one connection can switch a new database, and SQLite answers the
    others "database is locked" at once, without the busy timeout, where
    waiting could deadlock: server workers starting together on a new
    database failed so (``tests/store/test_sqlite_start.py``). So a refused
    switch is tried again until the busy timeout has passed."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def make_engine(url: str) -> Engine:
    """An engine for ``url``, with the SQLite settings when it is SQLite."""
    url = engine_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=POOL_SIZE)


def release(session: Session) -> None:
    """End ``session``'s transaction, with nothing pending in it, so that its
    connection goes back to the pool while its owner waits on something
    else; what it loaded stays readable (``session_factory`` keeps objects
    after a commit), and its next query takes a connection again."""
    session.commit()


def create_schema(engine: Engine) -> None:
    """Bring the schema up to the newest migration (``referee.store.schema``):
    a new database gets every table, an older one the migrations it lacks, and
    one made before migrations is recognised; rows are kept. Several server
    workers starting at once on a new database take turns under a lock, and
    all but the first find nothing left to do."""
    schema.upgrade(engine)


def session_factory(url: str) -> sessionmaker[Session]:
    """Sessions on the database at ``url``, its schema upgraded first. Objects
    stay readable after a commit (``expire_on_commit=False``): a page renders
    what it just saved."""
    engine = make_engine(url)
    try:
        create_schema(engine)
    except BaseException:
        engine.dispose()  # the process will not start: close its connections now
        raise
    return sessionmaker(engine, expire_on_commit=False)
