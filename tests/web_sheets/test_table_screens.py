"""The table pages' first screen in real headless Chromium, checked by
bounding boxes: what the room must read now is on it, on a 1280 x 720 TV
and on a 390 x 844 touch phone, without scrolling, and said once.

- Ruins that still wait for the next explore card (an ambush or a hero came
  between) say so above the card, not below it, off the screen.
- The TV says a season's end once, at the top, not again in the box below.
- The host's invitation to join gets out of the way of the cards once the
  first one is out, and still invites later players from the page's foot.
- After winter the TV shows the standings as the last score comes in, on its
  first screen, without a reload; so do a follower's phone and the host's."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.deals import ruins_waiting
from tests.web_sheets.conftest import EASY_EDICTS, editor, make_table, score, touch_phone
from tests.web_sheets.test_phone_layout import box

pytestmark = [pytest.mark.browser]

TV = {"width": 1280, "height": 720}
COMBINED = {
    "season_set": "heroes",
    "explore_set": "heroes",
    "heroes": True,
    "ambushes": ("Goblin Attack", "Bugbear Assault", "Dragon Inferno", "Giant Troll Ravage"),
}
"""A combined game with hero cards, as the play-test's (ruins come in every combined game)."""

WAIT = "The ruins wait: the next explore card's shape must cover a ruins space."


def said(page: Any, text: str) -> Any:
    """The elements of the panel that show ``text`` (whole) on the page."""
    return page.locator("#panel").get_by_text(text, exact=True)


def assert_said_above_the_card(page: Any, text: str, bottom: float, where: str) -> None:
    """``text`` is shown once, whole on the screen above ``bottom``, and above the card."""
    assert said(page, text).count() == 1, f"said {said(page, text).count()} times, {where}"
    found = box(page, f'#panel :text-is("{text}")')
    assert 0 <= found["y"] and found["y"] + found["height"] <= bottom, f"{text!r} is off the screen, {where}"
    assert found["y"] + found["height"] <= box(page, "#panel .turn .card")["y"], (
        f"not above the card, {where}"
    )


@pytest.mark.parametrize(
    ("between", "later"), [("hero", False), ("ambush", False), ("hero", True), ("ambush", True)]
)
def test_ruins_that_still_wait_say_so_above_the_card(
    app: Flask, server: str, browser: Any, between: str, later: bool
) -> None:
    """Ruins revealed a hero (or an ambush), or ruins then an ambush were
    followed by a hero in a turn of its own: the next explore card must
    still cover a ruins space. The TV, a follower's phone, and the host's
    phone just after its Reveal (tapped from the page's foot) say so above
    the card, on the first screen; below the card it fell off all three."""
    seed, taps = ruins_waiting(between, later, edition="combined", **COMBINED)
    t = make_table(app, ["Ana", "Ben", "Cleo"], edition="combined", side="C", seed=seed, **COMBINED)
    t.set_taps(taps)
    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(f"{server}/t/{t.code}/tv")
    tv.wait_for_selector(f'#panel[data-taps="{taps}"]')
    assert_said_above_the_card(tv, WAIT, TV["height"], "on the TV")
    follower = touch_phone(browser)
    follower.goto(f"{server}/t/{t.code}")
    assert_said_above_the_card(follower, WAIT, 844, "on a follower's phone")

    t.set_taps(taps - 1)
    host = touch_phone(browser)
    host.goto(f"{server}/t/{t.code}/host/{t.host}")
    host.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    host.locator("button.reveal").tap()
    host.wait_for_selector(f'#panel[data-taps="{taps}"]')
    host.wait_for_function(  # the new card scrolls into view, smoothly
        """() => {
          const strip = document.querySelector('#panel .turn .ruins-strip');
          const top = strip === null ? -1 : strip.getBoundingClientRect().top;
          return top >= 0 && top <= 16;
        }""",
        timeout=5000,
    )
    assert_said_above_the_card(host, WAIT, box(host, "#dock")["y"], "on the host's phone after Reveal")
    assert host.errors == [] and follower.errors == []


def test_ruins_no_longer_wait_once_an_explore_card_covers_them(app: Flask, server: str, browser: Any) -> None:
    """The turn after ruins, an ambush and a hero is an explore card: it
    carries the ruins in its own box, and nothing says the ruins still wait."""
    seed, taps = ruins_waiting("hero", False, edition="combined", **COMBINED)
    t = make_table(app, ["Ana", "Ben"], edition="combined", side="C", seed=seed, **COMBINED)
    explore = next(
        n
        for n, turn in enumerate((turn for s in t.deal.seasons for turn in s.turns), 1)
        if n > taps and turn.reveals[-1].kind == "explore"
    )
    t.set_taps(explore)
    page = browser.new_context(viewport=TV).new_page()
    page.goto(f"{server}/t/{t.code}/tv")
    assert said(page, WAIT).count() == 0
    assert page.locator("#panel .turn .card.on-ruins .notice.ruins").count() == 1


@pytest.mark.parametrize(("season", "end"), [(0, "End of spring"), (3, "Winter is over: the game ends")])
def test_the_tv_says_a_season_is_over_once(
    app: Flask, server: str, browser: Any, season: int, end: str
) -> None:
    """At a season's end the TV says so at the top, beside the time track
    (the box below, with the edicts to score, is below the fold): the box
    does not say it a second time. A phone, which has no line at the top,
    says it in the box."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(t.season_end(season))
    page = browser.new_context(viewport=TV).new_page()
    page.goto(f"{server}/t/{t.code}/tv")
    assert said(page, end).count() == 1
    top = box(page, ".season-over-tag")
    assert top["y"] + top["height"] <= TV["height"]
    assert page.locator(".season-end").inner_text().startswith("Score edicts")
    follower = touch_phone(browser)
    follower.goto(f"{server}/t/{t.code}")
    assert said(follower, end).count() == 1
    assert follower.locator(".season-end h2").inner_text() == end


@pytest.mark.parametrize("width", (320, 390, 430))
def test_the_invitation_makes_way_for_the_first_card(
    app: Flask, server: str, browser: Any, width: int
) -> None:
    """Before the first card the host's page opens on the invitation (join
    code and QR code). The first Reveal folds it and puts it at the page's
    foot, as a reload would: the card comes right under the top bar, and
    the invitation still opens there for a latecomer."""
    t = make_table(app, ["Ann", "Ben", "Cat"], chosen=EASY_EDICTS)
    page = touch_phone(browser, width)
    page.goto(f"{server}/t/{t.code}/host/{t.host}")
    invite = page.locator("details.invite")
    assert invite.get_attribute("open") is not None
    assert box(page, "details.invite")["y"] < box(page, "#panel")["y"]
    for taps in (1, 2):
        page.locator("button.reveal").tap()
        page.wait_for_selector(f'#panel[data-taps="{taps}"]')
        assert invite.get_attribute("open") is None
        card = box(page, "#panel .turn .card")
        assert card["y"] <= box(page, ".top")["height"] + 40, f"the card starts {card['y']:.0f} px down"
        assert box(page, "details.invite")["y"] > box(page, "section.about")["y"]  # at the page's foot
    # A latecomer: the folded invitation opens at the page's foot, with the code and the QR code.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    marker = "getComputedStyle(document.querySelector('details.invite summary'), '::before').content"
    assert page.evaluate(marker) == '"▸"'  # folded, it shows that it opens
    page.locator("details.invite summary").tap()
    assert page.evaluate(marker) == '"▾"'
    assert page.locator("details.invite .join-code").inner_text() == t.code
    assert page.locator("details.invite .qr svg").is_visible()
    # opened, it comes up the screen: its QR code ends above the host's dock
    page.wait_for_function(
        "() => document.querySelector('details.invite .qr svg').getBoundingClientRect().bottom"
        " <= document.getElementById('dock').getBoundingClientRect().top"
    )
    page.reload()  # the server draws the page so from the first card on
    assert invite.get_attribute("open") is None
    assert box(page, "details.invite")["y"] > box(page, "section.about")["y"]
    assert page.errors == []


def test_the_tv_shows_the_standings_as_the_last_winter_score_comes_in(
    app: Flask, client: Any, server: str, browser: Any
) -> None:
    """Ann and Ben tie on 8 (``test_standings.play_four_seasons``); Ben has not
    scored winter yet. The TV, open since winter ended, names him; once he
    scores, it shows the standings, Ben winning the tiebreak, on its first
    screen, with no reveal and no reload."""
    from tests.web_sheets.test_standings import play_until_ben_scores_winter

    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_until_ben_scores_winter(client, t)
    page = browser.new_context(viewport=TV).new_page()
    page.goto(f"{server}/t/{t.code}/tv")
    assert page.locator("#panel #waiting").inner_text() == "Waiting for the winter score of Ben."
    assert page.locator("#panel .standings").count() == 0
    page.evaluate("window.sameLoad = true")  # gone if the page reloads
    editor(client, t, 2, "winter")
    assert score(client, t, 2, "winter").status_code == 303
    page.wait_for_selector("#panel .standings", timeout=10_000)
    assert page.evaluate("window.sameLoad === true")
    assert page.locator("#panel .standing").all_inner_texts()[0].startswith("1\nBen")
    places = [box(page, f'#panel .standing[data-player="{name}"]') for name in ("Ben", "Ann")]
    assert places[0]["y"] < places[1]["y"] and places[1]["y"] + places[1]["height"] <= TV["height"]
    assert "tied with Ann; the tiebreak counts stars lost to monsters" in page.locator("#panel").inner_text()
    assert page.locator("#panel").get_by_text("Add up the reputation stars", exact=False).count() == 0
    assert said(page, "Winter is over: the game ends").count() == 1


@pytest.mark.parametrize("width", [320, 390, 430])
def test_the_phones_show_the_standings_as_the_last_winter_score_comes_in(
    app: Flask, client: Any, server: str, browser: Any, width: int
) -> None:
    """A play-test's follower read "Add up the reputation stars" on her phone
    at the game's end while the TV showed the standings. Ann and Ben tie on 8
    (``test_standings.play_four_seasons``); Ben has not scored winter yet. A
    follower's phone and the host's, open since winter ended, name him, with
    the way to the standings page; once he scores, they show the standings,
    Ben winning the tiebreak, with no reveal and no reload, nothing
    overlapping and nothing off the screen sideways: the host's by asking
    every few seconds, the follower's, which asks seldom (a hall holds a
    thousand), as soon as it is looked at again."""
    from tests.web_sheets.test_phone_layout import overlap
    from tests.web_sheets.test_standings import play_until_ben_scores_winter

    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_until_ben_scores_winter(client, t)
    follower = touch_phone(browser, width)
    follower.goto(f"{server}/t/{t.code}")
    host = touch_phone(browser, width)
    host.goto(f"{server}/t/{t.code}/host/{t.host}")
    for who, page in (("follower", follower), ("host", host)):
        waiting = page.locator("#panel #waiting")
        assert waiting.inner_text() == "Waiting for the winter score of Ben."
        assert page.locator("#panel").get_by_text("Add up the reputation stars", exact=False).count() == 0
        waiting.scroll_into_view_if_needed()
        link = box(page, "#to-standings")
        assert not overlap(box(page, "#panel #waiting"), link)
        page.screenshot(path=f"/tmp/shots/game-end-waiting-{who}-{width}x844.png")
        page.evaluate("window.sameLoad = true")  # gone if the page reloads
    if width == 390:  # a hall's followers ask for the panel seldom; the host often
        asked = {"follower": 0, "host": 0}
        for who, page in (("follower", follower), ("host", host)):
            page.on("request", lambda r, who=who: asked.update({who: asked[who] + ("/panel" in r.url)}))
        follower.wait_for_timeout(6_500)
        assert asked["follower"] == 0 and asked["host"] >= 1, asked
    editor(client, t, 2, "winter")
    assert score(client, t, 2, "winter").status_code == 303
    # the follower's phone is picked up from the table; the host's asks by itself
    follower.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    for who, page in (("follower", follower), ("host", host)):
        page.wait_for_selector("#panel .standings", timeout=10_000)
        assert page.evaluate("window.sameLoad === true")
        assert page.locator("#panel .standing").all_inner_texts()[0].startswith("1\nBen")
        assert (
            "tied with Ann; the tiebreak counts stars lost to monsters" in page.locator("#panel").inner_text()
        )
        assert page.locator("#panel #waiting").count() == 0
        assert page.locator("#to-standings").get_attribute("href") == f"/t/{t.code}/standings"
        page.evaluate("window.scrollTo(0, 0)")
        rows = [box(page, f'#panel .standing[data-player="{name}"]') for name in ("Ben", "Ann")]
        assert not overlap(rows[0], rows[1])
        assert all(0 <= r["x"] and r["x"] + r["width"] <= width for r in rows)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scroll, {who}"
        if who == "host":  # the dock stays at the screen's foot: the list is above it, the link scrolls clear
            dock = box(page, "#dock")
            assert rows[1]["y"] + rows[1]["height"] <= dock["y"], f"the dock covers the standings at {width}"
        page.screenshot(path=f"/tmp/shots/game-end-standings-{who}-{width}x844.png")
        page.locator("#to-standings").scroll_into_view_if_needed()
        page.screenshot(path=f"/tmp/shots/game-end-standings-link-{who}-{width}x844.png")
        assert page.errors == []
