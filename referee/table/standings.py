"""The end of a game at a table: the standings, and the rows the exports write.

Once winter has ended and every seat has scored all four seasons, the rules
(``referee.rules.game``) rank the players and explain any tiebreak; a solo
game gets its rating and title from the edicts' solo numbers. Until then the
standings name who is still to score. The exports carry one row per seat and
scored season, in the paper score sheet's columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from referee.rules import deck
from referee.rules.game import PlayerTotals, SoloResult, Standing, solo_result, standings
from referee.store.sheets import SeasonScoreRecord
from referee.table.deal import SEASONS
from referee.table.records import find_sheet, scores_by_seat
from referee.table.state import Table

EXPORT_FIELDS = (
    "table",
    "seat",
    "player",
    "season",
    "edict_1",
    "card_1",
    "stars_1",
    "edict_2",
    "card_2",
    "stars_2",
    "coins",
    "monsters",
    "total",
    "map",
    "final_total",
    "place",
)
"""The columns of an exported row, in order. ``final_total`` (the four
seasons' sum) and ``place`` (1 for the winner, shared on a tie that stands)
are the player's at the end of the game, on each of their rows, and empty
until the game is settled."""


@dataclass
class Settled:
    """The end of the game, or who still has to score winter."""

    standings: list[Standing]
    waiting: list[str]
    solo: SoloResult | None = None
    scores: dict[int, dict[int, SeasonScoreRecord]] = field(default_factory=dict)
    """Every score at the table: seat id, then season index, to its record."""


def settle(session: Session, table: Table) -> Settled:
    """The standings when the game is over and everyone has scored winter, else who is waiting."""
    scores = scores_by_seat(session, table)
    waiting = [seat.name for seat in table.seats if len(scores[seat.id]) < 4]
    if waiting or not table.position.game_over:
        return Settled([], waiting, scores=scores)
    players = [
        PlayerTotals(
            seat.name,
            tuple(scores[seat.id][s].total for s in range(4)),
            tuple(scores[seat.id][s].monsters for s in range(4)),
        )
        for seat in table.seats
    ]
    result = standings(players)
    solo = None
    if table.solo:
        numbers = [table.edict_cards()[letter].solo for letter in deck.EDICT_LETTERS]
        solo = solo_result(players[0].total, numbers)
    return Settled(result, [], solo, scores)


def _rows(table: Table, settled: Settled) -> list[dict[str, Any]]:
    """One row per seat and scored season, seats in order, seasons in order."""
    scores = settled.scores
    final = {st.player.name: st for st in settled.standings}
    rows = []
    for seat in table.seats:
        end = final.get(seat.name)
        for s, r in sorted(scores[seat.id].items()):
            rows.append(
                {
                    "table": table.table.code,
                    "seat": seat.order + 1,
                    "player": seat.name,
                    "season": SEASONS[s],
                    "edict_1": r.first_edict,
                    "card_1": r.first_card,
                    "stars_1": r.first_stars,
                    "edict_2": r.second_edict,
                    "card_2": r.second_card,
                    "stars_2": r.second_stars,
                    "coins": r.coins,
                    "monsters": r.monsters,
                    "total": r.total,
                    "map": r.map_text,
                    "final_total": end.player.total if end else "",
                    "place": end.place if end else "",
                }
            )
    return rows


def _with_sheets(session: Session, table: Table, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row with what its map's codes do not say: the ambush card each
    monster came from (``ambush_tags``) and, in a Heroes game, each hero's
    card, pattern and space (``heroes``), as the sheet was scored."""
    seats = {seat.order + 1: seat for seat in table.seats}
    out = []
    for row in rows:
        sheet = find_sheet(session, seats[row["seat"]], SEASONS.index(row["season"]))
        extra: dict[str, Any] = {"ambush_tags": list(sheet.monsters or []) if sheet else []}
        if table.heroes:
            extra["heroes"] = list(sheet.heroes or []) if sheet else []
        out.append({**row, **extra})
    return out


def export_rows(session: Session, table: Table) -> list[dict[str, Any]]:
    """One row per seat and scored season (``EXPORT_FIELDS``), for the CSV download."""
    return _rows(table, settle(session, table))


def export_game(session: Session, table: Table) -> dict[str, Any]:
    """The whole game for the JSON download: setup, edicts, seats, every
    scored season and, when the game is over, the standings."""
    settled = settle(session, table)
    body: dict[str, Any] = {
        "table": table.table.code,
        "setup": table.setup.to_dict(),
        "map_side": table.side.letter,
        "printing": table.printing.value,
        "edicts": table.deal.edicts,
        "seats": [{"seat": s.order + 1, "player": s.name} for s in table.seats],
        "seasons": _with_sheets(session, table, _rows(table, settled)),
        "standings": [
            {"place": st.place, "player": st.player.name, "total": st.player.total, "reason": str(st.reason)}
            for st in settled.standings
        ],
    }
    if settled.solo is not None:
        body["solo"] = {"rating": settled.solo.rating, "title": settled.solo.title}
    return body
