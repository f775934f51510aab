"""Hostile input from issue 12: numbers that are not ASCII digits or are far
too long, JSON nested too deep or too large, and a save retried after its
reply was lost. Each gets a 4xx and a sentence, never a 500, and loses
nothing saved."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.rules.sheet import MapSheet
from referee.web.inputs import MAX_JSON_BYTES, TOO_LARGE, whole_number
from tests.web_sheets.conftest import TableAt, claim, csrf_token, editor, make_table, save

BLANK_A = MapSheet.blank("A").text()

#: Strings ``str.isdigit`` accepts (or nearly) that are not a number the pages send.
NOT_NUMBERS = ["²", "①", "٣", "9" * 5000, "1" * 10, "-1", " 1", "1e3", "+1", "0x1", "1.0"]
IDS = [raw if len(raw) < 12 else f"{len(raw)} digits" for raw in NOT_NUMBERS]


@pytest.mark.parametrize(
    ("raw", "high", "expected"),
    [("0", 10, 0), ("7", 10, 7), ("10", 10, 10), ("11", 10, None), ("007", 10, 7), ("", 10, None)]
    + [(raw, 10**9, None) for raw in NOT_NUMBERS],
    ids=["0", "7", "10", "11", "007", "empty", *IDS],
)
def test_whole_number_takes_ascii_digits_in_range_only(raw: str, high: int, expected: int | None) -> None:
    assert whole_number(raw, high) == expected


@pytest.fixture()
def table(app: Flask, client: FlaskClient) -> TableAt:
    t = make_table(app, ["Ada", "Brook"])
    claim(client, t, 1)
    return t


def _post(client: FlaskClient, t: TableAt, path: str, **fields: str) -> Any:
    html, _ = editor(client, t, 1, "spring")
    data = {"csrf_token": csrf_token(html), "host": t.host, **fields}
    return client.post(f"/t/{t.code}/{path}", data=data, headers={"Accept": "application/json"})


#: Every route that reads a number from a form, and the other fields it needs.
NUMBER_ROUTES = [
    ("reveal", "taps", {}),
    ("undo", "taps", {}),
    ("sheets/1/spring/effects", "troll", {}),
    ("sheets/1/spring/gorgon", "space", {"revision": "1"}),
    ("sheets/1/spring/gorgon", "revision", {"space": "0"}),
]


@pytest.mark.parametrize("raw", NOT_NUMBERS, ids=IDS)
@pytest.mark.parametrize(
    ("path", "field", "others"), NUMBER_ROUTES, ids=[f"{p} {f}" for p, f, _ in NUMBER_ROUTES]
)
def test_a_number_that_is_not_one_is_400_everywhere(
    client: FlaskClient, table: TableAt, path: str, field: str, others: dict[str, str], raw: str
) -> None:
    response = _post(client, table, path, **others, **{field: raw})
    assert response.status_code == 400, response.text
    sentence = response.json["error"]
    assert sentence.endswith(".") and "Traceback" not in sentence


#: A cookie holds at most about 4,000 bytes, so the longest string here is shorter.
COOKIE_NUMBERS = [raw if len(raw) < 4000 else raw[:4000] for raw in NOT_NUMBERS]


@pytest.mark.parametrize("raw", COOKIE_NUMBERS, ids=IDS)
def test_a_seat_cookie_with_a_strange_number_is_no_seat(app: Flask, client: FlaskClient, raw: str) -> None:
    t = make_table(app, ["Ada", "Brook"])
    client.set_cookie(f"seat_{t.code}", f"{raw}.secret", path=f"/t/{t.code}")
    page = client.get(f"/t/{t.code}/sheets")
    assert page.status_code == 200, page.text
    html, _ = editor(client, t, 1, "spring")
    assert "Claim" in html or "claim" in html


def _save_raw(client: FlaskClient, t: TableAt, body: bytes) -> Any:
    html, _ = editor(client, t, 1, "spring")
    return client.post(
        f"/t/{t.code}/sheets/1/spring",
        data=body,
        content_type="application/json",
        headers={"X-CSRFToken": csrf_token(html), "Accept": "application/json"},
    )


def test_json_nested_too_deep_is_400_and_the_sheet_is_kept(client: FlaskClient, table: TableAt) -> None:
    assert save(client, table, 1, "spring", BLANK_A, coins=2).status_code == 200
    response = _save_raw(client, table, b"[" * 5000 + b"]" * 5000)
    assert response.status_code == 400, response.text
    assert "could not read" in response.json["error"]
    assert editor(client, table, 1, "spring")[1]["coins"] == 2


def test_deep_json_posted_to_the_setup_form_is_400(client: FlaskClient) -> None:
    response = client.post("/", data=b"[" * 5000 + b"]" * 5000, content_type="application/json")
    assert response.status_code == 400, response.text


def test_a_json_body_over_the_cap_is_413(client: FlaskClient, table: TableAt) -> None:
    body = json.dumps({"map": "x" * MAX_JSON_BYTES}).encode()
    response = _save_raw(client, table, body)
    assert response.status_code == 413, response.text
    # the sheet's sentence, not the photo's ("send a smaller JPEG", a limit of megabytes)
    assert response.json["error"] == str(TOO_LARGE)


def test_a_save_retried_after_its_reply_was_lost_is_confirmed(client: FlaskClient, table: TableAt) -> None:
    _, config = editor(client, table, 1, "spring")
    first = save(client, table, 1, "spring", BLANK_A, coins=2, revision=config["revision"])
    assert first.status_code == 200
    again = save(client, table, 1, "spring", BLANK_A, coins=2, revision=config["revision"])
    assert again.status_code == 200, again.text
    assert again.json["revision"] == first.json["revision"]
    # A different save from the same stale page is still refused.
    other = save(client, table, 1, "spring", BLANK_A, coins=3, revision=config["revision"])
    assert other.status_code == 409
    assert editor(client, table, 1, "spring")[1]["coins"] == 2
