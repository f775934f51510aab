"""A Czech phone plays: Chromium with a Czech locale (so its Accept-Language
is Czech) sets up a Heroes table, reveals spring, paints and saves a sheet and
scores it, at 320 px wide. Every main page reads in Czech, with no English
left over but the card names the Czech rulebook does not give; the EN / CS
switch works at that width and is remembered."""

from __future__ import annotations

import re
from typing import Any

import pytest

from referee.rules import data
from tests.browser import ARGS, CHROMIUM, playwright_or_skip

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ENGLISH = [
    "Reveal", "Undo", "Edict", "Spring", "Summer", "Winter", "Season", "season", "Map sheet", "Score",
    "Save", "Coins", "coin", "Forest", "Village", "Farm", "Water", "Monster", "Standings", "Join",
    "Table", "rule", "time", "Waiting", "Ongoing", "Draw", "square", "space", "player", "seed",
    "the ", " and ", " of ", "your", "Brushes", "Eraser", "Total",
]  # fmt: skip
"""Words of the English pages that no Czech page should show (as whole words:
the Czech "Farma" is not the English "Farm")."""


def untranslated_names() -> list[str]:
    """The card names the Czech rulebook does not give, kept in English on purpose."""
    texts = data.card_texts("cs")
    assert texts is not None
    return sorted(
        (name for kind in ("scoring", "explore", "ambush", "hero") for name in texts.raw[kind]
         if texts.untranslated(kind, name)),
        key=len,
        reverse=True,
    )  # fmt: skip


def leftovers(page: Any) -> list[str]:
    """English words in the page's visible text, once the kept card names are taken out."""
    text = page.inner_text("body")
    for name in untranslated_names():
        text = text.replace(name, "")
    return [word for word in ENGLISH if re.search(rf"\b{re.escape(word.strip())}\b", text)]


def assert_czech(page: Any, *phrases: str) -> None:
    assert page.locator("html").get_attribute("lang") == "cs"
    for phrase in phrases:
        assert phrase in page.inner_text("body"), phrase
    assert leftovers(page) == [], f"{page.url}: English left over: {leftovers(page)}"


def test_a_czech_phone_plays_spring_in_czech(server: str) -> None:
    sync_playwright = playwright_or_skip()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 320, "height": 640}, has_touch=True, locale="cs-CZ")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))

        page.goto(server + "/")
        assert_czech(page, "Založit stůl", "Připojit se ke stolu", "Mapové listy k vytištění")
        page.click("text=Kartografové: Hrdinové")
        page.click("text=C: Hrdinové: divočina")
        page.fill("#players", "Anna\nPetr")
        page.click("text=Sada pro první hru podle pravidel (Hrdinové)")
        page.click("text=Vytvořit stůl")
        page.wait_for_selector("#table")
        assert_czech(page, "je připravený", "Odhalit", "Výnosy", "Bludná houština")

        # Reveal until spring is over; table.js swaps the panel in each time.
        taps = 0
        while page.locator('#panel[data-season-over="true"]').count() == 0:
            page.click("button.reveal")
            taps += 1
            page.wait_for_selector(f'#panel[data-taps="{taps}"]')
            assert taps < 20
        assert_czech(page, "Konec jara", "Zapsat a ohodnotit mapové listy")

        page.click("text=Zapsat a ohodnotit mapové listy")
        page.wait_for_selector(".seat-list")
        assert_czech(page, "Mapové listy", "Jste hostitel")

        page.locator(".seat").first.locator("text=Otevřít list").click()
        page.wait_for_selector("#board")
        assert_czech(page, "Mince", "Uložit", "Zatím neuloženo.", "Guma", "Zpět")  # opened, never saved
        page.click('.brush[data-brush="F"]')
        for c in range(3):
            page.click(f'#board .cell[data-i="{c}"]')
        page.wait_for_selector("#status:text-is('Zatím neuloženo.')")
        page.click("#save")
        page.wait_for_selector("#status:text-is('Uloženo.')")
        assert_czech(page, "Uloženo ✓", "Jaro: boduje se výnos A")

        page.click("#score-form button")
        page.wait_for_selector("#season-total")
        assert_czech(page, "Tabulka bodů", "Nestvůry: prázdná pole sousedící s nestvůrou", "Celkem")
        why = page.locator('.why[data-why="edict-1"]').inner_text()
        assert re.search(r"Nejdelší souvislý sloupec lesa má \d+ pol", why), why

        page.goto(page.url.split("/sheets/")[0] + "/standings")
        assert_czech(page, "Pořadí", "Čekáme na zimní body", "Stáhnout CSV")
        page.goto(server + "/legend")
        assert_czech(page, "Jak vyplňovat mapový list", "Pastelky")

        # The switch: two 44 px targets inside 320 px, English on a tap, and remembered.
        for code in ("EN", "CS"):
            box = page.locator(f'.lang-switch a:text-is("{code}")').bounding_box()
            assert box and box["width"] >= 44 and box["height"] >= 44 and box["x"] + box["width"] <= 320
        page.click('.lang-switch a:text-is("EN")')
        page.wait_for_selector("html[lang=en]")
        assert "How to mark your map sheet" in page.inner_text("body")
        page.goto(server + "/")
        assert page.locator("html").get_attribute("lang") == "en"
        page.click('.lang-switch a:text-is("CS")')
        page.wait_for_selector("html[lang=cs]")
        assert errors == []
        browser.close()
