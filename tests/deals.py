"""Deals that tests need: a seed whose spring reveals a given card.

A test of a hero or an ambush needs its card out before the season's end,
and which cards spring reveals depends on the seed; these are found, not
written down, so that a change to the deal finds another seed rather than
breaking the tests that need the card."""

from __future__ import annotations

from typing import Any

from referee.rules import deck, heroes


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


def ruins_waiting(between: str, later: bool, tries: int = 500, **setup: Any) -> tuple[str, int]:
    """A seed ``ruins-0``, ``ruins-1``, ... and the taps after which the
    turn shown is a ``between`` card ('ambush' or 'hero') while ruins wait
    for the next explore card: revealed by the ruins in the same turn, or
    (``later``) in a turn of its own after ruins and another card between.
    ``setup`` holds the game's other choices (a combined game's sets). Never
    a season's first turn: the reveal before it ends a season, and there the
    host's page may ask before it reveals."""
    for n in range(tries):
        seed = f"ruins-{n}"
        game = deck.deal(deck.Setup(seed=seed, **setup).check())
        taps = 0
        for season in game.seasons:
            waiting = False
            for turn in season.turns:
                taps += 1
                kinds = [r.kind for r in turn.reveals]
                shown = kinds == [between] if later else kinds[0] == "ruins" and kinds[-1] == between
                if shown and (waiting or not later) and turn is not season.turns[0]:
                    return seed, taps
                if kinds[-1] == "explore":
                    waiting = False
                elif "ruins" in kinds:
                    waiting = True
    raise AssertionError(f"no seed of {tries} shows a {between} while ruins wait")


def troll_and_dobrik_seed(rift: bool, tries: int = 2000) -> str:
    """The first Heroes seed ``troll-dobrik-0``, ``troll-dobrik-1``, ...
    whose spring reveals the Giant Troll Ravage as its one ambush, and
    Dobrik of Lorkheim, with an explore card whose terrains include monster
    (Rift Lands, Kethra's Gates) or not (``rift``). Few deals do (some 1 in
    800 without one), so they are looked for in the deck alone."""
    for n in range(tries):
        seed = f"troll-dobrik-{n}"
        spring = deck.deal(deck.Setup(edition="heroes", seed=seed).check()).seasons[0]
        cards = [r for turn in spring.turns for r in turn.reveals]
        if (
            [r.name for r in cards if r.kind == "ambush"] == ["Giant Troll Ravage"]
            and "Dobrik of Lorkheim" in [r.name for r in cards if r.kind == "hero"]
            and (sum(map(heroes.draws_monsters, cards)) > 1) == rift
        ):
            return seed
    raise AssertionError(f"no seed of {tries} reveals the troll and Dobrik in spring")
