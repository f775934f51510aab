"""Before the next season's first card, the host's page asks whether to start
it while sheets of the season that ended are still unscored, naming them as
they stand at the tap; and a sheet opened but never saved does not say Saved."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.web_sheets.conftest import (
    EASY_EDICTS,
    TableAt,
    as_host,
    editor,
    make_table,
    save,
    score,
    touch_phone,
)

ASKED_OF_BEN = (
    "Spring is not scored yet for Ben. Start summer anyway? They can still score spring afterwards."
)


def _ask(client: FlaskClient, t: TableAt, host: str | None = None) -> Any:
    return client.get(
        f"/t/{t.code}/before-next?host={host if host is not None else t.host}",
        headers={"Accept": "application/json"},
    )


def _record_and_score(client: FlaskClient, t: TableAt, seat: int) -> None:
    _, config = editor(client, t, seat, "spring")
    flat = config["map"]
    rows = [flat[r * 11 : (r + 1) * 11] for r in range(11)]  # the blank print, recorded as it is
    assert save(client, t, seat, "spring", rows).status_code == 200
    assert score(client, t, seat, "spring").status_code in (200, 303)


def test_the_question_names_the_sheets_unscored_at_the_tap(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(t.season_end(0))
    assert _ask(client, t).get_json() == {"ask": None}  # no sheet opened here: a paper-scoring table
    as_host(client, t)
    _record_and_score(client, t, 1)
    answer = _ask(client, t)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    assert answer.get_json() == {"ask": ASKED_OF_BEN}
    czech = client.get(
        f"/t/{t.code}/before-next?host={t.host}",
        headers={"Accept": "application/json", "Accept-Language": "cs"},
    )
    assert czech.get_json() == {
        "ask": "Jaro: listy ještě nejsou ohodnocené (Ben). Má přesto začít léto? "
        "Ohodnotit jaro půjde i potom."
    }
    _record_and_score(client, t, 2)
    assert _ask(client, t).get_json() == {"ask": None}


def test_the_question_is_the_hosts_alone(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    refused = _ask(client, t, host="not-the-token")
    assert refused.status_code == 403
    assert "Only the host of this table" in refused.get_json()["error"]
    gone = client.get("/t/ZZZZZZ/before-next?host=x", headers={"Accept": "application/json"})
    assert gone.status_code == 404 and gone.get_json()["error"]


def _host_at_season_end(app: Flask, server: str, browser: Any) -> tuple[TableAt, Any]:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(t.season_end(0))
    client = app.test_client()
    as_host(client, t)
    _record_and_score(client, t, 1)  # Ann scored spring; Ben has not
    page = touch_phone(browser)
    page.goto(f"{server}/t/{t.code}/host/{t.host}")
    page.wait_for_selector(f'#panel[data-taps="{t.season_end(0)}"] button.reveal')
    return t, page


def test_the_host_who_declines_stays_at_the_seasons_end(app: Flask, server: str, browser: Any) -> None:
    t, page = _host_at_season_end(app, server, browser)
    asked: list[str] = []

    def decline(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", decline)
    page.locator("button.reveal").tap()
    page.wait_for_selector("button.reveal:not([disabled])")
    assert asked == [ASKED_OF_BEN]
    page.wait_for_timeout(300)
    assert page.locator("#panel").get_attribute("data-taps") == str(t.season_end(0))
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("button.reveal").tap()
    page.wait_for_selector(f'#panel[data-taps="{t.season_end(0) + 1}"]')
    assert page.errors == []


def test_a_season_whose_sheets_are_all_scored_starts_unasked(app: Flask, server: str, browser: Any) -> None:
    t, page = _host_at_season_end(app, server, browser)
    client = app.test_client()
    as_host(client, t)
    _record_and_score(client, t, 2)  # Ben scores while the host's page is open
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.locator("button.reveal").tap()
    page.wait_for_selector(f'#panel[data-taps="{t.season_end(0) + 1}"]')
    assert asked == [] and page.errors == []


def test_a_sheet_opened_and_never_saved_does_not_say_saved(app: Flask, server: str, browser: Any) -> None:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(1)
    page = touch_phone(browser)
    page.goto(f"{server}/t/{t.code}/sheets")
    page.locator(".seat").first.locator("button", has_text="This is me").tap()
    page.wait_for_selector("#board")
    save_button = page.locator("#save")
    assert save_button.inner_text() == "Save"
    assert "attention" not in (save_button.get_attribute("class") or "")  # nothing changed on this page
    assert page.locator("#status").text_content() == "Not saved yet."
    save_button.tap()
    page.wait_for_selector("#save:text-is('Saved ✓')")
    page.reload()
    page.wait_for_selector("#board")
    assert page.locator("#save").inner_text() == "Saved ✓"
    assert page.errors == []
