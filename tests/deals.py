"""Deals that tests need: a seed whose spring reveals a given card.

A test of a hero or an ambush needs its card out before the season's end,
and which cards spring reveals depends on the seed; these are found, not
written down, so that a change to the deal finds another seed rather than
breaking the tests that need the card."""

from __future__ import annotations

from referee.rules import deck


def revealed_in_spring(setup: deck.Setup) -> list[str]:
    """The cards spring reveals in this deal, in order."""
    return [r.name for turn in deck.deal(setup.check()).seasons[0].turns for r in turn.reveals]


def spring_seed(card: str, prefix: str, edition: str = "heroes", tries: int = 500) -> str:
    """The first seed ``prefix-0``, ``prefix-1``, ... whose spring reveals ``card``."""
    for n in range(tries):
        seed = f"{prefix}-{n}"
        if card in revealed_in_spring(deck.Setup(edition=edition, seed=seed)):
            return seed
    raise AssertionError(f"no seed of {tries} reveals {card} in spring")
