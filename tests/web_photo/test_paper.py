"""Paper play: printable map sheets (PDF, A4 and Letter, cached by browsers)
linked from the home page and the table's sheets page, and the legend that
tells players how to mark a sheet so that a photo of it can be read."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.vision.printable import sheet_pdf
from tests.web_sheets.conftest import make_table

SIDES = ("A", "B", "C", "D")
PAPERS = (("a4", "A4"), ("letter", "Letter"))


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize(("paper", "label"), PAPERS)
def test_each_side_prints_at_each_paper_size(client: FlaskClient, side: str, paper: str, label: str) -> None:
    response = client.get(f"/print/map-sheet-{side}-{paper}.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.data == sheet_pdf(side, paper)
    assert f"map-sheet-{side}-{label}.pdf" in response.headers["Content-Disposition"]
    assert response.cache_control.public and response.cache_control.max_age == 7 * 86400
    again = client.get(
        f"/print/map-sheet-{side}-{paper}.pdf", headers={"If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304 and again.data == b""


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/print/map-sheet-E-a4.pdf", "There is no map side E"),
        ("/print/map-sheet-A-a3.pdf", "A4 or Letter paper, not a3"),
    ],
)
def test_a_sheet_that_does_not_exist(client: FlaskClient, path: str, words: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert words in response.text


def _links(html: str) -> set[str]:
    return set(re.findall(r'href="(/print/[^"]+|/legend)"', html))


def test_the_home_page_links_every_sheet_and_the_legend(client: FlaskClient) -> None:
    links = _links(client.get("/").text)
    want = {f"/print/map-sheet-{s}-{p}.pdf" for s in SIDES for p, _ in PAPERS} | {"/legend"}
    assert links == want
    for link in links:
        assert client.get(link).status_code == 200


def test_the_sheets_page_links_the_table_side(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], side="C")
    links = _links(client.get(f"/t/{t.code}/sheets").text)
    assert links == {"/print/map-sheet-C-a4.pdf", "/print/map-sheet-C-letter.pdf", "/legend"}


def test_the_legend_says_the_marking_convention(client: FlaskClient) -> None:
    html = client.get("/legend").text
    text = re.sub(r"<[^>]+>", " ", html)
    text = re.sub(r"\s+", " ", text)
    for terrain, pencil in [
        ("Forest", "dark green"),
        ("Village", "red"),
        ("Farm", "yellow"),
        ("Water", "blue"),
        ("Monster", "violet"),
        ("Hero (Heroes)", "orange"),
    ]:
        assert f"{terrain} {pencil}" in text
    assert "a big graphite X" in text
    for letter in "FVAWMHX":
        assert f'<span class="letter">{letter}</span>' in html
