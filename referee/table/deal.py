"""A table's deal, recomputed from its stored setup, and the cards by name.

A table stores only its setup and how many reveals the host made; the deal
itself is pure (``referee.rules.deck``) and the same setup always deals the
same game, so it is computed again whenever it is needed and cached here.
The card lookups turn the names a deal or a sheet stores back into the
printed cards.
"""

from __future__ import annotations

from functools import cache, lru_cache

from referee.rules import data, deck, heroes
from referee.rules.cards import Printing
from referee.rules.geometry import Cell
from referee.rules.i18n import Text, pgettext
from referee.store.models import GameTable

SEASONS = ("spring", "summer", "fall", "winter")
"""The four seasons in play order, as the deal and the pages' addresses name them."""

SEASON_NAMES: dict[str, Text] = {
    "spring": pgettext("season", "Spring"),
    "summer": pgettext("season", "Summer"),
    "fall": pgettext("season", "Fall"),
    "winter": pgettext("season", "Winter"),
}
"""Each season as a heading or the start of a sentence writes it (jaro, léto,
podzim, zima in the Czech rulebook); ``.lower()`` inside a sentence."""


@lru_cache(maxsize=512)
def dealt(setup: deck.Setup) -> deck.Deal:
    """The deal of a setup (pure, so cached)."""
    return deck.deal(setup)


def setup_of(table: GameTable) -> deck.Setup:
    """The dealer's setup a table was created with."""
    return deck.Setup.from_dict(table.setup["deal"])


def printing_of(table: GameTable) -> Printing:
    """The printing of the scoring cards a table scores by: the English cards
    unless the host chose another at setup (kept beside the deal, since it
    changes the scores, not the cards dealt)."""
    try:
        return Printing(table.setup.get("printing", Printing.ENGLISH.value))
    except ValueError:
        return Printing.ENGLISH


def map_side_of(table: GameTable) -> data.MapSide:
    """The side of the map sheet the table plays on (A when the setup predates the choice)."""
    return data.map_sides()[table.setup.get("map_side", "A")]


@cache
def explore_cards() -> dict[str, data.ExploreCard]:
    """Every explore card by its printed name."""
    return {c.name: c for c in data.explore_cards()}


@cache
def ambush_cards() -> dict[str, data.AmbushCard]:
    """Every ambush card by its printed name."""
    return {c.name: c for c in data.ambush_cards()}


@cache
def hero_cards() -> dict[str, data.HeroCard]:
    """Every hero card by its printed name."""
    return {c.name: c for c in data.hero_cards()}


@cache
def scoring_cards() -> dict[str, data.ScoringCardInfo]:
    """Every scoring card's printed facts by its name."""
    return {c.name: c for c in data.scoring_card_infos()}


def hero_patterns() -> dict[str, dict[str, list[Cell]]]:
    """Each hero card's attack offsets in each orientation, for the editor's preview."""
    return {
        h.name: {o.value: [o.turn(offset) for offset in h.attack] for o in heroes.Orientation}
        for h in data.hero_cards()
    }
