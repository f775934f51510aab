"""The sheets page's sentence on where the table stands: which season is on
or has ended, and whose sheets still wait to be scored."""

from __future__ import annotations

from sqlalchemy.orm import Session

from referee.rules.sheet import MapSheet
from referee.table import ambushes, scoring
from referee.table.progress import before_next_season, effects_to_confirm, left_unscored, where_now
from referee.table.records import scores_by_seat
from referee.table.sheets import open_sheet
from referee.table.state import Table
from tests.table.conftest import new_table, reveal_to, save, season_end
from tests.table.test_sheet_flow import BLANK_C, drawn


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


def test_a_seat_with_ambush_effects_to_apply_is_named(session: Session) -> None:
    """Ann's zombies wait to spread after spring's score: her seat is named,
    with spring, until she applies them; Ben, with no monster, is not."""
    t = new_table(session, ["Ann", "Ben"], edition="heroes", side="C", chosen=None)
    ann, ben = t.seat(1), t.seat(2)
    tags = [{"ambush": "Zombie Plague", "spaces": [[0, 10]]}]
    save(session, t, ann, 0, drawn(BLANK_C, r0c10="M"), monsters=tags)
    save(session, t, ben, 0, BLANK_C)
    assert effects_to_confirm(session, t, scores_by_seat(session, t)) == {}  # not scored yet
    t = reveal_to(session, t, season_end(t, 0))
    for seat in (ann, ben):
        scoring.score(session, t, seat, 0)
    scores = scores_by_seat(session, t)
    assert effects_to_confirm(session, t, scores) == {ann.id: 0}
    assert str(where_now(t, scores, effects_to_confirm(session, t, scores))) == (
        "Spring has ended and every sheet is scored; the ambushes' effects still wait to be applied: Ann."
    )
    t = reveal_to(session, t, season_end(t, 0) + 1)
    ambushes.confirm_effects(session, t, ann, 0, None)
    assert effects_to_confirm(session, t, scores_by_seat(session, t)) == {}


def _asked(session: Session, t: Table) -> str | None:
    ask = before_next_season(session, t)
    return None if ask is None else str(ask)


def test_the_host_is_asked_before_a_season_starts_over_sheets_unscored(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben", "Cat"])
    t = reveal_to(session, t, season_end(t, 0) - 1)
    open_sheet(session, t, t.seat(1), 0)
    assert left_unscored(session, t) == []  # spring is still on
    t = reveal_to(session, t, season_end(t, 0))
    assert left_unscored(session, t) == ["Ann", "Ben", "Cat"]  # Ann opened a sheet: the table records here
    _score(session, t, 2, 0)
    assert _asked(session, t) == (
        "Spring is not scored yet for Ann and Cat. Start summer anyway? "
        "They can still score spring afterwards."
    )
    _score(session, t, 1, 0)
    _score(session, t, 3, 0)
    assert _asked(session, t) is None
    t = reveal_to(session, t, season_end(t, 1))
    _score(session, t, 3, 1)  # a score alone, with no sheet left open, says so too
    assert left_unscored(session, t) == ["Ann", "Ben"]


def test_a_table_that_records_no_sheet_here_is_never_asked(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"])
    for s in range(4):
        t = reveal_to(session, t, season_end(t, s))
        assert left_unscored(session, t) == []
        assert _asked(session, t) is None


def test_the_last_season_asks_nothing_before_the_standings(session: Session) -> None:
    t = new_table(session, ["Ann", "Ben"])
    t = reveal_to(session, t, season_end(t, 3))
    for s in range(3):
        _score(session, t, 1, s)
    open_sheet(session, t, t.seat(1), 3)
    assert left_unscored(session, t) == []  # no season follows: the standings wait instead
