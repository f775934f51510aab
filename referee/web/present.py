"""What a dealer page shows, recomputed from a table's setup and taps.

The engine says which cards are face up; the table layer (``referee.table.deal``)
deals the game again from the stored setup and looks the cards up by name;
this module puts into words what the table does with them: who passes to whom
on an ambush, where a solo ambush starts, which edicts to score now.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.rules import data, deck
from referee.table import SEASON_NAMES, GameTable, dealt, setup_of
from referee.table.deal import ambush_cards, explore_cards, hero_cards, map_side_of, scoring_cards


@dataclass(frozen=True)
class CardView:
    """A revealed card with its printed contents."""

    reveal: deck.Reveal
    explore: data.ExploreCard | None = None
    ambush: data.AmbushCard | None = None
    hero: data.HeroCard | None = None

    @property
    def name(self) -> str:
        return self.reveal.name

    @property
    def kind(self) -> str:
        return self.reveal.kind

    @property
    def any_terrain(self) -> bool:
        """Rift Lands and Kethra's Gates: a 1x1 of any terrain shown."""
        return self.explore is not None and len(self.explore.terrains) > 2


def card_view(reveal: deck.Reveal) -> CardView:
    return CardView(
        reveal,
        explore=explore_cards().get(reveal.name),
        ambush=ambush_cards().get(reveal.name),
        hero=hero_cards().get(reveal.name),
    )


@dataclass(frozen=True)
class Edict:
    letter: str
    card: data.ScoringCardInfo

    @property
    def back(self) -> str:
        return data.CARD_BACK_NAMES[self.card.back]


def passes(players: list[str], direction: str) -> list[tuple[str, str]]:
    """Who passes their map sheet to whom. Seat order goes clockwise, so
    clockwise each player passes to the next seat, counterclockwise to the one before."""
    step = 1 if direction == "clockwise" else -1
    n = len(players)
    return [(players[i], players[(i + step) % n]) for i in range(n)]


@dataclass
class TableView:
    """Everything the host, follower and TV pages show."""

    table: GameTable
    setup: deck.Setup
    deal: deck.Deal
    position: deck.Position
    map_side: data.MapSide
    edicts: list[Edict]
    turn: list[CardView] = field(default_factory=list)
    column: list[CardView] = field(default_factory=list)
    ongoing: list[data.AmbushCard] = field(default_factory=list)
    ruins_waiting: bool = False

    @property
    def code(self) -> str:
        return self.table.code

    @property
    def taps(self) -> int:
        return self.position.taps

    @property
    def players(self) -> list[str]:
        """The names in seat order, read when a page shows them (``state`` does not)."""
        return self.table.player_names

    @property
    def total(self) -> int:
        return self.deal.turn_count()

    @property
    def season(self) -> deck.SeasonDeal:
        return self.deal.seasons[self.position.season_index]

    @property
    def season_name(self) -> str:
        return SEASON_NAMES[self.season.name]

    @property
    def next_season_name(self) -> str | None:
        i = self.position.season_index + 1
        return SEASON_NAMES[self.deal.seasons[i].name] if i < 4 else None

    @property
    def card(self) -> CardView | None:
        """The card that decides this turn (the last one revealed)."""
        return self.turn[-1] if self.turn else None

    @property
    def ruins_in_turn(self) -> list[CardView]:
        return [c for c in self.turn if c.kind == "ruins"]

    @property
    def scoring_now(self) -> list[Edict]:
        letters = self.season.edicts
        return [e for e in self.edicts if e.letter in letters]

    @property
    def solo(self) -> bool:
        return self.setup.solo

    @property
    def edition_name(self) -> str:
        return deck.EDITION_NAMES[self.setup.edition]

    @property
    def can_reveal(self) -> bool:
        return not self.position.game_over

    @property
    def can_undo(self) -> bool:
        return self.position.taps > 0

    def passing(self) -> list[tuple[str, str]]:
        card = self.card
        if card is None or card.ambush is None:
            return []
        return passes(self.players, card.ambush.pass_direction)

    def state(self) -> dict[str, Any]:
        """The small JSON object followers poll."""
        return {
            "code": self.code,
            "taps": self.taps,
            "total": self.total,
            "season": self.season.name,
            "time": self.position.time,
            "threshold": self.season.threshold,
            "season_over": self.position.season_over,
            "game_over": self.position.game_over,
            "turn": [r.reveal.name for r in self.turn],
        }


def view_of(table: GameTable, taps: int | None = None) -> TableView:
    """What the dealer pages show of a table after ``taps`` reveals (by default, the table's own)."""
    setup = setup_of(table)
    game = dealt(setup)
    taps = table.taps if taps is None else taps
    position = game.position(taps)
    season = game.seasons[position.season_index]
    turns = season.turns[: position.turn_index]
    turn = [card_view(r) for r in turns[-1].reveals] if turns else []
    column = [card_view(r) for r in position.revealed]

    ruins_waiting = False
    for reveal in position.revealed:
        if reveal.kind == "ruins":
            ruins_waiting = True
        elif reveal.kind == "explore":
            ruins_waiting = False

    ongoing: list[data.AmbushCard] = []
    for index in range(position.season_index + 1):
        count = position.turn_index if index == position.season_index else len(game.seasons[index].turns)
        for t in game.seasons[index].turns[:count]:
            for reveal in t.reveals:
                ambush = ambush_cards().get(reveal.name)
                if reveal.kind == "ambush" and ambush is not None and ambush.effect:
                    ongoing.append(ambush)

    return TableView(
        table=table,
        setup=setup,
        deal=game,
        position=position,
        map_side=map_side_of(table),
        edicts=[Edict(letter, scoring_cards()[name]) for letter, name in sorted(game.edicts.items())],
        turn=turn,
        column=column,
        ongoing=ongoing,
        ruins_waiting=ruins_waiting and position.revealed[-1].kind in ("ambush", "hero"),
    )
