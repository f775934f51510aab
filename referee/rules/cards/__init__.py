"""The 32 scoring cards, one function each, registered by printed name."""

from __future__ import annotations

from functools import cache

from referee.rules.cards import farm_water, forest, spatial, village  # noqa: F401  (registers)
from referee.rules.cards.card import CardScore, Line, Printing, ScoringCard, build_registry, differs, find


@cache
def registry(printing: Printing = Printing.ENGLISH) -> dict[str, ScoringCard]:
    """Every scoring card by its printed English name, in card order, scoring
    as ``printing`` prints it (the English cards unless a table chose another)."""
    return build_registry(printing)


def all_cards(printing: Printing = Printing.ENGLISH) -> tuple[ScoringCard, ...]:
    """All 32 scoring cards: the base game's 16, then Heroes' 16."""
    return tuple(registry(printing).values())


def card_named(name: str, printing: Printing = Printing.ENGLISH) -> ScoringCard:
    """The scoring card printed as ``name`` (case-insensitive); raises
    ``UnknownCardError`` with a suggestion when there is none."""
    return find(registry(printing), name)


__all__ = ["CardScore", "Line", "Printing", "ScoringCard", "all_cards", "card_named", "differs", "registry"]
