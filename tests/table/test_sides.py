"""Switching a table's map side, at the table layer: allowed until someone
saves a sheet, refused after, and never at the cost of a saved sheet."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.rules import data, deck
from referee.rules.sheet import MapSheet
from referee.table import Refused, SeasonSheet, Table, hosting, open_table, sides
from referee.table import sheets as table_sheets
from referee.table.deal import map_side_of
from tests.table.conftest import LIFETIME, new_table, reveal_to, save
from tests.table.test_bgstats import AMBUSHES
from tests.table.test_sheet_flow import BLANK_A


def _letters(found: list[data.MapSide]) -> list[str]:
    return [side.letter for side in found]


def _blank(letter: str) -> str:
    return MapSheet.blank(data.map_sides()[letter]).text()


def test_a_table_switches_side_before_any_sheet_is_saved(session: Session) -> None:
    t = reveal_to(session, new_table(session, ["Ann", "Ben"], side="A"), 1)
    ann, ben = t.seats
    opened = table_sheets.open_sheet(session, t, ann, 0)  # Ann's phone showed her blank side A
    assert opened.map_text == _blank("A")
    assert _letters(sides.other_sides(session, t.table)) == ["B"]

    sides.change_side(session, t.table, "B")

    t = open_table(session, t.table.code, LIFETIME)
    assert t.side.letter == "B" and t.table.taps == 1  # the deal and its reveals stay
    assert session.scalars(select(SeasonSheet)).all() == []  # the side A blank is gone
    assert table_sheets.open_sheet(session, t, ann, 0).map_text == _blank("B")
    assert table_sheets.open_sheet(session, t, ben, 0).map_text == _blank("B")
    assert _letters(sides.other_sides(session, t.table)) == ["A"]


def test_a_page_that_showed_the_old_side_cannot_save_over_it(session: Session) -> None:
    t = reveal_to(session, new_table(session, ["Ann", "Ben"], side="A"), 1)
    ann = t.seats[0]
    seen = table_sheets.open_sheet(session, t, ann, 0).revision
    sides.change_side(session, t.table, "B")
    t = open_table(session, t.table.code, LIFETIME)
    rows = list(BLANK_A)
    rows[0] = "FF........."
    with pytest.raises(Refused) as refused:
        table_sheets.save(session, t, ann, 0, {"revision": seen, "map": "\n".join(rows), "coins": 0})
    assert refused.value.status == 409 and "reload" in str(refused.value)
    assert session.scalars(select(SeasonSheet)).all() == []


def test_once_a_sheet_is_saved_the_side_stays(session: Session) -> None:
    t = reveal_to(session, new_table(session, ["Ann", "Ben"], side="A"), 1)
    ann, ben = t.seats
    rows = list(BLANK_A)
    rows[0] = "FF........."
    save(session, t, ben, 0, rows)
    table_sheets.open_sheet(session, t, ann, 0)
    assert sides.other_sides(session, t.table) == []

    with pytest.raises(Refused) as refused:
        sides.change_side(session, t.table, "B")

    assert refused.value.status == 409
    assert str(refused.value) == (
        "Ben has already saved a sheet on side A, so this table's side can no longer change; "
        "to play side B, set up a new table."
    )
    t = open_table(session, t.table.code, LIFETIME)
    assert t.side.letter == "A"
    stored = {sheet.seat_id: sheet for sheet in session.scalars(select(SeasonSheet))}
    assert stored[ben.id].map_text.split("\n")[0] == "FF........." and stored[ben.id].revision == 2
    assert stored[ann.id].map_text == _blank("A")  # Ann's blank is kept as well


@pytest.mark.parametrize(
    ("edition", "side", "others"),
    [("base", "B", ["A"]), ("heroes", "C", ["D"]), ("combined", "D", ["A", "B", "C"])],
)
def test_each_edition_switches_among_its_pads_sides(
    session: Session, edition: str, side: str, others: list[str]
) -> None:
    cards = {"season_set": "base", "explore_set": "heroes", "heroes": True, "ambushes": AMBUSHES}
    setup = deck.Setup(edition=edition, seed="sides", **(cards if edition == "combined" else {})).check()
    t = Table.of(hosting.set_up(session, setup, side, ["Ann"]).table)
    assert _letters(sides.other_sides(session, t.table)) == others
    for letter in others:
        sides.change_side(session, t.table, letter)
        assert map_side_of(t.table).letter == letter


@pytest.mark.parametrize(
    ("edition", "letter", "said"),
    [
        (
            "base",
            "C",
            "Cartographers comes with map sides A and B; combine the two games to use any side.",
        ),
        (
            "heroes",
            "A",
            "Cartographers Heroes comes with map sides C and D; combine the two games to use any side.",
        ),
        ("base", "E", "There is no map side E; the sheets have sides A to D."),
        ("base", "", "There is no map side ; the sheets have sides A to D."),
    ],
)
def test_a_side_the_game_has_not_is_refused(session: Session, edition: str, letter: str, said: str) -> None:
    t = new_table(
        session, ["Ann", "Ben"], edition=edition, side="A" if edition == "base" else "C", chosen=None
    )
    before = dict(t.table.setup)
    with pytest.raises(Refused) as refused:
        sides.change_side(session, t.table, letter)
    assert refused.value.status == 400 and str(refused.value) == said
    assert t.table.setup == before


def test_the_side_it_already_plays_changes_nothing(session: Session) -> None:
    t = reveal_to(session, new_table(session, ["Ann", "Ben"], side="A"), 1)
    sheet = table_sheets.open_sheet(session, t, t.seats[0], 0)
    sides.change_side(session, t.table, "A")
    assert session.scalars(select(SeasonSheet)).all() == [sheet] and map_side_of(t.table).letter == "A"


def test_a_blank_opened_on_the_old_side_as_the_side_changed_opens_on_the_new(session: Session) -> None:
    """A phone that opens its first sheet while the host switches sides can
    store the old side's blank after the blanks were dropped; it is never
    saved, so it is printed again on the table's side when next opened. A
    saved sheet is never printed over."""
    t = reveal_to(session, new_table(session, ["Ann", "Ben"], side="A"), 1)
    ann, ben = t.seats
    table_sheets.open_sheet(session, t, ann, 0)
    rows = list(BLANK_A)
    rows[0] = "VV........."
    save(session, t, ben, 0, rows)
    t.table.setup = {**t.table.setup, "map_side": "B"}  # as if switched the moment both were stored
    session.commit()
    t = open_table(session, t.table.code, LIFETIME)
    assert table_sheets.open_sheet(session, t, ann, 0).map_text == _blank("B")
    assert table_sheets.open_sheet(session, t, ben, 0).map_text.split("\n")[0] == "VV........."
