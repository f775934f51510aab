"""A hero needs its hero card before its season is scored.

"When a hero card is revealed, each player draws a 1x1 square anywhere on
their map, then fills it with the hero terrain type. Each player then marks
spaces in the depicted attack pattern, relative to the hero space." A hero is
one space, and its card alone says what it attacks: a draft may hold a hero
space with no card yet (a photo reads the space, not the card), but scoring
it would leave out the monsters the hero destroys."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.orm import Session

from referee.rules.sheet import MapSheet
from referee.table import Refused, scoring
from referee.table.errors import SheetPage
from referee.table.records import find_score, find_sheet
from tests.deals import spring_seed
from tests.table.conftest import new_table, reveal_to, save, season_end
from tests.table.test_sheet_flow import BLANK_C, drawn

DOBRIK = "Dobrik of Lorkheim"
"""Attacks the four spaces beside him: above, below, left and right."""


def _seed_with_dobrik_in_spring() -> str:
    return spring_seed(DOBRIK, "hero")


@pytest.mark.parametrize(
    ("spaces", "stored", "unnamed"),
    [
        ({}, [], []),
        ({"r5c5": "H"}, [], [(5, 5)]),
        ({"r5c5": "H"}, [{"hero": DOBRIK, "at": [5, 5]}], []),
        # two heroes, one with its card; a hero destroyed since keeps its card and is no hero space
        ({"r0c0": "H", "r5c5": "H", "r7c7": "X"}, [{"hero": DOBRIK, "at": [7, 7]}], [(0, 0), (5, 5)]),
        ({"r0c0": "H", "r5c5": "H"}, [{"hero": DOBRIK, "at": [0, 0]}], [(5, 5)]),
    ],
)
def test_the_hero_spaces_no_hero_card_accounts_for(
    spaces: dict[str, str], stored: list[dict[str, Any]], unnamed: list[tuple[int, int]]
) -> None:
    themap = MapSheet.parse("\n".join(drawn(BLANK_C, **spaces)), "C")
    assert scoring.heroes_without_a_card(themap, stored) == unnamed


def test_the_refusal_names_every_hero_without_a_card() -> None:
    assert str(scoring.hero_cards_missing([(0, 0), (5, 5)])) == (
        "The heroes at row 1, column 1; row 6, column 6 have no hero card, so they attack nothing: "
        "tap each with the Hero brush to say which hero card it is, save, then score."
    )


def test_a_hero_without_its_card_is_saved_but_not_scored(session: Session) -> None:
    """Dobrik at row 6, column 6 with a monster above him: saved without his
    card, the monster stays and the score is refused, the draft kept; with
    his card, the monster is destroyed and the season scores."""
    t = new_table(
        session, ["Ann", "Ben"], edition="heroes", side="C", seed=_seed_with_dobrik_in_spring(), chosen=None
    )
    seat = t.seat(1)
    t = reveal_to(session, t, season_end(t, 0))
    assert DOBRIK in t.heroes_named(0)
    rows = drawn(BLANK_C, r4c5="M", r5c5="H")
    draft = save(session, t, seat, 0, rows)  # half done: the hero drawn, his card not chosen yet
    assert draft.sheet.map_text.splitlines()[4][5] == "M"
    with pytest.raises(Refused) as refused:
        scoring.score(session, t, seat, 0)
    assert (refused.value.status, str(refused.value)) == (
        409,
        "The hero at row 6, column 6 has no hero card, so it attacks nothing: "
        "tap it with the Hero brush to say which hero card it is, save, then score.",
    )
    assert refused.value.remedy == SheetPage("sheet", 0)
    assert find_score(session, seat, 0) is None
    kept = find_sheet(session, seat, 0)
    assert kept is not None and kept.map_text == "\n".join(rows) and kept.revision == draft.sheet.revision

    save(session, t, seat, 0, rows, heroes=[{"hero": DOBRIK, "at": [5, 5], "orientation": "printed"}])
    record = scoring.score(session, t, seat, 0)
    assert record.map_text.splitlines()[4][5] == "X"  # the monster above him, destroyed
    assert record.monsters == 0  # no monster left to count empty spaces beside
