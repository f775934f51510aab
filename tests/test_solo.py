"""Solo ambush placement, each case worked out by hand from the solo rule.

"Start in the corner indicated by the ambush card and proceed all the way
around the edge of the map in the direction indicated by the arrow ... If you
cannot legally draw the monster shape anywhere around the edge of the map,
move one space in from the edge and attempt it again."

Side A (Wilderness) prints mountains at (row, col) from 0: (1,3) (2,8) (5,5)
(8,2) (9,7), and ruins (empty, so fine to draw on) at (1,5) (2,1) (2,9)
(8,1) (8,9) (9,5). The shapes are as printed in referee/data/ambush_cards.json.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.data import AmbushCard, ambush_cards
from referee.rules.geometry import SIZE
from referee.rules.sheet import MapSheet
from referee.rules.solo import (
    draw_solo_ambush,
    place_solo_ambush,
    ring_of,
    solo_order,
    solo_sentence,
)
from referee.rules.terrain import EMPTY, FOREST, MONSTER

Cell = tuple[int, int]


def ambush(name: str) -> AmbushCard:
    (card,) = [a for a in ambush_cards() if a.name == name]
    return card


def side_a(**drawn: list[Cell]) -> MapSheet:
    """Side A with ``code=[cells]`` drawn, e.g. ``side_a(F=[(0, 8)])``."""
    return MapSheet.blank("A").with_codes(
        {r * SIZE + c: code for code, cells in drawn.items() for r, c in cells}
    )


def edge() -> list[Cell]:
    return [(r, c) for r in range(SIZE) for c in range(SIZE) if ring_of((r, c)) == 0]


def fill_all_but(sheet: MapSheet, keep: set[Cell]) -> MapSheet:
    """Forest on every empty space except ``keep``."""
    return sheet.with_codes(
        {
            r * SIZE + c: FOREST
            for r in range(SIZE)
            for c in range(SIZE)
            if (r, c) not in keep and sheet.at(r, c) == EMPTY
        }
    )


# (ambush, spaces, why) on an empty side A map.
EMPTY_SIDE_A = [
    (
        "Goblin Attack",
        {(8, 8), (9, 9), (10, 10)},
        "bottom-right corner: the 3x3 diagonal's box at rows 8-10, columns 8-10; "
        "(8,8) (9,9) (10,10) are empty",
    ),
    (
        "Bugbear Assault",
        {(0, 8), (0, 10), (1, 8), (1, 10)},
        "top-right corner: the 2x3 box at rows 0-1, columns 8-10; its four monsters are empty",
    ),
    (
        "Kobold Onslaught",
        {(8, 0), (9, 0), (9, 1), (10, 0)},
        "bottom-left corner: the 3x2 box at rows 8-10, columns 0-1; the mountain (8,2) is outside it",
    ),
    (
        "Gnoll Raid",
        {(0, 0), (0, 1), (1, 0), (2, 0), (2, 1)},
        "top-left corner: the C shape at rows 0-2, columns 0-1; (2,1) is an empty ruins space, legal",
    ),
    (
        "Dragon Inferno",
        {(8, 3), (9, 1), (9, 2), (9, 3), (10, 1)},
        "bottom-left corner: box at rows 8-10, columns 0-2 puts the top-right space on the mountain "
        "(8,2); counterclockwise from bottom-left runs right along the bottom, so the next box is "
        "columns 1-3: (8,3) (9,1) (9,2) (9,3) (10,1) are empty",
    ),
    ("Zombie Plague", {(0, 0)}, "top-left corner: a single space, (0,0) is empty"),
    (
        "Giant Troll Ravage",
        {(0, 8), (0, 9), (0, 10), (1, 9)},
        "top-right corner: the T at rows 0-1, columns 8-10 is empty",
    ),
    (
        "Gorgon Gaze",
        {(9, 8), (9, 10), (10, 9)},
        "bottom-right corner: the 2x3 box at rows 9-10, columns 8-10; (9,8) (9,10) (10,9) are empty "
        "(the mountain (9,7) is outside it)",
    ),
]


@pytest.mark.parametrize(("name", "spaces", "why"), EMPTY_SIDE_A, ids=[c[0] for c in EMPTY_SIDE_A])
def test_each_ambush_on_an_empty_side_a_map(name: str, spaces: set[Cell], why: str) -> None:
    placement = place_solo_ambush(MapSheet.blank("A"), ambush(name))
    assert placement is not None
    assert placement.spaces == spaces, why
    assert placement.ring == 0


def test_every_ambush_card_is_in_the_table() -> None:
    assert {a.name for a in ambush_cards()} == {c[0] for c in EMPTY_SIDE_A}


def test_the_walk_starts_in_the_corner_and_follows_the_arrow() -> None:
    # Goblin Attack: bottom-right, counterclockwise. Counterclockwise from the
    # bottom-right corner goes up the right edge, so the box's top-left moves
    # (8,8) -> (7,8) -> (6,8). The 3x3 box has 9 places per side of the map
    # ((0..8)), 4 * 8 = 32 places round the edge, and fits on rings 0 to 4
    # (ring 4 is the 3x3 centre square: one place, (4,4)).
    order = list(solo_order(ambush("Goblin Attack")))
    assert order[:3] == [(0, (8, 8)), (0, (7, 8)), (0, (6, 8))]
    assert sum(1 for ring, _ in order if ring == 0) == 32
    assert order[32] == (1, (7, 7))
    assert order[-1] == (4, (4, 4))
    assert max(ring for ring, _ in order) == 4


def test_direction_decides_which_way_round() -> None:
    # Bugbear Assault, top-right, clockwise. Block (0,8) so the corner box
    # (rows 0-1, columns 8-10) fails. Clockwise goes down the right edge:
    #   box rows 1-2: (2,8) is a mountain -> illegal
    #   box rows 2-3: (2,8) again -> illegal
    #   box rows 3-4: (3,8) (3,10) (4,8) (4,10) all empty -> here.
    # Counterclockwise would go left along the top instead: box columns 7-9,
    # (0,7) (0,9) (1,7) (1,9) all empty.
    sheet = side_a(F=[(0, 8)])
    clockwise = place_solo_ambush(sheet, ambush("Bugbear Assault"))
    assert clockwise is not None
    assert clockwise.spaces == {(3, 8), (3, 10), (4, 8), (4, 10)}
    counter = place_solo_ambush(sheet, replace(ambush("Bugbear Assault"), solo_direction="counterclockwise"))
    assert counter is not None
    assert counter.spaces == {(0, 7), (0, 9), (1, 7), (1, 9)}


def test_bugbear_gaps_may_hold_anything() -> None:
    # The two spaces between the Bugbear's monsters, (0,9) and (1,9) in the
    # corner box, are filled; the monsters' own spaces are empty: legal.
    sheet = side_a(V=[(0, 9), (1, 9)])
    placement = place_solo_ambush(sheet, ambush("Bugbear Assault"))
    assert placement is not None
    assert placement.spaces == {(0, 8), (0, 10), (1, 8), (1, 10)}


def test_crowded_edge_moves_one_ring_in() -> None:
    # Every edge space is forest, so nothing with a space on the edge fits.
    # Kobold Onslaught, bottom-left, clockwise, on ring 1 (rows and columns
    # 1-9): the 3x2 box starts at rows 7-9, columns 1-2 and holds the mountain
    # (8,2) -> illegal. Clockwise from bottom-left goes up the left side:
    # box rows 6-8, columns 1-2: (6,1) (7,1) (7,2) (8,1) -- (8,1) is an empty
    # ruins space -> legal.
    sheet = side_a(F=edge())
    placement = place_solo_ambush(sheet, ambush("Kobold Onslaught"))
    assert placement is not None
    assert placement.ring == 1
    assert placement.spaces == {(6, 1), (7, 1), (7, 2), (8, 1)}
    assert "1 space in from the edge" in placement.sentence()


def test_a_gap_on_the_edge_too_small_for_the_shape_is_skipped() -> None:
    # Edge all forest except (0,4) and (0,5): the Giant Troll (3 wide) cannot
    # use them, so it goes to ring 1, top-right corner of rows/columns 1-9:
    # box rows 1-2, columns 7-9: (1,7) (1,8) (1,9) (2,8) -- (2,8) is a mountain.
    # Clockwise: down the right side, box rows 2-3: (2,7) (2,8)^ -> illegal;
    # box rows 3-4: (3,7) (3,8) (3,9) (4,8) all empty -> here.
    sheet = side_a(F=[at for at in edge() if at not in {(0, 4), (0, 5)}])
    placement = place_solo_ambush(sheet, ambush("Giant Troll Ravage"))
    assert placement is not None
    assert placement.ring == 1
    assert placement.spaces == {(3, 7), (3, 8), (3, 9), (4, 8)}
    # A single zombie does fit the gap: top-left, counterclockwise goes down the
    # left edge, then right along the bottom, up the right edge and left along
    # the top, reaching (0,5) before (0,4).
    zombie = place_solo_ambush(sheet, ambush("Zombie Plague"))
    assert zombie is not None
    assert zombie.spaces == {(0, 5)}


def test_deep_in_the_map() -> None:
    # Only (4,6) is empty: ring_of((4,6)) = min(4, 6, 6, 4) = 4.
    sheet = fill_all_but(MapSheet.blank("A"), {(4, 6)})
    placement = place_solo_ambush(sheet, ambush("Zombie Plague"))
    assert placement is not None
    assert (placement.ring, placement.spaces) == (4, frozenset({(4, 6)}))


def test_full_map_cannot_be_placed() -> None:
    sheet = fill_all_but(MapSheet.blank("A"), set())
    for card in ambush_cards():
        assert place_solo_ambush(sheet, card) is None
    assert "disregard the ambush card" in solo_sentence(ambush("Gnoll Raid"), None)


def test_no_room_for_the_shape_anywhere() -> None:
    # Empty spaces only on a checkerboard: no two empty spaces share a side,
    # so the Kobold (which has (1,0) and (1,1) side by side) fits nowhere.
    keep = {(r, c) for r in range(SIZE) for c in range(SIZE) if (r + c) % 2 == 0}
    sheet = fill_all_but(MapSheet.blank("A"), keep)
    assert place_solo_ambush(sheet, ambush("Kobold Onslaught")) is None
    # The Gorgon's spaces, (0,0) (0,2) (1,1) of its box, are diagonal to each
    # other, so it can fit. Bottom-right, clockwise: the box sits on rows 9-10
    # at columns c..c+2 and needs (9,c) (9,c+2) (10,c+1) empty, so c odd.
    #   c=8 (the corner): even -> illegal.  Clockwise = left along the bottom:
    #   c=7: (9,7) is a mountain -> illegal.   c=6: even -> illegal.
    #   c=5: (9,7) is a mountain again -> illegal.   c=4: even -> illegal.
    #   c=3: (9,3) (9,5, an empty ruins space) (10,4) -> legal.
    gorgon = place_solo_ambush(sheet, ambush("Gorgon Gaze"))
    assert gorgon is not None
    assert gorgon.spaces == {(9, 3), (9, 5), (10, 4)}


def test_drawing_the_placement_puts_monsters_there() -> None:
    sheet = MapSheet.blank("A")
    placement = place_solo_ambush(sheet, ambush("Goblin Attack"))
    assert placement is not None
    drawn = draw_solo_ambush(sheet, placement)
    assert {(r, c) for r in range(SIZE) for c in range(SIZE) if drawn.at(r, c) == MONSTER} == {
        (8, 8),
        (9, 9),
        (10, 10),
    }


# --- a check independent of the walk: the ring found is the innermost-first
# ring of any legal translation, and the result is legal. ------------------


def _legal_translations(sheet: MapSheet, card: AmbushCard) -> list[frozenset[Cell]]:
    out = []
    for dr in range(-SIZE, SIZE):
        for dc in range(-SIZE, SIZE):
            spaces = frozenset((r + dr, c + dc) for r, c in card.shape.cells)
            if all(0 <= r < SIZE and 0 <= c < SIZE and sheet.at(r, c) == EMPTY for r, c in spaces):
                out.append(spaces)
    return out


@settings(max_examples=60, deadline=None)
@given(
    filled=st.sets(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), max_size=110),
    which=st.integers(0, 7),
)
def test_placement_agrees_with_brute_force(filled: set[Cell], which: int) -> None:
    blank = MapSheet.blank("A")
    sheet = blank.with_codes({r * SIZE + c: FOREST for r, c in filled if blank.at(r, c) == EMPTY})
    card = ambush_cards()[which]
    legal = _legal_translations(sheet, card)
    placement = place_solo_ambush(sheet, card)
    if not legal:
        assert placement is None
        return
    assert placement is not None
    assert placement.spaces in legal
    assert placement.ring == min(min(ring_of(at) for at in spaces) for spaces in legal)
    assert min(ring_of(at) for at in placement.spaces) == placement.ring
