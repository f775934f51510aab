"""What the grid editor sends, checked before anything is stored.

The editor's JSON comes from a page anyone can change, so every field is
checked here for its type and its place in the game: a coin count is a
number, a space is a row and column on the grid, a monster tag names one of
this table's ambush cards and covers monster spaces, a hero is a hero card
on a hero space. Each refusal (400) is one sentence the player can act on.
The hero cards the editor's Hero brush offers (``hero_choices``) sit beside
the check of the heroes it sends, so that the page offers what a save accepts.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
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


@dataclass(frozen=True)
class HeroChoices:
    """The hero cards the editor's Hero brush offers on a season's sheet.

    Each hero card is drawn once on a map: "when a hero card is revealed,
    each player draws a 1x1 square anywhere on their map" and then "discard
    the hero card and return it to the game box" (``heroes.most_hero_spaces``),
    so ``check_heroes`` refuses a map that holds one twice. A card the map
    holds already is offered only to turn its pattern or to move it (the
    page chooses it when its hero is tapped), never to draw a second."""

    offered: list[str]
    """The cards revealed from the first season to this one, and any the map
    holds besides, in the box's order."""
    on_map: list[str]
    """The offered cards this map holds already, on a hero space or on one
    destroyed since."""
    chosen: str | None
    """The card the brush starts on: the last revealed that the map does not
    hold yet (the hero to draw now), else the last revealed, else the last the
    map holds; None when it offers none."""

    @property
    def taken(self) -> list[str]:
        """The cards on the map other than the chosen one: not offered to draw."""
        return [name for name in self.on_map if name != self.chosen]


def hero_choices(table: Table, s: int, drawn: list[dict[str, Any]]) -> HeroChoices:
    """What the Hero brush offers on season ``s``'s sheet of a map whose
    heroes are ``drawn`` (as stored: a card and a space each)."""
    revealed = table.heroes_named(s) if table.heroes else []
    held = {h["hero"] for h in drawn}
    offered = [name for name in hero_cards() if name in revealed or name in held]
    on_map = [name for name in offered if name in held]
    to_draw = [name for name in revealed if name not in held]
    starts = to_draw or revealed or on_map
    return HeroChoices(offered, on_map, starts[-1] if starts else None)


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
