"""Where a card's shape can lie among given spaces, turned or flipped.

A map shows spaces, not the shapes drawn on it: to say which card drew a
group of spaces (a photo's monsters, say), the card's shape is looked for
among them. "The chosen shape can be rotated and/or flipped as desired
before it is drawn", and a neighbour drawing an ambush's monster draws it
as any shape is drawn, so every one of the eight ways counts.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from referee.rules.geometry import Cell

Placement = frozenset[Cell]


def _normal(cells: Iterable[Cell]) -> Placement:
    """``cells`` moved so that their top row and left column are 0."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def orientations(cells: Collection[Cell]) -> tuple[Placement, ...]:
    """The distinct ways a shape can be drawn: its four quarter turns,
    flipped and not, each moved to the top left corner (one way for a 1x1,
    eight for a shape with no symmetry)."""
    seen: dict[Placement, None] = {}
    for flipped in (False, True):
        turned = [(r, -c) if flipped else (r, c) for r, c in cells]
        for _quarter in range(4):
            seen.setdefault(_normal(turned))
            turned = [(c, -r) for r, c in turned]  # a quarter turn clockwise
    return tuple(seen)


def placements(cells: Collection[Cell], within: Collection[Cell]) -> list[Placement]:
    """Every place where the shape (``cells``), turned or flipped, lies
    wholly on the spaces ``within``: each placement once, as the spaces
    it covers."""
    spaces = frozenset(within)
    found: dict[Placement, None] = {}
    for shape in orientations(cells):
        anchor = min(shape)
        for r, c in spaces:
            dr, dc = r - anchor[0], c - anchor[1]
            placed = frozenset((sr + dr, sc + dc) for sr, sc in shape)
            if placed <= spaces:
                found.setdefault(placed)
    return list(found)
