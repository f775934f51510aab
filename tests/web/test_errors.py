"""Error answers: one sentence, the right status, HTML or JSON, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from referee.store.db import engine_url
from referee.web.app import Config
from tests.web.conftest import make_app


def test_a_crash_is_a_500_with_a_sentence_and_no_traceback(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path)

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    client = app.test_client()
    page = client.get("/boom")
    assert page.status_code == 500
    assert "Something went wrong on the server; try again in a moment." in page.text
    assert "secret internals" not in page.text and "Traceback" not in page.text
    api = client.get("/boom", headers={"Accept": "application/json"})
    assert api.get_json() == {
        "error": "Something went wrong on the server; try again in a moment.",
        "status": 500,
    }


def test_a_too_large_upload_is_413(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path, MAX_CONTENT_LENGTH=1000)
    response = app.test_client().post("/", data={"players": "x" * 5000})
    assert response.status_code == 413
    assert "That upload is too large." in response.text


def test_a_wrong_method_is_405_with_a_sentence(app: Flask) -> None:
    response = app.test_client().get("/t/ABCDEF/reveal")
    assert response.status_code == 405
    assert "That page cannot be used that way." in response.text


def test_the_default_config_keeps_its_secret_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    first = Config(str(tmp_path))
    second = Config(str(tmp_path))
    assert first.SECRET_KEY == second.SECRET_KEY and len(first.SECRET_KEY) == 64
    assert first.DATABASE_URL == f"sqlite:///{tmp_path / 'referee.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@localhost/db")
    assert Config(str(tmp_path)).DATABASE_URL == "postgresql://u:p@localhost/db"


def test_postgres_urls_use_psycopg() -> None:
    assert engine_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert engine_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert engine_url("sqlite:///x.sqlite") == "sqlite:///x.sqlite"
