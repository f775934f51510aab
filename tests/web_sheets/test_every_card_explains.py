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

from referee.rules import data, deck, heroes, terrain
from referee.rules.cards import all_cards, card_named
from referee.rules.geometry import SIZE
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


COMBINED = {"season_set": "base", "explore_set": "base", "heroes": True, "ambushes": AMBUSHES}


def _spring_heroes(card: str, seed: str) -> list[str]:
    """The hero cards revealed in spring at this test's table for ``card`` and ``seed``."""
    setup = deck.Setup(edition="combined", seed=seed, edicts="chosen", chosen=_edicts(card), **COMBINED)
    spring = deck.deal(setup.check()).seasons[0]
    return [r.name for turn in spring.turns for r in turn.reveals if r.kind == "hero"]


def _seed_and_heroes(card: str, side: str, text: str) -> tuple[str, list[dict[str, object]]]:
    """A seed for the table, and the hero card of each hero space on ``text``.

    A season is scored only once each hero space has its hero card, so a map
    with a hero gets a seed whose spring reveals a hero card (one at most: a
    season shuffles one hero card into the explore deck), drawn in an
    orientation that attacks no monster. The map as saved is then the known
    map itself, hero terrain included, and the stars counted by hand for it
    in ``tests/known_maps`` stand unchanged."""
    sheet = MapSheet.parse(text, side)
    spaces = [(r, c) for r in range(SIZE) for c in range(SIZE) if sheet.at(r, c) == terrain.HERO]
    if not spaces:
        return "sheet-test-1", []
    assert len(spaces) == 1, "one hero card comes out in spring at most"
    cards = {h.name: h for h in data.hero_cards()}
    for n in range(200):
        seed = f"every-card-hero-{n}"
        for name in _spring_heroes(card, seed):
            for orientation in heroes.Orientation:
                hit = heroes.attacked_spaces(spaces[0], cards[name], orientation)
                if all(sheet.at(*at) != terrain.MONSTER for at in hit):
                    return seed, [{"hero": name, "at": list(spaces[0]), "orientation": orientation.value}]
    raise AssertionError(f"no seed reveals a hero in spring that attacks no monster on {card}'s map")


@pytest.mark.parametrize("card", [c.name for c in all_cards()])
def test_the_score_page_says_why_and_shows_where(app: Flask, client: FlaskClient, card: str) -> None:
    side, text = _best_map(card)
    seed, drawn_heroes = _seed_and_heroes(card, side, text)
    t = make_table(
        app, ["Ann", "Ben"], edition="combined", side=side, seed=seed, chosen=_edicts(card), **COMBINED
    )
    as_host(client, t)
    t.set_taps(t.season_end(0))  # spring is over, and its hero card has come out
    saved = save(client, t, 1, "spring", text, heroes=drawn_heroes)
    assert saved.status_code == 200, saved.text
    assert saved.json["map"] == text.replace("\n", "")  # the hero destroyed nothing
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
