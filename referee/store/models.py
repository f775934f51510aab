"""The tables a game is played at, and the seats around them.

A ``GameTable`` stores only what cannot be recomputed: the setup (with the
dealing algorithm's version) and ``taps``, how many reveals the host has made.
Every page recomputes the deal from the setup, so a table survives a restart
and two servers can serve it. Secrets (the host token, seat tokens) are kept
only as SHA-256 digests and compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: Join codes use letters and digits that cannot be misread aloud or on a screen.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_NAME_LENGTH = 40


class Base(DeclarativeBase):
    """The declarative base every model of the project inherits from. It lives
    with the models, so that ``db`` (which creates the schema) imports the
    models and nothing imports back."""


def utcnow() -> datetime:
    """Now in UTC, without tzinfo (SQLite drops it anyway; we keep it uniform)."""
    return datetime.now(UTC).replace(tzinfo=None)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _matches(token: str | None, stored: str | None) -> bool:
    if not token or not stored:
        return False
    return hmac.compare_digest(digest(token), stored)


class GameTable(Base):
    """One game being dealt: its join code, its setup and how far it has got."""

    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    """The short join code players type or scan."""
    host_token_hash: Mapped[str] = mapped_column(String(64))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The dealer's Setup as JSON, plus ``map_side``."""
    deal_version: Mapped[int] = mapped_column(Integer)
    """The dealing algorithm the table was created with."""
    taps: Mapped[int] = mapped_column(Integer, default=0)
    """Reveals made so far: one tap reveals one turn (ruins and what follows)."""
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.order", cascade="all, delete-orphan"
    )

    def is_host(self, token: str | None) -> bool:
        return _matches(token, self.host_token_hash)

    @property
    def player_names(self) -> list[str]:
        return [seat.name for seat in self.seats]


class Seat(Base):
    """A player's place at a table; seat order is clockwise around the table."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "order"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"), index=True)
    order: Mapped[int] = mapped_column(Integer)
    """0 for the first seat; the next seat is the clockwise neighbour."""
    name: Mapped[str] = mapped_column(String(MAX_NAME_LENGTH))
    token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    """Digest of the seat's secret: whoever holds it may change this player's sheet."""

    table: Mapped[GameTable] = relationship(back_populates="seats")

    def issue_token(self) -> str:
        """A new secret for this seat (the old one stops working); returned once."""
        token = new_token()
        self.token_hash = digest(token)
        return token

    def holds(self, token: str | None) -> bool:
        return _matches(token, self.token_hash)
