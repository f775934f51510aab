"""A player's sheet through the seasons: opening it, and saving what the editor sent.

Each season's sheet is opened once, the first time anyone looks at it:
spring's is the blank map side, every later one is a copy of the season
before as it was scored, with that season's after-scoring ambush effects
applied. A save checks what the editor sent (``checks``), lets the heroes
attack the monsters they can reach and sees to the Dragon's coins, then stores
it only if nobody saved the sheet meanwhile. A season's map is locked once a
later season has been scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from referee.rules import heroes, season
from referee.rules.geometry import Cell, where_all
from referee.rules.i18n import Text, _, ngettext
from referee.rules.sheet import MapSheet
from referee.store.models import Seat
from referee.store.sheets import SeasonScoreRecord, SeasonSheet, reprint_blank
from referee.table import scoring
from referee.table.ambushes import gorgon_drawn, gorgon_pending, pending_effects, resolve
from referee.table.checks import check_heroes, check_monsters, check_no_hero_space, whole_number
from referee.table.deal import SEASON_NAMES, SEASONS
from referee.table.errors import BAD_INPUT, CONFLICT, Refused, SheetPage
from referee.table.records import (
    coins_before,
    find_score,
    find_sheet,
    known_mountains,
    patterns_of,
    write_sheet,
)
from referee.table.state import Table


def open_sheet(session: Session, table: Table, seat: Seat, s: int) -> SeasonSheet:
    """The seat's sheet for season ``s``, made from the previous season's
    (with its after-scoring effects applied) the first time it is opened."""
    found = find_sheet(session, seat, s)
    if found is not None and s == 0 and found.revision == 1:
        blank = MapSheet.blank(table.side).text()
        if found.map_text != blank:  # opened on the old side as the host changed it (``sides``)
            reprint_blank(session, found.id, blank)
            session.refresh(found)
    if found is not None:
        return found
    name = SEASON_NAMES[SEASONS[s]]
    if s > table.current:
        raise Refused(
            CONFLICT,
            _("%(season)s has not begun yet; it starts when the host reveals its first card.", season=name),
        )
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


def season_to_open(session: Session, table: Table, seat: Seat) -> int:
    """The season a seat's sheet opens at: the first season begun so far
    that the seat has not scored, else the current one. A player who
    recorded nothing during the game starts at spring, whose map every
    later season is made from, not at a season that cannot open yet."""
    return next((s for s in range(table.current) if find_score(session, seat, s) is None), table.current)


def page_to_open(session: Session, table: Table, seat: Seat) -> SheetPage:
    """Where a seat's sheet link leads: the sheet of ``season_to_open``, or,
    while the season before it waits for its after-scoring ambush effects
    (which that sheet starts from), the season before's score page, where
    they are applied, rather than a refusal."""
    s = season_to_open(session, table, seat)
    if s > 0 and table.ambush_effects and find_sheet(session, seat, s) is None:
        previous = find_sheet(session, seat, s - 1)
        if previous is not None and pending_effects(table, previous):
            return SheetPage("score", s - 1)
    return SheetPage("sheet", s)


def next_season_start(session: Session, table: Table, seat: Seat, s: int) -> dict[str, Any]:
    """What the sheet of the season after ``s`` starts from."""
    name = SEASON_NAMES[SEASONS[s]]
    previous = find_sheet(session, seat, s)
    if previous is None or find_score(session, seat, s) is None:
        first = next(k for k in range(s + 1) if find_score(session, seat, k) is None)
        raise Refused(
            CONFLICT,
            _(
                "Score %(name)s's %(season)s first: the next season starts from that map.",
                name=seat.name,
                season=SEASON_NAMES[SEASONS[first]],
            ),
            SheetPage("sheet", first),
        )
    effects = dict(previous.effects or {})
    themap, monsters, coins = previous.map_text, previous.monsters, previous.coins
    if table.ambush_effects:
        if pending_effects(table, previous):
            raise Refused(
                CONFLICT,
                _(
                    "%(name)s's %(season)s score has ambush effects to apply first; "
                    "open the score page and confirm them.",
                    name=seat.name,
                    season=name,
                ),
                SheetPage("score", s),
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
class Editing:
    """A sheet opened in the editor, and what the page shows beside it."""

    sheet: SeasonSheet
    scored: bool
    """Whether this season has a score yet."""
    gorgon: list[Cell]
    """The spaces a waiting Gorgon's gaze may destroy (none when no gaze waits)."""
    gorgon_drawn: list[Cell]
    """The destroyed spaces next to a waiting Gorgon: its gaze, if drawn on paper already."""
    locked: bool
    """Whether a later season has been scored from this map, which can then no longer change."""
    next_begun: bool
    """Whether the next season's sheet has been opened from this season's
    scored map, whose score can then no longer change."""
    shapeless: list[str]
    """The ambushes whose shape, the player said when the season was last
    scored, could not be drawn on this map (``scoring.score``)."""


LOCKED = _("A later season has been scored; this season's map can no longer change.")


def open_for_editing(session: Session, table: Table, seat: Seat, s: int) -> Editing:
    """The seat's sheet for season ``s`` (opened if need be), as the editor page shows it."""
    sheet = open_sheet(session, table, seat, s)
    gorgon = gorgon_pending(table, sheet)
    record = find_score(session, seat, s)
    return Editing(
        sheet,
        record is not None,
        gorgon,
        gorgon_drawn(table, sheet) if gorgon else [],
        is_locked(session, seat, s),
        s < 3 and find_sheet(session, seat, s + 1) is not None,
        list((record.detail or {}).get("shapeless", [])) if record is not None else [],
    )


def is_locked(session: Session, seat: Seat, s: int) -> bool:
    """Whether season ``s``'s map is locked: a later season has been scored from it."""
    return s < 3 and find_score(session, seat, s + 1) is not None


def refuse_if_locked(session: Session, seat: Seat, s: int) -> None:
    """Refuse to change season ``s``'s map once a later season has been scored from it."""
    if is_locked(session, seat, s):
        raise Refused(CONFLICT, LOCKED)


def open_to_change(session: Session, table: Table, seat: Seat, s: int) -> SeasonSheet:
    """The seat's sheet for season ``s`` (opened if need be), refused when it is locked."""
    sheet = open_sheet(session, table, seat, s)
    refuse_if_locked(session, seat, s)
    return sheet


@dataclass
class Saved:
    """What a save did, for the page to tell the player."""

    sheet: SeasonSheet
    messages: list[Text]
    gorgon: list[Cell]
    """The spaces a waiting Gorgon's gaze may now destroy."""


def _dragon_coins(coins: int, began: int, mountains: int, track: int) -> tuple[int, Text]:
    """The coin count, and what to tell the player, once the save closes the
    Dragon in: "when all spaces of the Dragon are surrounded or destroyed,
    gain 3 coins".

    The player fills those coins on the paper sheet, as the card says, and
    the count sent is the sheet's: adding 3 to it would count them twice.
    Coins are only ever filled, so a count under the season's start
    (``began``), plus a coin for each mountain the map surrounds that was
    not surrounded then (``mountains``: the map shows those), plus the
    Dragon's, cannot hold them: they are added then. A count that can hold
    them is the player's word, and the player is asked to check it. (A
    play-test's player, told that an unread coin track starts at 2 carried
    and 2 for mountains, sent 5 with a shape's coin: the Dragon's 3 were
    not in it, though 5 is 2 + 3.)"""
    due = min(began + mountains + heroes.DRAGON_COINS, track)
    if coins < due:
        added = min(coins + heroes.DRAGON_COINS, track)
        sent = ngettext("%(num)d coin", "%(num)d coins", coins)
        at_start = ngettext("%(num)d coin", "%(num)d coins", began)
        if not mountains:
            return added, _(
                "Every space of the Dragon is surrounded or destroyed: gain %(gain)d coins. "
                "The %(sent)s sent cannot hold them (the season began with %(began)s), "
                "so the count is now %(coins)d: fill them on your sheet too.",
                gain=heroes.DRAGON_COINS,
                sent=sent,
                began=at_start,
                coins=added,
            )
        return added, _(
            "Every space of the Dragon is surrounded or destroyed: gain %(gain)d coins. "
            "The %(sent)s sent cannot hold them (the season began with %(began)s, and "
            "the mountains surrounded since fill %(more)s), "
            "so the count is now %(coins)d: fill them on your sheet too.",
            gain=heroes.DRAGON_COINS,
            sent=sent,
            began=at_start,
            more=ngettext("%(num)d coin", "%(num)d coins", mountains),
            coins=added,
        )
    return coins, _(
        "Every space of the Dragon is surrounded or destroyed: gain %(gain)d coins. "
        "Check that your %(coins)s hold them, as your sheet's coin track does.",
        gain=heroes.DRAGON_COINS,
        coins=ngettext("%(num)d coin", "%(num)d coins", coins),
    )


def save(session: Session, table: Table, seat: Seat, s: int, payload: Any) -> Saved:
    """Check and store what the editor sent (``None`` when it sent nothing
    readable) as the seat's sheet for season ``s``; 409 when the page is stale."""
    sheet = find_sheet(session, seat, s)
    if sheet is None:
        raise Refused(CONFLICT, _("This season's sheet does not exist yet; reload the page."))
    refuse_if_locked(session, seat, s)
    if payload is None:
        raise Refused(BAD_INPUT, _("The page sent nothing the referee could read; reload it and try again."))
    if not isinstance(payload, dict):
        raise Refused(BAD_INPUT, _("The page sent no sheet; reload it and try again."))
    seen = whole_number(
        payload.get("revision"), _("The page sent no revision number; reload it and try again.")
    )
    text = payload.get("map")
    if not isinstance(text, str):
        raise Refused(BAD_INPUT, _("The page sent no map; reload it and try again."))
    themap = MapSheet.parse(text, table.side)  # MapError: a printed mountain removed, a bad code
    coins = season.check_coins(
        themap, whole_number(payload.get("coins"), _("The page sent no coin count; reload it and try again."))
    )
    monsters = check_monsters(table, themap, payload.get("monsters", []))
    # a game without hero cards refuses any hero, after the heroes' own shape is checked
    revealed = table.heroes_named(s) if table.heroes else None
    hero_list = check_heroes(themap, payload.get("heroes", []), sheet.heroes or [], revealed)
    if hero_list and not table.heroes:
        raise Refused(BAD_INPUT, _("There are no hero cards in this game."))
    if not table.heroes:
        check_no_hero_space(themap)
    messages: list[Text] = []
    themap, killed = heroes.apply_standing_attacks(themap, patterns_of(hero_list))
    if killed:
        messages.append(_("The heroes destroyed the monsters at %(spaces)s.", spaces=where_all(killed)))
    effects = dict(sheet.effects or {})
    for tag in monsters:
        if tag["ambush"] == heroes.DRAGON_INFERNO and not effects.get("dragon_paid"):
            spaces = [(r, c) for r, c in tag["spaces"]]
            if heroes.dragon_coins_due(themap, spaces):
                effects["dragon_paid"] = True
                coins, said = _dragon_coins(
                    coins,
                    coins_before(session, seat, s),
                    len(season.newly_surrounded(themap, known_mountains(session, table, seat, s))),
                    themap.side.coin_track,
                )
                messages.append(said)
    values = {
        "map_text": themap.text(),
        "coins": coins,
        "monsters": monsters,
        "heroes": hero_list,
        "effects": effects,
    }
    write_sheet(session, sheet, seen, values)
    scored = find_score(session, seat, s)
    if scored is not None:
        messages.append(_scored_again(session, table, seat, s, scored))
    return Saved(sheet, messages, gorgon_pending(table, sheet))


def _scored_again(session: Session, table: Table, seat: Seat, s: int, record: SeasonScoreRecord) -> Text:
    """A season scored before this save is scored again from the map saved,
    as "Score again" would: its score, the seat's total and the standings
    follow the map. A play-test's player fixed her winter coins after
    scoring, and her score page and the standings kept the old total with
    nothing to say it was out of date. Where the map saved cannot be
    scored yet (a hero without its card, the Gorgon's gaze to choose), the
    score stays as it was (``record``), and the sentence says why."""
    was = record.total
    name = SEASON_NAMES[SEASONS[s]]
    try:
        record = scoring.score(session, table, seat, s, (record.detail or {}).get("shapeless", []))
    except Refused as refused:
        return _(
            "%(season)s's score is still from the map as it was when scored (%(total)d ★): %(why)s",
            season=name,
            total=was,
            why=refused.args[0],
        )
    if record.total == was:
        return _("%(season)s was scored again from this map: still %(total)d ★.", season=name, total=was)
    return _(
        "%(season)s was scored again from this map: %(total)d ★ (it was %(was)d).",
        season=name,
        total=record.total,
        was=was,
    )
