"""The printed game, pinned: what the project transcribed from the cards.

Every number here was read off the compiled card data (shared/gamedata) and
the rulebooks when the data files were written; a change to a data file
that is not also a deliberate change here fails.
"""

from __future__ import annotations

import pytest

from referee.rules import data
from referee.rules.data import CARD_BACKS

SIDES = {
    # letter: (mountains, ruins, wastelands)
    "A": (
        {(1, 3), (2, 8), (5, 5), (8, 2), (9, 7)},
        {(1, 5), (2, 1), (2, 9), (8, 1), (8, 9), (9, 5)},
        set(),
    ),
    "B": (
        {(1, 8), (2, 3), (7, 5), (8, 9), (9, 2)},
        {(1, 6), (2, 2), (4, 6), (6, 1), (7, 8), (9, 3)},
        {(3, 5), (4, 4), (4, 5), (5, 4), (5, 5), (5, 6), (6, 5)},
    ),
    "C": (
        {(1, 1), (3, 8), (5, 3), (8, 9), (9, 5)},
        {(1, 4), (3, 7), (6, 6), (7, 2), (9, 8), (10, 0)},
        set(),
    ),
    "D": (
        {(1, 9), (3, 3), (5, 6), (8, 2), (8, 9)},
        {(1, 3), (1, 8), (5, 1), (6, 7), (6, 10), (9, 5)},
        {(1, 1), (2, 1), (5, 9), (5, 10), (6, 9), (9, 0), (9, 1)},
    ),
}


@pytest.mark.parametrize("letter", "ABCD")
def test_map_sides(letter: str) -> None:
    side = data.map_sides()[letter]
    mountains, ruins, wastelands = SIDES[letter]
    assert side.mountains == mountains
    assert side.ruins == ruins
    assert side.wastelands == wastelands
    assert side.coin_track == 14
    assert side.game == ("base" if letter in "AB" else "heroes")


def test_low_confidence_facts_are_marked() -> None:
    sides = data.map_sides()
    assert "low" in sides["D"].confidence["all"]
    assert "low" in sides["C"].confidence["ruins"]
    for card in data.scoring_card_infos():
        if card.game == "heroes":
            assert card.confidence["solo"] == "low"


EXPLORE = {
    # name: (game, kind, time, terrains, [(shape rows, coin)])
    "Temple Ruins": ("base", "ruins", 0, "", []),
    "Outpost Ruins": ("base", "ruins", 0, "", []),
    "Great River": ("base", "explore", 1, "W", [(["X", "X", "X"], True), (["..X", ".XX", "XX."], False)]),
    "Farmland": ("base", "explore", 1, "A", [(["X", "X"], True), ([".X.", "XXX", ".X."], False)]),
    "Hamlet": ("base", "explore", 1, "V", [(["X.", "XX"], True), (["XXX", "XX."], False)]),
    "Forgotten Forest": ("base", "explore", 1, "F", [(["X.", ".X"], True), (["X.", "XX", ".X"], False)]),
    "Hinterland Stream": ("base", "explore", 2, "AW", [(["XXX", "X..", "X.."], False)]),
    "Homestead": ("base", "explore", 2, "VA", [(["X.", "XX", "X."], False)]),
    "Orchard": ("base", "explore", 2, "FA", [(["XXX", "..X"], False)]),
    "Treetop Village": ("base", "explore", 2, "FV", [(["..XX", "XXX."], False)]),
    "Marshlands": ("base", "explore", 2, "FW", [(["X..", "XXX", "X.."], False)]),
    "Fishing Village": ("base", "explore", 2, "VW", [(["XXXX"], False)]),
    "Rift Lands": ("base", "explore", 0, "FVAWM", [(["X"], False)]),
    "Timber Grove": ("heroes", "explore", 1, "F", [(["X.", "XX"], True), (["X.X", "X.X"], False)]),
    "Pasture": ("heroes", "explore", 1, "A", [(["X.X"], True), (["X.", "XX", ".X"], False)]),
    "Settlement": ("heroes", "explore", 1, "V", [(["X", "X"], True), (["..X", ".XX", "XX."], False)]),
    "Lagoon": ("heroes", "explore", 1, "W", [(["X.", ".X"], True), (["X.", "XX", "X."], False)]),
    "Hillside Terrace": ("heroes", "explore", 2, "AW", [(["XX", "XX"], False)]),
    "Frontier Dwelling": ("heroes", "explore", 2, "VA", [(["X..", "XXX", "X.."], False)]),
    "Wildwood Garden": ("heroes", "explore", 2, "FA", [(["..X", "XX."], False)]),
    "Woodland Crossroads": ("heroes", "explore", 2, "FV", [([".X.", "XXX", ".X."], False)]),
    "Coastal Encampment": ("heroes", "explore", 2, "VW", [(["XXX", "X.."], False)]),
    "Mangrove Swamp": ("heroes", "explore", 2, "FW", [(["XXX", "X.X"], False)]),
    "Kethra's Gates": ("heroes", "explore", 0, "FVAWM", [(["X"], False)]),
}


def rows(cells: tuple[tuple[int, int], ...]) -> list[str]:
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    return ["".join("X" if (r, c) in cells else "." for c in range(w)) for r in range(h)]


def test_explore_cards() -> None:
    cards = {c.name: c for c in data.explore_cards()}
    assert set(cards) == set(EXPLORE)
    assert sum(c.game == "base" for c in cards.values()) == 13
    assert sum(c.game == "heroes" for c in cards.values()) == 11
    for name, (game, kind, time, terrains, shapes) in EXPLORE.items():
        card = cards[name]
        assert (card.game, card.kind, card.time, "".join(card.terrains)) == (game, kind, time, terrains), name
        assert [(rows(s.cells), s.coin) for s in card.shapes] == shapes, name


AMBUSHES = {
    # name: (game, shape, pass direction, solo corner, initial, effect): an effect is "ongoing"
    # when it lasts (after scoring each season; the Dragon's until it pays), "once" when it acts
    # as the monster is drawn ("after drawing the Gorgon, destroy an adjacent non-mountain space")
    "Goblin Attack": ("base", ["X..", ".X.", "..X"], "counterclockwise", "bottom-right", None, None),
    "Bugbear Assault": ("base", ["X.X", "X.X"], "clockwise", "top-right", None, None),
    "Kobold Onslaught": ("base", ["X.", "XX", "X."], "clockwise", "bottom-left", None, None),
    "Gnoll Raid": ("base", ["XX", "X.", "XX"], "counterclockwise", "top-left", None, None),
    "Dragon Inferno": ("heroes", ["..X", "XXX", "X.."], "counterclockwise", "bottom-left", "D", "ongoing"),
    "Zombie Plague": ("heroes", ["X"], "counterclockwise", "top-left", "Z", "ongoing"),
    "Giant Troll Ravage": ("heroes", ["XXX", ".X."], "clockwise", "top-right", "T", "ongoing"),
    "Gorgon Gaze": ("heroes", ["X.X", ".X."], "clockwise", "bottom-right", "G", "once"),
}


def test_ambush_cards() -> None:
    cards = {c.name: c for c in data.ambush_cards()}
    assert set(cards) == set(AMBUSHES)
    for name, (game, shape, direction, corner, initial, acts) in AMBUSHES.items():
        card = cards[name]
        assert card.game == game
        assert rows(card.shape.cells) == shape, name
        assert card.pass_direction == direction == card.solo_direction
        assert card.solo_corner == corner
        assert card.initial == initial
        assert (card.effect is not None) == (acts is not None)
        assert card.ongoing == (acts == "ongoing"), name
        assert card.time == 0


def test_hero_cards() -> None:
    heroes = {h.name: set(h.attack) for h in data.hero_cards()}
    assert heroes == {
        "Dobrik of Lorkheim": {(-1, 0), (0, -1), (0, 1), (1, 0)},
        "Freyla the True": {(0, 1), (0, 2), (0, 3)},
        "Wren the Lioness": {(-1, 2), (0, 2), (1, 2)},
        "Dal of Jolev": {(-1, -1), (-1, 1), (1, -1), (1, 1)},
    }
    assert all(h.time == 0 for h in data.hero_cards())


def test_season_cards() -> None:
    seasons = data.season_cards()
    assert [(s.name, s.threshold, s.edicts) for s in seasons["base"]] == [
        ("spring", 8, ("A", "B")),
        ("summer", 8, ("B", "C")),
        ("fall", 7, ("C", "D")),
        ("winter", 6, ("D", "A")),
    ]
    # "The only difference between the sets is the time threshold for summer."
    assert [s.threshold for s in seasons["heroes"]] == [8, 7, 7, 6]
    assert [s.edicts for s in seasons["heroes"]] == [s.edicts for s in seasons["base"]]


SCORING = {
    # name: (game, card back, solo number)
    "Sentinel Wood": ("base", "forest", 25),
    "Greenbough": ("base", "forest", 22),
    "Treetower": ("base", "forest", 17),
    "Stoneside Forest": ("base", "forest", 18),
    "Canal Lake": ("base", "farm_water", 24),
    "Mages Valley": ("base", "farm_water", 22),
    "The Golden Granary": ("base", "farm_water", 20),
    "Shoreside Expanse": ("base", "farm_water", 27),
    "Wildholds": ("base", "village", 16),
    "Great City": ("base", "village", 16),
    "Greengold Plains": ("base", "village", 21),
    "Shieldgate": ("base", "village", 20),
    "Borderlands": ("base", "spatial", 24),
    "Lost Barony": ("base", "spatial", 24),
    "The Broken Road": ("base", "spatial", 24),
    "The Cauldrons": ("base", "spatial", 20),
    "Faunlost Thicket": ("heroes", "forest", 16),
    "Heart of the Forest": ("heroes", "forest", 22),
    "Deepwood": ("heroes", "forest", 18),
    "Sleepy Valley": ("heroes", "forest", 24),
    "Craylund": ("heroes", "farm_water", 12),
    "Clawsgrave Peaks": ("heroes", "farm_water", 15),
    "Ulem's Wallow": ("heroes", "farm_water", 14),
    "Jorekburg": ("heroes", "farm_water", 18),
    "Traylo Monastery": ("heroes", "village", 14),
    "Gnomish Colony": ("heroes", "village", 12),
    "Outer Enclave": ("heroes", "village", 12),
    "Caravansary": ("heroes", "village", 16),
    "Dwarvenholds": ("heroes", "spatial", 28),
    "Banded Hills": ("heroes", "spatial", 28),
    "Silos": ("heroes", "spatial", 30),
    "Starlit Sigil": ("heroes", "spatial", 30),
}


def test_scoring_cards() -> None:
    infos = {c.name: c for c in data.scoring_card_infos()}
    assert {n: (c.game, c.back, c.solo) for n, c in infos.items()} == SCORING
    for back in CARD_BACKS:
        for game in ("base", "heroes"):
            assert sum(c.back == back and c.game == game for c in infos.values()) == 4


def test_english_text_stands_over_the_czech_printing() -> None:
    rules = {c.name: c.rule for c in data.scoring_card_infos()}
    assert rules["Jorekburg"].startswith("Earn four reputation stars")
    assert "five or more forest" in rules["Deepwood"]


def test_scoring_function_docstrings_are_the_rule_sentences() -> None:
    from referee.rules.cards import all_cards

    for card in all_cards():
        doc = " ".join((card.score.__doc__ or "").split())
        assert doc == card.info.rule, card.name


def test_first_game_and_solo_titles() -> None:
    # "Faunlost Thicket (edict A), Gnomish Colony (edict B), Ulem's Wallow
    # (edict C), Dwarvenholds (edict D)." -- Heroes rulebook, first game
    assert data.first_game_edicts()["heroes"] == {
        "A": "Faunlost Thicket",
        "B": "Gnomish Colony",
        "C": "Ulem's Wallow",
        "D": "Dwarvenholds",
    }
    assert data.solo_titles() == (
        (30, "Legendary Cartographer"),
        (20, "Master Mapsmith"),
        (10, "Journeyman Topographer"),
        (0, "Apprentice Surveyor"),
        (-5, "Amateur Assessor"),
        (-10, "Inept Assistant"),
        (-20, "Dimwitted Doodler"),
        (-30, "Oblivious Inkdrinker"),
    )
