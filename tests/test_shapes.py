"""Where a card's shape lies among spaces (``rules.shapes``), counted by hand
from each ambush card's shape as ``referee/data/ambush_cards.json`` prints it."""

from __future__ import annotations

import pytest

from referee.rules import shapes
from referee.rules.data import ambush_cards


@pytest.mark.parametrize(
    ("ambush", "ways"),
    [
        ("Zombie Plague", 1),  # one space
        ("Goblin Attack", 2),  # a diagonal of three: falling or rising
        ("Bugbear Assault", 2),  # two dominoes a space apart: standing or lying
        ("Gorgon Gaze", 4),  # X.X over .X.: a V pointing down, up, left or right
        ("Giant Troll Ravage", 4),  # a T of four: its stem down, up, left or right
        ("Kobold Onslaught", 4),  # a T of four, printed stem right
        ("Gnoll Raid", 4),  # a U of five: open right, left, down or up
        ("Dragon Inferno", 4),  # one space, a row of three, one space: a Z of five, turned or flipped
    ],
)
def test_each_ambush_shape_can_be_drawn_so_many_ways(ambush: str, ways: int) -> None:
    cells = {a.name: a for a in ambush_cards()}[ambush].shape.cells
    turned = shapes.orientations(cells)
    assert len(turned) == ways
    assert all(len(t) == len(cells) and min(r for r, _ in t) == 0 == min(c for _, c in t) for t in turned)


def test_a_shape_is_found_turned_and_flipped_among_spaces() -> None:
    """The Gorgon (X.X over .X.) turned a quarter: a V pointing left, at rows 4 to 6."""
    gorgon = {a.name: a for a in ambush_cards()}["Gorgon Gaze"].shape.cells
    spaces = {(4, 7), (5, 6), (6, 7)}
    assert shapes.placements(gorgon, spaces) == [frozenset(spaces)]
    assert shapes.placements(gorgon, spaces | {(9, 9)}) == [frozenset(spaces)]
    assert shapes.placements(gorgon, {(4, 7), (5, 6), (6, 6)}) == []


def test_every_placement_within_a_block_is_counted_once() -> None:
    """An L of three within a 2x2 block: four placements, one per space left out."""
    block = {(0, 0), (0, 1), (1, 0), (1, 1)}
    found = shapes.placements(((0, 0), (1, 0), (1, 1)), block)
    assert sorted(sorted(p) for p in found) == sorted(sorted(block - {left}) for left in block)
