"""Phone layouts in real Chromium, 320 to 430 px wide, checked by bounding boxes:
the host's Reveal and Undo never cover the season's time track (invitation
open or not, scrolled or not); Reveal brings the new card into view; the
set-up's choices are never cut; the whole map shows above the editor's brushes,
which never cover the coins' − and + buttons; the TV view fits a phone, never
splits a card's name mid-word there, and still sets the four edicts in a row
on a TV;
the top bar fits in Czech with the widest table code; the hero brush's two
selects keep a usable width, show every hero's name and pattern whole, and
leave a short phone to the map; the standings' season names stand apart."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from referee.rules import data
from tests.web_sheets.conftest import EASY_EDICTS, TableAt, as_host, editor, make_table, save, score

pytestmark = [pytest.mark.browser]

WIDTHS = (320, 390, 430)


def phone(browser: Any, width: int, height: int = 844) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
    return context.new_page()


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not on screen"
    return dict(found)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_the_checker_sees_an_overlap() -> None:
    a = {"x": 0, "y": 0, "width": 10, "height": 10}
    assert overlap(a, {"x": 5, "y": 9, "width": 10, "height": 10})
    assert not overlap(a, {"x": 0, "y": 10, "width": 10, "height": 10})


def assert_track_clear(page: Any, width: int, what: str) -> None:
    track = box(page, "#panel .season-bar")
    for button in ("button.reveal", "button.undo"):
        assert not overlap(track, box(page, button)), f"{button} covers the time track at {width} px, {what}"
    assert track["x"] >= 0 and track["x"] + track["width"] <= width, (
        f"the track leaves the screen at {width} px"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scroll at {width} px"


@pytest.mark.parametrize("width", WIDTHS)
def test_reveal_and_undo_never_cover_the_time_track(
    app: Flask, server: str, browser: Any, width: int
) -> None:
    t = make_table(app, ["Ann", "Ben", "Cat"], chosen=EASY_EDICTS)
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/host/{t.host}")
    assert page.locator("details.invite").get_attribute("open") is not None  # the invitation is open
    assert_track_clear(page, width, "invitation open")
    for where in ("0", "document.body.scrollHeight / 2", "document.body.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {where})")
        assert_track_clear(page, width, f"scrolled to {where}")
    t.set_taps(t.season_end(0))  # the longest label: "Start summer: reveal"
    page.goto(f"{server}/t/{t.code}/host/{t.host}")
    page.locator("details.invite summary").click()
    assert_track_clear(page, width, "at the end of spring, invitation open")
    # Nothing at the end of the page is hidden for good under the buttons.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    last = page.locator("main > *").last
    assert box(page, "main > :last-child")["y"] + last.bounding_box()["height"] <= box(page, "#dock")["y"] + 1


@pytest.mark.parametrize(("width", "height"), [(320, 640), (360, 640), (390, 844), (430, 932)])
def test_a_season_end_puts_the_map_sheets_under_the_hosts_thumb(
    app: Flask, server: str, browser: Any, width: int, height: int
) -> None:
    """At each season's end the host's next step is the map sheets, not the
    next reveal: their link is in the dock, whole on the screen, however
    tall the last card, and the in-page one (which the dock may cover) is
    the followers' alone."""
    t = make_table(app, ["Ann", "Ben", "Cat"], chosen=EASY_EDICTS)
    page = phone(browser, width, height)
    for season in range(4):
        t.set_taps(t.season_end(season))
        page.goto(f"{server}/t/{t.code}/host/{t.host}")
        page.wait_for_selector(f'#panel[data-taps="{t.season_end(season)}"] #dock a.score-sheets')
        page.wait_for_load_state("networkidle")
        link = box(page, "#dock a.score-sheets")
        assert 0 <= link["y"] and link["y"] + link["height"] <= height, f"season {season} at {width}x{height}"
        assert link["height"] >= 44
        assert not overlap(link, box(page, "button.reveal"))
        # "Start summer: reveal" in two lines at most: in three, the dock took a third of a small screen
        assert box(page, "button.reveal")["height"] <= 64, f"season {season} at {width}x{height}"
        assert page.locator(".season-end a.button[href*='/sheets']").count() == 0
    assert page.locator("#dock a.score-sheets").get_attribute("href") == f"/t/{t.code}/sheets?host={t.host}"
    t.set_taps(t.season_end(0) - 1)
    page.goto(f"{server}/t/{t.code}/host/{t.host}")
    assert page.locator("#dock a.score-sheets").count() == 0  # not before the season's end
    page.goto(f"{server}/t/{t.code}")
    t.set_taps(t.season_end(0))
    page.goto(f"{server}/t/{t.code}")
    assert page.locator(".season-end a.button").get_attribute("href") == f"/t/{t.code}/sheets"


def test_the_set_up_note_goes_with_the_first_card(server: str, browser: Any) -> None:
    """The note that the table is ready greets the host once; from the first
    card on, it would only push every card down the phone's screen."""
    page = phone(browser, 390)
    page.goto(f"{server}/")
    page.fill("#players", "Ann\nBen")
    with page.expect_navigation():
        page.click("button.big[type=submit]")
    assert "is ready" in page.locator(".flash").inner_text()
    page.click("button.reveal")
    page.wait_for_selector('#panel[data-taps="1"]')
    assert page.locator(".flash").count() == 0


def test_reveal_brings_the_new_card_into_view(app: Flask, server: str, browser: Any) -> None:
    t = make_table(app, ["Ann", "Ben", "Cat"], chosen=EASY_EDICTS)
    t.set_taps(4)
    page = phone(browser, 390)
    page.goto(f"{server}/t/{t.code}/host/{t.host}")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert box(page, "#panel .turn .card h3")["y"] < 0  # the card's title is above the screen
    page.click("button.reveal")
    page.wait_for_selector('#panel[data-taps="5"]')
    page.wait_for_function(
        """() => {
          const top = document.querySelector('#panel .turn .card h3').getBoundingClientRect().top;
          const dock = document.getElementById('dock').getBoundingClientRect().top;
          return top >= 0 && top + 30 <= dock;
        }""",
        timeout=5000,
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_the_set_up_choices_are_never_cut(server: str, browser: Any, width: int) -> None:
    page = phone(browser, width)
    page.goto(server + "/")
    page.check("#edition input[value=combined]")
    page.check("#ambush_mode input[value=chosen]")
    page.check("#edicts input[value=chosen]")
    choices = page.locator("label.choice, fieldset.choices li")
    assert choices.count() > 20
    cut = choices.evaluate_all(
        f"""els => els.filter(e => e.offsetParent !== null).filter(e => {{
              const box = e.getBoundingClientRect();
              const text = e.querySelector("span, label") || e;
              const r = text.getBoundingClientRect();
              const outside = box.right > {width} || box.left < 0;
              return e.scrollWidth > e.clientWidth + 1 || r.right > box.right || outside;
            }}).map(e => e.textContent.trim())"""
    )
    assert cut == []
    season = page.locator("#season_set label.choice").first.bounding_box()
    assert season and season["width"] > 150  # "Cartographers" has the room it needs


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("edition", ["base", "heroes"])
@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_whole_map_shows_above_the_brushes(
    app: Flask, client: Any, server: str, browser: Any, width: int, edition: str, language: str
) -> None:
    """The whole map above the toolbar, and every brush's label whole in it,
    in English and in Czech (a play-test found "Nestvůra" cut at 390 px)."""
    t = make_table(app, ["Ann", "Ben"], edition=edition, side="A" if edition == "base" else "C")
    as_host(client, t)
    page = czech_or_english_phone(browser, width, 844, language)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    grid, toolbar = box(page, "#board .grid"), box(page, ".toolbar")
    assert toolbar["height"] <= 160, f"the toolbar takes {toolbar['height']} px"
    assert grid["y"] + grid["height"] <= toolbar["y"] + 1, "the toolbar hides the bottom of the map"
    brushes = page.locator(".brush").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
        ".map(e => `${e.textContent}: ${e.scrollWidth} px in ${e.clientWidth}`)"
    )
    page.screenshot(path=f"/tmp/shots/brushes-{edition}-{language}-{width}x844.png")
    assert brushes == [], f"brush labels cut at {width} px"
    for button in page.locator(".brush, .actions .button, .seasons a").all():
        assert (button.bounding_box() or {"height": 0})["height"] >= 44  # a thumb's tap target


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("edition", ["base", "heroes"])
def test_the_brushes_never_cover_the_coin_buttons(
    app: Flask, client: Any, server: str, browser: Any, width: int, edition: str
) -> None:
    """The coins' − and + buttons, never under the brushes' toolbar that stays
    at the screen's foot: not as the editor opens (at 390 x 844 they were half
    under it), not scrolled to, not at the page's end."""
    t = make_table(app, ["Ann", "Ben"], edition=edition, side="A" if edition == "base" else "C")
    as_host(client, t)
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    for where in ("as the editor opens", "scrolled to the coins", "at the page's end"):
        if where == "scrolled to the coins":
            page.locator("#coin-minus").scroll_into_view_if_needed()
        elif where == "at the page's end":
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        toolbar = box(page, ".toolbar")
        for button in ("#coin-minus", "#coin-plus"):
            covered = overlap(box(page, button), toolbar)
            assert not covered, f"the brushes cover {button} {where} at {width} px"


@pytest.mark.parametrize("width", WIDTHS)
def test_the_tv_view_fits_a_phone(app: Flask, server: str, browser: Any, width: int) -> None:
    """The TV view opened on a phone (a host checking it before casting):
    no sideways scroll, and each card's time value stays inside its card."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(t.season_end(3))
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/tv")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scroll at {width} px"
    for card in page.locator(".card:has(.time)").all():
        outer, time = card.bounding_box(), card.locator(".time").bounding_box()
        assert outer is not None and time is not None
        inside = time["x"] + time["width"] <= outer["x"] + outer["width"]
        assert inside, f"a time value leaves its card at {width} px"


SPLIT_WORDS = """h => {
    const range = document.createRange(), split = [];
    const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.textContent.matchAll(/\\S+/g)) {
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const boxes = [...range.getClientRects()].filter(r => r.width > 0);
            const lines = new Set(boxes.map(r => Math.round(r.top)));
            if (lines.size > 1) split.push(m[0]);
        }
    }
    return split;
}"""
"""The words of an element that the browser broke across lines."""


def test_the_checker_sees_a_word_split_across_lines(server: str, browser: Any) -> None:
    page = phone(browser, 320)
    page.goto(f"{server}/")
    page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', "
        "'<h3 id=t style=\"width: 4em; overflow-wrap: anywhere\">Encampment now</h3>')"
    )
    assert page.locator("#t").evaluate(SPLIT_WORDS) == ["Encampment"]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_tv_view_on_a_phone_never_splits_a_card_name_mid_word(
    app: Flask, server: str, browser: Any, width: int
) -> None:
    """Every explore, ambush and hero card's name in both games, shown as the
    TV view's card beside its time value: it wraps between its words
    ("Coastal / Encampment"), never inside one ("Encampme / nt")."""
    names = [c.name for c in (*data.explore_cards(), *data.ambush_cards(), *data.hero_cards())]
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(1)
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/tv")
    heading = page.locator(".card:has(.time) h3").first
    for name in names:
        heading.evaluate("(h, name) => { h.textContent = name; }", name)
        assert heading.evaluate(SPLIT_WORDS) == [], f"{name!r} is split mid-word at {width} px"


def test_the_tv_view_puts_the_four_edicts_in_one_row_on_a_tv(app: Flask, server: str, browser: Any) -> None:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(t.season_end(3))
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(f"{server}/t/{t.code}/tv")
    tops = {round(e.bounding_box()["y"]) for e in page.locator(".edicts li").all()}
    assert len(tops) == 1, tops


@pytest.mark.parametrize(("season", "said"), [(0, "End of spring"), (3, "Winter is over: the game ends")])
def test_the_tv_says_the_season_is_over_on_its_first_screen(
    app: Flask, server: str, browser: Any, season: int, said: str
) -> None:
    """On a 1280 x 720 TV the season's end is told below the last card,
    below the fold: the room sees it beside the time track too."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    for taps in (t.season_end(season), t.season_end(season) - 1):
        t.set_taps(taps)  # behind the app's back: its news of the table may lag a moment
        page.goto(f"{server}/t/{t.code}/tv")
        page.wait_for_timeout(500)  # past any news of the taps before, which its stream would swap in
        page.wait_for_selector(f'#panel[data-taps="{taps}"]')
        if taps == t.season_end(season):
            tag = box(page, ".season-over-tag")
            assert page.locator(".season-over-tag").inner_text() == said
            assert tag["y"] + tag["height"] <= 720
        else:
            assert page.locator(".season-over-tag").count() == 0


def assert_header_fits(page: Any, width: int, where: str) -> None:
    """The top bar's parts (name, table code, EN / CS) side by side or
    wrapped, never over each other or off the screen."""
    parts = [box(page, f".top > :nth-child({n})") for n in range(1, page.locator(".top > *").count() + 1)]
    for n, a in enumerate(parts):
        inside = a["x"] >= 0 and a["x"] + a["width"] <= width + 0.5
        assert inside, f"a part of the top bar leaves the screen, {where}"
        for b in parts[n + 1 :]:
            assert not overlap(a, b), f"the top bar's parts overlap, {where}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scroll, {where}"


@pytest.mark.parametrize("width", (320, 390))
def test_the_top_bar_fits_in_czech_with_the_widest_table_code(
    app: Flask, client: Any, server: str, browser: Any, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Czech's "Stůl" and a code of six wide letters beside "Rozhodčí" and the
    two language buttons, on the narrowest phone."""
    monkeypatch.setattr("referee.store.tables.new_code", lambda: "WMWMWM")
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="C")
    assert t.code == "WMWMWM"
    as_host(client, t)
    context = browser.new_context(
        viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True, locale="cs-CZ"
    )
    page = context.new_page()
    page.goto(f"{server}/t/{t.code}/host/{t.host}")
    assert page.locator("html").get_attribute("lang") == "cs"
    assert_header_fits(page, width, f"host page at {width} px")
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    for path in ("sheets", "sheets/1/spring"):
        page.goto(f"{server}/t/{t.code}/{path}")
        assert_header_fits(page, width, f"/{path} at {width} px")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_hero_brush_selects_have_room_on_a_phone(
    app: Flask, client: Any, server: str, browser: Any, width: int
) -> None:
    """The hero card and its pattern, two selects under the map: each wide
    enough to show a hero's name, none off the screen."""
    from tests.web_sheets.test_heroes_pages import with_hero_in_spring

    t = with_hero_in_spring(app, client, "Freyla the True")
    as_host(client, t)
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    page.tap(".brush.t-H")
    card, pattern = box(page, "#hero-card"), box(page, "#hero-orientation")
    for select in (card, pattern):
        assert select["width"] >= 120, f"a hero select is {select['width']} px wide at {width} px"
        assert select["x"] >= 0 and select["x"] + select["width"] <= width
    assert not overlap(card, pattern)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scroll at {width} px"


@pytest.mark.parametrize("width", WIDTHS)
def test_the_hero_brush_before_any_hero_card_says_so_in_a_line_of_its_own(
    app: Flask, client: Any, server: str, browser: Any, width: int
) -> None:
    """Before a hero card is out, the Hero brush shows the sentence that no
    hero is out, above nothing it could cover (no empty selects), and a tap
    on the map with it says the sentence instead of drawing a nameless hero."""
    t = make_table(app, ["Ann", "Ben"], edition="heroes", side="C")
    as_host(client, t)
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    page.tap(".brush.t-H")
    hint = box(page, "#no-hero")
    assert page.locator("#hero-card, #hero-orientation").count() == 0
    assert hint["x"] >= 0 and hint["x"] + hint["width"] <= width
    for other in page.locator(".brush, .actions .button").all():
        assert not overlap(hint, other.bounding_box() or {}), f"the sentence covers a button at {width} px"
    toolbar = box(page, ".toolbar")
    assert toolbar["height"] <= 260, f"the toolbar takes {toolbar['height']} px"
    page.locator('#board .cell[data-i="0"]').tap()
    assert "No hero card has come out yet" in page.locator("#banner").inner_text()
    assert "t-H" not in (page.locator('#board .cell[data-i="0"]').get_attribute("class") or "")
    # Nothing changed: the sheet is still as saved, with nothing to undo.
    assert page.locator("#undo").is_disabled()
    assert "attention" not in (page.locator("#save").get_attribute("class") or "")


def summer_after_spring_with_4_coins(app: Flask, client: Any) -> TableAt:
    """A table whose summer has begun, Ann's spring scored with 4 coins."""
    t = make_table(app, ["Ann", "Ben"])
    as_host(client, t)
    t.set_taps(t.season_end(0))
    assert save(client, t, 1, "spring", data.map_sides()["A"].blank_map_text(), coins=4).status_code == 200
    score(client, t, 1, "spring")
    t.set_taps(t.season_start(1))
    return t


@pytest.mark.parametrize("width", WIDTHS)
def test_the_coin_warning_shows_beside_the_coins(
    app: Flask, client: Any, server: str, browser: Any, width: int
) -> None:
    """Summer's track set below the 4 coins spring was scored with: the
    warning shows on the screen, between the − and + buttons and the coins,
    not at the page's top a screen above them."""
    t = summer_after_spring_with_4_coins(app, client)
    page = phone(browser, width, 640)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/summer")
    minus = page.locator("#coin-minus")
    minus.scroll_into_view_if_needed()
    minus.tap()
    warning, head, track = box(page, "#coin-warning"), box(page, ".coin-head"), box(page, "#coin-track")
    assert "The season before ended with 4 coins" in page.locator("#coin-warning").inner_text()
    assert head["y"] + head["height"] <= warning["y"] and warning["y"] + warning["height"] <= track["y"]
    assert 0 <= warning["y"] and warning["y"] + warning["height"] <= 640  # on the screen


@pytest.mark.parametrize("width", WIDTHS)
def test_the_coins_are_thumb_targets(app: Flask, client: Any, server: str, browser: Any, width: int) -> None:
    """Each of the fourteen coins is a tap target a thumb hits (two rows of
    seven on a phone), all on the screen."""
    t = make_table(app, ["Ann", "Ben"])
    as_host(client, t)
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    coins = [c.bounding_box() or {} for c in page.locator("#coin-track .coin").all()]
    assert len(coins) == 14
    for coin in coins:
        assert coin["width"] >= 36 and coin["height"] >= 36, f"a coin is {coin['width']} px at {width} px"
        assert coin["x"] >= 0 and coin["x"] + coin["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scroll at {width} px"
    page.locator('#coin-track .coin[data-n="9"]').tap()
    assert page.locator("#coin-count").inner_text() == "9"


@pytest.mark.parametrize("width", WIDTHS)
def test_a_score_sheet_box_holds_a_monster_penalty_of_two_digits(
    app: Flask, client: Any, server: str, browser: Any, width: int
) -> None:
    """Five monsters in a row with eleven empty spaces around them: -11 in
    the spring column's monster box, whole, on the narrowest phone."""
    from tests.web_sheets.conftest import save, score
    from tests.web_sheets.test_standings import ANN

    monsters = [*ANN[:3], "MMMMM......", *ANN[4:5], ".....^.....", *ANN[6:]]
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    as_host(client, t)
    assert save(client, t, 1, "spring", monsters).status_code == 200
    t.set_taps(t.season_end(0))
    assert score(client, t, 1, "spring").status_code == 303
    page = phone(browser, width)
    page.goto(f"{server}/t/{t.code}/sheets/1/spring/score")
    assert "-11" in page.locator(".scoresheet td.monster").first.inner_text()
    cut = page.locator(".scoresheet td").evaluate_all(
        """tds => tds.filter(td => {
              const b = td.querySelector("b");
              if (!b) return false;
              const box = td.getBoundingClientRect(), r = b.getBoundingClientRect();
              return r.left < box.left || r.right > box.right || td.scrollWidth > td.clientWidth;
            }).map(td => td.textContent.trim())"""
    )
    assert cut == [], f"score boxes cut at {width} px"


def czech_or_english_phone(browser: Any, width: int, height: int, language: str) -> Any:
    """A phone whose browser asks for ``language`` (Czech as the Czech tests pick it: by the locale)."""
    locale = {"en": "en-GB", "cs": "cs-CZ"}[language]
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=True, has_touch=True, locale=locale
    )
    return context.new_page()


OPTION_FITS = """(select, text) => {
    const style = getComputedStyle(select);
    const probe = document.createElement("span");
    probe.style.cssText = "position: absolute; white-space: pre; visibility: hidden";
    probe.style.font = style.font;
    probe.style.letterSpacing = style.letterSpacing;
    probe.textContent = text;
    document.body.append(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    // Chromium draws the select's arrow inside its padding box: 20 px leaves it room.
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return [width, room];
}"""
"""A select's option text, as wide as the select would draw it, and the room the select has for it."""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_hero_selects_show_every_name_whole(
    app: Flask, client: Any, server: str, browser: Any, width: int, language: str
) -> None:
    """Every hero card's name ("Dobrik of Lorkheim", the longest) and every
    attack pattern (Czech's "převrácený, otočený o 270°", the longest), whole
    in its select, never cut to "Wren the Li"."""
    from tests.web_sheets.test_heroes_pages import with_hero_in_spring

    t = with_hero_in_spring(app, client, "Wren the Lioness")
    as_host(client, t)
    page = czech_or_english_phone(browser, width, 844, language)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    assert page.locator("html").get_attribute("lang") == language
    page.tap(".brush.t-H")
    card, pattern = page.locator("#hero-card"), page.locator("#hero-orientation")
    names = [c.name for c in data.hero_cards()]
    patterns = pattern.locator("option").all_inner_texts()
    assert len(patterns) == 8
    for select, texts in ((card, names), (pattern, patterns)):
        for text in texts:
            shown, room = select.evaluate(OPTION_FITS, text)
            assert shown <= room, f"{text!r} needs {shown:.0f} px, its select has {room:.0f} at {width} px"
    for select in (card, pattern):
        found = select.bounding_box()
        assert found and found["x"] >= 0 and found["x"] + found["width"] <= width
        assert found["height"] >= 44  # a thumb's tap target
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scroll at {width} px"


@pytest.mark.parametrize("width", WIDTHS)
def test_the_hero_brush_leaves_a_short_phone_to_the_map(
    app: Flask, client: Any, server: str, browser: Any, width: int
) -> None:
    """A 640 px tall phone, a hero card out, the Hero brush chosen: the part
    that stays on the screen (brushes, Undo, Redo, Save) covers at most a
    third of it; the hero card and pattern show on the screen, clear of it;
    and the whole map still shows above it."""
    from tests.web_sheets.test_heroes_pages import with_hero_in_spring

    t = with_hero_in_spring(app, client, "Wren the Lioness")
    as_host(client, t)
    page = phone(browser, width, 640)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    page.locator("#board .grid").evaluate(
        "g => window.scrollTo(0, g.getBoundingClientRect().top + scrollY - 8)"
    )
    page.tap(".brush.t-H")
    toolbar = box(page, ".toolbar")
    assert toolbar["height"] <= 640 / 3, f"the toolbar takes {toolbar['height']:.0f} of 640 px at {width} px"
    for part in ("#hero-card", "#hero-orientation"):
        found = box(page, part)
        assert found["y"] >= 0 and found["y"] + found["height"] <= toolbar["y"], f"{part} is off the screen"
    page.locator("#board .grid").evaluate(
        "g => window.scrollTo(0, g.getBoundingClientRect().top + scrollY - 8)"
    )
    grid, toolbar = box(page, "#board .grid"), box(page, ".toolbar")
    assert grid["y"] >= 0 and grid["y"] + grid["height"] <= toolbar["y"] + 1, "the map never shows whole"
    for button in page.locator(".brush, .actions .button").all():
        assert (button.bounding_box() or {"height": 0})["height"] >= 44  # a thumb's tap target


HEADER_ROOM = """th => {
    const range = document.createRange();
    range.selectNodeContents(th);
    const text = range.getBoundingClientRect(), cell = th.getBoundingClientRect();
    return [th.textContent.trim(), text.left - cell.left, cell.right - text.right];
}"""
"""A header cell's text and the room left of it and right of it, inside the cell's box."""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (430, 932)])
def test_the_monster_brush_leaves_the_whole_map_above_the_brushes(
    app: Flask, client: Any, server: str, browser: Any, width: int, height: int
) -> None:
    """The page opens with the whole map above the brushes; the Monster
    brush adds "Which ambush?" to the part that stays on the screen's foot,
    and the map's last row, which it would cover, scrolls up above it, its
    first row still on the screen."""
    from tests.deals import spring_seed

    t = make_table(
        app, ["Ann", "Ben"], edition="heroes", side="C", seed=spring_seed("Giant Troll Ravage", "troll")
    )
    t.set_taps(t.season_end(0))
    as_host(client, t)
    page = phone(browser, width, height)
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/spring")
    page.tap(".brush.t-M")
    assert page.locator("#monster-options").is_visible()
    grid, toolbar = box(page, "#board .grid"), box(page, ".toolbar")
    assert grid["y"] >= 0, f"the map's first row left the screen at {width}x{height}"
    assert grid["y"] + grid["height"] <= toolbar["y"] + 1, f"the toolbar covers the map at {width}x{height}"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_standings_season_headers_stand_apart(
    app: Flask, client: Any, server: str, browser: Any, width: int, language: str
) -> None:
    """The score sheet's four season names ("Spring", "Summer", ... or
    "Jaro", "Léto", ...) each clear of its cell's borders by 4 px, so that
    two neighbours never read as one word across a table."""
    from tests.web_sheets.test_standings import play_four_seasons

    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_four_seasons(client, t)
    page = czech_or_english_phone(browser, width, 844, language)
    page.goto(f"{server}/t/{t.code}/standings")
    assert page.locator("html").get_attribute("lang") == language
    headers = page.locator(".scoresheet thead th").evaluate_all(f"ths => ths.map({HEADER_ROOM})")
    assert len(headers) == 8  # two players' sheets
    for name, left, right in headers:
        assert min(left, right) >= 4, f"{name!r} has {left:.1f} and {right:.1f} px beside it at {width} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scroll at {width} px"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_score_sheets_box_labels_show_whole(
    app: Flask, client: Any, server: str, browser: Any, width: int, language: str
) -> None:
    """Each box's small label ("coins", "mon.", or Czech "mince", "nestv.")
    shows whole inside its box, not cut at the box's edge."""
    from tests.web_sheets.test_standings import play_four_seasons

    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_four_seasons(client, t)
    page = czech_or_english_phone(browser, width, 844, language)
    page.goto(f"{server}/t/{t.code}/standings")
    labels = page.locator(".scoresheet .lbl").evaluate_all(
        "ls => ls.map(l => [l.textContent.trim(), l.scrollWidth - l.clientWidth])"
    )
    assert labels
    cut = [name for name, hidden in labels if hidden > 0]
    assert not cut, f"labels cut at {width} px: {sorted(set(cut))}"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_coin_count_shows_beside_save(
    app: Flask, client: Any, server: str, browser: Any, width: int, language: str
) -> None:
    """The play-test: Save sits in the toolbar at the screen's foot, the coin
    track below the map; a player who saved without scrolling there kept
    the season before's count unseen. As summer's editor opens (spring
    scored with 4 coins), the count shows beside Save, every button whole
    and apart; one tap on it brings the − and + buttons and the track onto
    the screen, clear of the toolbar, Save still on it; set there, the count
    beside Save follows, and Save keeps it."""
    t = summer_after_spring_with_4_coins(app, client)
    context = browser.new_context(
        viewport={"width": width, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="cs-CZ" if language == "cs" else "en-GB",
    )
    page = context.new_page()
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(f"{server}/t/{t.code}/sheets/1/summer")
    word = "Mince" if language == "cs" else "Coins"
    jump = page.locator("#coins-jump")
    assert " ".join(jump.inner_text().split()) == f"{word} 4/14"
    buttons = page.locator(".actions .button").all()
    assert len(buttons) == 4
    boxes = [b.bounding_box() or {} for b in buttons]
    for i, found in enumerate(boxes):
        assert found["x"] >= 0 and found["x"] + found["width"] <= width, (
            f"a button leaves the screen at {width}"
        )
        assert 0 <= found["y"] and found["y"] + found["height"] <= 844, "the actions are off the screen"
        assert found["height"] >= 44  # a thumb's tap target
        for other in boxes[i + 1 :]:
            assert not overlap(found, other), f"two of Undo, Redo, the coins and Save touch at {width} px"
    assert cut_buttons(page) == [], f"cut at {width} px"
    page.screenshot(path=f"/tmp/shots/editor-coins-beside-save-{language}-{width}x844.png")

    jump.tap()
    page.wait_for_function(
        "() => document.getElementById('coin-track').getBoundingClientRect().bottom <= 845"
    )
    toolbar = box(page, ".toolbar")
    for part in ("#coin-minus", "#coin-plus", "#coin-track", "#save"):
        found = box(page, part)
        assert 0 <= found["y"] and found["y"] + found["height"] <= 844 + 1, (
            f"{part} is off the screen at {width}"
        )
        if part != "#save":
            assert not overlap(found, toolbar), f"the toolbar covers {part} at {width} px"
    page.screenshot(path=f"/tmp/shots/editor-coins-jumped-{language}-{width}x844.png")
    page.locator("#coin-plus").tap()
    assert " ".join(jump.inner_text().split()) == f"{word} 5/14"
    page.locator("#save").tap()
    page.wait_for_selector("#save.clean")
    assert editor(client, t, 1, "summer")[1]["coins"] == 5
    assert cut_buttons(page) == [], f"cut at {width} px once saved"  # "Saved ✓", "Uloženo ✓"
    assert wrapped_buttons(page) == [], f"on two lines at {width} px once saved"
    page.screenshot(path=f"/tmp/shots/editor-coins-saved-{language}-{width}x844.png")


def wrapped_buttons(page: Any) -> list[str]:
    """Undo, Redo and Save, when their words break onto a second line (the
    coin count is two lines by design): the play-test's "Uloženo ✓" at 320 px."""
    return list(
        page.locator("#undo, #redo, #save").evaluate_all(
            """els => els.filter(e => {
                const range = document.createRange();
                range.selectNodeContents(e);
                return new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1;
            }).map(e => e.textContent)"""
        )
    )


def cut_buttons(page: Any) -> list[str]:
    """The toolbar's actions whose words do not fit them, or that leave the screen sideways."""
    width = page.viewport_size["width"]
    if page.evaluate("document.documentElement.scrollWidth") > width:
        return ["sideways scroll"]
    return list(
        page.locator(".actions .button").evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
        )
    )
