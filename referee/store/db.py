"""The database: one engine per app, one session per request.

Plain SQLAlchemy 2 rather than Flask-SQLAlchemy, so the models stay ordinary
classes and the same code runs from a script. SQLite is the default (a file in
the instance folder); ``DATABASE_URL`` may name PostgreSQL instead. SQLite gets
foreign keys, WAL and a busy timeout so that several followers polling while
the host reveals do not trip over each other's locks.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask, current_app, g
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

#: How long (ms) an SQLite writer waits for another writer before giving up.
SQLITE_BUSY_TIMEOUT_MS = 10_000


class Base(DeclarativeBase):
    """The declarative base every model of the project inherits from."""


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
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


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
    return create_engine(url, pool_pre_ping=True)


def init_app(app: Flask) -> None:
    """Build the engine, create missing tables and close sessions at teardown."""
    import referee.store.models  # noqa: F401  (registers the models on Base)

    engine = make_engine(app.config["DATABASE_URL"])
    Base.metadata.create_all(engine)
    app.extensions["referee.db"] = sessionmaker(engine, expire_on_commit=False)
    app.teardown_appcontext(close_session)


def engine_of(app: Flask) -> Engine:
    """The app's engine (tests dispose of it to simulate a restart)."""
    factory: sessionmaker[Session] = app.extensions["referee.db"]
    bind = factory.kw["bind"]
    assert isinstance(bind, Engine)
    return bind


def get_session() -> Session:
    """This request's session, opened on first use."""
    if "db_session" not in g:
        factory: sessionmaker[Session] = current_app.extensions["referee.db"]
        g.db_session = factory()
    session: Session = g.db_session
    return session


def close_session(_exc: BaseException | None = None) -> None:
    session: Session | None = g.pop("db_session", None)
    if session is not None:
        session.close()
