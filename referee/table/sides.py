"""Which map side a table plays, and changing it before anyone has saved a sheet.

A table is set up on one side of the map sheet, and a host can pick the
wrong one: the box's pad prints two sides back to back, and the players
draw on whichever lies on top. The photo reader notices ("this looks like
map side B"), and until the first sheet is saved nothing at the table
depends on the side but the blank sheets opened so far, so the host may
switch it then. Those blanks are dropped and open again on the new side.
Once a sheet is saved or scored, the side stays: a saved map was checked
against its side's printed spaces, and changing the side under it would
change what was saved.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from referee.rules import data, deck
from referee.rules.i18n import _
from referee.store.models import GameTable
from referee.store.sheets import a_saved_sheet, drop_unsaved
from referee.table.deal import map_side_of, setup_of
from referee.table.errors import BAD_INPUT, CONFLICT, Refused


def sides_for(edition: str) -> list[data.MapSide]:
    """The map sides an edition's pad prints ("Combining Games": any of the four)."""
    return [side for side in data.map_sides().values() if edition in ("combined", side.game)]


def saved_by(session: Session, table: GameTable) -> str | None:
    """The name of a player who has saved a sheet at this table, if anyone has."""
    seat_id = a_saved_sheet(session, [seat.id for seat in table.seats])
    return next((seat.name for seat in table.seats if seat.id == seat_id), None)


def other_sides(session: Session, table: GameTable) -> list[data.MapSide]:
    """The sides the host may switch this table to now: its edition's
    others while nobody has saved a sheet, else none."""
    if saved_by(session, table) is not None:
        return []
    current = map_side_of(table).letter
    return [side for side in sides_for(setup_of(table).edition) if side.letter != current]


def check_side(edition: str, letter: str) -> None:
    """Refuse (400) a side no map sheet has, or one that ``edition``'s pad
    does not print; the setup form and a switch say the same."""
    sides = data.map_sides()
    if letter not in sides:
        raise Refused(
            BAD_INPUT, _("There is no map side %(side)s; the sheets have sides A to D.", side=letter[:8])
        )
    allowed = sides_for(edition)  # none for an unknown edition, which its own check refuses
    if allowed and sides[letter] not in allowed:
        first, second = (side.letter for side in allowed)  # one game's pad: two sides
        raise Refused(
            BAD_INPUT,
            _(
                "%(edition)s comes with map sides %(first)s and %(second)s; "
                "combine the two games to use any side.",
                edition=deck.EDITION_LABELS[edition],
                first=first,
                second=second,
            ),
        )


def change_side(session: Session, table: GameTable, letter: str) -> None:
    """Make the table play map side ``letter``, dropping the blank sheets
    opened on the old side; refused once any sheet has been saved."""
    check_side(setup_of(table).edition, letter)
    if letter == map_side_of(table).letter:
        return
    seat_ids = [seat.id for seat in table.seats]
    _refuse_if_saved(session, table, letter)
    drop_unsaved(session, seat_ids)
    _refuse_if_saved(session, table, letter)  # a save that landed meanwhile
    table.setup = {**table.setup, "map_side": letter}
    session.commit()


def _refuse_if_saved(session: Session, table: GameTable, letter: str) -> None:
    name = saved_by(session, table)
    if name is None:
        return
    side = map_side_of(table).letter
    session.rollback()
    raise Refused(
        CONFLICT,
        _(
            "%(name)s has already saved a sheet on side %(side)s, so this table's side can no longer "
            "change; to play side %(other)s, set up a new table.",
            name=name,
            side=side,
            other=letter,
        ),
    )
