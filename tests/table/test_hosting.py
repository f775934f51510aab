"""Finding, revealing, taking back and polling a table, and claiming a seat,
through the table layer: the statuses and sentences the pages answer with."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.orm import Session

from referee.rules.sheet import MapSheet
from referee.table import NoSuchTable, Refused, TableExpired, find_table, hosting, open_table, scoring
from tests.table.conftest import LIFETIME, new_table, reveal_to, save, season_end


def test_a_table_is_found_by_its_code_as_typed(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"])
    typed = "-".join([t.table.code[:3].lower(), t.table.code[3:]])
    assert find_table(session, typed, LIFETIME) is t.table
    assert [s.name for s in open_table(session, typed, LIFETIME).seats] == ["Ann", "Ben"]


@pytest.mark.parametrize("code", ["ZZZZZZ", "zz zz", "?!", "A" * 40])
def test_no_table_has_the_code(session: Session, code: str) -> None:
    with pytest.raises(NoSuchTable) as refused:
        find_table(session, code, LIFETIME)
    assert refused.value.status == 404
    assert str(refused.value).startswith("No table has the code ")
    assert str(refused.value).endswith("; check it with the host.")


def test_an_idle_table_expires(session: Session) -> None:
    t = new_table(session, ["Ann"])
    with pytest.raises(TableExpired) as refused:
        find_table(session, t.table.code, timedelta(0))
    assert refused.value.status == 410
    assert str(refused.value) == (
        f"Table {t.table.code} expired after 0 days without a reveal; start a new one."
    )


def test_reveal_undo_and_poll(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"])
    assert hosting.poll(session, t.table.code) == hosting.Poll(t.table.id, 0)
    hosting.reveal(session, t.table, 0)
    hosting.reveal(session, t.table, 1)
    assert t.table.taps == 2  # read afresh after the UPDATE
    assert hosting.poll(session, t.table.code).taps == 2
    hosting.undo(session, t.table, 2)
    assert hosting.poll(session, t.table.code).taps == 1


@pytest.mark.parametrize(
    ("act", "seen", "sentence"),
    [
        ("reveal", 0, "That card was already revealed (a second tap or another tab); the page now shows it."),
        (
            "undo",
            0,
            "The table changed in the meantime (another tab or tap); the page now shows where it stands.",
        ),
        (
            "undo",
            2,
            "The table changed in the meantime (another tab or tap); the page now shows where it stands.",
        ),
    ],
)
def test_a_tap_from_a_stale_page_is_refused(session: Session, act: str, seen: int, sentence: str) -> None:
    t = new_table(session, ["Ann"])
    hosting.reveal(session, t.table, 0)
    with pytest.raises(Refused) as refused:
        getattr(hosting, act)(session, t.table, seen)
    assert (refused.value.status, str(refused.value)) == (409, sentence)
    assert t.table.taps == 1


def test_nothing_to_undo(session: Session) -> None:
    t = new_table(session, ["Ann"])
    with pytest.raises(Refused) as refused:
        hosting.undo(session, t.table, 0)
    assert refused.value.status == 409
    assert str(refused.value) == "There is nothing to undo: no card has been revealed yet."


def test_polling_an_unknown_code(session: Session) -> None:
    with pytest.raises(NoSuchTable) as refused:
        hosting.poll(session, "ZZZZZZ")
    assert refused.value.status == 404


def test_watching_a_table_reads_its_id_and_taps_or_refuses(session: Session) -> None:
    t = new_table(session, ["Ann"])
    hosting.reveal(session, t.table, 0)
    typed = t.table.code.lower()
    assert hosting.watch(session, typed, LIFETIME) == hosting.Poll(t.table.id, 1)
    with pytest.raises(NoSuchTable):
        hosting.watch(session, "ZZZZZZ", LIFETIME)
    with pytest.raises(TableExpired) as refused:
        hosting.watch(session, typed, timedelta(seconds=-1))
    assert refused.value.status == 410
    assert str(refused.value).startswith(f"Table {t.table.code} expired after ")


def test_claiming_a_seat_hands_out_a_new_secret(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"])
    seat = t.seat(2)
    first = hosting.claim_seat(session, seat)
    assert seat.holds(first)
    second = hosting.claim_seat(session, seat)
    assert seat.holds(second) and not seat.holds(first)


@pytest.mark.parametrize(("number", "season"), [(0, "spring"), (3, "spring"), (1, "autumn"), (1, "Spring")])
def test_no_such_seat_or_season(session: Session, number: int, season: str) -> None:
    t = new_table(session, ["Ann", "Ben"])
    with pytest.raises(Refused) as refused:
        t.seat(number)
        t.season_index(season)
    assert refused.value.status == 404
    assert str(refused.value) in (
        f"Table {t.table.code} has no seat {number}.",
        "A season is spring, summer, fall or winter.",
    )


def test_the_card_that_ended_a_scored_season_is_not_taken_back(session: Session) -> None:
    """Spring scored for one sheet: spring's last card stays revealed (the
    score is of a season over, with that card drawn). Before the score, and
    for any later card, undo works as ever."""
    t = new_table(session, ["Ann", "Ben"])
    end = season_end(t, 0)
    t = reveal_to(session, t, end)
    hosting.undo(session, t.table, end)  # nothing scored yet: taken back
    t = reveal_to(session, t, end)
    save(session, t, t.seat(1), 0, MapSheet.blank(t.side).text().splitlines())
    scoring.score(session, t, t.seat(1), 0)
    with pytest.raises(Refused) as refused:
        hosting.undo(session, t.table, end)
    assert (refused.value.status, str(refused.value)) == (
        409,
        "1 sheet has been scored for spring: the card that ended it stays revealed.",
    )
    assert t.table.taps == end
    t = reveal_to(session, t, end + 1)
    hosting.undo(session, t.table, end + 1)  # summer's first card: spring stays over
    assert t.table.taps == end
