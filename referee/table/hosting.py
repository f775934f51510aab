"""What the host does to a table, and how a phone takes a seat at it.

Setting up deals the game once before storing it, so a setup that cannot be
dealt is refused at once rather than on the first page. Revealing and taking
back a card move the table by one conditional UPDATE (``referee.store.tables``):
of two taps on the same card exactly one wins, and the other is told the
table moved on (409). Followers poll for the number of reveals alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from referee.rules import deck
from referee.rules.cards import Printing
from referee.rules.i18n import _, ngettext
from referee.store import tables as stored
from referee.store.models import GameTable, Seat
from referee.store.sheets import scored_in
from referee.table.deal import SEASON_NAMES, SEASONS, dealt, setup_of
from referee.table.errors import CONFLICT, Refused
from referee.table.state import expired, idle_since, no_such_table


@dataclass(frozen=True)
class NewTable:
    """A table just set up, and its host token (the only time it exists in clear)."""

    table: GameTable
    host_token: str


def set_up(
    session: Session,
    setup: deck.Setup,
    map_side: str,
    players: list[str],
    printing: Printing = Printing.ENGLISH,
) -> NewTable:
    """A new table for ``players`` in seat order, dealt from ``setup`` on map
    side ``map_side``, scoring its cards as ``printing`` prints them."""
    dealt(setup)  # refuse now, not on the first page view, if it cannot be dealt
    kept: dict[str, object] = {"deal": setup.to_dict(), "map_side": map_side}
    if printing != Printing.ENGLISH:
        kept["printing"] = printing.value
    table, token = stored.create_table(session, kept, setup.version, players)
    return NewTable(table, token)


def reveal(session: Session, table: GameTable, seen: int) -> None:
    """Reveal the next turn's cards, if the host's page was showing ``seen`` reveals."""
    total = dealt(setup_of(table)).turn_count()
    if seen >= total and table.taps >= total:
        raise Refused(
            CONFLICT, _("The game is over: winter has ended and there are no more cards to reveal.")
        )
    if seen != table.taps or not stored.move(session, table.id, seen, 1, total):
        raise Refused(
            CONFLICT,
            _("That card was already revealed (a second tap or another tab); the page now shows it."),
        )
    _moved_to(session, table, seen + 1, total)


def undo(session: Session, table: GameTable, seen: int) -> None:
    """Take back the last turn's reveal, if the host's page was showing ``seen`` reveals."""
    if seen == 0 and table.taps == 0:
        raise Refused(CONFLICT, _("There is nothing to undo: no card has been revealed yet."))
    deal = dealt(setup_of(table))
    total = deal.turn_count()
    refuse_reopening_a_scored_season(session, table, deal, seen)
    if seen != table.taps or not stored.move(session, table.id, seen, -1, total):
        raise Refused(
            CONFLICT,
            _("The table changed in the meantime (another tab or tap); the page now shows where it stands."),
        )
    _moved_to(session, table, seen - 1, total)


def scored_season_ended_by(
    session: Session, table: GameTable, deal: deck.Deal, taps: int
) -> tuple[int, int] | None:
    """The season whose last card is the ``taps``-th reveal, and how many
    sheets have been scored for it, when any have: that card stays revealed."""
    ended = 0
    for s, season in enumerate(deal.seasons):
        ended += len(season.turns)
        if ended == taps:
            count = scored_in(session, [seat.id for seat in table.seats], s)
            return (s, count) if count else None
    return None


def undo_kept(session: Session, table: GameTable) -> bool:
    """Whether the host's Undo would be refused now (the page disables it)."""
    return scored_season_ended_by(session, table, dealt(setup_of(table)), table.taps) is not None


def refuse_reopening_a_scored_season(session: Session, table: GameTable, deal: deck.Deal, seen: int) -> None:
    """409 when the card to take back ended a season that a sheet has been
    scored for: the season was scored as over, with that card drawn, and
    taking it back would make the score one of a season not yet over."""
    kept = scored_season_ended_by(session, table, deal, seen)
    if kept is not None:
        s, count = kept
        raise Refused(
            CONFLICT,
            ngettext(
                "%(num)d sheet has been scored for %(season)s: the card that ended it stays revealed.",
                "%(num)d sheets have been scored for %(season)s: the card that ended it stays revealed.",
                count,
                season=SEASON_NAMES[SEASONS[s]].lower(),
            ),
        )


def _moved_to(session: Session, table: GameTable, taps: int, total: int) -> None:
    """The UPDATE bypassed the session: give the table row what the database
    now holds. Set rather than read afresh, so that answering the tap needs
    no query after its commit: on PostgreSQL the commit's NOTIFY sets this
    process's pages going, and a query would wait behind them."""
    set_committed_value(table, "taps", taps)
    set_committed_value(table, "finished", taps >= total)
    session.expire(table, ["updated_at"])


@dataclass(frozen=True)
class Poll:
    """What a follower's poll needs to know whether anything changed."""

    table_id: int
    taps: int


def poll(session: Session, code: str) -> Poll:
    """The table's id and reveal count, the cheapest read there is (no expiry check)."""
    row = stored.peek(session, code)
    if row is None:
        raise no_such_table(code)
    table_id, taps, _updated = row
    return Poll(table_id, taps)


def watch(session: Session, code: str, lifetime: timedelta) -> Poll:
    """What a page about to wait for reveals needs: the table's id and taps,
    in one light read, unless no table has the code (404) or it expired (410)."""
    row = stored.peek(session, code)
    if row is None:
        raise no_such_table(code)
    table_id, taps, updated = row
    if updated < idle_since(lifetime):
        raise expired(stored.normalise_code(code), lifetime)
    return Poll(table_id, taps)


def claim_seat(session: Session, seat: Seat, leaving: Seat | None = None) -> str:
    """A new secret for ``seat``, stored as a digest; the phone that claims it
    keeps it, and any phone that held the seat before loses it.

    A phone holds one seat at a table: the seat it held before (``leaving``;
    a wrong "This is me" tapped, say) is freed, for its player to claim on
    their own phone without asking the host."""
    if leaving is not None and leaving is not seat:
        leaving.token_hash = None
    token = seat.issue_token()
    session.commit()
    return token


def free_seat(session: Session, seat: Seat) -> None:
    """The host frees ``seat``: the phone that held it loses it, and the next
    phone to claim it takes it. A player whose phone lost the seat (a
    cleared browser, a new phone) gets it back this way, on their phone."""
    seat.token_hash = None
    session.commit()
