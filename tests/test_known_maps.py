"""Every hand-counted map in tests/known_maps scores what the hand count says."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from referee.rules.cards import Printing, all_cards, card_named
from referee.rules.season import monster_penalty, surrounded_mountains
from referee.rules.sheet import MapSheet

KNOWN = sorted((Path(__file__).parent / "known_maps").glob("*.toml"))


def load(path: Path) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


CASES = [
    pytest.param(path, name, stars, id=f"{path.stem}:{name}")
    for path in KNOWN
    for name, stars in load(path).get("stars", {}).items()
]


@pytest.mark.parametrize(("path", "card", "stars"), CASES)
def test_card_scores_the_hand_count(path: Path, card: str, stars: int) -> None:
    known = load(path)
    sheet = MapSheet.parse(known["map"], known["side"])
    result = card_named(card, Printing(known.get("printing", "english"))).score(sheet)
    assert result.stars == stars, f"{card}: {known['counting'].get(card, '')} -- engine says {result.why}"


PRINTED_OTHERWISE = [
    pytest.param(path, name, stars, id=f"{path.stem}:{name}")
    for path in KNOWN
    for name, stars in load(path).get("english_stars", {}).items()
]


@pytest.mark.parametrize(("path", "card", "stars"), PRINTED_OTHERWISE)
def test_another_printing_scores_its_own_hand_count(path: Path, card: str, stars: int) -> None:
    """A map counted by another printing (the Czech one) is counted by the English
    cards too: the engine's English card gives the English count, and the two differ."""
    known = load(path)
    sheet = MapSheet.parse(known["map"], known["side"])
    english = card_named(card).score(sheet)
    printed = card_named(card, Printing(known["printing"])).score(sheet)
    assert english.stars == stars, f"{card}: {known['english_counting'][card]} -- engine says {english.why}"
    assert printed.stars != english.stars


@pytest.mark.parametrize("path", [p for p in KNOWN if "monsters" in load(p)], ids=lambda p: p.stem)
def test_monster_penalty_matches_the_hand_count(path: Path) -> None:
    known = load(path)
    penalty, _ = monster_penalty(MapSheet.parse(known["map"], known["side"]))
    assert penalty == known["monsters"]


@pytest.mark.parametrize(
    "path", [p for p in KNOWN if "surrounded_mountains" in load(p)], ids=lambda p: p.stem
)
def test_surrounded_mountains_match_the_hand_count(path: Path) -> None:
    known = load(path)
    found = surrounded_mountains(MapSheet.parse(known["map"], known["side"]))
    assert len(found) == known["surrounded_mountains"]


def test_every_card_has_two_known_maps_one_an_edge_case() -> None:
    maps: dict[str, list[dict]] = {card.name: [] for card in all_cards()}
    for path in KNOWN:
        known = load(path)
        for name in known.get("stars", {}):
            maps[card_named(name).name].append(known)
    thin = {name: len(found) for name, found in maps.items() if len(found) < 2}
    assert not thin, f"cards with fewer than two hand-counted maps: {thin}"
    no_edge = [name for name, found in maps.items() if not any(k.get("edge_cases") for k in found)]
    assert not no_edge, f"cards with no edge-case map: {no_edge}"


def test_every_known_map_explains_each_count() -> None:
    for path in KNOWN:
        known = load(path)
        missing = set(known.get("stars", {})) - set(known.get("counting", {}))
        assert not missing, f"{path.name}: no counting note for {missing}"
