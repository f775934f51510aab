"""The 32 scoring cards, one function each, registered by printed name."""

from __future__ import annotations

from functools import cache

from referee.rules.cards import farm_water, forest, spatial, village  # noqa: F401  (registers)
from referee.rules.cards.card import CardScore, Line, ScoringCard, build_registry, find


@cache
def registry() -> dict[str, ScoringCard]:
    """Every scoring card by its printed English name, in card order."""
    return build_registry()


def all_cards() -> tuple[ScoringCard, ...]:
    """All 32 scoring cards: the base game's 16, then Heroes' 16."""
    return tuple(registry().values())


def card_named(name: str) -> ScoringCard:
    """The scoring card printed as ``name`` (case-insensitive); raises
    ``UnknownCardError`` with a suggestion when there is none."""
    return find(registry(), name)


__all__ = ["CardScore", "Line", "ScoringCard", "all_cards", "card_named", "registry"]
