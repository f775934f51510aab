"""The end of the game: totals, places, the tiebreak, and the solo title.

"In the event of a tie, the tied player who lost the fewest reputation stars
to monster terrain across all four seasons is the winner. If there is a
further tie, all tied players share the victory." (Heroes rulebook)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.rules.data import solo_titles
from referee.rules.errors import ScoringError
from referee.rules.i18n import Text, _, join, ngettext


@dataclass(frozen=True)
class PlayerTotals:
    """What the tiebreak needs of one player's score sheet."""

    name: str
    seasons: tuple[int, ...]
    """Each season's total, spring first."""
    monsters: tuple[int, ...]
    """Each season's monster penalty (zero or less), spring first."""

    @property
    def total(self) -> int:
        return sum(self.seasons)

    @property
    def lost_to_monsters(self) -> int:
        """Reputation stars lost to monsters over the game, as a positive number."""
        return -sum(self.monsters)


@dataclass(frozen=True)
class Standing:
    """One line of the final standings."""

    place: int
    """1 for the winner; tied players share a place."""
    player: PlayerTotals
    reason: Text
    """Why this place, in words."""

    @property
    def winner(self) -> bool:
        return self.place == 1


def _stars(n: int) -> Text:
    return ngettext("%(num)d star", "%(num)d stars", n)


def standings(players: Sequence[PlayerTotals]) -> list[Standing]:
    """Rank players by total; break ties by fewest stars lost to monsters;
    players still tied share the place (and, in first, the victory)."""
    if not players:
        raise ScoringError(_("there are no players to rank"))
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise ScoringError(_("two players have the same name; give each a different one"))
    key = {p.name: (-p.total, p.lost_to_monsters) for p in players}
    ordered = sorted(players, key=lambda p: key[p.name])
    result: list[Standing] = []
    for player in ordered:
        same_total = [p for p in players if p.total == player.total and p is not player]
        equal = [p for p in same_total if p.lost_to_monsters == player.lost_to_monsters]
        place = 1 + sum(1 for p in players if key[p.name] < key[player.name])
        if not same_total:
            reason = _("%(stars)s.", stars=_stars(player.total))
        elif not equal:
            reason = _(
                "%(stars)s, tied with %(others)s; the tiebreak counts stars lost to monsters: "
                "%(name)s lost %(lost)d, %(others_lost)s.",
                stars=_stars(player.total),
                others=join([p.name for p in same_total]),
                name=player.name,
                lost=player.lost_to_monsters,
                others_lost=", ".join(f"{p.name} {p.lost_to_monsters}" for p in same_total),
            )
        elif place == 1:
            reason = _(
                "%(stars)s and %(lost)d lost to monsters, the same as %(others)s: they share the victory.",
                stars=_stars(player.total),
                lost=player.lost_to_monsters,
                others=join([p.name for p in equal]),
            )
        else:
            reason = _(
                "%(stars)s and %(lost)d lost to monsters, the same as %(others)s: they share the place.",
                stars=_stars(player.total),
                lost=player.lost_to_monsters,
                others=join([p.name for p in equal]),
            )
        result.append(Standing(place, player, reason))
    return result


@dataclass(frozen=True)
class SoloResult:
    """Solo mode: the score, the cards' solo numbers, the rating and title."""

    score: int
    solo_numbers: int
    rating: int
    title: str


def solo_result(score: int, solo_numbers: Sequence[int]) -> SoloResult:
    """Subtract the numbers in the lower corners of the four scoring cards in
    play from the score; the title is the highest rating met or surpassed.
    Below the lowest (-30) the rulebook names none: such a rating gets the
    lowest title, Oblivious Inkdrinker, since it did no better."""
    if len(solo_numbers) != 4:
        raise ScoringError(_("solo mode plays four scoring cards, not %(count)d", count=len(solo_numbers)))
    total = sum(solo_numbers)
    rating = score - total
    titles = solo_titles()
    title = next((t for threshold, t in titles if rating >= threshold), titles[-1][1])
    return SoloResult(score, total, rating, title)
