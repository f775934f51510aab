"""Mark the grid yourself: a photo the reader refused comes back on the page
for the player to tap the grid's four corners on, and goes back with them;
the reader then fits the grid near the marks. Bad marks get a sentence, the
photo again, and nothing saved changes."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.rules.sheet import MapSheet
from tests.web_photo.conftest import multipart, page_config, photo_error, post_photo, stored_sheets
from tests.web_sheets.conftest import claim, csrf_token, editor, make_table, save

PHOTOS = Path(__file__).resolve().parents[1] / "vision" / "photos"
MISSED = PHOTOS / "dim_on_pages.jpg"
"""A dim, blurred and tilted photo of a pad-style sheet lying on printed
pages (a training draw of ``tools/make_samples.py``, seed 21000, photo 601)
whose grid no search finds."""


def _missed() -> tuple[bytes, dict[str, Any]]:
    return MISSED.read_bytes(), json.loads(MISSED.with_suffix(".json").read_text())


def _table(app: Flask, client: FlaskClient, side: str) -> Any:
    t = make_table(app, ["Ann", "Ben"], side=side)
    claim(client, t, 1)
    editor(client, t, 1, "spring")
    return t


def _mark_photo(html: str) -> tuple[bytes, int, int]:
    """The photo the page offers to mark corners on: its JPEG, width and height."""
    img = re.search(
        r'<img id="mark-img" src="data:image/jpeg;base64,([^"]+)" width="(\d+)" height="(\d+)"', html
    )
    assert img, "no photo to mark on the page"
    return base64.b64decode(img.group(1)), int(img.group(2)), int(img.group(3))


def _post_marked(client: FlaskClient, t: Any, data: bytes, corners: str, json_client: bool = False) -> Any:
    html, _ = editor(client, t, 1, "spring")
    body, content_type = multipart({"csrf_token": csrf_token(html), "corners": corners}, data)
    headers = {"Accept": "application/json"} if json_client else {}
    return client.post(
        f"/t/{t.code}/sheets/1/spring/photo", data=body, content_type=content_type, headers=headers
    )


def _marks(truth: dict[str, Any], scale: float, nudge: float = 0.25) -> str:
    """The true corners as a fingertip marks them: each a quarter of a
    square off, in a different direction, in the marked photo's pixels."""
    corners = np.array(truth["corners_px"], float)
    square = float(np.linalg.norm(corners[0] - corners[1])) / 11
    off = np.array([[1, -1], [-1, -1], [-1, 1], [1, 1]]) * nudge * square
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in (corners + off) * scale)


def test_a_refused_photo_comes_back_to_mark_the_corners_on(app: Flask, client: FlaskClient) -> None:
    data, truth = _missed()
    t = _table(app, client, truth["side"])
    response = post_photo(client, t, 1, "spring", data)
    assert response.status_code == 422
    assert "No map grid found" in (photo_error(response.text) or "")
    jpeg, width, height = _mark_photo(response.text)
    assert max(width, height) <= 1400 and jpeg.startswith(b"\xff\xd8")
    assert 'id="mark-grid"' in response.text and re.search(r"js/corners\.\w+\.js", response.text)
    assert '<h2 id="mark-title">Mark the grid yourself</h2>' in response.text


def test_the_marked_photo_reads_near_its_corners(app: Flask, client: FlaskClient) -> None:
    data, truth = _missed()
    t = _table(app, client, truth["side"])
    jpeg, width, _ = _mark_photo(post_photo(client, t, 1, "spring", data).text)
    scale = width / truth["image_size"][0]
    before = stored_sheets(app, t)
    response = _post_marked(client, t, jpeg, _marks(truth, scale))
    assert response.status_code == 200, photo_error(response.text)
    reading = page_config(response.text)["reading"]
    wrong = sum(a != b for a, b in zip(reading["map"], "".join(truth["grid"]), strict=True))
    assert wrong <= 6, wrong  # read with the true corners, 3 squares are wrong
    assert stored_sheets(app, t) == before  # nothing saved until the player confirms


def test_json_clients_may_send_corners(app: Flask, client: FlaskClient) -> None:
    data, truth = _missed()
    t = _table(app, client, truth["side"])
    response = _post_marked(client, t, data, _marks(truth, 1.0), json_client=True)
    assert response.status_code == 200
    got = np.array(response.json["corners"], float)
    want = np.array(truth["corners_px"], float)
    square = float(np.linalg.norm(want[0] - want[1])) / 11
    assert np.linalg.norm(got[:, None] - want[None], axis=2).min(axis=1).max() < 0.25 * square


@pytest.mark.parametrize(
    "corners",
    ["1,2 3,4 5,6", "1,2 3,4 5,6 7", "a,b c,d e,f g,h", "1,2 3,4 5,6 7,8 9,10", "nan,1 2,3 4,5 6,7"],
    ids=["three", "a lone number", "words", "five", "not a number"],
)
def test_marks_that_are_not_four_corners_get_a_sentence(
    app: Flask, client: FlaskClient, corners: str
) -> None:
    data, truth = _missed()
    t = _table(app, client, truth["side"])
    assert save(client, t, 1, "spring", MapSheet.blank(truth["side"]).text(), coins=3).status_code == 200
    before = stored_sheets(app, t)
    response = _post_marked(client, t, data, corners)
    assert response.status_code in (400, 422)
    sentence = photo_error(response.text) or ""
    assert "corners" in sentence and sentence.endswith("."), sentence
    _mark_photo(response.text)  # the photo is there again, to mark anew
    assert stored_sheets(app, t) == before


def test_corners_that_make_no_grid_are_refused(app: Flask, client: FlaskClient) -> None:
    data, truth = _missed()
    t = _table(app, client, truth["side"])
    # four points on a line, and four far outside the photo
    for corners in ("10,10 20,20 30,30 40,40", "-900,-900 5000,-900 5000,5000 -900,5000"):
        response = _post_marked(client, t, data, corners)
        assert response.status_code == 422
        assert "not the corners of a map grid" in (photo_error(response.text) or "")


def test_no_photo_no_marking(app: Flask, client: FlaskClient) -> None:
    data, truth = _missed()
    t = _table(app, client, truth["side"])
    response = post_photo(client, t, 1, "spring", b"Cartographers is a map-drawing game.\n" * 50)
    assert response.status_code == 400
    assert 'id="mark-grid"' not in response.text


def test_a_photo_of_another_side_is_not_offered_for_marking(app: Flask, client: FlaskClient) -> None:
    """Its grid was found; the table's side or the sheet is the wrong one."""
    from tests.web_photo.conftest import sample

    data, truth = sample()
    t = _table(app, client, "B" if truth["side"] == "A" else "A")
    response = post_photo(client, t, 1, "spring", data)
    assert response.status_code == 422 and "looks like map side" in (photo_error(response.text) or "")
    assert 'id="mark-grid"' not in response.text


def test_a_black_and_white_photo_is_not_offered_for_marking(app: Flask, client: FlaskClient) -> None:
    """Marking its grid cannot bring the pencils' colours back: the page asks
    for a photo in colour instead."""
    from tests.web_photo.conftest import sample

    data, truth = sample()
    grey = cv2.cvtColor(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE), cv2.COLOR_GRAY2BGR)
    t = _table(app, client, str(truth["side"]))
    response = post_photo(client, t, 1, "spring", cv2.imencode(".jpg", grey)[1].tobytes())
    assert response.status_code == 422
    assert "take it again in colour" in (photo_error(response.text) or "")
    assert 'id="mark-grid"' not in response.text


def test_a_photo_of_two_sheets_asks_for_the_players_own(app: Flask, client: FlaskClient) -> None:
    """Two sheets of the side in one photo: the page says so, saves nothing,
    and offers the photo to mark the player's own grid on, which is then
    read alone."""
    from tests.vision.test_two_sheets import _side_by_side

    data, left, _right, _ = _side_by_side("006", "007")
    t = _table(app, client, str(left["side"]))
    before = stored_sheets(app, t)
    response = post_photo(client, t, 1, "spring", data)
    assert response.status_code == 422
    assert (photo_error(response.text) or "").startswith("Two map sheets are in the photo")
    assert '<h2 id="mark-title">Mark the grid of your own sheet</h2>' in response.text
    assert stored_sheets(app, t) == before
    jpeg, width, _ = _mark_photo(response.text)
    # both grids found, in the marked photo's pixels, to choose one of with a tap
    grids = _offered(response.text)
    scale = width / _width(data)
    assert sorted(_which(grid, [left, _right], scale) for grid in grids) == [0, 1]
    assert (
        ">Tap inside your own sheet's grid, outlined on the photo, or tap its four outer corners.</p>"
        in response.text
    )
    marked = _post_marked(client, t, jpeg, _marks(left, width / _width(data)))
    assert marked.status_code == 200, photo_error(marked.text)
    read = page_config(marked.text)["reading"]["map"]

    def wrong(truth: dict[str, Any]) -> int:
        """Squares read otherwise than ``truth`` where it holds a terrain: a
        monster, hero or destroyed space on the photo is one this table's
        limits (base game, no ambush out yet) may read as another code."""
        return sum(t in ".FVAW" and r != t for r, t in zip(read, "".join(truth["grid"]), strict=True))

    assert wrong(left) <= 2 < 30 <= wrong(_right)  # the marked sheet is read, not the other one


def test_json_clients_are_told_both_grids_to_send_their_own_back(app: Flask, client: FlaskClient) -> None:
    """A script is told both grids' corners in the photo's own pixels, and
    one of them sent back as ``corners`` is read alone."""
    from tests.vision.test_two_sheets import _side_by_side

    data, left, right, _ = _side_by_side("006", "007")
    t = _table(app, client, str(left["side"]))
    before = stored_sheets(app, t)
    response = post_photo(client, t, 1, "spring", data, headers={"Accept": "application/json"})
    assert response.status_code == 422
    assert response.json["error"].startswith("Two map sheets are in the photo")
    grids = response.json["grids"]
    assert sorted(_which(grid, [left, right], 1.0) for grid in grids) == [0, 1]
    own = next(grid for grid in grids if _which(grid, [left, right], 1.0) == 0)
    marked = _post_marked(client, t, data, " ".join(f"{x},{y}" for x, y in own), json_client=True)
    assert marked.status_code == 200, marked.json
    got = np.array(marked.json["corners"], float)
    assert _which(got.tolist(), [left, right], 1.0) == 0
    assert stored_sheets(app, t) == before


def test_json_clients_are_told_no_grids_for_a_photo_of_one(app: Flask, client: FlaskClient) -> None:
    data, truth = _missed()
    t = _table(app, client, str(truth["side"]))
    response = post_photo(client, t, 1, "spring", data, headers={"Accept": "application/json"})
    assert response.status_code == 422
    assert "grids" not in response.json and "No map grid found" in response.json["error"]


def _offered(html: str) -> list[list[list[float]]]:
    """The grids the refusal page offers to choose from (``data-grids``)."""
    found = re.search(r"data-grids='([^']*)'", html)
    assert found, "no grids offered on the page"
    grids: list[list[list[float]]] = json.loads(found.group(1))
    return grids


def _which(grid: list[list[float]], truths: list[dict[str, Any]], scale: float) -> int:
    """The index of the truth whose grid's corners (times ``scale``) ``grid``'s
    four corners lie within half a square of, in any order."""
    for i, truth in enumerate(truths):
        want = np.array(truth["corners_px"], float) * scale
        half = float(np.linalg.norm(want[0] - want[1])) / 22
        if all(np.linalg.norm(want - corner, axis=1).min() < half for corner in np.array(grid)):
            return i
    raise AssertionError(f"{grid} lies on neither grid")


def test_a_photo_with_one_grid_offers_none_to_choose(app: Flask, client: FlaskClient) -> None:
    data, truth = _missed()
    t = _table(app, client, str(truth["side"]))
    response = post_photo(client, t, 1, "spring", data)
    assert _offered(response.text) == []
    assert ">Tap the grid's four outer corners: 0 of 4.</p>" in response.text


def _width(jpeg: bytes) -> int:
    import cv2

    return int(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape[1])
