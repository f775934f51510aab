"""``flask --app referee db ...`` (Flask-Migrate) runs the store's migrations
on the app's database: the README's ``db upgrade`` as a person types it,
and a downgrade and upgrade through the app's CLI runner."""

from __future__ import annotations

import os
import shutil
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


def test_db_migrate_writes_the_next_migration_from_the_template(app: Flask, tmp_path: Path) -> None:
    """The README's way to write the next migration, into a copy of the
    migrations: with the models unchanged it is empty, typed and next in line."""
    folder = tmp_path / "migrations"
    shutil.copytree(schema.MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    args = ["db", "migrate", "-d", str(folder), "-m", "what changed", "--rev-id", "0002"]
    result = app.test_cli_runner().invoke(args=args)
    assert result.exit_code == 0, result.output
    written = (folder / "versions" / "0002_what_changed.py").read_text(encoding="utf-8")
    assert 'revision = "0002"' in written.replace("'", '"')
    assert f'down_revision = "{schema.head()}"' in written.replace("'", '"')
    upgrade = written.split("def upgrade() -> None:")[1].split("def downgrade")[0]
    assert "op." not in upgrade and "pass" in upgrade  # nothing to do: the models match
    compile(written, "0002_what_changed.py", "exec")


def test_the_readme_gives_the_commands_tested_here() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in (
        "flask --app referee db upgrade\n",
        'flask --app referee db migrate -m "what changed" --rev-id 0002\n',
        "flask --app referee purge\n",
        "python bench/page_bytes.py",
    ):
        assert command in readme, command
