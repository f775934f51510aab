"""The host's dealer without the network, in real headless Chromium at a
phone's size: the browser context's offline switch cuts the host's phone
off, Reveal and Undo go on from the deal the page received, and when the
network is back the server and a follower show the same card as the host.
Also: another tab moving the table meanwhile, a reload while offline, a tap
whose answer is lost, and the app being installable by Chromium's own check.

Skipped when ``/usr/bin/chromium`` is missing, unless ``REFEREE_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.rules import deck
from tests.browser import ARGS, CHROMIUM, LiveServer, playwright_or_skip
from tests.web.conftest import Browserless, csrf_token, live_table, make_app

pytestmark = pytest.mark.browser

SEED = "quiet-otter-512"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
GAME = deck.deal(deck.Setup("base", SEED))
TURNS = [[r.name for r in t.reveals] for s in GAME.seasons for t in s.turns]
"""The cards of each turn, in order: what the host shows after 1, 2, ... reveals is TURNS[taps - 1]."""


@pytest.fixture()
def playwright() -> Iterator[Any]:
    sync_playwright = playwright_or_skip()
    with sync_playwright() as p:
        yield p


@pytest.fixture()
def browser(playwright: Any) -> Iterator[Any]:
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield chromium
    chromium.close()


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(make_app(f"sqlite:///{tmp_path / 'offline.sqlite'}", tmp_path, POLL_MS=150))
    yield live
    live.stop()


@pytest.fixture()
def table(server: LiveServer) -> tuple[str, str]:
    """A base-game table (code, host token), set up through the form."""
    return live_table(Browserless(server.url), seed=SEED)


def server_state(server: LiveServer, code: str) -> dict[str, Any]:
    status, body, _ = Browserless(server.url).request(f"/api/t/{code}", accept="application/json")
    assert status == 200, body
    return dict(json.loads(body))


def open_host(context: Any, server: LiveServer, code: str, token: str) -> Any:
    """The host page, once its deal has arrived and the service worker runs."""
    page = context.new_page()
    with page.expect_response(lambda r: "/deal?" in r.url and r.status == 200):
        page.goto(f"{server.url}/t/{code}/host/{token}")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    return page


KEPT = (
    "caches.keys()"
    ".then(names => Promise.all(names.map(n => caches.open(n).then(c => c.match(location.href)))))"
    ".then(found => found.some(Boolean))"
)


def page_kept(page: Any) -> None:
    """Wait until the service worker runs this page and has kept it for offline use."""
    for _ in range(100):
        if page.evaluate("Boolean(navigator.serviceWorker.controller)") and page.evaluate(KEPT):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker did not keep the host page")


def shown(page: Any, taps: int) -> list[str]:
    """Wait until the page shows ``taps`` reveals; the cards of its turn."""
    page.wait_for_selector(f'#panel[data-taps="{taps}"]', timeout=10_000)
    return list(page.locator("#panel .turn [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))


def queued(page: Any, code: str) -> list[dict[str, Any]]:
    kept = page.evaluate(f"localStorage.getItem('referee-offline:{code}')")
    return list(json.loads(kept)["queue"]) if kept else []


def back_in_step(page: Any) -> None:
    """Wait until the host page neither deals offline nor has taps to send."""
    page.wait_for_selector("#table:not([data-offline])", timeout=15_000)
    assert not page.locator(".offline-mark").is_visible()


def test_offline_host_reveals_three_then_the_server_and_a_follower_catch_up(
    browser: Any, server: LiveServer, table: tuple[str, str]
) -> None:
    code, token = table
    host_context = browser.new_context(**PHONE)
    host = open_host(host_context, server, code, token)
    host.click("button.reveal")  # one online, so the offline taps start mid-season
    assert shown(host, 1) == TURNS[0]
    follower = browser.new_context(**PHONE).new_page()
    follower.goto(f"{server.url}/t/{code}")
    assert shown(follower, 1) == TURNS[0]

    host_context.set_offline(True)
    cards = [TURNS[0]]
    for taps in (2, 3, 4):
        host.click("button.reveal")
        cards.append(shown(host, taps))
        assert cards[-1] == TURNS[taps - 1] and cards[-1] != cards[-2]
        assert host.locator(".offline-mark").is_visible()
        assert host.locator("#panel .message").is_hidden()
    assert server_state(server, code)["taps"] == 1  # nothing got through
    queue = [(e["act"], e["seen"]) for e in queued(host, code)]
    assert queue == [("reveal", 1), ("reveal", 2), ("reveal", 3)]

    host_context.set_offline(False)
    back_in_step(host)
    state = server_state(server, code)
    assert (state["taps"], state["turn"]) == (4, TURNS[3])
    assert shown(host, 4) == shown(follower, 4) == TURNS[3]
    assert host.locator("#panel .message").is_hidden()
    assert queued(host, code) == []
    host.click("button.reveal")  # online again, table.js sends the next tap itself
    assert shown(follower, 5) == TURNS[4]


def test_without_a_service_worker_the_open_page_still_deals_offline(
    browser: Any, server: LiveServer, table: tuple[str, str]
) -> None:
    """A plain ``http://`` network address (the README's hall setup without a
    proxy) is not a secure context: no service worker, no Cache Storage.
    The page holds the deal itself, so it deals on until it is reloaded."""
    code, token = table
    context = browser.new_context(**PHONE)
    context.add_init_script("delete Navigator.prototype.serviceWorker; delete window.caches;")
    host = context.new_page()
    with host.expect_response(lambda r: "/deal?" in r.url and r.status == 200):
        host.goto(f"{server.url}/t/{code}/host/{token}")
    assert host.evaluate("!('serviceWorker' in navigator) && typeof caches === 'undefined'")
    context.set_offline(True)
    for taps in (1, 2):
        host.click("button.reveal")
        assert shown(host, taps) == TURNS[taps - 1]
    assert host.locator(".offline-mark").is_visible()
    context.set_offline(False)
    back_in_step(host)
    assert server_state(server, code)["turn"] == TURNS[1]


def test_a_card_dealt_offline_takes_the_set_up_note_away_as_online(browser: Any, server: LiveServer) -> None:
    """A table set up in the phone's own browser greets its host with a note
    that it is ready. The first card takes it away, as online (the phone
    layout's test): dealt from the deal, the panel is swapped in by the
    page's own swap, not a copy of it that left the note above every card."""
    host = browser.new_context(**PHONE).new_page()
    host.goto(f"{server.url}/")
    host.fill("#players", "Ann\nBen")
    host.fill("#seed", SEED)
    with host.expect_response(lambda r: "/deal?" in r.url and r.status == 200):
        host.tap("button.big[type=submit]")
    assert "is ready" in host.locator(".flash").inner_text()
    host.context.set_offline(True)
    host.tap("button.reveal")
    assert shown(host, 1) == TURNS[0]
    assert host.locator(".offline-mark").is_visible()
    assert host.locator(".flash").count() == 0


def test_offline_undo_steps_back_and_a_reveal_and_undo_cancel_out(
    browser: Any, server: LiveServer, table: tuple[str, str]
) -> None:
    code, token = table
    context = browser.new_context(**PHONE)
    host = open_host(context, server, code, token)
    for taps in (1, 2):
        host.click("button.reveal")
        shown(host, taps)
    context.set_offline(True)
    host.click("button.undo")
    assert shown(host, 1) == TURNS[0]
    host.click("button.undo")
    assert shown(host, 0) == []
    assert host.locator("button.undo").is_disabled()
    host.click("button.reveal")
    assert shown(host, 1) == TURNS[0]
    assert [(e["act"], e["seen"]) for e in queued(host, code)] == [("undo", 2)]  # undo@1, reveal@0 cancelled
    context.set_offline(False)
    back_in_step(host)
    assert server_state(server, code)["taps"] == 1


def test_another_tab_moved_the_table_meanwhile_no_card_skipped_or_doubled(
    browser: Any, server: LiveServer, table: tuple[str, str]
) -> None:
    code, token = table
    context = browser.new_context(**PHONE)
    host = open_host(context, server, code, token)
    context.set_offline(True)
    host.click("button.reveal")
    shown(host, 1)
    host.click("button.reveal")
    assert shown(host, 2) == TURNS[1]

    other = browser.new_context(**PHONE).new_page()  # a second tab on the host link, online
    other.goto(f"{server.url}/t/{code}/host/{token}")
    other.click("button.reveal")
    assert shown(other, 1) == TURNS[0]

    context.set_offline(False)
    back_in_step(host)
    state = server_state(server, code)
    assert (state["taps"], state["turn"]) == (1, TURNS[0])  # the other tab's card, once; none skipped
    assert shown(host, 1) == TURNS[0]
    message = host.locator("#panel .message")
    assert message.is_visible()
    assert message.inner_text().startswith("Another tab or device moved the table while this phone was")
    assert queued(host, code) == []
    follower = browser.new_context(**PHONE).new_page()
    follower.goto(f"{server.url}/t/{code}")
    assert shown(follower, 1) == TURNS[0]
    host.click("button.reveal")  # the host goes on from where the table stands
    assert shown(other, 2) == TURNS[1]


def test_a_reload_offline_keeps_the_card_and_the_queued_taps(
    browser: Any, server: LiveServer, table: tuple[str, str]
) -> None:
    code, token = table
    context = browser.new_context(**PHONE)
    host = open_host(context, server, code, token)
    page_kept(host)
    host.click("button.reveal")
    shown(host, 1)  # revealed online after the page was kept: the kept page shows 0 reveals
    context.set_offline(True)
    host.click("button.reveal")
    shown(host, 2)
    host.reload()  # from the service worker's cache; the deal from the page's own cache
    assert shown(host, 2) == TURNS[1]
    assert host.locator(".offline-mark").is_visible()
    host.click("button.reveal")
    assert shown(host, 3) == TURNS[2]
    host.wait_for_timeout(3000)  # past the stream's wait, when a follower's page would say it reconnects
    assert host.locator("#reconnecting").is_hidden()  # this phone deals: its card is the latest
    assert server_state(server, code)["taps"] == 1
    context.set_offline(False)
    back_in_step(host)
    assert server_state(server, code)["turn"] == TURNS[2]


def test_a_page_not_kept_answers_offline_with_the_offline_page_listing_the_host_tables(
    browser: Any, server: LiveServer, table: tuple[str, str]
) -> None:
    code, token = table
    context = browser.new_context(**PHONE)
    host = open_host(context, server, code, token)
    page_kept(host)
    context.set_offline(True)
    host.goto(f"{server.url}/t/{code}")  # a follower's page: never from the cache
    assert host.locator("h1").inner_text() == "No connection"
    link = host.locator("#kept-tables a")
    link.wait_for()
    assert link.locator(".join-code").inner_text() == code
    link.click()
    assert shown(host, 0) == []
    assert host.locator(".offline-mark").is_visible()


def test_a_tap_whose_answer_is_lost_is_not_sent_twice(
    browser: Any, server: LiveServer, table: tuple[str, str]
) -> None:
    """The tap reaches the server, the answer never comes back: the page
    counts the tap as done once it sees the table where that tap put it."""
    code, token = table
    context = browser.new_context(**PHONE)
    host = open_host(context, server, code, token)
    lost: list[str] = []

    def deliver_then_drop(route: Any) -> None:
        if lost:
            route.continue_()
            return
        route.fetch()  # the server takes the tap...
        lost.append(route.request.url)
        route.abort("internetdisconnected")  # ...and its answer is lost

    host.route("**/reveal", deliver_then_drop)
    host.click("button.reveal")
    assert shown(host, 1) == TURNS[0]
    assert lost and server_state(server, code)["taps"] == 1
    back_in_step(host)  # the retry finds the table at 1: done, not sent again
    assert server_state(server, code)["taps"] == 1
    assert host.locator("#panel .message").is_hidden()
    host.click("button.reveal")
    assert shown(host, 2) == TURNS[1]
    assert server_state(server, code)["taps"] == 2


def test_the_app_is_installable_and_its_worker_runs_from_the_root(
    playwright: Any, server: LiveServer, tmp_path: Path
) -> None:
    """Chromium's own check, as for its install prompt (a profile on disk:
    an incognito-like context is never installable)."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, **PHONE
    )
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == server.url + "/"
        page.reload()
        assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == server.url + "/sw.js"
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == server.url + "/manifest.webmanifest" and manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


@pytest.mark.parametrize("width", [320, 390])
def test_the_offline_mark_sits_in_the_dock_above_the_buttons(
    browser: Any, server: LiveServer, table: tuple[str, str], width: int
) -> None:
    code, token = table
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 740}})
    host = open_host(context, server, code, token)
    context.set_offline(True)
    host.click("button.reveal")
    shown(host, 1)
    mark = host.locator(".offline-mark").bounding_box()
    dock = host.locator("#dock").bounding_box()
    season = host.locator("#dock .season-bar").bounding_box()
    buttons = host.locator("#dock .controls").bounding_box()
    assert dock["x"] <= mark["x"] and mark["x"] + mark["width"] <= dock["x"] + dock["width"] + 0.5
    assert dock["y"] <= mark["y"] and mark["y"] + mark["height"] <= season["y"] <= buttons["y"]
    assert mark["height"] < 40  # one line, even at 320 px
    assert buttons["y"] + buttons["height"] <= 740
    # the page ends above the dock: its last words scroll clear of the mark
    host.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    last = host.locator("main > :last-child").bounding_box()
    assert last["y"] + last["height"] <= host.locator("#dock").bounding_box()["y"] + 1


def test_the_last_card_revealed_offline_then_online_shows_who_is_still_to_score(
    browser: Any, server: LiveServer, table: tuple[str, str]
) -> None:
    """The host reveals winter's last card offline: the deal's game-over
    panel, rendered before any score, says how the paper game ends. Back
    online, the taps sent, the page asks for its panel again by itself and
    says who is still to score winter, as a follower's does: a score is not
    a reveal, so no event would bring it."""
    code, token = table
    http = Browserless(server.url)
    _, page, _ = http.request(f"/t/{code}/host/{token}")
    total = GAME.turn_count()
    for taps in range(total - 1):
        form = {"csrf_token": csrf_token(page), "host": token, "taps": str(taps)}
        assert http.request(f"/t/{code}/reveal", form, accept="application/json")[0] == 200
    context = browser.new_context(**PHONE)
    host = open_host(context, server, code, token)
    shown(host, total - 1)
    context.set_offline(True)
    host.click("button.reveal")
    shown(host, total)
    assert "Add up the reputation stars" in host.locator("#panel .season-end").inner_text()
    context.set_offline(False)
    back_in_step(host)
    assert server_state(server, code)["taps"] == total
    waiting = host.locator("#panel #waiting")
    waiting.wait_for(timeout=10_000)
    assert waiting.inner_text() == "Waiting for the winter score of Ann, Ben, Cat."
    assert host.locator("#panel").get_by_text("Add up the reputation stars", exact=False).count() == 0
