"""The Content-Security-Policy in real headless Chromium: the host page, a
follower's page, the sheet editor and the score page load with no CSP
violation in the console, and still work (a reveal, a save, a score line)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.browser import ARGS, CHROMIUM, LiveServer, playwright_or_skip
from tests.web_sheets.conftest import EASY_EDICTS, make_table

pytestmark = pytest.mark.browser


@pytest.fixture()
def server(app: Flask) -> Iterator[str]:
    app.config["POLL_MS"] = 150
    live = LiveServer(app)
    yield live.url
    live.stop()


def test_the_pages_pass_their_content_security_policy(app: Flask, server: str) -> None:
    sync_playwright = playwright_or_skip()
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            messages: list[str] = []

            def page_of(context: Any) -> Any:
                page = context.new_page()
                page.on("console", lambda m: messages.append(m.text))
                page.on("pageerror", lambda e: messages.append(f"page error: {e}"))
                return page

            phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
            host = page_of(browser.new_context(**phone))
            host.goto(f"{server}/t/{t.code}/host/{t.host}")
            follower = page_of(browser.new_context(**phone))
            follower.goto(f"{server}/t/{t.code}")
            follower.wait_for_selector('#panel[data-taps="0"]')
            host.click("button.reveal")
            host.wait_for_selector('#panel[data-taps="1"]', timeout=10_000)
            follower.wait_for_selector('#panel[data-taps="1"]', timeout=10_000)

            ann = page_of(browser.new_context(**phone))
            ann.goto(f"{server}/t/{t.code}/sheets")
            ann.locator(".seat").nth(0).locator("text=This is me").click()
            ann.wait_for_selector("#board")
            ann.click('#board .cell[data-i="0"]')
            ann.click("#save")
            ann.wait_for_selector("#status:text-is('Saved.')")

            t.set_taps(t.season_end(0))
            ann.reload()
            ann.click('form[action$="/score"] button[type=submit]')
            ann.wait_for_url("**/score")
            line = ann.locator(".score-line[data-show]").nth(1)
            line.click()
            assert line.get_attribute("aria-pressed") == "true"  # score.js ran
        finally:
            browser.close()
    assert not [m for m in messages if "Content Security Policy" in m or "page error" in m], messages
