"""The application factory: configuration, extensions and blueprints.

No app object exists at import time; ``create_app`` wires everything, as in
the Flask tutorial. Configuration comes from the environment (``Config``) and
tests override it with a dict.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf import CSRFProtect

from referee.rules.words import plural
from referee.web import database

ROOT = Path(__file__).resolve().parent.parent.parent
csrf = CSRFProtect()


class Config:
    """Settings read from the environment, with defaults for a home server."""

    MAX_CONTENT_LENGTH = 16 * 1024 * 1024
    """Photos of map sheets come later; nothing else is near this size."""
    TABLE_LIFETIME = timedelta(days=int(os.environ.get("REFEREE_TABLE_DAYS", "30")))
    """A table untouched this long has expired (410)."""
    POLL_MS = int(os.environ.get("REFEREE_POLL_MS", "1000"))
    """How often followers ask whether the host revealed a card."""
    WTF_CSRF_TIME_LIMIT = None
    """A host may leave the page open for a whole game; the token lives as long as the session."""

    def __init__(self, instance_path: str) -> None:
        self.SECRET_KEY = os.environ.get("SECRET_KEY") or _instance_secret(Path(instance_path))
        self.DATABASE_URL = os.environ.get("DATABASE_URL") or (
            f"sqlite:///{Path(instance_path) / 'referee.sqlite'}"
        )


def _instance_secret(folder: Path) -> str:
    """A random key kept in the instance folder, so sessions survive restarts."""
    path = folder / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        "referee",
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_object(Config(app.instance_path))
    if test_config is not None:
        app.config.update(test_config)

    app.add_template_filter(plural)  # {{ n|plural("square") }}: "1 square", "2 squares"
    csrf.init_app(app)
    database.init_app(app)

    from referee.web import dealer, errors, photo, sheets

    app.register_blueprint(errors.bp)
    app.register_blueprint(dealer.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(photo.bp)
    return app
