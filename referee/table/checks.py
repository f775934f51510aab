"""What the grid editor sends, checked before anything is stored.

The editor's JSON comes from a page anyone can change, so every field is
checked here for its type and its place in the game: a coin count is a
number, a space is a row and column on the grid, a monster tag names one of
this table's ambush cards and covers monster spaces, a hero is a hero card
on a hero space. Each refusal (400) is one sentence the player can act on.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from referee.rules import heroes, terrain
from referee.rules.geometry import SIZE, Cell, where
from referee.rules.i18n import Name, Text, _
from referee.rules.sheet import MapSheet
from referee.table.deal import hero_cards
from referee.table.errors import BAD_INPUT, Refused
from referee.table.state import Table


def whole_number(value: Any, refusal: Text) -> int:
    """``value`` when it is an integer (not a boolean), else ``refusal`` (400)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(BAD_INPUT, refusal)
    return value


def space(value: Any) -> Cell:
    """A space on the grid, sent as ``[row, col]`` counted from 0."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in value)
    ):
        raise Refused(BAD_INPUT, _("A space must be a row and a column from 1 to 11."))
    return (value[0], value[1])


def check_monsters(table: Table, themap: MapSheet, raw: Any) -> list[dict[str, Any]]:
    """Monster tags as sent by the editor, checked: a known ambush of this
    table, each space holding a monster (or a destroyed monster)."""
    if not isinstance(raw, list):
        raise Refused(BAD_INPUT, _("The page sent the monster tags in a form the referee does not know."))
    allowed = set(table.setup.ambushes)
    merged: dict[str, set[Cell]] = {}
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("ambush"), str):
            raise Refused(BAD_INPUT, _("Each monster tag names its ambush card."))
        name = item["ambush"]
        if name not in allowed:
            raise Refused(BAD_INPUT, _("%(ambush)s is not one of this table's ambush cards.", ambush=name))
        raw_spaces = item.get("spaces", [])
        if not isinstance(raw_spaces, list):
            raise Refused(
                BAD_INPUT,
                _(
                    "The page sent the %(ambush)s's spaces in a form the referee does not know.",
                    ambush=Name("ambush", name),
                ),
            )
        spaces = {space(v) for v in raw_spaces}
        for at in spaces:
            code = themap.at(*at)
            if code not in (terrain.MONSTER, terrain.DESTROYED):
                raise Refused(
                    BAD_INPUT,
                    _(
                        "%(space)s is tagged as the %(ambush)s but holds %(terrain)s, not a monster.",
                        space=where(*at),
                        ambush=Name("ambush", name),
                        terrain=terrain.LABELS[code],
                    ),
                )
        merged.setdefault(name, set()).update(spaces)
    return [{"ambush": n, "spaces": sorted([r, c] for r, c in s)} for n, s in merged.items() if s]


def check_heroes(
    themap: MapSheet, raw: Any, before: list[dict[str, Any]], revealed: Collection[str] | None
) -> list[dict[str, Any]]:
    """Heroes as sent: a hero card, a space and an orientation each. A new
    hero must be one whose card has been revealed (``revealed``; None in a
    game without hero cards, which refuses every hero after this), and its
    space must hold the hero, or be destroyed: "If a hero space is destroyed,
    that hero's attack pattern remains active", and a hero drawn and
    destroyed in one season reaches the referee as one save.
    No hero card is drawn twice: once resolved, it goes back to the box."""
    if not isinstance(raw, list):
        raise Refused(BAD_INPUT, _("The page sent the heroes in a form the referee does not know."))
    known = {(h["hero"], tuple(h["at"])) for h in before}
    out = []
    for item in raw:
        hero = item.get("hero") if isinstance(item, dict) else None
        if not isinstance(hero, str) or hero not in hero_cards():
            raise Refused(BAD_INPUT, _("Choose which hero card each hero on the map is."))
        at = space(item.get("at"))
        try:
            orientation = heroes.Orientation(item.get("orientation", heroes.Orientation.PRINTED.value))
        except ValueError:
            raise Refused(BAD_INPUT, _("A hero's attack pattern is printed, rotated or flipped.")) from None
        code = themap.at(*at)
        old = (item["hero"], at) in known
        if not old and revealed is not None and hero not in revealed:
            raise Refused(
                BAD_INPUT,
                _(
                    "%(hero)s has not come out yet: a hero is drawn once its card is revealed.",
                    hero=Name("hero", hero),
                ),
            )
        if code not in (terrain.HERO, terrain.DESTROYED):
            raise Refused(
                BAD_INPUT,
                _(
                    "%(space)s is given the hero %(hero)s but holds no hero.",
                    space=where(*at),
                    hero=Name("hero", item["hero"]),
                ),
            )
        out.append({"hero": item["hero"], "at": [at[0], at[1]], "orientation": orientation.value})
    named = [h["hero"] for h in out]
    twice = next((hero for hero in named if named.count(hero) > 1), None)
    if twice is not None:  # the card goes back to the box once drawn: it never comes out again
        raise Refused(
            BAD_INPUT,
            _(
                "%(hero)s is on the map twice: each hero card is drawn once, when it is revealed.",
                hero=Name("hero", twice),
            ),
        )
    return out


def check_no_hero_space(themap: MapSheet) -> None:
    """A game without hero cards has no hero spaces: a hero is drawn only
    when its hero card is revealed. (A typed map could hold one.)"""
    first = next(themap.spaces_of(terrain.HERO), None)
    if first is not None:
        raise Refused(
            BAD_INPUT,
            _(
                "%(space)s holds a hero, but there are no hero cards in this game.",
                space=where(*divmod(first, SIZE)),
            ),
        )
