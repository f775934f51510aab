"""The map codes: one character for each thing a space of the map can hold.

The canonical text form of a map is 11 lines of 11 of these characters. Ruins
are not a code of their own: they are printed on the map side, and a ruins
space holds whatever is drawn on it.
"""

from __future__ import annotations

from referee.rules.i18n import Text, pgettext

EMPTY = "."
FOREST = "F"
VILLAGE = "V"
FARM = "A"
WATER = "W"
MONSTER = "M"
HERO = "H"
DESTROYED = "X"
MOUNTAIN = "^"
WASTELAND = "#"

#: Every code with its rulebook name.
NAMES: dict[str, str] = {
    EMPTY: "empty",
    FOREST: "forest",
    VILLAGE: "village",
    FARM: "farm",
    WATER: "water",
    MONSTER: "monster",
    HERO: "hero",
    DESTROYED: "destroyed",
    MOUNTAIN: "mountain",
    WASTELAND: "wasteland",
}

#: Every code's name for a person, in the reader's language (the Czech
#: rulebook's terrain names: les, vesnice, farma, voda, nestvůra, hrdina, hora).
LABELS: dict[str, Text] = {
    EMPTY: pgettext("terrain", "empty"),
    FOREST: pgettext("terrain", "forest"),
    VILLAGE: pgettext("terrain", "village"),
    FARM: pgettext("terrain", "farm"),
    WATER: pgettext("terrain", "water"),
    MONSTER: pgettext("terrain", "monster"),
    HERO: pgettext("terrain", "hero"),
    DESTROYED: pgettext("terrain", "destroyed"),
    MOUNTAIN: pgettext("terrain", "mountain"),
    WASTELAND: pgettext("terrain", "wasteland"),
}

#: Codes by rulebook name, for data files that name terrains in words.
BY_NAME: dict[str, str] = {name: code for code, name in NAMES.items()}

#: The terrain types. Hero counts wherever a card counts terrain types
#: ("hero terrain counts as a valid terrain type for any scoring cards that
#: reference terrain types"). Wasteland and destroyed spaces have none.
TERRAIN_TYPES = frozenset({FOREST, VILLAGE, FARM, WATER, MONSTER, MOUNTAIN, HERO})

#: What a player may draw on an empty space (mountains and wastelands are printed).
DRAWN = frozenset({FOREST, VILLAGE, FARM, WATER, MONSTER, HERO, DESTROYED})

#: Printed on the sheet, never drawn.
PRINTED = frozenset({MOUNTAIN, WASTELAND})

ALL_CODES = frozenset(NAMES)


def is_filled(code: str) -> bool:
    """A space is filled when anything is on it: drawn terrain, a destroyed
    mark, a mountain or a wasteland. An empty ruins space is not filled."""
    return code != EMPTY
