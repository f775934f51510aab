"""Bytes on the wire (issue 12): answers compressed when the browser asks
and only then, never an event stream; static files under content-hashed
names cached for a year, an old or plain name still served; and the
security headers and CSP on all of it, in Chromium too."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask, Response, request
from flask.testing import FlaskClient

from referee.web import assets
from referee.web.assets import Assets
from tests.browser import ARGS, CHROMIUM, LiveServer, playwright_or_skip
from tests.web.conftest import create_table

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
LONG = "public, max-age=31536000, immutable"


def hashed_url(html: str, name: str) -> str:
    """The address a page gives for ``static/<name>``."""
    stem, ext = name.rsplit(".", 1)
    found = re.search(rf'"(/static/{re.escape(stem)}\.[0-9a-f]{{10}}\.{ext})"', html)
    assert found, f"no hashed address for {name}"
    return found.group(1)


# --- compression -------------------------------------------------------------------------------------


@pytest.mark.parametrize("accept", ["gzip", "gzip, deflate", "deflate, gzip;q=0.5"])
def test_a_page_is_gzipped_when_the_browser_asks(client: FlaskClient, accept: str) -> None:
    plain = client.get("/")
    assert "Content-Encoding" not in plain.headers
    packed = client.get("/", headers={"Accept-Encoding": accept})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    page = gzip.decompress(packed.data).decode()
    assert "Set up a table" in page
    assert len(packed.data) < len(plain.data) * 0.4
    assert int(packed.headers["Content-Length"]) == len(packed.data)


@pytest.mark.parametrize("accept", [None, "", "identity", "gzip;q=0, identity", "compress"])
def test_a_page_is_sent_plain_when_the_browser_does_not_ask(client: FlaskClient, accept: str | None) -> None:
    headers = {} if accept is None else {"Accept-Encoding": accept}
    response = client.get("/", headers=headers)
    assert "Content-Encoding" not in response.headers
    assert "Set up a table" in response.text


def test_brotli_is_preferred_when_offered(client: FlaskClient) -> None:
    response = client.get("/", headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert response.headers["Content-Encoding"] == "br"
    assert len(response.data) < len(client.get("/").data) * 0.4


def test_static_files_are_compressed_too(client: FlaskClient) -> None:
    url = hashed_url(client.get("/").text, "css/app.css")
    response = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.data) == (STATIC / "css" / "app.css").read_bytes()


@pytest.fixture()
def streams(app: Flask) -> Flask:
    """Two event-stream answers, as server push would send them: streamed, and whole."""
    data = [json.dumps({"taps": i, "pad": "x" * 40}) for i in range(50)]
    events = "".join(f"event: reveal\ndata: {line}\n\n" for line in data)

    def streamed() -> Response:
        return Response((chunk + "\n\n" for chunk in events.split("\n\n")), mimetype="text/event-stream")

    def whole() -> Response:
        return Response(events, mimetype="text/event-stream")

    app.add_url_rule("/test/stream", view_func=streamed)
    app.add_url_rule("/test/whole-stream", view_func=whole)
    return app


@pytest.mark.parametrize("path", ["/test/stream", "/test/whole-stream"])
def test_an_event_stream_is_never_compressed(streams: Flask, path: str) -> None:
    response = streams.test_client().get(path, headers={"Accept-Encoding": "br, gzip, deflate, zstd"})
    assert "Content-Encoding" not in response.headers
    assert response.text.startswith("event: reveal\ndata: ")


def test_a_view_answering_304_itself_matches_the_compressed_etag(app: Flask) -> None:
    """A poll's 304 saves the server the rendering: the browser sends back the
    ETag of the compressed answer (``"tag:gzip"``), and the view, which only
    knows ``"tag"``, must still see its own tag."""
    rendered: list[int] = []

    def polled() -> Response:
        if request.if_none_match.contains("table-7"):
            response = Response(status=304)
        else:
            rendered.append(1)
            response = Response(json.dumps({"cards": ["x" * 20] * 100}), mimetype="application/json")
        response.set_etag("table-7")
        return response

    app.add_url_rule("/test/poll", view_func=polled)
    client = app.test_client()
    first = client.get("/test/poll", headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "gzip"
    etag = first.headers["ETag"]
    assert etag == '"table-7:gzip"'
    again = client.get("/test/poll", headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status_code == 304 and rendered == [1]


# --- static files under hashed names -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["css/app.css", "favicon.svg"])
def test_pages_name_static_files_by_their_content_and_they_are_kept_a_year(
    client: FlaskClient, name: str
) -> None:
    url = hashed_url(client.get("/").text, name)
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == LONG
    assert response.data == (STATIC / name).read_bytes()
    assert response.mimetype == ("text/css" if name.endswith(".css") else "image/svg+xml")


def test_the_editor_page_loads_its_scripts_and_styles_by_hashed_name(client: FlaskClient) -> None:
    code, _, _ = create_table(client)
    page = client.get(f"/t/{code}/sheets/1/spring").text
    for name in ("css/app.css", "css/sheets.css", "js/editor.js", "js/photo.js"):
        response = client.get(hashed_url(page, name))
        assert response.headers["Cache-Control"] == LONG
        assert response.data == (STATIC / name).read_bytes()
    assert not re.search(r'/static/[^"]+\.(css|js)"', re.sub(r"\.[0-9a-f]{10}\.(css|js)\"", "", page))


@pytest.mark.parametrize(
    "path", ["/static/css/app.css", "/static/css/app.0123456789.css", "/static/css/app.ffffffffff.css"]
)
def test_a_plain_or_stale_name_still_gets_todays_file_for_now(client: FlaskClient, path: str) -> None:
    """A page left open on a phone across an upgrade asks for the old name."""
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.data == (STATIC / "css" / "app.css").read_bytes()
    again = client.get(path, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize(
    "path", ["/static/css/nope.css", "/static/css/nope.0123456789.css", "/static/../README.md", "/static/css"]
)
def test_no_other_file_is_served(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "There is no page at this address." in response.text


def test_files_are_hashed_once_and_served_as_hashed(tmp_path: Path) -> None:
    """Once per process: a file changed on disk afterwards keeps its old name
    and bytes until the next start, so a name never serves other bytes."""
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("one()")
    (tmp_path / ".hidden").write_text("secret")
    (tmp_path / "LICENSE").write_text("text")
    found = Assets(tmp_path)
    (tmp_path / "js" / "a.js").write_text("two()")
    asset, current = found.find(found.by_name["js/a.js"].hashed) or (None, False)
    assert asset is not None and current and asset.body == b"one()"
    assert re.fullmatch(r"js/a\.[0-9a-f]{10}\.js", asset.hashed)
    license = found.by_name["LICENSE"]
    assert license.hashed == f"LICENSE.{license.digest[:10]}"  # no extension: the hash goes last
    assert ".hidden" not in found.by_name
    assert Assets(tmp_path).by_name["js/a.js"].hashed != asset.hashed  # the next start: a new name


def test_debug_mode_keeps_flasks_own_static_files(app: Flask) -> None:
    debug = Flask("debug", static_folder=str(STATIC))
    debug.debug = True
    assets.init_app(debug)
    with debug.test_request_context():
        from flask import url_for

        assert url_for("static", filename="css/app.css") == "/static/css/app.css"
    assert assets.EXTENSION not in debug.extensions


# --- the security headers still hold -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["hashed", "stale", "page"])
def test_compressed_and_static_answers_carry_the_security_headers(client: FlaskClient, kind: str) -> None:
    page = client.get("/")
    path = {"hashed": hashed_url(page.text, "css/app.css"), "stale": "/static/js/table.0000000000.js"}.get(
        kind, "/"
    )
    headers = client.get(path, headers={"Accept-Encoding": "gzip"}).headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"


@pytest.fixture()
def live(app: Flask) -> Iterator[str]:
    server = LiveServer(app)
    yield server.url
    server.stop()


@pytest.mark.browser
def test_chromium_loads_the_editor_compressed_and_hashed_and_comes_back_from_its_cache(
    app: Flask, live: str
) -> None:
    """The editor's scripts run under the CSP from their hashed addresses, all
    compressed; a second visit asks the server for the page alone."""
    code, _, _ = create_table(app.test_client())
    sync_playwright = playwright_or_skip()
    served: list[str] = []
    inner = app.wsgi_app

    def counted(environ: dict[str, str], start_response: object) -> object:
        served.append(environ["PATH_INFO"])
        return inner(environ, start_response)  # type: ignore[arg-type]

    app.wsgi_app = counted  # type: ignore[method-assign,assignment]
    messages: list[str] = []
    encodings: dict[str, str] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            page.on("console", lambda m: messages.append(m.text))
            page.on("pageerror", lambda e: messages.append(f"page error: {e}"))
            page.on("response", lambda r: encodings.update({r.url: r.headers.get("content-encoding", "")}))
            url = f"{live}/t/{code}/sheets/1/spring"
            page.goto(url, wait_until="networkidle")
            page.wait_for_selector('#board .cell[data-i="0"]')  # editor.js drew the grid
            first = list(served)
            served.clear()
            page.goto(url, wait_until="networkidle")
            page.wait_for_selector('#board .cell[data-i="0"]')
        finally:
            browser.close()
    statics = [path for path in first if path.startswith("/static/")]
    assert len(statics) >= 4 and all(re.search(r"\.[0-9a-f]{10}\.\w+$", path) for path in statics), first
    assert {encodings[u] for u in encodings if "/static/" in u and not u.endswith(".svg")} == {"br"}
    assert served == [f"/t/{code}/sheets/1/spring"]
    assert not [m for m in messages if "Content Security Policy" in m or "page error" in m], messages
