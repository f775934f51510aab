"""Alembic's entry point: run the migrations on the engine it was handed.

``referee.store.schema.upgrade`` (every start) and ``flask --app referee db
...`` (Flask-Migrate) both come through here with the engine of the
database the app serves, in ``config.attributes["engine"]``. The whole run
is one transaction under the upgrade lock, so workers starting together
upgrade once, and a database made before migrations is stamped with the
first one instead of being created again.
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Engine

import referee.store.sheets  # noqa: F401  (registers the sheet models on Base)
from referee.store import schema
from referee.store.models import Base

config = context.config
if config.attributes.get("configure_logger", True) and config.config_file_name:
    fileConfig(config.config_file_name, disable_existing_loggers=False)

#: What ``--autogenerate`` compares the database with, and the migrations must equal.
target_metadata = Base.metadata


def run_offline() -> None:
    """``--sql``: print the SQL for the app's database (or one named by ``-x url=...``)
    instead of running it."""
    engine = config.attributes.get("engine")
    url = context.get_x_argument(as_dictionary=True).get("url") or (
        engine.url if isinstance(engine, Engine) else None
    )
    if not url:
        raise RuntimeError("Name the database whose SQL to print: -x url=postgresql://...")
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Upgrade (or whatever the command asks) inside one locked transaction."""
    engine = config.attributes.get("engine")
    if not isinstance(engine, Engine):
        raise RuntimeError("Run the migrations with `flask --app referee db ...`, which names the database.")
    with engine.connect() as connection, schema.locked(connection):
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=True,  # SQLite alters a table by copying it; see schema.locked
            compare_type=True,
        )
        migration = context.get_context()
        schema.adopt(migration, context.script)
        schema.check_known(migration, context.script)
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
