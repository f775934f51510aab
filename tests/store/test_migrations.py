"""Migrations (issue 12): the schema is Alembic's, an upgrade keeps every table
and sheet, and workers starting together upgrade once. On SQLite, and on
PostgreSQL when ``REFEREE_TEST_POSTGRES`` names a server (each test in a
schema of its own, dropped after).

"Before migrations" is frozen in ``tests/data/schema_before_migrations``: the
SQL that ``create_all`` ran on each database, and the rows of a table in
play (two seats, three sheets, a scored season) as the table layer wrote
them. Rows go in through plain SQL, so these tests keep working after the
models change."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, text

from referee.store import schema
from referee.store.db import make_engine, session_factory
from referee.store.models import Base, utcnow
from referee.table import open_table, records
from referee.table import sheets as table_sheets

ROOT = Path(__file__).resolve().parents[2]
BEFORE = ROOT / "tests" / "data" / "schema_before_migrations"
ROWS: dict[str, list[dict[str, Any]]] = json.loads((BEFORE / "rows.json").read_text(encoding="utf-8"))
TABLES = ("game_tables", "seats", "season_sheets", "season_scores")
JSON_COLUMNS = {
    "game_tables": {"setup"},
    "seats": set(),
    "season_sheets": {"monsters", "heroes", "effects"},
    "season_scores": {"detail"},
}
TIME_COLUMNS = {"created_at", "updated_at", "scored_at"}
LIFETIME = timedelta(days=30)


def schema_before_migrations(engine: Engine) -> None:
    """The tables as ``create_all`` made them before there were migrations."""
    lines = (BEFORE / f"{engine.dialect.name}.sql").read_text(encoding="utf-8").splitlines()
    sql = "\n".join(line for line in lines if not line.startswith("--"))
    statements = [statement for statement in sql.split(";") if statement.strip()]
    with engine.begin() as connection:
        for statement in statements:
            connection.exec_driver_sql(statement)


def fill(engine: Engine) -> None:
    """The frozen rows, last touched now (so the table has not expired)."""
    now = utcnow()
    with engine.begin() as connection:
        for name in TABLES:
            rows = [
                {
                    key: now
                    if key == "updated_at"
                    else datetime.fromisoformat(v)
                    if key in TIME_COLUMNS
                    else v
                    for key, v in row.items()
                }
                for row in ROWS[name]
            ]
            columns = [
                sa.column(
                    key,
                    sa.JSON()
                    if key in JSON_COLUMNS[name]
                    else sa.DateTime()
                    if key in TIME_COLUMNS
                    else None,
                )
                for key in rows[0]
            ]
            connection.execute(sa.insert(sa.table(name, *columns)), rows)
            if engine.dialect.name == "postgresql":  # as if the rows had been inserted one by one
                connection.execute(
                    text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), {len(rows)})")
                )


def dump(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in id order."""
    with engine.connect() as connection:
        return {
            name: [tuple(row) for row in connection.execute(text(f"SELECT * FROM {name} ORDER BY id"))]
            for name in TABLES
        }


def table_names(engine: Engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names())


def revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return schema.revision_of(connection)


def test_a_database_made_before_migrations_is_upgraded_with_every_table_and_sheet(
    new_database: Callable[[], str],
) -> None:
    url = new_database()
    engine = make_engine(url)
    schema_before_migrations(engine)
    fill(engine)
    before = dump(engine)
    assert [len(before[name]) for name in TABLES] == [1, 2, 3, 1]
    assert "alembic_version" not in table_names(engine)

    factory = session_factory(url)  # what every start of the app does
    session_factory(url).kw["bind"].dispose()  # and a second start finds nothing to do
    assert revision(engine) == schema.head()
    assert dump(engine) == before

    # The table layer plays on: the table opens, its sheets and score read back, a save goes in.
    session = factory()
    code = ROWS["game_tables"][0]["code"]
    t = open_table(session, code, LIFETIME)
    assert [seat.name for seat in t.seats] == ["Ann", "Ben"]
    assert t.table.taps == ROWS["game_tables"][0]["taps"]
    ann = t.seat(1)
    assert ann.holds("not the token") is False and ann.token_hash == ROWS["seats"][0]["token_hash"]
    spring = records.find_sheet(session, ann, 0)
    assert spring is not None and spring.map_text == ROWS["season_sheets"][0]["map_text"]
    assert spring.coins == 2 and spring.revision == ROWS["season_sheets"][0]["revision"]
    score = records.find_score(session, ann, 0)
    assert score is not None and (score.first_stars, score.total) == (3, ROWS["season_scores"][0]["total"])
    assert score.detail == ROWS["season_scores"][0]["detail"]
    summer = table_sheets.open_sheet(session, t, ann, 1)
    saved = table_sheets.save(
        session, t, ann, 1, {"revision": summer.revision, "map": summer.map_text, "coins": 3}
    )
    assert saved.sheet.coins == 3
    session.close()
    factory.kw["bind"].dispose()
    engine.dispose()


def test_the_schema_before_migrations_is_exactly_the_first_migration(
    new_database: Callable[[], str],
) -> None:
    """Why a database without ``alembic_version`` may be stamped with 0001."""
    before, first = make_engine(new_database()), make_engine(new_database())
    schema_before_migrations(before)
    schema.upgrade(first, schema.BASELINE)
    reflected = sa.MetaData()
    reflected.reflect(first)
    reflected.remove(reflected.tables["alembic_version"])
    with before.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), reflected) == []
    before.dispose()
    first.dispose()


def test_the_migrations_make_exactly_the_models_schema(new_database: Callable[[], str]) -> None:
    """A change to the models without a migration fails here (``flask db check`` says the same)."""
    engine = make_engine(new_database())
    schema.upgrade(engine)
    changed = sa.MetaData()
    for table in Base.metadata.sorted_tables:
        table.to_metadata(changed)
    changed.tables["seats"].append_column(sa.Column("nickname", sa.String(20)))
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
        diff = compare_metadata(context, changed)
    assert [(step[0], step[2]) for step in diff] == [("add_column", "seats")]
    engine.dispose()


RACE = """
import sys, time
from pathlib import Path
go = Path(sys.argv[1])
while not go.exists():
    time.sleep(0.002)
from referee.store.db import session_factory
from referee.store import schema
engine = session_factory(sys.argv[2]).kw["bind"]
with engine.connect() as connection:
    print(schema.revision_of(connection))
"""


def test_workers_starting_at_once_on_a_new_database_upgrade_it_once(
    new_database: Callable[[], str], tmp_path: Path
) -> None:
    url = new_database()
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RACE, str(go), url],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    time.sleep(1.5)  # let every interpreter import what it needs and wait
    go.touch()
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert out.strip() == schema.head()
    engine = make_engine(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    assert table_names(engine) >= set(TABLES)
    engine.dispose()


FAILING = '''"""A migration that fails halfway."""

import sqlalchemy as sa
from alembic import op

revision = "0999"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("half_done", sa.Column("id", sa.Integer(), primary_key=True))
    op.add_column("seats", sa.Column("nickname", sa.String(20), nullable=True))
    raise RuntimeError("the migration failed halfway")


def downgrade() -> None:
    pass
'''

SEATS_COPIED = '''"""Widen a seat's name as autogenerate writes it (SQLite copies the table)."""

import sqlalchemy as sa
from alembic import op

revision = "0999"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("name", type_=sa.String(60), existing_type=sa.String(40), existing_nullable=False)


def downgrade() -> None:
    pass
'''


def with_migration(tmp_path: Path, source: str) -> Path:
    """A copy of the migrations with one more, after the newest."""
    folder = tmp_path / "migrations"
    shutil.copytree(schema.MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "versions" / "0999_extra.py").write_text(source.format(head=schema.head()), encoding="utf-8")
    return folder


def test_a_failed_migration_changes_nothing(new_database: Callable[[], str], tmp_path: Path) -> None:
    url = new_database()
    engine = make_engine(url)
    schema_before_migrations(engine)
    fill(engine)
    before = dump(engine)
    with pytest.raises(RuntimeError, match="failed halfway"):
        schema.upgrade(engine, migrations=with_migration(tmp_path, FAILING))
    # Not even the stamp of the first migration stayed: the upgrade was one transaction.
    assert table_names(engine) == set(TABLES)
    assert dump(engine) == before
    schema.upgrade(engine)  # the real migrations still run afterwards
    assert revision(engine) == schema.head() and dump(engine) == before
    engine.dispose()


def test_a_migration_that_copies_the_seats_table_keeps_every_sheet(
    new_database: Callable[[], str], tmp_path: Path
) -> None:
    """On SQLite, dropping the old ``seats`` with foreign keys on would cascade
    to every sheet and score; the upgrade turns them off while it runs."""
    url = new_database()
    engine = make_engine(url)
    schema_before_migrations(engine)
    fill(engine)
    before = dump(engine)
    schema.upgrade(engine, migrations=with_migration(tmp_path, SEATS_COPIED))
    assert revision(engine) == "0999"
    assert dump(engine) == before
    with engine.connect() as connection:  # and foreign keys are on again for the app
        if engine.dialect.name == "sqlite":
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        connection.execute(text("DELETE FROM game_tables"))
        assert connection.execute(text("SELECT count(*) FROM season_sheets")).scalar() == 0
    engine.dispose()


def test_a_database_from_a_newer_referee_is_refused_with_a_sentence(
    new_database: Callable[[], str],
) -> None:
    url = new_database()
    engine = make_engine(url)
    schema.upgrade(engine)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
    with pytest.raises(
        schema.SchemaTooNew, match="at migration f00d, which this version of referee does not know"
    ):
        session_factory(url)
    assert revision(engine) == "f00d"
    engine.dispose()


def test_a_database_with_only_some_of_the_tables_is_refused(new_database: Callable[[], str]) -> None:
    engine = make_engine(new_database())
    schema_before_migrations(engine)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE season_scores"))
    with pytest.raises(RuntimeError, match="not season_scores, and no record of its migrations"):
        schema.upgrade(engine)
    engine.dispose()
