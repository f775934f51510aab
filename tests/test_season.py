"""End-of-season scoring, each case counted by hand from the rulebook."""

from __future__ import annotations

import pytest

from referee.rules.cards import card_named
from referee.rules.data import season_cards
from referee.rules.errors import ScoringError
from referee.rules.season import coin_warning, monster_penalty, score_season, surrounded_mountains
from referee.rules.sheet import MapSheet

# Side A (mountains at rows/columns 2/4, 3/9, 6/6, 9/3, 10/8, counted from 1).
# Drawn here, by hand:
#  - forest on row 1, columns 1-4 and at row 3, column 6;
#  - village at row 2, columns 3 and 5 and row 3, column 4, so the mountain at
#    row 2, column 4 is closed in on all four sides (forest above);
#  - a monster at row 4, column 6: forest above it, three empty neighbours;
#  - a destroyed space (X) at row 8, column 10.
MAP = """
FFFF.......
..V^V......
...V.F..^..
.....M.....
...........
.....^.....
...........
.........X.
..^........
.......^...
...........
"""


def sheet() -> MapSheet:
    return MapSheet.parse(MAP, "A")


def test_monster_penalty_counts_each_empty_space_once() -> None:
    # Monster at row 4, column 6: neighbours row 3 col 6 (forest, filled),
    # row 5 col 6, row 4 col 5, row 4 col 7 (all empty) -> 3.
    penalty, spaces = monster_penalty(sheet())
    assert penalty == -3
    assert spaces == {(4, 5), (3, 4), (3, 6)}


def test_two_monsters_share_an_empty_neighbour() -> None:
    text = MapSheet.blank("C").text().splitlines()
    text[0] = "M.M........"
    # Empty neighbours: (0,1) shared, (1,0), (1,2), (0,3) -> 4, not 5.
    penalty, _ = monster_penalty(MapSheet.parse("\n".join(text), "C"))
    assert penalty == -4


def test_surrounded_mountain_and_coin_warning() -> None:
    assert surrounded_mountains(sheet()) == [(1, 3)]
    assert coin_warning(sheet(), 1) is None
    warning = coin_warning(sheet(), 0)
    assert warning is not None and "row 2, column 4" in warning


def test_spring_score() -> None:
    edicts = {
        "A": card_named("Sentinel Wood"),  # row 1 cols 1-4 on the edge: 4
        "B": card_named("Greenbough"),  # forest in rows 1, 3 and columns 1-4, 6: 2 + 5 = 7
        "C": card_named("Wildholds"),
        "D": card_named("Borderlands"),
    }
    spring = season_cards()["base"][0]
    score = score_season(sheet(), spring, edicts, coins=2)
    assert [(letter, s.stars) for letter, _, s in score.edicts] == [("A", 4), ("B", 7)]
    assert score.coins == 2
    assert score.monsters == -3
    assert score.total == 4 + 7 + 2 - 3
    assert score.warnings == ()


def test_winter_scores_edicts_d_and_a() -> None:
    edicts = {
        k: card_named(n)
        for k, n in zip("ABCD", ["Sentinel Wood", "Greenbough", "Wildholds", "Borderlands"], strict=True)
    }
    winter = season_cards()["base"][3]
    score = score_season(sheet(), winter, edicts, coins=1)
    assert [letter for letter, _, _ in score.edicts] == ["D", "A"]
    assert score.total == 0 + 4 + 1 - 3


@pytest.mark.parametrize("coins", [-1, 15, "3"])
def test_coins_off_the_track_are_refused(coins: object) -> None:
    edicts = {k: card_named("Sentinel Wood") for k in "ABCD"}
    with pytest.raises(ScoringError):
        score_season(sheet(), season_cards()["base"][0], edicts, coins=coins)  # type: ignore[arg-type]


def test_fourteen_coins_fill_the_track() -> None:
    edicts = {k: card_named("Sentinel Wood") for k in "ABCD"}
    assert score_season(sheet(), season_cards()["base"][0], edicts, coins=14).coins == 14
