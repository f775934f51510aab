"""The sheet pages through the test client: seats, saving, each bad input,
a stale save, and a season scored against numbers counted by hand."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_sheets.conftest import (
    EASY_EDICTS,
    TableAt,
    as_host,
    claim,
    csrf_token,
    editor,
    make_table,
    save,
    score,
)

# Side A with four forests on the top edge, a monster at row 6, column 1
# (three empty neighbours), a water and a farm side by side at the bottom.
SPRING = [
    "FFFF.......",
    "...^.......",
    "........^..",
    "...........",
    "...........",
    "M....^.....",
    "...........",
    "...........",
    "..^........",
    ".......^...",
    "WA.........",
]


CELL = re.compile(r'class="cell ([^"]*)"\s*data-i="(\d+)"')


@pytest.fixture()
def table(app: Flask) -> TableAt:
    return make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)


def test_a_claimed_seat_saves_its_own_sheet(client: FlaskClient, table: TableAt) -> None:
    claim(client, table, 1)
    response = save(client, table, 1, "spring", SPRING, coins=1)
    assert response.status_code == 200, response.text
    assert response.json["revision"] == 2
    _, config = editor(client, table, 1, "spring")
    assert config["map"] == "".join(SPRING)
    assert config["coins"] == 1


def test_a_sheet_for_a_seat_that_is_not_yours_is_refused(client: FlaskClient, table: TableAt) -> None:
    claim(client, table, 1)
    response = save(client, table, 2, "spring", SPRING)
    assert response.status_code == 403
    assert response.json["error"].startswith("Only Ben or the host can change Ben's sheet")
    _, config = editor(client, table, 2, "spring")
    assert config["revision"] == 1 and "F" not in config["map"]


def test_nobody_may_save_without_a_seat_and_a_taken_seat_cannot_be_claimed(
    app: Flask, client: FlaskClient, table: TableAt
) -> None:
    assert save(client, table, 1, "spring", SPRING).status_code == 403
    claim(client, table, 1)
    other = app.test_client()
    page = other.get(f"/t/{table.code}/sheets")
    taken = other.post(f"/t/{table.code}/seats/1/claim", data={"csrf_token": csrf_token(page.text)})
    assert taken.status_code == 403
    assert "held on another phone; ask the host to free it" in taken.text


def test_a_phone_that_takes_another_seat_frees_the_one_it_held(
    app: Flask, client: FlaskClient, table: TableAt
) -> None:
    """A wrong "This is me" put right: the phone takes its player's seat, and
    the seat it held is free for its own player's phone, no host needed."""
    claim(client, table, 2)  # Ann's phone, on Ben's seat by mistake
    claim(client, table, 1)
    assert save(client, table, 2, "spring", SPRING).status_code == 403  # seat 2 is no longer this phone's
    assert save(client, table, 1, "spring", SPRING).status_code == 200
    other = app.test_client()
    claim(other, table, 2)  # Ben, on his own phone
    assert save(other, table, 2, "spring", SPRING).status_code == 200


def test_the_host_may_change_every_sheet(client: FlaskClient, table: TableAt) -> None:
    as_host(client, table)
    assert save(client, table, 1, "spring", SPRING).status_code == 200
    assert save(client, table, 2, "spring", SPRING).status_code == 200


def test_opening_the_host_page_makes_this_phone_the_hosts_on_every_sheet(
    client: FlaskClient, table: TableAt
) -> None:
    """The host link, opened on a phone, is the host's on the sheets too,
    however the host reaches them next (here a sheet's own address)."""
    assert save(client, table, 2, "spring", SPRING).status_code == 403
    assert client.get(f"/t/{table.code}/host/{table.host}").status_code == 200
    assert save(client, table, 1, "spring", SPRING).status_code == 200
    assert save(client, table, 2, "spring", SPRING).status_code == 200
    page, _ = editor(client, table, 2, "spring")
    assert "but not change it" not in page


def test_a_wrong_host_token_is_refused(client: FlaskClient, table: TableAt) -> None:
    response = client.get(f"/t/{table.code}/sheets?host=not-the-token")
    assert response.status_code == 403


def test_a_map_with_a_printed_mountain_removed_is_refused_and_nothing_is_lost(
    client: FlaskClient, table: TableAt
) -> None:
    claim(client, table, 1)
    assert save(client, table, 1, "spring", SPRING, coins=1).status_code == 200
    broken = list(SPRING)
    broken[1] = "...F......."  # the printed mountain at row 2, column 4 painted over
    response = save(client, table, 1, "spring", broken)
    assert response.status_code == 400
    assert response.json["error"] == (
        "Row 2, column 4: side A prints a mountain here, but the map has forest ('F')."
    )
    _, config = editor(client, table, 1, "spring")
    assert config["map"] == "".join(SPRING) and config["revision"] == 2


def test_a_coin_count_above_the_track_is_refused(client: FlaskClient, table: TableAt) -> None:
    claim(client, table, 1)
    response = save(client, table, 1, "spring", SPRING, coins=15)
    assert response.status_code == 400
    assert response.json["error"] == "The coin track of side A has 14 coin symbols; 15 cannot be filled."


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"map": "\n".join(SPRING), "coins": 0}, 400),  # no revision
        ({"revision": 1, "coins": 0}, 400),  # no map
        ({"revision": 1, "map": "\n".join(SPRING), "coins": "3"}, 400),
        ({"revision": 1, "map": "\n".join(SPRING[:10]), "coins": 0}, 400),
        ({"revision": 1, "map": "\n".join(SPRING), "coins": 0, "monsters": [{"ambush": "Nope"}]}, 400),
    ],
)
def test_malformed_saves_get_a_sentence(client: FlaskClient, table: TableAt, body: dict, status: int) -> None:
    claim(client, table, 1)
    html, _ = editor(client, table, 1, "spring")
    response = client.post(
        f"/t/{table.code}/sheets/1/spring",
        json=body,
        headers={"X-CSRFToken": csrf_token(html), "Accept": "application/json"},
    )
    assert response.status_code == status
    assert response.json["error"].endswith(".")


def test_a_save_without_the_csrf_token_is_refused(client: FlaskClient, table: TableAt) -> None:
    claim(client, table, 1)
    response = client.post(
        f"/t/{table.code}/sheets/1/spring",
        json={"revision": 1, "map": "\n".join(SPRING), "coins": 0},
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 400


def test_a_stale_save_is_refused_never_merged(app: Flask, client: FlaskClient, table: TableAt) -> None:
    as_host(client, table)
    phone = app.test_client()
    claim(phone, table, 1)
    html_phone, seen_phone = editor(phone, table, 1, "spring")
    html_host, seen_host = editor(client, table, 1, "spring")
    assert seen_phone["revision"] == seen_host["revision"] == 1

    first = client.post(
        f"/t/{table.code}/sheets/1/spring",
        json={"revision": 1, "map": "\n".join(SPRING), "coins": 1},
        headers={"X-CSRFToken": csrf_token(html_host), "Accept": "application/json"},
    )
    assert first.status_code == 200
    other = list(SPRING)
    other[3] = "VVV........"
    second = phone.post(
        f"/t/{table.code}/sheets/1/spring",
        json={"revision": 1, "map": "\n".join(other), "coins": 0},
        headers={"X-CSRFToken": csrf_token(html_phone), "Accept": "application/json"},
    )
    assert second.status_code == 409
    assert "saved from another page or phone" in second.json["error"]
    _, now = editor(phone, table, 1, "spring")
    assert now["map"] == "".join(SPRING) and now["coins"] == 1 and now["revision"] == 2


def test_scoring_before_the_season_has_ended_is_refused(client: FlaskClient, table: TableAt) -> None:
    claim(client, table, 1)
    save(client, table, 1, "spring", SPRING, coins=1)
    table.set_taps(table.season_end(0) - 1)
    response = score(client, table, 1, "spring")
    assert response.status_code == 409
    assert response.json["error"].startswith("Spring has not ended yet")


def test_a_season_that_has_not_begun_cannot_be_opened(client: FlaskClient, table: TableAt) -> None:
    claim(client, table, 1)
    response = client.get(f"/t/{table.code}/sheets/1/summer", headers={"Accept": "application/json"})
    assert response.status_code == 409
    assert "Summer has not begun yet" in response.json["error"]


def test_spring_scored_as_counted_by_hand(client: FlaskClient, table: TableAt) -> None:
    """Spring scores edict A (Sentinel Wood) and B (Canal Lake). By hand:
    Sentinel Wood: the four forests on row 1 touch the edge: 4.
    Canal Lake: the water beside the farm 1, the farm beside the water 1: 2.
    Coins: 1. Monsters: row 6, column 1 has three empty neighbours: -3.
    Total 4 + 2 + 1 - 3 = 4."""
    claim(client, table, 1)
    save(client, table, 1, "spring", SPRING, coins=1)
    table.set_taps(table.season_end(0))
    response = score(client, table, 1, "spring")
    assert response.status_code == 303
    page = client.get(response.headers["Location"])
    assert page.status_code == 200
    text = page.text
    assert 'data-edict="A">4<' in text
    assert 'data-edict="B">2<' in text
    assert 'id="coins">1<' in text
    assert 'id="monsters">-3<' in text
    assert 'id="season-total">4 ★' in text
    assert 'data-season-total="0">4<' in text
    # The penalised spaces: rows 5 and 7 of column 1, row 6 of column 2.
    assert marked(text, "hl-monsters") == {4 * 11, 6 * 11, 5 * 11 + 1}
    # Sentinel Wood's stars: the four forests.
    assert marked(text, "hl-edict-1") == {0, 1, 2, 3}
    assert marked(text, "hl-edict-2") == {10 * 11, 10 * 11 + 1}


def marked(html: str, css: str) -> set[int]:
    """The spaces of the score page's map that carry a highlight class."""
    return {int(i) for classes, i in CELL.findall(html) if css in classes.split()}


def test_the_next_season_starts_from_the_scored_map(client: FlaskClient, table: TableAt) -> None:
    claim(client, table, 1)
    save(client, table, 1, "spring", SPRING, coins=1)
    table.set_taps(table.season_start(1))
    early = client.get(f"/t/{table.code}/sheets/1/summer", headers={"Accept": "application/json"})
    assert early.status_code == 409
    assert "Score Ann's Spring first" in early.json["error"]
    score(client, table, 1, "spring")
    _, summer = editor(client, table, 1, "summer")
    assert summer["map"] == "".join(SPRING) and summer["coins"] == 1 and summer["revision"] == 1


def test_spring_cannot_be_rescored_once_summer_began(client: FlaskClient, table: TableAt) -> None:
    claim(client, table, 1)
    save(client, table, 1, "spring", SPRING, coins=1)
    table.set_taps(table.season_start(1))
    score(client, table, 1, "spring")
    editor(client, table, 1, "summer")
    html, _ = editor(client, table, 1, "spring")
    response = client.post(
        f"/t/{table.code}/sheets/1/spring/score",
        data={"csrf_token": csrf_token(html)},
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 409


def test_an_earlier_seasons_page_says_the_table_has_moved_on(client: FlaskClient, table: TableAt) -> None:
    """A scored spring's page opened once summer has begun (from a score page
    loaded before, say) says so above the map and links to summer's, and a
    photo sent from it asks first: the sheet photographed now is summer's,
    and it would be read and saved as spring's map. A spring not scored yet
    is the one to finish before summer's map opens, and says nothing."""
    claim(client, table, 1)
    save(client, table, 1, "spring", SPRING, coins=1)
    table.set_taps(table.season_end(0))
    html, _ = editor(client, table, 1, "spring")
    assert 'id="later-season"' not in html and "data-text-earlier" not in html  # spring is still on
    table.set_taps(table.season_start(1))
    html, _ = editor(client, table, 1, "spring")
    assert 'id="later-season"' not in html and "data-text-earlier" not in html  # spring to score first
    score(client, table, 1, "spring")
    html, _ = editor(client, table, 1, "spring")
    banner = re.search(r'<div id="later-season" class="banner info">(.*?)</div>', html, re.S)
    assert banner
    assert "Summer has begun at the table. This page is Ann's spring map" in banner.group(1)
    assert f'href="/t/{table.code}/sheets/1/summer">Open the summer map</a>' in banner.group(1)
    assert 'data-text-earlier="Summer has begun: this photo will be read as the spring map. Go on?"' in html
    html, _ = editor(client, table, 1, "summer")
    assert 'id="later-season"' not in html and "data-text-earlier" not in html


def test_the_coin_warning_names_the_surrounded_mountain(client: FlaskClient, table: TableAt) -> None:
    claim(client, table, 1)
    rows = list(SPRING)
    rows[0] = "FFFF.......".replace("FFFF", "FFFV")
    rows[1] = "..F^F......"
    rows[2] = "...F....^.."
    response = save(client, table, 1, "spring", rows, coins=0)
    assert response.status_code == 200
    assert response.json["warning"] == (
        "The map surrounds 1 mountain (row 2, column 4), each worth a coin, but the coin track shows only 0."
    )


def test_unknown_seat_and_season(client: FlaskClient, table: TableAt) -> None:
    assert client.get(f"/t/{table.code}/sheets/9/spring").status_code == 404
    assert client.get(f"/t/{table.code}/sheets/1/autumn").status_code == 404


def test_the_editors_words_in_czech(client: FlaskClient, app: Flask) -> None:
    """editor.js says what the page's settings give it: in Czech, each counted
    phrase in its plural categories, for Intl.PluralRules to pick."""
    t = make_table(app, ["Anna", "Petr"])
    client.set_cookie("lang", "cs")
    _, config = editor(client, t, 1, "spring")
    words = config["text"]
    assert words["saved"] == "Uloženo." and words["save"] == "Uložit"
    assert words["outlined"] == {
        "one": "{n} orámované pole",
        "few": "{n} orámovaná pole",
        "other": "{n} orámovaných polí",
    }
    assert words["coinWarning"]["few"].startswith("Mapa obklopuje {n} hory,")
    assert words["coinWarning"]["other"].endswith("ale na počítadle je jen %(coins)d.")


def test_an_earlier_season_says_why_it_no_longer_changes(client: FlaskClient, table: TableAt) -> None:
    """Once summer has begun from spring's scored map, spring's editor offers
    no "Score again" (it would be refused) and says why; once summer is
    scored, spring's map opens read-only, with the reason, instead of
    offering brushes, a photo and Save that a save would refuse."""
    claim(client, table, 1)
    save(client, table, 1, "spring", SPRING, coins=1)
    table.set_taps(table.season_start(1))
    score(client, table, 1, "spring")
    html, _ = editor(client, table, 1, "spring")
    assert 'id="score-form"' in html and "can no longer change" not in html  # summer not opened yet
    editor(client, table, 1, "summer")
    html, _ = editor(client, table, 1, "spring")
    assert 'id="score-form"' not in html
    assert "Ann's next season has begun from this map; Spring's score can no longer change." in html
    assert "A change saved here stays on this map: the next season's map does not follow it." in html
    assert 'id="save"' in html  # the map itself may still change until summer is scored
    table.set_taps(table.season_end(1))
    assert save(client, table, 1, "summer", SPRING, coins=1).status_code == 200
    score(client, table, 1, "summer")
    html, _ = editor(client, table, 1, "spring")
    assert "A later season has been scored; this season's map can no longer change." in html
    for gone in ('id="save"', 'id="photo-form"', 'id="score-form"', 'class="brush'):
        assert gone not in html, gone
    assert 'class="board readonly"' in html
    assert "You can look at" not in html  # the seat's own phone: the reason is the season, not the seat


def test_scoring_winter_again_says_the_final_standings_change(client: FlaskClient, table: TableAt) -> None:
    """Winter scored, the game is over; its editor still offers Score again
    (a slip in the last count is mended there), and says what it changes."""
    claim(client, table, 1)
    for s, season in enumerate(("spring", "summer", "fall", "winter")):
        table.set_taps(table.season_end(s))
        assert save(client, table, 1, season, SPRING, coins=1).status_code == 200
        html, _ = editor(client, table, 1, season)
        assert 'id="final-rescore"' not in html
        score(client, table, 1, season)
    html, _ = editor(client, table, 1, "winter")
    assert "Score again" in html
    assert "The game is over: scoring winter again changes Ann's total and the final standings." in html
