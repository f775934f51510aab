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
from referee.rules.cards import Printing, differs
from referee.rules.i18n import Name, Text, _, join, pgettext
from referee.table import SEASON_NAMES, GameTable, dealt, setup_of
from referee.table.deal import (
    ambush_cards,
    explore_cards,
    hero_cards,
    map_side_of,
    printing_of,
    scoring_cards,
)

SEASON_ENDS: dict[str, Text] = {
    "spring": _("End of spring"),
    "summer": _("End of summer"),
    "fall": _("End of fall"),
    "winter": _("End of winter"),
}
"""The heading when a season's time is up (a whole phrase each: Czech puts
the season in the genitive, "konec jara")."""

KIND_NAMES: dict[str, Text] = {
    "explore": pgettext("card kind", "explore"),
    "ruins": pgettext("card kind", "ruins"),
    "ambush": pgettext("card kind", "ambush"),
    "hero": pgettext("card kind", "hero"),
}
CORNER_NAMES: dict[str, Text] = {
    "top-left": pgettext("corner", "top-left"),
    "top-right": pgettext("corner", "top-right"),
    "bottom-right": pgettext("corner", "bottom-right"),
    "bottom-left": pgettext("corner", "bottom-left"),
}
DIRECTION_NAMES: dict[str, Text] = {
    "clockwise": pgettext("direction", "clockwise"),
    "counterclockwise": pgettext("direction", "counterclockwise"),
}
ORIENTATION_NAMES: dict[str, Text] = {
    "printed": pgettext("attack pattern", "printed"),
    "rotated 90": pgettext("attack pattern", "rotated 90"),
    "rotated 180": pgettext("attack pattern", "rotated 180"),
    "rotated 270": pgettext("attack pattern", "rotated 270"),
    "flipped": pgettext("attack pattern", "flipped"),
    "flipped, rotated 90": pgettext("attack pattern", "flipped, rotated 90"),
    "flipped, rotated 180": pgettext("attack pattern", "flipped, rotated 180"),
    "flipped, rotated 270": pgettext("attack pattern", "flipped, rotated 270"),
}
"""A hero's attack pattern as the editor offers it (``heroes.Orientation``'s values)."""
PRINTING_NAMES: dict[str, Text] = {
    Printing.ENGLISH: _("the English printing"),
    Printing.CZECH: _("the Czech printing"),
}


def printing_note(printing: Printing, cards: list[str]) -> Text | None:
    """Which printing a table scores by, when it matters: when the host chose
    another than the English one, or one of the cards it changes is in play."""
    changed = [name for name in cards if name in differs(Printing.CZECH)]
    if printing == Printing.ENGLISH and not changed:
        return None
    if printing == Printing.ENGLISH:
        return _(
            "Scored by the English printing of the cards (%(cards)s as printed in English).",
            cards=join([Name("scoring", n) for n in changed]),
        )
    return _(
        "Scored by the Czech printing of the cards: Jorekburg gives 5 reputation stars a column, "
        "and Deepwood counts every forest cluster, not only those of five or more."
    )


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
    def back(self) -> Text:
        return data.CARD_BACK_LABELS[self.card.back]


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
    """The ambush cards out whose effect lasts, in the order they were revealed
    (the Gorgon's gaze acts once, as it is drawn, and is not among them)."""
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
    def season_name(self) -> Text:
        return SEASON_NAMES[self.season.name]

    @property
    def season_end(self) -> Text:
        return SEASON_ENDS[self.season.name]

    @property
    def printing(self) -> Printing:
        return printing_of(self.table)

    @property
    def printing_note(self) -> Text | None:
        return printing_note(self.printing, [e.card.name for e in self.edicts])

    @property
    def next_season_name(self) -> Text | None:
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
        """The edicts this season scores, in the season card's order (winter
        scores D, then A), as the list of the season's cards says them."""
        by_letter = {e.letter: e for e in self.edicts}
        return [by_letter[letter] for letter in self.season.edicts]

    @property
    def solo(self) -> bool:
        return self.setup.solo

    @property
    def edition_name(self) -> Text:
        return deck.EDITION_LABELS[self.setup.edition]

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
                if reveal.kind == "ambush" and ambush is not None and ambush.ongoing:
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
