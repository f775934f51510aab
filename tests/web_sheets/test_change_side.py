"""The host switches the table's map side from the host page, until someone
saves a sheet; nobody else can, and a saved sheet is never changed."""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor

from flask import Flask
from flask.testing import FlaskClient

from referee.rules.data import map_sides
from referee.rules.sheet import MapSheet
from tests.web_photo.conftest import stored_sheets
from tests.web_sheets.conftest import TableAt, claim, csrf_token, editor, make_table, save


def _host_page(client: FlaskClient, t: TableAt) -> str:
    page = client.get(f"/t/{t.code}/host/{t.host}")
    assert page.status_code == 200
    return page.text


def _switch(client: FlaskClient, t: TableAt, side: str, host: str | None = None, **headers: str) -> object:
    html = _host_page(client, t)
    return client.post(
        f"/t/{t.code}/side",
        data={"csrf_token": csrf_token(html), "host": t.host if host is None else host, "side": side},
        headers=headers,
    )


def _buttons(html: str) -> list[str]:
    return re.findall(r'<button type="submit" class="secondary" name="side" value="([A-D])">', html)


def _about(html: str) -> str:
    match = re.search(r'<section class="about">(.*?)</section>', html, re.S)
    assert match
    return match.group(1)


def test_the_host_switches_the_side_before_anyone_saves(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], side="A")
    player = app.test_client()
    claim(player, t, 1)
    editor(player, t, 1, "spring")  # Ann's blank side A sheet is open on her phone
    html = _host_page(client, t)
    assert "Change the map side" in html and _buttons(html) == ["B"]

    response = _switch(client, t, "B")

    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{t.code}/host/{t.host}")
    html = client.get(response.headers["Location"]).text
    assert f"Table {t.code} now plays map side B." in html
    assert "map side B:" in _about(html) and _buttons(html) == ["A"]
    _, config = editor(player, t, 1, "spring")  # reopened on side B
    assert "".join(config["map"]) == MapSheet.blank(map_sides()["B"]).text().replace("\n", "")
    assert "map side B:" in _about(app.test_client().get(f"/t/{t.code}").text)
    answer = _switch(client, t, "A", Accept="application/json")  # a script is answered in JSON
    assert answer.status_code == 200 and answer.json == {"map_side": "A"}


def test_only_the_host_switches(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], side="A")
    for token in ("", "not-the-host-token"):
        response = _switch(client, t, "B", host=token)
        assert response.status_code == 403
        assert "Only the host of this table can do that" in response.text
    assert "map side A:" in _about(_host_page(client, t))
    follower = client.get(f"/t/{t.code}").text
    assert "Change the map side" not in follower and f"/t/{t.code}/side" not in follower


def test_after_a_save_the_side_stays_and_the_sheet_is_kept(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], side="A")
    player = app.test_client()
    claim(player, t, 2)
    rows = MapSheet.blank(map_sides()["A"]).text().split("\n")
    rows[0] = "VV........."
    assert save(player, t, 2, "spring", rows).status_code == 200
    before = stored_sheets(app, t)
    html = _host_page(client, t)
    assert "Change the map side" not in html and _buttons(html) == []

    response = _switch(client, t, "B")

    assert response.status_code == 409
    assert (
        "Ben has already saved a sheet on side A, so this table&#39;s side can no longer change; "
        "to play side B, set up a new table." in response.text
    )
    assert stored_sheets(app, t) == before
    assert "map side A:" in _about(_host_page(client, t))
    answer = _switch(client, t, "B", Accept="application/json")
    assert answer.status_code == 409 and answer.json["error"].startswith("Ben has already saved")


def test_a_side_the_game_has_not_gets_a_sentence(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], side="A")
    response = _switch(client, t, "C", Accept="application/json")
    assert response.status_code == 400
    assert response.json["error"] == (
        "Cartographers comes with map sides A and B; combine the two games to use any side."
    )
    response = _switch(client, t, "Z" * 5000)
    assert response.status_code == 400 and "There is no map side ZZZZZZZZ;" in response.text
    assert "map side A:" in _about(_host_page(client, t))


def side_switch_races_a_save(app: Flask, seed: str, created: list[str] | None = None) -> tuple[int, int]:
    """The host switches a table from side A to B at the very moment a player
    saves her first sheet, from two phones at once: the statuses of (switch,
    save). Whichever wins, the table never ends with a saved sheet and a side
    it was not saved on."""
    host, player = app.test_client(), app.test_client()
    t = make_table(app, ["Ann", "Ben"], side="A", seed=seed)
    code, token = t.code, t.host
    if created is not None:
        created.append(code)
    claim(player, t, 1)
    html, config = editor(player, t, 1, "spring")
    rows = MapSheet.blank(map_sides()["A"]).text().split("\n")
    rows[0] = "VV........."
    body = {"revision": config["revision"], "map": "\n".join(rows), "coins": 0, "monsters": [], "heroes": []}
    host_page = host.get(f"/t/{code}/host/{token}").text
    form = {"csrf_token": csrf_token(host_page), "host": token, "side": "B"}
    barrier = threading.Barrier(2)

    def switch() -> int:
        barrier.wait()
        return host.post(f"/t/{code}/side", data=form).status_code

    def saving() -> int:
        barrier.wait()
        headers = {"X-CSRFToken": csrf_token(html), "Accept": "application/json"}
        return player.post(f"/t/{code}/sheets/1/spring", json=body, headers=headers).status_code

    with ThreadPoolExecutor(2) as pool:
        switched, saved = pool.submit(switch), pool.submit(saving)
        statuses = switched.result(), saved.result()
    stored = stored_sheets(app, t)
    side = "B" if "map side B:" in _about(host.get(f"/t/{code}/host/{token}").text) else "A"
    if statuses == (303, 409):  # the switch won: no sheet was saved, on either side
        assert side == "B" and all(revision == 1 for *_, revision in stored)
    else:  # the save won, on side A, and the side stayed
        assert statuses == (409, 200), statuses
        assert side == "A" and [s[2].split("\n")[0] for s in stored] == ["VV........."]
    return statuses


def test_a_switch_and_a_save_at_once(app: Flask) -> None:
    for round_ in range(4):
        side_switch_races_a_save(app, f"side-race-{round_}")
