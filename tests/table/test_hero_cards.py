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

from referee.rules import data
from referee.rules.sheet import MapSheet
from referee.table import Refused, checks, scoring
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


BOTH_IN_SUMMER = "hero-36"
"""A Heroes deal whose summer reveals Dobrik of Lorkheim, then Dal of Jolev (spring none)."""
DAL = "Dal of Jolev"


def _hero(name: str, r: int, c: int) -> dict[str, Any]:
    return {"hero": name, "at": [r, c], "orientation": "printed"}


@pytest.mark.parametrize(
    ("season", "held", "offered", "taken", "chosen"),
    [
        (0, [], [], [], None),  # spring revealed no hero card
        (1, [], [DOBRIK, DAL], [], DAL),  # the hero revealed last is the one to draw
        (1, [DAL], [DOBRIK, DAL], [DAL], DOBRIK),  # Dal is on the map: Dobrik is still to draw
        (1, [DOBRIK], [DOBRIK, DAL], [DOBRIK], DAL),
        (1, [DOBRIK, DAL], [DOBRIK, DAL], [DOBRIK], DAL),  # both drawn: the brush turns the last
    ],
)
def test_the_hero_brush_offers_each_hero_card_once(
    session: Session,
    season: int,
    held: list[str],
    offered: list[str],
    taken: list[str],
    chosen: str | None,
) -> None:
    t = new_table(session, ["Ann", "Ben"], edition="heroes", side="C", seed=BOTH_IN_SUMMER, chosen=None)
    t = reveal_to(session, t, season_end(t, 1))
    assert t.heroes_named(1) == [DOBRIK, DAL]
    choices = checks.hero_choices(t, season, [_hero(name, 0, n) for n, name in enumerate(held)])
    assert (sorted(choices.offered), choices.taken, choices.chosen) == (sorted(offered), taken, chosen)


def test_a_save_accepts_what_the_hero_brush_offers_and_no_hero_card_twice(session: Session) -> None:
    """Summer's map holds Dobrik: the brush offers Dal to draw, and Dobrik
    only to turn or move. A save drawing Dal, or moving Dobrik, is accepted;
    one drawing Dobrik a second time is refused, and so is one drawing a
    hero card that has not come out."""
    t = new_table(session, ["Ann", "Ben"], edition="heroes", side="C", seed=BOTH_IN_SUMMER, chosen=None)
    seat = t.seat(1)
    t = reveal_to(session, t, season_end(t, 1))
    save(session, t, seat, 0, BLANK_C)
    scoring.score(session, t, seat, 0)
    held = [_hero(DOBRIK, 2, 2)]
    save(session, t, seat, 1, drawn(BLANK_C, r2c2="H"), heroes=held)
    choices = checks.hero_choices(t, 1, held)
    assert (choices.chosen, choices.taken) == (DAL, [DOBRIK])

    both = held + [_hero(DAL, 9, 9)]
    kept = save(session, t, seat, 1, drawn(BLANK_C, r2c2="H", r9c9="H"), heroes=both)
    assert {h["hero"]: h["at"] for h in kept.sheet.heroes} == {DOBRIK: [2, 2], DAL: [9, 9]}
    moved = [_hero(DOBRIK, 7, 7), _hero(DAL, 9, 9)]
    kept = save(session, t, seat, 1, drawn(BLANK_C, r7c7="H", r9c9="H"), heroes=moved)
    assert {h["hero"]: h["at"] for h in kept.sheet.heroes} == {DOBRIK: [7, 7], DAL: [9, 9]}

    twice = moved + [_hero(DOBRIK, 0, 0)]
    with pytest.raises(Refused) as refused:
        save(session, t, seat, 1, drawn(BLANK_C, r0c0="H", r7c7="H", r9c9="H"), heroes=twice)
    assert str(refused.value) == (
        "Dobrik of Lorkheim is on the map twice: each hero card is drawn once, when it is revealed."
    )
    unrevealed = next(h.name for h in data.hero_cards() if h.name not in (DOBRIK, DAL))
    assert unrevealed not in checks.hero_choices(t, 1, moved).offered
    with pytest.raises(Refused) as refused:
        save(
            session,
            t,
            seat,
            1,
            drawn(BLANK_C, r0c0="H", r7c7="H", r9c9="H"),
            heroes=[*moved, _hero(unrevealed, 0, 0)],
        )
    assert "has not come out yet" in str(refused.value)
