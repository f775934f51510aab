"""A seat's stored sheets and scores: finding them, writing a sheet, and
turning them back into rules objects.

A sheet row keeps the map as text and the monster tags and heroes as JSON;
the rules engine wants a ``MapSheet``, ``MonsterTag``s and attack patterns.
Writing a sheet names the revision the player's page showed, so a save made
from a stale page is refused (409) rather than overwriting another phone's;
the same save sent again after its reply was lost is confirmed instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.rules import heroes, season
from referee.rules.geometry import Cell
from referee.rules.i18n import _
from referee.rules.sheet import MapSheet
from referee.store.models import Seat
from referee.store.sheets import SeasonScoreRecord, SeasonSheet, save_sheet
from referee.table.deal import hero_cards
from referee.table.errors import CONFLICT, Refused
from referee.table.state import Table


def find_sheet(session: Session, seat: Seat, s: int) -> SeasonSheet | None:
    """The seat's sheet for season ``s``, if it has been opened."""
    return session.scalar(select(SeasonSheet).where(SeasonSheet.seat_id == seat.id, SeasonSheet.season == s))


def ever_saved(sheet: SeasonSheet) -> bool:
    """Whether a player has saved the sheet since it was opened: it opens at
    revision 1, as the blank print or the season before's map, which is not
    yet this season's record."""
    return sheet.revision > 1


def find_score(session: Session, seat: Seat, s: int) -> SeasonScoreRecord | None:
    """The seat's score for season ``s``, if it has been scored."""
    return session.scalar(
        select(SeasonScoreRecord).where(SeasonScoreRecord.seat_id == seat.id, SeasonScoreRecord.season == s)
    )


def scores_by_seat(session: Session, table: Table) -> dict[int, dict[int, SeasonScoreRecord]]:
    """Every score at the table: seat id, then season index, to its record."""
    rows = session.scalars(
        select(SeasonScoreRecord).where(SeasonScoreRecord.seat_id.in_([s.id for s in table.seats]))
    )
    out: dict[int, dict[int, SeasonScoreRecord]] = {seat.id: {} for seat in table.seats}
    for row in rows:
        out[row.seat_id][row.season] = row
    return out


def known_mountains(session: Session, table: Table, seat: Seat, s: int) -> list[Cell]:
    """The mountains already surrounded when season ``s`` began (on the map the
    season before was scored from); the coin warning was said about them then."""
    record = find_score(session, seat, s - 1) if s > 0 else None
    if record is None:
        return []
    return season.surrounded_mountains(MapSheet.parse(record.map_text, table.side))


def coins_before(session: Session, seat: Seat, s: int) -> int:
    """The coins filled when season ``s`` began (the season before, as scored):
    the rules only ever fill coins, so the track never shows fewer later."""
    record = find_score(session, seat, s - 1) if s > 0 else None
    return 0 if record is None else record.coins


def heroes_before(session: Session, seat: Seat, s: int) -> list[dict[str, Any]]:
    """The heroes on the seat's map when season ``s`` began, as the season
    before's sheet holds them: a hero drawn stays on the map for the rest of
    the game (a filled space never changes, and a hero's attack destroys
    monster spaces, not heroes)."""
    previous = find_sheet(session, seat, s - 1) if s > 0 else None
    return list(previous.heroes or []) if previous is not None else []


def map_of(table: Table, sheet: SeasonSheet) -> MapSheet:
    """The sheet's map on the table's map side."""
    return MapSheet.parse(sheet.map_text, table.side)


def tags_of(sheet: SeasonSheet) -> list[heroes.MonsterTag]:
    """Which monster spaces belong to which ambush card, as the rules take them."""
    return [
        heroes.MonsterTag(m["ambush"], frozenset((r, c) for r, c in m["spaces"]))
        for m in sheet.monsters or []
    ]


def patterns_of(stored_heroes: Iterable[dict[str, Any]]) -> list[set[Cell]]:
    """Every drawn hero's attack pattern: they stay active for the rest of the game."""
    out = []
    for h in stored_heroes:
        card = hero_cards()[h["hero"]]
        at = (h["at"][0], h["at"][1])
        out.append(heroes.attacked_spaces(at, card, heroes.Orientation(h["orientation"])))
    return out


def write_sheet(session: Session, sheet: SeasonSheet, seen: int, values: dict[str, Any]) -> None:
    """Store ``values`` on the sheet if it is still at revision ``seen``, and
    read it back; refused when another page or phone saved first. A save
    from revision ``seen`` whose content is exactly what is stored at the
    next revision is a retry whose reply was lost: it is confirmed as it is."""
    if seen == sheet.revision - 1 and all(getattr(sheet, key) == value for key, value in values.items()):
        return
    if seen != sheet.revision or not save_sheet(session, sheet.id, seen, values):
        raise stale()
    session.refresh(sheet)


def stale() -> Refused:
    """The refusal for a save from a page that no longer shows the stored sheet."""
    return Refused(
        CONFLICT,
        _(
            "This sheet was saved from another page or phone since you opened it, so your save was not "
            "applied. Your changes are still on this page: note them, reload to see the saved sheet, "
            "and enter them again."
        ),
    )
