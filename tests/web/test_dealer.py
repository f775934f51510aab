"""The dealer's pages against the engine: every reveal shows the dealt card,
seasons end at their thresholds, undo steps back one turn, and each refusal
has its status and sentence."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from referee.rules import data, deck
from referee.store import GameTable
from referee.store.models import utcnow
from referee.web.database import get_session
from referee.web.present import passes
from tests.web.conftest import act, create_table, csrf_token

SEED = "amber-fox-417"


def base_deal(seed: str = SEED, solo: bool = False) -> deck.Deal:
    return deck.deal(deck.Setup("base", seed, solo=solo))


def turns(game: deck.Deal) -> list[deck.Turn]:
    return [t for s in game.seasons for t in s.turns]


def first_ambush_tap(game: deck.Deal) -> int:
    return next(i for i, t in enumerate(turns(game), 1) if t.reveals[-1].kind == "ambush")


def test_a_whole_game_follows_the_deal(client: FlaskClient) -> None:
    code, token, _ = create_table(client, seed=SEED)
    game = base_deal()
    state = client.get(f"/api/t/{code}").get_json()
    assert state["taps"] == 0 and state["turn"] == [] and state["total"] == game.turn_count()
    season_ends = []
    for taps, turn in enumerate(turns(game), 1):
        response = act(client, code, token, "reveal", taps - 1, Accept="application/json")
        assert response.status_code == 200, response.text
        state = response.get_json()
        assert state["taps"] == taps
        assert state["turn"] == [r.name for r in turn.reveals]
        assert state["time"] == turn.time_after
        if state["season_over"]:
            assert state["time"] >= state["threshold"]
            season_ends.append((state["season"], state["time"]))
        else:
            assert state["time"] < state["threshold"]
    assert season_ends == [(s.name, s.time) for s in game.seasons]
    assert state["game_over"]

    page = client.get(f"/t/{code}/host/{token}")
    assert "Winter is over: the game ends" in page.text
    late = act(client, code, token, "reveal", game.turn_count())
    assert late.status_code == 409
    assert "The game is over: winter has ended and there are no more cards to reveal." in late.text


def test_the_host_page_draws_the_revealed_card(client: FlaskClient) -> None:
    code, token, html = create_table(client, seed=SEED)
    assert "Tap <b>Reveal</b>" in html
    act(client, code, token, "reveal", 0)
    first = turns(base_deal())[0]
    page = client.get(f"/t/{code}/host/{token}").text
    for reveal in first.reveals:
        assert f'data-card="{reveal.name}"' in page
    follower = client.get(f"/t/{code}").text
    assert f'data-card="{first.reveals[-1].name}"' in follower
    assert 'data-act="reveal"' not in follower  # no buttons for followers
    assert 'data-act="reveal"' not in client.get(f"/t/{code}/tv").text


def test_each_shape_option_says_its_squares_and_the_coin_option_its_coin(client: FlaskClient) -> None:
    """Great River: "3 squares" with a coin, or "5 squares"; a player reads
    the size of either option, not only the coin's."""
    code, token, _ = create_table(client, seed=SEED)
    card = next(c for c in data.explore_cards() if c.name == "Great River")
    assert [(s.size, s.coin) for s in card.shapes] == [(3, True), (5, False)]
    act(client, code, token, "reveal", 0)
    act(client, code, token, "reveal", 1)
    page = client.get(f"/t/{code}").text
    assert turns(base_deal())[1].reveals[-1].name == "Great River"
    assert 'data-card="Great River"' in page
    assert '<figcaption>3 squares <b class="coin-tag">+1 coin</b></figcaption>' in page
    assert "<figcaption>5 squares</figcaption>" in page


def test_a_script_reveals_and_undoes_with_a_json_body(client: FlaskClient) -> None:
    """The API's reveal reads the host link's token and the taps from a JSON
    object as from a form: a script's JSON is not taken for a stranger's tap."""
    code, token, html = create_table(client, seed=SEED)
    headers = {"X-CSRFToken": csrf_token(html), "Accept": "application/json"}
    first = client.post(f"/api/t/{code}/reveal", json={"host": token, "taps": 0}, headers=headers)
    assert first.status_code == 200, first.text
    assert first.get_json()["turn"] == [r.name for r in turns(base_deal())[0].reveals]
    again = client.post(f"/api/t/{code}/reveal", json={"host": token, "taps": 0}, headers=headers)
    assert again.status_code == 409  # the same tap twice: one reveal
    undone = client.post(f"/api/t/{code}/undo", json={"host": token, "taps": "1"}, headers=headers)
    assert undone.status_code == 200 and undone.get_json()["taps"] == 0
    stranger = client.post(f"/api/t/{code}/reveal", json={"host": "nope", "taps": 0}, headers=headers)
    assert stranger.status_code == 403
    for body in ({"host": token, "taps": [0]}, {"host": token, "taps": True}):
        refused = client.post(f"/api/t/{code}/reveal", json=body, headers=headers)
        assert refused.status_code == 400, body
    listed = client.post(f"/api/t/{code}/reveal", json=[token, 0], headers=headers)
    assert listed.status_code == 400
    assert "cannot read a JSON list, text or number" in listed.get_json()["error"]
    assert client.get(f"/api/t/{code}").get_json()["taps"] == 0  # nothing refused moved the table


def test_undo_takes_back_the_last_reveal_and_keeps_the_order(client: FlaskClient) -> None:
    code, token, _ = create_table(client, seed=SEED)
    for taps in range(3):
        assert act(client, code, token, "reveal", taps).status_code == 303
    third = client.get(f"/api/t/{code}").get_json()["turn"]
    undone = act(client, code, token, "undo", 3, Accept="application/json")
    assert undone.status_code == 200 and undone.get_json()["taps"] == 2
    again = act(client, code, token, "reveal", 2, Accept="application/json").get_json()
    assert again["turn"] == third


def test_undo_with_nothing_to_undo_is_a_conflict(client: FlaskClient) -> None:
    code, token, _ = create_table(client)
    response = act(client, code, token, "undo", 0)
    assert response.status_code == 409
    assert "There is nothing to undo: no card has been revealed yet." in response.text


def test_a_stale_tap_reveals_nothing(client: FlaskClient) -> None:
    code, token, _ = create_table(client)
    assert act(client, code, token, "reveal", 0).status_code == 303
    second = act(client, code, token, "reveal", 0, Accept="application/json")
    assert second.status_code == 409
    assert "already revealed" in second.get_json()["error"]
    assert client.get(f"/api/t/{code}").get_json()["taps"] == 1


@pytest.mark.parametrize("token", ["", "not-the-token"])
def test_only_the_host_can_reveal(client: FlaskClient, token: str) -> None:
    code, real, _ = create_table(client)
    page = client.get(f"/t/{code}/host/{real}")
    response = client.post(
        f"/t/{code}/reveal", data={"csrf_token": csrf_token(page.text), "host": token, "taps": "0"}
    )
    assert response.status_code == 403
    assert "Only the host of this table can do that" in response.text
    assert client.get(f"/api/t/{code}").get_json()["taps"] == 0
    assert client.get(f"/t/{code}/host/{token or 'x'}").status_code == 403


def test_a_host_link_not_the_tables_offers_to_follow_the_table(client: FlaskClient) -> None:
    """A player who opened a host link that is not theirs still wants the cards."""
    code, _, _ = create_table(client)
    page = client.get(f"/t/{code}/host/not-the-token")
    assert page.status_code == 403
    assert f'href="/t/{code}"' in page.text and "Follow this table" in page.text
    assert client.get("/t/NOSUCH/host/x").status_code == 404  # no table: nothing to follow


def test_a_reveal_without_the_csrf_token_is_refused(client: FlaskClient) -> None:
    code, token, _ = create_table(client)
    response = client.post(f"/t/{code}/reveal", data={"host": token, "taps": "0"})
    assert response.status_code == 400
    assert "The form had expired or came from another page" in response.text
    assert client.get(f"/api/t/{code}").get_json()["taps"] == 0


@pytest.mark.parametrize("path", ["/t/ZZZZZZ", "/t/ZZZZZZ/tv", "/join?code=zz-zzzz", "/t/ZZZZZZ/host/abc"])
def test_an_unknown_code_is_404_with_a_sentence(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "No table has the code ZZZZZZ; check it with the host." in response.text


def test_api_errors_are_json(client: FlaskClient) -> None:
    response = client.get("/api/t/ZZZZZZ")
    assert response.status_code == 404
    assert response.get_json() == {
        "error": "No table has the code ZZZZZZ; check it with the host.",
        "status": 404,
    }
    other = client.get("/nowhere", headers={"Accept": "application/json"})
    assert other.status_code == 404 and other.get_json()["error"] == "There is no page at this address."
    assert client.get("/nowhere").mimetype == "text/html"


def test_joining_with_a_code_in_any_case(client: FlaskClient) -> None:
    code, _token, _ = create_table(client)
    typed = f" {code[:3].lower()}-{code[3:]} "
    response = client.get("/join", query_string={"code": typed})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{code}")
    empty = client.get("/join", query_string={"code": ""})
    assert empty.status_code == 400 and "Type the table&#39;s code" in empty.text


def test_an_expired_table_is_gone(app: Flask, client: FlaskClient) -> None:
    code, token, _ = create_table(client)
    with app.app_context():
        session = get_session()
        session.execute(
            update(GameTable).where(GameTable.code == code).values(updated_at=utcnow() - timedelta(days=31))
        )
        session.commit()
    response = client.get(f"/t/{code}")
    assert response.status_code == 410
    assert f"Table {code} expired after 30 days without a reveal; start a new one." in response.text
    assert client.get(f"/t/{code}/host/{token}").status_code == 410


def test_polling_is_cheap_while_nothing_changes(client: FlaskClient) -> None:
    code, token, _ = create_table(client)
    first = client.get(f"/api/t/{code}")
    etag = first.headers["ETag"]
    assert client.get(f"/api/t/{code}", headers={"If-None-Match": etag}).status_code == 304
    act(client, code, token, "reveal", 0)
    changed = client.get(f"/api/t/{code}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.get_json()["taps"] == 1


def test_the_panel_fragment_for_each_view(client: FlaskClient) -> None:
    code, token, _ = create_table(client)
    assert client.get(f"/t/{code}/panel?mode=follow").text.lstrip().startswith('<div id="panel"')
    assert client.get(f"/t/{code}/panel?mode=host&token=nope").status_code == 403
    assert 'data-act="undo"' in client.get(f"/t/{code}/panel?mode=host&token={token}").text
    assert client.get(f"/t/{code}/panel?mode=boss").status_code == 400


@pytest.mark.parametrize(
    ("direction", "expected"),
    [
        ("clockwise", [("Ann", "Ben"), ("Ben", "Cat"), ("Cat", "Dee"), ("Dee", "Ann")]),
        ("counterclockwise", [("Ann", "Dee"), ("Ben", "Ann"), ("Cat", "Ben"), ("Dee", "Cat")]),
    ],
)
def test_who_passes_to_whom(direction: str, expected: list[tuple[str, str]]) -> None:
    # Seats are listed clockwise, so clockwise each player passes to the next seat.
    assert passes(["Ann", "Ben", "Cat", "Dee"], direction) == expected


def test_an_ambush_names_who_passes_to_whom(client: FlaskClient) -> None:
    code, token, _ = create_table(client, seed=SEED, players="Ann\nBen\nCat")
    game = base_deal()
    tap = first_ambush_tap(game)
    for taps in range(tap):
        act(client, code, token, "reveal", taps)
    ambush = turns(game)[tap - 1].reveals[-1].name
    page = client.get(f"/t/{code}").text
    assert f'data-card="{ambush}"' in page
    clockwise = ambush in ("Bugbear Assault", "Kobold Onslaught")
    pairs = [("Ann", "Ben"), ("Ben", "Cat"), ("Cat", "Ann")]
    if not clockwise:
        pairs = [("Ann", "Cat"), ("Ben", "Ann"), ("Cat", "Ben")]
    for giver, taker in pairs:
        assert f"<li><b>{giver}</b> → {taker}</li>" in page
    assert ("<b>clockwise</b>" if clockwise else "<b>counterclockwise</b>") in page


def test_a_solo_ambush_names_the_corner_and_direction(client: FlaskClient) -> None:
    code, token, _ = create_table(client, seed=SEED, players="Solveig")
    game = base_deal(solo=True)
    tap = first_ambush_tap(game)
    for taps in range(tap):
        act(client, code, token, "reveal", taps)
    page = client.get(f"/t/{code}").text
    corners = {
        "Goblin Attack": ("bottom-right", "counterclockwise"),
        "Bugbear Assault": ("top-right", "clockwise"),
        "Kobold Onslaught": ("bottom-left", "clockwise"),
        "Gnoll Raid": ("top-left", "counterclockwise"),
    }
    corner, way = corners[turns(game)[tap - 1].reveals[-1].name]
    assert f"start in the <b>{corner}</b> corner and go <b>{way}</b> around the edge" in page
    assert "→" not in page.split('id="panel"')[1].split("</article>")[0]
