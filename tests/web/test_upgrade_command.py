"""``flask --app referee db ...`` (Flask-Migrate) runs the store's migrations
on the app's database: the README's ``db upgrade`` as a person types it,
and a downgrade and upgrade through the app's CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from flask import Flask
from sqlalchemy import inspect

from referee.store import schema
from referee.store.db import make_engine
from referee.web.database import engine_of
from tests.store.test_migrations import dump, fill, schema_before_migrations

ROOT = Path(__file__).resolve().parents[2]


def test_flask_db_upgrade_upgrades_a_database_made_before_migrations(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    engine = make_engine(f"sqlite:///{instance / 'referee.sqlite'}")
    schema_before_migrations(engine)
    fill(engine)
    before = dump(engine)
    env = {**os.environ, "REFEREE_INSTANCE": str(instance), "SECRET_KEY": "test"}
    env.pop("DATABASE_URL", None)
    flask = [sys.executable, "-m", "flask", "--app", "referee"]
    done = subprocess.run([*flask, "db", "upgrade"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    current = subprocess.run([*flask, "db", "current"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert current.returncode == 0 and f"{schema.head()} (head)" in current.stdout, current.stderr
    with engine.connect() as connection:
        assert schema.revision_of(connection) == schema.head()
    assert dump(engine) == before
    engine.dispose()


def test_db_downgrade_and_upgrade_through_the_app(app: Flask) -> None:
    runner = app.test_cli_runner()
    engine = engine_of(app)
    assert runner.invoke(args=["db", "downgrade", "base"]).exit_code == 0
    assert inspect(engine).get_table_names() == ["alembic_version"]
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    tables = set(inspect(engine).get_table_names())
    assert {"game_tables", "seats", "season_sheets", "season_scores"} <= tables
    assert runner.invoke(args=["db", "check"]).exit_code == 0
