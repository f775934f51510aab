"""Final standings, the tiebreak and the solo title, counted by hand."""

from __future__ import annotations

import pytest

from referee.rules.errors import ScoringError
from referee.rules.game import PlayerTotals, solo_result, standings


def player(name: str, seasons: tuple[int, ...], monsters: tuple[int, ...]) -> PlayerTotals:
    return PlayerTotals(name, seasons, monsters)


def test_most_stars_wins() -> None:
    result = standings(
        [player("Ann", (10, 12, 9, 15), (-2, -1, 0, 0)), player("Bo", (20, 10, 5, 10), (0, 0, 0, 0))]
    )
    # Ann 46, Bo 45.
    assert [(s.place, s.player.name, s.player.total) for s in result] == [(1, "Ann", 46), (2, "Bo", 45)]
    assert result[0].winner and not result[1].winner
    assert result[0].reason == "46 stars."


def test_tie_goes_to_fewest_stars_lost_to_monsters() -> None:
    # Both 40; Ann lost 2+1 = 3 to monsters, Bo lost 1: Bo wins.
    ann = player("Ann", (10, 10, 10, 10), (-2, -1, 0, 0))
    bo = player("Bo", (15, 5, 10, 10), (0, -1, 0, 0))
    result = standings([ann, bo])
    assert [(s.place, s.player.name) for s in result] == [(1, "Bo"), (2, "Ann")]
    assert "tiebreak" in result[0].reason and "Bo lost 1" in result[0].reason and "Ann 3" in result[0].reason


def test_further_tie_shares_the_victory() -> None:
    ann = player("Ann", (10, 10, 10, 10), (-1, 0, 0, -1))
    bo = player("Bo", (20, 0, 10, 10), (0, -2, 0, 0))
    cy = player("Cy", (5, 5, 5, 5), (0, 0, 0, 0))
    result = standings([cy, ann, bo])
    assert [(s.place, s.player.name) for s in result] == [(1, "Ann"), (1, "Bo"), (3, "Cy")]
    assert all(s.winner for s in result[:2])
    assert "share the victory" in result[0].reason


def test_names_must_differ() -> None:
    with pytest.raises(ScoringError):
        standings([player("Ann", (1, 1, 1, 1), (0, 0, 0, 0))] * 2)


@pytest.mark.parametrize(
    ("score", "numbers", "rating", "title"),
    [
        # Heroes first game: Faunlost 16 + Gnomish 12 + Ulem's 14 + Dwarvenholds 28 = 70.
        (100, (16, 12, 14, 28), 30, "Legendary Cartographer"),
        (99, (16, 12, 14, 28), 29, "Master Mapsmith"),
        (70, (16, 12, 14, 28), 0, "Apprentice Surveyor"),
        (69, (16, 12, 14, 28), -1, "Amateur Assessor"),
        (65, (16, 12, 14, 28), -5, "Amateur Assessor"),
        (64, (16, 12, 14, 28), -6, "Inept Assistant"),
        (0, (16, 12, 14, 28), -70, "Oblivious Inkdrinker"),
    ],
)
def test_solo_rating_and_title(score: int, numbers: tuple[int, ...], rating: int, title: str) -> None:
    result = solo_result(score, numbers)
    assert (result.solo_numbers, result.rating, result.title) == (70, rating, title)


def test_solo_needs_four_cards() -> None:
    with pytest.raises(ScoringError):
        solo_result(50, (10, 10, 10))
