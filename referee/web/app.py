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

from referee.web import assets, compression, database, i18n, migrations, purge, security
from referee.web.inputs import setting

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
    SESSION_COOKIE_SAMESITE = "Lax"
    """The session (it holds the CSRF secret) is not sent with other sites' requests."""

    def __init__(self, instance_path: str) -> None:
        self.PROXY = setting(os.environ.get("REFEREE_PROXY", "0"), "REFEREE_PROXY", 0, 9)
        """How many reverse proxies stand in front (0: none); their ``X-Forwarded-*``
        headers are trusted (``security.py``). The proxy is taken to serve HTTPS, so the
        session cookie is then ``Secure``."""
        self.SESSION_COOKIE_SECURE = self.PROXY > 0
        self.PHOTO_WAIT = setting(
            os.environ.get("REFEREE_PHOTO_WAIT", "30"), "REFEREE_PHOTO_WAIT", 1, 600, "seconds"
        )
        """Longest a photo waits for its worker's reading thread before the
        player is asked to send it again (``offload.ReaderBusy``): half of
        the 60 s after which nginx, in front, gives up on an answer, the
        other half left for the photo's own reading."""
        self.SECRET_KEY = os.environ.get("SECRET_KEY") or _instance_secret(Path(instance_path))
        self.DATABASE_URL = os.environ.get("DATABASE_URL") or (
            f"sqlite:///{Path(instance_path) / 'referee.sqlite'}"
        )


class EmptySecretKey(RuntimeError):
    """The instance folder's key file exists but holds no key."""


def _instance_secret(folder: Path) -> str:
    """A random key kept in the instance folder, so sessions survive restarts.

    Several server workers may start at once on a fresh folder and must all
    end up with the same key: each writes a key to a file of its own and
    hard-links it into place, which succeeds for one of them only and shows
    the key whole or not at all; every one then reads the key that won. An
    empty key file is refused, never used."""
    path = folder / "secret_key"
    if not path.exists():
        tmp = folder / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(secrets.token_hex(32))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another worker's key won
        except OSError:  # a file system without hard links: move it in unless one is there now
            if not path.exists():
                os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    key = path.read_text(encoding="utf-8").strip()
    if not key:
        raise EmptySecretKey(
            f"The key file {path} is empty: delete it and a new key is made, or set SECRET_KEY."
        )
    return key


def instance_path() -> str | None:
    """``REFEREE_INSTANCE`` when set (as an absolute path), else Flask's default, ``instance/``."""
    folder = os.environ.get("REFEREE_INSTANCE")
    return os.path.abspath(folder) if folder else None


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        "referee",
        instance_path=instance_path(),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_object(Config(app.instance_path))
    if test_config is not None:
        app.config.update(test_config)

    i18n.init_app(app)  # Flask-Babel: the reader's language, and the engine's sentences in it
    csrf.init_app(app)
    database.init_app(app)
    migrations.init_app(app)
    purge.init_app(app)
    security.init_app(app)
    compression.init_app(app)
    assets.init_app(app)

    from referee.web import dealer, errors, offline, panels, photo, push, sheets

    panels.init_app(app)
    push.init_app(app)

    app.register_blueprint(errors.bp)
    app.register_blueprint(dealer.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(photo.bp)
    app.register_blueprint(push.bp)
    app.register_blueprint(offline.bp)
    return app
