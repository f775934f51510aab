"""What ambush cards do to a sheet at a table: the Heroes effects and the solo helper.

The rules say what each ambush does (``referee.rules.heroes``, ``.solo``);
this module finds the sheet they act on and remembers what has been done.
The Gorgon's gaze destroys a space the player chooses once the Gorgon is
drawn, and the season is not scored while it waits; the Zombie Plague and
the Giant Troll Ravage act after each season is scored and wait for the
player to confirm them (and choose the troll's space); the next season's
sheet starts from the map with them applied. After winter the game is over
and they would change nothing, so they are not offered. In a solo game the
rules, not a neighbour, say where an ambush's monster goes.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from referee.rules import heroes, solo, terrain
from referee.rules.geometry import SIZE, Cell
from referee.rules.i18n import Name, Text, _
from referee.rules.sheet import MapSheet
from referee.store.models import Seat
from referee.store.sheets import SeasonSheet
from referee.table.deal import SEASONS, ambush_cards
from referee.table.errors import BAD_INPUT, CONFLICT, Refused, SheetPage
from referee.table.records import find_score, find_sheet, map_of, patterns_of, tags_of, write_sheet
from referee.table.state import Table

#: The ambushes whose effect acts after scoring each season.
AFTER_SCORING = (heroes.ZOMBIE_PLAGUE, heroes.GIANT_TROLL_RAVAGE)

#: The last season's index: winter.
WINTER = SEASONS.index("winter")

#: Why a season is not scored while the Gorgon's gaze waits: the space it
#: destroys is filled from then on, and may split a cluster.
GORGON_WAITS = _(
    "%(ambush)s waits: choose the space next to the Gorgon that it destroys, "
    "in the box above the map, then score.",
    ambush=Name("ambush", heroes.GORGON_GAZE),
)

#: Why the after-scoring effects are not applied after winter.
NOTHING_AFTER_WINTER = _(
    "Winter is the last season: the game ends once it is scored, so the %(zombies)s and the "
    "%(troll)s have no map left to change.",
    zombies=Name("ambush", heroes.ZOMBIE_PLAGUE),
    troll=Name("ambush", heroes.GIANT_TROLL_RAVAGE),
)


# --- the Gorgon's gaze -----------------------------------------------------------------------------


def gorgon_pending(table: Table, sheet: SeasonSheet) -> list[Cell]:
    """The spaces the Gorgon may destroy, while its gaze is not yet done.

    Gorgon Gaze: "immediately after the Gorgon is drawn, destroy one
    non-mountain space adjacent to it." So it is done before the season is
    scored (``scoring.score`` refuses while it waits). A Gorgon with no space
    it could destroy has no gaze waiting."""
    if (sheet.effects or {}).get("gorgon_done"):
        return []
    themap = map_of(table, sheet)
    for tag in tags_of(sheet):
        if tag.ambush == heroes.GORGON_GAZE:
            return sorted(heroes.gorgon_targets(themap, tag.spaces))
    return []


def gorgon_drawn(table: Table, sheet: SeasonSheet) -> list[Cell]:
    """The destroyed spaces next to the Gorgon, for a sheet whose gaze waits
    (``gorgon_pending``; the caller knows): the gaze as already drawn on the
    paper sheet, which the player may name instead of destroying a space here."""
    gorgon = next((t for t in tags_of(sheet) if t.ambush == heroes.GORGON_GAZE), None)
    if gorgon is None:
        return []
    return sorted(heroes.gorgon_already_destroyed(map_of(table, sheet), gorgon.spaces))


def gorgon_sheet(session: Session, table: Table, seat: Seat, s: int) -> SeasonSheet:
    """The seat's sheet for season ``s``, when a Gorgon's gaze waits on it."""
    sheet = find_sheet(session, seat, s)
    if sheet is None or not gorgon_pending(table, sheet):
        raise Refused(CONFLICT, _("There is no Gorgon gaze waiting on this sheet."))
    return sheet


def apply_gorgon(session: Session, table: Table, sheet: SeasonSheet, seen: int, at: Cell) -> None:
    """Destroy the space ``at`` the Gorgon gazes on, from a page showing
    revision ``seen``; a space already destroyed next to the Gorgon is the
    gaze as drawn on paper, and the map stays as it is."""
    gorgon = next(t for t in tags_of(sheet) if t.ambush == heroes.GORGON_GAZE)
    themap = map_of(table, sheet)
    if at not in heroes.gorgon_already_destroyed(themap, gorgon.spaces):
        themap = heroes.gorgon_gaze(themap, gorgon.spaces, at)
    effects = dict(sheet.effects or {}, gorgon_done=True)
    write_sheet(session, sheet, seen, {"map_text": themap.text(), "effects": effects})


# --- which monsters an ambush drew -----------------------------------------------------------------


def acting_ambushes(season: int) -> tuple[str, ...]:
    """The ambushes whose effect acts by their monsters on a sheet of
    ``season``: the Gorgon's gaze and the Dragon's coins always, the zombies'
    spread and the troll's ravage but after winter, when nothing follows."""
    if season >= WINTER:
        return (heroes.DRAGON_INFERNO, heroes.GORGON_GAZE)
    return (heroes.DRAGON_INFERNO, heroes.GORGON_GAZE) + AFTER_SCORING


def ambushes_untold(table: Table, sheet: SeasonSheet, shapeless: Collection[str] = ()) -> list[str]:
    """The ambushes of the sheet's season that act by their monsters but tag
    none of its spaces, while monster spaces on it have no tag: every ambush
    revealed has its monster drawn on every map ("each player draws the
    depicted monster shape on their neighbor's map ... and writes the
    initial of the monster"), so one of those spaces is its, and its effect
    would be lost unsaid.

    Those the player names in ``shapeless`` are left out: "if a player
    cannot legally draw the depicted monster shape on their neighbor's map,
    they instead draw a 1x1 square anywhere ... but do not write the initial
    of the monster", and a monster with no initial has no tag."""
    tags = tags_of(sheet)
    tagged = {at for t in tags for at in t.spaces}
    themap = map_of(table, sheet)
    loose = any(
        themap.at(r, c) == terrain.MONSTER and (r, c) not in tagged for r in range(SIZE) for c in range(SIZE)
    )
    if not loose:
        return []
    on_map = {t.ambush for t in tags}
    acting = acting_ambushes(sheet.season)
    return [
        a
        for a in dict.fromkeys(table.ambushes_revealed(sheet.season))
        if a in acting and a not in on_map and a not in shapeless
    ]


def ambush_untold_refusal(names: list[str]) -> Text:
    """Why a season is not scored while ``ambushes_untold`` names these."""
    return _(
        "Which monsters did %(ambush)s draw? Tap them with the Monster brush, its ambush chosen, "
        "save, then score: its effect acts on them. If its shape could not be drawn on this map, "
        "tick that under the Score button.",
        ambush=Name("ambush", names[0]),
    )


# --- after scoring: the Zombie Plague and the Giant Troll Ravage ----------------------------------


def pending_effects(table: Table, sheet: SeasonSheet) -> list[str]:
    """The after-scoring effects this sheet's monsters still need confirmed.

    None after winter: "resolve them now ... If the current season is winter,
    the game is now over." Winter's spread or ravage comes after the last
    scoring, and no season starts from its map, so it changes nothing."""
    if sheet.season >= WINTER or (sheet.effects or {}).get("after_scoring"):
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


@dataclass(frozen=True)
class Waiting:
    """The after-scoring effects a scored sheet shows its player before the next season."""

    pending: list[str]
    """The ambushes still to confirm, in the order their tags were drawn."""
    zombies: list[Cell] | None
    """Where the zombies spread; None when no Zombie Plague waits."""
    troll: list[Cell] | None
    """The spaces the troll may destroy; None when no Giant Troll Ravage waits."""
    done: bool
    """Whether the player has confirmed the effects."""


def waiting_effects(table: Table, sheet: SeasonSheet) -> Waiting:
    """What the after-scoring ambushes will do to this sheet, for the player to confirm."""
    pending = pending_effects(table, sheet)
    themap = map_of(table, sheet)
    zombies = troll = None
    for tag in tags_of(sheet):
        if tag.ambush == heroes.ZOMBIE_PLAGUE and tag.ambush in pending:
            zombies = sorted(heroes.zombie_spread(themap, tag.spaces))
        if tag.ambush == heroes.GIANT_TROLL_RAVAGE and tag.ambush in pending:
            troll = sorted(heroes.troll_targets(themap, tag.spaces))
    return Waiting(pending, zombies, troll, bool((sheet.effects or {}).get("after_scoring")))


def confirm_effects(session: Session, table: Table, seat: Seat, s: int, troll: Cell | None) -> None:
    """Record that the player confirmed the after-scoring effects (and the troll's space)."""
    if s >= WINTER:
        raise Refused(CONFLICT, NOTHING_AFTER_WINTER, SheetPage("score", s))
    sheet = find_sheet(session, seat, s)
    if sheet is None or find_score(session, seat, s) is None:
        raise Refused(
            CONFLICT, _("Score the season before applying the ambushes' effects."), SheetPage("sheet", s)
        )
    if find_sheet(session, seat, s + 1) is not None:
        raise Refused(CONFLICT, _("The next season has already begun from this map."))
    resolve(table, sheet, troll)  # DrawingError when the troll's space is not allowed
    effects = dict(sheet.effects or {}, after_scoring=True)
    if troll is not None:
        effects["troll"] = [troll[0], troll[1]]
    sheet.effects = effects
    session.commit()


# --- solo: where an ambush's monster goes ------------------------------------------------------------


def solo_help(table: Table, text: Any, ambush: Any) -> dict[str, Any]:
    """Where the solo rules draw an ambush's monster on the map as the editor shows it."""
    if not isinstance(text, str):
        raise Refused(BAD_INPUT, _("The page sent no map; reload it and try again."))
    card = ambush_cards().get(ambush) if isinstance(ambush, str) else None
    if card is None or card.name not in table.setup.ambushes:
        raise Refused(BAD_INPUT, _("Choose one of this table's ambush cards."))
    themap = MapSheet.parse(text, table.side)
    placement = solo.place_solo_ambush(themap, card)
    return {
        "ambush": card.name,
        "spaces": sorted([r, c] for r, c in placement.spaces) if placement else [],
        "sentence": solo.solo_sentence(card, placement),
    }
