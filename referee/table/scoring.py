"""Scoring a season's sheet at a table, and what a season's score page shows.

The rules score a map (``referee.rules.season``); the table decides when: a
season is scored once its time threshold is reached, from the sheet the
player saved, and may be scored again until the next season begins from
that map. The record keeps the paper score sheet's row and what the page
highlights (each edict's cells and sentence, the penalised spaces).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from referee.rules import season, terrain
from referee.rules.geometry import SIZE, Cell, where_all
from referee.rules.i18n import Text, _, ngettext
from referee.rules.sheet import MapSheet
from referee.store.models import Seat
from referee.store.sheets import SeasonScoreRecord, SeasonSheet
from referee.table.ambushes import (
    GORGON_WAITS,
    WINTER,
    Waiting,
    ambush_untold_refusal,
    ambushes_untold,
    gorgon_pending,
    waiting_effects,
)
from referee.table.deal import SEASON_NAMES, SEASONS
from referee.table.errors import CONFLICT, Refused, SheetPage
from referee.table.records import find_score, find_sheet, known_mountains, map_of, scores_by_seat
from referee.table.state import Table


def heroes_without_a_card(themap: MapSheet, stored_heroes: Iterable[dict[str, Any]]) -> list[Cell]:
    """The hero spaces of ``themap`` that no hero card accounts for.

    A hero is one space: "when a hero card is revealed, each player draws a
    1x1 square anywhere on their map, then fills it with the hero terrain
    type. Each player then marks spaces in the depicted attack pattern,
    relative to the hero space." So each hero card stands on one hero space
    (its ``at``), and a hero space with no card has no attack pattern: the
    monsters it should have destroyed would still count against the player.
    A hero whose space has since been destroyed still has its card, and is
    no hero space any more."""
    named = {(h["at"][0], h["at"][1]) for h in stored_heroes}
    return [
        (r, c)
        for r in range(SIZE)
        for c in range(SIZE)
        if themap.at(r, c) == terrain.HERO and (r, c) not in named
    ]


def hero_cards_missing(spaces: list[Cell]) -> Text:
    """The refusal of a season's score while heroes at ``spaces`` have no hero card."""
    return ngettext(
        "The hero at %(spaces)s has no hero card, so it attacks nothing: tap it with the Hero brush "
        "to say which hero card it is, save, then score.",
        "The heroes at %(spaces)s have no hero card, so they attack nothing: tap each with the Hero "
        "brush to say which hero card it is, save, then score.",
        len(spaces),
        spaces=where_all(spaces),
    )


def score(
    session: Session, table: Table, seat: Seat, s: int, shapeless: Collection[str] = ()
) -> SeasonScoreRecord:
    """Score the seat's saved sheet for season ``s`` and keep the record.

    A draft may hold a hero whose card is not chosen yet (a photo reads the
    hero space, not the card), but a season is not scored from it: the
    hero's attack pattern would be missing from the score. Nor while the
    Gorgon's gaze waits: "immediately after the Gorgon is drawn, destroy one
    non-mountain space adjacent to it", and a destroyed space is filled and
    splits the clusters it stood in. Nor while an ambush that acts by its
    monsters tags none of them and untagged monsters are on the map (a
    photo's, where several cards could have drawn them): its effect would
    be lost unsaid, unless the player says its shape could not be drawn
    (``shapeless``), where its 1x1 monster carries no initial."""
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
    unnamed = heroes_without_a_card(themap, sheet.heroes or []) if table.heroes else []
    if unnamed:
        raise Refused(CONFLICT, hero_cards_missing(unnamed), SheetPage("sheet", s))
    untold = ambushes_untold(table, sheet)
    said = [a for a in untold if a in shapeless]
    if len(said) < len(untold):
        raise Refused(
            CONFLICT, ambush_untold_refusal([a for a in untold if a not in said]), SheetPage("sheet", s)
        )
    if gorgon_pending(table, sheet):
        raise Refused(CONFLICT, GORGON_WAITS, SheetPage("sheet", s))
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
        # The player's word that these ambushes' shapes could not be drawn: the page keeps it ticked.
        "shapeless": said,
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
    """The after-scoring ambush effects, while the next season has not begun
    (in any game whose ambush deck holds the Zombie Plague or the Giant Troll
    Ravage, hero cards or not); None after winter, which no season starts from."""


def scored_season(session: Session, table: Table, seat: Seat, s: int) -> ScoredSeason | None:
    """The seat's score for season ``s``, or None when it has not been scored."""
    record = find_score(session, seat, s)
    if record is None:
        return None
    sheet = find_sheet(session, seat, s)
    assert sheet is not None
    scores = scores_by_seat(session, table)[seat.id]
    next_started = s < 3 and find_sheet(session, seat, s + 1) is not None
    after = table.ambush_effects and s < WINTER and not next_started
    effects = waiting_effects(table, sheet) if after else None
    return ScoredSeason(record, sheet, scores, next_started, effects)
