"""The Czech printing as a variant: the host chooses it at setup, the table
keeps the choice, its sheets are scored by it, and the score sheet and the
standings say which printing was used."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.rules import deck
from referee.store.models import GameTable
from referee.web.database import get_session
from tests.web.conftest import csrf_token as form_token
from tests.web_sheets.conftest import TableAt, as_host, save, score

KNOWN = tomllib.loads(
    (Path(__file__).parent.parent / "known_maps" / "heroes_czech_printing_c.toml").read_text(encoding="utf-8")
)
EDICTS = ("Jorekburg", "Deepwood", "Gnomish Colony", "Dwarvenholds")
"""Spring scores edicts A and B: Jorekburg and Deepwood, the two cards the printings differ on."""


def set_up(client: FlaskClient, app: Flask, printing: bool, edition: str = "heroes") -> TableAt:
    """A table made through the setup form, the Czech printing ticked or not."""
    page = client.get("/")
    form = {
        "csrf_token": form_token(page.text),
        "edition": edition,
        "map_side": "C" if edition == "heroes" else "A",
        "players": "Ann\nBen",
        "edicts": "chosen",
        "edict_a": EDICTS[0] if edition == "heroes" else "Canal Lake",
        "edict_b": EDICTS[1] if edition == "heroes" else "Sentinel Wood",
        "edict_c": EDICTS[2] if edition == "heroes" else "Great City",
        "edict_d": EDICTS[3] if edition == "heroes" else "Borderlands",
        "seed": "printing-test",
    }
    if printing:
        form["printing"] = "y"
    response = client.post("/", data=form)
    assert response.status_code == 303, response.text
    match = re.search(r"/t/([A-Z0-9]+)/host/([^/?#]+)$", response.headers["Location"])
    assert match
    with app.app_context():
        row = get_session().query(GameTable).filter_by(code=match.group(1)).one()
        setup = deck.Setup.from_dict(row.setup["deal"])
    return TableAt(app, match.group(1), match.group(2), deck.deal(setup))


def kept(app: Flask, code: str) -> dict[str, object]:
    with app.app_context():
        return dict(get_session().query(GameTable).filter_by(code=code).one().setup)


@pytest.mark.parametrize(
    ("edition", "ticked", "printing"), [("heroes", True, "czech"), ("heroes", False, None)]
)
def test_the_table_keeps_the_hosts_choice(
    client: FlaskClient, app: Flask, edition: str, ticked: bool, printing: str | None
) -> None:
    t = set_up(client, app, ticked, edition)
    assert kept(app, t.code).get("printing") == printing


def test_a_base_game_has_no_card_the_czech_printing_changes(client: FlaskClient, app: Flask) -> None:
    """The box is hidden for the base game; ticked anyway, it changes nothing."""
    t = set_up(client, app, True, "base")
    assert "printing" not in kept(app, t.code)


def scored_spring(client: FlaskClient, app: Flask, printing: bool) -> tuple[str, dict[str, int]]:
    """Ann's spring, the hand-counted map, scored: the score page and each edict's stars."""
    t = set_up(client, app, printing)
    as_host(client, t)
    t.set_taps(t.season_end(0))
    assert save(client, t, 1, "spring", KNOWN["map"].strip()).status_code == 200
    assert score(client, t, 1, "spring").status_code == 303
    page = client.get(f"/t/{t.code}/sheets/1/spring/score").text
    stars = {letter: int(value) for letter, value in re.findall(r'data-edict="([A-D])">(-?\d+)</b>', page)}
    return page, stars


def test_the_czech_printing_scores_jorekburg_and_deepwood_by_its_sentences(
    client: FlaskClient, app: Flask
) -> None:
    czech_page, czech = scored_spring(client, app, printing=True)
    english_page, english = scored_spring(client, app, printing=False)
    assert czech == {"A": KNOWN["stars"]["Jorekburg"], "B": KNOWN["stars"]["Deepwood"]}
    assert english == {"A": KNOWN["english_stars"]["Jorekburg"], "B": KNOWN["english_stars"]["Deepwood"]}
    assert 'id="printing"' in czech_page and "Scored by the Czech printing" in czech_page
    assert "Scored by the English printing" in english_page


def test_the_standings_say_which_printing(client: FlaskClient, app: Flask) -> None:
    t = set_up(client, app, True)
    assert client.get(f"/t/{t.code}/export.json").get_json()["printing"] == "czech"
    page = client.get(f"/t/{t.code}/standings").text
    assert "Scored by the Czech printing of the cards" in page
    czech = client.get(f"/t/{t.code}/standings", headers={"Accept-Language": "cs"}).text
    assert "Bodováno podle českého vydání karet" in czech


def test_the_host_page_shows_the_printings_rule(client: FlaskClient, app: Flask) -> None:
    """The edicts' rules on the dealer's page are the chosen printing's."""
    czech = set_up(client, app, True)
    english = set_up(client, app, False)
    assert "Earn five reputation stars for each column" in client.get(f"/t/{czech.code}").text
    assert "Earn four reputation stars for each column" in client.get(f"/t/{english.code}").text
    cs = {"Accept-Language": "cs"}
    assert "Získáš pět bodů pověsti za každý sloupec" in client.get(f"/t/{czech.code}", headers=cs).text
    assert "Získáš čtyři body pověsti za každý sloupec" in client.get(f"/t/{english.code}", headers=cs).text
