"""Every score explains itself: for each of the 32 scoring cards, a map it
scores (the hand-counted map where it scores most) is saved and scored on the
web, and the score page shows the card's sentence and, when it earned stars,
the spaces or lines that earned them."""

from __future__ import annotations

import html
import re
import tomllib
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.rules import data
from referee.rules.cards import all_cards, card_named
from referee.rules.sheet import MapSheet
from tests.web_sheets.conftest import as_host, make_table, save, score

KNOWN = sorted((Path(__file__).parent.parent / "known_maps").glob("*.toml"))
AMBUSHES = ("Goblin Attack", "Bugbear Assault", "Kobold Onslaught", "Gnoll Raid")


def _best_map(card: str) -> tuple[str, str]:
    """(side, map) of the known map on which ``card`` scores most."""
    best: tuple[int, str, str] | None = None
    for path in KNOWN:
        known = tomllib.loads(path.read_text(encoding="utf-8"))
        sheet = MapSheet.parse(known["map"], known["side"])
        stars = card_named(card).score(sheet).stars
        if best is None or stars > best[0]:
            best = (stars, known["side"], sheet.text())
    assert best is not None
    return best[1], best[2]


def _edicts(card: str) -> tuple[str, str, str, str]:
    """``card`` under edict A, and one card of each other card back under B, C and D."""
    back = card_named(card).back
    others = [
        next(s.name for s in data.scoring_card_infos() if s.back == b) for b in data.CARD_BACKS if b != back
    ]
    return (card, others[0], others[1], others[2])


@pytest.mark.parametrize("card", [c.name for c in all_cards()])
def test_the_score_page_says_why_and_shows_where(app: Flask, client: FlaskClient, card: str) -> None:
    side, text = _best_map(card)
    t = make_table(
        app,
        ["Ann", "Ben"],
        edition="combined",
        side=side,
        chosen=_edicts(card),
        season_set="base",
        explore_set="base",
        heroes=True,
        ambushes=AMBUSHES,
    )
    as_host(client, t)
    assert save(client, t, 1, "spring", text).status_code == 200
    t.set_taps(t.season_end(0))
    assert score(client, t, 1, "spring").status_code == 303
    page = client.get(f"/t/{t.code}/sheets/1/spring/score").text

    expected = card_named(card).score(MapSheet.parse(text, side))
    line = re.search(
        r'<span class="line-name">([^<]*)</span>\s*<b class="stars" data-edict="A">(-?\d+)</b>', page
    )
    assert line and html.unescape(line.group(1)) == card and int(line.group(2)) == expected.stars
    # The sentence is shown, not hidden behind a tap.
    why = re.search(r'<p class="why" data-why="edict-1">([^<]*)</p>', page)
    assert why and html.unescape(why.group(1)).strip() == expected.why and expected.why.endswith(".")
    highlighted = re.findall(r'class="cell [^"]*\bhl-edict-1\b', page)
    if expected.stars > 0:
        assert highlighted, f"{card} earned {expected.stars} stars but no space is highlighted"
