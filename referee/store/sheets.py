"""Players' map sheets and score records, one row per seat and season.

A ``SeasonSheet`` is what a player's paper sheet shows during one season: the
map, the filled coins, which monster spaces belong to which ambush and which
hero cards were drawn where. Each season starts as a copy of the previous one,
so a finished game keeps every season's map as it was scored. ``revision``
makes saving optimistic: a save names the revision it edited, and a single
conditional UPDATE refuses it if another device saved first.

A ``SeasonScoreRecord`` is one row of the paper score sheet (edicts A and B,
coins, monsters, total) plus what the page highlights; it stays after the
game ends.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from referee.store.models import Base, utcnow


class SeasonSheet(Base):
    """One player's map sheet as it stands in one season."""

    __tablename__ = "season_sheets"
    __table_args__ = (UniqueConstraint("seat_id", "season"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    season: Mapped[int] = mapped_column(Integer)
    """0 (spring) to 3 (winter)."""
    map_text: Mapped[str] = mapped_column(Text)
    """The canonical text form: 11 lines of 11 map codes."""
    coins: Mapped[int] = mapped_column(Integer, default=0)
    """Filled coin symbols on the coin track."""
    monsters: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    """Monster tags: ``[{"ambush": name, "spaces": [[row, col], ...]}]`` in the order drawn."""
    heroes: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    """Heroes drawn: ``[{"hero": card name, "at": [row, col], "orientation": value}]``."""
    effects: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """What the ambushes' effects already did: ``{"gorgon_done": bool, "dragon_paid": bool,
    "after_scoring": bool}``."""
    revision: Mapped[int] = mapped_column(Integer, default=1)
    """Raised by one on every save; a save naming an older revision is refused."""
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class SeasonScoreRecord(Base):
    """One row of the score sheet: a season's two edicts, coins, monsters and total."""

    __tablename__ = "season_scores"
    __table_args__ = (UniqueConstraint("seat_id", "season"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    season: Mapped[int] = mapped_column(Integer)
    first_edict: Mapped[str] = mapped_column(String(1))
    first_card: Mapped[str] = mapped_column(String(80))
    first_stars: Mapped[int] = mapped_column(Integer)
    second_edict: Mapped[str] = mapped_column(String(1))
    second_card: Mapped[str] = mapped_column(String(80))
    second_stars: Mapped[int] = mapped_column(Integer)
    coins: Mapped[int] = mapped_column(Integer)
    monsters: Mapped[int] = mapped_column(Integer)
    """The monster penalty, zero or less."""
    total: Mapped[int] = mapped_column(Integer)
    map_text: Mapped[str] = mapped_column(Text)
    """The map as it was scored."""
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """What the page highlights: each edict's cells, lines and sentence, the penalised spaces."""
    solo: Mapped[bool] = mapped_column(Boolean, default=False)
    scored_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


def save_sheet(session: Session, sheet_id: int, seen_revision: int, values: dict[str, Any]) -> bool:
    """Write ``values`` to a sheet if it is still at ``seen_revision``, raising
    the revision by one. One conditional UPDATE, so of two devices saving the
    same revision exactly one wins. True when this save won."""
    statement = (
        update(SeasonSheet)
        .where(SeasonSheet.id == sheet_id, SeasonSheet.revision == seen_revision)
        .values(**values, revision=SeasonSheet.revision + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    result = session.connection().execute(statement)
    session.commit()
    return bool(result.rowcount == 1)


def a_saved_sheet(session: Session, seat_ids: list[int]) -> int | None:
    """The seat id of one of ``seat_ids`` that has saved a sheet or been
    scored, if any: a sheet opened and never saved is still at revision 1,
    as the map side's blank print."""
    saved = select(SeasonSheet.seat_id).where(SeasonSheet.seat_id.in_(seat_ids), SeasonSheet.revision > 1)
    scored = select(SeasonScoreRecord.seat_id).where(SeasonScoreRecord.seat_id.in_(seat_ids))
    return session.scalar(saved.union_all(scored).limit(1))


def scored_in(session: Session, seat_ids: list[int], season: int) -> int:
    """How many of ``seat_ids`` have a score for season ``season``."""
    return (
        session.scalar(
            select(func.count())
            .select_from(SeasonScoreRecord)
            .where(SeasonScoreRecord.seat_id.in_(seat_ids), SeasonScoreRecord.season == season)
        )
        or 0
    )


def drop_unsaved(session: Session, seat_ids: list[int]) -> None:
    """Delete the sheets of ``seat_ids`` that were opened and never saved, in
    the session's transaction (the caller commits). A page still showing one
    is told on saving that its sheet must be reloaded."""
    session.execute(delete(SeasonSheet).where(SeasonSheet.seat_id.in_(seat_ids), SeasonSheet.revision == 1))


def reprint_blank(session: Session, sheet_id: int, map_text: str) -> None:
    """Give a sheet that was never saved (still at revision 1) another blank
    map, and leave a saved one as it is."""
    session.execute(
        update(SeasonSheet)
        .where(SeasonSheet.id == sheet_id, SeasonSheet.revision == 1)
        .values(map_text=map_text)
        .execution_options(synchronize_session=False)
    )
    session.commit()
