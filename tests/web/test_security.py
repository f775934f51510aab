"""Security from issue 12: the headers every answer carries, the cookies'
flags, and ``REFEREE_PROXY`` (Werkzeug's ProxyFix) behind nginx."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import create_table, csrf_token, make_app

FORWARDED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "referee.example",
    "X-Forwarded-For": "1.2.3.4",
}


@pytest.mark.parametrize("path", ["/", "/t/NOPE", "/api/t/NOPE", "/static/js/table.js", "/legend"])
def test_every_answer_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    response.close()
    headers = response.headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]


def test_the_host_page_carries_them_too(client: FlaskClient) -> None:
    code, token, _ = create_table(client)
    headers = client.get(f"/t/{code}/host/{token}").headers
    assert headers["Referrer-Policy"] == "same-origin"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]


def test_no_page_has_an_inline_script_or_event_handler() -> None:
    """``script-src 'self'`` runs no inline script; a JSON data block is not one."""
    import re

    for template in Path("templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\b(src|type=\"application/json\"))[^>]*>", text), template
        assert not re.search(r"\son[a-z]+\s*=", text), template


def _session_cookie(response: object) -> str:
    cookies = response.headers.getlist("Set-Cookie")  # type: ignore[attr-defined]
    return next(c for c in cookies if c.startswith("session="))


def test_the_session_cookie_is_lax_and_not_secure_without_a_proxy(client: FlaskClient) -> None:
    cookie = _session_cookie(client.get("/"))
    assert "SameSite=Lax" in cookie and "Secure" not in cookie


def test_without_referee_proxy_forwarded_headers_are_ignored(client: FlaskClient) -> None:
    code, token, _ = create_table(client)
    page = client.get(f"/t/{code}/host/{token}", headers=FORWARDED)
    assert f"http://localhost/t/{code}" in page.text
    assert "referee.example" not in page.text


@pytest.fixture()
def proxied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    monkeypatch.setenv("REFEREE_PROXY", "1")
    return make_app(f"sqlite:///{tmp_path / 'referee.sqlite'}", tmp_path)


def test_behind_a_proxy_the_join_link_and_cookies_follow_its_headers(proxied: Flask) -> None:
    """The phone speaks HTTPS to nginx, which speaks HTTP to the app; the
    browser sends ``Referer`` to this site only (``same-origin``), which
    Flask-WTF requires over HTTPS."""
    client = proxied.test_client()
    page = client.get("/", headers=FORWARDED)
    assert "Secure" in _session_cookie(page) and "SameSite=Lax" in _session_cookie(page)
    response = client.post(
        "/",
        data={
            "players": "Ann\nBen",
            "edition": "base",
            "map_side": "A",
            "edicts": "random",
            "seed": "s-1",
            "csrf_token": csrf_token(page.text),
        },
        headers={**FORWARDED, "Referer": "https://referee.example/"},
    )
    assert response.status_code == 303, response.text
    location = response.headers["Location"]
    host = client.get(location, headers=FORWARDED)
    code = location.split("/t/")[1].split("/")[0]
    assert f"https://referee.example/t/{code}" in host.text
    token = location.rsplit("/", 1)[1]
    handed = client.get(f"/t/{code}/sheets?host={token}", headers=FORWARDED)
    host_cookie = next(c for c in handed.headers.getlist("Set-Cookie") if c.startswith(f"host_{code}="))
    assert "Secure" in host_cookie and "HttpOnly" in host_cookie and "SameSite=Lax" in host_cookie


def test_a_bad_referee_proxy_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_PROXY", "yes")
    with pytest.raises(ValueError, match="REFEREE_PROXY must be a whole number"):
        make_app(f"sqlite:///{tmp_path / 'referee.sqlite'}", tmp_path)
