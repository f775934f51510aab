"""Players' sheets at a table: what the sheet pages do, kept out of the views.

The views in ``sheets`` read requests and render; this module finds a table's
season, builds each season's sheet from the previous one, checks a save and
scores a season. Every rule comes from ``referee.rules``; what is here is
bookkeeping: which season is on, what is stored, which sentence to answer.
Errors meant for the player are raised as ``SheetRefused`` with a status.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from referee.rules import data, deck, heroes, season, terrain
from referee.rules.cards import ScoringCard, card_named
from referee.rules.errors import RefereeError
from referee.rules.game import PlayerTotals, Standing, solo_result, standings
from referee.rules.geometry import SIZE, Cell, index, where
from referee.rules.sheet import MapSheet
from referee.store.models import GameTable, Seat
from referee.store.sheets import SeasonScoreRecord, SeasonSheet, save_sheet
from referee.web.present import SEASON_NAMES, dealt, setup_of

SEASONS = ("spring", "summer", "fall", "winter")

#: The ambushes whose effect acts after scoring each season.
AFTER_SCORING = (heroes.ZOMBIE_PLAGUE, heroes.GIANT_TROLL_RAVAGE)


class SheetRefused(RefereeError):
    """A sheet request refused with a sentence and an HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@cache
def hero_card_map() -> dict[str, data.HeroCard]:
    return {h.name: h for h in data.hero_cards()}


@cache
def ambush_card_map() -> dict[str, data.AmbushCard]:
    return {a.name: a for a in data.ambush_cards()}


def hero_patterns() -> dict[str, dict[str, list[Cell]]]:
    """Each hero card's attack offsets in each orientation, for the editor's preview."""
    return {
        h.name: {o.value: [o.turn(offset) for offset in h.attack] for o in heroes.Orientation}
        for h in data.hero_cards()
    }


@dataclass
class Table:
    """A table's deal and where it stands, as the sheet pages need them."""

    table: GameTable
    setup: deck.Setup
    deal: deck.Deal
    position: deck.Position
    side: data.MapSide

    @classmethod
    def of(cls, table: GameTable) -> Table:
        setup = setup_of(table)
        game = dealt(setup)
        side = data.map_sides()[table.setup.get("map_side", "A")]
        return cls(table, setup, game, game.position(table.taps), side)

    @property
    def heroes(self) -> bool:
        return bool(self.setup.heroes)

    @property
    def solo(self) -> bool:
        return self.setup.solo

    @property
    def seats(self) -> list[Seat]:
        return list(self.table.seats)

    def seat(self, number: int) -> Seat:
        """The seat numbered from 1 in seat order."""
        for seat in self.table.seats:
            if seat.order == number - 1:
                return seat
        raise SheetRefused(404, f"Table {self.table.code} has no seat {number}.")

    def season_index(self, name: str) -> int:
        if name not in SEASONS:
            raise SheetRefused(404, "A season is spring, summer, fall or winter.")
        return SEASONS.index(name)

    @property
    def current(self) -> int:
        """The season being played (or just ended)."""
        return self.position.season_index

    def ended(self, s: int) -> bool:
        """Whether season ``s`` has reached its time threshold."""
        p = self.position
        return p.season_index > s or (p.season_index == s and p.season_over)

    def season_card(self, s: int) -> deck.SeasonDeal:
        return self.deal.seasons[s]

    def edict_cards(self) -> dict[str, ScoringCard]:
        return {letter: card_named(name) for letter, name in self.deal.edicts.items()}

    def season_rule(self, s: int) -> data.SeasonCard:
        sd = self.deal.seasons[s]
        return data.SeasonCard(sd.name, sd.threshold, sd.edicts)

    def ambushes(self) -> list[str]:
        """The setup's four ambush cards, in the order the deal reveals them."""
        order = self.reveal_order()
        return sorted(self.setup.ambushes, key=lambda n: order.get(n, len(order)))

    def reveal_order(self) -> dict[str, int]:
        names = [r.name for s in self.deal.seasons for t in s.turns for r in t.reveals]
        return {name: i for i, name in reversed(list(enumerate(names)))}

    def ambushes_revealed(self, s: int) -> list[str]:
        """Ambush cards revealed in season ``s`` so far."""
        sd = self.deal.seasons[s]
        turns = sd.turns if s < self.current else sd.turns[: self.position.turn_index]
        return [r.name for t in turns for r in t.reveals if r.kind == "ambush"]


# --- reading and writing a sheet -------------------------------------------------------------------


def find_sheet(session: Session, seat: Seat, s: int) -> SeasonSheet | None:
    return session.scalar(select(SeasonSheet).where(SeasonSheet.seat_id == seat.id, SeasonSheet.season == s))


def find_score(session: Session, seat: Seat, s: int) -> SeasonScoreRecord | None:
    return session.scalar(
        select(SeasonScoreRecord).where(SeasonScoreRecord.seat_id == seat.id, SeasonScoreRecord.season == s)
    )


def tags_of(sheet: SeasonSheet) -> list[heroes.MonsterTag]:
    return [
        heroes.MonsterTag(m["ambush"], frozenset((r, c) for r, c in m["spaces"]))
        for m in sheet.monsters or []
    ]


def patterns_of(stored_heroes: Iterable[dict[str, Any]]) -> list[set[Cell]]:
    """Every drawn hero's attack pattern: they stay active for the rest of the game."""
    out = []
    for h in stored_heroes:
        card = hero_card_map()[h["hero"]]
        at = (h["at"][0], h["at"][1])
        out.append(heroes.attacked_spaces(at, card, heroes.Orientation(h["orientation"])))
    return out


def map_of(table: Table, sheet: SeasonSheet) -> MapSheet:
    return MapSheet.parse(sheet.map_text, table.side)


def open_sheet(session: Session, table: Table, seat: Seat, s: int) -> SeasonSheet:
    """The seat's sheet for season ``s``, made from the previous season's
    (with its after-scoring effects applied) the first time it is opened."""
    found = find_sheet(session, seat, s)
    if found is not None:
        return found
    name = SEASON_NAMES[SEASONS[s]]
    if s > table.current:
        raise SheetRefused(409, f"{name} has not begun yet; it starts when the host reveals its first card.")
    if s == 0:
        values: dict[str, Any] = {
            "map_text": MapSheet.blank(table.side).text(),
            "coins": 0,
            "monsters": [],
            "heroes": [],
            "effects": {},
        }
    else:
        values = next_season_start(session, table, seat, s - 1)
    sheet = SeasonSheet(seat_id=seat.id, season=s, revision=1, **values)
    session.add(sheet)
    try:
        session.commit()
    except IntegrityError:  # another device opened it a moment ago
        session.rollback()
        again = find_sheet(session, seat, s)
        assert again is not None
        return again
    return sheet


def pending_effects(table: Table, sheet: SeasonSheet) -> list[str]:
    """The after-scoring effects this sheet's monsters still need confirmed."""
    if (sheet.effects or {}).get("after_scoring"):
        return []
    themap = map_of(table, sheet)
    out = []
    for tag in tags_of(sheet):
        if tag.ambush in AFTER_SCORING and any(themap.at(*at) == terrain.MONSTER for at in tag.spaces):
            out.append(tag.ambush)
    return out


def resolve(table: Table, sheet: SeasonSheet, troll: Cell | None) -> heroes.AfterScoring:
    """The season's after-scoring effects on this sheet, in the order the ambushes were revealed."""
    order = table.reveal_order()
    tags = sorted(tags_of(sheet), key=lambda t: order.get(t.ambush, len(order)))
    choices = {heroes.GIANT_TROLL_RAVAGE: troll} if troll is not None else {}
    return heroes.resolve_after_scoring(
        map_of(table, sheet),
        tags,
        choices,
        patterns=patterns_of(sheet.heroes or []),
        dragon_paid=bool((sheet.effects or {}).get("dragon_paid")),
    )


def next_season_start(session: Session, table: Table, seat: Seat, s: int) -> dict[str, Any]:
    """What the sheet of the season after ``s`` starts from."""
    name = SEASON_NAMES[SEASONS[s]]
    previous = find_sheet(session, seat, s)
    if previous is None or find_score(session, seat, s) is None:
        raise SheetRefused(409, f"Score {seat.name}'s {name} first: the next season starts from that map.")
    effects = dict(previous.effects or {})
    themap, monsters, coins = previous.map_text, previous.monsters, previous.coins
    if table.heroes:
        if pending_effects(table, previous):
            raise SheetRefused(
                409,
                f"{seat.name}'s {name} score has ambush effects to apply first; "
                "open the score page and confirm them.",
            )
        troll = effects.get("troll")
        outcome = resolve(table, previous, (troll[0], troll[1]) if troll else None)
        themap = outcome.sheet.text()
        monsters = [
            {"ambush": t.ambush, "spaces": sorted([r, c] for r, c in t.spaces)} for t in outcome.monsters
        ]
        if outcome.coins:
            coins = min(coins + outcome.coins, table.side.coin_track)
            effects["dragon_paid"] = True
    effects.pop("after_scoring", None)
    effects.pop("troll", None)
    return {
        "map_text": themap,
        "coins": coins,
        "monsters": monsters,
        "heroes": list(previous.heroes or []),
        "effects": effects,
    }


@dataclass
class Saved:
    """What a save did, for the page to tell the player."""

    sheet: SeasonSheet
    messages: list[str]


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SheetRefused(400, f"The page sent no {what}; reload it and try again.")
    return value


def _cell(value: Any) -> Cell:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in value)
    ):
        raise SheetRefused(400, "A space must be a row and a column from 1 to 11.")
    return (value[0], value[1])


def check_monsters(table: Table, themap: MapSheet, raw: Any) -> list[dict[str, Any]]:
    """Monster tags as sent by the editor, checked: a known ambush of this
    table, each space holding a monster (or a destroyed monster)."""
    if not isinstance(raw, list):
        raise SheetRefused(400, "The page sent the monster tags in a form the referee does not know.")
    allowed = set(table.setup.ambushes)
    merged: dict[str, set[Cell]] = {}
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("ambush"), str):
            raise SheetRefused(400, "Each monster tag names its ambush card.")
        name = item["ambush"]
        if name not in allowed:
            raise SheetRefused(400, f"{name} is not one of this table's ambush cards.")
        spaces = {_cell(v) for v in item.get("spaces") or []}
        for at in spaces:
            code = themap.at(*at)
            if code not in (terrain.MONSTER, terrain.DESTROYED):
                raise SheetRefused(
                    400,
                    f"{where(*at)} is tagged as the {name} but holds {terrain.NAMES[code]}, not a monster.",
                )
        merged.setdefault(name, set()).update(spaces)
    return [{"ambush": n, "spaces": sorted([r, c] for r, c in s)} for n, s in merged.items() if s]


def check_heroes(themap: MapSheet, raw: Any, before: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Heroes as sent: a hero card, a space and an orientation each. A new
    hero's space must hold the hero; an old one's may since have been destroyed."""
    if not isinstance(raw, list):
        raise SheetRefused(400, "The page sent the heroes in a form the referee does not know.")
    known = {(h["hero"], tuple(h["at"])) for h in before}
    out = []
    for item in raw:
        if not isinstance(item, dict) or item.get("hero") not in hero_card_map():
            raise SheetRefused(400, "Choose which hero card each hero on the map is.")
        at = _cell(item.get("at"))
        try:
            orientation = heroes.Orientation(item.get("orientation", heroes.Orientation.PRINTED.value))
        except ValueError:
            raise SheetRefused(400, "A hero's attack pattern is printed, rotated or flipped.") from None
        code = themap.at(*at)
        old = (item["hero"], at) in known
        if code != terrain.HERO and not (old and code == terrain.DESTROYED):
            raise SheetRefused(400, f"{where(*at)} is given the hero {item['hero']} but holds no hero.")
        out.append({"hero": item["hero"], "at": [at[0], at[1]], "orientation": orientation.value})
    return out


def save(session: Session, table: Table, sheet: SeasonSheet, payload: Any) -> Saved:
    """Check and store what the editor sent; 409 when the page is stale."""
    if not isinstance(payload, dict):
        raise SheetRefused(400, "The page sent no sheet; reload it and try again.")
    seen = _int(payload.get("revision"), "revision number")
    text = payload.get("map")
    if not isinstance(text, str):
        raise SheetRefused(400, "The page sent no map; reload it and try again.")
    themap = MapSheet.parse(text, table.side)  # MapError: a printed mountain removed, a bad code
    coins = season.check_coins(themap, _int(payload.get("coins"), "coin count"))
    monsters = check_monsters(table, themap, payload.get("monsters", []))
    hero_list = check_heroes(themap, payload.get("heroes", []), sheet.heroes or [])
    if hero_list and not table.heroes:
        raise SheetRefused(400, "There are no hero cards in this game.")
    messages = []
    themap, killed = heroes.apply_standing_attacks(themap, patterns_of(hero_list))
    if killed:
        messages.append(
            f"The heroes destroyed the monsters at {'; '.join(where(*at) for at in sorted(killed))}."
        )
    effects = dict(sheet.effects or {})
    for tag in monsters:
        if tag["ambush"] == heroes.DRAGON_INFERNO and not effects.get("dragon_paid"):
            spaces = [(r, c) for r, c in tag["spaces"]]
            if heroes.dragon_coins_due(themap, spaces):
                effects["dragon_paid"] = True
                coins = min(coins + heroes.DRAGON_COINS, themap.side.coin_track)
                messages.append(
                    "Every space of the Dragon is surrounded or destroyed: "
                    f"{heroes.DRAGON_COINS} coins gained."
                )
    if seen != sheet.revision or not save_sheet(
        session,
        sheet.id,
        seen,
        {
            "map_text": themap.text(),
            "coins": coins,
            "monsters": monsters,
            "heroes": hero_list,
            "effects": effects,
        },
    ):
        raise stale()
    session.refresh(sheet)
    return Saved(sheet, messages)


def stale() -> SheetRefused:
    return SheetRefused(
        409,
        "This sheet was saved from another page or phone since you opened it, so your save was not "
        "applied. Your changes are still on this page: note them, reload to see the saved sheet, "
        "and enter them again.",
    )


def gorgon_pending(table: Table, sheet: SeasonSheet) -> list[Cell]:
    """The spaces the Gorgon may destroy, while its gaze is not yet done."""
    if (sheet.effects or {}).get("gorgon_done"):
        return []
    themap = map_of(table, sheet)
    for tag in tags_of(sheet):
        if tag.ambush == heroes.GORGON_GAZE:
            return sorted(heroes.gorgon_targets(themap, tag.spaces))
    return []


def apply_gorgon(session: Session, table: Table, sheet: SeasonSheet, seen: int, at: Cell) -> None:
    gorgon = next(t for t in tags_of(sheet) if t.ambush == heroes.GORGON_GAZE)
    themap = heroes.gorgon_gaze(map_of(table, sheet), gorgon.spaces, at)
    effects = dict(sheet.effects or {}, gorgon_done=True)
    if seen != sheet.revision or not save_sheet(
        session, sheet.id, seen, {"map_text": themap.text(), "effects": effects}
    ):
        raise stale()
    session.refresh(sheet)


# --- scoring ----------------------------------------------------------------------------------------


def score(session: Session, table: Table, seat: Seat, s: int) -> SeasonScoreRecord:
    """Score the seat's saved sheet for season ``s`` and keep the record."""
    name = SEASON_NAMES[SEASONS[s]]
    if not table.ended(s):
        sd = table.season_card(s)
        time = table.position.time if table.current == s else 0
        raise SheetRefused(
            409,
            f"{name} has not ended yet: its time is {time} of {sd.threshold}. "
            "Score it when the host's screen says the season is over.",
        )
    sheet = find_sheet(session, seat, s)
    if sheet is None:
        raise SheetRefused(409, f"{seat.name} has no {name} map to score yet; open and save it first.")
    if find_sheet(session, seat, s + 1) is not None if s < 3 else False:
        raise SheetRefused(
            409, f"{seat.name}'s next season has begun from this map; {name}'s score can no longer change."
        )
    themap = map_of(table, sheet)
    result = season.score_season(themap, table.season_rule(s), table.edict_cards(), sheet.coins)
    (a_letter, a_card, a_score), (b_letter, b_card, b_score) = result.edicts
    detail = {
        "edicts": [
            {
                "letter": letter,
                "card": card,
                "stars": sc.stars,
                "cells": sorted([r, c] for r, c in sc.cells),
                "lines": [list(line) for line in sc.lines],
                "why": sc.why,
            }
            for letter, card, sc in result.edicts
        ],
        "penalised": sorted([r, c] for r, c in result.penalised),
        "warnings": list(result.warnings),
    }
    record = find_score(session, seat, s) or SeasonScoreRecord(seat_id=seat.id, season=s)
    record.first_edict, record.first_card, record.first_stars = a_letter, a_card, a_score.stars
    record.second_edict, record.second_card, record.second_stars = b_letter, b_card, b_score.stars
    record.coins, record.monsters, record.total = result.coins, result.monsters, result.total
    record.map_text, record.detail, record.solo = themap.text(), detail, table.solo
    session.add(record)
    session.commit()
    return record


def confirm_effects(session: Session, table: Table, seat: Seat, s: int, troll: Cell | None) -> None:
    """Record that the player confirmed the after-scoring effects (and the troll's space)."""
    sheet = find_sheet(session, seat, s)
    if sheet is None or find_score(session, seat, s) is None:
        raise SheetRefused(409, "Score the season before applying the ambushes' effects.")
    if s < 3 and find_sheet(session, seat, s + 1) is not None:
        raise SheetRefused(409, "The next season has already begun from this map.")
    resolve(table, sheet, troll)  # DrawingError when the troll's space is not allowed
    effects = dict(sheet.effects or {}, after_scoring=True)
    if troll is not None:
        effects["troll"] = [troll[0], troll[1]]
    sheet.effects = effects
    session.commit()


def scores_by_seat(session: Session, table: Table) -> dict[int, dict[int, SeasonScoreRecord]]:
    rows = session.scalars(
        select(SeasonScoreRecord).where(SeasonScoreRecord.seat_id.in_([s.id for s in table.seats]))
    )
    out: dict[int, dict[int, SeasonScoreRecord]] = {seat.id: {} for seat in table.seats}
    for row in rows:
        out[row.seat_id][row.season] = row
    return out


@dataclass
class Settled:
    """The end of the game, or who still has to score winter."""

    standings: list[Standing]
    waiting: list[str]
    solo: Any = None


def settle(session: Session, table: Table) -> Settled:
    scores = scores_by_seat(session, table)
    waiting = [seat.name for seat in table.seats if len(scores[seat.id]) < 4]
    if waiting or not table.position.game_over:
        return Settled([], waiting)
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
    return Settled(result, [], solo)


def export_rows(session: Session, table: Table) -> list[dict[str, Any]]:
    """One row per seat and scored season, for CSV and JSON downloads."""
    scores = scores_by_seat(session, table)
    rows = []
    for seat in table.seats:
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
                }
            )
    return rows


def solo_help(table: Table, text: Any, ambush: Any) -> dict[str, Any]:
    """Where the solo rules draw an ambush's monster on the map as the editor shows it."""
    from referee.rules import solo

    if not isinstance(text, str):
        raise SheetRefused(400, "The page sent no map; reload it and try again.")
    card = ambush_card_map().get(ambush) if isinstance(ambush, str) else None
    if card is None or card.name not in table.setup.ambushes:
        raise SheetRefused(400, "Choose one of this table's ambush cards.")
    themap = MapSheet.parse(text, table.side)
    placement = solo.place_solo_ambush(themap, card)
    return {
        "ambush": card.name,
        "spaces": sorted([r, c] for r, c in placement.spaces) if placement else [],
        "sentence": solo.solo_sentence(card, placement),
    }


def cells_list(cells: Sequence[Sequence[int]]) -> list[int]:
    """Cells as map indices, for the templates' highlight classes."""
    return [index(r, c) for r, c in cells]
