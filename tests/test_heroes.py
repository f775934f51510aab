"""Heroes, destroyed spaces and the Heroes ambushes' ongoing effects.

Every expected answer below was worked out by hand from the rule sentence
quoted in the test. Spaces are (row, col) from 0. Side A (Wilderness) prints
mountains at (1,3) (2,8) (5,5) (8,2) (9,7) and ruins at (1,5) (2,1) (2,9)
(8,1) (8,9) (9,5); ruins spaces are empty until drawn on.

Hero attack patterns (referee/data/hero_cards.json), as offsets from the hero:
Dobrik the orthogonal plus, Freyla three spaces to the right, Wren a column
of three two spaces to the right, Dal the four diagonals.
"""

from __future__ import annotations

import pytest

from referee.rules.data import HeroCard, hero_cards
from referee.rules.errors import DrawingError, RefereeError, UnknownCardError
from referee.rules.geometry import SIZE
from referee.rules.heroes import (
    DRAGON_INFERNO,
    GIANT_TROLL_RAVAGE,
    GORGON_GAZE,
    ZOMBIE_PLAGUE,
    MonsterTag,
    Orientation,
    apply_standing_attacks,
    attacked_spaces,
    destroy,
    dragon_coins_due,
    gorgon_gaze,
    gorgon_targets,
    place_hero,
    ravage,
    resolve_after_scoring,
    spread_zombies,
    troll_targets,
    zombie_spread,
)
from referee.rules.sheet import MapSheet
from referee.rules.terrain import DESTROYED, EMPTY, HERO, MONSTER

Cell = tuple[int, int]

DOBRIK, FREYLA, WREN, DAL = (
    next(h for h in hero_cards() if h.name.startswith(first)) for first in ("Dobrik", "Freyla", "Wren", "Dal")
)


def side_a(**drawn: list[Cell]) -> MapSheet:
    """Side A with ``code=[cells]`` drawn, e.g. ``side_a(M=[(2, 3)])``."""
    return MapSheet.blank("A").with_codes(
        {r * SIZE + c: code for code, cells in drawn.items() for r, c in cells}
    )


def spaces_holding(sheet: MapSheet, code: str) -> set[Cell]:
    return {(r, c) for r in range(SIZE) for c in range(SIZE) if sheet.at(r, c) == code}


# --- attack patterns ------------------------------------------------------


def test_printed_patterns() -> None:
    assert set(DOBRIK.attack) == {(-1, 0), (0, -1), (0, 1), (1, 0)}
    assert set(FREYLA.attack) == {(0, 1), (0, 2), (0, 3)}
    assert set(WREN.attack) == {(-1, 2), (0, 2), (1, 2)}
    assert set(DAL.attack) == {(-1, -1), (-1, 1), (1, -1), (1, 1)}


@pytest.mark.parametrize(
    ("hero", "at", "expected"),
    [
        # Dobrik in the top-left corner: up (-1,0) and left (0,-1) are off the map.
        (DOBRIK, (0, 0), {(0, 1), (1, 0)}),
        # Freyla at column 9: columns 10, 11, 12 -> only column 10 is on the map.
        (FREYLA, (4, 9), {(4, 10)}),
        # Dal in the bottom-right corner: only the up-left diagonal (9,9) remains.
        (DAL, (10, 10), {(9, 9)}),
        # Wren at the top, column 8: (-1,10) is off; (0,10) and (1,10) remain.
        (WREN, (0, 8), {(0, 10), (1, 10)}),
        # Wren at column 9: every attacked space is in column 11, off the map.
        (WREN, (5, 9), set()),
        # In the middle nothing is clipped, and filled spaces are attacked too:
        # Dobrik at (4,5) attacks the mountain (5,5) ("attack patterns can
        # overlap filled spaces").
        (DOBRIK, (4, 5), {(3, 5), (5, 5), (4, 4), (4, 6)}),
    ],
)
def test_pattern_is_clipped_at_the_edge(hero: HeroCard, at: Cell, expected: set[Cell]) -> None:
    assert attacked_spaces(at, hero) == expected


@pytest.mark.parametrize(
    ("hero", "orientation", "at", "expected"),
    [
        # A quarter turn clockwise sends "right" to "down": Freyla's row of
        # three to the right becomes a column of three below.
        (FREYLA, Orientation.ROTATED_90, (2, 2), {(3, 2), (4, 2), (5, 2)}),
        (FREYLA, Orientation.ROTATED_180, (2, 2), {(2, 1), (2, 0)}),  # (2,-1) clipped
        (FREYLA, Orientation.ROTATED_270, (2, 2), {(1, 2), (0, 2)}),  # (-1,2) clipped
        (FREYLA, Orientation.FLIPPED, (2, 2), {(2, 1), (2, 0)}),
        # Wren's column two to the right becomes a row two below.
        (WREN, Orientation.ROTATED_90, (5, 5), {(7, 4), (7, 5), (7, 6)}),
        (WREN, Orientation.FLIPPED, (5, 5), {(4, 3), (5, 3), (6, 3)}),
    ],
)
def test_orientations(hero: HeroCard, orientation: Orientation, at: Cell, expected: set[Cell]) -> None:
    assert attacked_spaces(at, hero, orientation) == expected


def test_symmetric_patterns_look_the_same_every_way() -> None:
    # Dobrik's plus and Dal's diagonals are unchanged by any turn or flip;
    # Freyla's line points four ways (a flip is one of the turns).
    for hero, distinct in ((DOBRIK, 1), (DAL, 1), (FREYLA, 4), (WREN, 4)):
        patterns = {frozenset(attacked_spaces((5, 5), hero, o)) for o in Orientation}
        assert len(patterns) == distinct, hero.name


# --- placing a hero -------------------------------------------------------


def test_hero_destroys_monsters_in_its_pattern_at_once() -> None:
    # "When a hero is drawn, all monster spaces within the hero's attack
    # pattern are immediately destroyed." Dobrik at (3,3) attacks (2,3)
    # (3,2) (3,4) (4,3). Monsters at (2,3) and (3,4) are in it; (5,3) is not.
    sheet = side_a(M=[(2, 3), (3, 4), (5, 3)])
    after, destroyed = place_hero(sheet, (3, 3), DOBRIK)
    assert destroyed == {(2, 3), (3, 4)}
    assert after.at(3, 3) == HERO
    assert spaces_holding(after, DESTROYED) == {(2, 3), (3, 4)}
    assert spaces_holding(after, MONSTER) == {(5, 3)}


def test_hero_on_a_filled_space_is_refused() -> None:
    # "draws a 1x1 square anywhere on their map": a drawing cannot overlap a
    # filled space, and (1,3) is a printed mountain.
    with pytest.raises(DrawingError, match=r"row 2, column 4 holds mountain"):
        place_hero(MapSheet.blank("A"), (1, 3), DOBRIK)
    with pytest.raises(DrawingError, match="row 1, column 1 holds monster"):
        place_hero(side_a(M=[(0, 0)]), (0, 0), DOBRIK)
    with pytest.raises(DrawingError, match="off the map"):
        place_hero(MapSheet.blank("A"), (11, 0), DOBRIK)


def test_hero_on_an_empty_ruins_space_is_fine() -> None:
    after, destroyed = place_hero(MapSheet.blank("A"), (1, 5), DAL)
    assert after.at(1, 5) == HERO
    assert destroyed == set()


def test_monsters_drawn_later_in_a_pattern_are_destroyed() -> None:
    # "For the rest of the game, all monster spaces drawn within any hero's
    # attack pattern are destroyed." Dobrik at (3,3); later monsters at (4,3)
    # (in the pattern) and (6,6) (not).
    sheet, _ = place_hero(MapSheet.blank("A"), (3, 3), DOBRIK)
    pattern = attacked_spaces((3, 3), DOBRIK)
    later = sheet.with_codes({4 * SIZE + 3: MONSTER, 6 * SIZE + 6: MONSTER})
    after, destroyed = apply_standing_attacks(later, [pattern])
    assert destroyed == {(4, 3)}
    assert after.at(4, 3) == DESTROYED
    assert after.at(6, 6) == MONSTER
    # Applying again changes nothing.
    assert apply_standing_attacks(after, [pattern]) == (after, set())


def test_a_destroyed_hero_keeps_its_pattern_active() -> None:
    # "If a hero space is destroyed, that hero's attack pattern remains
    # active." Freyla at (6,2) attacks (6,3) (6,4) (6,5). Her space is then
    # destroyed; a monster drawn at (6,4) is still destroyed.
    sheet, _ = place_hero(MapSheet.blank("A"), (6, 2), FREYLA)
    sheet = destroy(sheet, (6, 2))
    sheet = sheet.with_codes({6 * SIZE + 4: MONSTER})
    after, destroyed = apply_standing_attacks(sheet, [attacked_spaces((6, 2), FREYLA)])
    assert destroyed == {(6, 4)}
    assert after.at(6, 2) == DESTROYED


# --- destroying -----------------------------------------------------------


def test_destroy_refuses_what_cannot_be_destroyed() -> None:
    sheet = side_a(X=[(0, 0)])
    with pytest.raises(DrawingError, match="already destroyed"):
        destroy(sheet, (0, 0))
    with pytest.raises(DrawingError, match="printed mountain"):
        destroy(sheet, (5, 5))
    with pytest.raises(DrawingError, match=r"choose one of: row 1, column 2"):
        destroy(sheet, (3, 3), {(0, 1)})
    assert destroy(sheet, (3, 3)).at(3, 3) == DESTROYED


# --- Zombie Plague ----------------------------------------------------------


def test_zombies_spread_but_not_from_a_destroyed_zombie() -> None:
    # "After scoring each season, draw a Zombie in each empty space adjacent
    # to a Zombie." Zombies: (0,0) alive; (0,5) destroyed; (5,0) alive with
    # forest at (4,0).
    #   (0,0): neighbours (0,1) (1,0), both empty -> both.
    #   (0,5): destroyed, no zombie there any more -> (0,4) (0,6) (1,5) stay empty.
    #   (5,0): (4,0) forest, (6,0) and (5,1) empty -> (6,0) (5,1).
    sheet = side_a(M=[(0, 0), (5, 0)], X=[(0, 5)], F=[(4, 0)])
    zombies = {(0, 0), (0, 5), (5, 0)}
    assert zombie_spread(sheet, zombies) == {(0, 1), (1, 0), (6, 0), (5, 1)}
    after, tagged = spread_zombies(sheet, zombies)
    assert spaces_holding(after, MONSTER) == {(0, 0), (5, 0), (0, 1), (1, 0), (6, 0), (5, 1)}
    assert tagged == zombies | {(0, 1), (1, 0), (6, 0), (5, 1)}
    assert after.at(0, 4) == EMPTY


def test_new_zombies_do_not_spread_again_the_same_season() -> None:
    # One zombie at (0,0): it spreads to (0,1) and (1,0) only, not on to (0,2).
    sheet = side_a(M=[(0, 0)])
    assert zombie_spread(sheet, {(0, 0)}) == {(0, 1), (1, 0)}


def test_a_tag_on_a_space_without_a_monster_is_refused() -> None:
    with pytest.raises(DrawingError, match="row 1, column 1 is tagged as the Zombie Plague but holds forest"):
        zombie_spread(side_a(F=[(0, 0)]), {(0, 0)})


# --- Giant Troll Ravage ----------------------------------------------------

# The troll's T at the top right: (0,8) (0,9) (0,10) (1,9). The spaces next
# to it are (0,7), (1,8), (1,10) and (2,9), an empty ruins space.
TROLL = {(0, 8), (0, 9), (0, 10), (1, 9)}


def test_troll_targets_every_empty_space_next_to_it() -> None:
    sheet = side_a(M=sorted(TROLL), V=[(1, 8)])
    assert troll_targets(sheet, TROLL) == {(0, 7), (1, 10), (2, 9)}
    after = ravage(sheet, TROLL, (2, 9))
    assert after.at(2, 9) == DESTROYED
    with pytest.raises(DrawingError, match="choose one of"):
        ravage(sheet, TROLL, (1, 8))  # the village is not empty


def test_troll_with_no_empty_neighbour_destroys_nothing() -> None:
    sheet = side_a(M=sorted(TROLL), V=[(0, 7), (1, 8), (1, 10), (2, 9)])
    assert troll_targets(sheet, TROLL) == set()
    result = resolve_after_scoring(sheet, [MonsterTag(GIANT_TROLL_RAVAGE, frozenset(TROLL))], {})
    assert result.sheet == sheet
    assert "no empty space" in result.outcomes[0].sentence


# --- Gorgon Gaze ------------------------------------------------------------


def test_gorgon_never_targets_a_mountain() -> None:
    # "After drawing the Gorgon, destroy an adjacent non-mountain space."
    # Gorgon (X.X/.X.) with its box at rows 4-5, columns 3-5: (4,3) (4,5) (5,4).
    # Adjacent: (4,3) -> (3,3) (5,3) (4,2) (4,4); (4,5) -> (3,5) (5,5)^ (4,4) (4,6);
    #           (5,4) -> (4,4) (6,4) (5,3) (5,5)^.
    # Without the mountain (5,5): (3,3) (5,3) (4,2) (4,4) (3,5) (4,6) (6,4).
    # A forest at (4,4) may be destroyed (filled spaces count); (3,5) is
    # already destroyed and is left out.
    gorgon = {(4, 3), (4, 5), (5, 4)}
    sheet = side_a(M=sorted(gorgon), F=[(4, 4)], X=[(3, 5)])
    targets = gorgon_targets(sheet, gorgon)
    assert targets == {(3, 3), (5, 3), (4, 2), (4, 4), (4, 6), (6, 4)}
    assert (5, 5) not in targets
    with pytest.raises(DrawingError):
        gorgon_gaze(sheet, gorgon, (5, 5))
    assert gorgon_gaze(sheet, gorgon, (4, 4)).at(4, 4) == DESTROYED


def test_gorgon_on_side_d_skips_wastelands() -> None:
    # Side D prints wastelands at (1,1) and (2,1). A Gorgon space at (1,2) has
    # neighbours (0,2) (2,2) (1,1)# (1,3): the wasteland is left out (it is
    # already filled, has no terrain type and is never drawn over).
    sheet = MapSheet.blank("D").with_codes({1 * SIZE + 2: MONSTER})
    assert gorgon_targets(sheet, {(1, 2)}) == {(0, 2), (2, 2), (1, 3)}


# --- Dragon Inferno -----------------------------------------------------------

# The dragon (..X/XXX/X..) in the top-left corner: (0,2) (1,0) (1,1) (1,2) (2,0).
# Its outside neighbours: (0,0) (0,1) (0,3) (2,1) (2,2) (3,0), and (1,3), a
# printed mountain.
DRAGON = {(0, 2), (1, 0), (1, 1), (1, 2), (2, 0)}
AROUND = [(0, 0), (0, 1), (0, 3), (2, 1), (2, 2)]


def test_dragon_partly_destroyed_partly_surrounded_pays() -> None:
    # "When all spaces of the Dragon are surrounded or destroyed, gain 3 coins."
    # Forest on every neighbour but (3,0): only (2,0) touches (3,0), so with
    # (2,0) alive the dragon is not closed in; with (2,0) destroyed it is.
    alive = side_a(M=sorted(DRAGON), F=AROUND)
    assert dragon_coins_due(alive, DRAGON) is False
    half = alive.with_codes({2 * SIZE + 0: DESTROYED})
    assert dragon_coins_due(half, DRAGON) is True


def test_dragon_closed_in_or_wholly_destroyed_pays() -> None:
    assert dragon_coins_due(side_a(M=sorted(DRAGON), F=[*AROUND, (3, 0)]), DRAGON) is True
    assert dragon_coins_due(side_a(X=sorted(DRAGON)), DRAGON) is True
    assert dragon_coins_due(MapSheet.blank("A"), set()) is False


def test_dragon_pays_once_after_scoring() -> None:
    sheet = side_a(X=sorted(DRAGON))
    tag = [MonsterTag(DRAGON_INFERNO, frozenset(DRAGON))]
    first = resolve_after_scoring(sheet, tag)
    assert (first.coins, first.dragon_paid) == (3, True)
    again = resolve_after_scoring(sheet, tag, dragon_paid=True)
    assert again.coins == 0


# --- after scoring: one at a time, in reveal order ---------------------------

# The troll at the top right with (0,7) (1,8) (2,9) filled: its only empty
# neighbour is (1,10). A zombie at (2,10) has neighbours (1,10) and (3,10),
# both empty, and (2,9), filled.
ZOMBIE = {(2, 10)}


def _race() -> MapSheet:
    return side_a(M=sorted(TROLL | ZOMBIE), V=[(0, 7), (1, 8), (2, 9)])


def test_zombie_revealed_first_takes_the_trolls_space() -> None:
    # Zombie first: it spreads to (1,10) and (3,10); then the troll has no
    # empty neighbour and destroys nothing.
    tags = [MonsterTag(ZOMBIE_PLAGUE, frozenset(ZOMBIE)), MonsterTag(GIANT_TROLL_RAVAGE, frozenset(TROLL))]
    result = resolve_after_scoring(_race(), tags, {})
    assert result.sheet.at(1, 10) == MONSTER
    assert result.sheet.at(3, 10) == MONSTER
    assert spaces_holding(result.sheet, DESTROYED) == set()
    assert result.monsters[0].spaces == {(2, 10), (1, 10), (3, 10)}


def test_troll_revealed_first_destroys_before_the_zombie_spreads() -> None:
    # Troll first: it must destroy (1,10); then the zombie spreads to (3,10) only.
    tags = [MonsterTag(GIANT_TROLL_RAVAGE, frozenset(TROLL)), MonsterTag(ZOMBIE_PLAGUE, frozenset(ZOMBIE))]
    with pytest.raises(DrawingError, match=r"next to the Giant Troll is destroyed: row 2, column 11"):
        resolve_after_scoring(_race(), tags, {})
    result = resolve_after_scoring(_race(), tags, {"giant troll ravage": (1, 10)})
    assert result.sheet.at(1, 10) == DESTROYED
    assert result.sheet.at(3, 10) == MONSTER
    assert [o.ambush for o in result.outcomes] == [GIANT_TROLL_RAVAGE, ZOMBIE_PLAGUE]


def test_zombies_spreading_into_a_hero_pattern_are_destroyed() -> None:
    # Freyla at (6,7) attacks (6,8) (6,9) (6,10). A zombie at (5,10) spreads to
    # (4,10) (5,9) (6,10); the one at (6,10) is in her pattern and destroyed.
    sheet, _ = place_hero(side_a(M=[(5, 10)]), (6, 7), FREYLA)
    result = resolve_after_scoring(
        sheet,
        [MonsterTag(ZOMBIE_PLAGUE, frozenset({(5, 10)}))],
        patterns=[attacked_spaces((6, 7), FREYLA)],
    )
    (outcome,) = result.outcomes
    assert outcome.drawn == {(4, 10), (5, 9), (6, 10)}
    assert outcome.destroyed == {(6, 10)}
    assert result.sheet.at(6, 10) == DESTROYED
    assert result.sheet.at(5, 9) == MONSTER


def test_ambushes_without_an_after_scoring_effect_do_nothing() -> None:
    sheet = side_a(M=[(4, 3), (4, 5), (5, 4), (0, 0)])
    tags = [
        MonsterTag("Goblin Attack", frozenset({(0, 0)})),
        MonsterTag(GORGON_GAZE, frozenset({(4, 3), (4, 5), (5, 4)})),
    ]
    result = resolve_after_scoring(sheet, tags)
    assert result.sheet == sheet
    assert result.outcomes == ()


def test_an_unknown_ambush_is_refused() -> None:
    with pytest.raises(UnknownCardError, match="no ambush card called 'Zombie Plage'"):
        resolve_after_scoring(MapSheet.blank("A"), [MonsterTag("Zombie Plage", frozenset())])
    assert issubclass(DrawingError, RefereeError)


def test_the_monster_spaces_a_map_can_hold() -> None:
    """Counted by hand from the cards: Goblin Attack's shape has 3 spaces and
    Gnoll Raid's 5; Rift Lands may be drawn as one monster square; Forgotten
    Forest offers no monster. "If the shape cannot be legally drawn, they draw
    a 1x1 monster square instead", never more. The Zombie Plague's zombies
    spread, so once it is revealed nothing bounds the monsters."""
    from referee.rules.deck import Reveal
    from referee.rules.heroes import most_monster_spaces

    def card(name: str, kind: str) -> Reveal:
        return Reveal(name, kind, 0, False)

    assert most_monster_spaces([]) == 0
    assert most_monster_spaces([card("Forgotten Forest", "explore"), card("Temple Ruins", "ruins")]) == 0
    goblins_then_gnolls = [card("Goblin Attack", "ambush"), card("Gnoll Raid", "ambush")]
    assert most_monster_spaces(goblins_then_gnolls) == 3 + 5
    assert most_monster_spaces([*goblins_then_gnolls, card("Rift Lands", "explore")]) == 3 + 5 + 1
    assert most_monster_spaces([card("Gorgon Gaze", "ambush"), card("Zombie Plague", "ambush")]) is None
