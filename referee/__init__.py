"""referee: a table companion for Cartographers and Cartographers Heroes.

``referee.rules`` is the pure engine; ``referee.vision`` reads photos of map
sheets; ``referee.web`` is the Flask app. Importing this package pulls in
none of them, so the engine stays free of Flask, OpenCV and the database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the Flask app (``flask --app referee run`` finds this)."""
    from referee.web.app import create_app as _create_app

    app: Flask = _create_app(test_config)
    return app
