"""A table set up on the web and the same choices given to ``referee deal``
deal the same game: the command line's ``--json`` is the bytes of the deal
the web stored, for every edition the web offers."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from referee.rules import deck
from referee.store import GameTable
from referee.web.database import get_session
from tests.web.conftest import create_table

AMBUSHES = ["Bugbear Assault", "Kobold Onslaught", "Zombie Plague", "Giant Troll Ravage"]
CHOSEN = ["Sentinel Wood", "Craylund", "Shieldgate", "Starlit Sigil"]

CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("base", {"edition": "base"}, ["--edition", "base"]),
    # The form's defaults for a combined game (its hero box starts ticked): four
    # ambush cards at random from the seed.
    ("combined-defaults", {"edition": "combined", "heroes": "y"}, ["--edition", "combined"]),
    (
        "combined-random-ambushes",
        {
            "edition": "combined",
            "map_side": "C",
            "explore_set": "heroes",
            "heroes": "y",
            "ambush_mode": "random",
        },
        ["--edition", "combined", "--explore-cards", "heroes", "--ambushes", "random"],
    ),
    (
        "heroes-first-game",
        {"edition": "heroes", "map_side": "D", "edicts": "first_game"},
        ["--edition", "heroes", "--edicts", "first-game"],
    ),
    (
        "combined",
        {
            "edition": "combined",
            "season_set": "heroes",
            "explore_set": "base",
            "heroes": "y",
            "ambush_mode": "chosen",
            "ambushes": AMBUSHES,
        },
        ["--edition", "combined", "--season-cards", "heroes", "--explore-cards", "base", "--heroes"]
        + [arg for name in AMBUSHES for arg in ("--ambush", name)],
    ),
    (
        "combined-no-heroes-chosen",
        {
            "edition": "combined",
            "map_side": "C",
            "season_set": "base",
            "explore_set": "heroes",
            "ambush_mode": "chosen",
            "ambushes": AMBUSHES,
            "edicts": "chosen",
            **{f"edict_{letter}": name for letter, name in zip("abcd", CHOSEN, strict=True)},
        },
        ["--edition", "combined", "--explore-cards", "heroes", "--no-heroes", "--chosen", *CHOSEN]
        + [arg for name in AMBUSHES for arg in ("--ambush", name)],
    ),
]


@pytest.mark.parametrize(("form", "args"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_command_line_deals_the_webs_game(
    app: Flask, client: FlaskClient, form: dict[str, Any], args: list[str]
) -> None:
    seed = "hall of a hundred \u2603"
    code, _token, _html = create_table(client, seed=seed, **form)
    with app.app_context():
        table = get_session().scalar(select(GameTable).where(GameTable.code == code))
        assert table is not None
        setup = deck.Setup.from_dict(table.setup["deal"])
    web = json.dumps(deck.deal(setup).to_json(), ensure_ascii=False) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "referee", "deal", "--seed", seed, *args, "--json"],
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == web.encode("utf-8")
