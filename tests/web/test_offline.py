"""Installing the app and the host's offline dealer, as the server serves
them: the manifest and its icons, the service worker and what it keeps, the
offline page, and the whole deal for the host only (``referee/web/offline.py``).
The browser side is ``test_offline_browser.py``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from referee.rules import deck
from referee.web.offline import BACKGROUND_COLOUR, THEME_COLOUR, fingerprint
from tests.web.conftest import act, create_table

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_manifest_is_json_of_its_own_type(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.text)
    assert manifest["name"] and manifest["short_name"]
    assert len(manifest["short_name"]) <= 12  # what a home screen shows under the icon
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == THEME_COLOUR and manifest["background_color"] == BACKGROUND_COLOUR


def test_every_icon_is_served_at_its_stated_size(client: FlaskClient) -> None:
    icons = client.get("/manifest.webmanifest").get_json(force=True)["icons"]
    purposes = set()
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        assert response.mimetype == icon["type"] == "image/png"
        image = Image.open(io.BytesIO(response.data))
        assert f"{image.width}x{image.height}" == icon["sizes"], icon["src"]
        response.close()
        purposes.add((icon["purpose"], icon["sizes"]))
    assert {("any", "192x192"), ("any", "512x512"), ("maskable", "512x512")} <= purposes


def test_the_maskable_icon_fills_its_square_and_keeps_the_tiles_in_the_safe_circle() -> None:
    """A launcher may cut the icon to a circle of 40 % radius: the corners
    are the dark ground, and nothing but the ground lies outside that circle."""
    image = Image.open(ROOT / "static" / "icons" / "icon-maskable-512.png").convert("RGB")
    ground = tuple(int(THEME_COLOUR[i : i + 2], 16) for i in (1, 3, 5))
    size = image.width
    for x, y in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)]:
        assert image.getpixel((x, y)) == ground
    outside = [
        (x, y)
        for x in range(0, size, 4)
        for y in range(0, size, 4)
        if (x - size / 2) ** 2 + (y - size / 2) ** 2 > (0.4 * size) ** 2
        and max(abs(a - b) for a, b in zip(image.getpixel((x, y)), ground, strict=True)) > 8
    ]
    assert outside == []


def test_the_theme_colour_is_the_top_bars_and_the_background_the_papers() -> None:
    css = (ROOT / "static" / "css" / "app.css").read_text(encoding="utf-8")
    top = re.search(r"^\.top \{[^}]*background: (#[0-9a-f]{6})", css, re.M)
    paper = re.search(r"--paper: (#[0-9a-f]{6})", css)
    assert top and paper
    assert (top.group(1), paper.group(1)) == (THEME_COLOUR, BACKGROUND_COLOUR)


@pytest.mark.parametrize("path", ["/", "/offline", "/legend"])
def test_every_page_links_the_manifest_the_icons_and_the_worker(client: FlaskClient, path: str) -> None:
    html = client.get(path).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert f'<meta name="theme-color" content="{THEME_COLOUR}">' in html
    # Static files are named by their content's hash (referee/web/assets.py).
    assert re.search(r'rel="apple-touch-icon" href="/static/icons/apple-touch-icon\.[0-9a-f]{10}\.png"', html)
    assert re.search(r'src="/static/js/offline\.[0-9a-f]{10}\.js" data-sw="/sw\.js"', html)


def worker_settings(client: FlaskClient) -> dict[str, object]:
    response = client.get("/sw.js")
    assert response.status_code == 200
    first, _, code = response.text.partition("\n")
    match = re.fullmatch(r"self\.REFEREE = (\{.*\});", first)
    assert match, first
    assert code == (ROOT / "static" / "js" / "sw.js").read_text(encoding="utf-8")
    return dict(json.loads(match.group(1)))


def test_the_worker_is_served_from_the_root_uncached(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"  # an upgrade is seen at once


def test_the_worker_keeps_what_the_host_page_needs_and_it_is_all_there(client: FlaskClient) -> None:
    """``cache.addAll`` fails the worker's install if one address is missing."""
    settings = worker_settings(client)
    kept = settings["precache"]
    assert isinstance(kept, list)
    code, token, host = create_table(client)
    for src in re.findall(r'(?:src|href)="(/static/[^"]+|/manifest\.webmanifest)"', host):
        assert src in kept, src
    assert settings["fallback"] in kept
    for url in kept:
        response = client.get(url)
        assert response.status_code == 200, url
        response.close()
    assert settings["hostPage"] == "/t/*/host/*"


def test_the_version_follows_every_byte_kept() -> None:
    one = fingerprint([b"sw", b"/static/css/app.css", b"body{}"])
    assert one == fingerprint([b"sw", b"/static/css/app.css", b"body{}"])
    assert one != fingerprint([b"sw", b"/static/css/app.css", b"body{ }"])  # a changed file
    assert one != fingerprint([b"sw", b"/static/css/app.1a2b.css", b"body{}"])  # a new address
    assert fingerprint([b"ab", b"c"]) != fingerprint([b"a", b"bc"])  # parts cannot run together


def test_a_changed_kept_file_gives_a_new_worker(tmp_path: Path) -> None:
    """The browser installs a new worker only when ``/sw.js`` changes byte for byte."""
    from shutil import copytree

    from tests.web.conftest import make_app

    static = tmp_path / "static"
    copytree(ROOT / "static", static)
    app = make_app(f"sqlite:///{tmp_path / 'x.sqlite'}", tmp_path)
    app.static_folder = str(static)
    client = app.test_client()
    before = client.get("/sw.js").text
    assert client.get("/sw.js").text == before
    css = static / "css" / "app.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* changed */\n", encoding="utf-8")
    after = client.get("/sw.js").text
    assert after != before
    assert after.partition("\n")[2] == before.partition("\n")[2]  # same code, new version


def test_the_offline_page_says_what_works_without_the_network(client: FlaskClient) -> None:
    html = client.get("/offline").text
    assert "No connection" in html and 'id="kept-tables"' in html
    assert 'data-host-page="/t/*/host/*"' in html


def test_the_whole_deal_is_every_panel_the_host_page_can_show(app: Flask, client: FlaskClient) -> None:
    code, token, _ = create_table(client, seed="amber-fox-417")
    act(client, code, token, "reveal", 0)
    response = client.get(f"/api/t/{code}/deal?token={token}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    deal = response.get_json()
    game = deck.deal(deck.Setup("base", "amber-fox-417"))
    assert (deal["code"], deal["taps"], deal["total"]) == (code, 1, game.turn_count())
    assert len(deal["panels"]) == game.turn_count() + 1
    turns = [t for s in game.seasons for t in s.turns]
    for taps, panel in enumerate(deal["panels"]):
        assert f'data-taps="{taps}"' in panel
        assert f'name="taps" value="{taps}"' in panel  # each step's forms send the right count
        if taps:
            cards = re.findall(r'<article class="card[^"]*" data-card="([^"]+)"', panel)
            assert cards[-1:] == [turns[taps - 1].reveals[-1].name]
    assert "Winter is over" in deal["panels"][-1] and "disabled" in deal["panels"][-1]
    # one renderer: the step the table stands at is what the live page swaps in.
    # A CSRF token is the session's token signed with the second it was made,
    # so two requests a second apart sign the same token differently.
    live = client.get(f"/t/{code}/panel?mode=host&token={token}").text
    assert _unsigned(deal["panels"][1]) == _unsigned(live)
    assert f'value="{deal["csrf"].split(".")[0]}.' in live


def _unsigned(html: str) -> str:
    """The page with each CSRF token's timestamp and signature left out."""
    return re.sub(r'(name="csrf_token" value="[^".]+)\.[^"]+"', r'\1"', html)


@pytest.mark.parametrize(
    ("query", "status"),
    [("", 403), ("?token=wrong", 403)],
)
def test_only_the_host_gets_the_deal(client: FlaskClient, query: str, status: int) -> None:
    code, _token, _ = create_table(client)
    response = client.get(f"/api/t/{code}/deal{query}")
    assert response.status_code == status
    assert "host" in response.get_json()["error"]


def test_the_deal_of_no_table_is_404_with_a_sentence(client: FlaskClient) -> None:
    response = client.get("/api/t/NOPE42/deal?token=x")
    assert response.status_code == 404
    assert "NOPE42" in response.get_json()["error"]


def test_the_policy_lets_the_worker_and_the_manifest_come_from_this_site(client: FlaskClient) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy


def test_the_host_page_tells_offline_js_where_the_deal_is(client: FlaskClient) -> None:
    code, token, host = create_table(client)
    assert f'data-deal-url="/api/t/{code}/deal?token={token}"' in host
    assert 'class="offline-mark" role="status" hidden' in host
    follower = client.get(f"/t/{code}").text
    assert "data-deal-url" not in follower and "offline-mark" not in follower
