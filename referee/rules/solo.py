"""Solo mode: where an ambush's monster goes when no neighbour draws it.

"Attempt to legally draw the monster shape on your map sheet, without
flipping or rotating it. Start in the corner indicated by the ambush card and
proceed all the way around the edge of the map in the direction indicated by
the arrow. If you cannot legally draw the monster shape anywhere around the
edge of the map, move one space in from the edge and attempt it again. Start
in the same corner and proceed in the same direction as before. Repeat this
process, moving one space further in from the edge of the map each time,
until you are able to legally draw the monster shape -OR- confirm that it
cannot be legally drawn. If the monster shape cannot be legally drawn,
disregard the ambush card." (Heroes rulebook, Solo Mode)

What "drawing along the edge" means for a shape larger than one space is not
spelled out; this module reads it as sliding the card's shape round the
inside of a ring, the way a player runs it along the map with a finger:

- Ring 0 is the edge of the map, ring 1 the spaces one in from it, and so on
  to ring 5, the centre space.
- On ring ``k`` the shape's bounding box stays inside the square that ring
  ``k`` encloses and touches at least one of its sides. For every printed
  monster each side of the bounding box holds a space of the shape, so this
  is the same as "at least one space of the shape lies on ring ``k``".
- The box starts in the card's corner of that square and slides all the way
  round it, clockwise or counterclockwise as the arrow says, one space at a
  time; the first position where the shape can be legally drawn wins.
- Legally drawn: every space of the shape is on the map and empty ("the
  chosen shape cannot overlap filled spaces or the edge of the map"; an empty
  ruins space is fine). The gaps inside a shape, like the two spaces between
  the Bugbear Assault's monsters, may hold anything.

A placement found on ring ``k`` never reaches outside ring ``k``'s square:
if it did, it would touch an outer ring and have been found there first.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from referee.rules.data import CORNERS, DIRECTIONS, AmbushCard
from referee.rules.geometry import SIZE, Cell, index, where_all
from referee.rules.i18n import Name, Text, _, ngettext
from referee.rules.sheet import MapSheet
from referee.rules.terrain import EMPTY, MONSTER

#: The innermost ring: the centre space of the 11x11 map.
LAST_RING = (SIZE - 1) // 2


@dataclass(frozen=True)
class Placement:
    """Where the solo rules draw an ambush's monster."""

    ambush: str
    spaces: frozenset[Cell]
    """The monster's spaces, ``(row, col)`` from 0."""
    ring: int
    """0 on the edge of the map, 1 one space in from it, and so on."""
    anchor: Cell
    """The top-left corner of the shape's bounding box."""

    def sentence(self) -> Text:
        """Where the monster goes, in a player's words."""
        spaces = where_all(self.spaces)
        if self.ring == 0:
            return _(
                "Draw the %(ambush)s monster along the edge of the map: %(spaces)s.",
                ambush=Name("ambush", self.ambush),
                spaces=spaces,
            )
        return ngettext(
            "Draw the %(ambush)s monster %(num)d space in from the edge of the map: %(spaces)s.",
            "Draw the %(ambush)s monster %(num)d spaces in from the edge of the map: %(spaces)s.",
            self.ring,
            ambush=Name("ambush", self.ambush),
            spaces=spaces,
        )


def ring_of(at: Cell) -> int:
    """How many spaces in from the edge of the map a space lies."""
    row, col = at
    return min(row, col, SIZE - 1 - row, SIZE - 1 - col)


def _shape(ambush: AmbushCard) -> tuple[tuple[Cell, ...], int, int]:
    """The shape's spaces relative to the top left of its bounding box, and
    the box's height and width. The shape is never rotated or flipped."""
    cells = ambush.shape.cells
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    offsets = tuple((r - top, c - left) for r, c in cells)
    return offsets, max(r for r, _ in offsets) + 1, max(c for _, c in offsets) + 1


def _round_rectangle(top: int, left: int, bottom: int, right: int, corner: str, direction: str) -> list[Cell]:
    """Every position on the border of a rectangle, once each, starting at
    ``corner`` and going round in ``direction``."""
    start = {
        "top-left": (top, left),
        "top-right": (top, right),
        "bottom-right": (bottom, right),
        "bottom-left": (bottom, left),
    }[corner]
    if top == bottom or left == right:
        # The border is a single line: from the corner to its other end,
        # whichever way round the arrow points.
        line = [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)]
        return line if line[0] == start else line[::-1]
    clockwise: list[Cell] = []
    clockwise += [(top, c) for c in range(left, right + 1)]
    clockwise += [(r, right) for r in range(top + 1, bottom + 1)]
    clockwise += [(bottom, c) for c in range(right - 1, left - 1, -1)]
    clockwise += [(r, left) for r in range(bottom - 1, top, -1)]
    n = clockwise.index(start)
    walk = clockwise[n:] + clockwise[:n]
    if direction == "counterclockwise":
        walk = walk[:1] + walk[:0:-1]
    return walk


def solo_order(ambush: AmbushCard) -> Iterator[tuple[int, Cell]]:
    """Every position the solo rules try, in order, as ``(ring, anchor)``
    where the anchor is the top-left corner of the shape's bounding box."""
    if ambush.solo_corner not in CORNERS or ambush.solo_direction not in DIRECTIONS:
        raise ValueError(f"{ambush.name}: no solo corner or direction on the card")
    _, height, width = _shape(ambush)
    for ring in range(LAST_RING + 1):
        far = SIZE - 1 - ring
        bottom, right = far - height + 1, far - width + 1
        if bottom < ring or right < ring:
            return
        for anchor in _round_rectangle(ring, ring, bottom, right, ambush.solo_corner, ambush.solo_direction):
            yield ring, anchor


def place_solo_ambush(sheet: MapSheet, ambush: AmbushCard) -> Placement | None:
    """The first place, in the solo order, where the monster can be legally
    drawn; None when it fits nowhere and the ambush card is disregarded."""
    offsets, _, _ = _shape(ambush)
    codes = sheet.codes
    for ring, (top, left) in solo_order(ambush):
        spaces = [(top + dr, left + dc) for dr, dc in offsets]
        if all(codes[index(r, c)] == EMPTY for r, c in spaces):
            return Placement(ambush.name, frozenset(spaces), ring, (top, left))
    return None


def draw_solo_ambush(sheet: MapSheet, placement: Placement) -> MapSheet:
    """The map with the monster drawn where the solo rules put it."""
    return sheet.with_codes({index(r, c): MONSTER for r, c in placement.spaces})


def solo_sentence(ambush: AmbushCard, placement: Placement | None) -> Text:
    """What the ambush helper tells the player."""
    if placement is None:
        return _(
            "The %(ambush)s monster cannot be legally drawn anywhere on the map: disregard the ambush card.",
            ambush=Name("ambush", ambush.name),
        )
    return placement.sentence()
