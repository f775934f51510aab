"""The sheets page's sentence on where the table stands: which season is on
or has ended, and whose sheets still wait to be scored."""

from __future__ import annotations

from sqlalchemy.orm import Session

from referee.rules.sheet import MapSheet
from referee.table import scoring
from referee.table.progress import where_now
from referee.table.records import scores_by_seat
from referee.table.state import Table
from tests.table.conftest import new_table, reveal_to, save, season_end


def _said(session: Session, t: Table) -> str:
    return str(where_now(t, scores_by_seat(session, t)))


def _score(session: Session, t: Table, number: int, s: int) -> None:
    seat = t.seat(number)
    save(session, t, seat, s, MapSheet.blank(t.side).text().splitlines())
    scoring.score(session, t, seat, s)


def test_the_sentence_follows_the_seasons_and_the_scores(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"])
    t = reveal_to(session, t, 1)
    assert _said(session, t) == "Spring is on."
    t = reveal_to(session, t, season_end(t, 0))
    assert _said(session, t) == (
        "Spring has ended: score every sheet before summer begins. Still to score: Ann, Ben."
    )
    _score(session, t, 2, 0)
    assert _said(session, t) == (
        "Spring has ended: score every sheet before summer begins. Still to score: Ann."
    )
    t = reveal_to(session, t, season_end(t, 0) + 1)  # the host went on before Ann scored
    assert _said(session, t) == "Summer is on. Spring still to score: Ann."
    _score(session, t, 1, 0)
    assert _said(session, t) == "Summer is on."
    t = reveal_to(session, t, season_end(t, 1))
    for number in (1, 2):
        _score(session, t, number, 1)
    assert _said(session, t) == "Summer has ended and every sheet is scored: fall begins with the next card."


def test_after_winter_the_sentence_leads_to_the_standings(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"])
    t = reveal_to(session, t, season_end(t, 3))
    for s in range(3):
        for number in (1, 2):
            _score(session, t, number, s)
    _score(session, t, 2, 3)
    assert _said(session, t) == (
        "Winter has ended: score every sheet, then see the standings. Still to score: Ann."
    )
    _score(session, t, 1, 3)
    assert _said(session, t) == "Winter has ended and every sheet is scored: see the standings."
