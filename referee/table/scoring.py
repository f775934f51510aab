"""Scoring a season's sheet at a table, and what a season's score page shows.

The rules score a map (``referee.rules.season``); the table decides when: a
season is scored once its time threshold is reached, from the sheet the
player saved, and may be scored again until the next season begins from
that map. The record keeps the paper score sheet's row and what the page
highlights (each edict's cells and sentence, the penalised spaces).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from referee.rules import season
from referee.rules.i18n import Text, _
from referee.store.models import Seat
from referee.store.sheets import SeasonScoreRecord, SeasonSheet
from referee.table.ambushes import Waiting, waiting_effects
from referee.table.deal import SEASON_NAMES, SEASONS
from referee.table.errors import CONFLICT, Refused, SheetPage
from referee.table.records import find_score, find_sheet, known_mountains, map_of, scores_by_seat
from referee.table.state import Table


def score(session: Session, table: Table, seat: Seat, s: int) -> SeasonScoreRecord:
    """Score the seat's saved sheet for season ``s`` and keep the record."""
    name = SEASON_NAMES[SEASONS[s]]
    if not table.ended(s):
        sd = table.season_card(s)
        time = table.position.time if table.current == s else 0
        raise Refused(
            CONFLICT,
            _(
                "%(season)s has not ended yet: its time is %(time)d of %(threshold)d. "
                "Score it when the host's screen says the season is over.",
                season=name,
                time=time,
                threshold=sd.threshold,
            ),
        )
    sheet = find_sheet(session, seat, s)
    if sheet is None:
        raise Refused(
            CONFLICT,
            _(
                "%(name)s has no %(season)s map to score yet; open and save it first.",
                name=seat.name,
                season=name,
            ),
            SheetPage("sheet", s),
        )
    if find_sheet(session, seat, s + 1) is not None if s < 3 else False:
        raise Refused(
            CONFLICT,
            _(
                "%(name)s's next season has begun from this map; %(season)s's score can no longer change.",
                name=seat.name,
                season=name,
            ),
        )
    themap = map_of(table, sheet)
    known = known_mountains(session, table, seat, s)
    result = season.score_season(themap, table.season_rule(s), table.edict_cards(), sheet.coins, known)
    (a_letter, a_card, a_score), (b_letter, b_card, b_score) = result.edicts
    detail: dict[str, Any] = {
        "edicts": [
            {
                "letter": letter,
                "card": card,
                "stars": sc.stars,
                "cells": sorted([r, c] for r, c in sc.cells),
                "lines": [list(line) for line in sc.lines],
                "why": sc.why.to_json() if isinstance(sc.why, Text) else sc.why,
            }
            for letter, card, sc in result.edicts
        ],
        "penalised": sorted([r, c] for r, c in result.penalised),
        "warnings": [w.to_json() for w in result.warnings],
    }
    record = find_score(session, seat, s) or SeasonScoreRecord(seat_id=seat.id, season=s)
    record.first_edict, record.first_card, record.first_stars = a_letter, a_card, a_score.stars
    record.second_edict, record.second_card, record.second_stars = b_letter, b_card, b_score.stars
    record.coins, record.monsters, record.total = result.coins, result.monsters, result.total
    record.map_text, record.detail, record.solo = themap.text(), detail, table.solo
    session.add(record)
    session.commit()
    return record


@dataclass
class ScoredSeason:
    """A season's score as its page shows it, with the seat's other seasons."""

    record: SeasonScoreRecord
    sheet: SeasonSheet
    scores: dict[int, SeasonScoreRecord]
    """The seat's scores so far, by season index."""
    next_started: bool
    """Whether the next season's sheet has been opened from this map (it is locked then)."""
    effects: Waiting | None
    """The after-scoring ambush effects, in a Heroes game while the next season has not begun."""


def scored_season(session: Session, table: Table, seat: Seat, s: int) -> ScoredSeason | None:
    """The seat's score for season ``s``, or None when it has not been scored."""
    record = find_score(session, seat, s)
    if record is None:
        return None
    sheet = find_sheet(session, seat, s)
    assert sheet is not None
    scores = scores_by_seat(session, table)[seat.id]
    next_started = s < 3 and find_sheet(session, seat, s + 1) is not None
    effects = waiting_effects(table, sheet) if table.heroes and not next_started else None
    return ScoredSeason(record, sheet, scores, next_started, effects)
