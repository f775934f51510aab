"""A whole game in real headless Chromium: the host sets up a table through
the form, a follower joins with the code from another browser context, the
host reveals every card, and the follower sees each turn's cards and each
season ending at its threshold, exactly as ``deal(setup)`` says.

Skipped when ``/usr/bin/chromium`` is missing, unless ``REFEREE_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.rules import deck
from tests.browser import LiveServer, launched_chromium
from tests.web.conftest import make_app

pytestmark = pytest.mark.browser

SEED = "quiet-otter-512"


@pytest.fixture()
def browser() -> Iterator[Any]:
    yield from launched_chromium()


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[LiveServer]:
    app = make_app(f"sqlite:///{tmp_path / 'browser.sqlite'}", tmp_path, POLL_MS=150)
    live = LiveServer(app)
    yield live
    live.stop()


def turn_seen(page: Any, taps: int) -> dict[str, Any]:
    """Wait until the page shows ``taps`` reveals, then read what it shows."""
    page.wait_for_selector(f'#panel[data-taps="{taps}"]', timeout=10_000)
    panel = page.locator("#panel")
    return {
        "cards": page.locator("#panel .turn [data-card]").evaluate_all("els => els.map(e => e.dataset.card)"),
        "season": panel.get_attribute("data-season"),
        "time": int(panel.get_attribute("data-time") or -1),
        "threshold": int(panel.get_attribute("data-threshold") or -1),
        "over": panel.get_attribute("data-season-over") == "true",
    }


def test_a_whole_game_host_and_follower(browser: Any, server: LiveServer) -> None:
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    host = browser.new_context(**phone).new_page()
    host.goto(server.url + "/")
    host.fill("#players", "Ann\nBen\nCat")
    host.fill("#seed", SEED)
    host.click("button.big[type=submit]")
    host.wait_for_url(re.compile(r"/t/\w+/host/"))
    code = host.locator(".join-code").inner_text().strip()

    follower = browser.new_context(**phone).new_page()
    follower.goto(server.url + "/")
    follower.fill("#join-code", code.lower())
    follower.click(".join-form button")
    follower.wait_for_url(re.compile(rf"/t/{code}$"))
    assert follower.locator("button.reveal").count() == 0

    game = deck.deal(deck.Setup("base", SEED))
    taps = 0
    seen: list[list[str]] = []
    ends: list[tuple[str, int]] = []
    for season in game.seasons:
        for index, turn in enumerate(season.turns):
            host.click("button.reveal")
            taps += 1
            assert turn_seen(host, taps)["cards"] == [r.name for r in turn.reveals]
            view = turn_seen(follower, taps)
            seen.append(view["cards"])
            assert view["season"] == season.name
            assert view["time"] == turn.time_after
            last = index == len(season.turns) - 1
            assert view["over"] == last
            assert (view["time"] >= view["threshold"]) == last
            if last:
                ends.append((view["season"], view["time"]))
            if taps == 5:  # a mis-tap taken back: the follower steps back too, the order stays
                host.click("button.undo")
                assert turn_seen(follower, 4)["cards"] == seen[3]
                host.click("button.reveal")
                assert turn_seen(follower, 5)["cards"] == seen[4]

    assert seen == [[r.name for r in t.reveals] for s in game.seasons for t in s.turns]
    assert ends == [(s.name, s.time) for s in game.seasons]
    assert host.locator("button.reveal").is_disabled()
    assert "Winter is over" in follower.locator("#panel").inner_text()


def test_choosing_a_game_checks_a_map_side_it_comes_with(browser: Any, server: LiveServer) -> None:
    """Side A is the default: choosing Heroes moves it to C, so the table is
    not refused for a side Heroes does not come with; choosing the base game
    again moves it back, and combining the games keeps any side."""
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    page = browser.new_context(**phone).new_page()
    page.goto(server.url + "/")
    checked = "#map_side input:checked"
    assert page.locator(checked).get_attribute("value") == "A"
    page.locator("#edition input[value=heroes]").tap()
    assert page.locator(checked).get_attribute("value") == "C"
    page.locator("#map_side input[value=D]").tap()
    page.locator("#edition input[value=combined]").tap()
    assert page.locator(checked).get_attribute("value") == "D"
    page.locator("#edition input[value=base]").tap()
    assert page.locator(checked).get_attribute("value") == "A"
    page.locator("#edition input[value=heroes]").tap()
    page.fill("#players", "Ann\nBen")
    page.locator("button.big[type=submit]").tap()
    page.wait_for_url(re.compile(r"/t/\w+/host/"))
    assert "map side C" in page.locator("body").inner_text()


JOIN_ROW = """() => {
    const input = document.getElementById("join-code");
    const button = document.querySelector(".join-form button");
    const style = getComputedStyle(input);
    const shown = getComputedStyle(input, "::placeholder");
    const ctx = document.createElement("canvas").getContext("2d");
    ctx.font = shown.font;
    ctx.letterSpacing = shown.letterSpacing;
    const example = shown.textTransform === "uppercase" ? input.placeholder.toUpperCase() : input.placeholder;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const range = document.createRange();
    range.selectNodeContents(button);
    return {
        example: ctx.measureText(example).width, room: room, font: shown.font,
        lines: new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size,
        right: button.getBoundingClientRect().right, width: innerWidth,
    };
}"""


@pytest.mark.parametrize("width", [320, 390, 430])
@pytest.mark.parametrize("locale", ["en-GB", "cs-CZ"])
def test_the_join_row_shows_the_example_code_and_the_button_whole(
    browser: Any, server: LiveServer, width: int, locale: str
) -> None:
    """On the first screen: the example code in the box shows whole, and the
    button's word stays on one line, in English and in Czech."""
    context = browser.new_context(
        viewport={"width": width, "height": 700}, is_mobile=True, has_touch=True, locale=locale
    )
    page = context.new_page()
    page.goto(server.url + "/")
    row = page.evaluate(JOIN_ROW)
    assert row["example"] <= row["room"], row
    assert row["lines"] == 1 and row["right"] <= row["width"], row
    context.close()
