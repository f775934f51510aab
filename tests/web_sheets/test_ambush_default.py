"""The ambush a monster belongs to is chosen for the player: the monster brush's
"Which ambush?" and the solo helper's "Ambush card" both start on the ambush
revealed last this season, with the others still offered. Checked in real
Chromium on the seed ``solo-1``, whose deal is (whatever the table size):
spring no ambush; summer Gnoll Raid, then Goblin Attack; fall Bugbear Assault.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_sheets.conftest import TableAt, as_host, editor, make_table, score

pytestmark = [pytest.mark.browser]

SEED = "solo-1"


def reveal_through(t: TableAt, season: int, card: str) -> None:
    turns = t.deal.seasons[season].turns
    index = next(i for i, turn in enumerate(turns) if card in [r.name for r in turn.reveals])
    before = t.season_end(season - 1) if season else 0
    t.set_taps(before + index + 1)


def score_seasons(client: FlaskClient, t: TableAt, seats: int, upto: int) -> None:
    """Score seasons before ``upto`` for every seat, as the host, on blank maps."""
    for s, name in enumerate(("spring", "summer", "fall")[:upto]):
        t.set_taps(t.season_end(s))
        for seat in range(1, seats + 1):
            editor(client, t, seat, name)
            assert score(client, t, seat, name).status_code == 303


def host_page(browser: Any, server: str, t: TableAt, path: str) -> Any:
    page = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    page.goto(f"{server}/t/{t.code}/sheets?host={t.host}")
    page.goto(server + path)
    return page


def test_the_solo_helper_suggests_the_ambush_revealed_this_season(
    app: Flask, client: FlaskClient, browser: Any, server: str
) -> None:
    t = make_table(app, ["Solo"], seed=SEED)
    as_host(client, t)
    score_seasons(client, t, 1, 2)
    reveal_through(t, 2, "Bugbear Assault")
    page = host_page(browser, server, t, f"/t/{t.code}/sheets/1/fall")
    assert page.locator("#solo-ambush").input_value() == "Bugbear Assault"
    page.click("#solo-find")
    page.wait_for_selector("#solo-answer:not(:empty)")
    answer = page.locator("#solo-answer").inner_text()
    assert "Bugbear Assault" in answer and "Gnoll Raid" not in answer
    # The monster brush says the same.
    page.click('.brush[data-brush="M"]')
    assert page.locator("#ambush-tag").input_value() == "Bugbear Assault"
    # the cards out this season first, in a group of their own, each name whole
    out_now = page.locator('#ambush-tag optgroup[label="Out this fall"] option').all_inner_texts()
    assert out_now == ["Bugbear Assault"]


def test_the_monster_brush_is_tagged_with_the_latest_ambush(
    app: Flask, client: FlaskClient, browser: Any, server: str
) -> None:
    t = make_table(app, ["Ann", "Ben"], seed=SEED)
    as_host(client, t)
    score_seasons(client, t, 2, 1)
    reveal_through(t, 1, "Gnoll Raid")
    page = host_page(browser, server, t, f"/t/{t.code}/sheets/1/summer")
    page.click('.brush[data-brush="M"]')
    assert page.locator("#ambush-tag").input_value() == "Gnoll Raid"

    reveal_through(t, 1, "Goblin Attack")
    page.reload()
    page.click('.brush[data-brush="M"]')
    tag = page.locator("#ambush-tag")
    assert tag.input_value() == "Goblin Attack"
    offered = tag.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert "Gnoll Raid" in offered and "" in offered  # the other one, and "Not tagged"
    # A monster painted now is saved as the Goblin Attack's.
    page.click('#board .cell[data-i="72"]')
    page.click("#save")
    page.wait_for_selector("#status:text-is('Saved.')")  # a string predicate is eval, which the CSP forbids
    _, config = editor(client, t, 1, "summer")
    assert config["monsters"] == [{"ambush": "Goblin Attack", "spaces": [[6, 6]]}]


def test_before_any_ambush_nothing_is_tagged(
    app: Flask, client: FlaskClient, browser: Any, server: str
) -> None:
    t = make_table(app, ["Ann", "Ben"], seed=SEED)
    as_host(client, t)
    t.set_taps(3)
    page = host_page(browser, server, t, f"/t/{t.code}/sheets/1/spring")
    page.click('.brush[data-brush="M"]')
    assert page.locator("#ambush-tag").input_value() == ""
