"""Settling the game through the pages: four seasons, a tie settled by the
monsters, the same standings for everyone, the downloads, and solo mode."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_sheets.conftest import (
    EASY_EDICTS,
    TableAt,
    as_host,
    csrf_token,
    editor,
    make_table,
    save,
    score,
)

# Edicts: A Sentinel Wood, B Canal Lake, C Great City, D Borderlands.
# Ann: four forests on the top edge, a monster with three empty neighbours, 3 coins.
# Ben: the same forests, no monster, no coins.
ANN = [
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
    "...........",
]
BEN = ["FFFF......."] + ANN[1:5] + [".....^....."] + ANN[6:]


def play_until_ben_scores_winter(client: FlaskClient, t: TableAt) -> None:
    """``play_four_seasons`` but for Ben's winter score: the game is over, and the table waits for it."""
    as_host(client, t)
    save(client, t, 1, "spring", ANN, coins=3)
    save(client, t, 2, "spring", BEN, coins=0)
    for s, name in enumerate(("spring", "summer", "fall", "winter")):
        t.set_taps(t.season_end(s))
        for seat in (1, 2) if s < 3 else (1,):
            editor(client, t, seat, name)
            assert score(client, t, seat, name).status_code == 303


def play_four_seasons(client: FlaskClient, t: TableAt) -> None:
    """By hand, per season (A, B, coins, monsters):
    Ann: spring 4+0+3-3=4, summer 0+0+3-3=0, fall 0+0+3-3=0, winter 0+4+3-3=4: 8, 12 lost to monsters.
    Ben: spring 4, summer 0, fall 0, winter 4: 8, none lost. Tied on 8; Ben wins the tiebreak."""
    play_until_ben_scores_winter(client, t)
    editor(client, t, 2, "winter")
    assert score(client, t, 2, "winter").status_code == 303


def test_a_tie_settled_by_stars_lost_to_monsters(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    before = client.get(f"/t/{t.code}/standings")
    assert "The game is not over" in before.text or "Waiting for the winter score" in before.text
    play_four_seasons(client, t)
    page = app.test_client().get(f"/t/{t.code}/standings")  # any phone, no seat
    text = page.text
    assert text.index('data-player="Ben" data-place="1" data-total="8"') < text.index(
        'data-player="Ann" data-place="2" data-total="8"'
    )
    assert "8 stars, tied with Ann; the tiebreak counts stars lost to monsters: Ben lost 0, Ann 12." in text


def test_a_sheet_saved_again_after_scoring_is_scored_again(app: Flask, client: FlaskClient) -> None:
    """A play-test's player fixed her winter coins after scoring, and her
    score and the standings kept the old total. Ann saves winter again with
    5 coins, not 3: winter is 0 + 4 + 5 - 3 = 6, not 4, and she wins on 10
    against Ben's 8."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_four_seasons(client, t)
    saved = save(client, t, 1, "winter", ANN, coins=5)
    assert saved.status_code == 200
    assert saved.json["messages"] == ["Winter was scored again from this map: 6 ★ (it was 4)."]
    page = client.get(f"/t/{t.code}/sheets/1/winter/score").text
    assert re.search(r'id="season-total">6 ★', page)
    text = app.test_client().get(f"/t/{t.code}/standings").text
    assert text.index('data-player="Ann" data-place="1" data-total="10"') < text.index(
        'data-player="Ben" data-place="2" data-total="8"'
    )
    again = save(client, t, 1, "winter", ANN, coins=5)
    assert again.json["messages"] == ["Winter was scored again from this map: still 6 ★."]


def standings_list(page: str) -> str:
    """The list of the final standings on a page."""
    start = page.index('<ol class="standings"')
    return page[start : page.index("</ol>", start)]


def test_the_tv_shows_the_standings_once_everyone_has_scored_winter(app: Flask, client: FlaskClient) -> None:
    """After winter the TV names who is still to score; once every seat has
    scored its four seasons it shows the standings, as the phones' standings
    page lists them (the winner, the tiebreak in words, each total), instead
    of telling the room to add up the reputation stars. A score is not a
    reveal: the TV's panel, kept per table and taps, is not the one kept
    from before the scores."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(t.season_end(3))
    tv = app.test_client()
    for before in (tv.get(f"/t/{t.code}/tv").text, tv.get(f"/t/{t.code}/panel?mode=tv").text):
        assert "Waiting for the winter score of Ann, Ben." in before
        assert 'class="standings"' not in before
    play_four_seasons(client, t)
    phones = standings_list(client.get(f"/t/{t.code}/standings").text)
    for after in (tv.get(f"/t/{t.code}/tv").text, tv.get(f"/t/{t.code}/panel?mode=tv").text):
        assert standings_list(after) == phones
        listed = re.findall(r'data-player="(\w+)" data-place="(\d)" data-total="(\d+)"', after)
        assert listed == [("Ben", "1", "8"), ("Ann", "2", "8")]
        assert "tied with Ann; the tiebreak counts stars lost to monsters: Ben lost 0, Ann 12." in after
        assert "Add up the reputation stars" not in after and "Waiting for the winter score" not in after


def test_the_downloads(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    play_four_seasons(client, t)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/t/{t.code}/export.csv").text)))
    assert len(rows) == 8
    assert [r["total"] for r in rows if r["player"] == "Ann"] == ["4", "0", "0", "4"]
    assert rows[0]["card_1"] == "Sentinel Wood" and rows[0]["monsters"] == "-3"
    body = client.get(f"/t/{t.code}/export.json").get_json()
    assert body["standings"][0]["player"] == "Ben"
    assert [s["total"] for s in body["standings"]] == [8, 8]
    assert body["edicts"]["A"] == "Sentinel Wood"


def test_solo_ambush_helper_and_rating(app: Flask, client: FlaskClient) -> None:
    """Solo: the Goblin Attack goes where the solo rules say; the rating is the total
    minus the four cards' solo numbers (25 + 24 + 16 + 24 = 89)."""
    t = make_table(app, ["Sol"], chosen=EASY_EDICTS)
    as_host(client, t)
    html, config = editor(client, t, 1, "spring")
    helper = client.post(
        config["soloUrl"],
        json={"map": "\n".join(ANN), "ambush": "Goblin Attack"},
        headers={"X-CSRFToken": csrf_token(html), "Accept": "application/json"},
    )
    assert helper.status_code == 200
    # Its card starts bottom-right; the diagonal of three fits in the very corner.
    assert "along the edge of the map" in helper.json["sentence"]
    assert helper.json["spaces"] == [[8, 8], [9, 9], [10, 10]]
    unknown = client.post(
        config["soloUrl"],
        json={"map": "\n".join(ANN), "ambush": "Zombie Plague"},
        headers={"X-CSRFToken": csrf_token(html), "Accept": "application/json"},
    )
    assert unknown.status_code == 400
    save(client, t, 1, "spring", BEN, coins=0)
    for s, name in enumerate(("spring", "summer", "fall", "winter")):
        t.set_taps(t.season_end(s))
        editor(client, t, 1, name)
        score(client, t, 1, name)
    page = client.get(f"/t/{t.code}/standings").text
    assert (
        "Score 8 minus the cards&#39; solo numbers 89:" in page
        or "Score 8 minus the cards' solo numbers 89:" in page
    )
    assert "rating <b>-81</b>" in page


def test_log_this_game_in_bg_stats_only_after_winter(app: Flask, client: FlaskClient) -> None:
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    assert "Log this game in BG Stats" not in client.get(f"/t/{t.code}/standings").text
    play_four_seasons(client, t)
    page = app.test_client().get(f"/t/{t.code}/standings").text
    link = re.search(
        r'<a [^>]*id="bgstats" href="([^"]+)" target="_blank" rel="noopener">'
        r"Log this game in BG Stats</a>",
        page,
    )
    assert link
    url = urlsplit(html.unescape(link.group(1)))
    assert (url.netloc, url.path) == ("app.bgstatsapp.com", "/createPlay.html")
    data = json.loads(parse_qs(url.query)["data"][0])
    assert data["game"]["bggId"] == 263918
    assert [(p["name"], p["rank"], p["winner"], p["startPlayer"]) for p in data["players"]] == [
        ("Ann", 2, False, True),
        ("Ben", 1, True, False),
    ]


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "=cmd|' /C calc'!A0"]
)
def test_the_csv_quotes_a_name_a_spreadsheet_would_run(app: Flask, client: FlaskClient, name: str) -> None:
    """OWASP's advice on CSV injection: a text cell starting with = + - @, a
    tab or a carriage return gets a leading quote; numbers such as a monster
    penalty of -3 stay numbers, and the JSON download keeps the name exact."""
    t = make_table(app, [name, "Ben"], chosen=EASY_EDICTS)
    play_four_seasons(client, t)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/t/{t.code}/export.csv").text)))
    mine = [r for r in rows if r["seat"] == "1"]
    assert {r["player"] for r in mine} == {"'" + name}
    assert mine[0]["monsters"] == "-3" and mine[0]["card_1"] == "Sentinel Wood"
    assert {r["player"] for r in rows if r["seat"] == "2"} == {"Ben"}
    body = client.get(f"/t/{t.code}/export.json").get_json()
    assert body["seats"][0]["player"] == name
    assert {r["player"] for r in body["seasons"] if r["seat"] == 1} == {name}


def test_the_phones_at_the_games_end_lead_to_the_standings(app: Flask, client: FlaskClient) -> None:
    """After winter the host's page and a follower's lead to the standings
    (a play-test's host found no way there but through the sheets); the TV
    shows them itself, so it has no link."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(t.season_end(3))
    link = f'id="to-standings" href="/t/{t.code}/standings"'
    assert link in app.test_client().get(f"/t/{t.code}").text  # a follower
    assert link in app.test_client().get(f"/t/{t.code}/host/{t.host}").text  # the host
    assert "to-standings" not in app.test_client().get(f"/t/{t.code}/panel?mode=tv").text
    t.set_taps(t.season_end(2))
    assert "to-standings" not in app.test_client().get(f"/t/{t.code}").text  # fall's end: the game goes on


ADD_UP = "Add up the reputation stars"


def test_the_phones_at_the_games_end_show_who_is_still_to_score_then_the_standings(
    app: Flask, client: FlaskClient
) -> None:
    """A play-test's follower read "Add up the reputation stars" on her phone
    while the TV showed the standings. After winter a follower's panel and
    the host's say who is still to score it, with the link to the standings
    page; once every seat has scored, they show the standings the TV and the
    standings page show, still with the link. A score is not a reveal: the
    follower's panel, kept per table and taps, is not the one kept from
    before the scores."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    t.set_taps(t.season_end(3))
    phone = app.test_client()
    pages = {
        "follower": lambda: phone.get(f"/t/{t.code}").text,
        "follower's panel": lambda: phone.get(f"/t/{t.code}/panel").text,
        "host": lambda: phone.get(f"/t/{t.code}/host/{t.host}").text,
        "host's panel": lambda: phone.get(f"/t/{t.code}/panel?mode=host&token={t.host}").text,
    }
    link = f'id="to-standings" href="/t/{t.code}/standings"'
    for name, page in pages.items():
        before = page()
        assert "Waiting for the winter score of Ann, Ben." in before, name
        assert 'data-standings="waiting"' in before, name  # table.js asks for the panel again
        assert link in before and ADD_UP not in before and 'class="standings"' not in before, name
    play_four_seasons(client, t)
    listed = standings_list(client.get(f"/t/{t.code}/standings").text)
    assert standings_list(app.test_client().get(f"/t/{t.code}/panel?mode=tv").text) == listed
    for name, page in pages.items():
        after = page()
        assert standings_list(after) == listed, name
        assert 'data-standings="settled"' in after, name
        assert "tied with Ann; the tiebreak counts stars lost to monsters: Ben lost 0, Ann 12." in after
        assert link in after and ADD_UP not in after and "Waiting for the winter score" not in after, name


def test_the_hosts_deal_kept_for_offline_knows_no_scores_and_asks_again_once_online(
    app: Flask, client: FlaskClient
) -> None:
    """The host's deal (``offline.py``) is rendered before any score: its
    game-over panel says how the paper game ends, links to the standings,
    and marks itself as waiting, so that table.js asks for the real panel
    once the phone is back online (``test_offline_browser``)."""
    t = make_table(app, ["Ann", "Ben"], chosen=EASY_EDICTS)
    deal = app.test_client().get(f"/api/t/{t.code}/deal?token={t.host}").get_json()
    last = deal["panels"][-1]
    assert 'data-game-over="true"' in last and 'data-standings="waiting"' in last
    assert ADD_UP in last and f'id="to-standings" href="/t/{t.code}/standings"' in last
    assert all("data-standings" not in panel for panel in deal["panels"][:-1])
