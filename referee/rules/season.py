"""End of a season: both edicts, coins and the monster penalty.

"Each player earns one reputation star for each filled-in coin symbol on
their coin track ... loses one reputation star for each empty space adjacent
to a monster space on their map." (Heroes rulebook, End of the Season)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from referee.rules.cards import CardScore, ScoringCard
from referee.rules.data import SeasonCard
from referee.rules.errors import ScoringError
from referee.rules.geometry import NEIGHBOURS, Cell, cell, where_all
from referee.rules.i18n import Text, _, ngettext
from referee.rules.sheet import MapSheet
from referee.rules.terrain import EMPTY, MONSTER, MOUNTAIN

EDICTS = ("A", "B", "C", "D")


def monster_penalty(sheet: MapSheet) -> tuple[int, frozenset[Cell]]:
    """Lose one reputation star for each empty space adjacent to a monster
    space, each empty space counted once. A destroyed monster is drawn as a
    destroyed space, so empty spaces beside it cost nothing.

    Returns the penalty (zero or less) and the penalised spaces."""
    codes = sheet.codes
    penalised = frozenset(
        cell(i)
        for i, code in enumerate(codes)
        if code == EMPTY and any(codes[n] == MONSTER for n in NEIGHBOURS[i])
    )
    return -len(penalised), penalised


def surrounded_mountains(sheet: MapSheet) -> list[Cell]:
    """Mountains whose four adjacent spaces are all filled: each one earned a
    coin when it was closed in."""
    filled = sheet.filled
    return [
        cell(i)
        for i, code in enumerate(sheet.codes)
        if code == MOUNTAIN and all(filled[n] for n in NEIGHBOURS[i])
    ]


def newly_surrounded(sheet: MapSheet, known: Iterable[Cell]) -> list[Cell]:
    """The mountains ``sheet`` surrounds that were not surrounded when the
    season began (``known``): "if a player surrounds a mountain space ...
    they fill in the next coin symbol", one coin each this season."""
    before = set(known)
    return [at for at in surrounded_mountains(sheet) if at not in before]


def coin_warning(sheet: MapSheet, coins: int, known: Iterable[Cell] = ()) -> Text | None:
    """A sentence when the coin track shows fewer coins than the map's
    surrounded mountains alone would have filled, else None.

    ``known`` are the mountains already surrounded when the season began: the
    player was warned about them then, so they alone bring no new warning
    (the sentence is said in the season a mountain is closed in, not every
    season after)."""
    mountains = surrounded_mountains(sheet)
    expected = min(len(mountains), sheet.side.coin_track)
    if coins >= expected or set(mountains) <= set(known):
        return None
    return ngettext(
        "The map surrounds %(num)d mountain (%(places)s), each worth a coin, "
        "but the coin track shows only %(coins)d.",
        "The map surrounds %(num)d mountains (%(places)s), each worth a coin, "
        "but the coin track shows only %(coins)d.",
        expected,
        places=where_all(mountains),
        coins=coins,
    )


def check_coins(sheet: MapSheet, coins: int) -> int:
    """The filled coin symbols, refused when they are not on the track."""
    track = sheet.side.coin_track
    if isinstance(coins, bool) or not isinstance(coins, int) or coins < 0:
        raise ScoringError(
            _("coins must be a whole number from 0 to %(track)d, not %(coins)r", track=track, coins=coins)
        )
    if coins > track:
        raise ScoringError(
            _(
                "the coin track of side %(side)s has %(track)d coin symbols; %(coins)d cannot be filled",
                side=sheet.side.letter,
                track=track,
                coins=coins,
            )
        )
    return coins


@dataclass(frozen=True)
class SeasonScore:
    """One row of the score sheet: both edicts, coins, monsters, total."""

    season: str
    edicts: tuple[tuple[str, str, CardScore], ...]
    """(edict letter, card name, its score) for the season's two edicts."""
    coins: int
    monsters: int
    """The monster penalty, zero or less."""
    penalised: frozenset[Cell] = field(default_factory=frozenset)
    warnings: tuple[Text, ...] = ()

    @property
    def total(self) -> int:
        return sum(s.stars for _, _, s in self.edicts) + self.coins + self.monsters


def score_season(
    sheet: MapSheet,
    season: SeasonCard,
    edicts: Mapping[str, ScoringCard],
    coins: int,
    known_mountains: Iterable[Cell] = (),
) -> SeasonScore:
    """Score a map at the end of ``season``: its two edicts, one star per
    filled coin symbol, minus one per empty space beside a monster.
    ``known_mountains`` were surrounded before the season (``coin_warning``)."""
    coins = check_coins(sheet, coins)
    scored = []
    for letter in season.edicts:
        if letter not in edicts:
            raise ScoringError(_("edict %(letter)s has no scoring card", letter=letter))
        card = edicts[letter]
        scored.append((letter, card.name, card.score(sheet)))
    monsters, penalised = monster_penalty(sheet)
    warning = coin_warning(sheet, coins, known_mountains)
    return SeasonScore(
        season=season.name,
        edicts=tuple(scored),
        coins=coins,
        monsters=monsters,
        penalised=penalised,
        warnings=(warning,) if warning else (),
    )
