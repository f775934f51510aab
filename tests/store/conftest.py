"""Empty databases of each kind the app runs on, for the store's tests and
the table layer's purge: SQLite files, and PostgreSQL schemas when
``REFEREE_TEST_POSTGRES`` names a server (skipped without one, unless
``REFEREE_REQUIRE_POSTGRES=1``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from referee.store.db import engine_url, make_engine
from tests.web.test_postgres import REQUIRED, URL, _unavailable


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], str]]:
    """Makes empty databases of one kind: SQLite files, or PostgreSQL schemas
    (the URL sets ``search_path``, so the app sees only that schema)."""
    made: list[str] = []
    if request.param == "sqlite":

        def sqlite() -> str:
            made.append(f"sqlite:///{tmp_path / f'db{len(made)}.sqlite'}")
            return made[-1]

        yield sqlite
        return
    reason = _unavailable()
    if reason:
        if REQUIRED:
            pytest.fail(f"{reason}, and REFEREE_REQUIRE_POSTGRES=1")
        pytest.skip(reason)
    admin = make_engine(URL)

    def postgres() -> str:
        name = f"migrations_{secrets.token_hex(6)}"
        with admin.begin() as connection:
            connection.execute(text(f"CREATE SCHEMA {name}"))
        made.append(name)
        base = engine_url(URL)
        return f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{name}"

    yield postgres
    with admin.begin() as connection:
        for name in made:
            connection.execute(text(f"DROP SCHEMA {name} CASCADE"))
    admin.dispose()
