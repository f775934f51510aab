"""``flask --app referee db ...``: Flask-Migrate's commands on our migrations.

The migrations live with the models (``referee/store/migrations``), and the
app upgrades the database itself on every start (``referee.web.database``,
through ``referee.store.db.session_factory``). Flask-Migrate adds the
conventional commands around them: ``db upgrade`` to run them by hand,
``db migrate -m "..." --rev-id 0002`` to write the next one from a change to
the models, ``db current``, ``db history``, ``db downgrade``, ``db check``.
Each runs on the engine the app serves, under the same lock as the start.
"""

from __future__ import annotations

from alembic.config import Config
from flask import Flask, current_app
from flask_migrate import Migrate

from referee.store import schema
from referee.web.database import engine_of

migrate = Migrate(directory=str(schema.MIGRATIONS))


@migrate.configure
def _app_engine(config: Config) -> Config:
    """Hand ``env.py`` the engine of the app the command runs for."""
    config.attributes["engine"] = engine_of(current_app)
    return config


def init_app(app: Flask) -> None:
    """Add the ``db`` command group, pointed at the store's migrations."""
    migrate.init_app(app)
