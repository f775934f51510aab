"""The setup form: each bad input gets its own sentence and status 400; a good
one creates a table and sends the host to the host link."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee.rules import deck
from referee.store import GameTable
from referee.web.database import get_session
from tests.web.conftest import create_table, csrf_token, setup_form


def post(client: FlaskClient, **fields: object) -> tuple[int, str]:
    page = client.get("/")
    response = client.post("/", data={**setup_form(**fields), "csrf_token": csrf_token(page.text)})
    return response.status_code, response.text


def test_the_form_offers_a_fresh_seed(client: FlaskClient) -> None:
    first = client.get("/")
    second = client.get("/")
    assert first.status_code == 200
    seeds = [
        page.text.split('id="seed"', 1)[1].split('value="', 1)[1].split('"', 1)[0] for page in (first, second)
    ]
    assert all(deck.check_seed(s) == s for s in seeds)
    assert seeds[0] != seeds[1]


@pytest.mark.parametrize(
    ("fields", "sentence"),
    [
        ({"players": ""}, "Type at least one player&#39;s name."),
        ({"players": "  \n \n"}, "Type at least one player&#39;s name."),
        ({"seed": ""}, "Type a seed, or keep the one suggested."),
        (
            {"seed": "x" * (deck.MAX_SEED_LENGTH + 1)},
            "The seed is 65 characters long; keep it to 64 or fewer.",
        ),
        ({"players": "Ann\nann"}, "Two players are called ann; give them different names."),
        ({"players": "A" * 41}, "Keep each name to 40 characters"),
        (
            {"map_side": "C"},
            "Cartographers comes with map sides A and B; combine the two games to use any side.",
        ),
        ({"edicts": "first_game"}, "The base game&#39;s rulebook names no scoring cards for a first game"),
        (
            {
                "edition": "combined",
                "season_set": "base",
                "explore_set": "base",
                "ambush_mode": "chosen",
                "ambushes": ["Goblin Attack"],
            },
            "Choose exactly four ambush cards, not 1.",
        ),
        (
            {
                "edicts": "chosen",
                "edict_a": "Sentinel Wood",
                "edict_b": "Greenbough",
                "edict_c": "Wildholds",
                "edict_d": "Borderlands",
            },
            "Choose only one forest scoring card: Sentinel Wood and Greenbough have the same card back.",
        ),
        ({"edition": "chess"}, "Not a valid choice"),
    ],
)
def test_bad_input_is_refused_with_a_sentence(
    client: FlaskClient, fields: dict[str, object], sentence: str
) -> None:
    status, html = post(client, **fields)
    assert status == 400
    assert sentence in html
    assert "field-error" in html


def test_missing_everything_names_each_field(client: FlaskClient) -> None:
    page = client.get("/")
    response = client.post("/", data={"csrf_token": csrf_token(page.text)})
    assert response.status_code == 400
    assert "Type at least one player&#39;s name." in response.text
    assert "Type a seed, or keep the one suggested." in response.text


def test_a_post_without_the_csrf_token_is_refused(client: FlaskClient) -> None:
    response = client.post("/", data=setup_form())
    assert response.status_code == 400
    assert "The form had expired or came from another page" in response.text
    assert b"Traceback" not in response.data


def test_creating_a_table_stores_the_setup_and_seats(app: Flask, client: FlaskClient) -> None:
    code, token, html = create_table(client, players="Ann\n Ben \nCat", seed="  fern-otter-123 ")
    assert f"Table <b>{code}</b>" in html
    assert "<svg" in html and "segno" in html  # the QR code of the join link
    with app.app_context():
        table = get_session().scalar(select(GameTable).where(GameTable.code == code))
        assert table is not None
        assert table.player_names == ["Ann", "Ben", "Cat"]
        assert table.setup["deal"]["seed"] == "fern-otter-123"
        assert table.setup["deal"]["version"] == deck.DEAL_VERSION == table.deal_version
        assert table.setup["map_side"] == "A"
        assert table.taps == 0
        assert table.is_host(token) and not table.is_host(token + "x") and not table.is_host(None)
        assert token not in table.host_token_hash


def test_one_player_plays_solo(app: Flask, client: FlaskClient) -> None:
    code, _token, html = create_table(client, players="Solveig")
    assert "solo" in html
    with app.app_context():
        table = get_session().scalar(select(GameTable).where(GameTable.code == code))
        assert table is not None and table.setup["deal"]["solo"] is True


def test_combined_game_with_chosen_cards(app: Flask, client: FlaskClient) -> None:
    ambushes = ["Goblin Attack", "Dragon Inferno", "Zombie Plague", "Gorgon Gaze"]
    code, _token, html = create_table(
        client,
        edition="combined",
        map_side="D",
        season_set="heroes",
        explore_set="base",
        heroes="y",
        ambush_mode="chosen",
        ambushes=ambushes,
        edicts="chosen",
        edict_a="Sentinel Wood",
        edict_b="Craylund",
        edict_c="Shieldgate",
        edict_d="Starlit Sigil",
    )
    for name in ("Sentinel Wood", "Craylund", "Shieldgate", "Starlit Sigil"):
        assert name in html
    with app.app_context():
        table = get_session().scalar(select(GameTable).where(GameTable.code == code))
        assert table is not None
        setup = deck.Setup.from_dict(table.setup["deal"])
    assert setup.season_set == "heroes" and setup.explore_set == "base" and setup.heroes is True
    assert sorted(setup.ambushes) == sorted(ambushes)
    assert deck.deal(setup).edicts == {
        "A": "Sentinel Wood",
        "B": "Craylund",
        "C": "Shieldgate",
        "D": "Starlit Sigil",
    }


def post_json(client: FlaskClient, **fields: object) -> tuple[int, dict[str, object], str | None]:
    """The setup as a JSON object from a script that asks for JSON back."""
    page = client.get("/")
    response = client.post(
        "/",
        json=setup_form(**fields),
        headers={"Accept": "application/json", "X-CSRFToken": csrf_token(page.text)},
    )
    return response.status_code, response.get_json(), response.headers.get("Location")


def test_a_script_that_asks_for_json_gets_the_new_tables_links(client: FlaskClient) -> None:
    status, body, location = post_json(client)
    assert status == 201
    assert set(body) == {"code", "host", "follow", "tv"}
    code = body["code"]
    assert location == body["host"]
    assert re.fullmatch(rf"http://localhost/t/{code}/host/[\w-]+", str(body["host"]))
    assert (body["follow"], body["tv"]) == (f"http://localhost/t/{code}", f"http://localhost/t/{code}/tv")
    host = client.get(str(body["host"]))
    assert host.status_code == 200 and "Ann" in host.text


@pytest.mark.parametrize(
    ("fields", "field", "sentence"),
    [
        ({"seed": ""}, "seed", "seed: Type a seed, or keep the one suggested."),
        (
            {"players": "Ann\nann"},
            "players",
            "players: Two players are called ann; give them different names.",
        ),
        ({"edition": "chess"}, "edition", "edition: Not a valid choice."),
    ],
)
def test_a_script_that_asks_for_json_gets_the_refusal_in_json(
    client: FlaskClient, app: Flask, fields: dict[str, object], field: str, sentence: str
) -> None:
    status, body, location = post_json(client, **fields)
    assert (status, body["error"], body["status"], location) == (400, sentence, 400, None)
    assert field in body["fields"]
    with app.app_context():
        assert get_session().scalars(select(GameTable)).all() == []
