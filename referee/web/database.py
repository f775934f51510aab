"""One database session per request: the app's only wiring to ``referee.store``.

``referee.store.db`` knows nothing of Flask; here the app factory builds the
session factory from ``DATABASE_URL`` (creating the schema), and each request
(each app context) gets its own session on first use, removed when the context
ends. It is SQLAlchemy's ``scoped_session`` keyed by the app context, the
pattern SQLAlchemy's documentation gives for web applications. Views never use
the session themselves: they hand it to a function of ``referee.table``.
"""

from __future__ import annotations

from flask import Flask, current_app, g
from sqlalchemy import Engine
from sqlalchemy.orm import Session, scoped_session

from referee.store.db import release, session_factory

EXTENSION = "referee.db"


def _context_id() -> int:
    """The current app context (through its ``g``): one session per context."""
    return id(g._get_current_object())


def init_app(app: Flask) -> None:
    """Build the engine, create missing tables and end each context's session at teardown."""
    app.extensions[EXTENSION] = scoped_session(
        session_factory(app.config["DATABASE_URL"]), scopefunc=_context_id
    )
    app.teardown_appcontext(close_session)


def _sessions(app: Flask) -> scoped_session[Session]:
    sessions: scoped_session[Session] = app.extensions[EXTENSION]
    return sessions


def engine_of(app: Flask) -> Engine:
    """The app's engine (tests dispose of it to simulate a restart)."""
    bind = _sessions(app).session_factory.kw["bind"]
    assert isinstance(bind, Engine)
    return bind


def get_session() -> Session:
    """This request's session, opened on first use."""
    return _sessions(current_app)()


def close_session(_exc: BaseException | None = None) -> None:
    """Close and forget this context's session, if it opened one."""
    _sessions(current_app).remove()


def release_connection() -> None:
    """Give this request's database connection back to the pool while the
    request waits on something else: a photo being read in the worker's
    reading thread (``offload``). Under gevent a worker's photos wait their
    turn for that one thread, and each held its connection meanwhile: 24
    photos sent at once held all of them, and a host's tap waited 21 s for
    one (``referee.store.db.release``)."""
    release(get_session())
