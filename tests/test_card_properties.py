"""Properties every scoring card must keep on any map, checked on generated maps.

The hand-counted maps in tests/known_maps pin exact answers; these tests
check the shape of the answers everywhere else: stars are never negative and
come in the card's own unit, highlighted spaces lie on the map, mirrored maps
score alike, filling a space never lowers a card that only counts filled
spaces, and the monster penalty stays within its bounds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.cards import all_cards, card_named
from referee.rules.data import MapSide
from referee.rules.geometry import DIAGONALS, SIZE, SPACES, index
from referee.rules.season import monster_penalty, surrounded_mountains
from referee.rules.sheet import MapSheet, side_named
from referee.rules.terrain import DRAWN, EMPTY, MONSTER, MOUNTAIN

PROPERTY = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CARDS = all_cards()
DRAWN_CODES = sorted(DRAWN)


def _orbit(cells: set[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    """``cells`` with their images under left-right and top-bottom mirroring
    and reflection across the anti-diagonal: a set every test transform keeps."""
    out = set(cells)
    while True:
        more = {(r, SIZE - 1 - c) for r, c in out}
        more |= {(SIZE - 1 - r, c) for r, c in out}
        more |= {(SIZE - 1 - c, SIZE - 1 - r) for r, c in out}
        if more <= out:
            return frozenset(out)
        out |= more


#: A made-up side whose mountains, wastelands and ruins are placed
#: symmetrically, so a mirrored map is still a legal map of the same side
#: (the printed sides A to D are not symmetric).
SYMMETRIC = MapSide(
    letter="S",
    name="symmetric test side",
    game="base",
    mountains=_orbit({(5, 5), (2, 2)}),
    ruins=_orbit({(1, 5), (3, 4)}),
    wastelands=_orbit({(0, 5)}),
    coin_track=5,
    confidence={},
)


def _codes(side: MapSide, draw: st.DrawFn) -> list[str]:
    """Codes for every space: a few terrain types in a map, so clusters grow,
    and the printed spaces as printed."""
    palette = draw(st.lists(st.sampled_from(DRAWN_CODES), min_size=1, max_size=4, unique=True))
    empties = draw(st.integers(min_value=0, max_value=4))
    choices = palette + [EMPTY] * empties if empties else palette
    codes = draw(st.lists(st.sampled_from(choices), min_size=SPACES, max_size=SPACES))
    for i in range(SPACES):
        printed = side.printed(*divmod(i, SIZE))
        if printed != EMPTY:
            codes[i] = printed
    return codes


@st.composite
def sheets(draw: st.DrawFn, sides: tuple[str, ...] = ("A", "B")) -> MapSheet:
    """A map of side A or B with anything drawn on its unprinted spaces."""
    side = side_named(draw(st.sampled_from(sides)))
    return MapSheet(side, _codes(side, draw))


@st.composite
def symmetric_sheets(draw: st.DrawFn) -> MapSheet:
    return MapSheet(SYMMETRIC, _codes(SYMMETRIC, draw))


def transformed(sheet: MapSheet, move: Callable[[int, int], tuple[int, int]]) -> MapSheet:
    codes = [EMPTY] * SPACES
    for i, code in enumerate(sheet.codes):
        codes[index(*move(*divmod(i, SIZE)))] = code
    return MapSheet(sheet.side, codes)


def left_right(r: int, c: int) -> tuple[int, int]:
    return r, SIZE - 1 - c


def top_bottom(r: int, c: int) -> tuple[int, int]:
    return SIZE - 1 - r, c


def anti_diagonal(r: int, c: int) -> tuple[int, int]:
    """Reflection across the line from the top right to the bottom left
    corner: it turns rows into columns and keeps each Broken Road diagonal."""
    return SIZE - 1 - c, SIZE - 1 - r


_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "ten": 10}


def unit(rule: str) -> int:
    """The stars a card gives per thing it counts, read from its rule
    sentence: 'Earn three reputation stars for each ...' -> 3. A card with
    two sentences (two and one star) counts in the greatest common unit."""
    found = [_NUMBERS[w] for w in re.findall(r"earn (\w+) reputation stars?", rule, re.IGNORECASE)]
    assert found, f"no star count in {rule!r}"
    return math.gcd(*found)


def test_the_unit_is_read_from_the_rule_sentence() -> None:
    assert unit(card_named("Wildholds").info.rule) == 8
    assert unit(card_named("Mages Valley").info.rule) == 1
    assert unit(card_named("Shoreside Expanse").info.rule) == 3
    assert unit(card_named("Outer Enclave").info.rule) == 1


# --- every card ----------------------------------------------------------------


@PROPERTY
@given(sheets(("A", "B", "C", "D")))
def test_stars_are_whole_non_negative_and_in_the_cards_unit(sheet: MapSheet) -> None:
    for card in CARDS:
        stars = card.score(sheet).stars
        assert isinstance(stars, int) and stars >= 0, card.name
        assert stars % unit(card.info.rule) == 0, f"{card.name}: {stars}"


@PROPERTY
@given(sheets(("A", "B", "C", "D")))
def test_highlighted_spaces_and_lines_are_on_the_map(sheet: MapSheet) -> None:
    for card in CARDS:
        result = card.score(sheet)
        assert all(0 <= r < SIZE and 0 <= c < SIZE for r, c in result.cells), card.name
        for kind, k in result.lines:
            assert kind in ("row", "column", "diagonal") and 0 <= k < SIZE, card.name
        if result.stars:
            assert result.why, card.name


#: Cards that look at rows only or columns only: they change when rows and
#: columns swap. The Broken Road's diagonals run one way only: they change
#: under either mirror.
ROWS_OR_COLUMNS_ONLY = {"Sleepy Valley", "Faunlost Thicket", "Jorekburg", "Banded Hills", "Silos"}
ONE_WAY_DIAGONALS = {"The Broken Road"}


@PROPERTY
@given(symmetric_sheets())
def test_mirrored_maps_score_alike(sheet: MapSheet) -> None:
    """Mirroring left to right or top to bottom changes no card but The
    Broken Road. Silos keeps too: column k goes to column 12 - k, odd to odd."""
    for move in (left_right, top_bottom):
        mirrored = transformed(sheet, move)
        for card in CARDS:
            if card.name in ONE_WAY_DIAGONALS:
                continue
            assert card.score(mirrored).stars == card.score(sheet).stars, (card.name, move.__name__)


@PROPERTY
@given(symmetric_sheets())
def test_reflection_across_the_anti_diagonal_keeps_the_broken_road(sheet: MapSheet) -> None:
    """That reflection swaps rows and columns but maps every diagonal from
    the left edge to the bottom edge onto itself."""
    reflected = transformed(sheet, anti_diagonal)
    for card in CARDS:
        if card.name in ROWS_OR_COLUMNS_ONLY:
            continue
        assert card.score(reflected).stars == card.score(sheet).stars, card.name


@PROPERTY
@given(symmetric_sheets())
def test_the_broken_road_changes_under_a_mirror_only_as_its_diagonals_do(sheet: MapSheet) -> None:
    """Mirrored left to right, the road counts the diagonals that run from
    the right edge down-left to the bottom edge of the original map."""
    mirrored = transformed(sheet, left_right)
    down_left = [[left_right(*divmod(i, SIZE)) for i in d] for d in DIAGONALS]
    complete = sum(all(sheet.at(r, c) != EMPTY for r, c in d) for d in down_left)
    assert card_named("The Broken Road").score(mirrored).stars == 3 * complete


# --- filling a space -----------------------------------------------------------

NEVER_LOWER = ("Borderlands", "The Broken Road", "Lost Barony", "Silos", "Dwarvenholds")


@PROPERTY
@given(sheets(), st.data())
def test_filling_one_more_space_never_lowers_the_filled_space_cards(
    sheet: MapSheet, data: st.DataObject
) -> None:
    empty = [i for i, code in enumerate(sheet.codes) if code == EMPTY]
    if not empty:
        return
    i = data.draw(st.sampled_from(empty))
    code = data.draw(st.sampled_from(DRAWN_CODES))
    filled = sheet.with_codes({i: code})
    for name in NEVER_LOWER:
        card = card_named(name)
        assert card.score(filled).stars >= card.score(sheet).stars, (name, i, code)


def _largest_square(sheet: MapSheet) -> int:
    """The side of the largest square of filled spaces, by trying them all."""
    best = 0
    for top in range(SIZE):
        for left in range(SIZE):
            n = best + 1
            while (
                top + n <= SIZE
                and left + n <= SIZE
                and all(
                    sheet.codes[index(top + dr, left + dc)] != EMPTY for dr in range(n) for dc in range(n)
                )
            ):
                best = n
                n += 1
    return best


@PROPERTY
@given(sheets())
def test_lost_barony_scores_an_edge_of_the_largest_filled_square(sheet: MapSheet) -> None:
    result = card_named("Lost Barony").score(sheet)
    side = _largest_square(sheet)
    assert result.stars == 3 * side
    assert len(result.cells) == side * side
    assert all(sheet.at(r, c) != EMPTY for r, c in result.cells)


@PROPERTY
@given(sheets(), st.sampled_from(DRAWN_CODES))
def test_a_full_map(sheet: MapSheet, code: str) -> None:
    """With no empty space left every line and the whole map are complete."""
    full = sheet.with_codes({i: code for i, c in enumerate(sheet.codes) if c == EMPTY})
    forests = sum(c == "F" for c in full.codes)
    assert card_named("Borderlands").score(full).stars == 6 * 22
    assert card_named("The Broken Road").score(full).stars == 3 * 11
    assert card_named("Lost Barony").score(full).stars == 3 * 11
    assert card_named("The Cauldrons").score(full).stars == 0
    assert card_named("Treetower").score(full).stars == forests
    assert monster_penalty(full)[0] == 0
    assert len(surrounded_mountains(full)) == sum(c == MOUNTAIN for c in full.codes)


# --- bounds --------------------------------------------------------------------


@PROPERTY
@given(sheets(("A", "B", "C", "D")))
def test_the_monster_penalty_is_bounded_by_the_empty_spaces(sheet: MapSheet) -> None:
    penalty, penalised = monster_penalty(sheet)
    empty = sum(code == EMPTY for code in sheet.codes)
    monsters = sum(code == MONSTER for code in sheet.codes)
    assert -empty <= penalty <= 0
    assert penalty >= -4 * monsters
    assert penalty == -len(penalised)
    assert all(sheet.at(r, c) == EMPTY for r, c in penalised)


@PROPERTY
@given(sheets())
def test_counting_cards_stay_within_what_they_count(sheet: MapSheet) -> None:
    codes = sheet.codes
    forests = sum(c == "F" for c in codes)
    empty = sum(c == EMPTY for c in codes)
    villages = [len(c) for c in sheet.clusters("V")]
    assert card_named("Sentinel Wood").score(sheet).stars <= min(forests, 40)
    assert card_named("Greenbough").score(sheet).stars <= 22
    assert card_named("Treetower").score(sheet).stars <= forests
    assert card_named("The Cauldrons").score(sheet).stars <= empty
    assert card_named("Great City").score(sheet).stars <= max(villages, default=0)
    assert card_named("Wildholds").score(sheet).stars == 8 * sum(n >= 6 for n in villages)
    shieldgate = card_named("Shieldgate").score(sheet).stars
    ranked = sorted(villages, reverse=True)
    assert shieldgate == (2 * ranked[1] if len(ranked) > 1 else 0)
    mountains = sum(c == MOUNTAIN for c in codes)
    assert card_named("Stoneside Forest").score(sheet).stars <= 3 * mountains
    assert all(sheet.at(r, c) == MOUNTAIN for r, c in surrounded_mountains(sheet))


def test_a_card_no_line_meets_says_so_in_a_sentence() -> None:
    """A card that counts lines says which line meets it, and, when none does,
    a sentence of its own ("No row holds ...") rather than "... in no rows"."""
    blank = MapSheet.blank("A")
    whys = {
        name: str(card_named(name).score(blank).why)
        for name in ("Jorekburg", "Sleepy Valley", "Banded Hills")
    }
    assert whys == {
        "Jorekburg": "No column holds as many farm as water spaces, with at least one of each.",
        "Sleepy Valley": "No row holds three or more forest spaces.",
        "Banded Hills": "No row holds five or more terrain types.",
    }
