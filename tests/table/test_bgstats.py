"""The BG Stats play for a known game: BG Stats' documented import format
(``createPlay.html?data=`` and url-encoded JSON), built from the settled
standings through the table layer alone."""

from __future__ import annotations

import json
from datetime import datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy.orm import Session

from referee.rules import deck
from referee.table import Table, hosting, scoring, standings
from referee.table import sheets as table_sheets
from referee.table.bgstats import CARTOGRAPHERS, HEROES, bgg_game, bgstats_link, play_data, play_url
from tests.table.conftest import new_table, reveal_to, save, season_end
from tests.table.test_play import ANN, BEN

STARTED = datetime(2026, 11, 21, 19, 30, 0)
LAST_REVEAL = datetime(2026, 11, 21, 20, 17, 40)
AMBUSHES = ("Goblin Attack", "Dragon Inferno", "Zombie Plague", "Gorgon Gaze")


def play_game(session: Session, players: list[str], maps: list[list[str]], coins: list[int]) -> Table:
    """Every seat saves its map in spring and scores all four seasons; the
    table is then dated 19:30 to 20:17:40."""
    t = new_table(session, players)
    for number, (rows, c) in enumerate(zip(maps, coins, strict=True), start=1):
        save(session, t, t.seat(number), 0, rows, coins=c)
    for s in range(4):
        t = reveal_to(session, t, season_end(t, s))
        for number in range(1, len(players) + 1):
            table_sheets.open_sheet(session, t, t.seat(number), s)
            scoring.score(session, t, t.seat(number), s)
    t.table.created_at, t.table.updated_at = STARTED, LAST_REVEAL
    return t


def decoded(url: str) -> dict[str, object]:
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://app.bgstatsapp.com/createPlay.html"
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    body: dict[str, object] = json.loads(data)
    return body


def test_a_known_game_with_a_shared_victory(session: Session) -> None:
    """Ann 8 with 12 stars lost to monsters; Ben and Cat 8 with none lost:
    Ben and Cat share the victory, Ann is third. Ann sits in seat 1."""
    t = play_game(session, ["Ann", "Ben", "Cat"], [ANN, BEN, BEN], [3, 0, 0])
    settled = standings.settle(session, t)
    assert play_data(t, settled) == {
        "sourceName": "Referee",
        "sourcePlayId": f"{t.table.code}-20261121193000",
        "playDate": "2026-11-21 19:30:00",
        "durationMin": 48,
        "comments": "Map side A (Wilderness).\n"
        "Edicts: A Sentinel Wood, B Canal Lake, C Great City, D Borderlands.",
        "game": {
            "name": "Cartographers: A Roll Player Tale",
            "bggId": 263918,
            "sourceGameId": "cartographers",
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": "Ann",
                "sourcePlayerId": "Ann",
                "score": 8,
                "rank": 3,
                "winner": False,
                "startPlayer": True,
            },
            {
                "name": "Ben",
                "sourcePlayerId": "Ben",
                "score": 8,
                "rank": 1,
                "winner": True,
                "startPlayer": False,
            },
            {
                "name": "Cat",
                "sourcePlayerId": "Cat",
                "score": 8,
                "rank": 1,
                "winner": True,
                "startPlayer": False,
            },
        ],
    }


def test_a_solo_game_logs_its_reputation_and_title(session: Session) -> None:
    """Solo: 8 points minus the cards' solo numbers 89 is a reputation of -81."""
    t = play_game(session, ["Sol"], [BEN], [0])
    settled = standings.settle(session, t)
    assert settled.solo is not None
    data = play_data(t, settled)
    assert data is not None
    assert data["players"] == [
        {"name": "Sol", "sourcePlayerId": "Sol", "score": 8, "rank": 1, "winner": False, "startPlayer": True}
    ]
    assert data["comments"].endswith(f"\nSolo: reputation -81, {settled.solo.title}.")


def test_no_play_before_the_game_is_settled(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"])
    settled = standings.settle(session, t)
    assert play_data(t, settled) is None and bgstats_link(t, settled) is None


def test_the_link_round_trips(session: Session) -> None:
    t = play_game(session, ["Zoë & Ann", "Ben"], [ANN, BEN], [3, 0])
    settled = standings.settle(session, t)
    data = play_data(t, settled)
    url = bgstats_link(t, settled)
    assert url is not None and url == play_url(data or {})
    query = urlsplit(url).query
    assert query.startswith("data=") and not set(query[5:]) & set(' &=+#?\n"{}')
    assert decoded(url) == data


@pytest.mark.parametrize(
    ("edition", "side", "game"),
    [
        ("base", "A", CARTOGRAPHERS),
        ("base", "B", CARTOGRAPHERS),
        ("heroes", "C", HEROES),
        ("heroes", "D", HEROES),
        ("combined", "A", CARTOGRAPHERS),
        ("combined", "D", HEROES),
    ],
)
def test_the_game_is_the_one_whose_sheet_side_was_used(
    session: Session, edition: str, side: str, game: object
) -> None:
    cards = {"season_set": "base", "explore_set": "heroes", "heroes": True, "ambushes": AMBUSHES}
    setup = deck.Setup(edition=edition, seed="bgstats", **(cards if edition == "combined" else {})).check()
    t = Table.of(hosting.set_up(session, setup, side, ["Ann", "Ben"]).table)
    assert bgg_game(t) == game
