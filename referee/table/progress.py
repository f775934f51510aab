"""Where the table stands, in a sentence for the sheets page: which season is
on or has ended, and whose sheets still wait to be scored.

The host may reveal the next season's first card before every sheet of the
season before is scored (the rulebook has the players score together, but a
table's phones do not wait for each other), so the sentence names the
players still to score an ended season, not only the season now on.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.orm import Session

from referee.rules.i18n import Joined, Text, _, join
from referee.table.ambushes import WINTER, pending_effects
from referee.table.deal import SEASON_NAMES, SEASONS
from referee.table.records import find_sheet, scores_by_seat
from referee.table.state import Table


def unscored(table: Table, scores: Mapping[int, Mapping[int, object]], s: int) -> list[str]:
    """The players, in seat order, with no score for season ``s`` (``scores``:
    seat id, then season index, as ``records.scores_by_seat`` gives them)."""
    return [seat.name for seat in table.seats if s not in scores.get(seat.id, {})]


def left_unscored(session: Session, table: Table) -> list[str]:
    """At a season's end, before the next season's first card: the players,
    in seat order, with no score for the season that ended, when the table
    records its sheets here (a sheet of that season was opened or scored).

    The host is asked before starting the next season over them: the sheets
    page tells every player to score first, and a reveal does not wait for
    the phones. A table that deals here and scores on paper opens no sheet
    and is never asked."""
    if not table.position.season_over or table.position.game_over:
        return []
    now = table.current
    scores = scores_by_seat(session, table)
    waiting = unscored(table, scores, now)
    if waiting and any(now in scores[seat.id] or find_sheet(session, seat, now) for seat in table.seats):
        return waiting
    return []


def before_next_season(session: Session, table: Table) -> Text | None:
    """What to ask the host before the next season's first card, if anything
    (``left_unscored``)."""
    waiting = left_unscored(session, table)
    if not waiting:
        return None
    now = table.current
    return _(
        "%(season)s is not scored yet for %(names)s. Start %(next)s anyway? "
        "They can still score %(lower)s afterwards.",
        season=SEASON_NAMES[SEASONS[now]],
        names=join(waiting),
        next=SEASON_NAMES[SEASONS[now + 1]].lower(),
        lower=SEASON_NAMES[SEASONS[now]].lower(),
    )


def where_now(
    table: Table, scores: Mapping[int, Mapping[int, object]], effects: Mapping[int, int] | None = None
) -> Text:
    """Which season is on, or that it has ended and waits to be scored, and
    which ended season still has sheets to score, or ambush effects to
    apply (``effects``, as ``effects_to_confirm`` gives them)."""
    now = table.current
    name = SEASON_NAMES[SEASONS[now]]
    if table.position.season_over:
        waiting = unscored(table, scores, now)
        if table.position.game_over:
            if not waiting:
                return _("Winter has ended and every sheet is scored: see the standings.")
            return _(
                "Winter has ended: score every sheet, then see the standings. Still to score: %(names)s.",
                names=Joined(waiting, ", "),
            )
        following = SEASON_NAMES[SEASONS[now + 1]].lower()
        applying = [seat.name for seat in table.seats if (effects or {}).get(seat.id) == now]
        if not waiting and applying:
            return _(
                "%(season)s has ended and every sheet is scored; the ambushes' effects still wait "
                "to be applied: %(names)s.",
                season=name,
                names=Joined(applying, ", "),
            )
        if not waiting:
            return _(
                "%(season)s has ended and every sheet is scored: %(next)s begins with the next card.",
                season=name,
                next=following,
            )
        return _(
            "%(season)s has ended: score every sheet before %(next)s begins. Still to score: %(names)s.",
            season=name,
            next=following,
            names=Joined(waiting, ", "),
        )
    if now > 0 and (waiting := unscored(table, scores, now - 1)):
        return _(
            "%(season)s is on. %(before)s still to score: %(names)s.",
            season=name,
            before=SEASON_NAMES[SEASONS[now - 1]],
            names=Joined(waiting, ", "),
        )
    return _("%(season)s is on.", season=name)


def effects_to_confirm(
    session: Session, table: Table, scores: Mapping[int, Mapping[int, object]]
) -> dict[int, int]:
    """Seat id to the season whose after-scoring ambush effects (the Zombie
    Plague, the Giant Troll Ravage) that seat has still to confirm: its last
    season scored, before winter, whose next sheet has not begun (it cannot
    begin until they are confirmed)."""
    out = {}
    for seat in table.seats:
        scored = [s for s in scores.get(seat.id, {}) if s < WINTER]
        if not scored:
            continue
        s = max(scored)
        sheet = find_sheet(session, seat, s)
        if sheet is not None and find_sheet(session, seat, s + 1) is None and pending_effects(table, sheet):
            out[seat.id] = s
    return out
