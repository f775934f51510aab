"""Bad input found in review: each gets its status and one sentence, never a
500, and loses nothing saved. A JSON list to the solo helper; an upload over
the size limit to a seat, season or season not begun that is not there; an
editor save whose hero or monster tag has the wrong shape; JSON that is not
an object posted to a form."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.rules.sheet import MapSheet
from tests.web.conftest import csrf_token as form_token
from tests.web_photo.conftest import multipart
from tests.web_sheets.conftest import TableAt, claim, csrf_token, editor, make_table, save

BLANK_A = MapSheet.blank("A").text()


@pytest.fixture()
def solo(app: Flask, client: FlaskClient) -> TableAt:
    t = make_table(app, ["Solo"], seed="solo-1")
    claim(client, t, 1)
    return t


def _json_headers(client: FlaskClient, t: TableAt) -> dict[str, str]:
    html, _ = editor(client, t, 1, "spring")
    return {"X-CSRFToken": csrf_token(html), "Accept": "application/json"}


def _refused(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    sentence = response.json["error"]
    assert sentence.endswith(".") and "Traceback" not in sentence
    return sentence


@pytest.mark.parametrize("body", [[1, 2], "map", 7, None])
def test_the_solo_helper_refuses_json_that_is_not_an_object(
    client: FlaskClient, solo: TableAt, body: Any
) -> None:
    response = client.post(
        f"/t/{solo.code}/sheets/1/spring/solo", json=body, headers=_json_headers(client, solo)
    )
    assert "no map and ambush card" in _refused(response, 400)


@pytest.mark.parametrize(
    ("path", "what"),
    [
        ("sheets/9/spring/photo", "no such seat"),
        ("sheets/1/autumn/photo", "not a season"),
        ("sheets/1/summer/photo", "not begun"),
        ("sheets/1/spring/photo", "a good address"),
    ],
)
def test_an_upload_over_the_limit_is_413_wherever_it_goes(
    app: Flask, client: FlaskClient, solo: TableAt, path: str, what: str
) -> None:
    assert save(client, solo, 1, "spring", BLANK_A, coins=2).status_code == 200
    html, before = editor(client, solo, 1, "spring")
    app.config["MAX_CONTENT_LENGTH"] = 4000
    body, content_type = multipart({"csrf_token": csrf_token(html)}, b"\xff\xd8\xff" + b"\0" * 8000)
    response = client.post(f"/t/{solo.code}/{path}", data=body, content_type=content_type)
    assert response.status_code == 413, what
    assert "That photo is too large. The referee accepts at most 4 KB" in response.text
    api = client.post(
        f"/t/{solo.code}/{path}",
        data=body,
        content_type=content_type,
        headers={"Accept": "application/json"},
    )
    assert "at most 4 KB" in _refused(api, 413)
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024 * 1024
    _, after = editor(client, solo, 1, "spring")
    assert (after["revision"], after["coins"]) == (before["revision"], 2)


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"heroes": [{"hero": ["Dobrik of Lorkheim"], "at": [0, 0]}]}, "which hero card"),
        ({"heroes": [{"hero": {"name": "x"}, "at": [0, 0]}]}, "which hero card"),
        ({"heroes": ["Dobrik of Lorkheim"]}, "which hero card"),
        ({"heroes": {"hero": "Dobrik of Lorkheim"}}, "heroes in a form"),
        ({"monsters": [{"ambush": "Goblin Attack", "spaces": 5}]}, "Goblin Attack's spaces"),
        ({"monsters": [{"ambush": "Goblin Attack", "spaces": "A1"}]}, "Goblin Attack's spaces"),
        ({"monsters": [{"ambush": "Goblin Attack", "spaces": [5]}]}, "row and a column"),
        ({"monsters": [{"ambush": ["Goblin Attack"], "spaces": []}]}, "names its ambush card"),
        ({"monsters": "Goblin Attack"}, "monster tags in a form"),
    ],
)
def test_an_editor_save_of_the_wrong_shape_is_400(
    client: FlaskClient, solo: TableAt, extra: dict[str, Any], words: str
) -> None:
    assert save(client, solo, 1, "spring", BLANK_A, coins=2).status_code == 200
    response = save(client, solo, 1, "spring", BLANK_A, coins=3, **extra)
    assert words in _refused(response, 400)
    _, after = editor(client, solo, 1, "spring")
    assert (after["revision"], after["coins"]) == (2, 2)


@pytest.mark.parametrize("body", ["[1, 2]", '"Ann"', "7", "null", "[]"])
def test_json_that_is_not_an_object_posted_to_a_form_is_400(
    client: FlaskClient, solo: TableAt, body: str
) -> None:
    home = client.get("/")
    for path, token in (
        ("/", form_token(home.text)),
        (f"/t/{solo.code}/sheets/1/spring/photo", csrf_token(editor(client, solo, 1, "spring")[0])),
    ):
        response = client.post(
            path, data=body, content_type="application/json", headers={"X-CSRFToken": token}
        )
        assert response.status_code == 400, path
        assert "cannot read a JSON list, text or number" in response.text
        api = client.post(
            path,
            data=body,
            content_type="application/json",
            headers={"X-CSRFToken": token, "Accept": "application/json"},
        )
        assert "cannot read a JSON list" in _refused(api, 400)
